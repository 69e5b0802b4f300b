"""Free text graded by claims (issue 14 items 1, 2, 7): the cheats of the review must fail, the
right answers as people write them must pass."""

from __future__ import annotations

import pytest

from tests.grading.labelled.cases import evidence
from tutor.content import load
from tutor.grading.dispatch import grade
from tutor.labs.diagnose import grade_lab


def _check(qid, answer, step=None):
    return grade(load().questions[qid].model, answer, step)


def _diagnose(lab, answer, lang="en"):
    return grade_lab(list(load().labs[lab].model.diagnosis), answer, evidence(lab), lang)


@pytest.mark.parametrize("qid, answer, step", [
    # buzzword lists (review §4.1)
    ("checkpoint-design", "checkpoint async sharded Young MTBF restart spare nodes 12 bytes fp32 Adam", None),
    ("mfu-halved", "MFU profiler straggler nccl-tests NCCL_DEBUG busbw nvidia-smi throttling dataloader diff bisect", None),
    ("clarify-gpu-count", "dense moe tokens when sequence length gpus nvlink", None),
    # negations
    ("why-dp-outermost", "DP does not communicate once per step and its all-reduce cannot be overlapped with backward; "
                         "heavy TP traffic should never stay inside the node. PP is not light.", None),
    ("fp8-not-twice-as-fast", "FP8 speeds up every operation, including attention, communication and the optimizer, "
                              "and there's no casting overhead, so it is exactly twice as fast end to end.", None),
    ("clarify-gpu-count", "I wouldn't ask about the model size or the number of tokens, and the deadline and GPU type "
                          "don't matter; I'd just say a thousand GPUs.", None),
    ("trillion-parameter-design", "Failures are rare, so no checkpointing or automatic restart is needed; stragglers "
                                  "and bad nodes don't matter at this scale.", "operations"),
])
def test_buzzwords_and_negations_are_not_accepted(qid, answer, step):
    verdict = _check(qid, answer, step)
    assert not verdict.correct and verdict.score <= 0.2, (verdict.score, verdict.feedback["en"])


def test_a_bare_list_is_told_why():
    verdict = _check("checkpoint-design", "checkpoint async sharded Young MTBF restart spare nodes 12 bytes fp32 Adam")
    assert "list of terms" in verdict.feedback["en"] and "一串术语" in verdict.feedback["zh"]
    assert verdict.details["bare_list"]


def test_a_contradiction_costs_the_point_and_is_named():
    verdict = _check("why-dp-outermost", "DP syncs gradients once per step, overlapped with backward; "
                                         "TP goes across nodes over InfiniBand.")
    assert "heavy-inside" in verdict.details["contradicted"]
    assert "You put TP across nodes" in verdict.feedback["en"] and not verdict.correct


def test_denying_the_contradiction_states_the_claim():
    verdict = _check("why-dp-outermost", "DP 每个 step 只同步一次梯度，可以和 backward 重叠；TP 不要跨机，放机内。")
    assert verdict.correct and "heavy-inside" in verdict.details["covered"]


@pytest.mark.parametrize("qid, answer", [
    ("why-dp-outermost", "One gradient reduce per step, overlappable with backward."),
    ("why-dp-outermost", "DP 通信最少，每个 step 只做一次梯度 all-reduce，而且可以和 backward 重叠，所以放在最外层。"),
    ("six-nd-origin", "2 forward (mul+add), 4 backward (dL/dx and dL/dW GEMMs); excludes recompute and the attention "
                      "QK^T/AV FLOPs."),
])
def test_terse_and_chinese_strong_answers_pass(qid, answer):
    verdict = _check(qid, answer)
    assert verdict.correct, verdict.feedback["en"]


def test_the_question_copied_back_earns_nothing():
    question = load().questions["why-dp-outermost"].model
    verdict = grade(question, question.prompt.en)
    assert verdict.score == 0 and verdict.details["copied"]


# ---------------------------------------------------------------- lab diagnosis


@pytest.mark.parametrize("answer", [
    "rank 1 rank 2 rank 3 all_gather all_reduce checkpoint every rank only rank 0",
    "It is not rank 0: rank 0 is not in an all_gather and not in save_checkpoint, and the other ranks are not waiting "
    "in the gradient all-reduce; every rank calls the same collectives.",
    "Ranks 0-3 wait in all_gather in save_checkpoint; every rank waits in all_reduce.",  # naming every rank
    "Ranks 1-3 are stuck in all_gather in save_checkpoint and rank 0 waits in the all-reduce.",
])
def test_diagnosis_cheats_fail(answer):
    verdict = _diagnose("checkpoint-rank0", answer)
    assert not verdict["correct"] and verdict["score"] <= 0.5, verdict


@pytest.mark.parametrize("answer, lang", [
    ("0号卡在all_gather里，其余卡在all_reduce里，因为只有0号在if rank == 0里调用集合通信，其他rank没有调用", "zh"),
    ("r0: all_gather in save_checkpoint (if rank == 0 branch); r1-r3: DDP grad all_reduce. Collective called by one "
     "rank only.", "en"),
])
def test_diagnosis_as_people_write_it_passes(answer, lang):
    verdict = _diagnose("checkpoint-rank0", answer, lang)
    assert verdict["correct"], verdict


def test_a_failed_diagnosis_says_which_part_not_the_answer():
    verdict = _diagnose("straggler", "no idea")
    assert not verdict["correct"]
    shown = " ".join(text for item in verdict["feedback"] for text in item["missing"] + [item["model_answer"] or ""])
    for secret in ("sorted by length", "by tokens", "rank 1"):
        assert secret not in shown


def test_perf_diagnosis_takes_exactly_one_category():
    assert not _diagnose("slow-dataloader", "It's a straggler: rank 1 is slower because its DataLoader workers are "
                                            "on a slow core.")["correct"]
    assert not _diagnose("slow-dataloader", "It is communication, not data loading: the gradient all-reduce is "
                                            "exposed.")["correct"]


def test_a_step_number_is_not_a_rank():
    verdict = _diagnose("uneven-batches", "Rank 0 is still training, in the gradient all_reduce of step 9.")
    assert verdict["feedback"][0]["covered"], verdict  # rank 0's place is credited


def test_graded_against_the_run_studied_not_a_later_check(tutor_home):
    """D10: a 2-rank check after the 4-rank run does not replace the run the learner studied."""
    from tutor.labs import hangreport
    from tutor.store import Store, record_lab_run

    run = evidence("uneven-batches")
    check = dict(run, world_size=2)
    with Store() as store:
        record_lab_run(store, "uneven-batches", "run", "hang", evidence=run)
        record_lab_run(store, "uneven-batches", "check", "hang", evidence=check)
        row_id, studied = hangreport.studied(store, "uneven-batches")
    assert studied["world_size"] == 4


@pytest.mark.parametrize("answer, expected", [
    ("ABCD", True), ("Answer: a, b, c, d", True), ("option a b c d", True), ("abc", False),
])
def test_choices_as_typed(answer, expected):
    question = next(loaded.model for loaded in load().questions.values()
                    if loaded.model.steps[0].kind == "choice" and loaded.model.steps[0].multiple
                    and sorted(o.id for o in loaded.model.steps[0].options if o.correct) == ["a", "b", "c", "d"])
    assert grade(question, answer).correct is expected


@pytest.mark.parametrize("qid, answer", [
    ("distopt-formula", "6P + 12P/N"), ("zero2-formula", "2P + 14P/N"),
    ("young-formula", "(2δM)^(1/2)"), ("young-formula", "sqrt(2*d*M)"),
])
def test_formulas_as_people_type_them(qid, answer):
    """The question's own symbols first (P is Ψ here, not PP); a root written as ^(1/2)."""
    assert _check(qid, answer).correct


@pytest.mark.parametrize("answer, right", [
    ("200 H100s", True), ("200 H100", True), ("at least 200", True), ("200+", True), ("≥ 200 GPUs", True),
    ("400 H100s", False),
    # Chinese measure words before the thing counted
    ("200张H100", True), ("200 张 H100", True), ("200块显卡", True), ("200张卡", True),
    # 200 machines are 1,600 GPUs; gigabytes are no count ('200 GB' read 2e20: G, then B as billion)
    ("200 nodes", False), ("200台机器", False), ("200个节点", False), ("200 GB", False),
])
def test_counts_as_people_type_them(answer, right):
    assert _check("min-gpus-for-model-state", answer).correct is right


@pytest.mark.parametrize("answer, says", [("200 nodes", "counts machines"), ("200 GB", "bytes")])
def test_a_count_in_another_unit_is_named_not_scaled(answer, says):
    verdict = _check("min-gpus-for-model-state", answer)
    assert says in verdict.feedback["en"] and "1e+" not in verdict.feedback["en"]


def test_a_value_with_its_derivation_in_brackets():
    assert _check("distopt-bytes-per-gpu", "39.4 GB (4.375B params × 9 bytes)").correct
