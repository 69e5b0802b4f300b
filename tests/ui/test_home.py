"""The home screen mounts, shows the sections, switches language, and quits cleanly."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
async def test_home_mounts_switches_language_and_quits(fixture_content):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        sections = app.screen.query_one("#sections", OptionList)
        assert sections.option_count == 6
        assert "Lessons" in str(sections.get_option_at_index(0).prompt)
        assert "1 lessons · 2 questions · 1 labs" in str(app.screen.query_one("#today", Static).render())
        await pilot.press("f2")
        assert app.lang == "zh"
        assert "课程" in str(sections.get_option_at_index(0).prompt)
        await pilot.press("f2")
        assert app.lang == "en"
        await pilot.press("q")
    assert app.return_code == 0


@pytest.mark.timeout(60)
async def test_section_without_a_screen_yet_says_how_to_use_the_cli(fixture_content):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        assert any("tutor lessons" in str(note.message) for note in app._notifications)


@pytest.mark.timeout(60)
async def test_damaged_history_is_reported_on_home_not_a_crash(tutor_home, fixture_content):
    (tutor_home / "tutor.sqlite3").write_bytes(b"garbage" * 500)
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        today = str(app.screen.query_one("#today", Static).render())
        assert "History unavailable" in today
