"""Quitting and ending are deliberate (walkthrough M10, minor 13): q never fires from a text field;
with a mock in progress it asks; F9 asks; an interview ended in its first minute is not counted."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from tests.ui.helpers import settle
from tests.ui.mock_helpers import mock_app, open_mock, start
from tutor.interview.clock import ManualClock
from tutor.ui.app import TutorApp
from tutor.ui.widgets.confirm import ConfirmDialog


def _status(home) -> list[str]:
    from tutor.store import Store

    with Store(home / "tutor.sqlite3") as store:
        return [row["status"] for row in store.query("SELECT status FROM mock_sessions ORDER BY id")]


@pytest.mark.timeout(60)
async def test_q_in_a_text_field_is_a_letter(tutor_home, fixture_content):
    app = TutorApp()
    async with app.run_test(size=(110, 32)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("memory-total")
        await settle(pilot)
        await pilot.press(*"seq q")
        await settle(pilot)
        assert app.is_running and app.screen.query_one("#answer-line", Input).value == "seq q"


@pytest.mark.timeout(60)
async def test_q_with_nothing_in_progress_quits_at_once(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


@pytest.mark.timeout(90)
async def test_q_during_a_mock_asks_first(tutor_home, mock_content):
    app = mock_app(ManualClock())
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "design")
        assert screen.session is not None
        await pilot.press(*"seq q")  # typed into the answer: q is a letter there
        assert "seq q" in screen.query_one("#answer-text", TextArea).text and not isinstance(app.screen, ConfirmDialog)
        screen.query_one("#mock-formats").focus()
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog) and app.is_running
        await pilot.press("n")
        await settle(pilot)
        assert app.screen is screen and screen.session is not None and app.is_running
        await pilot.press("q")
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running
    assert _status(tutor_home) == ["running"]  # kept, to resume next time


@pytest.mark.timeout(60)
async def test_enter_on_the_mock_intro_starts_the_highlighted_format(tutor_home, mock_content):
    """Walkthrough M10: `m`, Tab moved focus from the format list to the intro pane, where Enter did
    nothing, so the answer typed next went out as hotkeys (its "q" quit the app)."""
    app = mock_app(ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_mock(pilot)
        await pilot.press("tab")
        assert app.focused is screen.query_one("#mock-pane")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.session is not None and screen.session.format.id == "pitch"  # the first, highlighted
        assert app.focused.id == "answer-text"  # what is typed next is the answer
        await pilot.press(*"seq q")
        assert app.is_running and "seq q" in screen.query_one("#answer-text", TextArea).text

@pytest.mark.timeout(90)
@pytest.mark.parametrize("minutes, status", [(0.5, "abandoned"), (5, "finished")])
async def test_end_interview_asks_and_a_first_minute_end_is_not_counted(tutor_home, mock_content, minutes, status):
    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "design")
        clock.advance(minutes * 60)
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.session is not None and _status(tutor_home) == ["running"]
        await pilot.press("f9")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert screen.session is None and screen.report is not None
    assert _status(tutor_home) == [status]
    from tutor.store import Store
    from tutor.store.progress import mock_summary

    with Store(tutor_home / "tutor.sqlite3") as store:
        trend = mock_summary(store)["by_format"]["design"]
    assert trend["finished"] == (status == "finished") and bool(trend["recent"]) == (status == "finished")


@pytest.mark.timeout(90)
async def test_two_keys_on_the_dialog_close_it_once(tutor_home, mock_content):
    """Found by the monkey test: n then Esc in one burst dismissed twice and popped the mock screen."""
    app = mock_app(ManualClock())
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "design")
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        dialog = app.screen
        dialog.action_answer(False)
        dialog.action_answer(False)
        await settle(pilot)
        assert app.screen is screen and screen.session is not None


@pytest.mark.timeout(60)
async def test_a_dialog_answered_when_it_is_not_on_top_pops_nothing(tutor_home):
    """The monkey (seed 1600 on Home) reached ConfirmDialog.action_answer while another mode's
    screen was current: its dismiss popped that mode's only screen (ScreenStackError). A dialog
    answers only from the top of the stack; it is answered when its screen is back."""
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        answers = []
        dialog = ConfirmDialog("Quit?", "Quit", "Stay")
        app.push_screen(dialog, answers.append)
        await settle(pilot)
        await app.switch_mode("practice")
        await settle(pilot)
        dialog.action_answer(False)
        await settle(pilot)
        assert app.ui_errors == [] and answers == [] and len(app.screen_stack) == 1
        await app.switch_mode("home")
        await settle(pilot)
        assert app.screen is dialog
        await pilot.press("n")
        await settle(pilot)
        assert answers == [False] and app.ui_errors == []
