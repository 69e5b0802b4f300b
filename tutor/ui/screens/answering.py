"""Taking the answer typed into a screen's `AnswerBox`: Enter on its answer line, or ctrl+s.

Practice, Review and Mock take an answer the same way, so that a key typed just before ctrl+s
is never lost (`after_typed`) and an empty answer gets the same warning everywhere; only what
happens to the answer differs. The screens' own `ctrl+s` bindings name the action `submit`.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.widgets import Input

from tutor.ui.guard import Guarded, callback
from tutor.ui.screens.base import after_typed
from tutor.ui.strings import text
from tutor.ui.widgets.answer_box import AnswerBox


class SubmitsAnswer(metaclass=Guarded):
    """Mixed into a screen ahead of its Screen base. The screen names its box (`ANSWER_BOX`, a
    selector) and the string said for an empty answer (`EMPTY_ANSWER`), says whether an answer is
    taken now (`accepts_answer`) and what to do with it (`submit_answer`).

    `Guarded` (Textual's metaclass under ours) is what registers the `@on` handler below and guards
    the handlers, as it does on the screen itself."""

    ANSWER_BOX: ClassVar[str]
    EMPTY_ANSWER: ClassVar[str] = "practice.empty"

    @on(Input.Submitted, "#answer-line")
    def _line_submitted(self) -> None:
        self.action_submit()

    def action_submit(self) -> None:
        after_typed(self.app, self._submit_typed)

    @callback
    def _submit_typed(self) -> None:
        if not self.accepts_answer():
            return
        box = self.query_one(self.ANSWER_BOX, AnswerBox)
        problem = box.problem(self.app.lang)
        if problem is not None:
            self.notify(problem, severity="warning")  # neither graded nor recorded
            return
        answer = box.answer()
        if not answer.strip():
            # A choice with nothing ticked was told "Type an answer first", though there is nothing
            # to type: the learner is told to tick one, and how (found in tmux, issue 16).
            empty = f"{self.EMPTY_ANSWER}.choice" if box.kind == "choice" else self.EMPTY_ANSWER
            self.notify(text(empty, self.app.lang), severity="warning")
            return
        self.submit_answer(answer)

    def accepts_answer(self) -> bool:
        """Whether the screen takes an answer now (a question shown, nothing being graded)."""
        raise NotImplementedError

    def submit_answer(self, answer: str) -> None:
        """Grade or record `answer`, which is not blank."""
        raise NotImplementedError
