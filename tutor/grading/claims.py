"""Free text read as statements: clauses, their polarity, and the claims they make.

A rubric point is a claim (`KeyPoint`): a phrase that states it whole ("once per step"), or
concepts that must be said together in one clause ([TP] with [inside the node]). Reading an
answer:

1. It is cut into clauses at sentence punctuation and at the conjunctions that start a new
   statement (because, so, but, while, 因为, 所以, 但 …), and each clause into fragments at
   commas and dashes.
2. A fragment is *negated* when it holds an odd number of negation cues (not, n't, never, no,
   without, 不, 没, 别, 无需, 并非 …) outside the phrases matched in it: a phrase that carries its
   own negation ("not overlapped") keeps its meaning. A negated claim is its opposite; a
   negated contradiction ("TP 不要跨节点") states the claim. A subject written once is read with
   each fragment it governs: a label before a colon ("Latency: 2(n-1) hops, grows with n"), a
   longer head before one ("TP needs the fastest links: inside the node"), the words before a
   bracket ("2 (fwd)"); those readings count for claims, never for contradictions.
3. A clause that is only a run of terms (six or more words, almost no function words, no
   question mark) states nothing: "checkpoint async sharded Young MTBF" earns no point. A list
   under a head ("What to save: weights, Adam state, RNG", "Save weights, Adam state, RNG")
   states a point only when half its items make it with the head (a run of buzzwords names a
   different point in each item).
4. A clause copied from the question states nothing either.

Chinese is segmented with jieba (a maintained segmenter; loaded on the first Chinese answer)
to count words and to tell 不 as a negation from 不同 or 差不多. Latin and CJK runs are spaced
apart first, so `卡在all_gather里` matches `all gather` as a whole word. Nothing here evaluates
the text; it is only searched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from tutor.grading.normalize import LONG_LIMIT, clean

if TYPE_CHECKING:
    from tutor.content.models.question import Contradiction

_CJK_CHAR = "\u3400-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_CHAR}]")
_BOUNDARY = re.compile(rf"(?<=[{_CJK_CHAR}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_CJK_CHAR}])")
# Clause boundaries: sentence punctuation, and conjunctions that begin another statement.
# "not because X" keeps X in the negated clause ("it's not because only the GEMMs use FP8").
_CLAUSE = re.compile(
    r"[.;!?:\n。；！？：]+(?:\s|$)|[;!?\n。；！？：]+|"
    # NFKC makes the full-width colon ASCII, with no space after it in Chinese ("原因：每步只同步一次")
    rf"(?<=[{_CJK_CHAR}]):|:(?=[{_CJK_CHAR}])|"
    r"\s(?:but|whereas|while|although|though|since|which|so|hence|thus|therefore|instead(?!\sof\b))\s|"
    # "then" begins another statement ("rank 0 saves, then the others wait"), except in a sequence of
    # collectives, which is one ("a reduce-scatter then an all-gather").
    # The collective may be written as code ("broadcast then all_gather").
    r"\sthen\s(?!(?:an?\s|the\s|its\s)?(?:all[\s_-]?gather|all[\s_-]?reduce|reduce[\s_-]?scatter|all[\s_-]?to[\s_-]?all|broadcast|"
    r"send|recv|receive|isend|irecv|gather|ag|ar|rs)\b)|"
    r"(?<!not)(?<!n't)\sbecause\s|"
    r"但是|但|而是|而|因为|所以|因此|然后|不过|否则", re.IGNORECASE)
# Fragments: between commas and dashes, and at an "and" that starts another parallel dimension's
# statement ("DP inside the node and TP across nodes" puts TP across nodes, not inside).
_FRAGMENT = re.compile(r"[,，、—–]|\s-\s|\s--\s|\s(?:and|but)\s(?=(?:the\s)?(?:tp|pp|dp|cp|ep|tensor|pipeline|data|context|"
                       r"expert)(?:\s|$|-))", re.IGNORECASE)
# An aside in brackets is its own fragment, and the words around it stay one: "Forward tensors
# (activations and weights) use E4M3" puts E4M3 on the forward tensors.
_ASIDE = re.compile(r"[(（]([^()（）]*)[)）]")
_CONTRACTIONS = [(re.compile(r"\bcan['’]t\b"), "can not"), (re.compile(r"\bwon['’]t\b"), "will not"),
                 (re.compile(r"n['’]t\b"), " not")]
_PUNCTUATION = re.compile(r"[^\w\s]|_", re.UNICODE)
_SPACES = re.compile(r"\s+")
# "skip X" dismisses X ("skip checkpoints and monitoring"); a rubric point whose claim is to drop
# something lists the word in its own concept, which then keeps its meaning.
# "rather than X" and "instead of X" reject X as "not X" does ("each rank writes its own shard
# instead of gathering everything on rank 0").
_EN_NEGATION = re.compile(r"\b(?:not|no|never|none|nothing|neither|nor|without|cannot|nobody|nowhere|skip|skips|skipping|"
                          r"rather than|instead of)\b")
_EN_WORD = re.compile(r"[a-z0-9]+")
# Words that carry the structure of a statement (a run of terms has almost none of them).
# Words that carry the structure of a statement: articles, pronouns, auxiliaries, common verbs,
# conjunctions. A run of terms has almost none of them. Relation words that are part of the
# terms themselves (once, per, inside, across, every) are left out: "once per step inside node"
# is still a list.
_EN_FUNCTION = frozenset("""a an the is are was were be been being it its this that these those of in on at to into
for with by from as than then so because and or but if when while whereas since which who what how why where can
could will would should must may might need needs do does did has have had there they them their we you i me my
our your not no never without also just too very instead still already even any some such own here calls call
called runs run goes go stays stay uses use used keeps keep makes make gives give gets get takes take sees see
waits wait waiting left leave stuck stops stop means mean tells say says ask asked put save write copy set pick
detect test check plot compare find dump turn cut drop raise move add""".split())
_ZH_NEGATION_STARTS = ("不", "没", "别", "未", "勿", "莫")
_ZH_NEGATION_WORDS = frozenset({"无", "无需", "无须", "非", "并非", "绝非", "毫无", "无法", "甭", "无关"})
_ZH_NOT_NEGATION = frozenset({"不同", "不仅", "不断", "不少", "不久", "不过", "不管", "不论", "不但", "不然",
                               "不如", "没错", "别的", "别人", "别处", "未来", "不一样", "不停", "不光", "不得不", "不可或缺"})
_ZH_FUNCTION = frozenset("""的 了 是 在 和 与 把 被 让 给 对 从 到 就 都 也 还 又 才 只 只有 要 会 能 可以 因为 所以 但是 而
如果 那么 这 那 这个 那个 个 一 里 时 先 再 用 做 等 停 卡 它 他们 没有 不 就是 还是 或者 并
且 比 更 最 很 太 吗 呢 吧 着 过 得 地 之 为 以 于 而且 然后 已经 一直 该 应该 需要 不要 不用 哪 哪个 什么 怎么 多少 几
""".split())
BARE_MIN_WORDS = 6
BARE_FUNCTION_SHARE = 0.15
COPY_SHARE = 0.8


@dataclass
class Fragment:
    text: str
    """Folded: case, width, punctuation as spaces, Latin and CJK runs spaced apart."""
    compact: str
    """The same without spaces (for Chinese phrases)."""
    negations: list[tuple[int, int]]
    """Spans of negation cues in `text`."""
    inherited: bool = False
    """A short item joined by "or" / "nor" to a negated fragment ("I don't need to know if it's dense
    or MoE, or how many GPUs"): the negation before the list governs it too."""
    base: int | None = None
    """Set on a fragment the reader adds, not one the learner wrote: the subject the learner wrote
    once and meant for it, joined to another fragment (the index of that fragment in its clause).
    A label before a colon joined to each fragment after it ("Latency: 2(n-1) hops, grows with n"
    says the latency grows), and the words before a bracket joined to each piece of the aside
    ("checkpoints (sharded, async)", "2 (fwd)"). Extensions are searched like the others but
    are not words of the answer: they count for no list or length rule."""


@dataclass
class Clause:
    fragments: list[Fragment]
    bare: bool = False
    """Only a run of terms: states nothing."""
    question: bool = False
    """Asked, not stated: ends with a question mark or starts as a question ("Which GPUs?",
    "what sequence length", "是 dense 还是 MoE")."""
    marked: bool = False
    """Ends with a question mark (Chinese statements hold question words: "算出要几张卡")."""
    copied: bool = False
    """Copied from the question: states nothing."""
    prescribes: bool = False
    """Says what to do, not what happened ("Fix: the same order on every rank", "make every rank
    gather first", "修法：让每个 rank 的 batch 数一样"), and so does a clause joined to such a
    clause by a conjunction ("..., so every rank calls them in the same order"). A diagnosis reads
    its contradictions, which describe the run, only from the other clauses."""
    items: list[Fragment] = field(default_factory=list)
    """A list under a head ("What to save: weights, Adam state, RNG, data position", "Save weights,
    optimizer state, RNG", "What changed? Code, data, nodes, drivers"): each item joined to the
    head. The clause is bare and states nothing, but a point that half of its items state with
    the head (`enumerates`) is stated: the items are instances of one point, where a run of
    buzzwords names a different point in each."""

    @property
    def states(self) -> bool:
        return not (self.bare or self.copied)


@dataclass
class Reading:
    """An answer, read once, for every point of a rubric."""

    clauses: list[Clause]
    words: int
    bare: bool
    """The whole answer is a list of terms (every clause that has words is bare)."""
    copied: bool
    """The whole answer is the question pasted back."""
    extra: dict = field(default_factory=dict)


# Chinese measure words after a numeral are one word for "one of": 多一篇 = 多一个文档's 多一个,
# 每张卡 = 每个卡, 一台机器 = 一个机器. Folded to 个 so a phrase written with one matches the others.
_MEASURE = re.compile(r"(?<=[一二两三四五六七八九十几多每单某\d])\s?[篇条份张块台位颗]")


# Shorthand candidates type, written out before an answer is read: "b/c" is a clause boundary
# like "because" (and the place a diagnosis turns to another rank: "r1-3 failed b/c r0 was gone"),
# "w/o" a negation. Done on the answer, not in `normalize.clean`: `w/2` in a formula is w ÷ 2.
_SHORTHAND = [(re.compile(r"(?<![\w/])b/c(?![\w/])", re.IGNORECASE), "because"),
              (re.compile(r"(?<![\w/])w/o(?![\w/])", re.IGNORECASE), "without"),
              (re.compile(r"(?<![\w/])w\.r\.t\.?", re.IGNORECASE), "with respect to"),
              (re.compile(r"(?<![\w/])w/(?=\s|[a-z])", re.IGNORECASE), "with ")]


# "2× the buffer", "2x the data": a multiple said with the sign, read as the word ("2 times the
# buffer"). Only before a space: "4×4" and "8x8" are products and layouts, left alone.
_TIMES_SIGN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?[×x](?=\s)", re.IGNORECASE)


# "recv→send", "broadcast->all_gather": an arrow written between two words, without spaces, is a
# sequence ("recv then send"). With spaces ("~4 AR/layer → needs NVLink") it joins a cause to its
# consequence in one statement and is left as punctuation, and so it does against Chinese, which
# has no spaces to leave out ("确定性的hang→代码/数据" is one statement).
_SEQUENCE_ARROW = re.compile(r"(?<=[A-Za-z0-9_)])(?:→|->|⟶)(?=[A-Za-z0-9_(])")


def expand_shorthand(text: str) -> str:
    if "×" in text or "x " in text or "X " in text:
        text = _TIMES_SIGN.sub(r"\1 times", text)
    if "→" in text or "->" in text or "⟶" in text:
        text = _SEQUENCE_ARROW.sub(" then ", text)
    if "/" not in text and "." not in text:
        return text
    for compiled, replacement in _SHORTHAND:
        text = compiled.sub(replacement, text)
    return text


# Abbreviations of the domain, one word each, folded to the word in answers and phrases alike, so a
# rubric that says "forward" reads "fwd" and one that says "grads" still reads "gradients".
# Deliberately few and unambiguous here (AR/AG/RS: the collectives, as this interview writes them).
_ABBREVIATIONS = {"fwd": "forward", "bwd": "backward", "backprop": "backward", "grads": "gradients",
                  "grad": "gradient", "comms": "communication", "comm": "communication", "params": "parameters",
                  "param": "parameter", "ckpt": "checkpoint", "ckpts": "checkpoints", "hw": "hardware",
                  "ar": "all reduce", "ag": "all gather", "rs": "reduce scatter", "seqlen": "sequence length",
                  "mem": "memory", "util": "utilization", "perf": "performance", "ib": "infiniband",
                  "反传": "反向传播"}
_ABBREVIATION = re.compile(r"(?<![\w])(?:" + "|".join(sorted(map(re.escape, _ABBREVIATIONS), key=len, reverse=True))
                           + r")(?![\w])")
# A number glued to a symbol or unit is two words: "2N" is 2 and N, "16B" 16 and B; phrases fold
# the same way ("8ND" = "8 nd"), and patterns allow the space either way.
_DIGIT_LETTER = re.compile(r"(?<=\d)(?=[a-z])")


# A rank named any way is one spelling, in answers and phrases alike: "0号", "r0", "rank0" and
# "rank 0" (and "1-3号", "r1-3") all read "rank 0" / "rank 1 3", so a phrase written "只发给0号"
# reads "只发给rank0". Run after punctuation became spaces.
_RANK_NUMBER = re.compile(r"(?<![a-z0-9])(\d+(?: \d+)?) ?号|(?<![a-z0-9])(?:r|rank)(?= ?\d)(?! ?\d+ ?(?:号|个))", re.ASCII)


def _rank_spelling(match: re.Match) -> str:
    return f"rank {match.group(1)} " if match.group(1) is not None else "rank "


_RANK_TWICE = re.compile(r"\brank (?=rank\b)")


def fold(text: str) -> str:
    text = text.casefold()
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    text = _MEASURE.sub("个", text)
    text = _BOUNDARY.sub(" ", text)
    text = _DIGIT_LETTER.sub(" ", _SPACES.sub(" ", _PUNCTUATION.sub(" ", text)).strip())
    if "号" in text or "r" in text:
        text = _RANK_TWICE.sub("", _SPACES.sub(" ", _RANK_NUMBER.sub(_rank_spelling, text)).strip())
    return _ABBREVIATION.sub(lambda match: _ABBREVIATIONS[match.group()], text)


@lru_cache(maxsize=4096)
def _segment(run: str) -> tuple[str, ...]:
    return tuple(_jieba().lcut(run, HMM=False))


@lru_cache(maxsize=1)
def _jieba():
    import logging

    import jieba  # type: ignore[import-untyped]

    jieba.setLogLevel(logging.WARNING)
    return jieba


def _words(folded: str) -> list[str]:
    """Words: English words as they stand, Chinese runs segmented."""
    words: list[str] = []
    for run in folded.split(" "):
        if not run:
            continue
        if _CJK.search(run):
            words += [word for word in _segment(run) if word.strip()]
        else:
            words.append(run)
    return words


# The A-not-A question (要不要, 会不会, 是不是, 有没有, 能不能, 可不可以, 需不需要) asks; it negates
# nothing, though jieba cuts it 要|不要 and the second half starts with a negation.
_A_NOT_A = re.compile(rf"([{_CJK_CHAR}])\s?[不没]\s?\1")


def _negations(folded: str) -> list[tuple[int, int]]:
    spans = [match.span() for match in _EN_NEGATION.finditer(folded) if not _asks_alternative(folded, match)]
    if _CJK.search(folded):
        asking = [match.span() for match in _A_NOT_A.finditer(folded)]
        for token, start in _words_with_positions(folded):
            if any(low <= start < high for low, high in asking):
                continue
            if (token.startswith(_ZH_NEGATION_STARTS) and token not in _ZH_NOT_NEGATION) or token in _ZH_NEGATION_WORDS:
                spans.append((start, start + len(token)))
    return spans


def _words_with_positions(folded: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for match in re.finditer(r"\S+", folded):
        run = match.group()
        if not _CJK.search(run):
            continue
        offset = match.start()
        for token in _segment(run):
            out.append((token, offset))
            offset += len(token)
    return out


def _is_function(word: str) -> bool:
    return word in _EN_FUNCTION or word in _ZH_FUNCTION


# Question words make a chunk a question's term, not a statement: "什么模型 序列长度 什么卡 多长" is a
# list of what to ask about, with no question in it.
_ZH_QUESTION_WORDS = frozenset({"什么", "哪", "哪个", "多少", "几", "怎么", "多大", "多长", "多久"})


def _structured_chunk(chunk: str) -> bool:
    """A space-separated chunk of a Chinese answer that reads as a statement, not a term: a
    structure word (的, 在, 和, 了 …; not a question word), a negation, or a run jieba cuts into
    three or more words."""
    if not _CJK.search(chunk):
        return chunk in _EN_FUNCTION
    tokens = [token for token in _words(fold(chunk)) if token.strip()]
    return len(tokens) >= 3 or any((_is_function(token) and token not in _ZH_QUESTION_WORDS)
                                   or token.startswith(_ZH_NEGATION_STARTS) for token in tokens)


def _bare_chinese(raw: str, alone: bool) -> bool:
    """Chinese is written without spaces between words, so a Chinese clause of many space-
    separated chunks, none of them a statement, is a run of terms ("梯度 all-reduce 每步一次 overlap
    backward TP 机内 NVLink"), while "CUDA Graph录制一次，之后一次launch重放整个序列" is not. By chunks,
    not by jieba's words: terse technical Chinese has few structure words in a real sentence."""
    chunks = [chunk for chunk in _SPACES.split(_CHUNK_EDGE.sub(" ", raw.casefold())) if chunk]
    structured = sum(_structured_chunk(chunk) for chunk in chunks)
    if alone:
        return len(chunks) >= 5 and structured <= 1
    return len(chunks) >= 8 and structured == 0


_CHUNK_EDGE = re.compile(r"[,，、;；:：.。!！?？()（）\[\]{}\"'“”‘’]")


def _statement_fragment(words: list[str]) -> bool:
    """A piece that reads as a statement: four or more words with a structure word ("再查上周以来改了
    什么"), not a term with one ("if rank == 0")."""
    return len(words) >= 4 and any(_is_function(word) for word in words)


# Verbs a step of a method starts with ("measure MFU", "查ECC", "换机器"): a list of such steps is a
# plan, not a run of terms. Only verbs of finding out and repairing, none that is also a term of the
# domain ("shard", "overlap", "restart", "save", "use"): "Save checkpoint, async write, shard state,
# Young interval, restart job" stays a list.
_ACTION_VERBS = frozenset("""measure check find look plot dump enable turn fix replace swap cordon isolate test compare
bisect run 开 找 查 换 测 看 跑 画 抓 比 打开 检查 排查 定位 替换 更换 隔离 踢掉 测试 二分 对比 比较""".split())
ACTION_SHARE = 0.5


def _plan(pieces: list[list[str]]) -> bool:
    """Half the pieces (and at least two) are steps: a verb of `_ACTION_VERBS` and what it acts on."""
    steps = sum(len(piece) >= 2 and piece[0] in _ACTION_VERBS for piece in pieces)
    return steps >= 2 and steps >= ACTION_SHARE * len(pieces)


LIST_PIECES = 4
LIST_ITEM_WORDS = 2.5


def _listing(pieces: list[list[str]]) -> bool:
    """Pieces that make a list: a word or two each on average, none a statement, and not a plan of
    steps ("开flight recorder，找共同节点，查ECC，换机器")."""
    return (bool(pieces) and sum(map(len, pieces)) / len(pieces) < LIST_ITEM_WORDS
            and not any(_statement_fragment(piece) for piece in pieces) and not _plan(pieces))


def _bare(words: list[str], raw: str, fragments: int, alone: bool, pieces: list[list[str]] | None = None) -> bool:
    """A run of terms: no question mark, and either four or more comma-separated pieces of a
    word or two each with no piece a statement ("checkpoint, async, sharded, Young" is a list;
    "再查改了什么，代码、数据、节点、驱动" is a statement with its examples), or six or more words with
    almost no structure words — when they are the whole answer, unpunctuated (`alone`); inside a
    punctuated answer only a long run counts, since terse experts write clauses like
    "synchronous all-reduce after backward". Chinese clauses go by their chunks (`_bare_chinese`)."""
    if "?" in raw or "？" in raw or _definition(raw):
        return False
    if fragments >= LIST_PIECES and len(words) / fragments < LIST_ITEM_WORDS and _listing(pieces or []):
        return True
    if _CJK.search(raw):
        return _bare_chinese(raw, alone)
    if len(words) < BARE_MIN_WORDS or _is_function(words[0]):
        return False  # "save fp32 weights + Adam + RNG": a statement that starts with its verb
    share = sum(_is_function(word) for word in words) / len(words)
    if alone:
        return share < BARE_FUNCTION_SHARE
    # a long run: ten words or more, none a structure word, with a run of six or more between two
    # commas; short comma-separated pieces are judged by the list rule above ("E4M3 fwd
    # (acts/weights, precision), E5M2 grads (range), amax scaling" is three statements)
    return share == 0 and len(words) >= LONG_RUN_WORDS and any(len(piece) >= RUN_PIECE_WORDS for piece in pieces or [words])


LONG_RUN_WORDS = 10
RUN_PIECE_WORDS = 6


# "Ring AR = reduce-scatter + all-gather": a short subject, a relation sign and a short right side is a
# statement written as a formula, not a run of terms. Both sides short, so a list with an "=" in it
# ("TP DP PP CP = NVLink IB overlap bucket backward", "checkpoint = async sharded Young MTBF restart
# spare nodes") is still a list.
_RELATION = re.compile(r"\s?(?:=|≈|~=|->|→|⇒)\s?")
DEFINITION_LEFT_WORDS = 3
DEFINITION_RIGHT_WORDS = 6


def _definition(raw: str) -> bool:
    """Some fragment of the clause is `subject = short right side`."""
    if not _RELATION.search(raw):
        return False
    for piece in _FRAGMENT.split(raw):
        sides = _RELATION.split(piece)
        if len(sides) != 2:
            continue
        left, right = (len(fold(side).split()) for side in sides)
        if 0 < left <= DEFINITION_LEFT_WORDS and 0 < right <= DEFINITION_RIGHT_WORDS:
            return True
        # "2 ARs per layer fwd + 2 bwd → intra-node only": a counted cause and its short consequence;
        # a run of terms before an arrow has no count in it ("TP DP PP CP NVLink IB → backward")
        if (0 < left <= CONSEQUENCE_LEFT_WORDS and 0 < right <= CONSEQUENCE_RIGHT_WORDS and _ARROW.search(piece)
                and _COUNT.search(sides[0])):
            return True
    return False


_ARROW = re.compile(r"->|→|⇒")
_COUNT = re.compile(r"\d")
CONSEQUENCE_LEFT_WORDS = 8
CONSEQUENCE_RIGHT_WORDS = 4


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


@lru_cache(maxsize=2048)
def read(answer: str, prompts: tuple[str, ...] = (), lists: bool = True) -> Reading:
    """The answer in clauses and fragments, each marked bare, copied or negated (cached: the
    diagnosis grader asks about the same clause once per group and phrase list; never mutated).
    `lists=False` reads a piece of an answer whose whole was already judged (a diagnosis's clause
    "ranks 1-3 sit in all_reduce" is not a run of terms just because it is short)."""
    text = expand_shorthand(clean(answer[:LONG_LIMIT], LONG_LIMIT))
    prompt_words = _prompt_words(prompts, bool(_CJK.search(text)))
    clauses: list[Clause] = []
    total = 0
    raws, asked, joined, labelled, specs, heads = [], [], [], [], [], []
    start = 0
    carried = ahead = ""
    referent = False
    for match in [*_CLAUSE.finditer(text), None]:
        raw = carried + (text[start:match.start()] if match else text[start:])
        label_words = len(_words(fold(carried))) if carried else 0
        spec = bool(carried) and _spec_line(raw[len(carried):])
        head, head_referent = carried or ahead, referent and not carried
        carried = ahead = ""
        referent = False
        if match and _label(raw, match.group()):
            # "Bwd grads: E5M2" is one statement, the label its subject; the label stays a clause
            # of its own as well ("Data loading: …" names its category first).
            carried = raw + " "
        elif match and _head(raw, match.group()):
            # A longer head extends the clause after it: "TP needs the fastest links: inside the node"
            # says where TP goes (`Fragment.base`); so does a negated one, whose claim carries its own
            # negation ("Not included: attention's QKᵀ and AV").
            ahead = raw
        elif match and _CONSEQUENCE.fullmatch(match.group()):
            # "E4M3 has more precision, so it is used for the activations", "…, which suits gradients",
            # "E4M3精度高，所以用在前向": the clause after goes on about the statement before it
            ahead = " ".join(_FRAGMENT.split(_ASIDE.sub(" ", raw).rstrip(" ,，"))[-1].split()[-REFERENT_WORDS:])
            referent = True
        if raw and raw.strip():
            raws.append(raw)
            labelled.append(label_words)
            specs.append(spec)
            asked.append(match is not None and ("?" in match.group() or "？" in match.group()))
            # a question after "so" asks only itself ("We use PPO, so how many GPUs?")
            heads.append("" if head_referent and asked[-1] else head)
            joined.append(match is not None and not _PUNCTUATION.search(match.group()))
        if match:
            start = match.end()
    # A clause cut off at a conjunction asks with its sentence when it is itself a question's
    # part: "PPO or GRPO, so how many model copies?" asks in both halves; "We use PPO, so how
    # many GPUs?" states the algorithm.
    for index in range(len(raws) - 2, -1, -1):
        if joined[index] and asked[index + 1] and _ALTERNATIVE.search(raws[index]):
            asked[index] = True
    previous_prescribes = False
    for raw, ends_asking, after_conjunction, label_words, spec, head in zip(raws, asked, [False, *joined[:-1]], labelled,
                                                                           specs, heads):
        fragments: list[Fragment] = []
        words: list[str] = []
        pieces: list[list[str]] = []
        asides = _ASIDE.findall(raw)
        outside = _ASIDE.sub(" ", raw)
        listed = 0  # fragments outside brackets: an aside explains, it is not an item of a list
        outside_pieces = _FRAGMENT.split(outside)
        for index, piece in enumerate([*outside_pieces, *(part for aside in asides for part in _FRAGMENT.split(aside))]):
            folded = fold(piece)
            if not folded:
                continue
            previous = fragments[-1] if fragments and index < len(outside_pieces) else None
            inherited = (previous is not None and (previous.negations or previous.inherited)
                         and bool(_OR_ITEM.match(folded)) and len(folded.split()) <= OR_ITEM_WORDS)
            fragments.append(Fragment(folded, folded.replace(" ", ""), _negations(folded), inherited))
            pieces.append(_words(folded))
            words += pieces[-1]
            listed += index < len(outside_pieces)
        if not fragments:
            continue
        outside_count = listed
        if not outside_count:
            listed = len(fragments)  # all in brackets: "(async, sharded, Young, MTBF)" is a list too
        label = fold(_ASIDE.sub(" ", head))
        aside_extensions = _aside_extensions(raw, fragments, outside_count)
        aside_items: list[Fragment] = []
        if (outside_count and len(fragments) - outside_count >= LIST_PIECES
                and len(_words(fold(outside))) - label_words <= LABEL_WORDS
                and _listing(pieces[outside_count:])):
            # "Checkpoint (async, sharded, Young, MTBF, restart)": a short head and a run of terms in
            # brackets; the head stays a statement, the terms state nothing but an enumeration
            aside_items, fragments = aside_extensions, fragments[:outside_count]
            aside_extensions = []
        fragments += aside_extensions
        if label_words:  # a short label is the subject of every fragment after it
            fragments += [_extension(label, fragments[index], index) for index in range(1, outside_count)]
        elif label:
            fragments.append(_extension(label, fragments[0], 0))
        total += len(words)
        content = _content_words(words)
        copied = bool(prompt_words) and len(content) >= 3 and len(content & prompt_words) >= COPY_SHARE * len(content)
        alone = len(raws) == 1 and len(fragments) == 1
        prescribes = bool(_PRESCRIBES.match(fragments[0].text)) or (after_conjunction and previous_prescribes)
        # "Use drop_last so every rank gets the same number of batches": the clause after an imperative
        # is its purpose, a prescription too (the imperative itself may state a fact: "use E4M3 for …").
        previous_prescribes = prescribes or bool(_IMPERATIVE.match(fragments[0].text))
        # A label is the subject of what follows it ("Launch-bound compute: many tiny ops, .item() sync per
        # micro-batch"); whether the statement is a run of terms is judged on its own words.
        listed -= _framed_enumerations(outside)
        bare = lists and not spec and _bare(words[label_words:], raw, listed, alone,
                               [pieces[0][label_words:], *pieces[1:]] if label_words else pieces)
        items = _items(fragments, outside_count, label, in_first=bool(label_words)) if bare else aside_items
        clauses.append(Clause(fragments, bare=bare, copied=copied,
                              question=ends_asking or _asks(raw, words), marked=ends_asking, prescribes=prescribes,
                              items=items))
    if lists:
        _terms_cut_by_stops(clauses)
    worded = [clause for clause in clauses if clause.fragments]
    return Reading(clauses, total, bare=bool(worded) and all(clause.bare for clause in worded),
                   copied=bool(worded) and all(clause.copied for clause in worded))


# "Forward (activations, weights): E4M3 — 3 mantissa bits, max 448": a label, its value, then a dash
# and the value's details. The value after the label is the statement ("Forward: E4M3"); the details
# are not items of a list. The value is short (at most three words) and the dash comes right after it.
_SPEC_HEAD = re.compile(r"^\s*([^,，、—–;；]+?)\s*(?:—|–|\s-\s|\s--\s)")
SPEC_VALUE_WORDS = 3


def _spec_line(statement: str) -> bool:
    head = _SPEC_HEAD.match(statement)
    return head is not None and 0 < len(_words(fold(head.group(1)))) <= SPEC_VALUE_WORDS


_NOT_ENUMERATION = re.compile(r"[,，—–]|\s-\s|\s--\s")
FRAMED_WORDS = 3


def _framed_enumerations(outside: str) -> int:
    """How many list pieces fewer a clause has for the list rule, because its Chinese 、-enumerations
    sit inside a statement: "按dataloader、exposed comm、compute、straggler四类拆时间" is one piece
    that enumerates (its last item runs on into "四类拆时间", three or more words), while
    "代码、数据、节点、驱动" stays four items of a list."""
    if "、" not in outside:
        return 0
    fewer = 0
    for piece in _NOT_ENUMERATION.split(outside):
        items = [item for item in piece.split("、") if item.strip()]
        if len(items) >= 2 and max(len(_words(fold(items[0]))), len(_words(fold(items[-1])))) >= FRAMED_WORDS:
            fewer += len(items) - 1
    return fewer


def _extension(head: str, fragment: Fragment, base: int) -> Fragment:
    text = f"{head} {fragment.text}".strip()
    return Fragment(text, text.replace(" ", ""), _negations(text), fragment.inherited, base)


# The words before a bracket that its aside is about: those after the last comma, dash, sign or colon,
# at most four ("6 = 2 (fwd) + 4 (bwd)" puts fwd on the 2 and bwd on the 4).
_ASIDE_HEAD_CUT = re.compile(r"[,，、—–;；:：=+×*→)]|\s-\s|->")
ASIDE_HEAD_WORDS = 4  # "E4M3 for fprop (…)" is four words folded: e4 m3 for fprop


def _aside_extensions(raw: str, fragments: list[Fragment], outside: int) -> list[Fragment]:
    """Each piece of each aside joined to the words before its bracket ("checkpoints (sharded, async,
    fp32 weights + Adam)" says the checkpoints are sharded). The aside pieces are the fragments from
    index `outside` on, in the order `read` made them."""
    extensions = []
    index = outside
    for match in _ASIDE.finditer(raw):
        head = " ".join(_words(fold(_ASIDE_HEAD_CUT.split(_ASIDE.sub(" ", raw[:match.start()]))[-1]))[-ASIDE_HEAD_WORDS:])
        for piece in _FRAGMENT.split(match.group(1)):
            if not fold(piece):
                continue
            if head:
                extensions.append(_extension(head, fragments[index], index))
            index += 1
    return extensions


# Verbs that head a list of their objects ("Save weights, optimizer state, RNG", "保存权重、Adam状态、RNG").
_LIST_VERBS = frozenset("""save saves store stores include includes keep keeps hold holds contain contains check checks
log logs monitor track record compare watch diff bisect need needs 保存 存 存下 包括 包含 查 检查 看 记录 监控 比较 对比
需要""".split())
ENUMERATION_MIN = 3


def _items(fragments: list[Fragment], outside: int, label: str, in_first: bool) -> list[Fragment]:
    """The items of a list clause joined to their head: the label before its colon (`in_first`: a
    short label, already written into the first fragment), or the verb the list starts with. None
    without a head: a bare run of terms has nothing to enumerate."""
    regular = fragments[:outside]
    if len(regular) < ENUMERATION_MIN:
        return []
    if label and not in_first:
        return [_extension(label, fragment, index) for index, fragment in enumerate(regular)]
    if not label:
        first = _words(regular[0].text)
        lead = 0
        while lead < len(first) - 1 and (first[lead] in _LIST_VERBS or first[lead] in _EN_FUNCTION):
            lead += 1
        if not any(word in _LIST_VERBS for word in first[:lead]):
            return []
        label = " ".join(first[:lead])
    return [regular[0], *(_extension(label, fragment, index) for index, fragment in enumerate(regular) if index)]


def enumerates(forms: list[list[list[str]]], clause: Clause) -> bool:
    """Whether half the items of a list clause (and at least two) each state one of these forms with
    their head."""
    if not clause.items or clause.copied:
        return False
    hits = sum(any(stated(form, Clause([item])) for form in forms) for item in clause.items)
    return hits >= max(2, (len(clause.items) + 1) // 2)


# The words a fix starts with: its label ("Fix:", "修法："), or an imperative that prescribes.
# Not "use …": "Use E5M2 for the forward activations" states which format goes where (fp8-matmul).
_PRESCRIBES = re.compile(r"^(?:(?:the\s)?fix|to\sfix|solution|make|let|ensure|have\s(?:every|all|each)|instead|"
                         r"修法|修复|修|解决|办法|让|改成|改为|改用|统一|应该|要让)(?:\s|$|(?=[\u3400-\u9fff]))")

_IMPERATIVE = re.compile(r"^(?:use|give|add|call|pad|drop|pack|balance|assign|split|cut|truncate|replace|move|put|keep|"
                         r"remove|avoid|set|switch|wrap|merge|run|do|用|改|加|换)(?:\s|$|(?=[\u3400-\u9fff]))")
_OR_ITEM = re.compile(r"^(?:or|nor|或者|或)(?:\s|(?=[\u3400-\u9fff]))")
OR_ITEM_WORDS = 5

LABEL_WORDS = 3


def _label(raw: str, boundary: str) -> bool:
    """A short label before a colon ("Fwd (activations + weights):", "DP:", "前向："), which the
    statement after it is about; not one holding a negation ("Not data loading: …" stays apart).
    A short question asked and answered is one too: "What changed? Code, data, nodes" (not a
    bare term asked: "Sharded? Async?")."""
    mark = boundary.strip()
    if mark not in (":", "：", "?", "？") or not raw.strip():
        return False
    folded = fold(_ASIDE.sub(" ", raw))
    words = _words(folded)
    if not 0 < len(words) <= LABEL_WORDS or _negations(folded):
        return False
    return mark in (":", "：") or words[0] in _WH_WORDS or bool(_ZH_QUESTION_WORDS.intersection(words))


_WH_WORDS = frozenset("what which how why where when who".split())


def _head(raw: str, boundary: str) -> bool:
    """A statement before a colon that is no label, which the clause after it completes ("DP can live
    on the slowest links for two reasons: …", "Not counted: …"): longer than a label, or negated."""
    return boundary.strip() in (":", "：") and bool(raw.strip()) and not _label(raw, boundary)


_CONSEQUENCE = re.compile(r"\s(?:so|hence|thus|therefore|because|since|which)\s|所以|因此|因为", re.IGNORECASE)
REFERENT_WORDS = 12


SHORT_CLAUSE_WORDS = 3
SHORT_CLAUSES_MIN = 3


def _terms_cut_by_stops(clauses: list[Clause]) -> None:
    """Terms cut by full stops ("Buckets. Reverse order. Last bucket. Takes SMs.") are a list like
    the same terms cut by commas: an answer of three or more clauses, none asked and none over
    three words, states nothing. Two short clauses stay statements ("Bucket grads. Overlap
    with backward.")."""
    if len(clauses) < SHORT_CLAUSES_MIN or any(clause.marked for clause in clauses):
        return
    if all(sum(len(_words(fragment.text)) for fragment in clause.fragments if fragment.base is None) <= SHORT_CLAUSE_WORDS
           for clause in clauses):
        for clause in clauses:
            clause.bare = True


# ------------------------------------------------------------------ matching phrases


@lru_cache(maxsize=8192)
def pattern(phrase: str) -> re.Pattern | None:
    """A phrase as a pattern over folded text: English as whole words with endings, Chinese anywhere."""
    folded = fold(clean(phrase, LONG_LIMIT))
    if not folded:
        return None
    if _CJK.search(folded):
        compact = folded.replace(" ", "")
        return re.compile(" ?".join(re.escape(char) for char in compact))
    words = [re.escape(word) for word in folded.split(" ")]
    last = folded[-1]
    doubled = f"|{re.escape(last)}(?:ed|ing|able)" if last.isalpha() and last not in "aeiouy" else ""
    # The adverb of a long word is the word ("asynchronously", "automatically"); not of a short one
    # ("full" is not "fully", "hard" not "hardly").
    final = folded.rsplit(" ", 1)[-1]
    adverb = "|ly|ally" if len(final) >= ADVERB_STEM and final.isalpha() else ""
    # Words may be run together or apart ("all reduce" = "allreduce"); English endings allowed.
    return re.compile(r"(?<!\w)" + r" ?".join(words) + rf"(?:s|es|ed|d|ing|able{doubled}{adverb})?(?!\w)")


ADVERB_STEM = 6


def find(phrases: list[str], fragment: Fragment) -> tuple[int, int] | None:
    for phrase in phrases:
        compiled = pattern(phrase)
        if compiled is None:
            continue
        match = compiled.search(fragment.text)
        if match:
            return match.span()
    return None


_DISMISSIVE_AFTER = re.compile(r"^\s*(?:\w+\s){0,2}?(?:need|needed|necessary|required|matter|matters|important|help|helps|"
                               r"relevant|true|the case|an issue|a problem|possible|work|works|right|correct|apply|"
                               r"applies|a fix|fix|the cause|the reason|the problem|involved|related|to blame|at fault|"
                               r"responsible|the culprit|happen|happens|occur|occurs|change|changes|improve|improves|make a difference|"
                               r"speed it up|speed up|cause it|cause this|cause that|causes it|explain it|explain this|"
                               r"explains it|be it|be the cause|be why)\b")
_ZH_DISMISSIVE = frozenset({"不需要", "不用", "无需", "无须", "不必", "没必要", "不重要", "没用", "不行", "不对", "并非", "不是",
                            "没关系", "无关"})


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
        if start < end <= min(low for low, _ in spans) and _NEW_VERB.search(fragment.text[end:min(low for low, _ in spans)]):
            continue  # "never entered evaluate and waits in the all-reduce", "找不到句尾就在max_len处截断": the
            # cue ends with its verb phrase, or with the condition the rest follows from
        if start < last or _DISMISSIVE_AFTER.match(fragment.text[end:]) or fragment.text[start:end] in _ZH_DISMISSIVE:
            cues.append((start, end))
    # Two cues cancel only as a double negative, side by side ("not without", "不是不能"); two
    # negated verbs joined by "and" are two negations ("did not fail and did not run out of memory").
    cues.sort()
    remaining, index = 0, 0
    while index < len(cues):
        if index + 1 < len(cues) and _double_negative(fragment.text[cues[index][1]:cues[index + 1][0]]):
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
    return (end, end + match.end()) if match else None


# "and" before a verb of its own starts a new verb phrase, which a negation before it does not reach:
# "ranks 1-3 never entered evaluate and wait in the gradient all-reduce".
_NEW_VERB = re.compile(r"\band\s(?:then\s|now\s|instead\s)?(?:waits?|waiting|sits?|hangs?|hung|blocks?|blocked|is|are|was|were|"
                       r"stays?|stayed|went on|goes on|moved on|moves on|continues?|continued)\b|就|那么")
_COORDINATOR = re.compile(r"\b(?:and|or|but|nor|then)\b|和|也|或|还|又|并且|而且")


def _double_negative(between: str) -> bool:
    return len(between) <= 12 and not _COORDINATOR.search(between)


def stated(concepts: list[list[str]], clause: Clause, extended: bool = True, describing: bool = False) -> bool | None:
    """Whether the clause states these concepts together: True, False (negated), None (not said).

    The concepts must sit in one fragment (between commas): "E4M3 for activations, gradients in
    E5M2" does not put E5M2 on the activations. `extended=False` reads a contradiction, which
    costs points: only as written, without the subjects the reader joined to fragments
    (`Fragment.base`), and only where it is asserted (`_asserted`)."""
    found_negated = False
    for fragment in clause.fragments:
        if not extended and fragment.base is not None:
            continue
        found = [find(phrases, fragment) for phrases in concepts]
        spans = [span for span in found if span is not None]
        if len(spans) == len(found) and not extended and not _asserted(fragment.text, spans, describing):
            continue
        if len(spans) == len(found):
            if not _negated(fragment, spans, _every_span(concepts, fragment) if fragment.negations else None):
                return True
            found_negated |= fragment.base is None  # an extension may state a claim, never deny one
    return False if found_negated else None


# A contradiction is a claim about the run or the design as it is, so it is not read
# - after "if" or "whether" ("If TP went across nodes, every layer would wait", "check whether it is
#   the network"), nor after what must or should be ("NCCL requires every rank to issue them in the
#   same order", "drop_last makes every rank get the same number of batches");
# - when a modal after it judges a supposition ("TP across nodes would be far too slow", "TP跨机会很慢");
# - when it is said of a time that is over ("its memory is fine at first but grows");
# - with one of its concepts the object of a comparison ("TP needs more communication than DP",
#   "TP的通信比DP更多": DP is not the heavy one);
# - across two statements joined by "and" ("E4M3 for activations and weights and E5M2 for gradients"
#   does not put E5M2 on the activations).
_SUPPOSING = re.compile(r"\b(?:if|whether|unless|suppose|supposing|imagine)\b|如果|假如|要是|假设|是否|万一|若")
# In a diagnosis, which describes a run, what must be is the rule or the fix, not the run ("a collective
# completes only when all ranks call it too", "the sampler assumes every rank has as many"); in a design
# answer "we should put TP across nodes" is the design, so this is read only for a diagnosis.
_PRESCRIBING = re.compile(r"\b(?:should|must|needs? to|has to|have to|requires?|required|expects?|assumes?|makes?|"
                          r"ensures?|in order to|when)\b|应该|必须|需要|要求|假定|默认|让|使|保证|确保")
_JUDGED_AFTER = re.compile(r"\b(?:would|could|might)\b|\bwill be\b|^.{0,6}会")
_EARLIER = re.compile(r"\b(?:at first|initially|in the beginning|early on|at the start)\b|起初|刚开始|开始时|一开始")
_COMPARED = re.compile(r"(?:\bthan|\bcompared (?:to|with)|\bversus|\bvs|比|相比)\s?$")
_NEXT_STATEMENT = re.compile(r"\band\s(?:\S+\s){0,5}$")


def _asserted(text: str, spans: list[tuple[int, int]], describing: bool) -> bool:
    ordered = sorted(spans)
    first, last = ordered[0][0], max(end for _, end in ordered)
    if _SUPPOSING.search(text[:first]) or _JUDGED_AFTER.search(text[last:]):
        return False
    if describing and _PRESCRIBING.search(text[:first]):
        return False
    outside = "".join(" " if any(low <= index < high for low, high in ordered) else char for index, char in enumerate(text))
    if _EARLIER.search(outside):
        return False
    if any(_NEXT_STATEMENT.search(text[before[1]:after[0]]) for before, after in zip(ordered, ordered[1:])):
        return False
    return not any(_COMPARED.search(text[:start]) for start, _ in spans)


def _every_span(concepts: list[list[str]], fragment: Fragment) -> list[tuple[int, int]]:
    """Where each phrase of these concepts matches in the fragment (the first match of each)."""
    spans = []
    for phrases in concepts:
        for phrase in phrases:
            compiled = pattern(phrase)
            match = compiled.search(fragment.text) if compiled is not None else None
            if match:
                spans.append(match.span())
    return spans


def polarity(concepts: list[list[str]], reading: Reading, extended: bool = True, describing: bool = False) -> bool | None:
    """Across the answer: True when some stating clause affirms it, False when it is only denied."""
    seen = None
    for clause in reading.clauses:
        if not clause.states:
            continue
        said = stated(concepts, clause, extended, describing)
        if said:
            return True
        if said is False:
            seen = False
    return seen


# ------------------------------------------------------------------ rubric points


@dataclass(frozen=True)
class Judgement:
    """What the answer does with one point."""

    said: bool
    denied: bool
    """Stated only in the negative (and not otherwise)."""
    contradiction: Contradiction | None
    """The `Contradiction` the answer states, if any (it costs the point)."""

    @property
    def counts(self) -> bool:
        return self.said and self.contradiction is None


def _concepts(phrases) -> list[str]:
    return [*phrases.en, *phrases.zh]


_FORMS: dict[int, tuple] = {}


def _forms(point) -> tuple:
    cached = _FORMS.get(id(point))
    if cached is not None and cached[0] is point:
        return cached[1]
    forms = [[[phrase for phrases in point.phrases.values() for phrase in phrases]]]
    forms += [[_concepts(concept) for concept in claim] for claim in point.claims]
    contradictions = [(item, [_concepts(concept) for concept in item.concepts]) for item in point.contradicts]
    _FORMS[id(point)] = (point, (forms, contradictions))  # the point is kept alive with its id
    return forms, contradictions


# The other ranks, as a diagnosis contrasts them with the culprit ("the other ranks' memory stays flat").
_OTHER_RANKS = re.compile(r"\b(?:other ranks?|the others?|others|the rest|rest of the ranks|remaining ranks|everyone else)\b|"
                          r"其他|其它|其余|别的|剩下")


_NUMBERED_RANK = re.compile(r"\b(?:rank|r)\s?\d|\d\s?号")


def _describing(reading: Reading) -> Reading:
    """The clauses that describe the culprit's run: not a prescribed fix, and without the fragments
    about the other ranks, which are the contrast ("rank 0 keeps every step's logits; the other
    ranks' memory stays flat" says nothing flat about rank 0)."""
    kept = []
    for clause in reading.clauses:
        if clause.prescribes:
            continue
        # A fragment about the others, and those after it in the clause until one names a rank again:
        # its subject carries over ("其他 rank 不存，显存是平的").
        fragments, about_others = [], False
        dropped: set[int] = set()
        for index, fragment in enumerate(clause.fragments):
            if fragment.base is not None:  # an extension goes with the fragment it extends
                if fragment.base not in dropped:
                    fragments.append(fragment)
                continue
            others = _OTHER_RANKS.search(fragment.text)
            if others and len(fragment.text[:others.start()].split()) <= 2:
                about_others = True  # the others are its subject, not a comparison ("as everyone else's")
            elif _NUMBERED_RANK.search(fragment.text):
                about_others = False
            if not about_others:
                fragments.append(fragment)
            else:
                dropped.add(index)
        if len(fragments) == len(clause.fragments):
            kept.append(clause)
        elif fragments:
            kept.append(Clause(fragments, clause.bare, clause.question, clause.marked, clause.copied))
    return Reading(kept, reading.words, reading.bare, reading.copied)


def judge(point, reading: Reading, describing: bool = False) -> Judgement:
    """Said, denied or contradicted: the point's claim forms and contradictions over the clauses.
    `describing`: the contradictions describe what happened (a lab diagnosis), so they are read
    only from clauses that do not prescribe a fix ("Fix: every rank has the same number of
    batches" is the fix, not a claim about the run)."""
    forms, contradictions = _forms(point)
    results = [polarity(form, reading) for form in forms]
    said = any(result is True for result in results)
    if not said and any(clause.items for clause in reading.clauses):
        said = any(enumerates(forms, clause) for clause in reading.clauses)
    denied = not said and any(result is False for result in results)
    contradiction = None
    if describing and contradictions:
        reading = _describing(reading)
    for item, concepts in contradictions:
        result = polarity(concepts, reading, extended=False, describing=describing)
        if result is True and contradiction is None:
            contradiction = item
        elif result is False:
            said, denied = True, False  # "TP 不要跨节点": denying the opposite states the claim
    return Judgement(said, denied, contradiction)
