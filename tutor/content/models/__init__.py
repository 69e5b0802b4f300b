"""Typed, frozen models of the content files (DESIGN §6).

Lessons (`lessons/*.yaml`), questions (`questions/*.yaml`, a list per file) and labs
(`labs/NN-name/lab.yaml`) are loaded into these models; unknown keys are errors, and every
learner-facing text is a `Text` with both languages. Field docstrings are the reference for
authors (`docs/content-format.md` summarises them). One module per file kind, on a shared base.
"""

from tutor.content.models.base import LANGS, PLACEHOLDER, FormulaName, Ident, NonEmpty, Number, Text
from tutor.content.models.lab import DiagnosisItem, Lab
from tutor.content.models.lesson import Figure, Lesson, Scenario, Section
from tutor.content.models.question import (
    STEP_KINDS, Choice, ChoiceStep, ClarifyStep, ConfigStep, Derived, FormulaStep, Hinted, KeyPoint, Mistake,
    NumericAnswer, NumericStep, OpenStep, Question, Vary,
)

__all__ = [
    "LANGS", "PLACEHOLDER", "STEP_KINDS", "Choice", "ChoiceStep", "ClarifyStep", "ConfigStep", "Derived",
    "DiagnosisItem", "Figure", "FormulaName", "FormulaStep", "Hinted", "Ident", "KeyPoint", "Lab", "Lesson",
    "Mistake", "NonEmpty", "Number", "NumericAnswer", "NumericStep", "OpenStep", "Question", "Scenario",
    "Section", "Text", "Vary",
]
