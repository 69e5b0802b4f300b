"""Simulated pipeline timelines agree with the closed-form bubble formulas."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.sizing.pipeline_schedule import simulate


@given(p=st.integers(1, 8), m=st.integers(1, 24))
@settings(max_examples=60, deadline=None)
def test_gpipe_and_1f1b_bubble_is_p_minus_1_over_m(p, m):
    for kind in ("gpipe", "1f1b"):
        timeline = simulate(kind, p, m)
        assert timeline.bubble_vs_ideal == pytest.approx((p - 1) / m)
        assert timeline.bubble_wallclock == pytest.approx((p - 1) / (m + p - 1))


@given(p=st.integers(2, 6), groups=st.integers(1, 4), v=st.integers(1, 4))
@settings(max_examples=60, deadline=None)
def test_interleaved_bubble_is_divided_by_v(p, groups, v):
    m = p * groups
    timeline = simulate("interleaved", p, m, v)
    assert timeline.bubble_vs_ideal == pytest.approx((p - 1) / (v * m))
    assert timeline.bubble_wallclock == pytest.approx((p - 1) / (v * m + p - 1))


def test_1f1b_keeps_at_most_p_microbatches_in_flight_and_gpipe_keeps_m():
    def peak_in_flight(timeline, stage):
        live, peak = 0, 0
        for op in sorted((op for op in timeline.ops if op.stage == stage), key=lambda op: op.start):
            live += -1 if op.backward else 1
            peak = max(peak, live)
        return peak

    assert peak_in_flight(simulate("1f1b", 4, 16), 0) == 4
    assert peak_in_flight(simulate("gpipe", 4, 16), 0) == 16


def test_every_pass_runs_once_in_dependency_order():
    timeline = simulate("interleaved", 4, 8, 2)
    assert len(timeline.ops) == 4 * 8 * 2 * 2
    ends = {(op.chunk * 4 + op.stage, op.microbatch, op.backward): op for op in timeline.ops}
    for (virtual, microbatch, backward), op in ends.items():
        if not backward and virtual > 0:
            assert ends[(virtual - 1, microbatch, False)].end <= op.start


def test_bad_shapes_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="multiple of stages"):
        simulate("interleaved", 4, 6, 2)
    with pytest.raises(ValueError, match="unknown schedule"):
        simulate("zero-bubble", 4, 8)
