"""Where an answer's clauses and fragments end: sentence punctuation and the conjunctions that
start another statement (clauses), commas, dashes and an "and" that starts another parallel
dimension's statement (fragments), and asides in brackets.
"""

from __future__ import annotations

import re

from tutor.grading.claims.folding import _CJK_CHAR

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
