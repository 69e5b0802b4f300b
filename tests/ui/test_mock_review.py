"""The review flow in the app: Home's queue opens it (v); due items are answered, rated and rescheduled."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from textual.widgets import Input, Markdown, SelectionList, Static

from tests.ui.helpers import settle
from tutor.interview.review import Outcome, ReviewQueue, question_item
from tutor.store import Store
from tutor.ui.app import TutorApp


@pytest.mark.timeout(90)
async def test_home_opens_the_review_of_due_items(tutor_home, mock_content):
    earlier = datetime.now(timezone.utc) - timedelta(hours=2)
    with Store() as store:
        queue = ReviewQueue(store, fuzz=False, now=lambda: earlier)
        queue.record(question_item("memory-total"), Outcome(correct=False))
        queue.record(question_item("fixture-hang"), Outcome(correct=False))
    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        assert "Reviews due: 2 · press v to review" in str(app.screen.query_one("#today", Static).render())
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert "item 1 of 2 due" in str(screen.query_one("#review-status", Static).render())
        assert "mixed-precision Adam" in screen.query_one("#review-question", Markdown).source
        await pilot.press("f3")
        assert "Count weights" in screen.query_one("#review-hints", Markdown).source
        screen.query_one("#answer-line", Input).value = "1 GB"
        await pilot.press("enter")
        await settle(pilot)
        verdict = screen.query_one("#review-verdict", Markdown).source
        assert verdict.startswith("### ✗ Not right") and "This card comes back" in verdict
        await pilot.press("f6")
        await settle(pilot)
        assert "rank 0 · py-spy dump" in screen.query_one("#review-question", Markdown).source
        screen.query_one("#answer-choices", SelectionList).select("r0")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen.query_one("#review-verdict", Markdown).source.startswith("### ✓ Right")
        # the verdict in view, not left below the card's stack dumps (found in tmux at 120x36)
        pane, shown = screen.query_one("#review-pane"), screen.query_one("#review-verdict", Markdown)
        assert pane.max_scroll_y > 0
        assert pane.scroll_y <= shown.virtual_region.y < pane.scroll_y + pane.scrollable_content_region.height
        await pilot.press("f6")
        await settle(pilot)
        assert "Done: 2 reviewed" in str(screen.query_one("#review-status", Static).render())
        await pilot.press("escape")
        await settle(pilot)
        # back home, the queue is read again: both cards now fall due later (the wrong one within minutes)
        assert "Reviews due: 0" in str(app.screen.query_one("#today", Static).render())
    with Store() as store:
        # wrong after a hint: again; right within a third of the par time: easy
        assert [row["rating"] for row in store.query("SELECT rating FROM review_log ORDER BY id")][2:] == [1, 4]
