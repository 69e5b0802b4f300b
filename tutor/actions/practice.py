"""Answering one step of a practice question: `tutor check` and the app's Practice screen.

One rule for both front ends: every readable answer is an attempt in the history, and the first
answer of a sitting also rates the question's review card (FSRS, from the grade). A sitting is
one opening of the question in the app, and one `tutor check` command on the terminal (it has
no memory between commands, so each is its own sitting). An answer that could not be read at
all is not an attempt: nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tutor.actions import MAX_ANSWER_CHARS
from tutor.errors import StoreError
from tutor.store.db import Store


@dataclass(frozen=True)
class Answered:
    verdict: object
    """The grader's `tutor.grading.verdict.Verdict`."""
    recorded: bool
    """Whether the attempt went into the history."""
    not_recorded_because: str | None = None
    """The store's one-line reason, when it could not be used (the verdict stands)."""


def answer(store: Store | None, question, step, seed: int, text: str, *, hints_used: int = 0,
           elapsed_s: float | None = None, lang: str = "en", self_assessment: str | None = None,
           rate_card: bool = True, cancelled: Callable[[], bool] | None = None) -> Answered:
    """Grade `text` as the answer to `step` of variant `seed`, then record it (see the module).

    `store` None: the front end could not open the learner database; the verdict is still
    given. `cancelled` lets a worker stop a long formula grading (`budget.Cancelled` is raised).
    """
    from tutor.grading.dispatch import grade

    verdict = grade(question, text, step.id, seed, self_assessment, cancelled=cancelled)
    if not verdict.readable:
        return Answered(verdict, False)
    if store is None:
        return Answered(verdict, False, "the learner database cannot be used")
    try:
        _record(store, question, step, seed, text, verdict, hints_used, elapsed_s, lang, rate_card)
    except StoreError as error:
        return Answered(verdict, False, str(error))
    return Answered(verdict, True)


def _record(store: Store, question, step, seed, text, verdict, hints_used, elapsed_s, lang, rate_card) -> None:
    from tutor.interview.review import PAR_SECONDS, Outcome, ReviewQueue, question_item
    from tutor.store import Attempt, record_attempt

    elapsed = round(elapsed_s, 2) if elapsed_s is not None else None
    record_attempt(store, Attempt(question.id, text[:MAX_ANSWER_CHARS], verdict.correct, verdict.score,
                                  step_id=step.id, seed=seed, hints_used=hints_used, elapsed_s=elapsed, lang=lang,
                                  self_assessed=verdict.self_assessed))
    if rate_card:
        outcome = Outcome(verdict.correct, hints_used, elapsed_s, PAR_SECONDS.get(step.kind, 90))
        ReviewQueue(store).record(question_item(question.id), outcome)


def design_progress(store: Store, question, seed: int) -> dict:
    """A multi-step question's score so far: the latest attempt at each step of this variant."""
    from tutor.grading.design import combine
    from tutor.store import attempts

    latest: dict[str, tuple[bool, float]] = {}
    for attempt in attempts(store, question.id):
        if attempt.seed == seed:
            latest[attempt.step_id] = (attempt.correct, attempt.score)
    verdict = combine(question, latest)
    return {"correct": verdict.correct, "score": round(verdict.score, 4), "feedback": verdict.feedback,
            **verdict.details}
