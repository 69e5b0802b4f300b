"""The ranks an answer names, written as people write them: "rank 0", "r0", "0号", "ranks 1-3",
"r1–r3", "1到3号", "ranks 0, 2 and 3", "all ranks except rank 0" (ranks said in words are digits by
then: `rank_words`); the ranks a clause is about (its subject, not a rank it mentions after
"because"), and those it names only to clear them ("rank 0 is not the problem"). Read by the
run's diagnosis (`tutor.labs.run_diagnosis`).
"""

from __future__ import annotations

import re

from tutor.grading.claims.rank_words import others_count

# Ranks as people name them: "rank 0", "r0", "0号", "ranks 1-3", "r1–r3", "1到3号", "1号到3号", "ranks 0, 2 and 3".
# A range or list after "workers" or "processes" too, as after "ranks" ("workers 1-3"; s33 round 3:
# "worker 0 … workers 1-3 …" had the others unplaced, while "worker 0" was a rank already).
# Word edges by ASCII, not \b: in "rank0卡住" or "其余rank1" a CJK character is a word character too.
_RANGE = re.compile(r"(?:(?:(?<![A-Za-z0-9_])|(?<=local_))(?:ranks?|r|gpus?|workers?|process(?:es)?|procs?)\s?)#?(\d+)\s?(?:-|–|~|\.\.\.?|…|to|through|至|到)\s?(?:r|rank)?\s?#?(\d+)(?![A-Za-z0-9_])|"
                    r"(?<![A-Za-z0-9_.])(\d+)\s?(?:号\s?)?(?:-|–|~|到|至)\s?(\d+)\s?号", re.IGNORECASE)
# "rank0/2/3", "r0/r2/r3": a slash list, as people type it
_LIST = re.compile(r"(?<![A-Za-z0-9_])(?:ranks|gpus|workers|processes)\s+[\[{(]?\s?(\d+(?:\s*(?:,|and|&|、|和)\s*(?:rank\s*)?\d+)+)|"
                   r"(?<![A-Za-z0-9_])(?:ranks?|r)\s?(\d+(?:\s?/\s?(?:ranks?|r)?\s?\d+)+)(?![A-Za-z0-9_])|"
                   r"(?<![A-Za-z0-9_.])(\d+(?:\s*[、,，和与及/]\s*\d+)+)\s?号|"
                   # "rank 1、2、3", "GPU 1, 2 and 3", "卡1、2、3": a list after a singular prefix, as people type it;
                   # not "rank 0, 2 seconds later" (a number with a unit is no rank), and the whole list or none
                   r"(?<![A-Za-z0-9_])(?:rank|r|gpu|卡)\s?(\d+(?:\s*(?:,|，|、|和|与|及|&|and)\s*(?:rank\s?|r|gpu\s?|卡)?\d+)+)"
                   r"(?![\d.]|\s*(?:,|，|、|和|and)\s*\d|\s?(?:seconds?|secs?|s|ms|min|minutes?|steps?|iterations?|"
                   r"gb|gib|mb|mib|kb|x|times|%|秒|步|分钟|个|次|倍)(?![A-Za-z]))", re.IGNORECASE)
# "第4步" is a step, "第0个 rank" a rank, "第10个batch" a batch; "其他rank 36篇" counts documents.
# As torchrun and code write them too: "local_rank: 1", "rank=1", "rank_1", "proc 1".
_SINGLE = re.compile(r"(?:(?:(?<![A-Za-z0-9_])|(?<=local_)|(?<=global_))(?:ranks?|r|gpu|worker|process|proc|卡)\s?(?:[#=:_(]\s?)?(\d+)(?![A-Za-z0-9_.])(?!\s?(?:篇|个|步|次|秒|份|条|层|倍|%|"
                     r"(?:docs?|documents?|batch(?:es)?|steps?|seconds?|secs?|ms|tokens?|gb|mb)(?![A-Za-z])))|"
                     # "2号process group", "1号进程组": a group's number, not a rank
                     r"(?<![A-Za-z0-9_.])(\d+)\s?号(?!\s?(?:process\s?groups?|进程组|通信组|pg\b|groups?\b|组))|"
                     # not "第 6 个 rank0 是 all_gather": the ordinal before a rank with its own number counts something else
                     r"第\s?(\d+)\s?个\s?(?=(?:rank|卡|gpu)(?!\s?\d)|进程|worker|节点|stage|$))", re.IGNORECASE)
# "All ranks except rank 0", "everyone but r0", "除了0号以外的rank": the complement of the ranks after it.
_EXCEPT = re.compile(r"\b(?:(?:all|every|each)\s+(?:(?:other|the)\s+)?(?:ranks?|gpus?|workers?)|everyone|everybody|all)\s+"
                     r"(?:except(?:\s+for)?|but|other than|apart from|besides|save)\s|除了|除(?=\s?(?:rank\s?|r)?\d)",
                     re.IGNORECASE)
# After "except" a bare number is a rank: "all ranks but 0", "every rank other than 1 and 2".
_BARE_NUMBERS = re.compile(r"^\s*(\d+(?:\s*(?:,|and|&|、|和|/)\s*\d+)*)(?![\d.])")
# A clause that opens with bare rank numbers after an earlier clause named a rank: "rank 0 hangs in
# evaluate; 1,2,3 are in backward", "1-3 already moved on". Two numbers or more, then a verb or a
# place: a lone "3 are stuck" counts ranks, and "1-2 seconds later" is no rank.
_LEAD = re.compile(r"^\s*(?:(?:and|while|whereas|but|meanwhile)\s+)?(\d+)\s?(?:(?:-|–|~|to|through|到|至)\s?(\d+)|"
                   r"((?:\s*(?:,|，|、|/|&|and)\s*\d+)+))(?=\s*(?:(?:are|were|is|have|had|already|all|both|wait|waits|"
                   r"waiting|sit|sits|hang|hangs|hung|block|blocks|blocked|stay|stays|went|moved|move|go|get|got|keep|"
                   r"kept|still|stuck|in|at|reached|passed|finished|enter|entered|ran|run|left|exited|stopped|never|did)\b|在|卡|都|已经|还|停|等|进))",
                   re.IGNORECASE)


def _rank_number(text: str) -> re.Match | None:
    """The first rank named by number: "rank 3", "ranks 1-3", "ranks 0, 2 and 3", a leading "1,2,3 are …"."""
    return _SINGLE.search(text) or _RANGE.search(text) or _LIST.search(text) or _LEAD.match(text)


def _lead_ranks(text: str, world_size: int) -> set[int]:
    lead = _LEAD.match(text)
    if lead is None:
        return set()
    first = int(lead.group(1))
    ranks = (set(range(first, int(lead.group(2)) + 1)) if lead.group(2)
             else {first, *(int(number) for number in re.findall(r"\d+", lead.group(3)))})
    return ranks if max(ranks) < world_size and len(ranks) > 1 else set()


# "the non-zero ranks", "ranks > 0", "非0号": every rank but rank 0.
_NONZERO = re.compile(r"\bnon[- ]?zero(?:\s|-)ranks?\b|\branks?\s?(?:>|!=|≠)\s?0(?![\d.])|非\s?(?:0\s?号|零号?|rank\s?0)",
                      re.IGNORECASE)
_ALL = re.compile(r"\b(?:every|each|all)\s+(?:other\s+)?ranks?\b|\ball\s+(?:the\s+)?(?:two|three|four|eight|\d+\s)?\s?ranks\b|"
                  # "all four stuck in the same all_reduce": the count alone, before where they are
                  # ... or as the label of a note ("all 4: all_reduce @ train.py:70"); a lone "all" opening
                  # the clause before where they are ("all at train.py:70 all_reduce", round 15)
                  r"\ball\s+(?:two|three|four|eight|\d+)\s?[:,]|^all(?=\s+(?:at|in|stuck|wait|waiting|hang|hung|blocked|sit|"
                  r"sitting|time\s+out|timed\s+out)\b)|"
                  r"\ball\s+(?:two|three|four|eight|\d+)(?=\s+(?:are|were|of them|stuck|wait|waits|waiting|sit|sitting|"
                  # "… and all four time out at step 0 at train.py:70"
                  r"hang|hung|block|blocked|in|at|time|times|timed|fail|failed|die|died)\b)|"
                  # "the stacks all look identical, same all_reduce": every rank's stack
                  r"\b(?:all|every|each)\s+(?:the\s+)?(?:rank['’]?s\s+)?stacks?\b|\bthe\s+stacks\s+(?:all|are\s+all)\b|"
                  # "They all sit in the gradient all_reduce", "all of them wait": no rank named before it in the clause
                  r"\bthey\s+(?:are\s+|were\s+)?all\b|\ball\s+of\s+them\b|"
                  r"所有\s?(?:\d+\s?个\s?)?rank|每个\s?rank|全部|[两四八\d]\s?个\s?rank都",
                  re.IGNORECASE)
# "the others" said other ways: "its peers", "the survivors", "the remaining three", "另外三个" (not "另外，" = "besides",
# nor "the other branch": a code path, not ranks)
_OTHERS = re.compile(r"\b(?:the\s+)?(?:others?(?!\s+(?:branch|branches|thread|threads|side|sides|way|ways|group|groups|call|calls|"
                     r"collective|collectives|line|lines|loop|half|buffer|tensor|order|function|path|paths|one|value|values)\b)|other ranks|the rest|remaining ranks|everyone else|everybody else|peers|"
                     r"survivors|surviving ranks|remaining (?:three|two|\d+)|rest(?=\s(?:are|is|wait|waits|sit|sits|hang|hangs|block|blocks|"
                     r"stay|stays|in|at)\b))\b|其他|其它|其余|别的|剩下|余下|"
                     r"另外(?=\s?(?:[两三四五六七几\d]|的|rank|卡|进程))|"
                     # "另一张卡在 backward 里等 all_reduce": the other one of two (s37 fresh batch)
                     r"另一(?:张|个|台|块)?\s?(?:卡|rank|进程|gpu)|另一边", re.IGNORECASE)
_BOTH = re.compile(r"\bboth\b|\beach other\b|\b(?:the\s)?two\s(?:ranks|stages|processes|workers|gpus)\b|互相|两个|两边|都",
                   re.IGNORECASE)


# "process 1 and the other three are in different process groups", "rank 1 and everyone else": the
# named ranks and the rest of them, every rank
_AND_THE_REST = re.compile(r"(?:\b(?:ranks?|r|gpus?|workers?|process(?:es)?)\s?\d+|\d+\s?号)\s*(?:,\s*)?(?:and|&|和|与)\s+"
                           r"(?:all\s+)?(?:the\s+)?(?:others\b|other\s+(?:ranks|gpus|workers|processes|two|three|\d+)\b|rest\b|"
                           r"everyone else\b|everybody else\b|remaining (?:ranks|two|three|\d+)\b)|"
                           r"\d+\s?号(?:卡|rank)?\s?(?:和|与|跟)\s?(?:其他|其它|其余|别的)", re.IGNORECASE)


def rest_as_every_rank(text: str, world_size: int) -> str:
    """The answer with "rank 1 and the other three" written as every rank, before it is cut into clauses
    (cut at its "and", the two halves would be read as rank 1 alone)."""
    return _AND_THE_REST.sub(f"ranks 0-{world_size - 1}", text) if world_size > 1 else text


def about_the_others(text: str) -> bool:
    """The clause is about "the others": they come before any rank named by number."""
    others, number = _OTHERS.search(text), _rank_number(text)
    return others is not None and (number is None or others.start() < number.start())


def opens_on_the_others(text: str) -> bool:
    """The clause starts with "the others" in any of their words ("the rest in backward", "其余三个在…")."""
    return bool(_OTHERS.match(text))


def every_rank_first(text: str) -> bool:
    """The clause opens with every rank as its subject: "every rank's all_reduce goes to …", "they all sit in …"."""
    return bool(_ALL.match(text))


def named_ranks(text: str, world_size: int) -> set[int] | None:
    """The ranks a clause names, as a set; None when it names none by number."""
    excepted = _EXCEPT.search(text)
    if excepted:
        after = text[excepted.end():]
        bare = _BARE_NUMBERS.match(after)
        left_out = {int(number) for number in re.findall(r"\d+", bare.group(1))} if bare else named_ranks(after, world_size)
        if left_out:
            return set(range(world_size)) - left_out or None
    found = _lead_ranks(text, world_size)
    if _NONZERO.search(text):
        found |= set(range(1, world_size))
        text = _NONZERO.sub(" ", text)
    rest = text
    for match in _RANGE.finditer(text):
        low, high = (int(g) for g in (match.group(1) or match.group(3), match.group(2) or match.group(4)))
        if low <= high < 4096:
            found |= set(range(low, high + 1))
    rest = _RANGE.sub(" ", rest)
    for match in _LIST.finditer(rest):
        found |= {int(number) for number in re.findall(r"\d+", match.group(1) or match.group(2) or match.group(3)
                                                        or match.group(4))}
    rest = _LIST.sub(" ", rest)
    for match in _SINGLE.finditer(rest):
        found.add(int(match.group(1) or match.group(2) or match.group(3)))
    if not found and _ALL.search(text) and not _OTHERS.search(text):
        # "every rank" beside named ranks is about the rule or the fix ("r1-3 in all_gather. Make
        # every rank gather first"), not a rank set
        found |= set(range(world_size))
    return found or None


# Where a clause turns from its subject to another rank: "ranks 1-3 wait in all_reduce because
# rank 0 is gone", "1-3号在等0号".
_TURN = re.compile(r"\b(?:because|after|since|until|till|for|than|from|on|as|when|once)\b|因为|直到|等待?|由于", re.IGNORECASE)


# The halves of a mutual wait, and the words between a waiting rank and the rank it waits for.
_HALVES = re.compile(r"\s(?:and|while|whereas)\s|[,;]|而")
_WAITS_FOR = re.compile(r"\b(?:for|on)\b|等待?着?", re.IGNORECASE)


def mutual_ranks(text: str, world_size: int) -> set[int] | None:
    """ "rank 0 waits for rank 1 and rank 1 for rank 0", "0号等1号，1号等0号": the two ranks, each
    waiting for the other; None unless one half is the other turned round."""
    waits = []
    for half in _HALVES.split(text):
        number = _SINGLE.search(half) or _RANGE.search(half) or _LIST.search(half)
        turn = _WAITS_FOR.search(half, number.end()) if number else None
        if turn is not None:
            waits.append((named_ranks(half[:turn.start()], world_size), named_ranks(half[turn.end():], world_size)))
    for (head, target), (next_head, next_target) in zip(waits, waits[1:]):
        if head and target and head == next_target and target == next_head and not head & target:
            return head | target
    return None


def subject_ranks(text: str, world_size: int) -> set[int] | None:
    """The ranks a clause is about: None when it starts from "the others" ("the others wait in the
    all-reduce and die only after rank 0 did" is about the others, not rank 0) or names none; the
    ranks named before it turns to another rank ("ranks 1-3 ... only failed because rank 0 was
    gone" is about ranks 1-3)."""
    both = mutual_ranks(text, world_size)
    if both:
        return both
    others = _OTHERS.search(text)
    number = _rank_number(text)
    excepted = _EXCEPT.search(text)
    if excepted and (number is None or excepted.start() < number.start()):
        return named_ranks(text, world_size)  # "every rank other than 0 waits": not "the others"
    if others and (number is None or others.start() < number.start()):
        return None
    if number is not None:
        turn = _TURN.search(text, number.end())
        if turn is not None:
            head = named_ranks(text[:turn.start()], world_size)
            if head:
                return head
    return named_ranks(text, world_size)


# A rank named only to be cleared ("Rank 0 is not the problem", "0号没问题"): the clause names no
# culprit, and clearing the culprit is the diagnosis said the other way round. Only a dismissal right
# after the rank: "rank 0 is not in the all-reduce" places it, "rank 1 never arrives" accuses it.
_CLEARED = re.compile(r"^\s*(?:(?:is|are|was|were|seems?|looks?)\s?(?:not|n['’]t)|(?:is|are|was|were)\s+never)\s+"
                      r"(?:really\s+|actually\s+)?(?:the\s+|a\s+|an\s+|at\s+)?(?:problem|culprit|cause|issue|reason|"
                      r"fault|to blame|involved|responsible|one)\b|"
                      r"^\s*(?:is|are|was|were|seems?|looks?)\s+(?:fine|ok|okay|healthy|innocent|normal|not the problem)\b|"
                      r"^\s*(?:是|也)?\s?(?:没问题|没有问题|没事|不是问题|不是原因|不是罪魁|不是元凶|无关|没关系|是正常的|正常)",
                      re.IGNORECASE)


def cleared_ranks(text: str) -> set[int]:
    """The ranks a clause names only to clear them."""
    cleared: set[int] = set()
    for pattern in (_RANGE, _LIST, _SINGLE):
        for match in pattern.finditer(text):
            if _CLEARED.match(text[match.end():]):
                cleared |= named_ranks(match.group(), 1 << 12) or set()
    return cleared


# "… and waited for the other three", "blocked on the others": the others as what is waited for.
_BEFORE_OBJECT = re.compile(r"\b(?:for|with|from|on|than|to|by)\s+$", re.IGNORECASE)


def others_as_object(text: str) -> bool:
    """Names "the others" only after a preposition: what the clause's subject (often "it", the rank
    of the clause before) waits for or talks to, not who the clause is about."""
    found = list(_OTHERS.finditer(text))
    return bool(found) and all(_BEFORE_OBJECT.search(text[:others.start()]) for others in found)


def names_exactly(ranks: list[int], text: str, world_size: int, majority: bool) -> bool:
    """Whether `text` names exactly this group: its ranks as a set (naming more is not naming
    them), or, for the majority, "the others"."""
    named = subject_ranks(text, world_size)
    if named is not None:
        return named == set(ranks)
    if majority and _OTHERS.search(text) and not others_as_object(text):
        # "the other two" where three ranks are the others names the wrong set; the count is read beside
        # the others the clause is about, not from a later "the other one" ("the others … got stuck in
        # the all-reduce, two collectives, each waiting for ranks that are in the other one": a
        # collective, s35 df6a: read as one other rank)
        subject = next(others for others in _OTHERS.finditer(text)
                       if not _BEFORE_OBJECT.search(text[:others.start()]))
        return others_count(text[max(0, subject.start() - 16):subject.end() + 16]) in (None, len(ranks))
    return len(ranks) > 1 and len(ranks) == world_size and bool(_BOTH.search(text))


def numbered(unit: str) -> bool:
    """Names ranks by number ("rank 3", "the non-zero ranks"), not "every rank" (a fix: "所有rank先gather再broadcast")."""
    return bool(_rank_number(unit) or _NONZERO.search(unit))


def mentions_ranks(text: str) -> bool:
    """Names a rank, a set of ranks, "the others" or "both"."""
    return bool(_rank_number(text) or _OTHERS.search(text) or _BOTH.search(text) or _NONZERO.search(text))
