"""Reading fixes of this wave (issue 14), each with the cheat that must still fail: the A-not-A
question in Chinese asks and negates nothing; terms cut by full stops are a list like terms cut
by commas."""

from __future__ import annotations

import pytest

from tutor.content import load
from tutor.grading import grade
from tutor.grading.claims import read


def _check(qid, answer, step=None):
    return grade(load().questions[qid].model, answer, step)


@pytest.mark.parametrize("text", ["要不要上线服务？", "会不会上线？", "有没有 checkpoint", "是不是 rank 0 先挂", "可不可以跨机",
                                  "不得不重启"])
def test_a_not_a_and_double_negative_words_negate_nothing(text):
    assert all(not fragment.negations for clause in read(text).clauses for fragment in clause.fragments)


@pytest.mark.parametrize("text", ["不要上线", "没有 checkpoint", "TP 不要跨机"])
def test_plain_chinese_negations_still_negate(text):
    assert any(fragment.negations for clause in read(text).clauses for fragment in clause.fragments)


@pytest.mark.parametrize("text", ["Buckets. Reverse order. Last bucket. Takes SMs.", "分桶。倒序。最后一个桶。占 SM。",
                                  "Buckets; reverse order; last bucket exposed."])
def test_terms_cut_by_full_stops_are_a_list(text):
    assert read(text).bare


@pytest.mark.parametrize("text", ["Bucket grads. Overlap with backward.",
                                  "Gradients go into buckets. Each bucket is all-reduced during backward. "
                                  "The last one is exposed."])
def test_short_sentences_that_state_are_not_a_list(text):
    assert not read(text).bare


def test_the_full_stop_list_fails_and_the_same_terms_as_sentences_pass():
    qid = "ddp-bucket-overlap-explained"
    assert not _check(qid, "Buckets. Reverse order. Last bucket. Takes SMs.").correct
    assert _check(qid, "DDP puts gradients into buckets of about 25 MiB in reverse order of the parameters, and launches "
                       "the all-reduce of a bucket during backward as soon as it is ready. The last bucket is always "
                       "exposed because nothing is left to overlap with.").correct
