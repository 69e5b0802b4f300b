"""Choice answers, rubric coverage (open and clarify), self-assessment, and design partial credit."""

from __future__ import annotations

import pytest

from tutor.content.models.question import Question
from tutor.grading.design import combine, next_step
from tutor.grading.dispatch import grade


def question(step: dict, **extra) -> Question:
    return Question.model_validate({
        "id": "q", "title": {"en": "q", "zh": "q"}, "prompt": {"en": "q", "zh": "q"}, "section": "a/b",
        "tags": ["q"], "source": "test", "steps": [step], **extra})


def option(option_id: str, en: str, correct: bool = False) -> dict:
    return {"id": option_id, "text": {"en": en, "zh": en + "（中文）"}, "correct": correct}


SINGLE = question({"kind": "choice", "options": [option("a", "Inside one node", True), option("b", "Across nodes"),
                                                  option("c", "Anywhere")]})
MULTIPLE = question({"kind": "choice", "multiple": True,
                     "options": [option("a", "More workers", True), option("b", "Offline tokenizing", True),
                                 option("c", "Overlap grads"), option("d", "Synthetic data check", True)]})


@pytest.mark.parametrize("answer", ["a", "A", " (a) ", "a.", "Inside one node", "inside ONE node!",
                                    "Inside one node（中文）", "ａ"])
def test_single_choice_forms(answer):
    verdict = grade(SINGLE, answer)
    assert verdict.correct and verdict.parsed == ["a"]


def test_single_choice_wrong_and_two_picks():
    assert not grade(SINGLE, "b").correct
    verdict = grade(SINGLE, "a, b")
    assert not verdict.correct and "one" in verdict.feedback["en"]


@pytest.mark.parametrize(("answer", "correct", "score"), [
    ("a, b, d", True, 1.0), ("A B D", True, 1.0), ("d/b/a", True, 1.0), ("a 和 b、d", True, 1.0),
    ("a and b", False, 2 / 3), ("a, b, c", False, 1 / 3), ("c", False, 0.0), ("a, b, c, d", False, 2 / 3),
])
def test_multiple_choice_partial_credit(answer, correct, score):
    verdict = grade(MULTIPLE, answer)
    assert verdict.correct is correct and verdict.score == pytest.approx(score)


@pytest.mark.parametrize("answer", ["", "z", "a, z", "the first one", "a" * 500])
def test_choice_answers_that_cannot_be_read(answer):
    verdict = grade(SINGLE, answer)
    assert not verdict.correct and verdict.parsed is None


def point(point_id: str, en: list[str], zh: list[str], **extra) -> dict:
    return {"id": point_id, "text": {"en": point_id, "zh": point_id}, "phrases": {"en": en, "zh": zh}, **extra}


OPEN = question({"kind": "open", "pass_score": 0.6, "model_answer": {"en": "Model.", "zh": "参考。"}, "points": [
    point("comm", ["all-reduce", "gradient sync"], ["梯度同步", "all-reduce"], weight=2, required=True),
    point("overlap", ["overlap"], ["重叠", "藏在 backward 后面"]),
    point("tp", ["tp"], ["tp 放机内"]),
]})


@pytest.mark.parametrize(("answer", "covered"), [
    ("It is one All-Reduce per step", {"comm"}),
    ("one allreduce per step", {"comm"}),
    ("ALL REDUCE, once; overlapping with backward", {"comm", "overlap"}),
    ("梯度同步每步一次，可以藏在backward后面", {"comm", "overlap"}),
    ("ＴＰ放机内，all‑reduce", {"comm", "tp"}),           # full width and a non-breaking hyphen
    ("the output overlaps", {"overlap"}),                  # "tp" is not found inside "output"
    ("", set()),
])
def test_rubric_phrases_match_across_case_width_punctuation_and_languages(answer, covered):
    verdict = grade(OPEN, answer)
    assert set(verdict.details["covered"]) == covered
    share = sum({"comm": 2, "overlap": 1, "tp": 1}[p] for p in covered) / 4
    assert verdict.details["coverage"] == pytest.approx(share)
    assert (verdict.score == 0) == (share == 0) and verdict.score >= share  # partial credit: rubric.credit


def test_required_point_and_pass_score():
    assert grade(OPEN, "all-reduce and overlap").correct            # 3/4, required covered
    assert not grade(OPEN, "overlap and tp").correct                 # 2/4, required missing
    verdict = grade(OPEN, "overlap and tp")
    assert "required" in verdict.feedback["en"] and "Model." in verdict.feedback["en"]
    assert verdict.expected["model_answer"]["zh"] == "参考。"


def test_self_assessment_is_recorded_as_such():
    verdict = grade(OPEN, "I think it is about bandwidth", self_assessment="yes")
    assert verdict.self_assessed and verdict.correct and verdict.score == 1.0
    assert verdict.details["coverage"] == 0.0
    partly = grade(OPEN, "x", self_assessment="partly")
    assert partly.self_assessed and not partly.correct and partly.score == 0.5


def test_clarify_feedback_speaks_of_questions_to_ask():
    clarify = question({"kind": "clarify", "model_answer": {"en": "Dense or MoE?", "zh": "dense 还是 MoE？"},
                        "points": [point("moe", ["dense", "moe"], ["dense", "moe"]),
                                   point("tokens", ["tokens"], ["token"])]})
    verdict = grade(clarify, "Is it dense?")
    assert verdict.details["coverage"] == 0.5 and 0.3 <= verdict.score <= 0.6 and "Also ask" in verdict.feedback["en"] and "还应该问" in verdict.feedback["zh"]


DESIGN = Question.model_validate({
    "id": "d", "title": {"en": "d", "zh": "d"}, "prompt": {"en": "d", "zh": "d"}, "section": "a/b",
    "tags": ["d"], "source": "test", "given": {"params": "1T"}, "vary": {"params": {"choices": ["1T", "2T"]}},
    "steps": [
        {"id": "ask", "kind": "clarify", "prompt": {"en": "ask", "zh": "问"}, "model_answer": {"en": "m", "zh": "m"},
         "points": [point("moe", ["moe"], ["moe"])]},
        {"id": "memory", "kind": "numeric", "prompt": {"en": "TB?", "zh": "TB?"}, "weight": 2,
         "answer": {"formula": "model_state_bytes", "inputs": {"params": "params"}, "unit": "TB", "tolerance": 0.05}},
        {"id": "why", "kind": "open", "prompt": {"en": "why", "zh": "为什么"}, "model_answer": {"en": "m", "zh": "m"},
         "points": [point("ckpt", ["checkpoint"], ["checkpoint"])]},
    ]})


def test_design_steps_are_graded_by_their_own_kind():
    from tutor.grading.variant import draw

    assert grade(DESIGN, "moe?", "ask").correct
    assert grade(DESIGN, "16 TB", "memory").correct
    params = draw(DESIGN, 1).values["params"]
    assert grade(DESIGN, f"{16 * params / 1e12:g} TB", "memory", seed=1).correct
    assert grade(DESIGN, "checkpoint often", "why").correct


def test_design_partial_credit_and_next_step():
    verdict = combine(DESIGN, {"ask": (True, 1.0), "memory": (False, 0.0)})
    assert not verdict.correct and verdict.score == pytest.approx(1 / 4)
    assert next_step(DESIGN, {"ask": (True, 1.0)}) == "memory"
    assert verdict.details["next"] == "memory"
    done = combine(DESIGN, {"ask": (True, 1.0), "memory": (True, 1.0), "why": (True, 0.8)})
    assert done.correct and done.score == pytest.approx((1 + 2 + 0.8) / 4)
    assert next_step(DESIGN, {"ask": (True, 1.0), "memory": (True, 1.0), "why": (True, 1.0)}) is None
