"""Errors that reach the learner as one line, never as a traceback."""

from __future__ import annotations

from tutor.text import T


class TutorError(Exception):
    """Something the user can act on. The CLI prints `tutor: <message>` and exits with `exit_code`.

    `str()` is the English; a message a learner meets in Chinese mode (`--lang zh`, TUTOR_LANG=zh)
    is a `T(en, zh)`, which `text(lang)` gives in either language. A plain string is English only
    (and shown in Chinese mode too); `zh=` is the older spelling of a `T`, kept while the lab
    modules still raise with it.
    """

    exit_code = 1

    def __init__(self, message: str | T | tuple[str, str] = "", zh: str | None = None) -> None:
        if isinstance(message, tuple) and not isinstance(message, T):
            message = T(*message)  # an (en, zh) pair written before T
        if not isinstance(message, T):
            message = T(message, zh or message)
        super().__init__(message.en)
        self.message = message

    def text(self, lang: str) -> str:
        return self.message.get(lang)


class UserInputError(TutorError):
    """Bad input on the command line or in an answer: exit status 2 (DESIGN §5)."""

    exit_code = 2


class StoreError(TutorError):
    """The learner database cannot be opened or written; the message says the way out."""

    exit_code = 1
