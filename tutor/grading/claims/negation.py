"""Negation cues and their reach: which words negate (not, never, without, 不, 没, 并非 …; not
不同 or 差不多, not the A-not-A question), and whether a cue in a fragment negates a claim
matched in it: before its last words, or after them when it dismisses them; not when it bounds a
comparison ("no more than once per step"), ends with its own verb phrase or condition, or
cancels another as a double negative.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tutor.grading.claims.folding import _CJK, _CJK_CHAR, _words_with_positions

if TYPE_CHECKING:
    from tutor.grading.claims.model import Fragment


# "skip X" dismisses X ("skip checkpoints and monitoring"); a rubric point whose claim is to drop
# something lists the word in its own concept, which then keeps its meaning.
# "rather than X" and "instead of X" reject X as "not X" does ("each rank writes its own shard
# instead of gathering everything on rank 0").
# A speaker who stopped doing something denies doing it: "we stopped fixing it with a longer timeout", "I quit
# bumping the timeout", "they gave up on restarting" (round 7, 2026-12-04: a right story's last word against the
# raise was read as the raise). Only with a person as subject and a gerund after: "the job stopped responding" and
# "the hangs stopped" are events, not denials.
_STOPPED_VERBS = r"stopped|quit|gave\sup(?:\son)?"
_EN_STOPPED_DOING = (r"(?:(?<=\bwe\s)|(?<=\bi\s)|(?<=\bthey\s)|(?<=\bteam\s)|(?<=\bpeople\s))"
                     rf"(?:{_STOPPED_VERBS})(?=\s\w+ing\b)|")
_STOPPED = re.compile(_STOPPED_VERBS)
# A fix said after it to make no difference: "a longer timeout changes nothing", "... is the same hang", "it
# hangs anyway" (round 14, 2026-12-06: a right post-mortem's last word against the raise was read as the raise).
# These dismiss only what comes before them ("it hangs anyway, rank 0 in the all_gather" says where).
_FUTILE = re.compile(r"(?:changes?|does|fixes|solves|helps|buys|achieves)\snothing|(?:is\s)?(?:the\s)?same\shang|"
                     r"hangs?\s(?:anyway|all\sthe\ssame)")
_EN_NEGATION = re.compile(r"\b(?:" + _FUTILE.pattern + "|not|no|never|none|nothing|neither|nor|without|cannot|nobody|nowhere|skip|skips|skipping|"
                          + _EN_STOPPED_DOING +
                          r"rather than|instead of|(?:only|just|merely)\s(?:delays?|postpones?|(?:waits?|hangs?)\slonger|"
                          r"(?:makes?|lets?)\s(?:\w+\s){1,2}(?:wait|hang)\s(?:for\s)?longer|means?\swaiting\slonger))\b")
# "Raising the timeout only delays the same deadlock": a fix dismissed by what it does instead; so is "a
# longer timeout only makes you wait longer" (round 5, 2026-12-03: a right story's pushback on the raise
# was read as the raise).
_DISMISSING_CUE = re.compile(r"(?:only|just|merely)\s(?:\w+|(?:makes?|lets?)\s(?:\w+\s){1,2}(?:wait|hang)\s(?:for\s)?longer|means?\swaiting\slonger)")


_ZH_NEGATION_STARTS = ("不", "没", "别", "未", "勿", "莫")
# A stressed negation jieba keeps with what follows it: "机内带宽并不比机间快" cuts 并不比 as one word (round 6,
# a denial read as the claim).
_ZH_STRESSED_NEGATION = ("并不", "并没", "并未", "毫不", "决不", "绝不")
_ZH_NEGATION_WORDS = frozenset({"无", "无需", "无须", "非", "并非", "绝非", "毫无", "无法", "甭", "无关"})
_ZH_NOT_NEGATION = frozenset({"不同", "不仅", "不断", "不少", "不久", "不过", "不管", "不论", "不但", "不然",
                               "不如", "没错", "别的", "别人", "别处", "未来", "不一样", "不停", "不光", "不得不", "不可或缺",
                               # adjectives: "不固定的 hang 一般不是代码问题" says a varying hang, then denies once
                               "不固定", "不稳定", "不稳", "不均", "不均匀", "不均衡", "不平衡", "不规则"})



# A phrase found inside a Chinese word that negates it is denied: "数据不少" (plenty of data) holds 少, "step 数不一样"
# holds 一样, "不均匀" holds 均匀, "没错" holds 错. The negation scan leaves these words alone (`_ZH_NOT_NEGATION`), since
# "不均匀的数据导致 hang" denies nothing after them; the phrase inside the word is the one thing they do deny (seen in
# the mock, 2026-12-04: "rank 3 的数据并不少" was credited as rank 3 having fewer batches).
_NEGATED_WORD = re.compile(r"[不没](?=" + "|".join(re.escape(word[1:]) for word in sorted(_ZH_NOT_NEGATION, key=len, reverse=True)
                                                   if word[0] in "不没") + ")")


def _inside_negated_word(text: str, spans: list[tuple[int, int]]) -> bool:
    return any(start and _NEGATED_WORD.match(text, start - 1) for start, _ in spans)


_NOT_NEGATED_AFTER_FEI = ("零", "0", " 0", "空")

# The A-not-A question (要不要, 会不会, 是不是, 有没有, 能不能, 可不可以, 需不需要) asks; it negates
# nothing, though jieba cuts it 要|不要 and the second half starts with a negation.
_A_NOT_A = re.compile(rf"([{_CJK_CHAR}])\s?[不没]\s?\1")


# "调大 device memory 只是推迟", "加大超时只会等得更久": a fix dismissed by what it does instead, as
# "only delays" is in English.
_ZH_DISMISSING_CUE = re.compile(r"(?:只是|只会|只能|不过是)\s?(?:让\S{0,4}?)?(?:推迟|延后|延迟|拖延|晚一点|等得更久|等更久|多等)")


# Python's None, the value a post-mortem names ("the thread returns only when it gets None", "close() puts
# None on the queue", "放None的Uploader.close()只在except分支里调用"), denies nothing: after a verb that
# passes or gets a value, before a word naming it an item, or in Chinese, where "none" is never the word
# for "none" (round 6, 2026-12-03: 放None read as a negation denied "close only in except").
_NONE_VALUE = re.compile(r"(?:\b(?:put|puts|putting|send|sends|sent|sending|enqueue|enqueues|enqueued|push|pushes|pushed|"
                         r"return|returns|returned|get|gets|got|receive|receives|received|is|equals|the|a|with|"
                         # code: "writer = MetricsWriter(ctx) if ctx.rank == log_rank else None", "default None"
                         r"else|default|defaults to|set to)\s$)")
_NONE_ITEM = re.compile(r"^\s(?:sentinel|item|value|object|into|onto|in the queue|on the queue|to the queue)\b")


def _none_value(folded: str, match: re.Match) -> bool:
    if match.group() != "none":
        return False
    return bool(_CJK.search(folded) or _NONE_VALUE.search(folded[:match.start()]) or _NONE_ITEM.match(folded[match.end():]))


def _negations(folded: str) -> list[tuple[int, int]]:
    spans = [match.span() for match in _EN_NEGATION.finditer(folded)
             if not _asks_alternative(folded, match) and not _none_value(folded, match)]
    if _CJK.search(folded):
        spans += [match.span() for match in _ZH_DISMISSING_CUE.finditer(folded)]
        asking = [match.span() for match in _A_NOT_A.finditer(folded)]
        for token, start in _words_with_positions(folded):
            if any(low <= start < high for low, high in asking):
                continue
            if token == "非" and folded.startswith(_NOT_NEGATED_AFTER_FEI, start + 1):
                continue  # "cut 非零时": nonzero, a value, not a denial (jieba cuts 非|零时)
            if token.startswith(_ZH_NEGATION_STARTS) and any(folded.startswith(word, start) for word in _ZH_NOT_NEGATION):
                continue  # also where jieba cut the word apart (不|固定)
            if token.startswith(_ZH_NEGATION_STARTS + _ZH_STRESSED_NEGATION) or token in _ZH_NEGATION_WORDS \
                    or token in _ZH_DISMISSIVE:
                spans.append((start, start + len(token)))
    return spans


_DISMISSIVE_AFTER = re.compile(r"^\s*(?:\w+\s){0,2}?(?:need|needed|necessary|required|matter|matters|important|help|helps|"
                               r"relevant|true|the case|an issue|a problem|possible|work|works|right|correct|apply|"
                               r"applies|a fix|fix|the cause|the reason|the problem|involved|related|to blame|at fault|"
                               r"responsible|the culprit|happen|happens|occur|occurs|change|changes|improve|improves|make a difference|"
                               r"speed it up|speed up|cause it|cause this|cause that|causes it|explain it|explain this|"
                               r"explains it|be it|be the cause|be why)\b")
# "CUDA Graphs or fusion would not shorten the gaps", "a bigger micro-batch won't help": a fix said not
# to work, whatever the verb (contractions are expanded by then: "won't" reads "will not").
_MODAL_BEFORE = re.compile(r"\b(?:would|will)\s$")
# "加 barrier 也解决不了", "调大超时帮不了": a fix said after it not to work (jieba keeps each one word).
_ZH_DISMISSIVE = frozenset({"不需要", "不用", "无需", "无须", "不必", "没必要", "不重要", "没用", "不行", "不对", "并非", "不是",
                            "没关系", "无关", "解决不了", "帮不了", "无济于事", "不起作用", "不顶用",
                            # "改成 daemon=True 不算修": not counted as a fix (round 14)
                            "不算", "不管用", "没啥用", "没有用", "白搭"})


def _negated(fragment: Fragment, spans: list[tuple[int, int]], own: list[tuple[int, int]] | None = None) -> bool:
    """A cue before the claim's last words negates it ("does not communicate once per step",
    "TP 不要跨机"); one after them all only when it dismisses them ("checkpointing is not needed", "检查点不需要"), not when they
    are its subject ("rank 1 never arrives"). `own`: every span the concepts' phrases match, when
    a cue may sit inside one that is not the first found ("显存不够挂了": 不 is part of 显存不够)."""
    last = max(start for start, _ in spans)
    cues = []
    for start, end in fragment.negations:
        if any(low <= start < high for low, high in own or spans):
            continue  # the phrase carries its own negation ("not overlapped")
        bound = _bound(fragment.text, start, end)
        if bound is not None and not any(bound[0] <= low < bound[1] for low, _ in spans):
            continue  # "no more than once per step" bounds the count, it does not deny the claim
        if fragment.condition_end is not None and end <= fragment.condition_end <= min(low for low, _ in spans):
            continue  # "when no sentence end fits, cut at the context": the cue is the condition's own
        first = min(low for low, _ in spans)
        if _relative_own(fragment.text, start, end, spans, own or spans):
            continue  # "a non-daemon thread that never returns keeps the process alive": the cue is the relative clause's
        new_verb = _NEW_VERB.search(fragment.text, end) if start < end <= first else None
        if new_verb is not None and new_verb.start() < first:
            continue  # "never entered evaluate and waits in the all-reduce", "找不到句尾就在max_len处截断": the
            # cue ends with its verb phrase, or with the condition the rest follows from. The new verb may be the
            # claim's own first word: "only delays detection and idles the whole cluster" (the span is "idles")
        if fragment.text[start:end] in _REJECTING_CUES and _object_ends_before(fragment.text, end, spans):
            continue  # "60 min instead of 10 just idles every GPU": the cue rejects its object, "10", not the idling
        if _STOPPED.fullmatch(fragment.text[start:end]) and _COORDINATOR.search(fragment.text, end, first):
            continue  # "we stopped guessing and raised the timeout": the stop reaches its own gerund's phrase only
        if _FUTILE.fullmatch(fragment.text[start:end]):
            if start >= last:
                cues.append((start, end))
            continue
        if (start < last or _DISMISSIVE_AFTER.match(fragment.text[end:]) or fragment.text[start:end] in _ZH_DISMISSIVE
                or _ZH_DISMISSING_CUE.fullmatch(fragment.text[start:end])
                or _MODAL_BEFORE.search(fragment.text[:start]) or _DISMISSING_CUE.fullmatch(fragment.text[start:end])):
            cues.append((start, end))
    # Two cues cancel only as a double negative, side by side ("not without", "不是不能"); two
    # negated verbs joined by "and" are two negations ("did not fail and did not run out of memory").
    cues.sort()
    remaining, index = 0, 0
    while index < len(cues):
        if (index + 1 < len(cues) and fragment.text[slice(*cues[index])] not in _REJECTING_CUES
                and _double_negative(fragment.text[cues[index][1]:cues[index + 1][0]])):
            index += 2
            continue
        remaining += 1
        index += 1
    return remaining > 0 or (fragment.inherited and not cues)


# A negation that bounds a comparison ("no more than", "does not need more than", "not longer than",
# "不超过", "不少于") denies the comparison, not what is compared: "DP communicates no more than once
# per step" says once per step, "it is not longer than 21 days" denies the overrun.
# So does "not only" / "not just": "DP not only syncs once per step but overlaps it" says both, while
# "not only rank 0 calls it" denies the "only".
_EN_BOUND = re.compile(r"^\s(?:(?:\w+\s){0,2}?(?:more|less|fewer|longer|shorter|later|greater|bigger|higher|larger|smaller)"
                       r"\sthan|only|just|merely|simply)\b")
_ZH_BOUNDS = frozenset({"不超过", "不多于", "不少于", "不低于", "不高于", "不大于", "不小于", "不只", "不单"})


def _asks_alternative(folded: str, match: re.Match) -> bool:
    """Negation words that negate nothing: "no matter how many GPUs", "whether or not every rank is
    slow", "is it every rank or not"."""
    if match.group() == "no":
        return folded.startswith(" matter", match.end())
    if match.group() != "not":
        return False
    return folded.endswith("whether or ", 0, match.start()) or (
        folded.endswith(" or ", 0, match.start()) and match.end() == len(folded))


def _bound(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the comparison a negation cue bounds, if it bounds one."""
    if text[start:end] in _ZH_BOUNDS:
        return start, end
    match = _EN_BOUND.match(text[end:])
    # ... and so is "I wouldn't just buy bigger GPUs" (round 4, 2026-12-03: read as "not only", it said the buy)
    if (match and text[:start].endswith(("do ", "would ", "will ", "should "))
            and match.group().strip() in ("only", "just", "merely", "simply")):
        return None  # "don't just raise the timeout": the fix dismissed as not enough, not "not only"
    return (end, end + match.end()) if match else None


# "and" before a verb of its own starts a new verb phrase, which a negation before it does not reach:
# "ranks 1-3 never entered evaluate and wait in the gradient all-reduce".
_NEW_VERB = re.compile(r"\band\s(?:then\s|now\s|instead\s)?(?:waits?|waiting|sits?|hangs?|hung|blocks?|blocked|is|are|was|were|"
                       r"stays?|stayed|went on|goes on|moved on|moves on|continues?|continued|"
                       # the cost said after a dismissed fix: "a bigger timeout only delays detection and idles the whole
                       # cluster longer" idles the cluster (round 6, 2026-12-03: read as "does not idle it")
                       r"idles?|idled|idling|burns?|burned|burnt|wastes?|wasted|"
                       # "the survivors don't know rank 5 is gone and keep waiting in the collective" (round 6)
                       r"keeps?|kept)\b|"
                       # not the 就 of "right away" ("别一上来就怪网络": don't blame the network right away)
                       r"(?<!一上来)(?<!上来)(?<!一开始)(?<!马上)(?<!直接)就|那么|"
                       # "and" before a subject of its own: "the size isn't divisible and rank 3 got one batch fewer"
                       r"\b(?:and|so)\s(?:then\s|so\s)?(?:it|they|we|rank\s\d+|ranks\s\d+(?:\s\d+)?)\s|"
                       # "找不到句子结尾时在max_len处切": the cue is the condition's, which ends at 时
                       r"的时候|时候|(?<![同及按准不])时(?!间)")
# A negation inside a relative clause denies that clause's verb, not the main verb after it: "a non-daemon
# thread that never returns keeps the process alive" says it keeps it alive (s36 df7b: a right exit-hang
# post-mortem read as denying it), "一个永远不返回的非 daemon 线程让进程一直活着" too. Only where the claim's words
# lie on both sides in English (its subject before the pronoun, its predicate after the clause's verb and at most
# three more words, none of them the claim's, and a finite verb of the main clause then) and all after the modifier's 的 in Chinese; "a thread that never waits"
# and "a thread that never keeps the process alive" still deny it.
_RELATIVE_BEFORE = re.compile(r"\b(?:that|which|who)\s(?:(?:does|did|do|will|would|can|could|is|was|has|had)\s)?$")
_RELATIVE_VERB = re.compile(r"\s(?:\w+\s){1,4}")
_MAIN_VERB = re.compile(r"(?!(?:its|this|thus|his|process|access|class|less|unless)$)(?:\w+[^\Wsiu]s|\w+ed|is|are|was|were|has|"
                        r"keep|stay|wait|hang|block|hold)")
_ZH_MODIFIER = re.compile(r"\s?[\u4e00-\u9fff]{0,4}的")


def _relative_own(text: str, start: int, end: int, spans: list[tuple[int, int]], every: list[tuple[int, int]]) -> bool:
    after = [low for low, _ in spans if low >= end]
    if not after or len(after) < len(spans) and _CJK.search(text[start:end]):
        return False
    if _CJK.search(text[start:end]):
        modifier = _ZH_MODIFIER.match(text, end)
        return modifier is not None and min(after) >= modifier.end()
    pronoun = _RELATIVE_BEFORE.search(text[:start])
    if pronoun is None or not any(high <= pronoun.start() for _, high in spans):
        return False
    # the clause's own verb is none of the claim's words ("a thread that never keeps the process alive" denies it),
    # and the claim goes on with a finite verb of the main clause ("that does not block the exit" denies it)
    # ("that never returns keeps the process alive", "that never returns stays alive": the main verb is the
    # claim's word or stands between the clause's verb and it)
    main = min(low for low, _ in every + spans if low >= end)
    verb = _RELATIVE_VERB.fullmatch(text[end:main])
    if verb is None or _COORDINATOR.search(verb.group()):
        return False
    return any(_MAIN_VERB.fullmatch(word) for word in verb.group().split()[1:] + text[main:].split()[:1])


_COORDINATOR = re.compile(r"\b(?:and|or|but|nor|then)\b|和|也|或|还|又|并且|而且")


# "rather than X" and "instead of X" reject their own object, so they cancel no cue after it: "with srun
# rather than torchrun nothing tears the job down" still says nothing tears it down (round 4, 2026-12-03:
# refused as "srun tears the job down").
_REJECTING_CUES = frozenset({"rather than", "instead of"})


# The object of "instead of" / "rather than" ends where the main clause's verb comes: "sitting 60 minutes instead
# of 10 costs 850 GPU-hours" rejects the 10, and the cost is said (round 14, 2026-12-06: a pushback on the raise was
# read as "no GPU-hours burned"). Only a short object with no article, then a finite verb before or as the claim's
# first word: "instead of the cluster idling" and "instead of idling" still reject the idling.
_OBJECT_GAP = re.compile(r"^\s(?:[\w.,]+\s){1,4}$")
_ARTICLE = re.compile(r"\b(?:the|a|an|all|every|each|its|their|our|his|her)\b")


def _object_ends_before(text: str, end: int, spans: list[tuple[int, int]]) -> bool:
    first = min((low for low, _ in spans if low >= end), default=None)
    if first is None:
        return False
    gap = text[end:first]
    if not _OBJECT_GAP.match(gap) or _ARTICLE.search(gap):
        return False
    words = gap.split() + text[first:].split()[:1]
    return any(_MAIN_VERB.fullmatch(word) for word in words[1:])


def _double_negative(between: str) -> bool:
    return len(between) <= 12 and not _COORDINATOR.search(between)
