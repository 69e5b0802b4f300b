"""The real `tutor start` in a pseudo-terminal: lesson -> question -> answer -> verdict -> quit."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest

from tests.helpers import FIXTURES, REPO


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_lesson_question_answer_verdict_quit(tutor_home):
    env = {**os.environ, "TUTOR_CONTENT": str(FIXTURES / "content"), "TUTOR_HOME": str(tutor_home),
           "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "32"}
    child = pexpect.spawn(sys.executable, ["-m", "tutor", "start"], cwd=str(REPO), env=env, dimensions=(32, 110),
                          encoding="utf-8", timeout=40)
    try:
        child.expect("Sections")
        child.send("l")                       # Lessons
        child.expect("16 bytes per")          # the first section's text
        child.send("p")                       # practise this section
        child.expect("Questions")
        child.send("\r")                      # open the highlighted question
        child.expect("How many bytes")        # its prompt
        child.send("1120 GB")
        child.send("\r")
        child.expect("Right")                 # the verdict
        child.send("\x1b")                    # Esc: home
        child.expect("Sections")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    from tutor.store import Store, attempts

    with Store(tutor_home / "tutor.sqlite3") as store:
        assert [(a.question_id, a.correct) for a in attempts(store)] == [("memory-total", True)]
