"""The learner's record at a glance: attempts, accuracy, streak, per tag and per section."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta, timezone

from tutor.store.db import Store


def streak_days(days: set[date], today: date) -> int:
    """Consecutive days with practice, ending today (or yesterday, if today has none yet)."""
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


def summary(store: Store, content=None, today: date | None = None) -> dict:
    """Totals, streak and mastery. `content` (tutor.content.Content) adds tags and sections.

    Mastery of a question is its latest attempt's score (what the learner can do now, not
    an average of early mistakes); a tag's or section's mastery is the mean over its
    questions, counting unattempted ones as 0.
    """
    today = today or datetime.now(timezone.utc).date()
    rows = store.query("SELECT question_id, correct, score, created_at FROM attempts ORDER BY id")
    latest: dict[str, float] = {}
    days: set[date] = set()
    correct = 0
    for row in rows:
        latest[row["question_id"]] = row["score"]
        correct += row["correct"]
        days.add(datetime.fromisoformat(row["created_at"]).date())
    result: dict = {
        "attempts": len(rows),
        "correct": correct,
        "accuracy": round(correct / len(rows), 4) if rows else None,
        "questions_tried": len(latest),
        "streak_days": streak_days(days, today),
        "last_activity": rows[-1]["created_at"] if rows else None,
        "lab_runs": store.query("SELECT COUNT(*) AS n FROM lab_runs")[0]["n"],
    }
    if content is not None:
        by_tag: dict[str, list[float | None]] = defaultdict(list)
        by_section: dict[str, list[float | None]] = defaultdict(list)
        for question_id, loaded in content.questions.items():
            score = latest.get(question_id)
            for tag in loaded.model.tags:
                by_tag[tag].append(score)
            by_section[loaded.model.section].append(score)
        result["questions_total"] = len(content.questions)
        result["by_tag"] = {tag: _mastery(scores) for tag, scores in sorted(by_tag.items())}
        result["by_section"] = {key: _mastery(scores) for key, scores in sorted(by_section.items())}
        result["weak_tags"] = sorted(
            (tag for tag, entry in result["by_tag"].items() if entry["tried"] and entry["mastery"] < 0.6),
            key=lambda tag: result["by_tag"][tag]["mastery"],
        )
    return result


def _mastery(scores: list[float | None]) -> dict:
    """`None` marks a question never tried; it counts as 0 towards mastery."""
    tried = [score for score in scores if score is not None]
    return {"questions": len(scores), "tried": len(tried),
            "mastery": round(sum(tried) / len(scores), 4) if scores else 0.0}
