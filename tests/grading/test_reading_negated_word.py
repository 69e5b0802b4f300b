"""A phrase found inside a Chinese word that negates it is denied, not stated: 不少 holds 少, 不一样 holds
一样, 不均匀 holds 均匀, 没错 holds 错. Found driving the mock (2026-12-04): "rank 3 的数据并不少，它只是比别的卡
慢一些" was credited with rank 3's one batch fewer. Those words still negate nothing after them ("不均匀的数据
导致 hang" says the data causes the hang). Written by hand, none from the labelled benchmark."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.claims.clauses import read
from tutor.grading.claims.matching import polarity
from tutor.grading.dispatch import grade

CASES = [
    ([["数据"], ["少"]], "rank 3 的数据少一个 batch", True),
    ([["数据"], ["少"]], "rank 3 的数据不少", False),
    ([["数据"], ["少"]], "rank 3 的数据并不少", False),
    ([["step"], ["一样"]], "每个 rank 的 step 数不一样", False),
    ([["step"], ["一样"]], "step 数并不一样", False),
    ([["数据"], ["均匀"]], "各 rank 的数据均匀", True),
    ([["数据"], ["均匀"]], "各 rank 的数据不均匀", False),
    ([["负载"], ["平衡"]], "负载不平衡", False),
    ([["负载"], ["平衡"]], "负载平衡", True),
    # a phrase that holds the negation itself is stated
    ([["数据"], ["不均匀"]], "数据并不均匀", True),
    # the word still negates nothing after it
    ([["hang"], ["导致"]], "不均匀的数据导致 hang", True),
]


@pytest.mark.parametrize(("concepts", "answer", "said"), CASES)
def test_a_phrase_inside_a_negating_word_is_denied(concepts, answer, said):
    assert bool(polarity(concepts, read(answer))) is said


def _covered(answer: str) -> list[str]:
    verdict = grade(library().question("hang-uneven-batches"), answer, "why", 0)
    return verdict.details["covered"]


def test_the_mock_answer_that_denies_the_short_shard_is_not_credited_with_it():
    assert "fewer-batches" not in _covered("rank 3 的数据并不少，它只是比别的卡慢一些，所以其他 rank 在等它")
    assert "fewer-batches" not in _covered("rank 3 的数据不少")
    assert "fewer-batches" in _covered("rank 3 的数据少一个 batch，提前跳出了训练循环")
