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
    from tutor.store import Attempt, Store, record_attempt, record_lab_run

    question = load().questions["grad-accumulation-memory"].model
    with Store() as store:
        record_attempt(store, Attempt(question.id, "right", True, 1.0, step_id="main", seed=0))
        record_attempt(store, Attempt(question.id, "wrong", False, 0.0, step_id="main", seed=0))
        record_lab_run(store, "tp-mlp", "check", "ok", passed=True)
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


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_one_scrollbar_and_every_column_in_view_at_80_columns(tutor_home, lang):
    """Issue 16: each table scrolled inside the scrolling pane (two scrollbars, one in the other),
    and at 80 columns the section titles pushed "solved" and "tried" off the table's edge."""
    from textual.containers import VerticalScroll

    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await settle(pilot)
        pane = app.screen.query_one("#progress-tables", VerticalScroll)
        assert pane.max_scroll_y > 0  # the pane scrolls, both tables in it
        for table in app.screen.query(DataTable):
            assert not table.show_vertical_scrollbar and not table.show_horizontal_scrollbar, table.id
            assert table.max_scroll_y == 0 and table.max_scroll_x == 0, table.id  # every row and column shown
            assert table.region.right <= pane.content_region.right
        titles = app.screen.query_one("#by-section", DataTable)
        if lang == "en":  # the Chinese titles fit
            assert any(titles.rows[key].height > 1 for key in titles.rows)  # a long title wraps in its column
        await pilot.press("pagedown")
        await settle(pilot)
        assert pane.scroll_y > 0


def test_tutor_progress_on_the_command_line_says_the_same(tutor_home, capsys):
    """Minor 14, CLI side: `tutor progress` showed `recipe/memory 0% (3/11 tried)` beside questions
    answered right, and no lab passed: it now says solved beside tried, as the app does, and the
    labs passed; --json carries the same counts."""
    import json

    from tutor.cli import main
    from tutor.content import load
    from tutor.labs.catalog import all_labs
    from tutor.store import Attempt, Store, record_attempt, record_lab_run

    question = load().questions["grad-accumulation-memory"].model
    with Store() as store:
        record_attempt(store, Attempt(question.id, "right", True, 1.0, step_id="main", seed=0))
        record_attempt(store, Attempt(question.id, "wrong", False, 0.0, step_id="main", seed=0))
        record_lab_run(store, "tp-mlp", "check", "ok", passed=True)
    assert main(["progress"]) == 0
    shown = capsys.readouterr().out
    section = next(line for line in shown.splitlines() if line.strip().startswith(question.section + " "))
    total = sum(1 for loaded in load().questions.values() if loaded.model.section == question.section)
    assert f"solved 1/{total}" in section and f"tried 1/{total}" in section, section
    assert f"labs passed 1/{len(all_labs())}" in shown and "questions solved 1/" in shown
    assert main(["progress", "--json"]) == 0
    record_json = json.loads(capsys.readouterr().out)
    assert record_json["solved"] == 1 and record_json["labs_passed"] == 1
    assert record_json["solved_by_section"][question.section] == 1
