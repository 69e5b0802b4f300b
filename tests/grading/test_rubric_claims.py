"""Every open and clarify rubric point is a claim (issue 14 item 1): paraphrases an interviewer
accepts count, the opposite statements cost the point and are named, and a clarify step is
answered with questions. Each paraphrase comes with its cheat."""

from __future__ import annotations

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade


def _check(qid, answer, step=None):
    return grade(load().questions[qid].model, answer, step)


# The question files whose rubrics were converted (issue 14); a new file's rubric should follow.
def test_every_open_and_clarify_point_has_a_claim():
    # Every question file (all are converted: a new one must be written with claims).
    bare = [f"{qid}/{step.id}/{point.id}" for qid, loaded in load().questions.items()
            for step in loaded.model.steps if step.kind in ("open", "clarify") for point in step.points
            if not (point.claims or point.contradicts)]
    assert not bare, bare


@pytest.mark.parametrize("qid, step, answer, point", [
    ("six-nd-origin", None, "It doesn't count recomputation, and it leaves out the attention QKᵀ products.", "recompute-not-in"),
    ("six-nd-origin", None, "It doesn't count recomputation, and it leaves out the attention QKᵀ products.", "attention-not-in"),
    ("six-nd-origin", None, "没算重计算，也没算attention里QKᵀ和乘V这两个矩阵乘。", "recompute-not-in"),
    ("six-nd-origin", None, "没算重计算，也没算attention里QKᵀ和乘V这两个矩阵乘。", "attention-not-in"),
    ("hang-moves-around", None, "Raising the timeout only hides it.", "not-timeout"),
    ("checkpoint-design", None, "Every rank writes its own shard, asynchronously.", "sharded"),
    ("deadline-pushback", "response", "It doesn't fit: the compute alone takes several times the 21 days.", "says-impossible"),
    ("why-dp-outermost", None, "DP only syncs once an iteration.", "once-per-step"),
    ("pitch-30-seconds", None, "Memory decides the model-parallel size.", "memory-first"),
])
def test_paraphrases_state_the_point(qid, step, answer, point):
    verdict = _check(qid, answer, step)
    assert point in verdict.details["covered"], verdict.feedback["en"]


@pytest.mark.parametrize("qid, step, answer, contradiction", [
    ("six-nd-origin", None, "The 6 already includes recomputation.", "recompute-not-in"),
    ("hang-moves-around", None, "A code bug, surely; just increase the timeout until it stops.", "not-timeout"),
    ("checkpoint-design", None, "Gather everything to rank 0 and write one file.", "sharded"),
    ("mfu-halved", None, "It's certainly the network.", "measure-first"),
    ("hang-at-step-n", None, "The same step every time means bad hardware.", "deterministic-means-code"),
])
def test_the_opposite_is_named(qid, step, answer, contradiction):
    verdict = _check(qid, answer, step)
    assert contradiction in verdict.details["contradicted"] and not verdict.correct, verdict.feedback["en"]
    assert "✗ Contradicted" in verdict.feedback["en"]


def test_a_clarify_step_is_answered_with_questions():
    pitch = ("I start from memory: about 16 bytes per parameter plus activations tells me how many GPUs one copy needs. "
             "TP stays inside the node, PP across nodes, CP only for long sequences, EP for MoE.")
    verdict = _check("trillion-parameter-design", pitch, "clarify")
    assert not verdict.correct and verdict.score == 0, verdict.feedback["en"]
    asked = _check("trillion-parameter-design", "I'd ask whether it is dense or MoE, how many GPUs of which kind, the "
                                                 "token budget and the sequence length.", "clarify")
    assert asked.correct, asked.feedback["en"]
    questions = _check("trillion-parameter-design", "dense还是MoE？多少张什么卡？训练多少token，序列多长？", "clarify")
    assert questions.correct, questions.feedback["en"]




def _scenarios():
    from tutor.interview.scenarios import installed

    return {key: loaded for key, loaded in installed().scenarios.items()}


def test_every_interview_rubric_point_has_a_claim():
    # Every scenario file: all of them are converted, and a new one must be written with claims.
    bare = [f"{key}/{step.id}/{point.id}" for key, loaded in _scenarios().items()
            for step in loaded.model.steps if step.kind in ("open", "clarify")
            for point in step.points if not (point.claims or point.contradicts)]
    assert not bare, bare


@pytest.mark.parametrize("key, step, answer, right", [
    ("followup-raise-timeout", None, "超时不是原因，是有个 rank 缺席了，调大只会多等；整个集群都在空等；应该把 timeout 调短，超时时自动 dump "
                                     "flight recorder 和栈。", True),
    ("followup-raise-timeout", None, "timeout rank missing collective idle cluster flight recorder dump", False),
    ("followup-why-tp-in-node", None, "TP每一层都要通信，在关键路径上；NVLink比InfiniBand快十倍左右；一台机器8张卡，所以TP最多8；跨机的话"
                                      "这些通信藏不住。", True),
    ("followup-why-tp-in-node", None, "TP doesn't communicate every layer and NVLink isn't faster.", False),
    ("hang-checkpoint-rank0", "why", "Only rank 0 calls the all_gather in save_checkpoint; the other ranks went on to the "
                                     "next step's gradient all-reduce, so they wait for each other forever.", True),
    ("hang-checkpoint-rank0", "why", "It isn't that only rank 0 calls the all_gather; every rank calls it.", False),
    ("debug-straggler", "next", "先对比所有 rank 的 step time，确认是一台机器；查它的降频、xid、ecc；把节点下线换掉，从 checkpoint 重启，"
                                "再测一次 MFU。", True),
])
def test_interview_rubrics_as_candidates_answer(key, step, answer, right):
    verdict = grade(_scenarios()[key].model, answer, step)
    assert verdict.correct is right, (verdict.score, verdict.feedback["en"])


@pytest.mark.parametrize("qid, answer", [
    ("checkpoint-design", "Sharded? Async? Young? Restart? Adam state? RNG? Data position?"),
    ("why-dp-outermost", "Once per step? Overlap with backward? NVLink inside the node?"),
    ("mfu-halved", "Per-rank step time? What changed? Bisect? Profile?"),
])
def test_a_list_of_terms_as_questions_states_nothing_in_an_open_step(qid, answer):
    verdict = _check(qid, answer)
    assert not verdict.correct and verdict.score == 0, verdict.feedback["en"]


def test_a_rhetorical_question_before_the_answer_is_fine():
    verdict = _check("why-dp-outermost", "Why is DP outermost? Because it communicates least, once per step, and "
                                         "overlaps with backward.")
    assert verdict.correct, verdict.feedback["en"]


def test_a_diagnosis_asked_as_questions_states_nothing():
    from tests.grading.labelled.cases import evidence
    from tutor.labs.diagnose import grade_lab

    lab = load().labs["slow-dataloader"].model
    verdict = grade_lab(list(lab.diagnosis), "Data loading? Idle at the start of each step? Synthetic data faster? "
                                             "Tokenize once?", evidence("slow-dataloader"))
    assert not verdict["correct"] and verdict["score"] == 0, verdict


@pytest.mark.parametrize("qid, step, answer", [
    # DP and TP swapped in one sentence: TP across nodes is named, not read as "TP ... inside the node"
    ("pitch-30-seconds", None, "I start from the cluster size, put DP inside the node and TP across nodes, and never "
                               "think about memory."),
    # "failures never happen" dismisses failures; one checkpoint at the end is not a sharded, async one
    ("trillion-parameter-design", "operations", "Failures basically never happen, so one checkpoint at the end is "
                                                "enough and nobody needs to monitor it."),
])
def test_fluent_wrong_answers_fail(qid, step, answer):
    verdict = _check(qid, answer, step)
    assert not verdict.correct and verdict.score <= 0.2, (verdict.score, verdict.feedback["en"])


def test_tp_inside_and_pp_across_in_one_sentence_is_not_a_contradiction():
    verdict = _check("pitch-30-seconds", "Memory first: 16 bytes per parameter plus activations gives the GPUs per "
                                         "copy. TP inside the node and PP across nodes with at least 4 micro-batches, "
                                         "CP for long sequences, EP for MoE, the rest DP with ZeRO-1.")
    assert verdict.correct and not verdict.details["contradicted"], verdict.feedback["en"]
    pitch = _scenarios()["pitch-recipe"].model
    assert "tp-in-node" in grade(pitch, "Put DP inside the node and TP across nodes.").details["contradicted"]


def test_asking_about_a_topic_names_it():
    """ "I'd ask about ... the GPUs": in a clarify step that says it asks, the topic is the question."""
    asked = _check("clarify-gpu-count", "I'd ask about the model size, dense or MoE, the tokens, the deadline, the GPUs "
                                        "and the sequence length.")
    assert asked.correct and "hardware" in asked.details["covered"], asked.feedback["en"]
    stated = _check("clarify-gpu-count", "A thousand GPUs with long sequences and lots of tokens.")
    assert not stated.correct and stated.score == 0, stated.feedback["en"]
