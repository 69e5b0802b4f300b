"""Errors that reach the learner as one line, never as a traceback."""


class TutorError(Exception):
    """Something the user can act on. The CLI prints `tutor: <message>` and exits with `exit_code`.

    `str()` is the English; a message a learner meets in Chinese mode (`--lang zh`, TUTOR_LANG=zh)
    also carries its Chinese (`zh=`, or the message is a `tutor.text.T`, which is an (en, zh) pair: this
    module sits below tutor.text and so reads it as the pair), which `text(lang)` gives (the
    English where there is none).
    """

    exit_code = 1

    def __init__(self, message: str | tuple[str, str] = "", zh: str | None = None) -> None:
        if isinstance(message, tuple):
            message, zh = message
        super().__init__(message)
        self.zh = zh

    def text(self, lang: str) -> str:
        return self.zh if lang == "zh" and self.zh else str(self)


class UserInputError(TutorError):
    """Bad input on the command line or in an answer: exit status 2 (DESIGN §5)."""

    exit_code = 2


class StoreError(TutorError):
    """The learner database cannot be opened or written; the message says the way out."""

    exit_code = 1
