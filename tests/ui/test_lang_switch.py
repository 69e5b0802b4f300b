"""Issue 16, item 4: after F2 the feedback already on screen is redrawn in the new language; it
stayed in the language it was given in (a lab's diagnosis verdict, the mock's hints and the report's
key line). Failed before the fix: the verdict kept "Which ranks are not where …", the hints "Hints"."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input, Markdown

from tests.ui.helpers import open_labs, settle
from tests.ui.mock_helpers import mock_app, open_mock, start
from tests.ui.test_snapshots_labs import EVIDENCE
from tutor.interview.clock import ManualClock
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
async def test_a_lab_diagnosis_verdict_is_redrawn_in_the_new_language(lab_content, tutor_home):
    app = TutorApp()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_labs(pilot)
        screen.evidence = EVIDENCE  # a hang as a run leaves it, without running one
        field = screen.query_one("#lab-answer", Input)
        field.focus()
        field.value = "rank 1 waits in broadcast"
        await pilot.press("enter")
        await settle(pilot)
        english = screen.query_one("#lab-verdict", Markdown).source
        assert english.startswith("### ✗ Not right") and "Which ranks are not where the others are" in english
        await pilot.press("f2")
        await settle(pilot)
        chinese = screen.query_one("#lab-verdict", Markdown).source
        assert chinese.startswith("### ✗ 不对") and "哪些 rank 和其他 rank 不在同一处" in chinese
        assert "Which ranks" not in chinese and "the others" not in chinese
        score = re.compile(r"\d+%")
        assert score.search(chinese).group() == score.search(english).group()  # the same score


@pytest.mark.timeout(60)
async def test_mock_lesson_aside_is_redrawn_in_the_new_language(tutor_home, mock_content):
    app = mock_app(ManualClock())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "design", practice=True)
        await pilot.press("f5")  # the stage's lesson section (practice mode)
        await settle(pilot)
        english = screen.query_one("#mock-hints", Markdown).source
        assert english.startswith("**A small design**")
        await pilot.press("f2")
        await settle(pilot)
        chinese = screen.query_one("#mock-hints", Markdown).source
        assert chinese and chinese != english and "A small design" not in chinese
