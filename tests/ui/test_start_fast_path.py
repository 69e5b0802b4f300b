"""Issue 16, item 5: `tutor start` reaches the app without argparse (~40 ms of CPU before the first
frame); anything but the plain forms still goes through argparse, errors and all."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tutor.cli import _plain_start, main


def test_only_the_plain_forms_skip_argparse():
    assert _plain_start(["start"]).lang is None
    assert _plain_start(["start", "--lang", "zh"]).lang == "zh"
    for other in (["start", "--lang", "fr"], ["start", "--help"], ["start", "--lang"], ["start", "x"], ["lessons"], []):
        assert _plain_start(other) is None


def test_a_bad_start_still_gets_argparse_s_one_line_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["start", "--lang", "fr"])
    assert exit_.value.code == 2 and "invalid choice: 'fr'" in capsys.readouterr().err


@pytest.mark.timeout(30)
def test_tutor_start_imports_no_argparse():
    code = ("import sys\nfrom tutor.cli import main\nstatus = main(['start'])\n"
            "print(status, 'argparse' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            timeout=25)
    assert result.stdout.split() == ["1", "False"], result.stderr  # no terminal here: the one-line error
    assert "needs a terminal" in result.stderr


@pytest.mark.timeout(60)
async def test_home_is_drawn_without_a_stylesheet_refresh_and_esc_still_returns_to_it(monkeypatch, fixture_content):
    """Issue 16: a mode of MODES gets a whole stylesheet refresh (variables, reparse, restyle) before
    its first frame; Home, the default screen, does not, and is still the "home" mode Esc goes to."""
    from textual.css.stylesheet import Stylesheet

    from tests.ui.helpers import settle
    from tutor.ui.app import TutorApp
    from tutor.ui.screens.home import HomeScreen

    reparsed = []
    original = Stylesheet.reparse
    monkeypatch.setattr(Stylesheet, "reparse", lambda self: reparsed.append(1) or original(self))
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HomeScreen) and not reparsed
        home = app.screen
        await pilot.press("r")
        await settle(pilot)
        assert app.current_mode == "progress"
        await pilot.press("escape")
        assert app.current_mode == "home" and app.screen is home
