"""Mock interviews: a session row (its plan as `state`, its report once closed) and one row per
answered stage (its grading as `detail`). The interview logic is `tutor.interview.session`."""

from __future__ import annotations

import json

from tutor.store.db import Store, inserted_id


def start_mock(store: Store, format_id: str, mode: str, started_at: str, state: dict) -> int:
    """A new running session; returns its id."""
    with store.transaction() as connection:
        cursor = connection.execute(
            "INSERT INTO mock_sessions (format, mode, status, started_at, state_json) VALUES (?, ?, 'running', ?, ?)",
            (format_id, mode, started_at, json.dumps(state)))
        return inserted_id(cursor)


def mock_session(store: Store, session_id: int) -> dict | None:
    """The session row (id, format, mode, status, started_at, ended_at, score, state, report),
    `state` and `report` parsed from JSON; None if there is no such session."""
    rows = store.query("SELECT * FROM mock_sessions WHERE id = ?", (session_id,))
    return _session(rows[0]) if rows else None


def latest_reported_mock(store: Store) -> dict | None:
    """The newest session that has a report (finished or abandoned), as `mock_session` gives it."""
    rows = store.query("SELECT * FROM mock_sessions WHERE report_json IS NOT NULL ORDER BY id DESC LIMIT 1")
    return _session(rows[0]) if rows else None


def _session(row) -> dict:
    session = {key: row[key] for key in ("id", "format", "mode", "status", "started_at", "ended_at", "score")}
    session["state"] = json.loads(row["state_json"]) if row["state_json"] is not None else None
    session["report"] = json.loads(row["report_json"]) if row["report_json"] is not None else None
    return session


def mock_stages(store: Store, session_id: int) -> list[dict]:
    """The session's answered stages in order: stage, started_at, ended_at, score, answer, detail."""
    rows = store.query("SELECT * FROM mock_stages WHERE session_id = ? ORDER BY id", (session_id,))
    return [{"stage": row["stage"], "started_at": row["started_at"], "ended_at": row["ended_at"],
             "score": row["score"], "answer": row["answer"], "detail": json.loads(row["detail_json"])}
            for row in rows]


def record_mock_stage(store: Store, session_id: int, stage: str, started_at: str, ended_at: str, score: float,
                      answer: str, detail: dict, new_state: dict | None = None) -> None:
    """One answered stage; `new_state` replaces the session's plan in the same transaction
    (a follow-up question was inserted)."""
    with store.transaction() as connection:
        connection.execute(
            "INSERT INTO mock_stages (session_id, stage, started_at, ended_at, score, answer, detail_json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (session_id, stage, started_at, ended_at, score, answer, json.dumps(detail, ensure_ascii=False)))
        if new_state is not None:
            connection.execute("UPDATE mock_sessions SET state_json = ? WHERE id = ?",
                               (json.dumps(new_state), session_id))


def close_mock(store: Store, session_id: int, status: str, ended_at: str, report: dict | None = None) -> None:
    """End a running session as finished or abandoned, with its report (score from it) when there is one.
    A session already closed is left as it is."""
    with store.transaction() as connection:
        if report is None:
            connection.execute("UPDATE mock_sessions SET status = ?, ended_at = ? WHERE id = ? AND status = 'running'",
                               (status, ended_at, session_id))
        else:
            connection.execute("UPDATE mock_sessions SET status = ?, ended_at = ?, score = ?, report_json = ?"
                               " WHERE id = ? AND status = 'running'",
                               (status, ended_at, report["score"], json.dumps(report, ensure_ascii=False),
                                session_id))


def running_mocks(store: Store) -> list[dict]:
    """Sessions still running (interrupted), newest first: id, format, mode, started_at, state,
    and `answered`, how many stages they have."""
    rows = store.query("SELECT s.id, s.format, s.mode, s.started_at, s.state_json, COUNT(t.id) AS answered"
                       " FROM mock_sessions s LEFT JOIN mock_stages t ON t.session_id = s.id"
                       " WHERE s.status = 'running' GROUP BY s.id ORDER BY s.id DESC")
    return [{"id": row["id"], "format": row["format"], "mode": row["mode"], "started_at": row["started_at"],
             "state": json.loads(row["state_json"]), "answered": row["answered"]} for row in rows]


def all_stage_results(store: Store) -> list[tuple[float, dict]]:
    """(score, detail) of every stage ever answered, oldest first."""
    return [(row["score"], json.loads(row["detail_json"]))
            for row in store.query("SELECT score, detail_json FROM mock_stages ORDER BY id")]
