"""Issue 14 item 6 / issue 16: the practice reference line above the answer box gave the method or
the answer away: `(6Ψ + 12Ψ/N, N = DP × CP)` over the formula box, `(shard over DP × CP = 4)` over
the choice, `(TP = PP = CP = 1, all GPUs to DP)` over the layout, `(ask dense or MoE, GPUs, tokens,
sequence length first)` over the clarify box. Before answering the line says where to read; the
whole line comes with the answer."""

from __future__ import annotations

import re

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade
from tutor.grading.variant import draw
from tutor.ui.screens.practice_view import question_markdown, verdict_markdown

LEAKS = {"distopt-per-gpu-formula": "12Ψ/N", "why-cp-in-shard": "DP × CP = 4",
         "config-small-model": "TP = PP = CP = 1", "clarify-gpu-count": "sequence length first",
         "bubble-formula": "(p − 1)/m", "young-formula": "√(2·δ·M)", "zero2-formula": "14Ψ/N"}


def _remarks(source: str) -> list[str]:
    return [remark for remark in re.findall(r"\(([^()]{4,})\)", source)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_reference_line_holds_its_remarks_before_the_answer(lang):
    questions = load().questions
    for question_id, leak in LEAKS.items():
        assert leak in questions[question_id].model.source, question_id  # the hostile case is real
    found = []
    for loaded in questions.values():
        question = loaded.model
        shown = question_markdown(question, question.steps[0], draw(question, 0), lang, 0).splitlines()[-1]
        assert shown.startswith("*"), shown
        shown = shown.split(" · ")[0]  # the reference, before the tags and the variant
        found += [f"{question.id}: {remark}" for remark in _remarks(question.source) if remark in shown]
        found += [f"{question.id}: {LEAKS[question.id]}" for _ in [0] if question.id in LEAKS
                  and LEAKS[question.id] in shown]
    assert not found, "\n".join(found[:20])


def test_the_whole_reference_comes_with_the_answer():
    question = load().questions["why-cp-in-shard"].model
    step = question.steps[0]
    verdict = grade(question, "a", None, 0)
    revealed = verdict_markdown(question, step, verdict, draw(question, 0), "en", reveal=True).replace("\\", "")
    assert "DP × CP = 4" in revealed and "Reference:" in revealed
    hidden = verdict_markdown(question, step, verdict, draw(question, 0), "en", reveal=False)
    assert "Reference:" not in hidden
