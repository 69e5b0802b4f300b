"""Practice like LeetCode's list (issue 16 item 6, walkthrough minor 9): a lasting solved mark (the
best result, not the last attempt), search and filters by kind, tag, section and status."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp
from tutor.ui.screens.practice_filter import matches, parse


class _Question:
    def __init__(self, kind, tags, section, title, id="bubble-1f1b-m64"):
        from types import SimpleNamespace

        self.id, self.kind, self.tags, self.section = id, kind, tags, section
        self.title = SimpleNamespace(get=lambda lang: title[lang])


BUBBLE = _Question("numeric", ["pipeline", "bubble"], "recipe/pipeline",
                   {"en": "Bubble of 1F1B at m = 64", "zh": "m = 64 时 1F1B 的 bubble"})
TITLES = {"en": "Pipelines", "zh": "流水线"}


def test_search_reads_words_and_fields_in_both_languages():
    assert matches(BUBBLE, None, parse("bubble"), TITLES)
    assert matches(BUBBLE, None, parse("kind:num tag:pipe"), TITLES)
    assert matches(BUBBLE, None, parse("类型：数值 状态:未解决"), TITLES)
    assert matches(BUBBLE, None, parse("section:流水线"), TITLES) and matches(BUBBLE, None, parse("section:pipel"), TITLES)
    assert not matches(BUBBLE, None, parse("kind:choice"), TITLES)
    assert matches(BUBBLE, None, parse("kind:choice kind:numeric"), TITLES)  # any of one field's values
    assert not matches(BUBBLE, None, parse("bubble zero"), TITLES)  # every word
    assert matches(BUBBLE, None, parse("bubble-1f1b-m64"), TITLES)  # the id, as `tutor questions` lists it
    assert not matches(BUBBLE, None, parse("is:solved"), TITLES) and matches(BUBBLE, True, parse("is:solved"), TITLES)
    assert matches(BUBBLE, False, parse("is:wrong"), TITLES) and matches(BUBBLE, False, parse("is:unsolved"), TITLES)
    assert matches(BUBBLE, None, parse("is:new"), TITLES) and not matches(BUBBLE, True, parse("is:new"), TITLES)
    assert parse("is:banana").unknown == ["banana"]
    assert parse("kind:xyz kind:num").unknown_kinds == ["xyz"] and parse("类型:数").unknown_kinds == []  # said back
    assert matches(BUBBLE, None, parse("kind:xyz"), TITLES)  # an unreadable kind filters nothing, as is:banana
    assert matches(BUBBLE, None, parse("https://x [bold] ((( \\ *"), TITLES) is False  # text, never a pattern


@pytest.mark.timeout(90)
async def test_a_solved_question_stays_solved_and_the_list_filters(tutor_home):
    """Minor 9: ✓ became ✗ after a later wrong attempt (in Practice or Review)."""
    from tutor.store import Attempt, Store, record_attempt

    with Store() as store:
        record_attempt(store, Attempt("grad-accumulation-memory", "1120 GB", True, 1.0, step_id="main", seed=0))
        record_attempt(store, Attempt("grad-accumulation-memory", "1 TB", False, 0.0, step_id="main", seed=0))
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        listing = app.screen.query_one("#question-list", OptionList)
        total = listing.option_count
        assert total > 50 and "1 solved" in str(listing.border_title)
        await pilot.press("slash")
        assert app.focused.id == "question-search"
        await pilot.press(*"is:solved")
        await settle(pilot)
        assert [listing.get_option_at_index(i).id for i in range(listing.option_count)] == ["grad-accumulation-memory"]
        assert str(listing.get_option_at_index(0).prompt).startswith("✓")
        search = app.screen.query_one("#question-search", Input)
        search.value = "kind:formula"
        await settle(pilot)
        kinds = {app.screen._content.questions[listing.get_option_at_index(i).id].model.kind
                 for i in range(listing.option_count)}
        assert kinds == {"formula"} and listing.option_count < total
        search.value = "zzzz-nothing"
        await settle(pilot)
        assert listing.option_count == 1 and listing.get_option_at_index(0).disabled
        search.value = "is:banana"
        await settle(pilot)
        assert "is:banana?" in str(listing.border_subtitle) and listing.option_count == total
        search.value = "kind:xyz"  # it said only "no match" (walkthrough, driven in tmux)
        await settle(pilot)
        assert "kind:xyz? numeric" in str(listing.border_subtitle) and listing.option_count == total
        search.value = "zzzz-nothing"
        await settle(pilot)
        await pilot.press("enter")  # nothing to go to: stays in the box, no error
        await pilot.press("f7")
        await settle(pilot)
        assert search.value == "" and listing.option_count == total and app.ui_errors == []
