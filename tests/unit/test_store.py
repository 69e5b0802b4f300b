"""The learner database: fresh, migrated, shared by two writers, killed mid-write, damaged."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import date

import pytest

from tutor.errors import StoreError
from tutor.store import Attempt, Store, attempts, record_attempt, recover
from tutor.store.db import backups
from tutor.store.progress import streak_days, summary
from tutor.store.schema import MIGRATIONS


def test_fresh_database_has_the_latest_schema_and_wal(tutor_home):
    with Store() as store:
        assert store.path == tutor_home / "tutor.sqlite3"
        assert store.version == len(MIGRATIONS)
        assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in store.connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"attempts", "lab_runs", "review_cards", "review_log", "mock_sessions", "mock_stages"} <= tables


def test_attempts_round_trip(tutor_home):
    with Store() as store:
        record_attempt(store, Attempt("memory-total", "1120 GB", True, 1.0, seed=3, hints_used=1, lang="zh"))
        record_attempt(store, Attempt("memory-total", "1 TB", False, 0.0))
        rows = attempts(store, "memory-total")
    assert [(a.answer, a.correct, a.seed, a.lang) for a in rows] == [("1120 GB", True, 3, "zh"), ("1 TB", False, 0, "en")]


def test_migration_from_version_1_keeps_history_and_makes_a_backup(tutor_home):
    path = tutor_home / "tutor.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0])
    old.execute("PRAGMA user_version = 1")
    old.execute("INSERT INTO attempts (question_id, answer, correct, score, created_at)"
                " VALUES ('q', '42', 1, 1.0, '2026-11-01T10:00:00+00:00')")
    old.commit()
    old.close()
    with Store(path) as store:
        assert store.version == len(MIGRATIONS)
        row = store.query("SELECT question_id, answer, self_assessed FROM attempts")[0]
        assert tuple(row) == ("q", "42", 0)
    saved = backups(path)
    assert len(saved) == 1 and "before-migration-1-to" in saved[0].name
    with sqlite3.connect(saved[0]) as copy:
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 1


def test_database_from_a_newer_tutor_is_refused_untouched(tutor_home):
    path = tutor_home / "tutor.sqlite3"
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises(StoreError, match="newer tutor"):
        Store(path)


def test_damaged_database_gets_one_line_and_recover_keeps_it(tutor_home):
    path = tutor_home / "tutor.sqlite3"
    with Store(path) as store:
        record_attempt(store, Attempt("q", "1", True, 1.0))
        store.backup()
    path.write_bytes(b"this is not a database" * 100)
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    with pytest.raises(StoreError) as raised:
        Store(path)
    message = str(raised.value)
    assert "\n" not in message and "tutor store recover" in message and "left untouched" in message
    moved, restored = recover(path)
    assert moved.read_bytes().startswith(b"this is not a database")
    assert restored is not None
    with Store(path) as store:
        assert [a.answer for a in attempts(store)] == ["1"]


_WRITER = textwrap.dedent("""
    import sys
    from tutor.store import Attempt, Store, record_attempt
    name, count = sys.argv[1], int(sys.argv[2])
    with Store() as store:
        for index in range(count):
            record_attempt(store, Attempt(name, str(index), True, 1.0))
            if count > 10_000:
                print(index, flush=True)
""")


@pytest.mark.timeout(60)
def test_two_writers_at_once_lose_nothing(tutor_home):
    Store().close()  # create the schema once, so both writers start on the same version
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, name, "150"]) for name in ("a", "b")]
    assert [writer.wait(timeout=50) for writer in writers] == [0, 0]
    with Store() as store:
        counts = {row["question_id"]: row["n"] for row in
                  store.query("SELECT question_id, COUNT(*) AS n FROM attempts GROUP BY question_id")}
    assert counts == {"a": 150, "b": 150}


@pytest.mark.timeout(60)
def test_writer_killed_mid_loop_leaves_every_committed_row_readable(tutor_home):
    Store().close()
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, "k", "1000000"], stdout=subprocess.PIPE, text=True)
    last = -1
    deadline = time.monotonic() + 30
    while last < 200 and time.monotonic() < deadline:
        last = int(writer.stdout.readline())
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=10)
    with Store() as store:
        assert store.connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        answers = [int(a.answer) for a in attempts(store, "k")]
    # every row the writer reported as committed is there, in order, without gaps
    assert answers == list(range(len(answers))) and len(answers) >= last + 1


def test_streak_counts_back_from_today_or_yesterday():
    today = date(2026, 11, 29)
    days = {date(2026, 11, 26), date(2026, 11, 27), date(2026, 11, 28)}
    assert streak_days(days, today) == 3
    assert streak_days(days | {today}, today) == 4
    assert streak_days({date(2026, 11, 20)}, today) == 0


def test_summary_mastery_uses_the_latest_attempt(tutor_home, fixture_content):
    from tutor.content import load

    with Store() as store:
        record_attempt(store, Attempt("memory-total", "1", False, 0.0, created_at="2026-11-28T09:00:00+00:00"))
        record_attempt(store, Attempt("memory-total", "2", True, 1.0, created_at="2026-11-29T09:00:00+00:00"))
        record = summary(store, load(), today=date(2026, 11, 29))
    assert record["attempts"] == 2 and record["correct"] == 1 and record["streak_days"] == 2
    assert record["by_section"]["basics/memory"] == {"questions": 1, "tried": 1, "mastery": 1.0}
    assert record["by_section"]["basics/placement"] == {"questions": 1, "tried": 0, "mastery": 0.0}
