"""A hung or crashed run, rank by rank: stacks side by side, collectives side by side, the first divergence.

Pure functions of a run's evidence (and the event files in its run folder, which hold every
collective each rank made, where the evidence keeps only the last few), shared by the CLI
(`tutor lab evidence`) and the app's hang view.

Collectives are lined up the way the backends match them: on one process group the k-th
collective of every rank meets the k-th of every other rank, whatever it is called; a
point-to-point receive from rank b is met by rank b's send to it, in order. The first
position where the ranks disagree (another op, another shape, or a rank that never got
there) is where the hang began; a receive no send will ever meet is the same for pipelines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tutor.labs.events import event_file, read_all
from tutor.text import T

P2P = {"send", "recv", "isend", "irecv", "batch_isend_irecv"}
# torch, the interpreter's machinery (multiprocessing and the queues a DataLoader waits on), and
# the tutor's own plumbing (TUTOR_FRAMES), so that the innermost frame shown is the learner's.
TUTOR_FRAMES = re.compile(r"(^|/)tutor/labs/")
"""The tutor's own code in a rank: the rank runner, the recorder, and the scenery the hang labs
share (tutor/labs/rank/training.py's Trainer, replay.py's check, memory.py's simulated GPU).
Never the learner's to edit, so never in a stack the learner reads (docs/labs.md, "Code the labs
share"): `learner_stack` drops these frames from every stack kept for a run."""
SKIPPED_FILES = re.compile(r"(^|/)(torch/|threading\.py|runpy|<frozen|importlib|multiprocessing/|selectors\.py|queue\.py|"
                           r"tutor/labs/)")
PY_SPY_FRAME = re.compile(r"^\s+(?P<func>\S.*?) \((?P<file>[^()]+?):(?P<line>\d+)\)$")
PY_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+),? in (?P<func>.+)$')
WINDOW = 5
DIVERGENCE = {
    "calls": T("{who} calls {label} ({site})", "{who} 调用的是 {label}({site})"),
    "call": T("{who} call {label} ({site})", "{who} 调用的是 {label}({site})"),
    "never_calls": T("{who} never calls it", "{who} 根本没有调用"),
    "never_call": T("{who} never call it", "{who} 根本没有调用"),
    "joined": T("; ", ";"),
    "p2p": T("rank {rank} waits in {label} ({site}), message {position} from rank {peer}; rank {peer} {peer_now}",
             "rank {rank} 停在 {label}({site})，等 rank {peer} 的第 {position} 条消息；rank {peer} {peer_now}"),
    "peer_waits": T("waits in {label} ({site})", "停在 {label}({site})"),
    "never_sends": T("never sends it", "根本没有发"),
}
"""The sentence that says what differs, in both languages (`tutor lab evidence`, the app's hang view)."""


@dataclass(frozen=True)
class Frame:
    func: str
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.func} ({Path(self.file).name}:{self.line})"


@dataclass
class RankStack:
    rank: int
    frames: list[Frame]
    """The program's own frames, innermost first."""
    source: str | None
    last_step: int | None
    waiting_in: dict | None
    """The collective the rank was inside, or raised in (None: outside any)."""
    failure: str | None = None
    thread_state: str | None = None
    """py-spy's word for the main thread: `idle` (waiting, e.g. in a C++ collective) or `active`
    (running Python; `active+gil` holding the interpreter lock); None for other stack sources."""


@dataclass
class Call:
    rank: int
    seq: int
    op: str
    shape: list | None
    group: tuple[int, ...] | None
    peer: int | None
    site: str | None
    state: str

    def label(self) -> str:
        shape = f"{self.shape}" if self.shape is not None else ""
        if self.peer is None:
            return f"{self.op}{shape}"
        if self.op in P2P:
            return f"{self.op}{shape}{'→' if self.op in ('send', 'isend') else '←'}{self.peer}"
        return f"{self.op}{shape} root {self.peer}"


@dataclass
class Timeline:
    """Each process group's collectives by position, and each rank's point-to-point operations."""

    ranks: list[int]
    groups: dict[tuple[int, ...] | None, dict[int, list[Call]]] = field(default_factory=dict)
    p2p: dict[int, list[Call]] = field(default_factory=dict)


# ---------------------------------------------------------------- stacks


def learner_stack(stack: str | None) -> str | None:
    """The stack without the tutor's frames (TUTOR_FRAMES): the learner's, torch's and Python's stay.

    For py-spy's and faulthandler's dumps (one line a frame) and for a Python traceback (a frame's
    `File` line and the source lines under it). Stacks of runs kept from before are read as they
    are: `program_frames` skips the same frames.
    """
    if not stack:
        return stack
    kept: list[str] = []
    dropping = False  # inside a dropped traceback frame: its source lines (indented deeper) go too
    for line in stack.splitlines():
        frame = PY_SPY_FRAME.match(line) or PY_FRAME.match(line.replace(", in ", " in ") if "File " in line else line)
        if frame is not None:
            dropping = bool(TUTOR_FRAMES.search(frame["file"].replace("\\", "/")))
            if dropping:
                continue
        elif dropping and line.startswith("    ") and not line.lstrip().startswith("File "):
            continue
        else:
            dropping = False
        kept.append(line)
    return "\n".join(kept) + ("\n" if stack.endswith("\n") else "")


def program_frames(stack: str | None) -> list[Frame]:
    """The learner's frames of the main thread, innermost first, from py-spy, faulthandler or a traceback."""
    if not stack:
        return []
    frames, outer_first = [], False
    stack = own_process(stack)  # the rank's own process only; its children are child_stacks'
    for line in main_thread(stack).splitlines():
        match = PY_SPY_FRAME.match(line)
        if match is None:
            match = PY_FRAME.match(line.replace(", in ", " in ") if "File " in line else line)
            outer_first = outer_first or match is not None
        if match is None:
            continue
        frame = Frame(match["func"].strip(), match["file"], int(match["line"]))
        if not SKIPPED_FILES.search(frame.file.replace("\\", "/")):
            frames.append(frame)
    # tracebacks list the outermost call first; py-spy and faulthandler the innermost first
    return list(reversed(frames)) if outer_first and "Traceback" in stack else frames


PROCESS_HEAD = re.compile(r"^Process (\d+): ", re.M)
MAIN_THREAD_STATE = re.compile(r'^Thread \S+ \(([a-z+]+)\): "MainThread"', re.M)


def thread_state(stack: str | None) -> str | None:
    """py-spy's state of the rank's main thread (`idle`, `active`, `active+gil`), if it says."""
    match = MAIN_THREAD_STATE.search(own_process(stack or ""))
    return match.group(1) if match else None


def own_process(stack: str) -> str:
    """The rank's own part of a py-spy `--subprocesses` dump (the whole text otherwise)."""
    heads = list(PROCESS_HEAD.finditer(stack))
    return stack[:heads[1].start()] if len(heads) > 1 else stack


def child_stacks(stack: str | None) -> list[tuple[int, list[Frame]]]:
    """(pid, program frames of its main thread) of each child process in a py-spy
    `--subprocesses` dump (a rank's DataLoader workers), after the rank's own process."""
    if not stack:
        return []
    heads = list(PROCESS_HEAD.finditer(stack))
    children = []
    for head, after in zip(heads[1:], heads[2:] + [None]):
        children.append((int(head.group(1)), program_frames(stack[head.start():after.start() if after else len(stack)])))
    return children


def main_thread(stack: str) -> str:
    """The main thread's part of a multi-thread dump (the whole text when there is one thread)."""
    parts = re.split(r"\n(?=Thread |Current thread |\S.*Thread 0x)", stack)
    for part in parts:
        if "MainThread" in part.splitlines()[0] or part.startswith("Current thread"):
            return part
    return parts[0] if len(parts) == 1 else next((p for p in parts if "(most recent call first)" in p), parts[0])


def stacks(evidence: dict) -> list[RankStack]:
    at_failure = evidence.get("at_failure") or {}
    found = []
    for rank in evidence.get("ranks") or []:
        waiting = at_failure.get(str(rank["rank"]), rank.get("pending")) if at_failure else rank.get("pending")
        last = (rank.get("collectives") or [None])[-1]
        if waiting is None and last and last.get("state") == "failed":
            waiting = last  # where it raised: the process-group timeout, or its peer's timeout reaching it
        exception = rank.get("exception") or {}
        first_line = next(iter((exception.get("message") or "").splitlines()), "")  # a bare `raise E()` has none
        failure = f"{exception.get('type')}: {first_line[:200]}" if exception.get("type") else None
        found.append(RankStack(rank["rank"], program_frames(rank.get("stack")), rank.get("stack_source"),
                               rank.get("last_step"), waiting, failure, thread_state(rank.get("stack"))))
    return found


# ---------------------------------------------------------------- collectives


def timeline(evidence: dict) -> Timeline:
    """Every collective of every rank, from the run folder's event files (else the evidence's last few)."""
    ranks = sorted(rank["rank"] for rank in evidence.get("ranks") or [])
    view = Timeline(ranks)
    run_dir = Path(evidence.get("run_dir") or "")
    for rank in ranks:
        calls = _calls_from_events(rank, run_dir) if run_dir.is_dir() else []
        if not calls:
            entry = next(r for r in evidence["ranks"] if r["rank"] == rank)
            calls = [Call(rank, c["seq"], c["op"], c.get("shape"), _group(c.get("group")), c.get("peer"),
                          c.get("site"), c.get("state") or "done") for c in entry.get("collectives") or []]
        for call in calls:
            if call.op in P2P:
                view.p2p.setdefault(rank, []).append(call)
            else:
                view.groups.setdefault(call.group, {}).setdefault(rank, []).append(call)
    return view


def _group(ranks) -> tuple[int, ...] | None:
    return tuple(ranks) if ranks else None


def _calls_from_events(rank: int, run_dir: Path) -> list[Call]:
    calls: dict[int, Call] = {}
    for event in read_all(event_file(run_dir, rank)):
        if event["ev"] == "coll":
            calls[event["seq"]] = Call(rank, event["seq"], event["op"], event.get("shape"), _group(event.get("group")),
                                       event.get("peer"), event.get("site"),
                                       "issued" if event.get("asynchronous") else "waiting")
        elif event["ev"] == "coll_end" and event["seq"] in calls:
            calls[event["seq"]].state = "failed" if event.get("error") else "done"
    return [calls[seq] for seq in sorted(calls)]


@dataclass
class Divergence:
    kind: str
    """"collective" (a process group's k-th collectives differ) or "p2p" (a receive no send meets)."""
    position: int
    group: tuple[int, ...] | None
    by_rank: dict[int, Call | None]
    text: T
    """What differs, in one sentence."""


def first_divergence(view: Timeline) -> Divergence | None:
    for group, by_rank in view.groups.items():
        members = list(group) if group else view.ranks
        longest = max((len(calls) for calls in by_rank.values()), default=0)
        for position in range(longest):
            row = {rank: (by_rank.get(rank) or [])[position] if position < len(by_rank.get(rank) or []) else None
                   for rank in members}
            kinds = {(call.op, tuple(call.shape or ())) for call in row.values() if call is not None}
            if len(kinds) > 1 or None in row.values():
                return Divergence("collective", position, group, row, _collective_text(row))
    return _p2p_divergence(view)


def _collective_text(row: dict[int, Call | None]) -> T:
    groups: dict[str, list[int]] = {}
    for rank, call in row.items():
        groups.setdefault(call.label() if call else "", []).append(rank)
    parts = []
    for label, ranks in sorted(groups.items(), key=lambda item: item[1]):
        who, one = ranks_text(ranks), len(ranks) == 1
        if label:
            site = next(call.site for rank, call in row.items() if rank in ranks and call is not None)
            parts.append(DIVERGENCE["calls" if one else "call"].filled(who=who, label=label, site=site))
        else:
            parts.append(DIVERGENCE["never_calls" if one else "never_call"].filled(who=who))
    joined = DIVERGENCE["joined"]
    return T(joined.en.join(part.en for part in parts), joined.zh.join(part.zh for part in parts))


def _p2p_divergence(view: Timeline) -> Divergence | None:
    """The first receive (or send) whose peer never posts the matching operation."""
    sent: dict[tuple[int, int], int] = {}
    received: dict[tuple[int, int], int] = {}
    for rank, calls in view.p2p.items():
        for call in calls:
            if call.peer is None:
                continue
            if call.op in ("send", "isend"):
                sent[(rank, call.peer)] = sent.get((rank, call.peer), 0) + 1
            elif call.op in ("recv", "irecv"):
                received[(call.peer, rank)] = received.get((call.peer, rank), 0) + 1
    for rank, calls in sorted(view.p2p.items()):
        counts: dict[tuple[int, int], int] = {}
        for call in calls:
            if call.peer is None or call.state == "done":
                if call.peer is not None:
                    key = (call.peer, rank) if call.op in ("recv", "irecv") else (rank, call.peer)
                    counts[key] = counts.get(key, 0) + 1
                continue
            receiving = call.op in ("recv", "irecv")
            key = (call.peer, rank) if receiving else (rank, call.peer)
            position = counts.get(key, 0)
            other = sent.get(key, 0) if receiving else received.get(key, 0)
            if other <= position:
                peer_calls = view.p2p.get(call.peer) or []
                peer_now = next((c for c in reversed(peer_calls) if c.state != "done"), None)
                peer_state = (DIVERGENCE["peer_waits"].filled(label=peer_now.label(), site=peer_now.site) if peer_now
                              else DIVERGENCE["never_sends"])
                text = DIVERGENCE["p2p"].filled(rank=rank, label=call.label(), site=call.site, position=position + 1,
                                                peer=call.peer, peer_now=peer_state)
                return Divergence("p2p", position, None, {rank: call, call.peer: peer_now}, text)
            counts[key] = position + 1
    return None


def rows(view: Timeline, group: tuple[int, ...] | None = None, around: int | None = None,
         window: int = WINDOW) -> list[tuple[int, dict[int, Call | None]]]:
    """The last `window` positions of one group (ending at `around` when given), rank by rank."""
    by_rank = view.groups.get(group, {})
    members = list(group) if group else view.ranks
    longest = max((len(calls) for calls in by_rank.values()), default=0)
    end = longest if around is None else min(longest, around + 2)
    return [(position, {rank: (by_rank.get(rank) or [None] * (position + 1))[position]
                        if position < len(by_rank.get(rank) or []) else None for rank in members})
            for position in range(max(0, end - window), end)]


def ranks_text(ranks: list[int], lang: str = "en") -> str:
    """"rank 3", "ranks 0-6", "ranks 1, 5": the way the views and the diagnosis name ranks. In
    Chinese the noun has no plural and a range takes the en dash, a list the enumeration comma:
    "rank 0–6", "rank 1、5"."""
    ranks = sorted(ranks)
    zh = lang == "zh"
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    if len(ranks) > 2 and ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"rank {ranks[0]}–{ranks[-1]}" if zh else f"ranks {ranks[0]}-{ranks[-1]}"
    return "rank " + "、".join(map(str, ranks)) if zh else "ranks " + ", ".join(map(str, ranks))
