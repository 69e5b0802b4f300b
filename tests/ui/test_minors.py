"""The walkthrough's minor and polish defects that live in the interface, one test each."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
async def test_config_syntax_typed_into_the_tp_box_fills_every_box(tutor_home):
    """Minor 11: `TP=8 PP=16 CP=1 DP=32` typed into TP left TP = 816132."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("config-small-model")
        await settle(pilot)
        assert app.focused.id == "config-tp"
        await pilot.press(*"TP=8 PP=16 CP=1 DP=32", "tab")
        await settle(pilot)
        box = app.screen.query_one("#answer-box")
        values = {dim: box.query_one(f"#config-{dim}", Input).value for dim in ("tp", "pp", "cp", "dp")}
        assert values == {"tp": "8", "pp": "16", "cp": "1", "dp": "32"}
        assert box.answer() == "TP=8 PP=16 CP=1 DP=32"


@pytest.mark.timeout(60)
async def test_interleaved_that_falls_back_says_so(tutor_home):
    """Minor 3: F4 went auto → gpipe → 1f1b → "1f1b" again, with no word about interleaving."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        chart = app.screen.query_one("#pipeline-chart", Static)
        assert "Schedule auto → 1f1b" in str(chart.render())
        await pilot.press("f4", "f4", "f4")  # gpipe, 1f1b, interleaved
        await settle(pilot)
        assert "Interleaved needs v > 1" in str(chart.render()) and "1f1b: p = 4" in str(chart.render())


def test_plurals_and_dates_read_as_english():
    """Polish 1 and 2: "1 attempts", "streak 1 day(s)", "(1 questions)", "1 ranks", raw ISO dates."""
    from tutor.ui.strings import plural, text, when

    line = text("home.attempts", "en", attempts=plural(1, "attempt", "attempts", "en"), accuracy="100%",
                streak=plural(1, "day", "days", "en"))
    assert line == "1 attempt · 100% right · streak 1 day"
    assert plural(3, "question", "questions", "en") == "3 questions" and plural(3, "题", "题", "zh") == "3"
    assert when("2026-12-01T08:09:47+00:00", "en") == "2026-12-01 08:09 UTC"
    from tutor.ui.screens.labs_text import _ranks

    assert _ranks(1, "en") == "1 rank" and _ranks(4, "en") == "4 ranks"


def test_the_answer_line_names_units_in_the_learners_language_and_no_answer():
    """Polish 3, 4 and minor 22: "(unit: x)", "(单位:days)", and examples that were answers (M1)."""
    from types import SimpleNamespace

    from tutor.ui.widgets.answer_box import _placeholders

    def step(unit):
        return SimpleNamespace(kind="numeric", answer=SimpleNamespace(unit=unit))

    for long, short in (_placeholders(step("x"), "en"), _placeholders(step("x"), "zh")):
        assert "(unit" not in long + short and "(单位" not in long + short and "x" not in short
    assert _placeholders(step("days"), "zh")[0].endswith("（单位：天）")
    assert _placeholders(step("days"), "zh")[1].endswith("：天")
    assert _placeholders(step("GB"), "en")[0].endswith("(unit: GB)")
    assert _placeholders(step("GB"), "en")[1].endswith(": GB")
    english = " ".join(_placeholders(step("GB"), "en"))
    assert "万" not in english and "39 GB" not in english and "2.8 h" not in english
    assert "6*Psi" not in " ".join(_placeholders(SimpleNamespace(kind="formula"), "en"))


def test_mock_export_goes_to_the_data_folder(tutor_home, tmp_path, monkeypatch):
    """Minor 21: F8 wrote mock-1-pitch.md into the working folder (a git checkout)."""
    import tutor.interview.report
    from tutor.ui.screens.mock_text import export_report

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tutor.interview.report, "report_markdown", lambda report, lang: "# report\n")
    target = export_report({"session": 1, "format": "pitch"}, "en")
    assert target == tutor_home / "reports" / "mock-1-pitch.md" and target.read_text() == "# report\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.timeout(90)
async def test_a_long_section_is_read_when_its_end_was_on_screen_not_when_opened(tutor_home):
    """Minor 20: sections were marked ✓ read as soon as they opened."""
    from tutor.store import Store
    from tutor.store.records import sections_read

    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await settle(pilot)
        screen = app.screen
        first = screen._current
        assert first not in screen._read  # the first section of the recipe is long: not read yet
        reader = screen.query_one("#reader")
        assert reader.max_scroll_y > 0
        reader.scroll_end(animate=False)
        await settle(pilot)
        assert first in screen._read
        second = screen._current = screen._order[1]
        screen._show_current()
        await settle(pilot)
        await pilot.press("n")  # moving on marks the one left as read
        await settle(pilot)
        assert second in screen._read
    with Store() as store:
        assert {first, second} <= set(sections_read(store))


@pytest.mark.timeout(60)
async def test_keys_typed_in_a_burst_after_tab_land_in_the_field_tab_moved_to(tutor_home):
    """Minor 1: Tab, Shift+Tab, BSpace 8 1 9 2 typed fast in GPUs (8192) left 819 / 81992: the
    keys after a Tab reached the field Tab was leaving (Tab moved focus only once it had bubbled up)."""
    import asyncio

    from tests.ui.helpers import burst

    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        gpus = app.screen.query_one("#field-gpus", Input)
        gpus.value = "8192"
        gpus.focus()
        await settle(pilot)
        burst(app, "tab", "shift+tab", "backspace", "8", "1", "9", "2", "tab", "backspace", "8")
        await asyncio.sleep(0.5)
        await settle(pilot)
        assert gpus.value == "8192" and app.screen.query_one("#field-tp", Input).value == "8"
        assert app.focused.id == "field-tp" and app.ui_errors == []


@pytest.mark.timeout(60)
async def test_a_backspace_typed_fast_runs_before_the_keys_after_it(tutor_home):
    """Minor 1: BSpace 4 in a selected field left it blank; BSpace 8 1 9 2 gave 8192819: Backspace, a
    binding, ran when it had bubbled up to the app, after the digits typed behind it."""
    import asyncio

    from textual.widgets import TextArea

    from tests.ui.helpers import burst

    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        seq = app.screen.query_one("#field-seq", Input)
        seq.focus()
        await settle(pilot)
        burst(app, "end", "backspace", "backspace", "backspace", "backspace", "4", "0", "9", "6", "left", "backspace", "1")
        await asyncio.sleep(0.5)
        await settle(pilot)
        assert seq.value == "4016"
        await pilot.press("escape", "p")
        await settle(pilot)
        app.screen.open_question("clarify-gpus" if "clarify-gpus" in app.screen._content.questions else
                                 next(q for q, loaded in app.screen._content.questions.items()
                                      if loaded.model.steps[0].kind in ("open", "clarify", "design")))
        await settle(pilot)
        area = app.screen.query_one(TextArea)
        area.focus()
        burst(app, "a", "b", "c", "backspace", "d")
        await asyncio.sleep(0.5)
        await settle(pilot)
        assert area.text == "abd" and app.ui_errors == []


@pytest.mark.timeout(60)
async def test_the_command_palette_asks_in_chinese_in_chinese_mode(tutor_home):
    """Minor 22: the command palette stayed English in Chinese mode."""
    app = TutorApp(lang="zh")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert app.screen.query_one(Input).placeholder == "搜索命令…"
        await pilot.press("escape")


@pytest.mark.timeout(60)
async def test_an_answer_typed_fast_then_ctrl_s_is_submitted_whole(tutor_home, fixture_content):
    """Found driving the app: ctrl+s is acted on as the app reads it, ahead of the keys typed just
    before it, so "space ctrl+s" in a choice submitted nothing and "1120 GB ctrl+s" could lose its end."""
    import asyncio

    from textual.widgets import Markdown

    from tests.ui.helpers import burst
    from tutor.store import Store, attempts

    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("memory-total")
        await settle(pilot)
        burst(app, *"1120 GB", "ctrl+s")
        await asyncio.sleep(0.5)
        await settle(pilot)
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✓ Right")
        app.screen.open_question("tp-where")
        await settle(pilot)
        burst(app, "space", "ctrl+s")  # tick the highlighted (first, right) option and check at once
        await asyncio.sleep(0.5)
        await settle(pilot)
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✓ Right")
    with Store() as store:
        assert [a.answer for a in attempts(store, "memory-total")] == ["1120 GB"]


def test_review_and_lab_counts_read_as_english():
    """Polish 1 and 2, found driving the app: "0 card(s) in the queue", "1 check(s) failed"."""
    from tutor.ui.screens.labs_text import outcome_text
    from tutor.ui.screens.review import ReviewScreen  # noqa: F401  (registers the review strings)
    from tutor.ui.strings import plural, text

    assert text("review.none", "en", cards=plural(1, "card", "cards", "en"), next="") == \
        "Nothing is due for review. 1 card in the queue."
    evidence = {"outcome": "hang", "elapsed_s": 3.0, "world_size": 2, "backend": "gloo", "summary": {}, "ranks": []}
    check = {"passed": False, "checks": [{"name": "runs", "passed": False, "detail": "hung"}]}
    assert "Not yet: 1 check failed" in outcome_text(evidence, "en", check).plain


def test_progress_review_line_counts_in_english():
    """Polish 1, found driving the app: "1 cards", "1 reviews done", a raw ISO next-due time."""
    from tutor.ui.screens.progress import _review_and_mock_lines

    line = _review_and_mock_lines({"review": {"cards": 1, "due": 0, "reviews": 1,
                                              "next_due": "2026-12-01T15:00:00+00:00"}}, "en").splitlines()[0]
    assert line == "Reviews: 1 card, 0 due now, next 2026-12-01 15:00 UTC · 1 review done"


@pytest.mark.timeout(60)
async def test_a_worked_example_s_name_goes_when_an_edit_makes_it_untrue(tutor_home):
    """Polish 9: the worked-example picker still read "70B on 64 GPUs: TP 4, PP 4, CP 2, DP 2"
    after CP was set to 1; its full name was cut in the picker's one line."""
    from textual.widgets import Select

    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        picker = app.screen.query_one("#scenario", Select)
        picker.value = "lesson-70b-64"
        await settle(pilot)
        assert app.screen.query_one("#field-cp", Input).value == "2"
        assert "70B on 64 GPUs: TP 4, PP 4, CP 2, DP 2" in str(app.screen.query_one("#memory-chart").border_title)
        app.screen.query_one("#field-cp", Input).value = "1"
        await settle(pilot)
        assert picker.is_blank()  # the picker offers the examples again
        assert "70B on 64" not in str(app.screen.query_one("#memory-chart").border_title or "")
        assert app.ui_errors == []  # the blank row's value (Select.NULL) was looked up as an example


@pytest.mark.timeout(60)
async def test_a_key_typed_into_an_answer_line_does_not_lay_the_screen_out_again(tutor_home, monkeypatch):
    """Issue 16 (5,000 characters typed key by key were slow): Textual's Input sets its virtual size
    on every key, a reactive that re-lays the whole screen out: ~17 ms of Practice's ~16-35 ms a key
    (cProfile, 300 keys at 80x24). The text still scrolls to keep the cursor in view."""
    from textual.screen import Screen

    layouts = []
    textual_layout = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout", lambda self, *a, **k: (layouts.append(1),
                                                                          textual_layout(self, *a, **k))[1])
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("memory-total" if "memory-total" in app.screen._content.questions
                                 else "distopt-bytes-per-gpu")
        await settle(pilot)
        line = app.focused
        assert line.id == "answer-line"
        typed = "0123456789" * 12  # longer than the box: it has to scroll
        layouts.clear()
        for key in typed:
            await pilot.press(key)
        assert line.value == typed and len(layouts) <= 2, len(layouts)  # was one per key (120)
        assert line.scroll_x > 0 and line.scroll_x == line.max_scroll_x  # the end, where the cursor is
        assert str(line.render_line(0).text).rstrip().endswith("789")
