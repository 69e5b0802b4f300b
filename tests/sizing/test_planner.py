"""`plan()`: the recipe's choices for the issue's cases; every proposal passes the validator."""

from __future__ import annotations

import pytest

from tutor.sizing.hardware import gpu
from tutor.sizing.planner import plan, RESERVE, divisors
from tutor.sizing.presets import model_preset
from tutor.sizing.specs import Parallel, Train
from tutor.sizing.validate import validate_config

H100 = gpu("h100")
LAYOUT = ("tp", "pp", "cp", "ep", "dp", "vpp")


def proposals(result):
    return [result["best"], *result["alternatives"]]


def assert_all_valid(model, train, gpus, result):
    for item in proposals(result):
        assert item["tp"] * item["pp"] * item["cp"] * item["dp"] == gpus
        assert item["errors"] == []
        layout = Parallel(gpus=gpus, **{key: item[key] for key in LAYOUT}, sharding="distopt",
                          recompute=item["recompute"])
        assert validate_config(model, train, layout, H100).ok
        assert item["memory"]["fits"] and item["memory"]["total"] <= (1 - RESERVE) * H100.gpu_mem


def test_8b_on_32_h100_is_pure_data_parallel():
    model, train = model_preset("llama3-8b"), Train()
    result = plan(model, train, 32, H100)
    assert {key: result["best"][key] for key in ("tp", "pp", "cp", "dp")} == {"tp": 1, "pp": 1, "cp": 1, "dp": 32}
    assert_all_valid(model, train, 32, result)
    assert [step["id"] for step in result["steps"]][:3] == ["memory", "search", "tp"]


def test_70b_on_64_fits():
    model, train = model_preset("lesson-70b"), Train(seq=8192, global_batch=512)
    result = plan(model, train, 64, H100)
    assert result["best"]["memory"]["fits"]
    assert result["best"]["tp"] <= 8
    assert_all_valid(model, train, 64, result)


def test_1t_fits_80gb_with_m_at_least_4p():
    model, train = model_preset("dense-1t"), Train(seq=4096, global_batch=4096, tokens=2e12)
    result = plan(model, train, 8192, H100)
    best = result["best"]
    assert best["memory"]["total"] <= 80e9
    assert best["pipeline"]["microbatches"] >= 4 * best["pp"]
    assert_all_valid(model, train, 8192, result)


def test_moe_gets_expert_parallelism():
    model, train = model_preset("mixtral-8x7b"), Train()
    result = plan(model, train, 64, H100)
    assert result["best"]["ep"] > 1
    assert any(step["id"] == "ep" for step in result["steps"])
    assert_all_valid(model, train, 64, result)


def test_long_sequences_get_context_parallelism():
    model, train = model_preset("llama3-405b"), Train(seq=131072, global_batch=128)
    result = plan(model, train, 16384, H100)
    assert result["best"]["cp"] > 1 and result["best"]["tp"] == 8
    assert_all_valid(model, train, 16384, result)


def test_alternatives_are_distinct_and_ranked_in_recipe_order():
    result = plan(model_preset("lesson-70b"), Train(seq=8192, global_batch=512), 64, H100, alternatives=5)
    shapes = [tuple(item[key] for key in ("tp", "pp", "cp", "ep", "recompute")) for item in proposals(result)]
    assert len(shapes) == len(set(shapes)) == 6
    pps = [item["pp"] for item in proposals(result) if item["recompute"] == "none"]
    assert pps == sorted(pps)


def test_nothing_fits_is_an_answer_not_a_crash():
    result = plan(model_preset("dense-1t"), Train(), 8, H100)
    assert result["best"] is None and result["alternatives"] == []
    assert result["steps"][-1]["id"] == "none"


def test_chinese_steps():
    zh = plan(model_preset("llama3-8b"), Train(), 32, H100, lang="zh")["steps"]
    en = plan(model_preset("llama3-8b"), Train(), 32, H100)["steps"]
    assert [step["id"] for step in zh] == [step["id"] for step in en]
    assert all(any("\u4e00" <= char <= "\u9fff" for char in step["text"]) for step in zh)


def test_divisors():
    assert divisors(16384) == [2**k for k in range(15)]
    assert divisors(12) == [1, 2, 3, 4, 6, 12]


@pytest.mark.parametrize("gpus", [1, 7, 96])
def test_odd_gpu_counts(gpus):
    result = plan(model_preset("llama3-8b"), Train(global_batch=96 * 4), gpus, H100)
    for item in proposals(result) if result["best"] else []:
        assert item["tp"] * item["pp"] * item["cp"] * item["dp"] == gpus


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("preset", "gpus", "seq", "batch"), [("llama3-405b", 16384, 8192, 2048),
                                                              ("llama3-70b", 64, 8192, 512)])
def test_default_sharding_is_the_distributed_optimizer_else_zero2_and_prunes_nothing_that_fits(preset, gpus, seq,
                                                                                               batch):
    # The default search tries ZeRO-2 only where the distributed optimizer does not fit, and skips it where even
    # no gradient bytes at all would not fit: the layouts it keeps are exactly those of the two forced searches.
    from tutor.sizing.planner import Options, candidates

    model, train = model_preset(preset), Train(seq=seq, global_batch=batch)

    def shapes(options):
        found, _, _ = candidates(model, train, gpus, H100, options=options)
        return {(c.tp, c.pp, c.cp, c.ep, c.vpp, c.recompute): c.sharding for c in found}

    distopt, zero2, auto = shapes(Options(sharding="distopt")), shapes(Options(sharding="zero2")), shapes(Options())
    assert auto == {**{shape: "zero2" for shape in zero2}, **distopt}
    assert set(auto.values()) == {"distopt", "zero2"}
