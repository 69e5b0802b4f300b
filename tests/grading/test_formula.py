"""Formula steps: equivalent forms accepted, near misses rejected, hostile text refused."""

from __future__ import annotations

import pytest

from tutor.content.models.question import Question
from tutor.grading.dispatch import grade
from tutor.grading.formula_parse import FormulaError, parse_formula


def formula_question(name: str, mistakes: list | None = None) -> Question:
    return Question.model_validate({
        "id": "f", "title": {"en": "f", "zh": "f"}, "prompt": {"en": "f", "zh": "f"}, "section": "a/b",
        "tags": ["f"], "source": "test",
        "steps": [{"kind": "formula", "formula": name, "symbols": {"n": "n_shard"}, "mistakes": mistakes or []}]})


DISTOPT = formula_question("distopt_bytes", [
    {"id": "sixteen", "formula": "model_state_bytes", "feedback": {"en": "16Ψ is unsharded.", "zh": "16Ψ 没切。"}}])


@pytest.mark.parametrize("answer", [
    "6Ψ + 12Ψ/N", "6*Psi + 12*Psi/N", "6·Ψ + 12·Ψ/N", "6 Ψ + 12 Ψ ÷ N", "Ψ(6 + 12/N)", "psi*(6+12/n)",
    "(6N + 12)Ψ/N", "6*params + 12*params/n_shard", "M = 6Ψ + 12Ψ/N", "12Ψ/N + 6Ψ", "6Ψ + 12Ψ·N^-1",
    "(12Ψ + 6ΨN)/N", "3(2Ψ + 4Ψ/N)", "６Ψ＋１２Ψ／Ｎ",
])
def test_equivalent_forms_are_accepted(answer):
    verdict = grade(DISTOPT, answer)
    assert verdict.correct, verdict.feedback["en"]


@pytest.mark.parametrize(("answer", "mistake"), [
    ("6Ψ + 12/N", None),                        # Ψ missing from the sharded term
    ("6Ψ + 12Ψ/(N+1)", None),
    ("12Ψ + 24Ψ/N", "formula-constant-factor"),
    ("16Ψ", "sixteen"),
    ("6Ψ + 12Ψ/DP", "formula-symbols"),
    ("6Ψ + 12Ψ/N + 1e-12", "formula-near-miss"),
    ("6Ψ + 11.999999Ψ/N", None),
])
def test_near_misses_are_rejected(answer, mistake):
    verdict = grade(DISTOPT, answer)
    assert not verdict.correct
    if mistake is not None:
        assert verdict.mistake == mistake, verdict.feedback["en"]


def test_juxtaposed_symbols_split_into_a_product():
    question = formula_question("activation_per_layer_selective")  # 34·s·b·h / TP
    assert grade(question, "34sbh/t").correct
    assert grade(question, "34 s b h / TP").correct
    assert not grade(question, "34sbh").correct


def test_roots_and_greek_names():
    question = formula_question("young_interval_s")  # sqrt(2·δ·M)
    for answer in ("√(2δM)", "sqrt(2*delta*MTBF)", "(2 δ M)^0.5", "√2·√δ·√M"):
        assert grade(question, answer).correct, answer


def test_missing_symbol_is_named_in_both_languages():
    verdict = grade(DISTOPT, "18Ψ")
    assert "N" in verdict.feedback["en"] and "N" in verdict.feedback["zh"]


@pytest.mark.parametrize("text", [
    "__import__('os').system('echo pwned')", "().__class__.__bases__[0]", "lambda: 1", "exec('1')",
    "x.y", "a[0]", "1 if 1 else 2", "open('/etc/passwd')", "Ψ; import os", "'Ψ'", "[Ψ]", "{Ψ}",
    "Ψ == Ψ", "not Ψ", "Ψ and N", "2**(3**(4**5))", "(Ψ+N)**100", "9" * 40, "1e400 * Ψ", "((" * 150 + "Ψ" + "))" * 150,
    "sqrt(Ψ, N)", "foo(Ψ)", "Ψ % N", "Ψ // N", "√", "Ψ @ N",
])
def test_hostile_or_unsupported_text_is_refused(text):
    with pytest.raises(FormulaError):
        parse_formula(text, lambda name: {"Ψ": "params", "N": "n_shard", "x": "params", "a": "heads",
                                          "y": "hidden"}.get(name))
    verdict = grade(DISTOPT, text)
    assert not verdict.correct and verdict.parsed is None
    assert verdict.feedback["en"] and verdict.feedback["zh"]


def test_expected_formula_is_in_display_form():
    verdict = grade(DISTOPT, "6Ψ + 12Ψ/N")
    assert verdict.expected["formula"] == "6·Ψ + 12·Ψ/N"
    assert set(verdict.expected["symbols"]) == {"Ψ", "N"}
