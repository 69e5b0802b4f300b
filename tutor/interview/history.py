"""What the store says about earlier interviews: which are still running, which questions were asked."""

from __future__ import annotations

import json

from tutor.store.db import Store


def running(store: Store) -> list[dict]:
    """Interviews left running (interrupted), newest first: {id, format, mode, started_at, answered, stages}."""
    found = []
    for row in store.query("SELECT id, format, mode, started_at, state_json FROM mock_sessions"
                           " WHERE status = 'running' ORDER BY id DESC"):
        answered = store.query("SELECT COUNT(*) AS n FROM mock_stages WHERE session_id = ?", (row["id"],))[0]["n"]
        stages = len(json.loads(row["state_json"])["stages"])
        found.append({"id": row["id"], "format": row["format"], "mode": row["mode"], "started_at": row["started_at"],
                      "answered": answered, "stages": stages})
    return found


def asked_counts(store: Store) -> dict[str, int]:
    """How often each question was asked in earlier interviews (so the next one picks another)."""
    counts: dict[str, int] = {}
    for row in store.query("SELECT detail_json FROM mock_stages"):
        question_id = json.loads(row["detail_json"]).get("question_id")
        counts[question_id] = counts.get(question_id, 0) + 1
    return counts
