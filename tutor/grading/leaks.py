"""Whether what the learner sees before answering gives the answer away (issue 14 item 6).

Checked for a variant: the question and step prompts, the reference line (`source`), the first
hint and the answer box's placeholder. A numeric step leaks when one of those texts states a
number, in the step's unit, within the step's tolerance of the expected value (`e.g. 39 GB` on
a 39.4 GB question); a formula step when a text holds an expression equivalent to the answer
(each `(...)`, `=`-side or comma-separated piece is graded as an answer); a config step when a
text holds a layout the grader passes (`e.g. TP=4 PP=4 CP=2 DP=2`).
"""

from __future__ import annotations

import re

from tutor.grading.variant import Variant, render

_NUMBER_UNIT = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*([A-Za-z%/]+(?:/s)?)")
_LAYOUT = re.compile(r"(?:\b(?:TP|PP|CP|DP|EP)\s*[=:]?\s*\d+[\s,;]*){2,}", re.IGNORECASE)
_PIECES = re.compile(r"[(),;=:，（）]|\be\.g\.|\bi\.e\.")


def texts_seen(question, step, variant: Variant, placeholders: dict[str, tuple[str, str]] | None = None) -> list[str]:
    """What the learner reads before answering this step, both languages."""
    seen = []
    for text in (question.prompt, step.prompt):
        if text is not None:
            seen += [render(text.get(lang), variant.values, lang) for lang in ("en", "zh")]
    seen.append(question.source)
    if step.hints:
        seen += [render(step.hints[0].get(lang), variant.values, lang) for lang in ("en", "zh")]
    for en, zh in (placeholders or {}).values():
        seen += [en, zh]
    return seen


def leaks(question, step, variant: Variant, placeholders: dict[str, tuple[str, str]] | None = None) -> list[str]:
    """The texts (shortened) that give this step's answer away; empty when none does."""
    from tutor.grading.dispatch import grade

    found = []
    for text in texts_seen(question, step, variant, placeholders):
        if step.kind == "numeric":
            from tutor.grading.mistakes import close
            from tutor.grading.numeric import expected_value

            expected = expected_value(step, variant)
            for number, unit in _NUMBER_UNIT.findall(text):
                if unit.casefold() != step.answer.unit.casefold():
                    continue
                value = float(number.replace(",", "")) * (expected.factor if expected.dimension != "any" else 1)
                if close(value, expected.base, expected.tolerance):
                    found.append(text[:120])
        elif step.kind == "formula":
            for piece in (p.strip() for p in _PIECES.split(text) if p.strip()):
                if len(piece) <= 60 and re.search(r"[+*/^·×√]", piece) and grade(question, piece, step.id, variant.seed).correct:
                    found.append(text[:120])
                    break
        elif step.kind == "config":
            for match in _LAYOUT.finditer(text):
                if grade(question, match.group(), step.id, variant.seed).correct:
                    found.append(text[:120])
    return found
