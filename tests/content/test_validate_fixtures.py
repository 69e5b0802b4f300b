"""`tutor validate` on good fixtures and on each broken fixture, with the exact messages."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, REPO, run_tutor
from tutor.content.loader import load_content
from tutor.content.validate import validate

BROKEN = sorted(path for path in (FIXTURES / "broken").iterdir() if path.is_dir())
GOOD = FIXTURES / "content"


def test_good_fixture_loads_without_problems():
    content = load_content([GOOD])
    assert validate(content) == []
    assert set(content.lessons) == {"basics"}
    assert set(content.questions) == {"memory-total", "tp-where"}
    assert set(content.labs) == {"demo"}
    question = content.questions["memory-total"].model
    assert question.given["params"] == 70_000_000_000  # "70e9" read as a number, not a string
    assert question.kind == "numeric"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", BROKEN, ids=[path.name for path in BROKEN])
def test_broken_fixture_gives_its_exact_messages(case: Path, capsys, monkeypatch):
    # In-process, so the engine is imported once for all cases; the CLI path itself is covered
    # by test_cli_validate_reports_and_exits_1 below.
    from tutor.cli import main

    monkeypatch.chdir(REPO)
    status = main(["validate", str(GOOD.relative_to(REPO)), str(case.relative_to(REPO))])
    captured = capsys.readouterr()
    expected = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    lines = captured.out.splitlines()
    assert status == 1, captured.err
    assert captured.err == ""
    assert lines[:-1] == expected
    assert lines[-1].startswith(f"{len(expected)} problem(s)")


@pytest.mark.timeout(60)
def test_cli_validate_reports_and_exits_1():
    case = FIXTURES / "broken" / "missing-zh"
    result = run_tutor("validate", str(GOOD.relative_to(REPO)), str(case.relative_to(REPO)))
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.splitlines()[:-1] == (case / "expected.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.timeout(30)
def test_oversized_file_is_refused_before_parsing(tmp_path):
    questions = tmp_path / "questions"
    questions.mkdir()
    (questions / "huge.yaml").write_text("- id: huge\n" + "# padding\n" * 60_000)
    result = run_tutor("validate", str(tmp_path))
    assert result.returncode == 1
    assert "huge.yaml:1: file is 600,011 bytes; content files are limited to 524,288" in result.stdout


def test_alias_bomb_is_rejected_in_under_a_second():
    from tutor.content.yamlsafe import YamlProblem, read_document

    started = time.perf_counter()
    with pytest.raises(YamlProblem, match="alias bomb"):
        read_document(FIXTURES / "broken" / "alias-bomb" / "questions" / "lol.yaml")
    assert time.perf_counter() - started < 1.0


def test_a_single_file_resolves_references_against_the_installed_content(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_CONTENT", str(GOOD))
    questions = tmp_path / "questions"
    questions.mkdir()
    (questions / "extra.yaml").write_text((FIXTURES / "broken" / "unknown-reference" / "questions" / "lost.yaml")
                                          .read_text().replace("basics/nowhere", "basics/memory"))
    result = run_tutor("validate", str(questions / "extra.yaml"))
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("ok:")


def test_missing_path_is_a_usage_error():
    result = run_tutor("validate", "no/such/file.yaml")
    assert result.returncode == 2
    assert result.stderr.strip() == "tutor: no such file or folder: no/such/file.yaml"
