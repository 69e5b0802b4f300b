"""What the app and the CLI write and read: attempts, lab runs, sections read."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from tutor.store.db import Store, inserted_id, utc_now


@dataclass(frozen=True)
class Attempt:
    """One graded answer to one step of a question."""

    question_id: str
    answer: str
    correct: bool
    score: float
    step_id: str = "main"
    seed: int = 0
    hints_used: int = 0
    elapsed_s: float | None = None
    lang: str = "en"
    mode: str = "practice"
    self_assessed: bool = False
    created_at: str = field(default_factory=utc_now)


def _storable(text: str) -> str:
    """SQLite refuses lone surrogates (undecodable bytes carried in a str): store U+FFFD instead
    of failing to record a graded answer."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def record_attempt(store: Store, attempt: Attempt) -> int:
    with store.transaction() as connection:
        cursor = connection.execute(
            "INSERT INTO attempts (question_id, step_id, seed, answer, correct, score, hints_used,"
            " elapsed_s, lang, mode, self_assessed, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (attempt.question_id, attempt.step_id, attempt.seed, _storable(attempt.answer), int(attempt.correct),
             max(0.0, min(1.0, attempt.score)), attempt.hints_used, attempt.elapsed_s, attempt.lang,
             attempt.mode, int(attempt.self_assessed), attempt.created_at),
        )
        return inserted_id(cursor)


def attempts(store: Store, question_id: str | None = None) -> list[Attempt]:
    sql = ("SELECT question_id, answer, correct, score, step_id, seed, hints_used, elapsed_s, lang, mode,"
           " self_assessed, created_at FROM attempts")
    rows = store.query(sql + (" WHERE question_id = ? ORDER BY id" if question_id else " ORDER BY id"),
                       (question_id,) if question_id else ())
    return [Attempt(row["question_id"], row["answer"], bool(row["correct"]), row["score"], row["step_id"],
                    row["seed"], row["hints_used"], row["elapsed_s"], row["lang"], row["mode"],
                    bool(row["self_assessed"]), row["created_at"]) for row in rows]


def ever_solved(store: Store) -> dict[str, bool]:
    """Per question tried: whether any attempt at it was right (the best result, as Practice marks it)."""
    rows = store.query("SELECT question_id, MAX(correct) AS solved FROM attempts GROUP BY question_id")
    return {row["question_id"]: bool(row["solved"]) for row in rows}


def latest_step_scores(store: Store, question_id: str) -> dict[str, float]:
    """Per step of one question: the score of its latest attempt."""
    rows = store.query("SELECT step_id, score FROM attempts WHERE question_id = ? ORDER BY id", (question_id,))
    return {row["step_id"]: row["score"] for row in rows}


def record_lab_run(store: Store, lab: str, action: str, outcome: str, *, passed: bool | None = None,
                   world_size: int | None = None, backend: str | None = None,
                   elapsed_s: float | None = None, evidence: dict | None = None) -> int:
    with store.transaction() as connection:
        cursor = connection.execute(
            "INSERT INTO lab_runs (lab, action, outcome, passed, world_size, backend, elapsed_s,"
            " evidence_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (lab, action, outcome, None if passed is None else int(passed), world_size, backend, elapsed_s,
             json.dumps(evidence, ensure_ascii=False) if evidence is not None else None, utc_now()),
        )
        return inserted_id(cursor)


def mark_section_read(store: Store, lesson_id: str, section_id: str) -> None:
    with store.transaction() as connection:
        connection.execute(
            "INSERT INTO sections_read (lesson_id, section_id, read_at) VALUES (?, ?, ?)"
            " ON CONFLICT (lesson_id, section_id) DO UPDATE SET read_at = excluded.read_at",
            (lesson_id, section_id, utc_now()),
        )


def sections_read(store: Store) -> dict[tuple[str, str], str]:
    rows = store.query("SELECT lesson_id, section_id, read_at FROM sections_read")
    return {(row["lesson_id"], row["section_id"]): row["read_at"] for row in rows}


def due_reviews(store: Store, now: str | None = None) -> int:
    """How many review cards are due at `now` (UTC ISO time; default: now)."""
    return store.query("SELECT COUNT(*) AS n FROM review_cards WHERE due_at <= ?", (now or utc_now(),))[0]["n"]
