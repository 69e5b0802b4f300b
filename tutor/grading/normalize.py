"""Learner text, made safe and comparable before any grader looks at it.

Every grader first bounds the input (length caps, checked before any other work, so a 1 MB
paste costs nothing), then folds widths and compatibility forms with NFKC (full-width `３９ＧＢ`
and `，` become `39GB` and `,`), turns control characters into spaces and maps the typographic
operators learners paste (−, ×, ÷, ·) to one spelling each.
"""

from __future__ import annotations

import re
import unicodedata

from tutor.grading.verdict import Message

# Caps per kind of answer: a number or a formula is short; an open answer is a few paragraphs.
SHORT_LIMIT = 400
LONG_LIMIT = 20_000

# NFKC would turn `10²⁵` into `1025`; superscripts become `^25` first.
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+")
_SPACES = re.compile(r"\s+")
_OPERATORS = str.maketrans({"−": "-", "–": "-", "—": "-", "‐": "-", "‑": "-", "∗": "*", "⋅": "·",
                            "∙": "·", "⁄": "/", "∕": "/"})


class TooLong(ValueError):
    """The answer is longer than any sensible answer of its kind."""

    def __init__(self, length: int, limit: int):
        super().__init__(f"{length} characters; at most {limit}")
        self.message = Message(
            f"That answer is {length:,} characters long; an answer here has at most {limit:,}.",
            f"答案有 {length:,} 个字符，这里最多 {limit:,} 个。",
        )


def clean(text: object, limit: int = SHORT_LIMIT) -> str:
    """`text` folded (NFKC), control characters as spaces, spaces collapsed; TooLong past `limit`."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if len(text) > limit:
        raise TooLong(len(text), limit)
    text = _SUPERSCRIPT_RUN.sub(lambda match: "^" + match.group().translate(_SUPERSCRIPTS), text)
    if limit >= LONG_LIMIT and "\n" in text:
        text = _NOTE_LINE.sub(_note_line, _LIST_LINE.sub("; ", text).removeprefix("; "))
    text = _ASCII_CONTROL.sub(" ", unicodedata.normalize("NFKC", text).translate(_OPERATORS))
    if not text.isprintable():
        # Only text with other control, format, surrogate or private-use characters pays for the
        # per-character look-up (every such character is non-printable, so printable text has none).
        text = "".join(" " if unicodedata.category(char) in _CONTROL else char for char in text)
    return _SPACES.sub(" ", text).strip()


_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# In free text, a line that starts as a list item ("- rank 0: …", "2) …", "3. …", "①…") ends the
# statement before it, which has no full stop of its own; other line breaks are spaces (a pasted
# paragraph wraps anywhere).
# So does a line that opens with a label ("the other three: done with the loop, …", "why: …", "fix (rank 0): …",
# "原因：…") and a blank line (round 15: chat-style post-mortems, one part per line, were read as one
# sentence, each label the subject of the line before).
_LIST_LINE = re.compile(r"(?:\A|[ \t]*\n)\s*(?:[-*•]\s+|\d{1,2}[.)、](?!\d)\s*|[\u2460-\u2473]\s*)|"
                        r"[ \t]*\n(?=[ \t]*(?:[^\W\d][\w'’./-]*(?:[ \t]+[\w'’./-]+){0,3}|[\w'’ ./-]{1,20}\([^()\n]{1,20}\))[ \t]*[:：])|"
                        r"[ \t]*\n[ \t]*\n\s*")
# ... and, in notes typed a line each, a line that opens with an arrow or with the ranks it is about ("rank3 ->
# evaluate -> barrier / everyone else -> backward -> allreduce"), unless the line before ends mid-phrase ("… while /
# rank 3 waits" wraps a sentence).
_NOTE_LINE = re.compile(r"(\S*)[ \t]*\n(?=[ \t]*(?:=>|->|→|(?:ranks?|r)\s?\d|everyone|everybody|the\s+others?\b|others\b|"
                        r"the\s+rest\b))", re.IGNORECASE)
_MID_PHRASE = frozenset({"a", "and", "as", "at", "because", "but", "by", "for", "from", "in", "of", "on", "or", "so", "than",
                         "that", "the", "to", "while", "with"})


def _note_line(match: re.Match) -> str:
    last = match.group(1)
    wrapped = last.casefold() in _MID_PHRASE or last.endswith((",", "("))
    return last + (" " if wrapped else "; ")


_CONTROL = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


_PUNCTUATION = re.compile(r"[^\w\s]|_", re.UNICODE)


def fold(text: str) -> str:
    """For rubric matching: cleaned, case-folded, punctuation and hyphens as spaces."""
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", text.casefold())).strip()
