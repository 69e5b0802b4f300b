"""Layouts as candidates type them: Chinese dimension names, and sizes that are not GPU counts."""

from __future__ import annotations

import pytest

from tutor.grading.config_parse import ConfigError, parse_config


@pytest.mark.parametrize("text, layout", [
    ("张量并行1 流水线1 数据并行32", {"tp": 1, "pp": 1, "dp": 32}),
    ("张量并行=8，流水线并行=16，数据并行=64", {"tp": 8, "pp": 16, "dp": 64}),
    ("专家并行 8，上下文并行 2，TP 2", {"ep": 8, "cp": 2, "tp": 2}),
    ("TP=8. PP=2", {"tp": 8, "pp": 2}),
    ("tp8 dp32 experts", {"tp": 8, "dp": 32}),
])
def test_read(text, layout):
    assert parse_config(text) == layout


@pytest.mark.parametrize("text, says", [
    ("TP=1e99 DP=1", "whole number"),   # was read as TP=1
    ("PP=2.5 DP=4", "whole number"),    # was read as PP=2
    ("tp=-1 dp=-32", "at least 1"),     # was "name each size"
    ("TP=99999999", "larger than any cluster"),  # was "name each size"
])
def test_a_size_that_is_no_gpu_count_is_refused_by_name(text, says):
    with pytest.raises(ConfigError) as refused:
        parse_config(text)
    assert says in refused.value.message.en and refused.value.message.zh
