"""Every figure of DESIGN §4 "Reference figures", reproduced by `tutor size` / `tutor plan` and
asserted as the lesson rounds it (70B ≈ 39 GB means 38.5 ≤ x < 39.5)."""

from __future__ import annotations

import pytest

GB, MB = 1e9, 1e6
EX70 = ("--params", "70B", "--layers", "80", "--hidden", "8192", "--seq", "8192", "--micro-batch", "1",
        "--global-batch", "512", "--gpus", "64", "--tp", "4", "--pp", "4")
EX1T = ("--model", "dense-1t", "--gpus", "8192", "--gpu", "h100", "--tokens", "2T", "--seq", "4096",
        "--global-batch", "4096", "--tp", "8", "--pp", "16")


def rounds_to(value: float, shown: float, digits: int = 0) -> bool:
    """True when `value` is what the lesson shows, rounded to `digits` decimals."""
    return round(value, digits) == shown


def step(report: dict, step_id: str) -> float:
    return next(item["value"] for item in report["steps"] if item["id"] == step_id)


@pytest.fixture
def size(cli):
    def run(*argv):
        status, report, err = cli("size", *argv, "--json")
        assert status == 0, err
        assert report["errors"] == []
        return report
    return run


def test_70b_model_state(size):
    plain = size(*EX70, "--cp", "2")
    assert step(plain, "model_state_total") == 1120 * GB
    assert plain["memory"]["model_state"] == 70 * GB  # 1120 GB / (TP 4 × PP 4), no sharding
    sharded = size(*EX70, "--cp", "2", "--distributed-optimizer")
    assert rounds_to(sharded["params_per_gpu"] / 1e9, 4.4, 1)
    assert rounds_to(sharded["memory"]["model_state"] / GB, 39)  # 4.4B × (6 + 12/4)


def test_70b_activations_and_why_cp(size):
    with_cp = size(*EX70, "--cp", "2", "--distributed-optimizer")
    assert rounds_to(with_cp["memory"]["activations_per_layer"] / MB, 285)
    assert rounds_to(with_cp["memory"]["activations"] / GB, 23)
    assert with_cp["memory"]["fits"]
    without_cp = size(*EX70, "--cp", "1", "--distributed-optimizer")
    assert rounds_to(without_cp["memory"]["activations"] / GB, 46)
    assert without_cp["memory"]["total"] > 80 * GB and not without_cp["memory"]["fits"]  # 46 + 39 > 80
    assert any("does not fit" in warning for warning in without_cp["warnings"])


def test_70b_pipeline(size):
    report = size(*EX70, "--cp", "2", "--distributed-optimizer")
    assert report["pipeline"]["microbatches"] == 256
    assert report["pipeline"]["bubble"] == 3 / 256 and rounds_to(report["pipeline"]["bubble"] * 100, 1.2, 1)


def test_405b_per_gpu_before_dp_sharding(size):
    layout = ("--gpus", "16384", "--tp", "8", "--pp", "16", "--global-batch", "2048", "--seq", "8192")
    report = size("--params", "405B", *layout)  # the lesson's even split, Ψ/(TP·PP)
    assert step(report, "gpus_per_replica") == 128
    assert rounds_to(report["memory"]["model_state"] / GB, 50.6, 1)
    # With the real shape the most loaded stage counts. Llama 3 splits 126 layers as 7, 8, ..., 8, 7 (one layer
    # fewer on the first and last stage, arXiv 2407.21783 §3.3.2): a middle stage's 8 layers (3.19B per GPU)
    # outweigh the last stage's 7 layers and the output layer (3.05B); ⌈126/16⌉ = 8 layers and the embedding
    # would be 3.45B.
    real = size("--model", "llama3-405b", *layout)
    assert real["memory"]["model_state"] == pytest.approx(16 * step(real, "first_stage_params"))
    assert rounds_to(step(real, "first_stage_params") / 1e9, 3.19, 2)
    layer = 2 * 16384**2 * (1 + 8 / 128) + 3 * 16384 * 53248 + 2 * 16384
    assert step(real, "first_stage_params") == pytest.approx(8 * layer / 8)


def test_1t_memory(size):
    plain = size(*EX1T)
    assert step(plain, "model_state_total") == 16e12
    assert plain["min_gpus_for_model_state"] == 200
    assert plain["memory"]["model_state"] == 125 * GB and not plain["memory"]["fits"]
    sharded = size(*EX1T, "--distributed-optimizer", "--recompute", "full")
    assert sharded["pipeline"] and sharded["params_per_gpu"] == 7.8125e9
    assert rounds_to(sharded["memory"]["model_state"] / GB, 48)  # 7.8B × (6 + 12/64)
    assert rounds_to((sharded["memory"]["capacity"] - sharded["memory"]["model_state"]) / GB, 32)
    assert sharded["memory"]["fits"]


def test_1t_bubble(size):
    plain = size(*EX1T, "--distributed-optimizer", "--recompute", "full")
    assert plain["pipeline"]["microbatches"] == 64 == 4 * 16
    assert rounds_to(plain["pipeline"]["bubble"] * 100, 23)
    interleaved = size(*EX1T, "--distributed-optimizer", "--recompute", "full", "--vpp", "4")
    assert rounds_to(interleaved["pipeline"]["bubble"] * 100, 6)


def test_1t_time_and_throughput(size):
    report = size(*EX1T, "--distributed-optimizer", "--recompute", "full", "--mfu", "40%")
    assert step(report, "train_flops") == pytest.approx(1.2e25)
    assert rounds_to(report["train_days"], 43)
    assert rounds_to(report["throughput"]["tokens_per_s"] / 1e4, 54)  # 约 54 万 tokens/s


def test_1t_checkpoint(size):
    report = size(*EX1T)
    assert report["checkpoint"]["bytes_total"] == 12e12
    assert rounds_to(report["checkpoint"]["bytes_per_gpu"] / GB, 1.5, 1)


def test_8b_throughput_and_plan(size, cli):
    report = size("--params", "8e9", "--gpus", "32", "--gpu", "h100", "--mfu", "0.4")
    assert rounds_to(report["throughput"]["tokens_per_s"] / 1e4, 26)  # 约 26 万 tokens/s: the lesson's 6Ψ, Ψ = 8B
    real = size("--model", "llama3-8b", "--gpus", "32", "--gpu", "h100", "--mfu", "0.4")
    # counted from the shape, 6Ψ leaves out the 0.53B-parameter input embedding (a lookup): 7.5B multiply
    assert real["throughput"]["tokens_per_s"] == pytest.approx(0.4 * 32 * 989e12 / (6 * (8.030261248e9 - 128256 * 4096)))
    status, plan, err = cli("plan", "--model", "llama3-8b", "--gpus", "32", "--gpu", "h100", "--json")
    assert status == 0, err
    best = plan["best"]
    assert (best["tp"], best["pp"], best["cp"], best["dp"]) == (1, 1, 1, 32)


def test_llama3_reliability(size):
    report = size("--model", "llama3-405b", "--gpus", "16384", "--tp", "8", "--pp", "16", "--global-batch", "2048",
                  "--days", "54", "--interruptions", "466")
    assert rounds_to(step(report, "mtbf_hours"), 2.8, 1)


def test_full_recompute_shows_hardware_flops(size):
    report = size(*EX1T, "--distributed-optimizer", "--recompute", "full")
    hardware, model = step(report, "hardware_flops_per_token"), report["flops"]["per_token"]
    assert hardware / model == pytest.approx(8 / 6, rel=0.01)  # 8ND instead of 6ND


def test_activations_count_the_mlp_width_as_megatron_does(size):
    # Megatron-LM's estimator: s·b·h·(18 + 4f/h) per layer with SP, 34 for GPT's f = 4h, 31 for Llama 3 405B.
    layout = ("--tp", "8", "--pp", "16", "--dp", "128", "--seq", "8192", "--global-batch", "2048")
    llama = size("--model", "llama3-405b", *layout)
    assert llama["memory"]["activations_per_layer"] == pytest.approx(31 * 8192 * 16384 / 8)
    gpt = size("--model", "gpt3-175b", *layout)
    assert gpt["memory"]["activations_per_layer"] == pytest.approx(34 * 8192 * 12288 / 8)
    lesson = size("--model", "lesson-70b", *layout)  # no MLP width given: K22's 34
    assert lesson["memory"]["activations_per_layer"] == pytest.approx(34 * 8192 * 8192 / 8)
