"""Partial credit (issue 14 item 1: strong >= 0.8, honest partial 0.3-0.6; lists, negations and
off-topic text <= 0.2). The pass decision stays on the share of the rubric's weight stated; the
score credits an honest partial answer more than its bare share, never a wrong one. Hostile
first: a negated or contradicted answer, another question's answer and a list of terms gain
nothing from it. Partial answers here come from the tuning part of the labelled set."""

from __future__ import annotations

import pytest

from tests.grading.labelled.cases import evidence
from tutor.content import load
from tutor.grading.dispatch import grade
from tutor.grading.rubric import PARTIAL_CAP, credit
from tutor.labs.diagnose import grade_lab


def _check(qid, answer, step=None):
    return grade(load().questions[qid].model, answer, step)


def _diagnose(lab, answer, lang="en"):
    return grade_lab(list(load().labs[lab].model.diagnosis), answer, evidence(lab), lang)


def test_credit_keeps_nothing_at_zero_everything_at_one_and_the_order():
    assert credit(0.0, False, True) == 0.0 and credit(1.0, True, True) == 1.0
    shares = [0.1, 0.2, 0.25, 0.4, 0.5, 0.7, 0.9]
    right = [credit(share, share >= 0.6, True) for share in shares]
    assert right == sorted(right) and all(score >= share for score, share in zip(right, shares))
    assert all(credit(share, False, True) <= PARTIAL_CAP for share in shares)
    assert credit(0.2, False, False) == 0.2  # off topic or not honest: the bare share


@pytest.mark.parametrize(("qid", "step", "answer"), [
    ("why-dp-outermost", None, "DP has the least communication so it can go on the slow links."),
    ("overlap-table", None, "For DP you overlap the gradient all-reduce with backward using buckets."),
    ("six-nd-origin", None, "The forward pass is 2 FLOPs per parameter per token, a multiply and an add."),
    ("fp8-not-twice-as-fast", None, "Memory doesn't halve because the master weights stay in FP32."),
    ("checkpoint-design", None, "Save the weights and the optimizer state so you can resume."),
    ("clarify-slow-job", None, "What's the current MFU?"),
    ("trillion-parameter-design", "clarify", "有多少张卡？"),
])
def test_honest_partial_answers_score_between_a_third_and_six_tenths(qid, step, answer):
    verdict = _check(qid, answer, step)
    assert not verdict.correct and 0.3 <= verdict.score <= 0.6, (verdict.score, verdict.details)
    assert verdict.details["coverage"] < verdict.score  # the share is still recorded


@pytest.mark.parametrize(("lab", "answer", "lang"), [
    ("exposed-comm", "It's communication.", "en"),
    ("crashed-rank", "Rank 0 ran out of memory.", "en"),
    ("crashed-rank", "0号 OOM 了。", "zh"),
])
def test_partial_diagnoses_score_between_a_third_and_six_tenths(lab, answer, lang):
    verdict = _diagnose(lab, answer, lang)
    assert not verdict["correct"] and 0.3 <= verdict["score"] <= 0.6, verdict


def test_a_complete_answer_keeps_full_marks_and_a_wrong_one_zero():
    strong = _check("why-dp-outermost", "Because DP communicates the least: it only all-reduces the gradients once per "
                                        "step, and that all-reduce can be overlapped with the backward pass in buckets, "
                                        "so it tolerates the slower inter-node links. TP talks every layer, so it needs "
                                        "NVLink inside the node.")
    assert strong.correct and strong.score >= 0.8
    wrong = _check("why-dp-outermost", "DP is outermost because it has the heaviest traffic, so it gets the most links; "
                                       "TP goes across nodes because it is light.")
    assert not wrong.correct and wrong.score == 0


@pytest.mark.parametrize(("qid", "answer"), [
    # a point made, another said the other way round: not an honest partial answer
    ("why-dp-outermost", "DP has the least communication, and TP does not need to stay inside the node."),
    # a list of the terms
    ("why-dp-outermost", "DP outermost once per step all-reduce overlap backward TP NVLink inside node InfiniBand"),
])
def test_negated_and_listed_answers_gain_no_partial_credit(qid, answer):
    verdict = _check(qid, answer)
    assert not verdict.correct and verdict.score <= max(0.2, verdict.details["coverage"]), verdict.details
    assert verdict.score == pytest.approx(verdict.details["coverage"], abs=1e-3)


def test_another_questions_answer_brushing_one_point_keeps_its_bare_share():
    answer = ("A hang that moves around from run to run points at hardware or the network rather than code. I'd make "
              "sure the next hang leaves evidence: flight recorder on, py-spy dumps of every rank, NCCL debug logs.")
    verdict = _check("mfu-halved", answer)
    assert not verdict.correct and verdict.score == pytest.approx(verdict.details["coverage"], abs=1e-3)


def test_a_wrong_culprit_gains_no_partial_credit():
    verdict = _diagnose("checkpoint-rank0", "Ranks 1-3 are stuck in all_gather in save_checkpoint and rank 0 waits in "
                                            "the all-reduce.")
    # a wrong post-mortem: no partial credit, and at most 0.2 whatever else it brushes (calibration, issue 14)
    assert not verdict["correct"] and verdict["score"] <= min(0.2, verdict["share"]) + 1e-9, verdict
