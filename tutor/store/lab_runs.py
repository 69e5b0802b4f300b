"""What the lab history says: which labs passed their check, each action's latest outcome,
whether a diagnosis was given, and the evidence of recent runs (rows written by `record_lab_run`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from tutor.store.db import Store

RECENT_RUNS = 50
"""How many of a lab's newest runs are looked at for evidence (the newest usable one is wanted)."""


def passed_labs(store: Store) -> set[str]:
    """Labs whose check of the learner's own copy has passed at least once."""
    rows = store.query("SELECT DISTINCT lab FROM lab_runs WHERE action = 'check' AND passed = 1")
    return {row["lab"] for row in rows}


def check_passed(store: Store, lab: str) -> bool:
    rows = store.query("SELECT 1 FROM lab_runs WHERE lab = ? AND action = 'check' AND passed = 1 LIMIT 1", (lab,))
    return bool(rows)


def latest_outcomes(store: Store, lab: str) -> dict[str, str]:
    """The latest outcome per action for one lab."""
    rows = store.query("SELECT action, outcome FROM lab_runs WHERE lab = ? ORDER BY id", (lab,))
    return {row["action"]: row["outcome"] for row in rows}


def diagnosed(store: Store, lab: str, after_id: int | None = None) -> bool:
    """Whether a diagnosis of `lab` was given at all, or since history row `after_id`."""
    if after_id is None:
        rows = store.query("SELECT 1 FROM lab_runs WHERE lab = ? AND action = 'diagnose' LIMIT 1", (lab,))
    else:
        rows = store.query("SELECT 1 FROM lab_runs WHERE lab = ? AND action = 'diagnose' AND id > ? LIMIT 1",
                           (lab, after_id))
    return bool(rows)


def recent_evidence(store: Store, lab: str, actions: Sequence[str]) -> list[tuple[int, str, dict]]:
    """(row id, action, evidence) of the lab's newest runs with one of `actions` that left evidence,
    newest first."""
    marks = ", ".join("?" * len(actions))
    rows = store.query(f"SELECT id, action, evidence_json FROM lab_runs WHERE lab = ? AND action IN ({marks})"
                       f" AND evidence_json IS NOT NULL ORDER BY id DESC LIMIT {RECENT_RUNS}", (lab, *actions))
    return [(int(row["id"]), row["action"], json.loads(row["evidence_json"])) for row in rows]
