"""Ranks said in words, written as digits before a diagnosis is read: "ranks one to three",
"rank zero", "零号", "一到三号"; by position: "the first rank" (rank 0), "the last rank" (the
run's last, from its world size), "the last three ranks", "all but the first", "第一个 rank",
"最后一个 rank"; and "非0号" as "nonzero ranks". Numbers in words go up to eight, the largest
world size of a lab run. A position is read only where it names a rank and nothing else: "the
first rank to fail" is the order of failures (the rank that failed first need not be rank 0),
and "the last rank" is left as it stands when the run's world size is unknown.
"""

from __future__ import annotations

import re

_EN_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_ZH_NUMBERS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
_EN_WORD = "(?:" + "|".join(_EN_NUMBERS) + ")"
_ZH_WORD = "[" + "".join(_ZH_NUMBERS) + "]"
_RANK_NOUN = r"(?:ranks?|gpus?|workers?|process(?:es)?)"

# "rank zero", "ranks one to three", "ranks one, two and three": the numbers after a rank noun, as
# far as they go on; not "ranks two steps later" (a count of something else).
_EN_RUN = re.compile(rf"\b({_RANK_NOUN})\s+({_EN_WORD}(?:\s*(?:,|and|&|to|through|-|–)\s*(?:rank\s+)?{_EN_WORD})*)\b"
                     r"(?!\s+(?:steps?|seconds?|minutes?|times|iterations?|batch(?:es)?|of)\b)", re.IGNORECASE)
# "零号", "一到三号", "一、二、三号": numbers before 号 (not "第一号", an ordinal, nor "统一号").
_ZH_RUN = re.compile(rf"(?<![第统单唯])({_ZH_WORD}(?:\s?(?:到|至|-|–|~|、|和|与)\s?{_ZH_WORD})*)\s?(?=号)")

# A position after the rank noun's article: "the first rank", "the last GPU", "the last three ranks";
# not followed by what makes it an order of events ("the first rank to fail", "the first rank that hangs").
_ORDER_AFTER = r"(?!\s+(?:to|that|which|who|whose|where|when|in\s+line)\b)"
_POSITION = re.compile(rf"\bthe\s+(first|last)\s+(?:({_EN_WORD}|\d)\s+)?({_RANK_NOUN})\b{_ORDER_AFTER}", re.IGNORECASE)
# After "all but", "every rank except", …: "the first" alone is a rank ("all but the first").
_EXCEPT_POSITION = re.compile(r"\b((?:but|except(?:\s+for)?|other than|apart from|besides|save)\s+)the\s+(first|last)"
                              rf"(?:\s+(?:one|{_RANK_NOUN}))?\b{_ORDER_AFTER}", re.IGNORECASE)
# "第一个 rank", "第一张卡", "最后一个rank", "最后一个进程": the noun right after (not "第一个失败的 rank").
_ZH_POSITION = re.compile(r"(第一|最后一)\s?[个张块台]\s?(?:rank|卡|进程|gpu|worker)", re.IGNORECASE)

# "两个 rank（0 和 1）都卡在 recv", "both ranks (0 and 1) wait in recv": the ranks' numbers in brackets
# after the noun name them, as "ranks 0 and 1" does (s33 dfr1: refused).
# So does "那个 rank (5号)", "the rank (r5)" (round 15).
_BRACKETED = re.compile(r"\b(ranks?)\s?[(（]\s?(?:ranks?\s?|r)?(\d(?:\s?(?:,|，|、|和|与|and|&|-|–|to)\s?\d)*)\s?号?\s?[)）]",
                        re.IGNORECASE)

_NOT_ZERO_ZH = re.compile(r"非\s?(?:0\s?号|零号?|rank\s?0)(?:\s?rank)?", re.IGNORECASE)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _EN_NUMBERS.get(word.casefold(), _ZH_NUMBERS.get(word, -1))


def _en_run(match: re.Match) -> str:
    digits = re.sub(_EN_WORD, lambda word: str(_EN_NUMBERS[word.group().casefold()]), match.group(2), flags=re.IGNORECASE)
    return f"{match.group(1)} {digits}"


def _ranks(low: int, high: int) -> str:
    return f"rank {low}" if low == high else f"ranks {low}-{high}"


def numbers_as_digits(text: str, world_size: int | None = None) -> str:
    """The answer with ranks said in words written as digits (a rank is named by number); `world_size`
    (the run's) places "the last rank". "非0号" becomes "nonzero ranks": its 非 is no negation of the
    place the clause puts them in."""
    text = _BRACKETED.sub(r"\1 \2 ", _EN_RUN.sub(_en_run, text))
    if "号" in text:
        text = _ZH_RUN.sub(lambda match: re.sub(_ZH_WORD, lambda word: str(_ZH_NUMBERS[word.group()]), match.group(1)),
                           text)

    def position(first: bool, count: int) -> str | None:
        if first:
            return _ranks(0, count - 1)
        return _ranks(world_size - count, world_size - 1) if world_size and count <= world_size else None

    def said(match: re.Match) -> str:
        count = _number(match.group(2)) if match.group(2) else 1
        # "process" ends in an s and is one ("the first process", s33 round 3: refused as no set)
        plural = match.group(3).casefold() in ("ranks", "gpus", "workers", "processes")
        if count < 1 or plural != (match.group(2) is not None):
            return match.group()  # "the first ranks", "the first three rank": no clear set
        return position(match.group(1).casefold() == "first", count) or match.group()

    text = _POSITION.sub(said, text)
    text = _EXCEPT_POSITION.sub(
        lambda match: match.group(1) + (position(match.group(2).casefold() == "first", 1) or match.group()[len(match.group(1)):]),
        text)
    if "第一" in text or "最后一" in text:
        text = _ZH_POSITION.sub(lambda match: (position(match.group(1) == "第一", 1) or match.group()) + " ", text)
    return _NOT_ZERO_ZH.sub(" nonzero ranks ", text) if "非" in text else text


# "GPU 1", "worker 1", "process 1", "device 1": a rank by another name, in a lab run on one machine
# where each process drives one device; not a count ("8 GPUs") nor a measure ("GPU 0 at 40%" keeps
# its rank, the number after it is not read here).
_RANK_SYNONYM = re.compile(r"\b(?:gpus?|workers?|process(?:es)?|procs?|devices?)\s?#?(\d)\b(?![.,]\d)", re.IGNORECASE)


def rank_synonyms(text: str) -> str:
    """The answer with "GPU 1", "worker 1", "process 1" written "rank 1", the word a perf lab's
    rubric puts its ranks in ("worker 1 computes longer every step")."""
    return _RANK_SYNONYM.sub(lambda match: f"rank {match.group(1)}", text)


# "the other three", "the remaining 3 ranks", "all three others", "其余三个", "另外两个 rank": how many
# "the others" are, where the answer says it.
_OTHERS_COUNT = re.compile(rf"\b(?:other|remaining)\s+({_EN_WORD}|\d+)\b|\b({_EN_WORD}|\d+)\s+others\b|"
                           rf"(?:其余|其他|其它|另外|剩下|余下)的?\s?({_ZH_WORD}|\d+)\s?个", re.IGNORECASE)


def others_count(text: str) -> int | None:
    """How many ranks "the others" of a clause are said to be; None when it gives no count."""
    found = _OTHERS_COUNT.search(text)
    return _number(next(group for group in found.groups() if group)) if found else None


# A rank said as a device or a process: "GPU 0", "worker 0", "process 0", "workers 1-3". Not
# "0号卡": there the 卡 is as often the verb ("0号卡在 all_gather"), and "0号" is a rank already.
_DEVICE_RANK = re.compile(r"\b(?:gpu|worker|process|proc)\s?(\d+)(?![\w.])|\b(?:gpus|workers|processes|procs)\s?(?=\d)",
                          re.IGNORECASE)


def as_ranks(text: str, world_size: int | None = None) -> str:
    """The answer with every rank written "rank N" (`numbers_as_digits`, then a device or a process
    said for its rank), for the parts of a hang diagnosis whose rubric names ranks as ranks: "only
    GPU 0 calls evaluate", "evaluate is called by the first process alone", "只有零号调用" say
    "only rank 0" (s33 round 3: refused, where "only rank 0 calls it" passed)."""
    return _DEVICE_RANK.sub(lambda match: f"rank {match.group(1)}" if match.group(1) else "ranks ",
                            numbers_as_digits(text, world_size))


# "waits for ranks 1-3, which are in the gradient all-reduce": a relative clause places the ranks it
# follows, as a sentence of their own does ("ranks 1-3 are in the gradient all-reduce"; s33 dfr1:
# refused, the place read as rank 0's).
_RELATIVE_PLACE = re.compile(r"\b(ranks?\s\d(?:\s?(?:-|–|,|and|to)\s?\d)*),?\s(?:which|who)\s"
                             r"(?=(?:are|is|were|was|wait|waits|sit|sits|hang|hangs|block|blocks|are\sstill)\b)",
                             re.IGNORECASE)


def relative_places(text: str) -> str:
    """The answer with a rank's relative clause of place made its own sentence."""
    return _RELATIVE_PLACE.sub(r"\1. \1 ", text) if "which" in text or "who" in text else text


# "the thread sits in queue.get forever, the interpreter waits on it at exit. thats rank 1, the upload rank": the
# rank named after its place, by a pronoun that points back to the sentence before (round 15, 2026-12-06: a right
# exit-hang post-mortem read as rank 1 placed nowhere). The rank goes in front of that sentence, as its subject,
# where that sentence names no rank of its own; the pointing sentence stays ("That's rank 1 at step 4" says more).
_NAMED_AFTER = re.compile(r"(?:(?<=[.;!?])\s+|(?<=[。；！？])\s*)(?:that['’]?s|that\sis|this\sis|this['’]?s|which\sis|那是|这是|这个是|就是)\s?"
                          r"((?:the\s)?ranks?\s?\d+(?:\s?(?:-|–|,|and|to)\s?\d+)*|r\d+|\d+\s?号)(?=[\s,.;:，。；：(（]|$)",
                          re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;!?]\s|[。；！？]")
_ANY_RANK = re.compile(r"\b(?:ranks?|r|gpu|device|process)\s?\d|\d\s?号", re.IGNORECASE)  # "GPU 1 has …": its own


def named_after(text: str) -> str:
    """The answer with a rank named after its sentence ("… at exit. that's rank 1") put before it."""
    for match in reversed(list(_NAMED_AFTER.finditer(text))):
        # the sentence before: from the end of the one before it (the match starts after its own full stop)
        ends = [end.end() for end in _SENTENCE_END.finditer(text, 0, match.start() - 1)]
        start = ends[-1] if ends else 0
        sentence = text[start:match.start()].strip()
        if not sentence or _ANY_RANK.search(sentence):
            continue
        text = text[:start] + f"{match.group(1)}: {sentence} " + text[match.start():].lstrip()  # the pointer kept
    return text
