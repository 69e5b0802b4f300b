"""Typed, frozen models of the content files (DESIGN §6).

Lessons (`lessons/*.yaml`), questions (`questions/*.yaml`, a list per file), labs
(`labs/NN-name/lab.yaml`) and interview content (`interview/*.yaml`, a list per file) are loaded
into these models; unknown keys are errors, and every learner-facing text is a `Text` with both
languages. Field docstrings are the reference for authors (`docs/content-format.md` summarises
them). One module per file kind, on a shared base; each name is imported from its module, and
this package file imports nothing, so grading a question never builds the lesson and lab models
(pydantic model classes cost milliseconds each to create, and `tutor check` would pay for them):

    tutor.content.models.base: Text, LANGS, PLACEHOLDER, Ident, FormulaName, NonEmpty, Number
    tutor.content.models.question: Question, STEP_KINDS, NumericStep, FormulaStep, ConfigStep,
        ChoiceStep, OpenStep, ClarifyStep, Choice, KeyPoint, Mistake, NumericAnswer, Derived, Hinted, Vary
    tutor.content.models.lesson: Lesson, Section, Figure, Scenario
    tutor.content.models.lab: Lab, DiagnosisItem
    tutor.content.models.interview: InterviewScenario, Exhibit, RankStack, BankRef
"""
