"""Plain counts with SI-style suffixes, shared by content files and CLI flags.

`70e9`, `70B`, `1.5T`, `128K`, `4k` -> numbers. The learner's answers go through the richer
quantity parser in `tutor.grading`; this one is for authors and flags, where a strict,
tiny grammar gives the clearest error.
"""

from __future__ import annotations

import math
import re

from tutor.errors import TutorError
from tutor.text import T

# The units of an answer that is a bare number (a count, a ratio): no unit is named for them,
# by `tutor ask` or the app's answer line.
UNITLESS = ("", "x", "plain", "count")

_SUFFIX = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
_COUNT = re.compile(r"^\s*([+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([kKMBGT]?)\s*$")


class CountError(TutorError, ValueError):
    """A count that cannot be read, said in both languages (`TutorError.text`): the playground shows
    it in the learner's (it showed "not a number: …" in Chinese mode); `str()` is the English, as the
    CLI prints it. Still a ValueError, which the content models and the CLI's flags catch."""


def parse_count(text: str) -> float | int:
    """Parse `70e9`, `70B`, `4k`, `1_000`; raise CountError with a readable message."""
    match = _COUNT.match(text)
    if not match:
        raise CountError(T(f"not a number: {text!r} (examples: 70e9, 70B, 1.5T, 128K)",
                           f"不是数字：{text!r}（可以写成 70e9、70B、1.5T、128K）"))
    mantissa, suffix = match.groups()
    value = float(mantissa.replace("_", "")) * _SUFFIX[suffix]
    if not math.isfinite(value):
        raise CountError(T(f"number out of range: {text!r}", f"数字太大，超出可表示的范围：{text!r}"))
    return as_number(value)


def as_number(value: float | int) -> float | int:
    """Integral values become int (layer counts stay integers); others stay float."""
    if isinstance(value, bool):
        raise CountError(T("expected a number, got true/false", "这里要填数字，不是 true/false"))
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value
