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


@pytest.mark.timeout(60)
async def test_the_playground_says_what_is_wrong_in_the_learners_language(tutor_home):
    """In Chinese mode a Sequence length of 0 drew "✗ seq must be positive, got 0", a box that is not
    a number "not a number: …": in English."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        app.lang = "zh"
        await settle(pilot)
        chart = app.screen.query_one("#memory-chart")
        seq = app.screen.query_one("#field-seq", Input)
        seq.value = "0"
        await settle(pilot)
        assert "✗ 序列长度必须大于 0" in str(chart.render()), str(chart.render())  # the box's label, not `seq`
        seq.value = "."  # the box's restrict lets a lone point through
        await settle(pilot)
        assert "✗ 序列长度：不是数字" in str(chart.render()), str(chart.render())
        app.lang = "en"
        await settle(pilot)
        assert "✗ Sequence length: not a number: '.'" in str(chart.render())
        assert app.ui_errors == [] and app.is_running


def test_count_and_sizing_errors_are_in_both_languages_and_english_by_default():
    """What the playground shows in Chinese mode; `str()` stays the English the CLI prints."""
    from tutor.sizing.engine import check_input
    from tutor.sizing.errors import SizingError
    from tutor.sizing.specs import check_number
    from tutor.units import CountError, parse_count

    cases = [(lambda: parse_count("abc"), CountError, "not a number: 'abc'", "不是数字：'abc'"),
             (lambda: parse_count("1e999"), CountError, "number out of range: '1e999'", "超出可表示的范围"),
             (lambda: check_number("seq", 0), SizingError, "seq must be positive, got 0", "seq 必须大于 0"),
             (lambda: check_number("seq", 2.5), SizingError, "seq must be a whole number, got 2.5", "seq 必须是整数"),
             (lambda: check_number("gpus", float("inf")), SizingError, "gpus must be a finite number", "gpus 要填有限的数"),
             (lambda: check_input("layers", "x"), SizingError, "layers: not a number: 'x'", "layers：不是数字"),
             (lambda: check_input("layers", "0"), SizingError, "layers must be a positive finite number", "必须是大于 0")]
    for raise_it, kind, english, chinese in cases:
        with pytest.raises(kind) as caught:
            raise_it()
        assert str(caught.value).startswith(english) and caught.value.text("en").startswith(english)
        assert chinese in caught.value.text("zh") and english not in caught.value.text("zh")
    assert issubclass(CountError, ValueError)  # callers that catch ValueError (content loading) still do
