"""A run of terms states nothing: the rules that tell a list of buzzwords ("checkpoint async
sharded Young MTBF") from a terse statement ("synchronous all-reduce after backward"), a plan of
steps, a definition written with "=", a spec line, or a list under a head whose items each make
the point with it.
"""

from __future__ import annotations

import re

from tutor.grading.claims.boundaries import _FRAGMENT
from tutor.grading.claims.folding import _CJK, _SPACES, _words, fold
from tutor.grading.claims.model import Clause, Fragment, _extension
from tutor.grading.claims.negation import _ZH_NEGATION_STARTS

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
detect test check plot compare find dump turn cut drop raise move add measure""".split())


_ZH_FUNCTION = frozenset("""的 了 是 在 和 与 把 被 让 给 对 从 到 就 都 也 还 又 才 只 只有 要 会 能 可以 因为 所以 但是 而
如果 那么 这 那 这个 那个 个 一 里 时 先 再 用 做 等 停 卡 它 他们 没有 不 就是 还是 或者 并
且 比 更 最 很 太 吗 呢 吧 着 过 得 地 之 为 以 于 而且 然后 已经 一直 该 应该 需要 不要 不用 哪 哪个 什么 怎么 多少 几
按 按照 代替 替代 而不是
""".split())
# 按 (by) and 代替 (instead of) as "by" and "instead" are in English: "fix：按 token 数 balance，packing 代替
# padding" is a fix in mixed Chinese and English, which without them read as eight bare terms.
BARE_MIN_WORDS = 6
BARE_FUNCTION_SHARE = 0.15


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
    steps ("开flight recorder，找共同节点，查ECC，换机器"). A long run of terms stays a list with one
    phrase among its items ("data loading, tokenizer, before the first op, MFU, synthetic data,
    next_batch, BPE"); a statement first is a head its examples follow ("再查改了什么，代码、数据、节点"),
    and one last what they do ("norms, softmax, optimizer, communication, and casting adds overhead")."""
    if not pieces or _plan(pieces):
        return False
    average = sum(map(len, pieces)) / len(pieces)
    statements = [index for index, piece in enumerate(pieces) if _statement_fragment(piece)]
    if len(pieces) >= VERY_LONG_LIST_PIECES and average < VERY_LONG_LIST_ITEM_WORDS:
        # eight terms or more and a statement or two among them: "all ranks call the collective, rank 0
        # writes, barrier, torch.distributed.checkpoint, flight recorder, torchfrtrace, smoke test"
        return 3 * len(statements) <= len(pieces)
    if average >= LIST_ITEM_WORDS:
        return False
    return not statements or (len(pieces) >= LONG_LIST_PIECES and len(statements) == 1
                              and 0 < statements[0] < len(pieces) - 1)


LONG_LIST_PIECES = 6
VERY_LONG_LIST_PIECES = 8
VERY_LONG_LIST_ITEM_WORDS = 4.5


def _bare(words: list[str], raw: str, fragments: int, alone: bool, pieces: list[list[str]] | None = None) -> bool:
    """A run of terms: no question mark, and either four or more comma-separated pieces of a
    word or two each with no piece a statement ("checkpoint, async, sharded, Young" is a list;
    "再查改了什么，代码、数据、节点、驱动" is a statement with its examples), or six or more words with
    almost no structure words — when they are the whole answer, unpunctuated (`alone`); inside a
    punctuated answer only a long run counts, since terse experts write clauses like
    "synchronous all-reduce after backward". Chinese clauses go by their chunks (`_bare_chinese`)."""
    if "?" in raw or "？" in raw or _definition(raw):
        return False
    average = len(words) / fragments if fragments else 0.0
    if fragments >= LIST_PIECES and (average < LIST_ITEM_WORDS or fragments >= VERY_LONG_LIST_PIECES
                                     and average < VERY_LONG_LIST_ITEM_WORDS) and _listing(pieces or []):
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
    return (share == 0 and len(words) >= LONG_RUN_WORDS and not _NUMBERS_COMPARED.search(raw)
            and any(len(piece) >= RUN_PIECE_WORDS for piece in pieces or [words]))


LONG_RUN_WORDS = 10
# Two figures set against each other ("over IB (~50 vs 450 GB/s)", "13 s -> 10 s") or one worked
# out ("16 bytes/param x 400B = 6.4 TB") state a comparison or a result: a terse clause with one is a
# claim, not a run of terms.
# ... with units of a few pieces and the other side's name before its figure: "NVLink ~450 GB/s/dir/GPU vs IB
# ~50 GB/s/GPU" (s37 fresh batch: a terse expert's bullet read as a run of terms)
_NUMBERS_COMPARED = re.compile(r"\d\s?(?:[a-z/%]+\s?){0,3}(?:vs\.?|versus|<|>|->|→|=|≈)\s?(?:[a-z]{1,12}\s?)?[~≈]?\d",
                               re.IGNORECASE)
RUN_PIECE_WORDS = 6


# "Ring AR = reduce-scatter + all-gather": a short subject, a relation sign and a short right side is a
# statement written as a formula, not a run of terms. Both sides short, so a list with an "=" in it
# ("TP DP PP CP = NVLink IB overlap bucket backward", "checkpoint = async sharded Young MTBF restart
# spare nodes") is still a list.
_RELATION = re.compile(r"\s?(?:=|≈|~=|->|→|⇒)\s?")
DEFINITION_LEFT_WORDS = 3
DEFINITION_RIGHT_WORDS = 6


_SETTING = re.compile(r"(?<![\w=])[A-Z][A-Z0-9_]{2,}=[\w.:-]+")


def _definition(raw: str) -> bool:
    """Some fragment of the clause is `subject = short right side` (an environment setting such as
    TORCH_DISTRIBUTED_DEBUG=DETAIL is a term, not a statement)."""
    raw = _SETTING.sub(" ", raw)
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
