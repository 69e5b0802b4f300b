"""How a post-mortem quotes the run's evidence, written the way the ranks reader reads a place
(`tutor.labs.run_diagnosis`): a flight recorder read across ("all_gather on rank 0 and all_reduce on
ranks 1, 2, 3"), a stack frame's CamelCase class, gloo's transport timeouts.
"""

from __future__ import annotations

import re

OP_NAME = r"(?:all[_ -]?gather|all[_ -]?reduce|broadcast|reduce|gather|barrier|recv|send|irecv|isend)"
"""A collective or point-to-point call as code and flight recorders name it."""

# The calls first, their ranks after: "entry 12 is all_gather at train.py:62 on rank 0 and all_reduce at
# train.py:58 on ranks 1, 2, 3", "gloo:broadcast [1] on rank 0, gloo:all_gather [1] on ranks 1-3" (a
# flight recorder read across; s35 df6a: the second call was read as rank 0's). Written the ranks
# first, one clause each: "rank 0 in all_gather at train.py:62; ranks 1, 2, 3 in all_reduce at …".
# A call as a flight recorder or a stack names it: "gloo:all_gather [1]", "all_reduce at train.py:58",
# "pieces in make_batch". Of the two, one must be a collective or point-to-point call (below).
_CALL_FIRST = (r"`?(?:\w+:)?(?:dist\.)?(?:the\s)?[A-Za-z_][\w.]*`?(?:\(\))?(?:\s?\[[\d, ]*\])?"
               r"(?:\s(?:at|from|in)\s(?:line\s)?[\w./]+(?::\d+)?(?:\sin\s\w+)?)?")
_RANKS_AFTER = r"(?:ranks?|r)\s?\d+(?:\s*(?:,|and|&|-|–|/)\s*(?:rank\s?|r)?\d+)*"
# "on" only: "recv from rank 1" and "waits for rank 1" name the peer, not where it is
_CALLS_THEN_RANKS = re.compile(rf"(?<![\w`])({_CALL_FIRST})\son\s({_RANKS_AFTER})(\s*(?:,|;)?\s*(?:and|but|while|whereas)?\s*)"
                               rf"({_CALL_FIRST})\son\s({_RANKS_AFTER})\b", re.IGNORECASE)


# A class in a stack frame names what it is part of: "MainThread in _MultiProcessingDataLoaderIter._next_data"
# waits in the DataLoader (s35 df6a: read as no place). Three humps or more, its words said before it;
# "DataLoader" itself is read already.
_CAMEL = re.compile(r"(?<![A-Za-z0-9])_*(?:[A-Z][a-z0-9]+){3,}(?![a-z0-9])")


def camel_words(text: str) -> str:
    """The answer with each long CamelCase name preceded by its words ("multi processing data loader iter")."""
    return _CAMEL.sub(lambda found: " ".join(re.findall(r"[A-Z][a-z0-9]+", found.group())).lower() + " " + found.group(),
                      text)


def ranks_before_calls(text: str) -> str:
    """The answer with "X on rank 0 and Y on ranks 1-3" written "rank 0 in X; ranks 1-3 in Y"."""
    def ranks_first(found: re.Match) -> str:
        if not re.search(OP_NAME, found[1] + " " + found[4], re.IGNORECASE):
            return found.group()  # "waiting on rank 0 and blocked on rank 1": no call named
        return f"{found[2]} in {found[1]}; {found[5]} in {found[4]}"

    return _CALLS_THEN_RANKS.sub(ranks_first, text)


# gloo names a timed-out collective by the transport's op: "Timed out waiting 6000ms for recv operation",
# "rank 2's is a send timeout" where every rank waits in the all_reduce at train.py:70 (s35 df6a: rank 2
# read as in a send). The timeout is the error's name, not the rank's call.
_TRANSPORT_TIMEOUT = re.compile(r"\b(?:send|recv)\s+(?:operation\s+)?time[- ]?outs?\b|"
                                r"\bwaiting\s+\d+\s?m?s\s+for\s+(?:send|recv)\s+operation\b", re.IGNORECASE)


def transport_timeouts_named(text: str) -> str:
    """The answer with gloo's "send timeout" / "waiting … for recv operation" said as a timeout."""
    return _TRANSPORT_TIMEOUT.sub(" timeout ", text)
