"""Review scheduling: ratings from grades, deterministic on a fixed clock with fuzzing off."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fsrs import Rating

from tutor.interview.review import Outcome, ReviewQueue, question_item, rating_for
from tutor.store import Store

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)


def test_rating_comes_from_the_objective_grade():
    assert rating_for(Outcome(correct=False)) == Rating.Again
    assert rating_for(Outcome(correct=True, hints_used=1, elapsed_s=10)) == Rating.Hard
    assert rating_for(Outcome(correct=True, elapsed_s=200, par_s=90)) == Rating.Hard
    assert rating_for(Outcome(correct=True, elapsed_s=60, par_s=90)) == Rating.Good
    assert rating_for(Outcome(correct=True, elapsed_s=20, par_s=90)) == Rating.Easy
    assert rating_for(Outcome(correct=True)) == Rating.Good


def _queue(store, clock):
    return ReviewQueue(store, fuzz=False, now=lambda: clock[0])


def test_schedule_is_deterministic_and_wrong_answers_come_back_first(tutor_home):
    clock = [T0]
    results = []
    for _ in range(2):
        with Store(tutor_home / f"run{len(results)}.sqlite3") as store:
            queue = _queue(store, clock)
            wrong = queue.record(question_item("a"), Outcome(correct=False))
            right = queue.record(question_item("b"), Outcome(correct=True, elapsed_s=60))
            results.append((wrong, right))
    assert results[0] == results[1]
    wrong, right = results[0]
    assert wrong < right
    assert wrong - T0 <= timedelta(minutes=10)


def test_due_items_follow_the_clock_and_survive_reopening(tutor_home):
    clock = [T0]
    with Store() as store:
        queue = _queue(store, clock)
        queue.record(question_item("a"), Outcome(correct=False))
        queue.record(question_item("b"), Outcome(correct=True, elapsed_s=20))
        assert queue.due() == []
    clock[0] = T0 + timedelta(hours=1)
    with Store() as store:
        queue = _queue(store, clock)
        assert queue.due() == ["q:a"]
        easy_due = queue.due_at("q:b")
        clock[0] = easy_due + timedelta(seconds=1)
        assert set(queue.due()) == {"q:a", "q:b"}
        assert store.query("SELECT COUNT(*) AS n FROM review_log")[0]["n"] == 2
