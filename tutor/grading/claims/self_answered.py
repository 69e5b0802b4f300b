"""Questions a candidate asks and answers at once: "Who? rank 213. Why? its node throttles." and
"what does nvidia-smi measure? the share of time a kernel ran". Read as questions, the clause that
asks states nothing and the answer after it has lost its subject, so a Q&A layout stated nothing
but its bare answers (round 14, 2026-12-06). Here a short question followed by a statement is
the label of that statement, as "Who: rank 213" is; and a question in brackets inside a sentence
("Util is time-based (was any kernel running?)") glosses it, it does not make the sentence a
question. Only for statements graded as statements (open steps, a diagnosis): a clarify step's
"Tokens? I'd assume 15T" asks, and its asked points read the text as written.
"""

from __future__ import annotations

import re

# At most this many words (a Chinese character counts as one) in a question read as a label: "What
# did I do?", "为什么是1200？"; a longer one is a question of the answer's own.
LABEL_WORDS = 8
_QUESTION = re.compile(r"(?P<head>(?:^|(?<=[.。!！;；:：\n]))[^.。!！;；:：?？\n]*?)(?P<mark>[?？])(?P<next>[^?？]*?(?:[.。!！;；\n]|$))")
_GLOSSED = re.compile(r"[?？]\s*(?=[)）])")
_WORD = re.compile(r"[\u4e00-\u9fff]|[^\s\u4e00-\u9fff]+")


def as_labels(text: str) -> str:
    """`text` with each short question that is answered right after it made a label (`?` → `:`)
    and the question marks of bracketed glosses dropped; the same text when there is none."""
    if "?" not in text and "？" not in text:
        return text
    text = _GLOSSED.sub("", text)
    return _QUESTION.sub(_labelled, text)


# A question answered yes or no is a guess weighed, not a label: "Input-bound? No — compute-bound" rules the
# input out, which as a label ("Input-bound: no — …") would state it.
_YES_OR_NO = re.compile(r"^\s*(?:no|nope|not|yes|yeah|yep|nah|不|没|是的|对|不对|是)(?![a-z])", re.IGNORECASE)


def _labelled(match: re.Match) -> str:
    head, following = match.group("head"), match.group("next")
    answered = bool(following.strip(" \t.。!！;；\n"))
    if not answered or len(_WORD.findall(head)) > LABEL_WORDS or not head.strip() or _YES_OR_NO.match(following):
        return match.group()
    return head + ("：" if match.group("mark") == "？" else ":") + following
