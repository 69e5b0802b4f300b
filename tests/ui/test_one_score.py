"""Issue 16 (lead's walk): a partly right answer read "◐ 部分正确（41%）" over "要点得分 22%": two numbers
called the score of one answer. The score is the partial credit (what the report, the trend and the
heading record); the share of the rubric's weight is shown as the points stated, never as a score."""

from __future__ import annotations

import re

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade
from tutor.grading.variant import draw
from tutor.ui.screens.practice_view import verdict_markdown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_partly_right_answer_shows_one_score(lang):
    loaded = load().questions["pitch-30-seconds"]
    question = loaded.model
    step = question.steps[0]
    verdict = grade(question, step.points[0].text.en, None, 0)
    assert 0 < verdict.score < 1 and not verdict.correct
    shown = verdict_markdown(question, step, verdict, draw(question, 0),
                             lang, reveal=False).replace("\\", "")  # the feedback is Markdown-escaped
    scores = re.findall(r"(?:得分|[Ss]core|部分正确（|Partly right \()\s*(\d+)%", shown)
    assert scores and set(scores) == {f"{verdict.score * 100:.0f}"}, shown
    stated = sum(point.id in verdict.details["covered"] for point in step.points)
    assert (f"{stated}/{len(step.points)}" if lang == "zh" else f"{stated} of {len(step.points)}") in shown, shown
