"""What the store says about earlier interviews: which are still running, which questions were asked."""

from __future__ import annotations

from tutor.store.db import Store
from tutor.store.mocks import all_stage_results, running_mocks


def running(store: Store) -> list[dict]:
    """Interviews left running (interrupted), newest first: {id, format, mode, started_at, answered, stages}."""
    return [{"id": row["id"], "format": row["format"], "mode": row["mode"], "started_at": row["started_at"],
             "answered": row["answered"], "stages": len(row["state"]["stages"])} for row in running_mocks(store)]


def asked_counts(store: Store) -> dict[str, int]:
    """How often each question was asked in earlier interviews (so the next one picks another)."""
    counts: dict[str, int] = {}
    for _score, detail in all_stage_results(store):
        question_id = detail.get("question_id")
        counts[question_id] = counts.get(question_id, 0) + 1
    return counts
