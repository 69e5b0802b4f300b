"""Line breaking for Chinese text in every Markdown and Static pane (issue 16).

Textual wraps a paragraph with Rich's `divide_line`, which breaks only at spaces: a run of
Chinese without spaces is one "word". One that does not fit the rest of the line moved whole to
the next ("每个 rank" alone on a line, then the paragraph), one longer than the line was cut at
the width wherever it fell, inside a Latin word ("attent" / "ion"), and a full-width comma could
start a line. Here `rich._wrap.words`, which `divide_line` calls for its break opportunities (both
Textual's Content and Rich's Text wrap through it), also yields each Chinese character as a unit
of its own, as UAX #14 allows a break between two ideographs and between an ideograph and a Latin
word, and keeps the basic kinsoku rules: closing punctuation (，。）」……) stays with the character
before it and opening brackets (（「《) with the one after. A Latin word, a code word such as
`all-reduce` or a number with its unit stays whole. Text without CJK takes the original path.

Written by hand: Rich and Textual have no hook for line-break rules, and the maintained
implementations of UAX #14 (ICU through PyICU) need a C library; this is the subset Chinese
prose in this app needs.
"""

from __future__ import annotations

from typing import Iterable

# Character classes, after UAX #14: ID (ideographs, kana, hangul), OP (opening brackets: no break
# after), CL (closing punctuation: no break before), AL (everything else that is not a space).
# Ranges compared by code point: a regex of these classes cost ~20-50 ms to compile at start-up.
ID_RANGES = ((0x2E80, 0x2FFF), (0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
             (0xAC00, 0xD7AF))
OPEN = frozenset("（「『《【〔“‘")
CLOSE = frozenset("，。；：、）」』》】〕！？…—”’％")
LOWEST = "\u2014"  # no character below this is ID, OP or CL: a cheap first test for English text


def _kind(char: str) -> str:
    if char in OPEN:
        return "OP"
    if char in CLOSE:
        return "CL"
    code = ord(char)
    return "ID" if any(low <= code <= high for low, high in ID_RANGES) else "AL"


def _breaks(before: str, after: str) -> bool:
    """Whether a line may break between two adjacent characters of one space-free run."""
    if after == "CL" or before == "OP":
        return False
    return before in ("ID", "CL") or after in ("ID", "OP")


def words(text: str) -> Iterable[tuple[int, int, str]]:
    """Rich's `words`, with each space-free run that holds CJK split where a line may break."""
    for start, end, word in _rich_words(text):
        if max(word) < LOWEST:
            yield start, end, word
            continue
        kinds = [_kind(char) if not char.isspace() else "SP" for char in word]
        cuts = [index for index in range(1, len(word))
                if kinds[index - 1] != "SP" and kinds[index] != "SP" and _breaks(kinds[index - 1], kinds[index])]
        if not cuts:
            yield start, end, word
            continue
        bounds = [0, *cuts, len(word)]
        for left, right in zip(bounds, bounds[1:]):
            yield start + left, start + right, word[left:right]


_rich_words = None


def install() -> None:
    """Make Rich's line division (and so Textual's) use `words`; idempotent."""
    global _rich_words
    import rich._wrap

    if rich._wrap.words is not words:
        _rich_words = rich._wrap.words
        rich._wrap.words = words
