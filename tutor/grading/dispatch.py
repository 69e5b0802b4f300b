"""One entry point for every step kind: `grade(question, answer, step_id, seed)` -> Verdict.

Graders never raise on learner text: whatever arrives (1 MB, control characters, code) comes
back as a Verdict. They do raise on broken *content* (an unknown formula, a variant that cannot
be computed), which `tutor validate` reports before a learner ever sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.grading.variant import Variant, draw, render
from tutor.grading.verdict import Verdict

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import Question


class StepNotFound(LookupError):
    """The question has no step with that id."""


def find_step(question: Question, step_id: str | None):
    """The step called `step_id`, or the first step when None."""
    if step_id is None:
        return question.steps[0]
    for step in question.steps:
        if step.id == step_id:
            return step
    raise StepNotFound(f"question {question.id} has no step {step_id!r}; its steps: "
                       f"{', '.join(step.id for step in question.steps)}")


def _exhibit_texts(question: Question, variant: Variant) -> tuple[str, ...]:
    """What a scenario shows beside its question (measurements, a trace summary, py-spy dumps and log
    lines), as text in both languages; () for a bank question. The words only: how the interview lays
    them out (`tutor.interview.present.exhibit_markdown`, a layer above) does not matter to a copy test."""
    exhibit = getattr(question, "exhibit", None)
    if exhibit is None:
        return ()
    values = variant.values
    stacks = [part for stack in exhibit.stacks for part in (stack.stack, stack.log or "")]
    return tuple("\n".join([render(exhibit.text.get(lang), values, lang) if exhibit.text is not None else "", *stacks])
                 for lang in ("en", "zh"))


def grade(question: Question, answer: object, step_id: str | None = None, seed: int = 0,
          self_assessment: str | None = None, cancelled=None) -> Verdict:
    """Grade `answer` to one step of one variant of `question`.

    `cancelled` (a no-argument callable, e.g. a Textual worker's `lambda: worker.is_cancelled`)
    lets a worker thread stop a formula grading early; `budget.Cancelled` is then raised."""
    step = find_step(question, step_id)
    text = answer if isinstance(answer, str) else ("" if answer is None else str(answer))
    if step.kind in ("open", "clarify"):
        from tutor.grading.rubric import grade_rubric

        templated = "{" in (step.prompt or question.prompt).en
        shown_variant = draw(question, seed) if templated or getattr(question, "exhibit", None) is not None else None
        shown = step_prompt(question, step, shown_variant) if templated and shown_variant is not None else \
            (step.prompt or question.prompt).model_dump()
        return grade_rubric(step, text, self_assessment, prompts=(shown["en"], shown["zh"]),
                            exhibits=_exhibit_texts(question, shown_variant) if shown_variant is not None else ())
    if step.kind == "choice":
        from tutor.grading.choice import grade_choice

        return grade_choice(step, text)
    if step.kind == "formula":
        from tutor.grading.budget import Budget
        from tutor.grading.formula import grade_formula

        return grade_formula(step, text, Budget(cancelled=cancelled))
    variant = draw(question, seed)
    if step.kind == "numeric":
        from tutor.grading.numeric import grade_numeric

        return grade_numeric(step, variant, text)
    if step.kind == "config":
        from tutor.grading.config import grade_config

        return grade_config(step, variant, text)
    raise TypeError(f"unknown step kind {step.kind!r}")


def expected_answer(question: Question, step, variant: Variant) -> object:
    """What `--reveal` shows for a step: numbers `{value, unit, tolerance, text}`, the formula,
    the configuration rules with an example layout, the right options, the model answer."""
    if step.kind == "numeric":
        from tutor.grading.numeric import expected_value

        return expected_value(step, variant).to_json()
    if step.kind == "formula":
        from tutor.grading.formula import expected_formula

        return expected_formula(step)
    if step.kind == "config":
        from tutor.grading.config_example import expected_config

        return expected_config(step, variant)
    if step.kind == "choice":
        return {"options": sorted(option.id for option in step.options if option.correct)}
    return {"model_answer": step.model_answer.model_dump(),
            "points": [{"id": point.id, "text": point.text.model_dump()} for point in step.points]}


def step_prompt(question: Question, step, variant: Variant) -> dict[str, str]:
    """The step's prompt in both languages with the variant's numbers filled in."""
    text = step.prompt or question.prompt
    return {lang: render(text.get(lang), variant.values, lang) for lang in ("en", "zh")}
