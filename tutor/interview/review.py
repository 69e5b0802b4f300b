"""Spaced review with FSRS: every question and lab diagnosis is a card, rated from its grade.

The learner never rates themselves: the rating comes from the objective result
(issue 10) — wrong -> Again; right but with hints or slower than the par time -> Hard;
right -> Good; right, unaided and in a third of the par time -> Easy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone

from tutor.store import reviews
from tutor.store.db import Store

# Par times per step kind (seconds): what an interviewer would wait for a confident answer.
PAR_SECONDS = {"numeric": 90, "formula": 90, "choice": 45, "config": 150, "open": 240, "clarify": 120,
               "diagnosis": 300}


def question_item(question_id: str) -> str:
    return f"q:{question_id}"


def lab_item(lab_name: str) -> str:
    return f"lab:{lab_name}"


@dataclass(frozen=True)
class Outcome:
    """What happened when the learner answered, as far as review scheduling cares."""

    correct: bool
    hints_used: int = 0
    elapsed_s: float | None = None
    par_s: float = 90.0


def rating_for(outcome: Outcome):
    from fsrs import Rating

    if not outcome.correct:
        return Rating.Again
    slow = outcome.elapsed_s is not None and outcome.elapsed_s > outcome.par_s
    if outcome.hints_used or slow:
        return Rating.Hard
    fast = outcome.elapsed_s is not None and outcome.elapsed_s <= outcome.par_s / 3
    return Rating.Easy if fast else Rating.Good


class ReviewQueue:
    """Cards in the store, scheduled by an fsrs Scheduler.

    `now` is injectable so tests run on a fixed UTC clock; `fuzz=False` makes intervals exact.
    """

    def __init__(self, store: Store, *, fuzz: bool = True,
                 now: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        from fsrs import Scheduler

        self.store = store
        self.scheduler = Scheduler(enable_fuzzing=fuzz)
        self.now = now

    def record(self, item_id: str, outcome: Outcome) -> datetime:
        """Review the item's card (creating it on first sight); returns when it is due next."""
        from fsrs import Card

        when = self.now()
        saved = reviews.review_card(self.store, item_id)
        card = Card.from_dict(saved) if saved is not None else Card(card_id=_stable_id(item_id), due=when)
        rating = rating_for(outcome)
        card, _log = self.scheduler.review_card(card, rating, review_datetime=when)
        stamp = when.isoformat(timespec="seconds")
        reviews.record_review(self.store, item_id, card.to_dict(), _utc(card.due), stamp, int(rating),
                              outcome.elapsed_s)
        return card.due

    def due(self, limit: int = 50) -> list[str]:
        """Item ids due now, the most overdue first."""
        return reviews.due_items(self.store, _utc(self.now()), limit)

    def due_at(self, item_id: str) -> datetime | None:
        due = reviews.due_at(self.store, item_id)
        return datetime.fromisoformat(due) if due is not None else None


def record_diagnosis(store: Store, lab_name: str, correct: bool, *, hints_used: int = 0,
                     elapsed_s: float | None = None, now: Callable[[], datetime] | None = None,
                     queue: ReviewQueue | None = None) -> datetime:
    """Rate the lab's review card from a graded diagnosis (`tutor.actions.labs` calls this, on the
    front end's `queue` when it has one, after recording the diagnosis).

    Returns when the card is due next. The diagnosis comes back in `tutor review` and the app's
    review flow with the lab's brief and its diagnosis questions.
    """
    if queue is None:
        queue = ReviewQueue(store, now=now) if now is not None else ReviewQueue(store)
    return queue.record(lab_item(lab_name), Outcome(correct, hints_used, elapsed_s, PAR_SECONDS["diagnosis"]))


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _stable_id(item_id: str) -> int:
    """fsrs wants an integer card id; derive it from the item so it never depends on the clock."""
    import zlib

    return zlib.crc32(item_id.encode("utf-8"))
