"""Where an answer's clauses and fragments end: sentence punctuation and the conjunctions that
start another statement (clauses), commas, dashes and an "and" that starts another parallel
dimension's statement (fragments), and asides in brackets.
"""

from __future__ import annotations

import re

from tutor.grading.claims.folding import _CJK_CHAR

# Clause boundaries: sentence punctuation, and conjunctions that begin another statement ("while"
# only where it contrasts two statements: `clause_breaks`).
# "not because X" keeps X in the negated clause ("it's not because only the GEMMs use FP8").
# Not the dot of "i.e.", "e.g." or "vs.", which joins what follows to the statement it glosses ("NDR IB is
# 400 Gb/s, i.e. 50 GB/s per GPU" is one statement about IB, round 6).
_CLAUSE = re.compile(
    r"(?<!\bi\.e)(?<!\be\.g)(?<!\bvs)[.;!?:\n。；！？：]+(?:\s|$)|[;!?\n。；！？：]+|"
    # NFKC makes the full-width colon ASCII, with no space after it in Chinese ("原因：每步只同步一次")
    rf"(?<=[{_CJK_CHAR}]):|:(?=[{_CJK_CHAR}])|"
    r"\s(?:whereas|although|though|since|which|so|hence|thus|therefore|instead(?!\sof\b))\s|"
    # not the "but" of "except" (round 6, 2026-12-03): "nobody but rank 0 calls the all_gather" is one statement
    # about rank 0, which cut at "but" read as "nobody" and a bare "rank 0 calls the all_gather"
    r"(?<!\bnobody)(?<!\bno one)(?<!\bnone)(?<!\bnothing)(?<!\banyone)(?<!\beveryone)(?<!\beverybody)(?<!\ball)\sbut\s|"
    # "then" begins another statement ("rank 0 saves, then the others wait"), except in a sequence of
    # collectives, which is one ("a reduce-scatter then an all-gather").
    # The collective may be written as code ("broadcast then all_gather"), or as the function that wraps it
    # ("does broadcast (line 55) then gather_tokens (line 56)": round 6, 2026-12-03, the order cut in two).
    r"\sthen\s(?!(?:an?\s|the\s|its\s)?(?:all[\s_-]?gather|all[\s_-]?reduce|reduce[\s_-]?scatter|all[\s_-]?to[\s_-]?all|broadcast|"
    r"send|recv|receive|isend|irecv|gather|ag|ar|rs)(?:_[a-z]\w*)?\b)|"
    r"(?<!not)(?<!n't)\sbecause\s|"
    # an item marker of a numbered list ("1) pretokenize 2) more workers"): each item is its own
    # statement; read as one clause, the list was a run of terms with no claim
    r"(?<!\S)\d{1,2}\)(?=\s)|"
    r"但是|但|而是|而|因为|所以|因此|然后|不过|否则", re.IGNORECASE)
# Fragments: between commas and dashes, and at an "and" that starts another parallel dimension's
# statement ("DP inside the node and TP across nodes" puts TP across nodes, not inside).
# Not a thousands separator: "8,000 H100s", "1,300 days" are one number.
# Not a 、 between single letters: "K、V 的点对点传输" names one pair of tensors, which a cut would leave as "k" and
# "v 的点对点传输" (round 6); "TP、PP、DP" stays a list.
_FRAGMENT = re.compile(r"(?<!\d),|,(?!\d{3}(?!\d))|[，—–]|(?<![A-Za-z])、|、(?![A-Za-z](?![A-Za-z0-9]))|\s-\s|\s--\s|\s(?:and|but)\s(?=(?:the\s)?(?:tp|pp|dp|cp|ep|tensor|pipeline|data|context|"
                       r"expert)(?:\s|$|-))", re.IGNORECASE)
# An aside in brackets is its own fragment, and the words around it stay one: "Forward tensors
# (activations and weights) use E4M3" puts E4M3 on the forward tensors.
_ASIDE = re.compile(r"[(（]([^()（）]*)[)）]")


# "while" contrasts two statements ("rank 0 waits in the broadcast while ranks 1-3 wait in all_gather",
# "TP stays inside the node while DP goes across nodes"), or says when the first one happens ("the
# DataLoader forked its workers while the lock was held", "each bucket is all-reduced while the rest
# of backward runs"): one statement, whose parts a claim may need together. It contrasts where both
# sides put their subject somewhere (a place after a preposition) and the second has a subject of its
# own (not "while holding the lock", "while in backward").
_WHILE = re.compile(r"\swhile\s", re.IGNORECASE)
_PLACEMENT = re.compile(r"\b(?:in|inside|within|on|at|across|into|onto|over|under|between|for|outside)\s+\S", re.IGNORECASE)
_NO_SUBJECT = re.compile(r"^\s*(?:\w+ing\b|(?:in|on|at|during|inside|within|under|still|also|being|it['’]s)\b)",
                         re.IGNORECASE)


_LIST_MARKER = re.compile(r"\d{1,2}\)")


def _in_bracket(text: str, at: int) -> bool:
    """Whether an opening bracket before `at` is still open there."""
    before = text[max(0, at - ASIDE_REACH):at]
    return before.count("(") + before.count("（") > before.count(")") + before.count("）")


ASIDE_REACH = 60


def clause_breaks(text: str) -> list[re.Match]:
    """Where the clauses of `text` end: the `_CLAUSE` boundaries, and each "while" between two
    statements that contrast (each of them placing its subject)."""
    # The closing bracket of an aside is no list item's marker: "does broadcast (line 55) then gather_tokens"
    # (round 6, 2026-12-03: "55)" cut the order in two).
    breaks = [match for match in _CLAUSE.finditer(text) if not (_LIST_MARKER.fullmatch(match.group()) and _in_bracket(text, match.start()))]
    if " while " not in text.casefold():
        return breaks
    contrasts = []
    for match in _WHILE.finditer(text):
        if any(other.start() <= match.start() < other.end() for other in breaks):
            continue  # part of another boundary
        begin = max((other.end() for other in breaks if other.end() <= match.start()), default=0)
        end = min((other.start() for other in breaks if other.start() >= match.end()), default=len(text))
        before, after = text[begin:match.start()], text[match.end():end]
        if _PLACEMENT.search(before) and _PLACEMENT.search(after) and not _NO_SUBJECT.match(after):
            contrasts.append(match)
    return sorted(breaks + contrasts, key=lambda match: match.start())


# A bracket that is part of a formula, not an aside: "the bubble (p-1)/m", "2(d-1)/d", "(6+12/N)Ψ",
# "1/(0.4+0.3)". Its content is a formula: symbols, numbers and operators, not two words in a row nor
# a hyphenated word or a slash list ("(memory-bound)", "(send/recv)"), nothing Chinese; and it is glued
# to the formula outside, an operator or a symbol right after it or right before. Cut out as an aside
# it would leave "… bubble m" and "p 1", and the phrase "(p-1)/m" (read "p 1 m") would never match;
# "the bubble (fwd)", "8 GPUs (2 nodes)" and Chinese brackets, glued to their words, stay asides.
_OPERATOR = "+\\-*/^×·÷√"
_SYMBOL = "A-Za-z0-9ΨψδΔαβ"
_FORMULA_CONTENT = re.compile(rf"^[{_SYMBOL}\s.{_OPERATOR}]{{1,40}}$")
_WORDS_IN_A_ROW = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")
_JOINED_WORDS = re.compile(r"[A-Za-z]{2,}(?:[-/][A-Za-z]{2,})+")
_HAS_OPERATOR = re.compile(rf"[{_OPERATOR}]")
_GLUED_AFTER = re.compile(rf"\s?[/*^×·÷]|[{_SYMBOL}(√]")
_GLUED_BEFORE = re.compile(rf"[{_SYMBOL}){_OPERATOR}]$")
_INSIDE_OPERATOR = re.compile(rf"[\s{_OPERATOR}]")
_NAME = re.compile(r"[A-Za-z]{2,}")


def _formula(content: str) -> bool:
    return (bool(_FORMULA_CONTENT.match(content)) and not _WORDS_IN_A_ROW.search(content)
            and bool(_HAS_OPERATOR.search(_JOINED_WORDS.sub(" ", content))))


def formulas_inline(text: str) -> str:
    """`text` with the brackets of formulas (`_formula`, glued) as spaces and, where it holds only
    one-letter symbols and numbers, each one's content as one word: "(p-1)/m" reads "p1 /m", folded
    "p1 m", which the phrase "(p-1)/m" (`p ?1 ?m`) matches, while "(p-1)/(m+p-1)" reads "p1 mp1",
    which it does not."""
    if "(" not in text:
        return text

    def inline(match: re.Match) -> str:
        content = match.group(1)
        glued = _GLUED_AFTER.match(text, match.end()) or _GLUED_BEFORE.search(text[:match.start()])
        if glued and match.group().startswith("(") and _formula(content.strip()):
            # one-letter symbols and numbers make one word; named ones stay words ("(TP·CP)", "(DP × micro-batch)")
            joined = "" if not _NAME.search(content) else " "
            return " " + _INSIDE_OPERATOR.sub(joined, content) + " "
        return match.group()

    return _ASIDE.sub(inline, text)
