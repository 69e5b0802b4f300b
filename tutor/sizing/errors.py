"""The engine's one error type: a clear, one-line message about bad input, in both languages."""

from tutor.errors import UserInputError
from tutor.text import T


class SizingError(UserInputError):
    """A missing, extra or invalid input, or a configuration that cannot be computed.

    It is a UserInputError, so the CLI prints it as one line and exits with status 2. `str()` is the
    English; a message the learner meets in the app or with `--lang zh` is a `T(en, zh)`, which
    `text(lang)` gives (a plain string is English only, for inputs only a program gives).
    """


def shown_number(value: object) -> str:
    """A number as the learner typed it (`typed`, kept by the CLI's parsers), else written out in full
    with separators (10,000,000), 1e30 beyond 1e21, never 1e+30."""
    typed = getattr(value, "typed", None)
    if isinstance(typed, str):
        return typed
    if isinstance(value, (int, float)) and float(value).is_integer() and abs(value) < 1e21:
        return f"{int(value):,}"
    return f"{value:.6g}".replace("e+", "e") if isinstance(value, (int, float)) else repr(value)


def too_large(name: str, value: object, limit: float) -> SizingError:
    """The error for a value above the engine's limit for `name`, the limit said plainly."""
    number, most = shown_number(value), shown_number(limit)
    return SizingError(T(f"{name} = {number} is more than the engine accepts: at most {most}",
                          f"{name} = {number} 超出引擎接受的范围：最多 {most}"))


class TypedFloat(float):
    """A float that remembers the text it was parsed from (`--gpus 1e20`), for the error that names it."""

    typed: str


class TypedInt(int):
    typed: str


def typed(value: float | int, text: str) -> float | int:
    """`value` carrying the `text` it was typed as."""
    kept = TypedInt(value) if isinstance(value, int) else TypedFloat(value)
    kept.typed = text.strip()
    return kept
