"""Answer checking (DESIGN §5–6): quantities, graders by step kind, verdicts.

Public API (docs/grading.md):

    from tutor.grading import grade, draw, expected_answer, Verdict
    variant = draw(question, seed)                     # seed 0 = `given`; others draw `vary`
    verdict = grade(question, "≈39 GB", step_id=None, seed=0)   # never raises on learner text
    verdict.correct, verdict.score, verdict.feedback["zh"], verdict.to_json()
    expected_answer(question, step, variant)           # what --reveal shows
    combine(question, {step_id: (correct, score)})     # a design question's partial credit
    parse_quantity(text, unit, dimension, factor)      # `54万 tokens/s` -> readings in base units

Attributes load on first use, so importing this package stays cheap for the CLI.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the same names, eagerly, for type checkers and editors (never at run time)
    from tutor.grading.dispatch import (
        grade as grade, expected_answer as expected_answer, find_step as find_step,
        step_prompt as step_prompt, StepNotFound as StepNotFound,
    )
    from tutor.grading.variant import draw as draw, Variant as Variant, VariantError as VariantError
    from tutor.grading.verdict import Verdict as Verdict, Message as Message
    from tutor.grading.design import combine as combine, next_step as next_step
    from tutor.grading.quantity import parse_quantity as parse_quantity, QuantityError as QuantityError
    from tutor.grading.rubric import grade_rubric as grade_rubric, covers as covers

_EXPORTS = {
    "grade": "tutor.grading.dispatch", "expected_answer": "tutor.grading.dispatch", "find_step": "tutor.grading.dispatch",
    "step_prompt": "tutor.grading.dispatch", "StepNotFound": "tutor.grading.dispatch",
    "draw": "tutor.grading.variant", "Variant": "tutor.grading.variant", "VariantError": "tutor.grading.variant",
    "Verdict": "tutor.grading.verdict", "Message": "tutor.grading.verdict",
    "combine": "tutor.grading.design", "next_step": "tutor.grading.design",
    "parse_quantity": "tutor.grading.quantity", "QuantityError": "tutor.grading.quantity",
    "grade_rubric": "tutor.grading.rubric", "covers": "tutor.grading.rubric",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str) -> object:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'tutor.grading' has no attribute {name!r}")
    value = getattr(import_module(module_name), name)
    globals()[name] = value
    return value
