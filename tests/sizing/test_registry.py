"""The registry: every formula well formed, the contract's names and inputs, evaluate and explain."""

from __future__ import annotations

import math

import pytest
import sympy

from tutor.sizing import registry
from tutor.sizing.derivation import Derivation, link, ref, symbol
from tutor.sizing.engine import Value, compiled, evaluate, explain
from tutor.sizing.errors import SizingError
from tutor.sizing.formula import RESULT_UNITS
from tutor.sizing.symbols import S, SYMBOLS, lookup

# The names and inputs other parts of the product are written against (notes/sizing.md CONTRACT).
CONTRACT = {
    "model_state_bytes": "params", "params_per_gpu": "params tp pp", "model_state_per_gpu": "params tp pp",
    "distopt_bytes": "params n_shard", "distopt_bytes_per_gpu": "params tp pp dp cp",
    "zero1_bytes": "params n_shard", "zero2_bytes": "params n_shard", "zero3_bytes": "params n_shard",
    "activation_bytes_per_layer": "seq micro_batch hidden tp cp",
    "activation_bytes_first_stage": "seq micro_batch hidden layers tp cp",
    "activation_bytes_first_stage_interleaved": "seq micro_batch hidden layers tp cp pp vpp",
    "activation_per_layer_none": "seq micro_batch hidden heads",
    "activation_per_layer_tp": "seq micro_batch hidden heads tp",
    "activation_per_layer_tp_sp": "seq micro_batch hidden heads tp",
    "activation_per_layer_selective": "seq micro_batch hidden tp",
    "activation_per_layer_full": "seq micro_batch hidden",
    "min_gpus_model_state": "params gpu_mem", "microbatches": "global_batch dp micro_batch",
    "bubble_fraction": "pp microbatches", "bubble_fraction_interleaved": "pp microbatches vpp",
    "bubble_wallclock": "pp microbatches vpp", "flops_per_token": "params",
    "flops_per_token_attn": "params layers hidden seq", "train_flops": "params tokens",
    "train_time_s": "params tokens gpus peak_flops mfu", "train_days": "params tokens gpus peak_flops mfu",
    "tokens_per_s_at_mfu": "params gpus peak_flops mfu", "mfu_from_tokens": "tokens_per_s params gpus peak_flops",
    "achieved_flops_per_gpu": "tokens_per_s params gpus", "step_time_s": "global_batch seq tokens_per_s",
    "checkpoint_bytes": "params", "checkpoint_bytes_per_gpu": "params gpus", "mtbf_hours": "days interruptions",
    "young_interval_s": "ckpt_write_s mtbf_s", "daly_interval_s": "ckpt_write_s mtbf_s",
    "tp_bytes_per_layer": "seq micro_batch hidden tp", "dp_grad_bytes": "params dp",
}


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_contract_names_and_inputs(name):
    assert set(registry.get(name).symbols) == set(CONTRACT[name].split())


@pytest.mark.parametrize("name", registry.names())
def test_every_formula_is_complete_and_compiles(name):
    item = registry.get(name)
    assert item.unit in RESULT_UNITS
    assert item.text.en.strip() and item.text.zh.strip() and item.source.strip()
    assert {symbol.name for symbol in item.expr.free_symbols} == set(item.symbols) <= set(SYMBOLS)
    assert callable(compiled(name))


def test_symbols_carry_assumptions():
    assert S["params"].is_positive and S["tp"].is_integer and S["layers"].is_integer
    assert lookup("Psi").name == "params" and lookup("TP").name == "tp" and lookup("Ψ").name == "params"


def test_values_in_base_units_with_their_unit():
    value = evaluate("distopt_bytes_per_gpu", params=70e9, tp=4, pp=4, dp=2, cp=2)
    assert isinstance(value, Value) and value.unit == "B"
    assert value == pytest.approx(4.375e9 * (6 + 12 / 4))


def test_zero_stages_match_the_zero_paper():
    psi, n = 1e9, 64
    assert evaluate("zero1_bytes", params=psi, n_shard=n) == pytest.approx(4 * psi + 12 * psi / n)
    assert evaluate("zero2_bytes", params=psi, n_shard=n) == pytest.approx(2 * psi + 14 * psi / n)
    assert evaluate("zero3_bytes", params=psi, n_shard=n) == pytest.approx(16 * psi / n)
    assert evaluate("distopt_bytes", params=psi, n_shard=n) == pytest.approx(6 * psi + 12 * psi / n)


def test_korthikanti_rows_agree_where_they_should():
    shape = dict(seq=2048, micro_batch=1, hidden=12288)
    with_tp = dict(shape, tp=8)
    assert evaluate("activation_per_layer_none", **shape, heads=96) == pytest.approx(
        2048 * 12288 * (34 + 5 * 96 * 2048 / 12288))
    assert evaluate("activation_per_layer_tp_sp", **with_tp, heads=96) == pytest.approx(
        evaluate("activation_per_layer_none", **shape, heads=96) / 8)
    assert evaluate("activation_per_layer_selective", **with_tp) == pytest.approx(
        evaluate("activation_bytes_per_layer", **with_tp, cp=1))
    tp_only = evaluate("activation_per_layer_tp", **with_tp, heads=96)
    assert tp_only > evaluate("activation_per_layer_tp_sp", **with_tp, heads=96)
    assert evaluate("activation_per_layer_full", **shape) == 2 * 2048 * 12288


def test_gpt_count_is_narayanan_eq2_when_the_mlp_is_4h():
    general = registry.get("params_gpt").expr.xreplace({S["ffn"]: 4 * S["hidden"]})
    assert sympy.simplify(general - registry.get("params_gpt_n21").expr) == 0


def test_architecture_counts_match_published_sizes():
    assert evaluate("params_llama", model="llama3-8b") == pytest.approx(8.03e9, rel=2e-3)
    assert evaluate("params_llama", model="llama3-70b") == pytest.approx(70.6e9, rel=2e-3)
    assert evaluate("params_moe_llama", model="mixtral-8x7b") == pytest.approx(46.7e9, rel=2e-3)  # Mixtral: 47B
    assert evaluate("active_params_moe_llama", model="mixtral-8x7b") == pytest.approx(12.9e9, rel=5e-3)  # 13B
    assert evaluate("params_gpt_n21", model="dense-1t", seq=2048) == pytest.approx(1008e9, rel=1e-3)  # N21 Table 1


def test_daly_reproduces_the_papers_examples():
    minutes = lambda delta, mtbf: evaluate("daly_interval_s", ckpt_write_s=delta, mtbf_s=mtbf) / 60  # noqa: E731
    assert round(minutes(300, 24 * 3600)) == 117
    assert round(minutes(300, 6 * 3600)) == 57
    assert round(minutes(300, 15 * 60), 1) == 9.1
    assert evaluate("daly_interval_s", ckpt_write_s=3000, mtbf_s=900) == 900  # δ ≥ 2M: checkpoint every M
    assert round(evaluate("young_interval_s", ckpt_write_s=60, mtbf_s=3.1 * 3600) / 60) == 19  # facts.md §9


@pytest.mark.parametrize("inputs, message", [
    ({"params": 70e9}, "needs tp, pp"),
    ({"params": 70e9, "tp": 4, "pp": 4, "banana": 1}, "does not take banana"),
    ({"params": -1, "tp": 4, "pp": 4}, "positive"),
    ({"params": "banana", "tp": 4, "pp": 4}, "not a number"),
    ({"params": 70e9, "tp": 2.5, "pp": 4}, "whole number"),
    ({"params": 1e30, "tp": 4, "pp": 4}, "more than the engine accepts: at most 1,000,000,000,000,000"),
    ({"params": float("nan"), "tp": 4, "pp": 4}, "finite"),
    ({"params": True, "tp": 4, "pp": 4}, "number"),
])
def test_bad_inputs_are_one_clear_sizing_error(inputs, message):
    with pytest.raises(SizingError, match=message):
        evaluate("params_per_gpu", **inputs)


def test_unknown_formula_suggests_the_closest():
    with pytest.raises(SizingError, match="did you mean distopt_bytes"):
        evaluate("distopt_byte", params=1, n_shard=1)


def test_fractions_and_suffixes():
    with pytest.raises(SizingError, match="fraction"):
        evaluate("tokens_per_s_at_mfu", params=8e9, gpus=32, peak_flops=989e12, mfu=40)
    assert evaluate("params_per_gpu", params="70B", tp=4, pp=4) == 4.375e9


def test_presets_expand_to_the_symbols_a_formula_uses():
    assert evaluate("tokens_per_s_at_mfu", params=8e9, gpus=32, gpu="H100", mfu=0.4) == pytest.approx(
        0.4 * 32 * 989e12 / 48e9)
    assert evaluate("model_state_per_gpu", model="llama3-405b", tp=8, pp=16) == pytest.approx(
        405.8533888e9 * 16 / 128)  # counted from the released shape
    assert evaluate("model_state_per_gpu", model="llama3-405b", params=1e12, tp=8, pp=16) == 1e12 * 16 / 128


def test_explain_shows_the_way_in_both_languages():
    en = explain("distopt_bytes_per_gpu", {"params": 70e9, "tp": 4, "pp": 4, "dp": 2, "cp": 2})
    assert [step["id"] for step in en] == ["params_per_gpu", "distopt_bytes_per_gpu"]
    assert all(set(step) == {"id", "formula", "substituted", "value", "unit"} for step in en)
    assert en[1]["formula"] == "distopt_bytes_per_gpu = Ψ·(6 + 12/(CP·DP))/(PP·TP)"
    assert en[1]["substituted"] == "70e9·(6 + 12/(2·2))/(4·4) = 39.4 GB"
    zh = explain("train_days", {"params": 1e12, "tokens": 2e12, "gpus": 8192, "gpu": "h100", "mfu": 0.4}, "zh")
    assert zh[-1]["substituted"].endswith("= 42.9 天")


def test_derivation_runs_and_fuses_to_the_same_numbers():
    chain = Derivation([link("held", "params_per_gpu"),
                        link("state", "distopt_bytes", params=ref("held"), n_shard=symbol("dp") * symbol("cp"))])
    values = {"params": 70e9, "tp": 4, "pp": 4, "dp": 2, "cp": 2}
    out, steps = chain.run(values)
    names, fused = chain.fused(["state"])
    assert out["state"] == pytest.approx(39.375e9)
    assert fused(*(values[name] for name in names))[0] == out["state"]
    assert "N ← CP·DP = 4" in steps[1]["substituted"]
    assert "Ψ ← held = 4.375e9" in steps[1]["substituted"]


def test_division_by_zero_and_overflow_become_sizing_errors():
    assert math.isfinite(evaluate("model_state_bytes", params=1e15))
    with pytest.raises(SizingError):
        evaluate("bubble_fraction", pp=1e7, microbatches=1e-320)


def test_docs_list_every_formula():
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "sizing.md").read_text(encoding="utf-8")
    listed = {line.split("`")[1] for line in docs.splitlines() if line.startswith("| `")}
    assert listed == set(registry.names())
