"""One layout box's size (TP, PP, …), read whole as the learner typed it.

The boxes used to keep only their digits, so `-1` was graded TP=1, `1e308` TP=1308 and `0.5`
TP=05 (issue 16): a size is a whole number of GPUs, and anything else is refused, not misread.
Full-width digits (`１６`, typed with a Chinese input method on) and thousands separators
(`1,024`, `1 024`) are still a whole number, and read as one.
"""

from __future__ import annotations

import re
import unicodedata

# Python's \d is any decimal digit (full-width ones become ASCII under NFKC; others are read by
# `unicodedata.decimal`); a group separator only between groups of three, as numbers are written.
_WHOLE = re.compile(r"\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+|\d+")


class NotASize(ValueError):
    """What a box holds is not a whole number."""


def read_size(typed: str) -> str:
    """The size in a box as ASCII digits, '' for an empty box; NotASize for anything else."""
    written = unicodedata.normalize("NFKC", typed).strip()
    if not written:
        return ""
    if not _WHOLE.fullmatch(written):
        raise NotASize(typed)
    return "".join(str(unicodedata.decimal(ch)) for ch in written if ch not in ", ")
