"""Clauses that ask rather than state, and the question pasted back: question words in English
and Chinese, and the prompt's content words an answer is compared with.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tutor.grading.claims.folding import _CJK, _words, fold
from tutor.grading.claims.term_lists import _is_function
from tutor.grading.normalize import LONG_LIMIT, clean

COPY_SHARE = 0.8


_ALTERNATIVE = re.compile(r"^\s*(?:what|which|how|when|where|who|why|is|are|does|do)\b|\bor\b|还是", re.IGNORECASE)
_EN_ASKING = frozenset("what which how when where who why is are does do did can could will would should was were has have".split())
_ZH_ASKING = re.compile(r"吗|是否|有没有|还是|多少|什么|哪|几|多大|多长|多久|怎么|多少")
ASK_VERBS = re.compile(r"\b(?:ask|asking|clarify|want to know|need to know|find out|confirm)\b|问|确认|了解|搞清楚|弄清楚|确定一下",
                       re.IGNORECASE)


def _asks(raw: str, words: list[str]) -> bool:
    """A clause that asks: starts with a question word, or (Chinese) holds one."""
    if not words:
        return False
    return words[0] in _EN_ASKING or bool(_CJK.search(raw) and _ZH_ASKING.search(raw))


def _content_words(words: list[str]) -> set[str]:
    return {word for word in words if not _is_function(word)}


@lru_cache(maxsize=256)
def _prompt_words(prompts: tuple[str, ...], chinese: bool = True) -> frozenset[str]:
    """The question's content words, read once per question (every answer to it is compared).
    `chinese=False` for an answer with no Chinese in it: the prompt's Chinese words cannot be among
    its words, so they are not segmented (that would load jieba, ~1.7 CPU-s, for an English answer)."""
    words: set[str] = set()
    for prompt in prompts:
        folded = fold(clean(prompt[:LONG_LIMIT], LONG_LIMIT))
        if not chinese:
            folded = " ".join(run for run in folded.split(" ") if not _CJK.search(run))
        words |= _content_words(_words(folded))
    return frozenset(words)
