"""Errors that reach the learner as one line, never as a traceback."""


class TutorError(Exception):
    """Something the user can act on. The CLI prints `tutor: <message>` and exits with `exit_code`."""

    exit_code = 1


class UserInputError(TutorError):
    """Bad input on the command line or in an answer: exit status 2 (DESIGN §5)."""

    exit_code = 2


class StoreError(TutorError):
    """The learner database cannot be opened or written; the message says the way out."""

    exit_code = 1
