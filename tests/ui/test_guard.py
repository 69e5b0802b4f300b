"""Nothing a learner types ends the app: the walkthrough's two blockers, and the guard around every
handler, worker and timer (an error becomes a notification and a log line; the screen stays usable)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from tests.ui.conftest import LAB_FIXTURE
from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


def _shown(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def _notes(app) -> list[str]:
    return [str(note.message) for note in app._notifications]


@pytest.fixture(autouse=True)
def _fresh_log():
    from tutor.ui import guard

    guard.reset_log()
    yield
    guard.reset_log()


@pytest.mark.timeout(60)
async def test_b1_a_global_batch_below_dp_times_micro_batch_is_explained_not_a_crash(tutor_home):
    """Walkthrough B1: g, Tab to Global batch, Backspace ×3, 1 (on the way to 16) killed the app
    (simulate() got m = 0.5). Every panel now says why, and the app has caught nothing."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        app.screen.query_one("#field-global_batch", Input).focus()
        await pilot.press("end", "backspace", "backspace", "backspace", "1")
        await settle(pilot)
        assert app.is_running and app.ui_errors == []
        assert app.screen.query_one("#field-global_batch", Input).value == "1"
        pipeline = _shown(app, "#pipeline-chart")
        assert "blue forward" not in pipeline and "micro-batch" in pipeline
        await pilot.press("6")  # the learner finishes typing 16: a real pipeline again
        await settle(pilot)
        assert "1f1b: p = 4, m = 8" in _shown(app, "#pipeline-chart")


def _gpu_only_content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(LAB_FIXTURE, root)
    lab = root / "labs" / "01-hang-demo" / "lab.yaml"
    lab.write_text(lab.read_text(encoding="utf-8") + "gpu_only: true\n", encoding="utf-8")
    return root


@pytest.mark.timeout(60)
@pytest.mark.parametrize("key", ["f5", "f6"])
async def test_b2_a_gpu_only_lab_on_cpu_is_marked_and_refused_in_one_line(tmp_path, monkeypatch, key):
    """Walkthrough B2 and minor 6: F5 on cuda-graphs killed the app; F6 recorded a 'crash' run.
    The list marks the lab GPU-only and either key is refused with the CLI's message."""
    from tutor.content import load

    monkeypatch.setenv("TUTOR_CONTENT", str(_gpu_only_content(tmp_path)))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    load.cache_clear()
    try:
        app = TutorApp()
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            await pilot.press("b")
            await settle(pilot)
            screen = app.screen
            listing = screen.query_one("#lab-list")
            assert "GPU only" in str(listing.get_option_at_index(0).prompt)
            await pilot.press(key)
            await settle(pilot)
            assert app.is_running and app.ui_errors == [] and screen.run is None
            assert any("needs CUDA GPUs" in note for note in _notes(app))
            assert screen.evidence is None  # nothing ran, nothing recorded as a crash
            from tutor.store.lab_runs import latest_outcomes

            assert latest_outcomes(app.open_store(), "hang-demo") == {}
    finally:
        load.cache_clear()


@pytest.mark.timeout(60)
async def test_an_error_in_a_handler_is_shown_logged_and_survived(tutor_home, monkeypatch):
    from tutor.ui import guard
    from tutor.ui.screens import playground

    def broken(self, lang):
        raise RuntimeError("the rank grid broke")

    monkeypatch.setattr(playground.PlaygroundScreen, "_ranks", broken)
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("f3")  # colour the ranks: the handler raises inside
        await settle(pilot)
        assert app.is_running
        assert [str(error) for _, error in app.ui_errors] == ["the rank grid broke"]
        assert any("the rank grid broke" in note and "tutor-ui.log" in note for note in _notes(app))
        log = guard.log_path().read_text(encoding="utf-8")
        assert "RuntimeError: the rank grid broke" in log and str(tutor_home) in str(guard.log_path())
        screen = app.screen
        await pilot.press("f4")  # the same screen still takes keys
        await settle(pilot)
        assert screen.query_one("#result-tabs").active == "tab-pipeline"
        screen.query_one("#field-tp", Input).focus()
        await pilot.press("backspace", "8")
        await settle(pilot)
        assert screen.query_one("#field-tp", Input).value == "8"


@pytest.mark.timeout(60)
async def test_an_error_in_a_worker_is_shown_and_the_app_goes_on(tutor_home, monkeypatch):
    import tutor.store.progress

    def broken(store):
        raise ValueError("summary failed")

    monkeypatch.setattr(tutor.store.progress, "summary", broken)
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert app.is_running
        assert [str(error) for _, error in app.ui_errors] == ["summary failed"]
        await pilot.press("l")
        await settle(pilot)
        assert app.current_mode == "lessons"


def test_tutor_start_exits_non_zero_when_the_app_dies(monkeypatch):
    """Walkthrough minor 15: after a traceback the shell saw exit status 0."""
    import argparse
    import sys

    from tutor.commands import start

    def dies(self):
        self._return_code = 1

    monkeypatch.setattr(TutorApp, "run", dies)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert start.run(argparse.Namespace(lang=None)) == 1


def _stylesheet_parse_error() -> Exception:
    """A real one: its str() is `<textual.css.stylesheet.StylesheetErrors object at 0x...>`."""
    from textual.css.stylesheet import Stylesheet

    sheet = Stylesheet()
    sheet.add_source("Screen { colr: red; }", read_from=("app.tcss", ""))
    try:
        sheet.parse()
    except Exception as error:
        return error
    raise AssertionError("the stylesheet parsed")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang, usable", [("en", "the screen is still usable"), ("zh", "界面仍可继续使用")])
async def test_an_error_whose_str_is_an_object_repr_is_shown_by_type_and_first_rendered_line(
        tutor_home, monkeypatch, lang, usable):
    from tutor.ui.screens import playground

    error = _stylesheet_parse_error()
    assert " object at 0x" in str(error)

    def broken(self, lang):
        raise error

    monkeypatch.setattr(playground.PlaygroundScreen, "_ranks", broken)
    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        assert app.is_running and len(app.ui_errors) == 1
        (note,) = _notes(app)
        assert " object at 0x" not in note
        assert note.startswith("StylesheetParseError: app.tcss:1:10: Invalid CSS property 'colr'.")
        assert usable in note and "\n" not in note


@pytest.mark.timeout(60)
@pytest.mark.parametrize("key", ["f5", "f6"])
async def test_a_lab_refusal_reads_in_the_learner_s_language(tmp_path, monkeypatch, key):
    """The refusal is a TutorError carrying its Chinese: a Chinese learner reads it in Chinese."""
    from tutor.content import load

    monkeypatch.setenv("TUTOR_CONTENT", str(_gpu_only_content(tmp_path)))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    load.cache_clear()
    try:
        app = TutorApp(lang="zh")
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            await pilot.press("b")
            await settle(pilot)
            screen = app.screen
            await pilot.press(key)
            await settle(pilot)
            assert app.is_running and app.ui_errors == [] and screen.run is None and screen.evidence is None
            assert any("需要 CUDA GPU" in note for note in _notes(app))
            assert not any("needs CUDA GPUs" in note for note in _notes(app))
    finally:
        load.cache_clear()


@pytest.mark.timeout(60)
async def test_a_screen_being_removed_is_not_an_error_but_a_live_one_still_is(tutor_home):
    """The monkey under load (seed 1600): Esc on Review, and its queue's load, finishing a few ticks
    later, drew into the popped screen. Textual prunes a popped screen's children first, so for ~7
    loop turns the screen is attached, closed and empty, and every query raised NoMatches, shown to
    the learner as an error. A NoMatches on a live screen is still a bug, and still reported."""
    import asyncio

    from tutor.ui.screens.review import ReviewScreen

    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        screen = ReviewScreen()
        await app.push_screen(screen)
        await settle(pilot)
        app.pop_screen()
        for _ in range(200):  # every tick of its removal, as a late callback would land
            await asyncio.sleep(0)
            screen.render_texts("en")
        await settle(pilot)
        assert app.ui_errors == [] and app.is_running
        live = ReviewScreen()
        await app.push_screen(live)
        await settle(pilot)
        live.query_one("#review-status").remove()
        await settle(pilot)
        live.render_texts("en")
        assert [type(error).__name__ for _, error in app.ui_errors] == ["NoMatches"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang, said", [("en", "2 content problems failed to load"), ("zh", "有 2 处内容加载失败")])
async def test_content_that_failed_to_load_is_said_not_silently_left_out(tmp_path, monkeypatch, tutor_home, lang, said):
    """A scenario with a misspelt key vanished from its format with no word in the app (the loader
    keeps the problem for `tutor validate` only); the app now says so once it has loaded content. Two
    problems: the unknown key, and the format left with nothing to ask."""
    from tests.interview.helpers import FIXTURE_ROOT
    from tutor.content import load

    root = tmp_path / "content"
    shutil.copytree(FIXTURE_ROOT, root)
    broken = sorted((root / "interview").glob("*.yaml"))[0]
    broken.write_text(broken.read_text(encoding="utf-8").replace("format:", "formatt:", 1), encoding="utf-8")
    monkeypatch.setenv("TUTOR_CONTENT", str(root))
    load.cache_clear()
    try:
        app = TutorApp(lang=lang)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause(1.5)  # the warm-up's timer (1 s), then its thread
            for _ in range(40):
                if _notes(app):
                    break
                await pilot.pause(0.1)
            assert any(said in note and "tutor validate" in note for note in _notes(app)), _notes(app)
            assert app.is_running and app.ui_errors == []
    finally:
        load.cache_clear()
