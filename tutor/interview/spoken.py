"""How long an answer takes to say, and the part of it that fits in the time an interviewer listens.

A typed pitch has no speaking time, so the 30-second pitch (lesson §pitch) is also capped by the
words it would take to say it: an interviewer who asked for thirty seconds stops listening after
thirty, so only what fits is graded. Speaking rates, each from a published measurement:

- English: 150 words a minute. The National Center for Voice and Speech gives about 150 wpm as
  the average rate of US English speakers (quoted by L. B. Marshall, "How fast do I speak?",
  lisabmarshall.com, 2014); S. E. Lucas, The Art of Public Speaking, 8th ed. (McGraw-Hill,
  2004), p. 300, gives 125-150 wpm for speakers in the US. 150 is the top of Lucas's range, the
  pace of an interviewee who has rehearsed; 30 s is 75 words.
- Chinese: 5 syllables a second, one syllable per character. F. Pellegrino, C. Coupé and
  E. Marsico, "A cross-language perspective on speech information rate", Language 87(3),
  539-558 (2011), Table 1: Mandarin 5.18 syllables/s (20 short texts read aloud by native
  speakers; the slowest of the seven languages measured). 5.0 rounds it down, for speech
  composed while speaking rather than read; 30 s is about 150 characters.

A Latin word inside Chinese text (TP, MFU, all-reduce) is said as a word, at the English rate.
Counting is done here by hand: a word is a run of letters and digits (hyphens and dots inside it
kept, so `all-reduce` and `3.35` are one word) and every CJK character is a syllable; no library
is needed for that, and jieba's segmentation would not change the syllable count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EN_WORDS_PER_S = 150 / 60
ZH_CHARS_PER_S = 5.0
_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z0-9]+(?:[-'.’][A-Za-z0-9]+)*")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Spoken:
    """An answer measured as speech against a cap."""

    seconds: float
    """Time to say the whole answer."""
    words: int
    """English words plus Chinese characters."""
    cap_s: float
    kept: str
    """The answer up to where `cap_s` of speech ends (all of it when it fits)."""

    @property
    def cut(self) -> bool:
        return self.seconds > self.cap_s

    def to_json(self) -> dict:
        return {"seconds": round(self.seconds, 1), "words": self.words, "cap_s": self.cap_s, "cut": self.cut,
                "kept_chars": len(self.kept)}


def _cost(token: str) -> float:
    return 1 / ZH_CHARS_PER_S if _CJK.fullmatch(token) else 1 / EN_WORDS_PER_S


def speaking_time(text: str) -> float:
    """Seconds to say `text` at the rates above."""
    return sum(_cost(match.group()) for match in _TOKEN.finditer(text))


def measure(text: str, cap_s: float) -> Spoken:
    """`text` as speech: its length, and the part said before `cap_s` runs out."""
    total, kept_end = 0.0, len(text)
    words = 0
    for match in _TOKEN.finditer(text):
        total += _cost(match.group())
        words += 1
        if total > cap_s + 1e-9 and kept_end == len(text):
            kept_end = match.start()
    return Spoken(total, words, cap_s, text[:kept_end].rstrip())
