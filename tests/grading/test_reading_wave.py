"""Reading fixes of this wave (issue 14), each with the cheat that must still fail: the A-not-A
question in Chinese asks and negates nothing; terms cut by full stops are a list like terms cut
by commas."""

from __future__ import annotations

import pytest

from tutor.content import load
from tutor.grading.claims.clauses import read
from tutor.grading.dispatch import grade


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


# ---- shorthand as candidates type it (labelled batch 4, tuning part), each with its cheat


def _diagnose(lab, answer, lang="en"):
    from tests.grading.labelled.cases import evidence
    from tutor.labs.diagnose import grade_lab

    return grade_lab(list(load().labs[lab].model.diagnosis), answer, evidence(lab), lang)


def test_abbreviations_fold_to_their_words_in_answers_and_phrases_alike():
    from tutor.grading.claims.folding import fold

    assert fold("Fwd grads AR bwd") == "forward gradients all reduce backward"
    assert fold("2N per token, 8ND") == "2 n per token 8 nd"  # a number glued to a symbol is two words
    assert fold("H100 FP32") == "h100 fp32"                  # a name ending in digits stays one


def test_because_written_b_c_turns_a_diagnosis_to_another_rank():
    right = ("r0 died first (torchrun root cause): OOM in fwd. r1-3 were waiting in the grad all-reduce and only "
             "failed b/c r0 was gone. r0 appends every step's logits to `predictions` for the accuracy, so its memory "
             "grows each step until the forward can't allocate.")
    assert _diagnose("crashed-rank", right)["correct"]
    cheat = right.replace("r1-3 were waiting", "r1-3 were not waiting")
    assert not _diagnose("crashed-rank", cheat)["correct"]


def test_w_slash_o_is_a_negation():
    assert any(fragment.negations for clause in read("all-reduce w/o overlap").clauses for fragment in clause.fragments)


def test_a_label_before_a_colon_is_the_subject_of_what_follows():
    right = ("Fwd (activations + weights): E4M3 — more mantissa, max 448. Bwd grads: E5M2 — more exponent range. "
             "Every tensor gets scaled by its amax into the format's range before the cast.")
    assert _diagnose("fp8-matmul", right)["correct"]
    swapped = ("Fwd (activations + weights): E5M2 — more range. Bwd grads: E4M3 — more mantissa. "
               "Every tensor gets scaled by its amax into the format's range before the cast.")
    assert not _diagnose("fp8-matmul", swapped)["correct"]
    # a label that names another category still clashes with the cause it gives
    assert not _diagnose("launch-bound", "data loading: each step waits for tiny ops and .item() host syncs.")["correct"]
    # a negated label stays apart from the statement after it (read with it only to state a claim that
    # carries its own negation, never to deny one: `Fragment.base`)
    assert [f.text for c in read("Not data loading: comms.").clauses for f in c.fragments
            if f.base is None][-1] == "communication"


def test_a_question_that_weighs_two_answers_is_a_step_of_the_method():
    right = ("First, is every rank slower or only one? Then diff what changed — new commit, data mix, driver or NCCL "
             "version, new nodes — and bisect it. Then take a profiler trace and bucket the step time: data loading, "
             "exposed communication, compute, straggler.")
    verdict = _check("mfu-halved", right)
    assert verdict.correct and "global-or-local" in verdict.details["covered"], verdict.details
    listed = _check("mfu-halved", "Global or local? Changed? Bisect? Trace? Stragglers?")
    assert not listed.correct


def test_a_number_glued_to_its_symbol_states_the_point():
    right = ("Forward is 2N per token (one multiply and one add per weight). Backward costs twice the forward, 4N, "
             "because you compute gradients w.r.t. both activations and weights. So 6ND total; it ignores the "
             "attention's s² term and activation recomputation.")
    assert _check("six-nd-origin", right).correct
    assert not _check("six-nd-origin", "Forward is 4N per token and backward is 2N, 6ND total.").correct
