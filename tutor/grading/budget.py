"""A hard time budget for grading work, checked cooperatively, and a way for the app to cancel it.

Grading a formula is bounded by construction (see `formula.py`), but the bound is stated in
operations, not seconds; a `Budget` turns it into a promise in seconds, and lets a worker thread
stop early when the learner submits again or leaves the screen. Hand-written because the check
must be cheap enough to call once per tree node (a monotonic clock read and one call).
"""

from __future__ import annotations

import time
from collections.abc import Callable

GRADE_SECONDS = 1.5


class OutOfBudget(Exception):
    """The work did not finish within its budget; the caller falls back to what it already knows."""


class Cancelled(Exception):
    """The caller asked for the work to stop (a newer answer, a closed screen)."""


class Budget:
    def __init__(self, seconds: float = GRADE_SECONDS, cancelled: Callable[[], bool] | None = None) -> None:
        self.deadline = time.monotonic() + seconds
        self.cancelled = cancelled

    def check(self) -> None:
        if self.cancelled is not None and self.cancelled():
            raise Cancelled
        if time.monotonic() > self.deadline:
            raise OutOfBudget
