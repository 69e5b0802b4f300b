"""Found driving Practice in tmux at 80×24 (issue 16 item 4): with the search box focused, F8 hid the
list and left the focus on the hidden box, so what was typed next went nowhere visible and ctrl+s
said "Type an answer first." F8 now moves the focus to the answer when it hides what held it."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
async def test_hiding_the_list_moves_the_focus_to_the_answer(tutor_home, fixture_content):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("memory-total")
        await settle(pilot)
        app.screen.action_search()  # as / does from the list
        await pilot.press(*"memory", "f8")
        await settle(pilot)
        side = app.screen.query_one("#question-side")
        assert not side.display
        assert app.focused is not None and side not in app.focused.ancestors_with_self, app.focused
        await pilot.press(*"1 TB")
        assert app.screen.query_one("#answer-line", Input).value == "1 TB"
        await pilot.press("f8")  # shown again: the list takes the focus, as before
        assert side.display and side in app.focused.ancestors_with_self
