"""Two ways candidates say the ring all-reduce that the reading missed (found by hand, 2026-12-01):
a multiple written with the sign ("2× the buffer") and a sequence of collectives joined by "then"
("a reduce-scatter then an all-gather", cut into two clauses). And the cheats around them."""

from __future__ import annotations

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade

QUESTION = "ring-allreduce-bandwidth-optimal"


def covered(answer: str) -> set[str]:
    verdict = grade(load().questions[QUESTION].model, answer)
    return set(verdict.details["covered"])


@pytest.mark.parametrize("answer, points", [
    ("A ring all-reduce is a reduce-scatter then an all-gather. Each GPU sends 2× the buffer regardless of N.",
     {"two-phases", "bytes-per-rank"}),
    ("A ring all-reduce is a reduce-scatter then an all-gather. Each GPU sends 2x the buffer regardless of N.",
     {"two-phases", "bytes-per-rank"}),
    ("ring 全归约就是 reduce-scatter 加 all-gather，各 n-1 步。每个 GPU 发送和接收 2(N-1)/N 倍数据，接近 2 倍，"
     "与 N 无关；只有延迟随 N 增加", {"two-phases", "bytes-per-rank", "latency-grows"}),
])
def test_the_ways_candidates_say_it_count(answer, points):
    assert points <= covered(answer)


@pytest.mark.parametrize("answer", [
    "It is not a reduce-scatter then an all-gather.",                    # negated sequence
    "Each GPU sends 2× the buffer, and the bytes each GPU sends grow linearly with N.",  # contradicted
    "reduce-scatter, all-gather, 2×, constant",                          # terms
])
def test_the_cheats_around_them_do_not(answer):
    verdict = grade(load().questions[QUESTION].model, answer)
    assert not verdict.correct


def test_a_product_is_not_a_multiple():
    from tutor.grading.claims.folding import expand_shorthand

    assert expand_shorthand("TP×PP = 4×4 and 8x8 tiles") == "TP×PP = 4×4 and 8x8 tiles"
    assert expand_shorthand("2× the buffer, 1.5x more") == "2 times the buffer, 1.5 times more"
