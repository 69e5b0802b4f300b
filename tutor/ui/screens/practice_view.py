"""Text for the practice screen: the question as asked, and the verdict with its derivation.

Pure functions of the question, the variant and the verdict, so they are tested without a
terminal; the screen only places their Markdown.
"""

from __future__ import annotations

from tutor.ui import plain_markdown
from tutor.ui.strings import text


def question_markdown(question, step, variant, lang: str, step_index: int) -> str:
    from tutor.grading.dispatch import step_prompt
    from tutor.grading.variant import render

    parts = [f"## {question.title.get(lang)}", "", render(question.prompt.get(lang), variant.values, lang), ""]
    if len(question.steps) > 1:
        parts += [f"**{text('practice.step', lang, index=step_index + 1, total=len(question.steps))}** "
                  + step_prompt(question, step, variant)[lang], ""]
    from tutor.content import load
    from tutor.ui.screens.source_text import source_text

    # Where to read only: the authors' remarks in parentheses often hold the method or the answer
    # (issue 14 item 6); the whole reference comes with the answer (verdict_markdown).
    meta = [source_text(question.source, lang, load().lessons, remarks=False), ", ".join(question.tags)]
    if variant.seed:
        meta.append(text("practice.variant", lang, seed=variant.seed))
    parts.append(f"*{' · '.join(meta)}*")
    return "\n".join(parts)


def hints_markdown(step, shown: int, lang: str) -> str:
    if not shown:
        return ""
    lines = [f"{index + 1}. {hint.get(lang)}" for index, hint in enumerate(step.hints[:shown])]
    return f"**{text('practice.hints', lang)}**\n\n" + "\n".join(lines)


def verdict_markdown(question, step, verdict, variant, lang: str, reveal: bool) -> str:
    """Right or wrong, why, and — once revealed — the expected answer and the engine's derivation."""
    heading = text("practice.right" if verdict.correct else "practice.wrong", lang)
    if verdict.self_assessed:
        heading = text("practice.self_assessed", lang)
    elif not verdict.correct and 0 < verdict.score < 1:
        heading = text("practice.partly", lang, score=f"{verdict.score:.0%}")
    # The feedback is plain text that may quote the answer: shown as typed, one remark a line (L3).
    feedback = verdict.feedback.get(lang, "")
    if step.kind in ("open", "clarify"):  # the steps with a model answer; the rubric module loads the reader
        from tutor.grading.rubric import conceal, without_model_answer

        feedback = without_model_answer(feedback, step, lang)
        if not reveal:
            feedback = conceal(feedback, step, lang)
    parts = [f"### {heading}", "", plain_markdown.lines(feedback), ""]
    if reveal:
        parts += _expected(question, step, variant, lang)
        if step.explain is not None:
            parts += [f"**{text('practice.why', lang)}** {step.explain.get(lang)}", ""]
        parts += [f"*{text('practice.source', lang)} {_full_source(question, lang)}*", ""]
    else:
        parts += [f"*{text('practice.reveal_hint', lang)}*", ""]
    return "\n".join(parts)


def _expected(question, step, variant, lang: str) -> list[str]:
    from tutor.grading.dispatch import expected_answer

    expected = expected_answer(question, step, variant)
    if step.kind == "numeric":
        shown = expected["text"][lang] if isinstance(expected.get("text"), dict) else expected.get("value")
        lines = [f"**{text('practice.expected', lang)}** {shown}", ""]
        return lines + derivation_lines(step.answer.formula, _numeric_inputs(step, variant), lang)
    if step.kind == "formula":
        shown = expected.get("display") or expected.get("formula") if isinstance(expected, dict) else expected
        return [f"**{text('practice.expected', lang)}** `{shown}`", ""]
    if step.kind == "choice":
        return [f"**{text('practice.expected', lang)}** {', '.join(expected['options'])}", ""]
    if step.kind == "config":
        example = expected.get("example") if isinstance(expected, dict) else None
        return [f"**{text('practice.expected', lang)}** {_config_text(example)}", ""] if example else []
    points = "\n".join(f"- {point['text'][lang]}" for point in expected["points"])
    return [f"**{text('practice.model_answer', lang)}**", "", expected["model_answer"][lang], "",
            f"**{text('practice.rubric', lang)}**", "", points, ""]


def _full_source(question, lang: str) -> str:
    from tutor.content import load
    from tutor.ui.screens.source_text import source_text

    return plain_markdown.escape(source_text(question.source, lang, load().lessons))


def _numeric_inputs(step, variant) -> dict:
    from tutor.grading.variant import resolve

    return resolve(step.answer.inputs, variant.values)


def _config_text(example) -> str:
    if isinstance(example, dict):
        return " ".join(f"{key.upper()} {value}" for key, value in example.items() if value is not None)
    return str(example)


def derivation_lines(formula: str, inputs: dict, lang: str) -> list[str]:
    """The engine's step-by-step derivation of a figure, as Markdown lines."""
    from tutor.sizing import registry
    from tutor.sizing.engine import explain
    from tutor.sizing.errors import SizingError

    try:
        steps = explain(formula, inputs, lang)
    except SizingError:
        return []
    lines = [f"**{text('practice.derivation', lang)}**", ""]
    for step in steps:
        description = registry.get(step["id"]).text.get(lang) if step["id"] in registry.names() else ""
        lines.append(f"- {description}" if description else f"- {step['id']}")
        lines.append(f"  `{step['formula']}`  →  `{step['substituted']}`")
    return lines + [""]
