"""Answers as a clumsy shell delivers them (issue 17 items 3 and 6): bytes that are not UTF-8,
and answers that start with '-'. Each is graded and recorded, never an internal error."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from tests.helpers import REPO
from tutor.cli import main


def _tutor(*args: bytes, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable.encode(), b"-m", b"tutor", *args], input=stdin, capture_output=True,
                          cwd=REPO, env=os.environ, timeout=60)


def _recorded_answers(home) -> list[str]:
    with closing(sqlite3.connect(home / "tutor.sqlite3")) as connection:
        return [row[0] for row in connection.execute("SELECT answer FROM attempts")]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("stdin", [False, True])
def test_bytes_that_are_not_utf8_are_replaced_said_and_recorded(tutor_home, stdin):
    answer = b"TP inside the node \xff\xfe"
    if stdin:
        done = _tutor(b"check", b"pitch-30-seconds", b"-", b"--json", b"--self-assess", b"yes", stdin=answer)
    else:
        done = _tutor(b"check", b"pitch-30-seconds", answer, b"--json", b"--self-assess", b"yes")
    assert done.returncode == 0, done.stderr.decode()
    assert b"not UTF-8" in done.stderr and b"internal error" not in done.stderr
    assert json.loads(done.stdout)["recorded"] is True
    assert _recorded_answers(tutor_home) == ["TP inside the node \ufffd\ufffd"]


@pytest.mark.parametrize("argv", [
    ["check", "model-state-total", "-inf", "--json"],
    ["check", "model-state-total", "--json", "-inf"],
    ["check", "--json", "model-state-total", "--overlap-param-gather"],
    ["check", "distopt-formula", "-----Ψ", "--lang", "zh", "--json"],
    ["check", "model-state-total", "-39 GB", "--seed", "0", "--json"],
])
def test_answers_starting_with_a_dash_need_no_double_dash(argv, capsys):
    assert main(argv) == 1  # graded (and wrong: `tutor check` exits 1), not refused as an unknown option
    payload = json.loads(capsys.readouterr().out)
    assert payload["correct"] is False


def test_a_real_option_is_still_an_option(capsys):
    assert main(["check", "model-state-total", "-inf", "--js"]) == 1  # argparse abbreviation of --json; wrong answer
    assert json.loads(capsys.readouterr().out)["step"] == "main"


_STEPS = [("distopt-bytes-per-gpu", "main"), ("distopt-formula", "main"), ("config-dense-cluster", "main"),
          ("fp8-gradient-format", "main"), ("hang-at-step-n", "main"), ("clarify-gpu-count", "main")]


def test_every_grader_takes_arbitrary_bytes_and_the_store_records_them(tutor_home):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tutor.content.loader import load_content
    from tutor.grading.dispatch import grade
    from tutor.paths import content_root
    from tutor.store import Attempt, Store, record_attempt

    bank = load_content([content_root()])
    store = Store()

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.binary(max_size=200), st.sampled_from(_STEPS))
    def graded_and_recorded(raw, target):
        answer = raw.decode("utf-8", "surrogateescape")  # what argv holds for bytes that are not UTF-8
        verdict = grade(bank.questions[target[0]].model, answer, target[1])
        assert verdict.feedback["en"] and verdict.feedback["zh"]
        record_attempt(store, Attempt(target[0], answer, verdict.correct, verdict.score))

    try:
        graded_and_recorded()
    finally:
        store.close()
