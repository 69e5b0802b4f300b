"""Driving the mock and review screens in Pilot tests: an app on a frozen clock, answers typed per kind."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from textual.widgets import Input, SelectionList, TextArea

import tutor.ui.app
from tests.interview.helpers import right_answer
from tests.ui.helpers import settle
from tutor.ui.app import TutorApp
from tutor.ui.screens.mock import MockScreen

APP_CSS = Path(tutor.ui.app.__file__).with_name("app.tcss")


def mock_app(clock, lang: str = "en") -> TutorApp:
    """The app with its mock mode on `clock` (a ManualClock), so the timer only moves when told."""

    class MockClockApp(TutorApp):
        CSS_PATH = str(APP_CSS)  # a subclass would look for its CSS beside this file
        MODES = {**TutorApp.MODES, "mock": partial(MockScreen, clock=clock)}

    return MockClockApp(lang=lang)


async def open_mock(pilot) -> MockScreen:
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)
    return pilot.app.screen


async def start(pilot, screen: MockScreen, format_id: str, practice: bool = False) -> None:
    from tutor.interview.formats import FORMATS

    if practice and screen.mode != "practice":
        await pilot.press("f4")
    screen.query_one("#mock-formats").highlighted = list(FORMATS).index(format_id)
    screen.query_one("#mock-formats").focus()
    await pilot.press("enter")
    await settle(pilot)


def type_answer(screen, text: str) -> None:
    """Put `text` in the input the current step shows (choices: the option ids, comma-separated)."""
    kind = screen.session.step().kind
    if kind in ("numeric", "formula"):
        screen.query_one("#answer-line", Input).value = text
    elif kind == "choice":
        choices = screen.query_one("#answer-choices", SelectionList)
        choices.deselect_all()
        for option_id in [part.strip() for part in text.split(",") if part.strip()]:
            choices.select(option_id)
    else:
        screen.query_one("#answer-text", TextArea).text = text


async def answer(pilot, screen, text: str | None = None) -> None:
    """Answer the current stage (`None`: the right answer) and wait for the grade."""
    type_answer(screen, right_answer(screen.session) if text is None else text)
    await pilot.press("ctrl+s")
    await settle(pilot)
