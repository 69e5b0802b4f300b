"""The learner's record at a glance: attempts, accuracy, streak, per tag and per section; review
statistics and the mock-interview trend."""

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
    """Totals, streak and mastery. `content` (tutor.content.loader.Content) adds tags and sections.

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
        "review": review_summary(store),
        "mock": {key: value for key, value in mock_summary(store).items() if key != "sessions"},
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


def solved_counts(store: Store, content, lab_names) -> dict:
    """Questions ever answered right (the best result, Practice's ✓), in all and by section and
    tag, and the labs among `lab_names` whose check of the learner's copy passed: what the app's
    Progress and `tutor progress` both show (walkthrough minor 14)."""
    from collections import Counter

    solved = {row["question_id"] for row in store.query("SELECT DISTINCT question_id FROM attempts WHERE correct = 1")}
    solved &= set(content.questions)
    by_section: Counter[str] = Counter()
    by_tag: Counter[str] = Counter()
    for question_id in solved:
        question = content.questions[question_id].model
        by_section[question.section] += 1
        for tag in question.tags:
            by_tag[tag] += 1
    labs = set(lab_names)
    passed = {row["lab"] for row in store.query("SELECT DISTINCT lab FROM lab_runs WHERE action = 'check' AND passed = 1")}
    return {"solved": len(solved), "solved_by_section": dict(by_section), "solved_by_tag": dict(by_tag),
            "labs_passed": len(passed & labs), "labs_total": len(labs)}


def _mastery(scores: list[float | None]) -> dict:
    """`None` marks a question never tried; it counts as 0 towards mastery."""
    tried = [score for score in scores if score is not None]
    return {"questions": len(scores), "tried": len(tried),
            "mastery": round(sum(tried) / len(scores), 4) if scores else 0.0}


RATING_NAMES = {"again": 1, "hard": 2, "good": 3, "easy": 4}
"""fsrs Rating values by name (Rating.Again == 1 … Rating.Easy == 4), as review_log stores them."""
TREND_LENGTH = 10


def review_summary(store: Store, now: datetime | None = None) -> dict:
    """Review cards: how many, how many due at `now`, when the next falls due, how reviews went."""
    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
    cards = store.query("SELECT COUNT(*) AS n, SUM(due_at <= ?) AS due FROM review_cards", (moment,))[0]
    upcoming = store.query("SELECT MIN(due_at) AS next FROM review_cards WHERE due_at > ?", (moment,))[0]["next"]
    ratings = {row["rating"]: row["n"] for row in
               store.query("SELECT rating, COUNT(*) AS n FROM review_log GROUP BY rating")}
    return {"cards": cards["n"], "due": cards["due"] or 0, "next_due": upcoming, "reviews": sum(ratings.values()),
            "by_rating": {name: ratings.get(value, 0) for name, value in RATING_NAMES.items()}}


def mock_summary(store: Store) -> dict:
    """Mock interviews: every session (newest first) and, per format, the trend of finished scores."""
    rows = store.query("SELECT id, format, mode, status, started_at, ended_at, score FROM mock_sessions ORDER BY id")
    sessions = [{key: row[key] for key in ("id", "format", "mode", "status", "started_at", "ended_at", "score")}
                for row in rows]
    by_format: dict[str, dict] = {}
    for entry in sessions:
        trend = by_format.setdefault(entry["format"], {"sessions": 0, "finished": 0, "abandoned": 0, "best": None,
                                                       "last": None, "mean": None, "recent": []})
        trend["sessions"] += 1
        if entry["status"] == "abandoned":
            trend["abandoned"] += 1
        if entry["status"] != "finished" or entry["score"] is None:
            continue
        trend["finished"] += 1
        trend["recent"] = (trend["recent"] + [round(entry["score"], 4)])[-TREND_LENGTH:]
        trend["best"] = max(trend["best"] or 0.0, round(entry["score"], 4))
        trend["last"] = round(entry["score"], 4)
    for trend in by_format.values():
        if trend["recent"]:
            trend["mean"] = round(sum(trend["recent"]) / len(trend["recent"]), 4)
    return {"sessions": sessions[::-1], "finished": sum(entry["status"] == "finished" for entry in sessions),
            "abandoned": sum(entry["status"] == "abandoned" for entry in sessions),
            "running": sum(entry["status"] == "running" for entry in sessions), "by_format": by_format}
