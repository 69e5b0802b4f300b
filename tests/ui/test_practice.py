"""Practice mode: answer a numeric question right and wrong, a choice question, hints, history."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Markdown, SelectionList

from tests.ui.helpers import settle
from tutor.store import Store, attempts
from tutor.ui.app import TutorApp


async def _open(pilot, app, question_id: str) -> None:
    await pilot.press("p")
    await settle(pilot)
    app.screen.open_question(question_id)
    await settle(pilot)


@pytest.mark.timeout(90)
async def test_numeric_answer_wrong_then_right_with_derivation(tutor_home, fixture_content):
    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await _open(pilot, app, "memory-total")
        question = app.screen.query_one("#question-text", Markdown).source
        assert "70B" in question or "70e9" in question or "70" in question
        app.screen.query_one("#answer-line", Input).value = "1 TB"
        await pilot.press("enter")
        await settle(pilot)
        verdict = app.screen.query_one("#verdict-text", Markdown).source
        assert verdict.startswith("### ✗ Not right")
        assert "1120" not in verdict  # not revealed after a wrong answer
        await pilot.press("f3")
        assert "Count weights, gradients" in app.screen.query_one("#hint-text", Markdown).source
        app.screen.query_one("#answer-line", Input).value = "1120 GB"
        await pilot.press("enter")
        await settle(pilot)
        verdict = app.screen.query_one("#verdict-text", Markdown).source
        assert verdict.startswith("### ✓ Right")
        assert "Derivation (sizing engine)" in verdict and "16·70e9" in verdict
        await pilot.press("f2")
        await settle(pilot)
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✓ 正确")
    with Store() as store:
        recorded = attempts(store, "memory-total")
        assert [(a.answer, a.correct, a.hints_used) for a in recorded] == [("1 TB", False, 0), ("1120 GB", True, 1)]
        assert store.query("SELECT item_id FROM review_cards")[0]["item_id"] == "q:memory-total"


@pytest.mark.timeout(90)
async def test_choice_question_by_keyboard(tutor_home, fixture_content):
    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await _open(pilot, app, "tp-where")
        choices = app.screen.query_one("#answer-choices", SelectionList)
        assert choices.has_focus
        await pilot.press("space")  # the first option is highlighted: select it
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✓ Right")
