"""Plain text shown inside the app's Markdown panes exactly as it was written.

A grader's feedback is plain text (the CLI prints it as is) and it quotes what the learner typed:
`Could not find a number in '# big [x](y)'`. Put into a Markdown widget as it stands, that quote
became a heading, a link, bold or code (issue 17, L3). Here every ASCII punctuation character is
backslash-escaped, which CommonMark defines for exactly this (any ASCII punctuation may be escaped,
and an escaped one is always literal), and each line of the text stays a line of its own (hard
breaks: a checklist no longer runs together into one paragraph, walkthrough polish 10).
Written by hand because markdown-it-py, which Textual renders with, has no escaping function.
"""

from __future__ import annotations

import re
import string

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")


def escape(text: str) -> str:
    """One line of plain text as Markdown that renders to the same characters."""
    return _PUNCTUATION.sub(r"\\\1", text)


def lines(text: str) -> str:
    """Plain text of several lines as Markdown: each line escaped, each kept apart (hard breaks);
    leading spaces dropped, so no line is read as indented code."""
    kept = [escape(line.strip()) for line in (text or "").splitlines() if line.strip()]
    return "  \n".join(kept)


def verdict(verdict: dict) -> dict:
    """A verdict dict (`Verdict.to_json()`) whose feedback is safe to hand to a Markdown renderer."""
    feedback = verdict.get("feedback")
    if not isinstance(feedback, dict):
        return verdict
    return {**verdict, "feedback": {lang: lines(value) if isinstance(value, str) else value
                                    for lang, value in feedback.items()}}
