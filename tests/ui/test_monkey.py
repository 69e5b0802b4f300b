"""The monkey test: ≥ 20,000 seeded random events over every screen and tab, failing on any error
the app has to catch or cannot survive (walkthrough item 2). One test per screen, so xdist can
spread them; each event count is fixed and each test is bounded by its timeout."""

from __future__ import annotations

import pytest

from tests.ui.monkey import run_monkey
from tutor.ui.app import TutorApp

EVENTS = int(__import__("os").environ.get("TUTOR_MONKEY_EVENTS", "2600"))  # × 8 screens = 20,800
SCREENS = ["home", "lessons", "practice", "playground", "labs", "mock", "progress", "review"]


@pytest.fixture(autouse=True)
def _few_frames(monkeypatch):
    """Draw 4 frames a second instead of 60: every event is still handled and every screen still
    drawn, but the frames (most of the cost under load) no longer scale with the events."""
    import textual.screen

    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 0.25)


@pytest.mark.timeout(600)  # ~30 s per screen on two idle cores; far more on a loaded machine
@pytest.mark.parametrize("mode", SCREENS)
async def test_random_keys_and_text_never_raise(mode):
    make_screen = None
    target = mode
    if mode == "review":
        from tutor.ui.screens.review import ReviewScreen

        make_screen, target = ReviewScreen, "home"
    # A lab run starts real processes: F5/F6 are covered by the Labs tests, not by the monkey.
    exclude = frozenset({"f5", "f6"}) if mode == "labs" else frozenset()
    app = TutorApp(lang="zh" if SCREENS.index(mode) % 2 else "en")
    async with app.run_test(size=(80, 24) if SCREENS.index(mode) % 2 else (120, 36)) as pilot:
        monkey = await run_monkey(pilot, target, seed=1600 + SCREENS.index(mode), events_wanted=EVENTS,
                                  make_screen=make_screen, exclude=exclude)
    assert monkey.sent >= EVENTS
