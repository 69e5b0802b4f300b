"""Each typical numeric mistake of issue 14 item 3 is named by the engine, and no variant lets a
declared mistake pass. The wrong values are computed from the engine's expected value, never typed."""

from __future__ import annotations

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade, find_step
from tutor.grading.variant import draw
from tutor.grading.mistakes import declared_value
from tutor.grading.numeric import expected_value


def _question(qid):
    return load().questions[qid].model


def _wrong(qid, step_id, seed, transform, unit):
    question = _question(qid)
    step = find_step(question, step_id)
    expected = expected_value(step, draw(question, seed))
    value = transform(expected.base, expected.inputs, draw(question, seed).values) / expected.factor
    return grade(question, f"{value:.4g} {unit}", step_id, seed)


CASES = [
    # (question, step, transform of the expected base value, unit written, mistake named)
    ("training-days", None, lambda v, i, q: v * 8 / 6, "days", "eight-nd"),
    ("train-hours-small-run", None, lambda v, i, q: v / 24, "h", "time-unit-slip"),  # the days number, written as h
    ("grad-allreduce-bytes", None, lambda v, i, q: v / (2 * (i["dp"] - 1) / i["dp"]), "GB", "no-ring-factor"),
    ("gpt3-by-hand", "bubble", lambda v, i, q: (i["pp"] - 1) / (i["microbatches"] + i["pp"] - 1), "%",
     "wallclock-bubble"),
    ("gpt3-by-hand", "state", lambda v, i, q: 2 * i["params"], "TB", "weights-only"),
    ("achieved-tflops-per-gpu", None, lambda v, i, q: v * q["gpus"], "TFLOP/s", "total-not-per-gpu"),
    ("distopt-bytes-per-gpu", None, lambda v, i, q: v / (2**30 / 1e9), "GB", "gib-for-gb"),
]


@pytest.mark.parametrize("qid, step, transform, unit, mistake", CASES, ids=[case[-1] for case in CASES])
def test_mistake_is_named(qid, step, transform, unit, mistake):
    question = _question(qid)
    step_obj = find_step(question, step)
    expected = expected_value(step_obj, draw(question, 0))
    # the unit the value is written in must be the display unit for the transform to be in it
    assert unit == step_obj.answer.unit or (mistake == "time-unit-slip" and step_obj.answer.unit == "h")
    verdict = _wrong(qid, step, 0, transform, unit)
    assert not verdict.correct and verdict.mistake == mistake, verdict.feedback["en"]
    assert expected.base > 0


def test_dp_instead_of_dp_times_cp_is_named_on_every_variant_with_cp():
    """N = DP instead of DP × CP: named on every variant where CP > 1, never graded right."""
    question = _question("distopt-bytes-per-gpu")
    step = question.steps[0]
    mistake = next(m for m in step.mistakes if m.id == "forgot-cp-in-shard")
    checked = 0
    for seed in range(40):
        variant = draw(question, seed)
        expected = expected_value(step, variant)
        wrong = declared_value(step, mistake, expected.inputs) / expected.factor
        verdict = grade(question, f"{wrong:.4g} GB", None, seed)
        assert not verdict.correct, (seed, variant.values)
        assert verdict.mistake == "forgot-cp-in-shard", (seed, verdict.feedback["en"])
        checked += 1
    assert checked == 40


def test_no_variant_lets_a_declared_mistake_pass():
    """Variants are drawn so every declared mistake lands outside the tolerance (seeds 0-20)."""
    for loaded in load().questions.values():
        question = loaded.model
        for step in question.steps:
            if step.kind != "numeric" or not step.mistakes:
                continue
            for seed in range(21):
                variant = draw(question, seed)
                expected = expected_value(step, variant)
                for mistake in step.mistakes:
                    try:
                        wrong = declared_value(step, mistake, expected.inputs)
                    except Exception:
                        continue
                    shown = wrong / expected.factor if expected.dimension != "any" else wrong
                    unit = "" if step.answer.unit in ("x", "params") else " " + step.answer.unit
                    verdict = grade(question, f"{shown:.6g}{unit}", step.id, seed)
                    assert not verdict.correct, (question.id, step.id, mistake.id, seed)
