"""The clocks a mock interview reads: the wall clock for timestamps, a monotonic one for timers.

Injected everywhere a stage is timed, so tests and snapshots run on a clock that only moves
when told (`ManualClock`), with review scheduling on the same fixed UTC time.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds from an arbitrary origin; only differences mean anything."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class ManualClock:
    """A clock that stands still until `advance` is called."""

    def __init__(self, start: datetime | None = None):
        self._start = start or datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
        self._elapsed = 0.0

    def advance(self, seconds: float) -> None:
        self._elapsed += seconds

    def monotonic(self) -> float:
        return self._elapsed

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._elapsed)


def stamp(moment: datetime) -> str:
    """UTC ISO time to the second, as the store keeps it."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def clock_text(seconds: float) -> str:
    """`4:05`, `-0:12` (over time), `1:02:03` — what the timer shows."""
    sign = "-" if seconds < 0 else ""
    whole = round(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


def stamp_text(stamp: str | None) -> str:
    """A stored ISO timestamp as a learner reads it: "2026-12-01 08:09 UTC", not
    "2026-12-01T08:09:47+00:00"; text that is not a timestamp comes back as it is."""
    if not stamp:
        return "–"
    try:
        moment = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
