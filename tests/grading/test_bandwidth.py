"""Bandwidth answers (issue 14 item 7, `Gb` is gigabits): GB/s, TB/s, GiB/s, Gb/s, Gbps and the
Chinese forms read exactly, bits apart from bytes. Hostile first: GB/s against Gb/s is a factor 8
and every such near miss must be refused, and named."""

from __future__ import annotations

import pytest

from tutor.content.models.question import Question
from tutor.grading.dispatch import grade
from tutor.grading.quantity import QuantityError, parse_quantity
from tutor.grading.units import byte_rate


def _busbw() -> Question:
    # nccl-tests all-reduce busbw: 1 GB in 50 ms on 8 ranks = 20 GB/s × 2·7/8 = 35 GB/s.
    return Question.model_validate({
        "id": "t", "title": {"en": "t", "zh": "t"}, "prompt": {"en": "t", "zh": "t"}, "section": "a/b",
        "tags": ["t"], "source": "test", "given": {"message_bytes": 1e9, "coll_time": 0.05, "ranks": 8},
        "steps": [{"kind": "numeric",
                   "answer": {"formula": "allreduce_busbw", "unit": "GB/s", "tolerance": 0.05,
                              "inputs": {"message_bytes": "message_bytes", "coll_time": "coll_time", "ranks": "ranks"}}}]})


@pytest.mark.parametrize(("text", "bytes_per_second"), [
    ("GB/s", 1e9), ("Gb/s", 1.25e8), ("TB/s", 1e12), ("Tb/s", 1.25e11), ("GiB/s", 2**30), ("MB/s", 1e6),
    ("Gbps", 1.25e8), ("gbps", 1.25e8), ("GBps", 1e9), ("Gbit/s", 1.25e8), ("gigabits/s", 1.25e8),
    ("GB per second", 1e9), ("gigabytes per second", 1e9), ("GB/秒", 1e9), ("GB每秒", 1e9), ("B/s", 1),
])
def test_bandwidth_units(text, bytes_per_second):
    assert byte_rate(text)[0] == pytest.approx(bytes_per_second)


@pytest.mark.parametrize("text", ["GB", "TFLOP/s", "tokens/s", "GB/parsec", "/s", "Gxps"])
def test_not_bandwidth_units(text):
    assert byte_rate(text) is None


@pytest.mark.parametrize("answer", ["35 GB/s", "35GB/s", "≈ 35 GB/s", "35", "280 Gb/s", "280 Gbps", "0.035 TB/s",
                                    "32.6 GiB/s", "35 GB per second", "约 35 GB/秒", "每秒 35 GB", "35e9 B/s"])
def test_right_bandwidths_pass(answer):
    verdict = grade(_busbw(), answer)
    assert verdict.correct, (answer, verdict.feedback["en"])


@pytest.mark.parametrize(("answer", "says"), [
    ("35 Gb/s", "bits per second"),   # the value in bits: an eighth of it
    ("35 Gbps", "bits per second"),
    ("280 GB/s", "8× too high"),      # the link's Gb/s figure written as GB/s
])
def test_factor_eight_near_misses_are_refused_and_named(answer, says):
    verdict = grade(_busbw(), answer)
    assert not verdict.correct
    assert verdict.mistake == "bits-not-bytes" and says in verdict.feedback["en"] and verdict.feedback["zh"]


@pytest.mark.parametrize("answer", ["35 TB/s", "35 MB/s", "20 GB/s", "40 GB/s"])
def test_other_near_misses_are_refused(answer):
    assert not grade(_busbw(), answer).correct


def test_a_size_or_a_flop_rate_for_a_bandwidth_is_a_clear_error():
    with pytest.raises(QuantityError, match="bandwidth"):
        parse_quantity("35 GB", "GB/s", "byte_rate", 1e9)
    verdict = grade(_busbw(), "35 TFLOP/s")
    assert not verdict.correct and "bandwidth" in verdict.feedback["en"] and "带宽" in verdict.feedback["zh"]
