"""One test per defect of issue 18 (../shared/findings/engine-vs-references.md, F1–F11 and the Fix list).

Each reproduces the finding's command and asserts the figure the references (Megatron-LM's
estimator, the papers) give; each failed before its fix.
"""

from __future__ import annotations

import pytest

GB = 1e9


def step(report: dict, step_id: str) -> float:
    return next(item["value"] for item in report["steps"] if item["id"] == step_id)


def has_step(report: dict, step_id: str) -> bool:
    return any(item["id"] == step_id for item in report["steps"])


@pytest.fixture
def size(cli):
    def run(*argv, status=0):
        code, report, err = cli("size", *argv, "--json")
        assert code == status, err
        return report
    return run


# 1. The first pipeline stage holds the embedding (F1, F4).

def test_first_stage_embedding_counts_in_memory_and_fit(size):
    # 70B TP1 PP32 CP4: 3 layers of 0.856B + the 1.05B input embedding = 3.62B per GPU, 16 B each = 57.9 GB
    report = size("--model", "llama3-70b", "--tp", "1", "--pp", "32", "--cp", "4", "--dp", "8", "--seq", "4096",
                  "--global-batch", "1024")
    first = step(report, "first_stage_params")
    assert first == pytest.approx(3.62e9, rel=0.01)
    assert report["memory"]["model_state"] == pytest.approx(16 * first)
    assert report["memory"]["total"] > 80 * GB and not report["memory"]["fits"]


def test_first_stage_moe(size):
    # Mixtral TP8 PP16 EP8: the first stage holds the 0.131B embedding over TP besides its 2 layers.
    report = size("--model", "mixtral-8x7b", "--tp", "8", "--pp", "16", "--dp", "8", "--ep", "8",
                  "--distributed-optimizer", "--global-batch", "1024")
    even = report["params_per_gpu"]
    first = step(report, "first_stage_params")
    assert first > even * 1.15  # Megatron's most loaded shard is 20% above the even split
    assert report["memory"]["weights"] == pytest.approx(2 * first)


# 2. Full recompute with sequence parallelism keeps the saved input split over TP (F2).

def test_full_recompute_with_sp_splits_the_checkpoint(size):
    base = ("--model", "llama3-405b", "--tp", "8", "--pp", "16", "--dp", "128", "--seq", "8192",
            "--global-batch", "2048", "--distributed-optimizer", "--recompute", "full")
    with_sp = size(*base, "--sp")["memory"]["activations"]
    without_sp = size(*base, "--no-sp")["memory"]["activations"]
    assert without_sp == pytest.approx(8 * with_sp)
    # 2·s·b·h/TP per layer; Llama 3's split (7, 8, ..., 8, 7 layers): stage 1 holds 15 micro-batches × 8 layers
    assert with_sp == pytest.approx(2 * 8192 * 16384 * 120 / 8)


# 3. FLOPs do not count the untied input embedding; the causal convention is stated (F3).

def test_flops_exclude_the_input_embedding(size):
    report = size("--model", "llama3-8b", "--gpus", "8", "--seq", "8192", "--global-batch", "64",
                  "--tokens-per-sec", "1e5")
    params, lookup = report["params"], 128256 * 4096
    assert report["flops"]["per_token_6n"] == pytest.approx(6 * (params - lookup))
    assert report["throughput"]["mfu"] == pytest.approx(1e5 * 6 * (params - lookup) / (8 * 989e12))


def test_causal_convention_is_stated_in_the_derivation(cli):
    code, text, _ = cli("size", "--model", "llama3-8b", "--gpus", "8", "--seq", "8192", "--global-batch", "64")
    assert code == 0
    assert "causal" in text


# 4. --achieved-tflops is hardware FLOP/s (with recompute); Narayanan eq. 4 (F5).

def test_narayanan_eq4_gpt3_34_days(size):
    report = size("--params", "175e9", "--tokens", "300e9", "--gpus", "1024", "--tp", "8", "--pp", "8",
                  "--seq", "2048", "--global-batch", "1536", "--recompute", "full", "--achieved-tflops", "140")
    assert report["train_days"] == pytest.approx(8 * 300e9 * 175e9 / (1024 * 140e12) / 86400, rel=1e-9)
    assert 33 < report["train_days"] < 35


def test_achieved_tflops_never_imply_mfu_above_it(size):
    report = size("--model", "llama3-405b", "--gpus", "16384", "--tp", "8", "--pp", "16", "--cp", "16", "--dp", "8",
                  "--seq", "131072", "--global-batch", "128", "--distributed-optimizer", "--achieved-tflops", "380")
    assert report["throughput"]["mfu_attn"] == pytest.approx(380 / 989, rel=1e-6)
    assert report["throughput"]["mfu"] < report["throughput"]["mfu_attn"]


# 5. Smaller defects (F6–F11).

def test_tokens_per_s_given_is_reported(size):
    report = size("--model", "llama3-8b", "--gpus", "64", "--global-batch", "512", "--tokens-per-sec", "1e6")
    assert report["throughput"]["tokens_per_s"] == 1e6


@pytest.mark.parametrize("kv", ["64", "3"])
def test_kv_heads_must_divide_heads(size, kv):
    report = size("--arch", "llama", "--layers", "32", "--hidden", "4096", "--heads", "32", "--ffn", "14336",
                  "--vocab", "128256", "--kv-heads", kv, status=2)
    assert any("KV heads" in error and "32 heads" in error for error in report["errors"])


def test_kv_heads_replicated_when_tp_exceeds_them(size):
    report = size("--model", "llama3-70b", "--tp", "16", "--pp", "1", "--dp", "1", "--global-batch", "8")
    assert not any("KV" in error for error in report["errors"])
    assert any("replicat" in warning for warning in report["warnings"])


def test_distributed_optimizer_over_one_rank_costs_no_more(size):
    plain = size("--model", "llama3-8b", "--dp", "1")["memory"]["model_state"]
    sharded = size("--model", "llama3-8b", "--distributed-optimizer", "--dp", "1")
    assert sharded["memory"]["model_state"] <= plain
    assert any("nothing is saved" in warning for warning in sharded["warnings"])


def test_plan_with_nothing_evaluated_does_not_blame_memory(cli):
    code, result, _ = cli("plan", "--model", "llama3-8b", "--gpus", "1e7", "--json")
    assert code == 1
    text = " ".join(step["text"] for step in result["steps"])
    assert "add GPUs" not in text and "global batch" in text


def test_plan_exits_nonzero_when_best_has_an_error(cli):
    code, result, _ = cli("plan", "--model", "llama3-8b", "--gpus", "64", "--tokens-per-sec", "1e12", "--json")
    assert result["best"]["errors"]
    assert code == 2


def test_uneven_stages_count_the_fullest_stage(size):
    # 80 layers on PP 32: the first stage holds ⌈80/32⌉ = 3 layers × 32 micro-batches in flight = 96 layers' worth.
    report = size("--model", "llama3-70b", "--tp", "8", "--pp", "32", "--dp", "1", "--global-batch", "64")
    assert report["memory"]["activations"] == pytest.approx(96 * report["memory"]["activations_per_layer"])


# 6. Defaults a user can see.

def test_gpt_without_ffn_assumes_4h_and_says_so(size):
    report = size("--arch", "gpt", "--layers", "24", "--hidden", "2048", "--heads", "16", "--vocab", "50257")
    assert report["params"] == pytest.approx(24 * (12 * 2048**2 + 13 * 2048) + (50257 + 4096) * 2048)
    assert any("4h" in warning for warning in report["warnings"])


def test_missing_global_batch_is_shown_as_assumed(size):
    report = size("--model", "llama3-8b", "--gpus", "64", "--pp", "4")
    assert any("assumed" in warning and "1024" in warning for warning in report["warnings"])
    silent = size("--model", "llama3-8b", "--gpus", "64", "--pp", "4", "--global-batch", "1024")
    assert not any("assumed" in warning for warning in silent["warnings"])


def test_m_below_p_is_a_warning_with_its_bubble(size):
    report = size("--model", "llama3-70b", "--tp", "8", "--pp", "8", "--dp", "1", "--global-batch", "4")
    assert report["errors"] == []
    assert any("m = 4" in warning and "175%" in warning for warning in report["warnings"])
    assert report["pipeline"]["bubble"] == pytest.approx(7 / 4)
    # only m micro-batches are ever in flight on the first stage
    assert report["memory"]["activations"] == pytest.approx(4 * 10 * report["memory"]["activations_per_layer"])


def test_few_tokens_per_cp_rank_is_warned(size):
    report = size("--model", "llama3-8b", "--cp", "4096", "--seq", "8192", "--global-batch", "1")
    assert any("tokens per CP rank" in warning for warning in report["warnings"])


# 7. Presets from their real shapes.

@pytest.mark.parametrize(("name", "total", "active"), [
    ("llama3-8b", 8.03e9, None), ("llama3-70b", 70.55e9, None), ("llama3-405b", 405.85e9, None),
    ("mixtral-8x7b", 46.7e9, 12.9e9), ("gpt3-175b", 174.6e9, None),
    ("deepseek-v3", 671e9, 37e9),
])
def test_presets_from_real_shapes(name, total, active):
    from tutor.sizing.engine import model_values
    from tutor.sizing.presets import model_preset

    values = model_values(model_preset(name), 2048)
    assert values["params"] == pytest.approx(total, rel=0.002)
    if active:
        assert values["active_params"] == pytest.approx(active, rel=0.02)


def test_llama_presets_use_the_released_vocabulary():
    from tutor.sizing.presets import model_preset

    assert {model_preset(name).vocab for name in ("llama3-8b", "llama3-70b", "llama3-405b")} == {128256}


# 8. MoE as built now: DeepSeek-V3 under its published layout.

def test_deepseek_v3_memory_under_its_layout(size):
    report = size("--model", "deepseek-v3", "--tp", "1", "--pp", "16", "--ep", "64", "--dp", "128",
                  "--seq", "4096", "--global-batch", "15360", "--distributed-optimizer")
    assert report["errors"] == []
    assert report["params"] == pytest.approx(671.0e9, rel=0.001)
    first = step(report, "first_stage_params")
    # ⌈61/16⌉ = 4 layers on the first stage: the 3 dense layers, 1 MoE layer, and the input embedding;
    # MLA attention 187,107,328 per layer; routed experts split 64 ways, the shared one whole (TP 1).
    h, mla = 7168, 187_107_328
    dense, moe_shared, expert = mla + 3 * h * 18432 + 2 * h, mla + 2 * h + 256 * h + 3 * h * 2048, 3 * h * 2048
    assert first == pytest.approx(129280 * h + 3 * dense + moe_shared + 256 * expert / 64)
    assert report["memory"]["model_state"] == pytest.approx(6 * first + 12 * step(report, "first_stage_shard_params")
                                                            / 128)


def test_llama3_split_counts_the_fullest_stage():
    # Llama 3's split (arXiv 2407.21783 §3.3.2): n = (L + 2)/p layers per middle stage, n − 1 on the first and
    # last. Activations: the fuller of stage 0 (min(m, p) micro-batches of n − 1 layers) and stage 1
    # (min(m, p − 1) of n); parameters: the fuller of a middle stage and the last (n − 1 layers + V·h + h).
    from tutor.sizing.engine import evaluate
    from tutor.sizing.presets import model_preset
    from tutor.sizing.report import stage_formula

    for layers, pp in ((126, 16), (126, 8), (30, 4), (62, 16), (254, 32), (13, 5)):
        n = (layers + 2) // pp
        for m in (1, 2, pp - 1, pp, pp + 1, 4 * pp):
            expected = max(min(m, pp) * (n - 1), min(m, pp - 1) * n)
            got = evaluate("first_stage_activations_trimmed", act_layer=1, microbatches=m, pp=pp, layers=layers)
            assert got == expected, (layers, pp, m)
    big = model_preset("llama3-405b")  # a layer (3.19B) outweighs the output layer (2.10B): a middle stage
    small = model_preset("llama3-8b")  # the output layer (0.53B) outweighs a layer (0.22B): the last stage
    assert stage_formula(big, 16) == "stage_params_llama_trimmed"
    assert stage_formula(small, 17) == "stage_params_llama_trimmed_last"  # 32 + 2 = 34 = 17 × 2
    shape = dict(layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336, tp=1, pp=17)
    layer = evaluate("layer_params_llama", hidden=4096, heads=32, kv_heads=8, ffn=14336)
    assert evaluate("stage_params_llama_trimmed_last", vocab=128256, **shape) == pytest.approx(
        max(2 * layer, layer + 128256 * 4096 + 4096))


# Issue 18, item 4: interleaved 1F1B on Llama 3's trimmed split (126 layers on PP 16, v = 2 or 4) is modelled,
# the same in `tutor size`, `tutor plan` and the playground (which draws size()'s report). Before: `size` refused
# it ("126 layers do not split into PP × v = 32 equal chunks") yet printed L·(1 + (p−1)/(p·v)) layers' worth,
# and the planner never tried it.

def _simulated_peak(pp: int, m: int, v: int, n: int) -> int:
    """Most layer-activations any stage holds, replayed op by op on the engine's schedule simulator (the
    playground's): a chunk-micro-batch holds its layers from its forward's start to its backward's end;
    the first chunk of stage 0 and the last of the last stage have one layer fewer."""
    from tutor.sizing.pipeline_schedule import simulate

    timeline, peak = simulate("interleaved", pp, m, v), 0
    for stage in range(pp):
        events = sorted((op.end if op.backward else op.start, -1 if op.backward else 1,
                         n - ((stage, op.chunk) in ((0, 0), (pp - 1, v - 1))))
                        for op in timeline.ops if op.stage == stage)
        held = 0
        for _, sign, layers in events:  # at equal times a backward frees before a forward takes
            held += sign * layers
            peak = max(peak, held)
    return peak


def test_interleaved_trimmed_chunks_hold_what_the_schedule_holds():
    from tutor.sizing.engine import evaluate

    for pp, v, n in ((16, 2, 4), (16, 4, 2), (8, 2, 8), (8, 4, 4), (4, 3, 5)):
        for m in (pp, 2 * pp, 3 * pp):
            got = evaluate("first_stage_activations_interleaved_trimmed", act_layer=1, microbatches=m, pp=pp, vpp=v,
                           layers=n * pp * v - 2)
            assert got == _simulated_peak(pp, m, v, n), (pp, v, n, m)


def test_llama3_405b_interleaved_on_pp16_is_sized_and_planned(size):
    from tutor.sizing.hardware import gpu
    from tutor.sizing.planner import plan
    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Train

    base = ("--model", "llama3-405b", "--gpus", "16384", "--tp", "8", "--pp", "16", "--seq", "8192",
            "--global-batch", "2048", "--zero", "2")
    at_p = size(*base, "--dp", "128", "--vpp", "2")  # m = 16 = p: every forward before the first backward
    assert not at_p["errors"] and any("4 layers per chunk and 3 in the first" in w for w in at_p["warnings"])
    per_layer = step(at_p, "activations_per_layer")
    assert at_p["memory"]["activations"] == pytest.approx(128 * per_layer)  # was 126·(1 + 15/32) = 185 layers
    steady = size(*base, "--cp", "2", "--dp", "64", "--vpp", "2")  # m = 32: 4·47 − min(31, 8) = 180 layers
    assert steady["memory"]["activations"] == pytest.approx(180 * step(steady, "activations_per_layer"))
    result = plan(model_preset("llama3-405b"), Train(seq=8192, global_batch=2048), 16384, gpu("h100"), alternatives=10)
    interleaved = [item for item in [result["best"]] + result["alternatives"] if item["pp"] == 16 and item["vpp"] > 1]
    assert interleaved, "PP 16 is never interleaved"
    item = interleaved[0]
    alone = size("--model", "llama3-405b", "--gpus", "16384", "--seq", "8192", "--global-batch", "2048",
                 *(f"--{name}={item[name]}" for name in ("tp", "pp", "cp", "dp", "vpp")),
                 "--recompute", item["recompute"], *(("--distributed-optimizer",) if item["sharding"] == "distopt"
                                                     else ("--zero", item["sharding"][-1])))
    assert not alone["errors"] and alone["memory"]["total"] == pytest.approx(item["memory"]["total"])
