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
        assert sections.option_count == 7  # the six sections and Review
        assert "Lessons" in str(sections.get_option_at_index(0).prompt)
        assert "1 lessons · 2 questions · 1 labs" in str(app.screen.query_one("#today", Static).render())
        await pilot.press("f2")
        assert app.lang == "zh"
        assert "课程" in str(sections.get_option_at_index(0).prompt)
        await pilot.press("f2")
        assert app.lang == "en"
        await pilot.press("q")
    assert app.return_code == 0


def test_every_home_section_opens_a_screen():
    """Home lists only what the app can open: each section is a registered mode."""
    from tutor.ui.strings import SECTIONS

    assert {section["id"] for section in SECTIONS} <= set(TutorApp.MODES)


@pytest.mark.timeout(60)
async def test_damaged_history_is_reported_on_home_not_a_crash(tutor_home, fixture_content):
    (tutor_home / "tutor.sqlite3").write_bytes(b"garbage" * 500)
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        today = str(app.screen.query_one("#today", Static).render())
        assert "History unavailable" in today


@pytest.mark.timeout(60)
async def test_progress_mode_shows_mastery_by_section_title(tutor_home, fixture_content):
    from textual.widgets import DataTable

    from tutor.store import Attempt, Store, record_attempt

    with Store() as store:
        record_attempt(store, Attempt("memory-total", "1120 GB", True, 1.0))
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await settle(pilot)
        table = app.screen.query_one("#by-section", DataTable)
        rows = [table.get_row_at(index) for index in range(table.row_count)]
        assert [row[0] for row in rows] == ["Memory first", "Placing the dimensions"]
        assert [row[2] for row in rows] == ["100%", "0%"]
        await pilot.press("escape")
        assert app.current_mode == "home"


@pytest.mark.timeout(60)
async def test_palette_reaches_every_section_and_the_screens_own_keys(fixture_content):
    app = TutorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for expected in ("Open Lessons", "Open Practice", "Open Progress", "Switch language (English / 中文)",
                         "Color ranks by", "Schedule", "Home", "Theme", "Keys"):
            assert expected in titles
        assert "Scroll Up" not in titles


@pytest.mark.timeout(60)
async def test_language_and_theme_are_remembered(tutor_home, fixture_content):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        app.theme = "gruvbox"
        await pilot.pause()
    again = TutorApp()
    assert again.lang == "zh" and again.theme == "gruvbox"
    assert TutorApp(lang="en").lang == "en"


@pytest.mark.timeout(60)
async def test_progress_shows_reviews_and_the_mock_trend(tutor_home, fixture_content):
    from tutor.store import Store
    from tutor.store.db import utc_now

    with Store() as store, store.transaction() as connection:
        for score in (0.4, 0.7):
            connection.execute("INSERT INTO mock_sessions (format, mode, status, started_at, ended_at, score)"
                               " VALUES ('pitch', 'strict', 'finished', ?, ?, ?)", (utc_now(), utc_now(), score))
    app = TutorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("r")
        await settle(pilot)
        shown = str(app.screen.query_one("#progress-practice", Static).render())
        assert "Reviews: 0 cards" in shown
        assert "Mock pitch:" in shown and "last 70%, best 70% (2 finished)" in shown


def _lines(widget) -> list[str]:
    from textual.geometry import Region

    return [strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))]


@pytest.mark.timeout(60)
async def test_review_has_a_row_among_the_sections(fixture_content):
    """Walkthrough polish 15: Review had no row on Home, only the v key and a "press v" hint."""
    from tutor.ui.screens.review import ReviewScreen

    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        sections = app.screen.query_one("#sections", OptionList)
        rows = [sections.get_option_at_index(index) for index in range(sections.option_count)]
        review = next(index for index, row in enumerate(rows) if row.id == "review")
        assert " v " in str(rows[review].prompt) and "Review" in str(rows[review].prompt)
        assert sections.region.bottom <= app.screen.query_one("#home-hint").region.y  # all rows in view
        sections.focus()
        sections.highlighted = review
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen) and app.ui_errors == []


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_hint_breaks_between_phrases_and_news_lines_hang_under_their_text(fixture_content, lang, size):
    """Walkthrough polish 8 and 15: at 120 columns the hint broke inside "F1: keys" ("F1:" / "keys");
    What's new wrapped under its bullets ("• Labs: real" / "torch.distributed jobs …")."""
    app = TutorApp(lang=lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        hint = [line.strip() for line in _lines(app.screen.query_one("#home-hint")) if line.strip()]
        assert all(not line.endswith(("F1:", "F1：", "F2:", "F2：", "ctrl+p:", "ctrl+p：")) for line in hint), hint
        assert hint[-1].endswith(("中文", "English")), hint
        news = [line.rstrip("│ ") for line in _lines(app.screen.query_one("#news"))
                if line.strip() and not line.startswith(("╭", "╰"))]
        text_at = news[0].index("•") + 2  # where an entry's text starts, after "• "
        continued = [line for line in news if "•" not in line]
        assert continued and all(len(line) - len(line.lstrip(" │")) == text_at for line in continued), news
