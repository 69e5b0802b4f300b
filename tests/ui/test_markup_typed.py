"""What the learner types is text, never markup: Textual markup in a border subtitle (the practice
search's `is:[/]` raised MarkupError) and Markdown where an answer is echoed (a mock report's
"Your answer" quote made `**b**` bold). Typed as a learner types it, at 80×24."""

from __future__ import annotations

import pytest
from textual.content import Content
from textual.widgets import Input, Markdown, OptionList
from textual.widgets._markdown import MarkdownBlock

from tests.ui.helpers import burst, settle
from tests.ui.mock_helpers import mock_app, open_mock, start
from tutor.interview.clock import ManualClock
from tutor.ui.app import TutorApp

TYPED = "[link=http://x]a[/link] [/] [bold]b **c**"


@pytest.fixture(autouse=True)
def _fresh_log():
    from tutor.ui import guard

    guard.reset_log()
    yield
    guard.reset_log()


def _nothing_caught(app) -> None:
    from tutor.ui.guard import log_path

    assert app.ui_errors == [] and app.is_running
    assert not log_path().exists() or log_path().read_text(encoding="utf-8") == ""


async def _type(pilot, typed: str) -> None:
    """Typed fast, as a paste comes (each key still its own event: `is:[/` is met on the way)."""
    burst(pilot.app, *typed)
    await settle(pilot)


def _shown(markdown: Markdown) -> str:
    """The pane's text as drawn (not its Markdown source): what the learner reads."""
    return "\n".join(str(block.render()) for block in markdown.query(MarkdownBlock))


@pytest.mark.timeout(60)
async def test_markup_typed_in_the_search_an_open_answer_and_the_playground(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("slash")
        listing = app.screen.query_one("#question-list", OptionList)
        for typed, said in ((f"is:[/] {TYPED}", "is:[/]?"), ("kind:[link=http://x]a[/link]",
                                                              "kind:[link=http://x]a[/link]?")):
            app.screen.query_one("#question-search", Input).value = ""
            await _type(pilot, typed)
            _nothing_caught(app)
            assert Content.from_markup(listing.border_subtitle).plain.startswith(said)
        app.screen.open_question("pitch-30-seconds")
        await settle(pilot)
        app.screen.query_one("#answer-text").focus()
        await _type(pilot, TYPED)
        await pilot.press("ctrl+s")
        await settle(pilot)
        _nothing_caught(app)
        assert _shown(app.screen.query_one("#verdict-text", Markdown))
        await pilot.press("escape", "g")
        await settle(pilot)
        gpus = app.screen.query_one("#field-gpus", Input)
        gpus.focus()
        await pilot.press("end", *["backspace"] * 4)
        await _type(pilot, TYPED)  # the box keeps what a count may hold: "kB" of it
        await settle(pilot)
        _nothing_caught(app)
        gpus.value = TYPED  # as a scenario's settings could put it there
        await settle(pilot)
        _nothing_caught(app)
        assert f"not a number: '{TYPED[:24]}" in str(app.screen.query_one("#memory-chart").render())


@pytest.mark.timeout(60)
async def test_markup_typed_in_a_mock_answer_is_quoted_literally_in_the_report(tutor_home, mock_content):
    app = mock_app(ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "pitch")
        screen.query_one("#answer-text").focus()
        for _ in range(2):  # the pitch and the follow-up it draws
            await _type(pilot, TYPED)
            await pilot.press("ctrl+s")
            await settle(pilot)
        _nothing_caught(app)
        assert screen.report is not None
        assert TYPED in _shown(screen.query_one("#mock-question", Markdown))
