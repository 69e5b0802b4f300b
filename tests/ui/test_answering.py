"""The one way Practice, Review and Mock take a typed answer (`tutor.ui.screens.answering`).

Enter and ctrl+s reaching it through each screen are driven in test_practice, test_mock and
test_mock_review; here the rules themselves, on a stand-in screen, without an app.
"""

from __future__ import annotations

from types import SimpleNamespace

import tutor.ui.screens.mock_text  # noqa: F401  (registers the mock's strings, "mock.empty" among them)
from tutor.ui.screens.answering import SubmitsAnswer
from tutor.ui.strings import text


class _Screen(SubmitsAnswer):
    ANSWER_BOX = "#box"
    EMPTY_ANSWER = "mock.empty"

    def __init__(self, typed: str, taking: bool = True, lang: str = "en", kind: str = "numeric",
                 problem: str | None = None):
        self.typed, self.taking, self.kind, self.problem = typed, taking, kind, problem
        self.app = SimpleNamespace(lang=lang)
        self.read, self.notes, self.submitted = [], [], []

    def query_one(self, selector, kind):
        self.read.append(selector)
        return SimpleNamespace(answer=lambda: self.typed, kind=self.kind, problem=lambda lang: self.problem)

    def notify(self, message, severity="information"):
        self.notes.append((message, severity))

    def accepts_answer(self) -> bool:
        return self.taking

    def submit_answer(self, answer: str) -> None:
        self.submitted.append(answer)


def test_an_answer_is_handed_on_as_typed():
    screen = _Screen("  1120 GB ")
    screen._submit_typed()
    assert screen.submitted == ["  1120 GB "] and screen.read == ["#box"] and screen.notes == []


def test_an_answer_the_box_refuses_is_warned_of_not_handed_on():
    # A layout box holding `-1` (issue 16: it was graded TP=1): the box's own words, nothing graded.
    screen = _Screen("TP=-1", kind="config", problem="TP: a whole number")
    screen._submit_typed()
    assert screen.submitted == [] and screen.notes == [("TP: a whole number", "warning")]


def test_a_blank_answer_is_the_screens_warning_in_its_language():
    screen = _Screen(" \n\t", lang="zh")
    screen._submit_typed()
    assert screen.submitted == []
    assert screen.notes == [(text("mock.empty", "zh"), "warning")]


def test_nothing_is_read_while_the_screen_takes_no_answer():
    # e.g. Review after the card's verdict, Mock while the last answer is being graded: an empty
    # box there must not warn either.
    screen = _Screen("", taking=False)
    screen._submit_typed()
    assert screen.read == [] and screen.notes == [] and screen.submitted == []


def test_practice_and_review_share_one_empty_warning():
    class Practice(_Screen):
        EMPTY_ANSWER = SubmitsAnswer.EMPTY_ANSWER

    screen = Practice("")
    screen._submit_typed()
    assert screen.notes == [(text("practice.empty", "en"), "warning")]


def test_a_choice_with_nothing_ticked_says_to_tick_one_not_to_type():
    # "Type an answer first" under a list of options, where nothing can be typed (found in tmux).
    for lang in ("en", "zh"):
        screen = _Screen("", lang=lang, kind="choice")
        screen._submit_typed()
        assert screen.submitted == []
        assert screen.notes == [(text("mock.empty.choice", lang), "warning")]
        assert text("mock.empty.choice", lang) != text("mock.empty", lang)
    assert "Space" in text("practice.empty.choice", "en") and "空格" in text("practice.empty.choice", "zh")
