"""Typed, frozen models of the content files (DESIGN §6).

Lessons (`lessons/*.yaml`), questions (`questions/*.yaml`, a list per file), labs
(`labs/NN-name/lab.yaml`) and interview content (`interview/*.yaml`, a list per file) are loaded into these models; unknown keys are errors, and every
learner-facing text is a `Text` with both languages. Field docstrings are the reference for
authors (`docs/content-format.md` summarises them). One module per file kind, on a shared base.
"""

from importlib import import_module

# Each name from its module, imported on first use: grading a question never builds the lesson and
# lab models (pydantic model classes cost milliseconds each to create, `tutor check` pays for them).
_MODULES = {
    "base": ("LANGS", "PLACEHOLDER", "FormulaName", "Ident", "NonEmpty", "Number", "Text"),
    "interview": ("BankRef", "Exhibit", "InterviewScenario", "RankStack"),
    "lab": ("DiagnosisItem", "Lab"),
    "lesson": ("Figure", "Lesson", "Scenario", "Section"),
    "question": ("STEP_KINDS", "Choice", "ChoiceStep", "ClarifyStep", "ConfigStep", "Derived", "FormulaStep",
                 "Hinted", "KeyPoint", "Mistake", "NumericAnswer", "NumericStep", "OpenStep", "Question", "Vary"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'tutor.content.models' has no attribute {name!r}")
    value = getattr(import_module(f"tutor.content.models.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "LANGS", "PLACEHOLDER", "STEP_KINDS", "BankRef", "Choice", "ChoiceStep", "ClarifyStep", "ConfigStep", "Derived",
    "DiagnosisItem", "Exhibit", "Figure", "FormulaName", "FormulaStep", "Hinted", "Ident", "InterviewScenario",
    "KeyPoint", "Lab", "Lesson", "RankStack",
    "Mistake", "NonEmpty", "Number", "NumericAnswer", "NumericStep", "OpenStep", "Question", "Scenario",
    "Section", "Text", "Vary",
]
