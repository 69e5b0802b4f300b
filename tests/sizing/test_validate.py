"""The validator: each rule of issue 3 item 4 gives one clear line, as an error or a warning."""

from __future__ import annotations

import pytest

from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.presets import model_preset
from tutor.sizing.report import size
from tutor.sizing.specs import Model, Parallel, Throughput, Train
from tutor.sizing.validate import validate_config, resolve

H100 = gpu("h100")
LLAMA70 = model_preset("llama3-70b")


def codes(model=LLAMA70, train=Train(), throughput=None, **layout):
    found = validate_config(model, train, Parallel(**layout), H100, throughput)
    return {f.code for f in found.errors}, {f.code for f in found.warnings}


def test_a_sound_layout_is_clean():
    assert codes(gpus=64, tp=8, pp=2, sharding="distopt") == (set(), set())


@pytest.mark.parametrize("layout, model, train, error", [
    (dict(gpus=64, tp=4, pp=4, cp=2, dp=4), LLAMA70, Train(), "gpu-product"),
    (dict(gpus=48, tp=6, pp=8), LLAMA70, Train(), "heads-tp"),
    (dict(gpus=48, tp=3, pp=16), Model(params=1e9, layers=32, hidden=6144, heads=48, kv_heads=8), Train(),
     "kv-heads-tp"),
    (dict(gpus=8, tp=1), Model(params=1e9, layers=32, hidden=4096, heads=32, kv_heads=3), Train(), "kv-heads-heads"),
    (dict(gpus=64, tp=8, pp=2, vpp=3), LLAMA70, Train(global_batch=1024), "layers-pp"),
    (dict(gpus=24, tp=8), LLAMA70, Train(global_batch=1000), "batch-split"),
    (dict(gpus=64, tp=8, ep=2), LLAMA70, Train(), "ep-dense"),
    (dict(gpus=64, ep=16), model_preset("mixtral-8x7b"), Train(), "experts-ep"),
    (dict(gpus=8, tp=8, ep=8), model_preset("mixtral-8x7b"), Train(), "ep-dpcp"),
    (dict(gpus=64, cp=3, dp=1, tp=1, pp=1), Model(params=1e9), Train(seq=4096), "gpu-product"),
    (dict(gpus=64, cp=64), Model(params=1e9), Train(seq=4000), "seq-cp"),
    (dict(gpus=8, vpp=2), LLAMA70, Train(), "vpp-pp"),
])
def test_errors(layout, model, train, error):
    errors, _ = codes(model, train, **layout)
    assert error in errors


@pytest.mark.parametrize("layout, train, warning", [
    (dict(gpus=64, tp=16, pp=1), Train(), "tp-node"),
    (dict(gpus=96, tp=8, pp=12), Train(global_batch=1024), "layers-pp"),
    (dict(gpus=64, tp=8, pp=8), Train(global_batch=16), "m-below-4p"),
    (dict(gpus=64, tp=8, pp=8), Train(global_batch=4), "m-below-p"),
    (dict(gpus=64, tp=16, pp=4), Train(), "kv-replicated"),
    (dict(gpus=64, cp=64), Train(seq=8192), "cp-tokens"),
    (dict(gpus=64, tp=8, pp=8, sharding="zero3"), Train(), "zero3-pp"),
    (dict(gpus=8, tp=8, sharding="distopt"), Train(), "shard-one"),
    (dict(gpus=64, tp=8, cp=2, flash=False), Train(seq=8192), "cp-flash"),
])
def test_warnings(layout, train, warning):
    _, warnings = codes(LLAMA70, train, **layout)
    assert warning in warnings


def test_high_mfu_is_flagged():
    _, warnings = codes(gpus=64, tp=8, throughput=Throughput(mfu=0.8))
    assert "high-mfu" in warnings


def test_messages_are_single_lines_in_both_languages():
    found = validate_config(LLAMA70, Train(global_batch=1000), Parallel(gpus=48, tp=6, pp=8, dp=2), H100)
    for finding in found.errors + found.warnings:
        for text in (finding.text("en"), finding.text("zh")):
            assert text and "\n" not in text
    assert found.errors[0].text("en") != found.errors[0].text("zh")


def test_dp_is_derived_or_the_split_explained():
    assert resolve(Parallel(gpus=64, tp=4, pp=4, cp=2)).dp == 2
    assert resolve(Parallel(tp=8, pp=2)).gpus == 16
    with pytest.raises(SizingError, match="not divisible by 3"):
        resolve(Parallel(gpus=64, tp=3))


@pytest.mark.parametrize("build, message", [
    (lambda: Model(params=-1), "positive"),
    (lambda: Model(params=1e30), "params = 1e30 is more than the engine accepts"),
    (lambda: Train(seq=0), "positive"),
    (lambda: Train(seq=4096.5), "whole"),
    (lambda: Parallel(tp="8"), "number"),
    (lambda: Parallel(sharding="zero4"), "sharding"),
    (lambda: Throughput(mfu=0.4, tokens_per_s=1e5), "one of"),
    (lambda: Model(params=1e9, experts=2, top_k=4), "top_k"),
])
def test_specs_reject_bad_values(build, message):
    with pytest.raises(SizingError, match=message):
        build()


def test_memory_over_capacity_says_by_how_much():
    report = size(model_preset("dense-1t"), Train(), Parallel(gpus=8192, tp=8, pp=16), H100)
    assert report["memory"]["fits"] is False
    assert any("does not fit" in warning and "over" in warning for warning in report["warnings"])


def test_first_stage_embedding_is_reported():
    # 80 layers split evenly over PP 16: the first stage's 5 layers carry the embedding too (+10%)
    report = size(model_preset("llama3-70b"), Train(global_batch=2048), Parallel(gpus=1024, tp=8, pp=16), H100)
    assert any("most loaded pipeline stage" in warning for warning in report["warnings"])


def test_llama3_trimmed_split_is_said_and_balances_the_stages():
    # 126 layers on PP 16 as Llama 3 ran them (7, 8, ..., 8, 7): said in words, and no stage is >5% over Ψ/(TP·PP)
    report = size(model_preset("llama3-405b"), Train(global_batch=2048), Parallel(gpus=16384, tp=8, pp=16), H100)
    assert any("8 layers per middle stage and 7 on the first and last" in warning for warning in report["warnings"])
    assert not any("most loaded pipeline stage" in warning for warning in report["warnings"])
    uneven = size(model_preset("llama3-405b"), Train(global_batch=2048), Parallel(gpus=5120, tp=8, pp=5), H100)
    assert any("do not split evenly over PP 5" in warning for warning in uneven["warnings"])  # 126 and 128 over 5
