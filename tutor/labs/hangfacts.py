"""What a run's evidence says about its hang or crash: its ranks in groups, by where each waits.

A group is the ranks waiting in one collective at one call site (or failed, or exited), with the
program's functions on their stacks; the groups a diagnosis must name (`Facts.odd`) are those
not where the most ranks are, or the rank that failed first. The diagnosis graded against these
facts is `tutor.labs.run_diagnosis`; the ranks an answer names, `tutor.labs.rank_mentions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.labs.hangview import main_thread
from tutor.labs.hangview import own_process as hangview_own
from tutor.labs.hangview import stacks

FRAMEWORK_FUNCS = {"main", "<module>", "forward", "backward", "train_step", "step", "finish"}
# Functions of the shared training loop (tutor.labs.rank.training) a rank is in, and the words that
# name where that rank is: "in backward" for the gradient all-reduce, "in finish" at the end. The
# stacks kept for a run no longer hold the tutor's frames (hangview.learner_stack); the recorder
# notes the tutor's functions a collective was made in (its `via`), and runs kept from before
# still have them on their stacks.
HELPER_FRAMES = {"Trainer.backward": "backward", "Trainer.finish": "finish", "check_run": "end of training",
                 "_wait_for_threads": "waits for a thread at exit"}
# A main thread joining a thread with none of the program's frames under it: the program has
# returned and its rank waits for a non-daemon thread at exit (the rank runner's, as the interpreter's).
AT_EXIT_JOIN = re.compile(r"\bjoin\b[^\n]*threading\.py|threading\.py[^\n]*\bin join\b")
# Library frames that name a place the program's own frames do not: a main thread waiting for its
# DataLoader's next batch is in torch's dataloader.py, under the program's `next(...)` line.
# A rank in torch's autograd is in `loss.backward()` (DDP waits there for its gradient all-reduce).
# The wait said as what it waits for: "its main thread waits for a batch in next(batches)".
LIBRARY_PLACES = {"torch/utils/data/dataloader.py": ("dataloader", "data loader", "loader", "next batch", "next batches",
                                                     "for a batch", "for its batch", "for the next batch", "下一个 batch",
                                                     "等 batch", "first batch", "getting a batch", "第一个 batch"),
                  "torch/autograd/": ("backward",)}


@dataclass
class Group:
    ranks: list[int]
    op: str | None
    """The collective they wait in (None: failed, or outside any collective)."""
    site: str | None
    funcs: list[str]
    """The program's functions on their stacks (another way to name where they are)."""
    error: str | None = None
    """The exception a failed rank died of ("OutOfMemoryError"): the words for its failure."""

    @property
    def out_of_memory(self) -> bool:
        return bool(self.error) and "outofmemory" in self.error.casefold().replace(" ", "")


@dataclass
class Facts:
    outcome: str
    groups: list[Group]
    odd: list[Group]
    """The groups a diagnosis must name: not where the most ranks are (or the failed rank)."""
    failed: int | None
    world_size: int


_FACTS: dict[int, tuple[dict, Facts | None]] = {}


def facts(evidence: dict) -> Facts | None:
    """The run's hang or crash in groups of ranks; None for a run that neither hung nor crashed.
    Kept for the last few evidence objects (the learner's attempts at one run share it; evidence
    is read from the store and never changed in place)."""
    cached = _FACTS.get(id(evidence))
    if cached is not None and cached[0] is evidence:
        return cached[1]
    found = _facts(evidence)
    if len(_FACTS) >= 8:
        _FACTS.pop(next(iter(_FACTS)))
    _FACTS[id(evidence)] = (evidence, found)
    return found


def _facts(evidence: dict) -> Facts | None:
    if evidence.get("outcome") not in ("hang", "crash"):
        return None
    failed = (evidence.get("summary") or {}).get("first_failure") if evidence["outcome"] == "crash" else None
    by_place: dict[tuple, Group] = {}
    raw = {rank["rank"]: rank.get("stack") for rank in evidence.get("ranks") or []}
    for stack in stacks(evidence):
        if stack.rank == failed:
            continue
        place = stack.waiting_in or _failed_in(evidence, stack.rank) or _exited(evidence, stack.rank)
        op, site = (place or {}).get("op"), (place or {}).get("site")
        funcs = [frame.func for frame in stack.frames if frame.func not in FRAMEWORK_FUNCS]
        own = hangview_own(raw.get(stack.rank) or "")
        via = " ".join((place or {}).get("via") or ())
        funcs += [words for marker, words in HELPER_FRAMES.items() if marker in own or marker in via]
        if own and not stack.frames and AT_EXIT_JOIN.search(main_thread(own)):
            funcs.append(HELPER_FRAMES["_wait_for_threads"])
        funcs += [word for marker, words in LIBRARY_PLACES.items() if marker in own for word in words]
        group = by_place.setdefault((op, site), Group([], op, site, []))
        group.ranks.append(stack.rank)
        group.funcs = sorted(set(group.funcs) | set(funcs))
    groups = sorted(by_place.values(), key=lambda group: group.ranks)
    if failed is not None:
        odd = [Group([failed], None, None, [], error=_error_of(evidence, failed))]
    elif len(groups) == 1:
        odd = groups  # every rank in the same call (two pipeline stages receiving from each other)
    elif any(group.site == "exited" for group in groups) and not any(group.op for group in groups):
        # A hang at exit: ranks that exited cleanly are where a run ends, so the odd ones are those
        # still there ("which process is still there?"), however many exited. Ranks waiting in a
        # collective for one that exited are another story: there the exited rank is odd.
        odd = [group for group in groups if group.site != "exited"]
    else:
        largest = max(len(group.ranks) for group in groups)
        ties = [group for group in groups if len(group.ranks) == largest]
        odd = [group for group in groups if len(group.ranks) < largest] + (ties if len(ties) > 1 else [])
    return Facts(evidence["outcome"], groups, odd, failed, evidence.get("world_size") or len(groups))


def _error_of(evidence: dict, rank: int) -> str | None:
    """The exception type the failed rank raised, from its record or the run's summary
    ("rank 0 failed: OutOfMemoryError: CUDA out of memory ...")."""
    for entry in evidence.get("ranks") or []:
        if entry.get("rank") == rank and (entry.get("exception") or {}).get("type"):
            return entry["exception"]["type"]
    summary = re.match(r"rank \d+ failed: (\w+)", (evidence.get("summary") or {}).get("message") or "")
    return summary.group(1) if summary else None


def _failed_in(evidence: dict, rank: int) -> dict | None:
    """The collective a rank raised in (its last one, failed): where it was when its peer died
    ("Connection reset by peer" in the all_gather), so it is placed there, not outside any."""
    for entry in evidence.get("ranks") or []:
        if entry.get("rank") == rank and entry.get("collectives"):
            last = entry["collectives"][-1]
            return last if last.get("state") == "failed" else None
    return None


def _exited(evidence: dict, rank: int) -> dict | None:
    """A rank whose process ended with code 0 (a hang at exit leaves the others waiting for one
    that did not): placed at "exited", not with the ranks outside any collective."""
    for entry in evidence.get("ranks") or []:
        if entry.get("rank") == rank and entry.get("exit_code") == 0:
            return {"op": None, "site": "exited"}
    return None


def majority_groups(found: Facts) -> list[Group]:
    return [group for group in found.groups if group not in found.odd]
