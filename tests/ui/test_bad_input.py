"""Nothing a learner types misleads the grader or kills the app (issue 16): a layout box takes a
whole number only (`-1` was graded TP=1, `1e308` TP=1308, `0.5` TP=05), control characters pasted
into a field are dropped, and the playground's errors are in the learner's language."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Markdown

from tests.ui.helpers import burst, settle
from tutor.store import Store, attempts
from tutor.ui.app import TutorApp

LAYOUT_QUESTION = "config-small-model"


async def _open_layout_question(pilot, app) -> None:
    await pilot.press("p")
    await settle(pilot)
    app.screen.open_question(LAYOUT_QUESTION)
    await settle(pilot)


async def _submit_tp(pilot, app, typed: str) -> list[str]:
    """`typed` in the TP box (PP, CP, DP sensible), ctrl+s: the notices it drew."""
    app.clear_notifications()
    for dim, value in (("tp", typed), ("pp", "1"), ("cp", "1"), ("dp", "8")):
        app.screen.query_one(f"#config-{dim}", Input).value = value
    await pilot.press("ctrl+s")
    await settle(pilot)
    return [str(note.message) for note in app._notifications]


@pytest.mark.timeout(90)
async def test_a_layout_box_refuses_what_is_not_a_whole_number(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await _open_layout_question(pilot, app)
        verdict = app.screen.query_one("#verdict-text", Markdown)
        for lang, said in (("en", "TP: a whole number"), ("zh", "TP：请填 GPU 的个数")):
            app.lang = lang
            for typed in ("-1", "1e308", "0.5", "八", "TP=1e308 PP=2"):
                notices = await _submit_tp(pilot, app, typed)
                assert len(notices) == 1 and notices[0].startswith(said), (typed, notices)
                assert verdict.source == "", typed  # not graded
        app.lang = "en"
        assert await _submit_tp(pilot, app, "0") == []  # a whole number: the grader says what is wrong
        assert "TP must be at least 1" in verdict.source
        assert app.ui_errors == [] and app.is_running
    with Store() as store:
        assert attempts(store, LAYOUT_QUESTION) == []  # nor recorded (TP=0 is not a layout either)


@pytest.mark.timeout(90)
async def test_full_width_digits_and_thousands_separators_are_a_whole_number(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await _open_layout_question(pilot, app)
        box = app.screen.query_one("#answer-box")
        for typed, read in (("１６", "16"), ("1,024", "1024"), ("1 024", "1024"), ("１，０２４", "1024")):
            for dim, value in (("tp", typed), ("pp", ""), ("cp", ""), ("dp", "")):
                box.query_one(f"#config-{dim}", Input).value = value
            assert box.problem("en") is None and box.answer() == f"TP={read}", typed
        app.screen.query_one("#config-tp", Input).value = ""
        app.screen.query_one("#config-tp", Input).focus()
        burst(app, *"ＴＰ＝８ ＰＰ＝１６", "tab")  # typed with a Chinese input method on, spread over the boxes
        await settle(pilot)
        assert box.answer() == "TP=8 PP=16"
        assert await _submit_tp(pilot, app, "１６") == []
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✗")
    with Store() as store:
        assert [a.answer for a in attempts(store, LAYOUT_QUESTION)] == ["TP=16 PP=1 CP=1 DP=8"]


def _paste(app, pasted: str) -> None:
    """A terminal's bracketed paste, as the driver hands it to the app (to the focused widget)."""
    from textual import events

    event = events.Paste(pasted)
    event.set_sender(app)
    app._driver.send_message(event)


@pytest.mark.timeout(90)
async def test_control_characters_pasted_into_a_field_are_dropped(tutor_home):
    """NUL, ESC, BEL, DEL and C1 from a terminal or a web page landed in the field, unseen, and went on
    to the grader; a tab is a space. The answer area keeps its lines (CR LF and CR read as one)."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        search = app.screen.query_one("#question-search", Input)
        search.focus()
        _paste(app, "byt\x00\x1b\x07es\x7f\x9b")
        await settle(pilot)
        assert search.value == "bytes"
        search.value = ""
        app.screen.open_question("distopt-bytes-per-gpu")
        await settle(pilot)
        line = app.screen.query_one("#answer-line", Input)
        line.focus()
        _paste(app, "39.4\x00\x07\x1b\tGB")
        burst(app, "ctrl+s")
        await settle(pilot)
        assert line.value == "39.4 GB"
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✓ Right")
        app.screen.open_question("pitch-30-seconds")
        await settle(pilot)
        area = app.screen.query_one("#answer-text")
        area.focus()
        _paste(app, "one\x00\x1b[0m\r\ntwo\tthree\x07\rfour")
        await settle(pilot)
        assert area.text == "one[0m\ntwo three\nfour"
        await pilot.press("escape", "g")
        await settle(pilot)
        gpus = app.screen.query_one("#field-gpus", Input)
        gpus.focus()
        gpus.value = ""
        _paste(app, "\x1b64\x00")  # refused whole by the field's digits-only restrict before
        await settle(pilot)
        assert gpus.value == "64"
        assert app.ui_errors == [] and app.is_running
    with Store() as store:
        assert [a.answer for a in attempts(store, "distopt-bytes-per-gpu")] == ["39.4 GB"]
