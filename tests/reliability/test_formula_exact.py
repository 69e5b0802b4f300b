"""The exact stage of formula grading: near misses found through wrappers, cancellation, display."""

from __future__ import annotations

import pytest

from tutor.content.loader import load_content
from tutor.grading.dispatch import grade
from tutor.grading.budget import Budget, Cancelled
from tutor.grading.formula import grade_formula
from tutor.paths import content_root

QUESTION = load_content([content_root()]).questions["distopt-formula"].model


@pytest.mark.parametrize("answer", [
    "max(6Ψ + 12Ψ/N + 1e-12, 0)",            # SymPy's `cancel` was never reached behind a call
    "6Ψ + 12Ψ/N + 1e-45*((Ψ+N)^8)^2",        # degree 16: over the old expansion estimate, left to probes
    "(6Ψ + 12Ψ/N)*(1 + 1e-13)",
])
def test_tiny_differences_are_near_misses(answer):
    verdict = grade(QUESTION, answer)
    assert not verdict.correct and verdict.mistake == "formula-near-miss", verdict.feedback["en"]


@pytest.mark.parametrize("answer", [
    "(6Ψ+12Ψ/N)*((h+b)^8*(h-b)^8)/((h^2-b^2)^8)", "Ψ(6 + 12/N)", "(12Ψ + 6ΨN)/N",
])
def test_equal_rational_forms_are_checked_exactly(answer):
    verdict = grade(QUESTION, answer)
    assert verdict.correct and "exact" in verdict.feedback["en"], verdict.feedback["en"]


def test_a_cancelled_grading_stops():
    step = QUESTION.steps[0]
    with pytest.raises(Cancelled):
        grade_formula(step, "6Ψ + 12Ψ/N", Budget(cancelled=lambda: True))
    with pytest.raises(Cancelled):
        grade(QUESTION, "6Ψ + 12Ψ/N", cancelled=lambda: True)


def test_a_spent_budget_leaves_the_probes_to_decide():
    verdict = grade_formula(QUESTION.steps[0], "6Ψ + 12Ψ/N", Budget(seconds=-1))
    assert verdict.correct and "random points" in verdict.feedback["en"]


def test_the_parsed_formula_is_echoed_in_display_names_without_evaluating_it():
    assert grade(QUESTION, "6Ψ + 12Ψ/N").parsed["formula"] == "6·Ψ + 12·Ψ/N"
    assert grade(QUESTION, "(Ψ - N)/(N·(Ψ+1))^2").parsed["formula"] == "(Ψ - N)/(N·(Ψ + 1))^2"
    huge = grade(QUESTION, "((((((((((2)^8)^8)^8)^8)^8)^8)^8)^8)^8)^8")
    assert huge.parsed["formula"].startswith("2^8^8") or "^8" in huge.parsed["formula"]
