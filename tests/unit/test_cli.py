"""The command line: fast help, one-line errors with exit 2, JSON shapes, content resolution."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_tutor

HEAVY = ("torch", "sympy", "textual")


@pytest.mark.timeout(30)
def test_help_imports_no_heavy_package():
    probe = ("import sys, runpy; sys.argv = ['tutor', '--help']\n"
             "try:\n    runpy.run_module('tutor', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (HEAVY,))
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30)
    assert "usage: tutor" in result.stdout
    assert result.stdout.strip().splitlines()[-1] == "LOADED []"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("argv", [["bogus"], ["lessons", "--bogus"], ["questions", "--json", "extra"],
                                  ["store", "explode"], ["start", "--lang", "fr"]])
def test_bad_commands_and_flags_give_one_line_and_exit_2(argv):
    result = run_tutor(*argv)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("tutor")


@pytest.mark.timeout(30)
def test_version():
    from tutor import __version__

    result = run_tutor("--version")
    assert result.stdout.strip() == f"tutor {__version__}"


@pytest.mark.timeout(30)
def test_lessons_and_questions_json_shapes(fixture_content):
    lessons = json.loads(run_tutor("lessons", "--json").stdout)
    assert lessons == {"lessons": [{"id": "basics", "kind": "lesson",
                                    "title": {"en": "Sizing basics", "zh": "规模估算入门"},
                                    "sections": [{"id": "memory", "title": {"en": "Memory first", "zh": "先算显存"}},
                                                 {"id": "placement", "title": {"en": "Placing the dimensions",
                                                                               "zh": "各维度放在哪里"}}]}]}
    questions = json.loads(run_tutor("questions", "--json", "--tag", "placement").stdout)["questions"]
    assert [(q["id"], q["kind"], q["steps"]) for q in questions] == [("tp-where", "choice", [{"id": "main", "kind": "choice"}])]


@pytest.mark.timeout(30)
def test_progress_json_on_a_fresh_home(fixture_content):
    result = run_tutor("progress", "--json")
    record = json.loads(result.stdout)
    assert record["attempts"] == 0 and record["questions_total"] == 2 and record["streak_days"] == 0


@pytest.mark.timeout(30)
def test_start_without_a_terminal_says_so():
    result = run_tutor("start")
    assert result.returncode == 1
    assert result.stderr.strip() == ("tutor: `tutor start` needs a terminal; for scripts use the other "
                                     "commands with --json")


@pytest.mark.timeout(30)
def test_damaged_database_is_one_line_not_a_traceback(tutor_home, fixture_content):
    (tutor_home / "tutor.sqlite3").write_bytes(b"garbage" * 500)
    result = run_tutor("progress")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "tutor store recover" in result.stderr
    recovered = run_tutor("store", "recover")
    assert recovered.returncode == 0 and "damaged database kept as" in recovered.stdout
    assert run_tutor("progress").returncode == 0
