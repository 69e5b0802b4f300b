"""DeepSeek-V3's memory savings as engine options (issue 18, DeepSeek-V3 in the planner's top five).

Each option against a hand computation at the published layout (TP 1, PP 16, EP 64, DP 128 with the
distributed optimizer, 2,048 H800s, 4K tokens, batch 15,360): 61 layers, so the fullest stage holds
⌈61/16⌉ = 4 layers × min(m, p) = 16 micro-batches = 64 layer-micro-batches of activations;
h = 7168, MLA latents r_q + r_kv + d_R = 1536 + 512 + 64 = 2112 values a token.
"""

from __future__ import annotations

import pytest

from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.planner import plan, Options
from tutor.sizing.presets import model_preset
from tutor.sizing.report import size
from tutor.sizing.specs import Model, Parallel, Train

H800 = gpu("h800-80gb")
DEEPSEEK = model_preset("deepseek-v3")
TRAIN = Train(seq=4096, global_batch=15360)
S, H, LATENTS, IN_FLIGHT = 4096, 7168, 1536 + 512 + 64, 4 * 16


def published(**extra) -> dict:
    return size(DEEPSEEK, TRAIN, Parallel(gpus=2048, tp=1, pp=16, ep=64, dp=128, sharding="distopt", **extra), H800)


@pytest.fixture(scope="module")
def baseline() -> dict:
    return published()


def _steps(report: dict) -> str:
    return " ".join(f"{step['formula']} {step.get('source', '')} {step.get('text', '')}" for step in report["steps"])


def test_options_are_off_by_default(baseline):
    assert baseline["memory"]["total"] == pytest.approx(86.8e9, rel=1e-3)
    assert baseline["memory"]["activations_per_layer"] == pytest.approx(34 * S * H)


def test_bf16_moments_take_optimizer_state_from_12_to_8_bytes(baseline):
    report = published(moments="bf16")
    shard = baseline["memory"]["optimizer"] * 128 / 12  # the stage's parameters, every expert counted
    assert report["memory"]["optimizer"] == pytest.approx(8 * shard / 128)
    assert baseline["memory"]["total"] - report["memory"]["total"] == pytest.approx(4 * shard / 128)
    assert report["memory"]["grads"] == baseline["memory"]["grads"]  # fp32 gradients kept, as published
    step = next(item for item in report["steps"] if item["id"] == "model_state")
    assert "8·Ψ_shard/N" in step["formula"]


@pytest.mark.parametrize(("savings", "per_layer"), [
    (("norm_up",), S * (24 * H + 2 * LATENTS)),  # 34 − 4 (norm outputs) − 6 (Q, K, V) + latents in bf16
    (("fp8",), 19.5 * S * H),  # 34 − 1 − 1 − 0.5 (E5M6) − 4 (SwiGLU input in FP8) − 8 (its output recomputed)
    (("norm_up", "fp8"), S * (11.5 * H + LATENTS)),
    (("fp8", "norm_up"), S * (11.5 * H + LATENTS)),  # order does not matter
])
def test_activation_savings_against_the_hand_count(savings, per_layer, baseline):
    report = published(savings=savings)
    assert report["memory"]["activations_per_layer"] == pytest.approx(per_layer)
    assert report["memory"]["activations"] == pytest.approx(per_layer * IN_FLIGHT)
    assert report["memory"]["model_state"] == baseline["memory"]["model_state"]
    assert report["memory"]["activations_per_layer"] < baseline["memory"]["activations_per_layer"]


def test_derivation_text_cites_each_saving(cli):
    base = ("size", "--model", "deepseek-v3", "--gpus", "2048", "--pp", "16", "--ep", "64", "--gpu", "h800",
            "--seq", "4096", "--global-batch", "15360", "--distributed-optimizer")
    for flags, section in ((("--moments", "bf16"), "§3.3.3"), (("--recompute-norm-up",), "§3.2.3"),
                           (("--fp8-activations",), "§3.3.3")):
        code, text, err = cli(*base, *flags)
        assert code == 0, err
        assert f"arXiv 2412.19437 {section}" in text
        _, zh, _ = cli(*base, *flags, "--lang", "zh")
        assert "2412.19437" in zh
    _, plain, _ = cli(*base)
    assert "2412.19437" not in plain and "86.8 GB" in plain


def test_full_recompute_keeps_the_layer_input_whatever_the_savings():
    assert published(recompute="full", savings=("norm_up", "fp8"))["memory"]["activations_per_layer"] == \
        pytest.approx(2 * S * H)


def test_savings_outside_what_is_modelled_are_one_line_errors(cli):
    llama = model_preset("llama3-8b")
    with pytest.raises(SizingError, match="multi-head latent attention"):
        size(llama, Train(), Parallel(gpus=8, tp=8, savings=("norm_up",)))
    with pytest.raises(SizingError, match="34·s·b·h row"):
        size(llama, Train(), Parallel(gpus=8, tp=8, savings=("fp8",)))  # a dense MLP row (18 + 4f/h)
    with pytest.raises(SizingError, match="distributed optimizer"):
        size(DEEPSEEK, TRAIN, Parallel(gpus=2048, tp=1, pp=16, ep=64, dp=128, sharding="zero1", moments="bf16"))
    with pytest.raises(SizingError, match="moments must be one of"):
        Parallel(moments="fp16")
    code, _, err = cli("size", "--model", "deepseek-v3", "--pp", "16", "--ep", "64", "--dp", "128",
                       "--moments", "bf16")
    assert code == 2 and "distributed optimizer" in err and "Traceback" not in err


@pytest.mark.timeout(60)
def test_published_recipe_puts_the_published_layout_in_the_top_five(cli):
    # Before (default options): TP 1 PP 16 EP 64 23rd of 25, only with full recompute (86.8 GB without it).
    # Under DeepSeek-V3's recorded recipe it fits without recompute (43.6 GB) and ranks 2nd of 7, after PP 8,
    # which fits too (53.4 GB) and the recipe's "smallest PP that fits" puts first.
    code, planned, err = cli("plan", "--model", "deepseek-v3", "--gpus", "2048", "--gpu", "h800-80gb", "--published",
                             "--alternatives", "10", "--json")
    assert code == 0, err
    ranked = [planned["best"]] + planned["alternatives"]
    layouts = [(item["tp"], item["pp"], item["ep"], item["recompute"]) for item in ranked]
    position = layouts.index((1, 16, 64, "none")) + 1
    assert position <= 5
    item = ranked[position - 1]
    assert item["memory"]["total"] == pytest.approx(published(moments="bf16", savings=("norm_up", "fp8"))
                                                    ["memory"]["total"])
    assert item["memory"]["total"] <= 72e9 and item["sharding"] == "distopt" and item["dp"] == 128
    if position > 1:
        assert "PP 16 is more than needed" in item["why"]
    steps = " ".join(step["text"] for step in planned["steps"])
    assert planned["steps"][0]["id"] == "published" and "§3.2 (no TP, 16-way PP" in steps
    assert "DeepSeek-V3 §3.2.3" in steps and "BF16 AdamW moments" in steps and "11.8·s·b·h" in steps
    # The Python API, the same options: the same place.
    options = Options(tp=(1,), ep=(64,), sharding="distopt", moments="bf16", savings=("norm_up", "fp8"))
    result = plan(DEEPSEEK, TRAIN, 2048, H800, alternatives=10, options=options)
    assert [(i["tp"], i["pp"], i["ep"], i["recompute"]) for i in [result["best"]] + result["alternatives"]] == layouts


def test_published_settings_give_way_to_typed_switches(cli):
    code, planned, err = cli("plan", "--model", "deepseek-v3", "--gpus", "2048", "--gpu", "h800", "--published",
                             "--moments", "fp32", "--ep", "32", "--alternatives", "0", "--json")
    assert code == 0, err
    assert planned["best"]["ep"] == 32 and planned["best"]["tp"] == 1
    assert "BF16 AdamW moments" not in " ".join(step["text"] for step in planned["steps"] if step["id"] != "published")


def test_published_needs_a_recorded_recipe(cli):
    code, _, err = cli("plan", "--model", "llama3-70b", "--gpus", "64", "--published")
    assert code != 0 and "no published recipe" in err


@pytest.mark.timeout(60)
def test_bf16_moments_plan_a_dense_model_with_the_distributed_optimizer_only():
    result = plan(model_preset("llama3-70b"), Train(seq=8192, global_batch=512), 64, gpu("h100"), alternatives=5,
                  options=Options(moments="bf16"))
    ranked = [result["best"]] + result["alternatives"]
    assert all(item["sharding"] == "distopt" and item["dp"] * item["cp"] > 1 for item in ranked)
    default = plan(model_preset("llama3-70b"), Train(seq=8192, global_batch=512), 64, gpu("h100"), alternatives=0)
    same = next(item for item in ranked if (item["tp"], item["pp"], item["cp"]) ==
                (default["best"]["tp"], default["best"]["pp"], default["best"]["cp"]))
    assert same["memory"]["total"] < default["best"]["memory"]["total"] or default["best"]["sharding"] != "distopt"


def test_model_without_mla_has_no_latent_inputs():
    # A custom MoE without MLA can still use FP8 caching (the 34 row): no MLA fields needed.
    moe = Model("moe", None, "llama", layers=8, hidden=1024, heads=8, kv_heads=8, ffn=4096, vocab=1000, experts=8,
                top_k=2)
    report = size(moe, Train(seq=1024), Parallel(gpus=8, tp=1, ep=8, dp=8, sharding="distopt", savings=("fp8",)))
    assert report["memory"]["activations_per_layer"] == pytest.approx(19.5 * 1024 * 1024)


@pytest.mark.timeout(120)
def test_published_plan_says_the_recipes_own_bytes_of_model_state(cli):
    # Under --published (BF16 moments, the distributed optimizer's fp32 gradients) the memory-first line said
    # "16 bytes × Ψ ... at least 135 GPUs": the bytes of another precision. The recipe keeps 2 + 4 + 4 + 2 + 2
    # = 14 bytes a parameter unsharded (distopt_bytes_bf16_moments at N = 1): ⌈14 · 671e9 / 80e9⌉ = 118 GPUs.
    import math

    for lang, needles in (("en", ("14 bytes × Ψ", "at least 118 GPUs", "135 GPUs of 80.0 GB")),
                          ("zh", ("14 字节 × Ψ", "至少要 118 张卡", "135 张 80.0 GB"))):
        code, planned, err = cli("plan", "--model", "deepseek-v3", "--gpus", "2048", "--published", "--json",
                                 "--lang", lang)
        assert code == 0, err
        memory = next(step["text"] for step in planned["steps"] if step["id"] == "memory")
        assert all(needle in memory for needle in needles), memory
        assert math.ceil(14 * planned["best"]["params"] / 80e9) == 118
    code, planned, _ = cli("plan", "--model", "llama3-70b", "--gpus", "64", "--json")
    memory = next(step["text"] for step in planned["steps"] if step["id"] == "memory")
    assert "16 bytes × Ψ" in memory and "this recipe" not in memory  # FP32 moments: the 16 bytes stand
