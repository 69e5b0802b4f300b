"""Progress agrees with Practice (walkthrough minor 14, issue 16 item 8): a question answered right
once counts as solved in both, beside the mastery of its latest attempt; passed labs are counted."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
async def test_solved_questions_and_passed_labs_are_counted(tutor_home):
    from tutor.content import load
    from tutor.labs.history import record
    from tutor.store import Attempt, Store, record_attempt

    question = load().questions["grad-accumulation-memory"].model
    with Store() as store:
        record_attempt(store, Attempt(question.id, "right", True, 1.0, step_id="main", seed=0))
        record_attempt(store, Attempt(question.id, "wrong", False, 0.0, step_id="main", seed=0))
    record("tp-mlp", "check", "ok", passed=True)
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("r")
        await settle(pilot)
        totals = str(app.screen.query_one("#progress-totals", Static).content)
        from tutor.labs.catalog import all_labs

        assert "questions solved, 1 tried" in totals and f"1/{len(all_labs())} labs passed" in totals
        table = app.screen.query_one("#by-section", DataTable)
        row = table.get_row(question.section)
        assert row[2] == "0%" and row[3].startswith("1/") and row[4].startswith("1/")  # now 0%, solved once
        await pilot.press("f2")
        await settle(pilot)
        assert "已解决 1/" in str(app.screen.query_one("#progress-totals", Static).content)
