"""Rank layout: TP innermost keeps tensor-parallel groups inside a node."""

from __future__ import annotations

import pytest

from tutor.sizing.rank_grid import MEGATRON_ORDER, RankGrid


def test_lesson_70b_layout_tp_and_cp_fill_one_node():
    grid = RankGrid(tp=4, cp=2, pp=4, dp=2)
    assert grid.world_size == 64
    assert grid.group(0, "tp") == [0, 1, 2, 3]
    assert grid.group(0, "cp") == [0, 4]
    assert grid.group(0, "pp") == [0, 8, 16, 24]
    assert grid.group(0, "dp") == [0, 32]
    assert not grid.spans_nodes("tp") and not grid.spans_nodes("cp")
    assert grid.spans_nodes("pp") and grid.spans_nodes("dp")


def test_megatron_order_puts_dp_inside_pp():
    grid = RankGrid(tp=2, cp=1, pp=2, dp=2, order=MEGATRON_ORDER)
    assert grid.group(0, "dp") == [0, 2]
    assert grid.group(0, "pp") == [0, 4]


@pytest.mark.parametrize("rank", range(64))
def test_coordinates_round_trip(rank):
    grid = RankGrid(tp=4, cp=2, pp=4, dp=2)
    assert grid.rank_of(**grid.coordinates(rank)) == rank


def test_bad_layouts_are_refused():
    with pytest.raises(ValueError):
        RankGrid(tp=0, cp=1, pp=1, dp=1)
    with pytest.raises(ValueError):
        RankGrid(tp=1, cp=1, pp=1, dp=1, order=("tp", "tp", "pp", "dp"))
