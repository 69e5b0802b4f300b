"""The engine's one error type: a clear, one-line message about bad input, in both languages."""

from tutor.errors import UserInputError
from tutor.text import T


class SizingError(UserInputError):
    """A missing, extra or invalid input, or a configuration that cannot be computed.

    It is a UserInputError, so the CLI prints it as one line and exits with status 2. `str()` is the
    English; a message the learner meets in the app or with `--lang zh` is a `T(en, zh)`, which
    `text(lang)` gives (a plain string is English only, for inputs only a program gives).
    """

    field: str | None = None
    """The input field the message is about, when it is about one (`field_error`)."""
    tail: T | None = None
    """The message after the field's name."""

    def named(self, label: T) -> T:
        """The message with the field called `label` (the message itself when it names no field)."""
        if self.tail is None:
            return self.message
        # No space between two Chinese characters ("序列长度必须大于 0"), as the rest of the zh text.
        joint = "" if _ideograph(label.zh[-1:]) and _ideograph(self.tail.zh[:1]) else " "
        return T(f"{label.en} {self.tail.en}", f"{label.zh}{joint}{self.tail.zh}")


def _ideograph(char: str) -> bool:
    return bool(char) and "\u3400" <= char <= "\u9fff"


def field_error(name: str, tail: T) -> SizingError:
    """An error about one input field, `name` followed by `tail`: "seq must be positive, got 0".

    It keeps both, so that a screen that shows the field under a label ("Sequence length") can say
    the label instead of the engine's name (`named`); the CLI and YAML keep the name, which is
    what the learner typed there."""
    error = SizingError(T(f"{name} {tail.en}", f"{name} {tail.zh}"))
    error.field, error.tail = name, tail
    return error


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
    return field_error(name, T(f"= {number} is more than the engine accepts: at most {most}",
                               f"= {number} 超出引擎接受的范围：最多 {most}"))


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
