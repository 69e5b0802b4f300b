"""Plain counts with SI-style suffixes, shared by content files and CLI flags.

`70e9`, `70B`, `1.5T`, `128K`, `4k` -> numbers. The learner's answers go through the richer
quantity parser in `tutor.grading`; this one is for authors and flags, where a strict,
tiny grammar gives the clearest error.
"""

from __future__ import annotations

import math
import re

# The units of an answer that is a bare number (a count, a ratio): no unit is named for them,
# by `tutor ask` or the app's answer line.
UNITLESS = ("", "x", "plain", "count")

_SUFFIX = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
_COUNT = re.compile(r"^\s*([+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([kKMBGT]?)\s*$")


def parse_count(text: str) -> float | int:
    """Parse `70e9`, `70B`, `4k`, `1_000`; raise ValueError with a readable message."""
    match = _COUNT.match(text)
    if not match:
        raise ValueError(f"not a number: {text!r} (examples: 70e9, 70B, 1.5T, 128K)")
    mantissa, suffix = match.groups()
    value = float(mantissa.replace("_", "")) * _SUFFIX[suffix]
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text!r}")
    return as_number(value)


def as_number(value: float | int) -> float | int:
    """Integral values become int (layer counts stay integers); others stay float."""
    if isinstance(value, bool):
        raise ValueError("expected a number, got true/false")
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value
