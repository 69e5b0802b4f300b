"""Review items: what a due card asks, how the answer reschedules it, lab diagnoses as cards."""

from __future__ import annotations

import random
from datetime import timedelta

from tutor.interview.review import Outcome, ReviewQueue, lab_item, question_item, record_diagnosis
from tutor.actions.review import answer
from tutor.interview.review_tasks import task_for
from tutor.store import Attempt, attempts, record_attempt
from tutor.store.progress import review_summary


def _queue(store, clock):
    return ReviewQueue(store, fuzz=False, now=clock.now)


def test_a_question_card_asks_the_weakest_step_with_new_numbers(store, library, clock):
    record_attempt(store, Attempt("design-small", "dense", True, 1.0, step_id="clarify"))
    record_attempt(store, Attempt("design-small", "1 GB", False, 0.0, step_id="memory", seed=3))
    record_attempt(store, Attempt("design-small", "checkpoint", True, 0.5, step_id="operations"))
    task = task_for(question_item("design-small"), library, store, random.Random(1))
    assert task.kind == "question" and task.step.id == "memory" and task.seed != 0 and task.in_bank
    other = task_for(question_item("design-small"), library, store, random.Random(2))
    assert other.seed != task.seed
    assert "How much model state" in task.prompt_markdown("en")


def test_a_scenario_card_brings_its_exhibit_back(store, library, clock):
    task = task_for(question_item("fixture-hang"), library, store, random.Random(1))
    assert task.kind == "question" and not task.in_bank and task.step.id == "which-rank"
    shown = task.prompt_markdown("zh")
    assert "rank 7 · py-spy dump" in shown and "save_checkpoint (ckpt.py:67)" in shown


def test_unknown_items_are_skipped(store, library):
    assert task_for("q:gone", library, store, random.Random(1)) is None
    assert task_for("lab:gone", library, store, random.Random(1)) is None
    assert task_for("nonsense", library, store, random.Random(1)) is None


def test_answers_reschedule_deterministically_from_the_grade(store, library, clock):
    from tutor.grading.dispatch import expected_answer
    from tutor.grading.variant import draw

    queue = _queue(store, clock)
    queue.record(question_item("memory-total"), Outcome(correct=False))
    clock.advance(3600)
    assert queue.due() == ["q:memory-total"]
    task = task_for("q:memory-total", library, store, random.Random(7))
    wrong = answer(task, "1 GB", store, elapsed_s=20, queue=queue)
    assert not wrong.correct and wrong.due_next.startswith("2026-01-05T10:")  # again: minutes, not days
    right_text = expected_answer(task.question, task.step, draw(task.question, task.seed))["text"]["en"]
    clock.advance(3600)
    right = answer(task, right_text, store, elapsed_s=20, queue=queue)
    assert right.correct and right.due_next > wrong.due_next
    assert [(a.mode, a.correct) for a in attempts(store, "memory-total")] == [("review", False), ("review", True)]
    assert review_summary(store, clock.now())["by_rating"] == {"again": 2, "hard": 0, "good": 0, "easy": 1}


def test_record_diagnosis_makes_a_lab_card(store, clock):
    due = record_diagnosis(store, "hang-rank0", correct=False, now=clock.now)
    assert due - clock.now() <= timedelta(minutes=10)
    assert store.query("SELECT item_id FROM review_cards")[0]["item_id"] == lab_item("hang-rank0")
    summary = review_summary(store, clock.now() + timedelta(hours=1))
    assert summary["cards"] == 1 and summary["due"] == 1 and summary["by_rating"]["again"] == 1


def test_a_lab_card_asks_the_diagnosis_again(store, library, clock):
    record_diagnosis(store, "stuck", correct=False, now=clock.now)
    task = task_for(lab_item("stuck"), library, store, random.Random(1))
    assert task.kind == "lab" and task.hints()[0].en.startswith("Compare")
    assert "Which rank is missing from the collective?" in task.prompt_markdown("en")
    result = answer(task, "rank 1 never calls it", store, queue=_queue(store, clock))
    assert result.correct and result.verdict["feedback"][0]["covered"] == ["Rank 1."]
    assert attempts(store) == []  # a lab diagnosis is not a question attempt


def test_a_lab_verdicts_heading_in_chinese_uses_full_width_brackets():
    from tutor.interview.review_tasks import lab_feedback_markdown

    graded = {"correct": False, "score": 0.58, "feedback": []}
    assert lab_feedback_markdown(graded, "zh").startswith("### ✗ 不对（58%）")
    assert lab_feedback_markdown(graded, "en").startswith("### ✗ Not right (58%)")
