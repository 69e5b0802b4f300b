"""Answering a due review item: `tutor review` and the app's Review screen.

A question card is graded like a practice answer (a bank question's answer joins the attempts,
mode "review"); a lab card is a diagnosis, graded, recorded and rated by `tutor.actions.labs.diagnose`
— the same grader as `tutor lab diagnose` and the Labs screen, against the run the learner
studied — so one answer cannot pass in one place and fail in another. The grade, never the
learner's own opinion, reschedules the card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tutor.actions import MAX_ANSWER_CHARS
from tutor.interview.review import Outcome, ReviewQueue
from tutor.interview.review_tasks import ReviewTask, task_for
from tutor.store.db import Store


@dataclass(frozen=True)
class ReviewResult:
    correct: bool
    score: float
    verdict: dict
    """For a question: `Verdict.to_json(reveal=True)`; for a lab: the diagnosis grader's result."""
    due_next: str


def due_tasks(store: Store, library, queue: ReviewQueue, rng: random.Random, limit: int = 50) -> list[ReviewTask]:
    """What is due now, most overdue first, as tasks to answer (items no longer installed left out)."""
    tasks = (task_for(item, library, store, rng) for item in queue.due(limit=limit))
    return [task for task in tasks if task is not None]


def answer(task: ReviewTask, text: str, store: Store, *, hints_used: int = 0, elapsed_s: float | None = None,
           lang: str = "en", queue: ReviewQueue | None = None) -> ReviewResult:
    """Grade the answer, record it, reschedule the card from the grade."""
    queue = queue or ReviewQueue(store)
    text = text[:MAX_ANSWER_CHARS]
    if task.kind == "lab":
        from tutor.actions.labs import diagnose
        from tutor.labs.catalog import all_labs

        graded = diagnose(store, all_labs()[str(task.lab_name)], text, lang, hints_used=hints_used,
                          elapsed_s=elapsed_s, queue=queue)
        due = queue.due_at(task.item_id)
        assert due is not None  # diagnose() has just rated the card
        return ReviewResult(graded["correct"], graded["score"], graded, due.isoformat(timespec="seconds"))
    from tutor.grading.dispatch import grade
    from tutor.store import Attempt, record_attempt

    question: Any = task.question  # a content Question and its step (ReviewTask keeps them untyped)
    step: Any = task.step
    verdict = grade(question, text, step.id, task.seed)
    if verdict.readable and task.in_bank:
        record_attempt(store, Attempt(question.id, text, verdict.correct, verdict.score, step_id=step.id,
                                      seed=task.seed, hints_used=hints_used, elapsed_s=elapsed_s, lang=lang,
                                      mode="review"))
    due = queue.record(task.item_id, Outcome(verdict.correct, hints_used, elapsed_s, task.par_s))
    return ReviewResult(verdict.correct, verdict.score, verdict.to_json(reveal=True), due.isoformat(timespec="seconds"))
