"""`tutor mock`, `tutor review` and `tutor progress` on the command line (answers piped on stdin)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest

from tests.helpers import REPO, run_tutor
from tests.interview.helpers import FIXTURE_ROOT
from tutor.store import Store

ENV = {"TUTOR_CONTENT": str(FIXTURE_ROOT)}
PITCH = "Memory first, then TP inside the node.\n\n"


def tutor(*args: str, input: str | None = None):
    return run_tutor(*args, env=ENV, input=input)


@pytest.mark.timeout(90)
def test_a_pitch_on_the_command_line_then_history_export_and_progress(tutor_home, tmp_path):
    finished = tutor("mock", "--format", "pitch", "--json", input=PITCH)
    assert finished.returncode == 0, finished.stderr
    report = json.loads(finished.stdout)
    assert report["score"] == 1.0 and report["status"] == "finished" and report["format"] == "pitch"
    assert "Pitch the recipe in thirty seconds." in finished.stderr  # the question goes to stderr with --json
    history = json.loads(tutor("mock", "--history", "--json").stdout)
    assert [(entry["format"], entry["status"]) for entry in history["sessions"]] == [("pitch", "finished")]
    assert history["by_format"]["pitch"]["recent"] == [1.0]
    target = tmp_path / "pitch.md"
    assert tutor("mock", "--export", str(target)).returncode == 0
    assert target.read_text(encoding="utf-8").startswith("# Mock interview — 30-second pitch (strict)")
    chinese = tutor("mock", "--export", "-", "--lang", "zh")
    assert chinese.stdout.startswith("# 模拟面试——30 秒陈述（严格模式）")
    progress = json.loads(tutor("progress", "--json").stdout)
    assert progress["mock"]["finished"] == 1 and progress["mock"]["by_format"]["pitch"]["best"] == 1.0
    assert progress["review"]["cards"] == 1


@pytest.mark.timeout(90)
def test_an_interview_left_with_quit_waits_and_resumes(tutor_home):
    paused = tutor("mock", "--format", "hang", "--mode", "practice", input="r0\n\n:quit\n")
    assert paused.returncode == 0 and "✓ Right" in paused.stdout and "tutor mock --resume" in paused.stdout
    blocked = tutor("mock", "--format", "pitch", input=PITCH)
    assert blocked.returncode == 2 and "tutor mock --resume" in blocked.stderr
    assert len(blocked.stderr.strip().splitlines()) == 1
    resumed = tutor("mock", "--resume", input="only rank 0 calls it\n\nevery rank must call it\n\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "[2/3]" in resumed.stdout and "score 100%" in resumed.stdout
    assert tutor("mock", "--resume").returncode == 2


@pytest.mark.timeout(90)
def test_a_killed_interview_keeps_its_answered_stage_and_can_be_abandoned(tutor_home):
    process = subprocess.Popen([sys.executable, "-m", "tutor", "mock", "--format", "hang"], cwd=REPO,
                               env={**os.environ, **ENV}, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        process.stdin.write(b"r0\n\n")
        process.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with Store() as store:
                if store.query("SELECT COUNT(*) AS n FROM mock_stages")[0]["n"]:
                    break
            time.sleep(0.1)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    with Store() as store:
        row = store.query("SELECT status FROM mock_sessions")[0]
        assert row["status"] == "running"
        assert store.query("SELECT stage, score FROM mock_stages")[0]["score"] == 1.0
    abandoned = tutor("mock", "--abandon")
    assert abandoned.returncode == 0 and "abandoned" in abandoned.stderr
    with Store() as store:
        assert store.query("SELECT status FROM mock_sessions")[0]["status"] == "abandoned"
        report = json.loads(store.query("SELECT report_json FROM mock_sessions")[0]["report_json"])
    assert [entry["answered"] for entry in report["stages"]] == [True, False, False]


def _due_cards(past_hours: float = 2) -> None:
    from tutor.interview.review import Outcome, ReviewQueue, question_item

    earlier = datetime.now(timezone.utc) - timedelta(hours=past_hours)
    with Store() as store:
        queue = ReviewQueue(store, fuzz=False, now=lambda: earlier)
        queue.record(question_item("memory-total"), Outcome(correct=False))
        queue.record(question_item("fixture-hang"), Outcome(correct=False))


@pytest.mark.timeout(90)
def test_review_lists_what_is_due_and_reschedules_answers(tutor_home):
    assert "Nothing is due" in tutor("review").stdout
    _due_cards()
    listing = json.loads(tutor("review", "--json").stdout)
    assert [entry["item"] for entry in listing["due"]] == ["q:memory-total", "q:fixture-hang"]
    assert listing["stats"]["due"] == 2 and listing["due"][1]["step"] == "which-rank"
    session = tutor("review", input=":hint\n1 GB\n\nr0\n\n")
    assert session.returncode == 0, session.stderr
    assert "→ Count weights, gradients" in session.stdout and "✗ Not right" in session.stdout
    assert "✓ Right" in session.stdout and "Reviewed 2;" in session.stdout
    assert "+00:00" not in session.stdout and " UTC" in session.stdout  # when it comes back, as read
    with Store() as store:
        ratings = [row["rating"] for row in store.query("SELECT rating FROM review_log ORDER BY id")]
    # the two first sightings; then wrong (again, after a hint) and right within a third of par (easy)
    assert ratings == [1, 1, 1, 4]


@pytest.mark.timeout(60)
def test_bad_requests_are_one_line_and_exit_2(tutor_home):
    for args in (("mock", "--export"), ("mock", "--abandon"), ("review", "--limit", "0"), ("mock",),
                 ("mock", "--format", "quiz")):
        result = tutor(*args, input="")
        assert result.returncode == 2, args
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    formats = json.loads(tutor("mock", "--formats", "--json").stdout)["formats"]
    assert [entry["id"] for entry in formats] == ["pitch", "design", "led", "debug", "hang", "behavioural", "rapid"]


@pytest.mark.timeout(60)
def test_a_scenario_that_failed_to_load_is_named_on_stderr_not_silently_left_out(tutor_home, tmp_path):
    """A misspelt key dropped the scenario from its format with nothing said; the mock now says what
    `tutor lesson` and `tutor check` say: how many problems were skipped, and where to look."""
    import shutil

    root = tmp_path / "content"
    shutil.copytree(FIXTURE_ROOT, root)
    broken = sorted((root / "interview").glob("*.yaml"))[0]
    broken.write_text(broken.read_text(encoding="utf-8").replace("format:", "formatt:", 1), encoding="utf-8")
    finished = run_tutor("mock", "--format", "pitch", "--json", env={"TUTOR_CONTENT": str(root)}, input=PITCH)
    assert "content problem(s) skipped; run `tutor validate`" in finished.stderr
    clean = tutor("mock", "--format", "pitch", "--json", input=PITCH)
    assert "skipped" not in clean.stderr
