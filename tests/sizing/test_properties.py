"""Hypothesis properties: sharding never raises per-GPU model state; proposals multiply to the GPUs;
bubbles stay in [0, 1); the compiled fast path agrees with the step-by-step derivation."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tutor.sizing.display import format_value, DISPLAY_UNITS
from tutor.sizing.engine import evaluate
from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.planner import plan
from tutor.sizing.specs import Model, Parallel, Train
from tutor.sizing.chains import Mode, planner_function, size_derivation

powers = st.sampled_from([1, 2, 4, 8, 16, 32, 64])
params = st.floats(min_value=1e8, max_value=2e12)
SHARDINGS = ("none", "distopt", "zero1", "zero2", "zero3")


def state(psi, sharding, tp, pp, dp, cp=1):
    from tutor.sizing.report import size

    report = size(Model(params=psi), Train(global_batch=4096), Parallel(tp=tp, pp=pp, dp=dp, cp=cp, sharding=sharding))
    return report["memory"]["model_state"]


@settings(max_examples=60, deadline=None)
@given(psi=params, sharding=st.sampled_from(SHARDINGS), tp=powers, pp=powers, dp=powers, more=st.sampled_from(
    ["tp", "pp", "dp", "cp"]))
def test_more_sharding_never_raises_model_state_per_gpu(psi, sharding, tp, pp, dp, more):
    layout = {"tp": tp, "pp": pp, "dp": dp, "cp": 1}
    bigger = dict(layout, **{more: layout[more] * 2})
    assert state(psi, sharding, **bigger) <= state(psi, sharding, **layout) * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(p=st.integers(1, 512), m=st.integers(1, 10_000), v=st.integers(1, 16))
def test_bubbles_are_fractions(p, m, v):
    assert 0 <= evaluate("bubble_wallclock", pp=p, microbatches=m, vpp=v) < 1
    if m >= p:
        assert 0 <= evaluate("bubble_fraction", pp=p, microbatches=m) < 1
        assert 0 <= evaluate("bubble_fraction_interleaved", pp=p, microbatches=m, vpp=v) < 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gpus=st.sampled_from([8, 16, 24, 32, 64, 128, 256, 512, 1024]), layers=st.sampled_from([24, 32, 40, 80]),
       hidden=st.sampled_from([2048, 4096, 8192]), heads=st.sampled_from([16, 32, 64]),
       batch=st.sampled_from([256, 512, 1024, 2048]), seq=st.sampled_from([2048, 4096, 8192]))
def test_every_proposal_multiplies_to_the_gpu_count(gpus, layers, hidden, heads, batch, seq):
    model = Model(params=12 * layers * hidden**2, layers=layers, hidden=hidden, heads=heads)
    result = plan(model, Train(seq=seq, global_batch=batch), gpus, gpu("h100"))
    for item in ([result["best"]] if result["best"] else []) + result["alternatives"]:
        assert item["tp"] * item["pp"] * item["cp"] * item["dp"] == gpus
        assert 0 <= item["pipeline"]["bubble"] < 1 and item["errors"] == []


@settings(max_examples=40, deadline=None)
@given(psi=params, tp=powers, pp=st.sampled_from([1, 2, 4, 8]), cp=st.sampled_from([1, 2]), dp=powers,
       vpp=st.sampled_from([1, 2, 5]), row=st.sampled_from(["activation_bytes_per_layer", "activation_per_layer_full"]))
def test_fast_path_agrees_with_the_derivation(psi, tp, pp, cp, dp, vpp, row):
    assume(not (vpp > 1 and pp == 1))
    mode = Mode(sharding="distopt", activation_row=row, interleaved=vpp > 1, heads=True, attention=True)
    values = dict(params=psi, active_params=psi, layers=80, hidden=8192, heads=64, kv_heads=8, seq=8192,
                  micro_batch=1, global_batch=4096, gpus=tp * pp * cp * dp, tp=tp, pp=pp, cp=cp, ep=1, dp=dp, vpp=vpp,
                  gpu_mem=80e9, peak_flops=989e12)
    out, _ = size_derivation(mode).run(values)
    outputs, names, function = planner_function(mode)
    fast = dict(zip(outputs, function(*(values[name] for name in names))))
    schedule = "_interleaved" if vpp > 1 else ""
    assert fast["activations" + schedule] == pytest.approx(out["activations"], rel=1e-9)
    assert fast["bubble" + schedule] == pytest.approx(out["bubble"], rel=1e-9)
    for name in ("params_per_gpu", "model_state", "microbatches", "bubble_wallclock", "dp_grad_bytes",
                 "tp_bytes_per_layer", "pp_bytes_per_microbatch", "cp_bytes_per_layer"):
        assert fast[name] == pytest.approx(out[name], rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.text(max_size=20),
                       st.booleans(), st.none()),
       name=st.sampled_from(["params_per_gpu", "bubble_fraction", "young_interval_s", "train_days"]))
def test_evaluate_only_ever_raises_sizing_error(value, name):
    from tutor.sizing import registry

    inputs = {symbol: value for symbol in registry.get(name).symbols}
    try:
        result = evaluate(name, **inputs)
    except SizingError:
        return
    assert result == result and abs(result) != float("inf")


@settings(max_examples=200, deadline=None)
@given(value=st.floats(min_value=0, max_value=1e30), unit=st.sampled_from(sorted(DISPLAY_UNITS)),
       digits=st.integers(0, 6), lang=st.sampled_from(["en", "zh"]))
def test_format_value_handles_any_finite_value(value, unit, digits, lang):
    assert isinstance(format_value(value, unit, digits, lang), str)
