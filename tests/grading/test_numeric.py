"""Numeric steps (issue 4 Done-when): for every numeric step of every question in the bank, over
5 seeds, the revealed value is accepted, value × (1 ± tolerance/2) accepted, value × (1 + 3·tolerance)
rejected, and the same quantity in another unit accepted. Then the mistakes the grader names."""

from __future__ import annotations

import pytest

from tutor.content.loader import load_content
from tutor.content.models.question import NumericStep, Question
from tutor.grading.dispatch import expected_answer, grade
from tutor.grading.variant import draw
from tutor.paths import content_root

SEEDS = range(5)
BANK = load_content([content_root()])
NUMERIC = [(loaded.model, step) for loaded in BANK.questions.values() for step in loaded.model.steps
           if isinstance(step, NumericStep)]


def written(value: float, unit: str) -> str:
    """The value as a learner types it in `unit`."""
    number = f"{value:.6g}"
    return number if unit == "x" else (f"{number}%" if unit == "%" else f"{number} {unit}")


def other_unit(value: float, unit: str) -> str:
    """The same quantity in another unit: bytes for GB, hours for days, 万 for tokens/s, …"""
    if unit in ("KB", "MB", "GB", "TB", "PB"):
        scale = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}[unit]
        return f"{value * scale:.6e} bytes"
    if unit == "days":
        return f"{value * 24:.6g} hours"
    if unit == "h":
        return f"{value * 60:.6g} 分钟"
    if unit == "min":
        return f"{value * 60:.6g} s"
    if unit == "%":
        return f"{value / 100:.6g}"  # a fraction, read in the base unit
    if unit == "tokens/s":
        return f"{value / 1e4:.6g}万 tokens/s"
    if unit == "FLOPs":
        mantissa, exponent = f"{value:.6e}".split("e")
        return f"{mantissa}×10^{int(exponent)} FLOPs"
    if unit == "TFLOP/s":
        return f"{value / 1000:.6g} PFLOP/s"
    return f"{value / 1000:.6g}K"


@pytest.mark.parametrize(("question", "step"), NUMERIC, ids=[f"{q.id}/{s.id}" for q, s in NUMERIC])
def test_every_numeric_step_over_five_seeds(question: Question, step: NumericStep):
    assert NUMERIC, "the bank has numeric steps"
    for seed in SEEDS:
        answer = expected_answer(question, step, draw(question, seed))
        value, unit, tolerance = answer["value"], answer["unit"], answer["tolerance"]
        where = f"{question.id}/{step.id} seed {seed}: expected {value} {unit}"

        def verdict(text: str):
            return grade(question, text, step.id, seed)

        assert verdict(written(value, unit)).correct, where
        assert verdict(written(value * (1 + tolerance / 2), unit)).correct, where
        assert verdict(written(value * (1 - tolerance / 2), unit)).correct, where
        # outside the tolerance and outside any declared band (which earns partial credit)
        wrong = verdict(written(value * (1 + max(3 * tolerance, 1.5 * (step.answer.band or 0))), unit))
        assert not wrong.correct and wrong.score == 0, where
        assert verdict(other_unit(value, unit)).correct, f"{where}, written {other_unit(value, unit)!r}"


def test_seeds_are_reproducible_and_vary():
    question = BANK.questions["distopt-bytes-per-gpu"].model
    assert draw(question, 7).values == draw(question, 7).values
    assert draw(question, 0).values == dict(question.given)
    assert len({tuple(sorted(draw(question, seed).values.items())) for seed in range(1, 9)}) > 1


def _numeric(mistakes: str = "") -> Question:
    return Question.model_validate({
        "id": "t", "title": {"en": "t", "zh": "t"}, "prompt": {"en": "t", "zh": "t"}, "section": "a/b",
        "tags": ["t"], "source": "test", "given": {"params": "70B", "tp": 4, "pp": 4, "dp": 2, "cp": 2, "gpus": 64},
        "steps": [{"kind": "numeric", "mistakes": [{"id": m} for m in mistakes.split()],
                   "answer": {"formula": "distopt_bytes_per_gpu", "unit": "GB", "tolerance": 0.05,
                              "inputs": {"params": "params", "tp": "tp", "pp": "pp", "dp": "dp", "cp": "cp"}}}]})


@pytest.mark.parametrize(("answer", "mistake", "says"), [
    ("52.5 GB", "forgot-cp-in-shard", "DP × CP"),                  # (6 + 12/2) × 4.375B
    ("70 GB", "sixteen-bytes", "16 bytes per parameter"),          # 16 × 4.375B
    ("36.67", "gib-for-gb", "GiB"),                                # 39.375 GB written in GiB, labelled GB
    ("157.5 GB", "factor-tp", "TP or PP"),                         # × 4
    ("630 GB", "total-not-per-gpu", "TP × PP"),                    # × 16
    ("2520 GB", "total-not-per-gpu", "all 64 GPUs"),               # × 64
    ("39.375 MB", "prefix-slip", "10^-3"),
])
def test_mistakes_are_named(answer, mistake, says):
    verdict = grade(_numeric("forgot-cp-in-shard sixteen-bytes"), answer)
    assert not verdict.correct
    assert verdict.mistake == mistake
    assert says in verdict.feedback["en"] and verdict.feedback["zh"]


def test_right_answer_in_gib_is_accepted_with_a_note():
    verdict = grade(_numeric(), "36.67 GiB")
    assert verdict.correct
    assert "GiB" in verdict.feedback["en"] and "7%" in verdict.feedback["en"]


def test_ep_that_does_not_multiply_is_named():
    question = BANK.questions["moe-dp-with-ep"].model
    values = draw(question, 0).values
    expected = expected_answer(question, question.steps[0], draw(question, 0))["value"]
    verdict = grade(question, str(expected / values["ep"]))
    assert verdict.mistake == "factor-ep" and "EP" in verdict.feedback["en"]


def test_unreadable_answer_is_not_an_attempt():
    verdict = grade(_numeric(), "about forty gigabytes")
    assert not verdict.correct and verdict.parsed is None and not verdict.readable
    assert "number" in verdict.feedback["en"]


def test_verdict_json_shape_and_hidden_expected():
    verdict = grade(_numeric(), "≈39 GB")
    shown = verdict.to_json()
    assert {"correct", "score", "parsed", "expected", "feedback"} <= set(shown)
    assert shown["parsed"]["approx"] and shown["parsed"]["value"] == 39
    assert shown["expected"]["value"] == pytest.approx(39.375)
    assert verdict.to_json(reveal=False)["expected"] is None
    assert set(shown["feedback"]) == {"en", "zh"}
