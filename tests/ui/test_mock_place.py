"""Mock practice mode keeps its place (walkthrough minor 18): the verdict comes into view where the
answer was given, and the next stage opens at its top, not at the end of the last stage's dumps."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll

from tests.ui.helpers import settle
from tests.ui.mock_helpers import answer, mock_app, open_mock, start
from tutor.interview.clock import ManualClock


def _in_view(pane: VerticalScroll, widget) -> bool:
    region, visible = widget.region, pane.region
    return region.height > 0 and region.y < visible.bottom and region.bottom > visible.y


@pytest.mark.timeout(90)
@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_the_hang_stages_verdict_is_in_view_and_the_next_stage_starts_at_its_top(tutor_home, mock_content, size):
    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=size) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "hang", practice=True)
        pane = screen.query_one("#mock-pane", VerticalScroll)
        assert pane.max_scroll_y > 0  # the stack dumps are longer than the pane
        await answer(pilot, screen)
        await settle(pilot)
        assert _in_view(pane, screen.query_one("#mock-verdict")), (pane.scroll_y, pane.max_scroll_y)
        await pilot.press("f6")  # next stage
        await settle(pilot)
        assert screen.session.current.step_id == "why"
        assert pane.scroll_y == 0 and _in_view(pane, screen.query_one("#mock-question"))
        assert app.ui_errors == []


@pytest.mark.timeout(90)
async def test_the_report_table_keeps_its_stage_numbers_at_80_columns(tutor_home, mock_content):
    """Minor 19: the mock report's # column was empty at 80x24."""
    from textual.widgets import Markdown

    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "pitch")
        clock.advance(20)
        await answer(pilot, screen, "GPUs are fast")
        await answer(pilot, screen)
        report = screen.query_one("#mock-question", Markdown).source
        assert report.startswith("# Mock interview") and "- **1** — " in report and "| 1 |" not in report
