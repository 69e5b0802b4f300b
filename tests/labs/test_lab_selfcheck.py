"""`tutor lab selfcheck`: the fast fixture lab passes; a shipped program without its symptom, or
metadata that is not whole, is named with what is wrong (issue 15, item 7)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.helpers import run_tutor
from tutor.commands.lab_selfcheck import metadata_problems, shipped_problem
from tutor.labs.catalog import LabEntry

FIXTURE = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_fast_fixture_lab_passes_its_selfcheck(tutor_home):
    result = run_tutor("lab", "selfcheck", "hang-demo", env={"TUTOR_CONTENT": str(FIXTURE)}, timeout=170)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "✓ hang-demo: metadata whole, the shipped program shows its symptom, the solution passes",
        "1 of 1 lab(s) pass their self-check"]


def _result(outcome: str, passed: bool) -> dict:
    return {"passed": passed, "evidence": {"outcome": outcome}, "checks": []}


@pytest.mark.parametrize("symptom, result, problem", [
    ("hang", _result("ok", True), "the shipped program passes its check: it shows no symptom"),
    ("hang", _result("crash", False), "the shipped program should hang, but its run ended 'crash'"),
    ("crash", _result("hang", False), "the shipped program should crash, but its run ended 'hang'"),
    ("fail-check", _result("hang", False),
     "the shipped program should run to the end and fail its check, but its run ended 'hang'"),
    ("slow", _result("ok", True), "the shipped program passes its check: it shows no symptom"),
    ("hang", _result("hang", False), None),
    ("wrong", _result("ok", False), None),
])
def test_a_shipped_program_without_its_symptom_is_caught(symptom, result, problem):
    entry = SimpleNamespace(lab=SimpleNamespace(symptom=symptom))
    found = shipped_problem(entry, result)
    assert (found and found.en) == problem and (found is None or found.zh != found.en)


def test_an_unknown_lab_is_one_line(tutor_home):
    result = run_tutor("lab", "selfcheck", "no-such-lab", env={"TUTOR_CONTENT": str(FIXTURE)})
    assert result.returncode == 2 and result.stderr.startswith("tutor: no lab named 'no-such-lab'")


def test_metadata_that_is_not_whole_is_listed(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_CONTENT", str(FIXTURE))
    from tutor.content import load

    load.cache_clear()
    try:
        from tutor.labs.catalog import get_lab

        entry = get_lab("hang-demo")
    finally:
        load.cache_clear()
    assert metadata_problems(entry, []) == []
    folder = tmp_path / "01-hang-demo"
    shutil.copytree(entry.folder, folder)
    (folder / "solution.py").unlink()
    broken = LabEntry(entry.name, folder, entry.lab.model_copy(update={"hints": [], "diagnosis": [], "kind": "perf",
                                                                      "symptom": "crash"}))
    assert [problem.en for problem in metadata_problems(broken, [])] == [
        "solution.py: named in lab.yaml but missing",
        "no hints",
        "a perf lab needs a diagnosis",
        "a perf lab needs check.min_speedup",
        "symptom 'crash' is not one a perf lab shows (fail-check, slow)",
    ]
