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

import re
from typing import Iterable

CJK = "\u2e80-\u2fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
OPEN = "（「『《【〔“‘"
CLOSE = "，。；：、）」』》】〕！？…—”’％"
_HAS_CJK = re.compile(f"[{CJK}{OPEN}{CLOSE}]")
_WORD = re.compile(r"\s*\S+\s*")
_UNIT = re.compile(f"[{OPEN}]*(?:[{CJK}]|[^\\s{CJK}{OPEN}{CLOSE}]+|[{OPEN}{CLOSE}])[{CLOSE}]*")


def words(text: str) -> Iterable[tuple[int, int, str]]:
    """Rich's `words` (start, end, word with the spaces around it), with Chinese runs split into
    units that may each start a line."""
    for match in _WORD.finditer(text):
        start, end = match.span()
        word = match.group(0)
        if not _HAS_CJK.search(word):
            yield start, end, word
            continue
        core_start = start + len(word) - len(word.lstrip())
        core_end = end - (len(word) - len(word.rstrip()))
        cuts = [unit.start() for unit in _UNIT.finditer(text, core_start, core_end)][1:]
        bounds = [start, *cuts, end]
        for left, right in zip(bounds, bounds[1:]):
            yield left, right, text[left:right]


_installed = False


def install() -> None:
    """Make Rich's line division (and so Textual's) use `words`; idempotent."""
    global _installed
    if _installed:
        return
    import rich._wrap

    rich._wrap.words = words
    _installed = True
