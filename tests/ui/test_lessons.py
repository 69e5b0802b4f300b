"""Lessons mode: contents, section text, next/previous, reading progress, language switch."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from tests.ui.helpers import settle
from tutor.store import Store
from tutor.store.records import sections_read
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
async def test_read_two_sections_switch_language_and_remember_progress(tutor_home, fixture_content):
    app = TutorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l")
        await settle(pilot)
        reader = app.screen.query_one("#section-text", Markdown)
        assert reader.source.startswith("## Memory first")
        assert "16 bytes per parameter" in reader.source
        await pilot.press("n")
        await settle(pilot)
        assert reader.source.startswith("## Placing the dimensions")
        await pilot.press("f2")
        await settle(pilot)
        assert reader.source.startswith("## 各维度放在哪里")
        await pilot.press("b")
        await settle(pilot)
        assert "每个参数占 16 字节" in reader.source
    with Store() as store:
        assert set(sections_read(store)) == {("basics", "memory"), ("basics", "placement")}


@pytest.mark.timeout(60)
async def test_p_jumps_to_this_sections_questions(tutor_home, fixture_content):
    from textual.widgets import OptionList

    app = TutorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert app.current_mode == "practice"
        listing = app.screen.query_one("#question-list", OptionList)
        assert [listing.get_option_at_index(i).id for i in range(listing.option_count)] == ["memory-total"]
