"""Calibration of free-text scores (issue 14: strong >= 0.8, honest partial 0.3-0.6, buzzword lists,
negations and off-topic text <= 0.2): the wrong answers of the labelled set's tuning part that
scored above 0.2, each fixed by a reading rule or a claim, not by the answer. One grading each."""

from __future__ import annotations

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade


def _check(qid, answer, step=None):
    return grade(load().questions[qid].model, answer, step)


HANG_MOVES = ("A hang that moves around from run to run points at hardware or the network rather than code. I'd make sure "
              "the next hang leaves evidence: flight recorder with dump on timeout, py-spy on every rank. Then isolate: a "
              "small all-reduce per node pair to find the bad one, bisect inside the node with CUDA_VISIBLE_DEVICES, check "
              "ECC errors, throttling, link errors with nvidia-smi -q, and swap the node.")


def test_another_questions_answer_scores_at_most_a_fifth():
    # It states two points of mfu-halved in passing (bisecting GPUs, throttling) and scored 0.43.
    verdict = _check("mfu-halved", HANG_MOVES)
    assert not verdict.correct and 0 < verdict.details["coverage"] and verdict.score <= 0.2, verdict.details


def test_a_negation_before_a_list_governs_its_or_items():
    # "I don't need to know if it's dense or MoE, or how many GPUs" asked about the GPUs (0.25).
    verdict = _check("trillion-parameter-design", "I don't need to know if it's dense or MoE, or how many GPUs; "
                                                  "I'd start computing right away.", "clarify")
    assert verdict.score == 0 and "gpus" not in verdict.details["covered"], verdict.details
    asked = _check("trillion-parameter-design", "Is it dense or MoE, or how many GPUs do we have?", "clarify")
    assert "gpus" in asked.details["covered"], asked.details


def test_cannot_cause_it_dismisses_what_it_follows():
    # "a collective under if rank == 0 can't cause it" stated the partial-collective point (0.25).
    verdict = _check("hang-at-step-n", "It isn't code or data, and a collective under if rank == 0 can't cause it; "
                                       "replace the GPUs.")
    assert verdict.score == 0 and "partial-collective" not in verdict.details["covered"], verdict.details


@pytest.mark.parametrize(("answer", "stated"), [
    ("The 6 comes from the six layers of a transformer block: attention, two norms, two MLP matrices and the embedding.",
     False),  # attention named as part of the 6 (0.34): the word alone is no claim that 6ND leaves it out
    ("It doesn't include the attention score computation, which grows with sequence length.", True),
    ("没算 attention 里 QKᵀ 和乘 V 这两个矩阵乘。", True),
])
def test_attention_left_out_is_a_claim_not_a_word(answer, stated):
    verdict = _check("six-nd-origin", answer)
    assert ("attention-not-in" in verdict.details["covered"]) is stated, verdict.details
    assert stated or verdict.score <= 0.2
