"""A screen's worker that finishes after the learner left the screen must not touch it.

Found by the monkey in CI (seed 1600, home): v opened Review, Esc closed it while its queue was
still loading, and the load's callback, already queued on the app's loop, ran after the screen
was removed: it queried `#review-status` on a screen without children (NoMatches, reported as
an error). The test makes that order certain: every call from a worker thread first closes the
screen and waits until it is gone.
"""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


def _screen_goes_first(monkeypatch, screen_type) -> list:
    """Patch call_from_thread: before the callback runs, pop a `screen_type` on top and wait for
    its removal. Returns the screens removed so."""
    removed: list = []
    original = App.call_from_thread

    async def after_removal(app, callback):
        screen = app.screen
        if isinstance(screen, screen_type):
            app.pop_screen()
            for _ in range(200):
                if not screen.is_attached:
                    break
                await asyncio.sleep(0.01)
            removed.append(screen)
        return callback()

    def call(app, callback, *args, **kwargs):
        return original(app, after_removal, app, lambda: callback(*args, **kwargs))

    monkeypatch.setattr(App, "call_from_thread", call)
    return removed


@pytest.mark.timeout(60)
async def test_review_closed_while_its_queue_loads(fixture_content, monkeypatch):
    from tutor.ui.screens.review import ReviewScreen

    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        removed = _screen_goes_first(monkeypatch, ReviewScreen)
        await pilot.press("v")
        await settle(pilot)
        assert removed and not removed[0].is_attached
        assert not isinstance(app.screen, ReviewScreen)
        assert app.ui_errors == []
