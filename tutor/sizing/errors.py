"""The engine's one error type: a clear, one-line message about bad input."""

from tutor.errors import UserInputError


class SizingError(UserInputError):
    """A missing, extra or invalid input, or a configuration that cannot be computed.

    It is a UserInputError, so the CLI prints it as one line and exits with status 2.
    """
