"""What a run leaves: per-rank state fed from events and logs, the outcome, the evidence dict.

The outcome is decided by behaviour, in this order: `cancelled` (the learner stopped it),
`hang` (the watchdog saw no progress, or a rank died of the process-group timeout, which is
a hang that the timeout ended), `crash` (a rank raised or died, or the launcher failed),
`wrong` (a self-check failed or a rank declared it), `slow` (declared, or over the wall-clock
limit), else `ok`. The evidence dict is the JSON shape of DESIGN §7.
"""

from __future__ import annotations

import re
import signal
import statistics
from collections import deque
from dataclasses import dataclass, field

LOG_TAIL = 20
COLLECTIVES_SHOWN = 8
# A rank that died of the process-group timeout was hung; these are gloo's and NCCL's words.
# "Application timeout caused pair closure": gloo's words when an asynchronous collective timed out.
TIMEOUT_PATTERNS = re.compile(r"Timed out|timed out|Application timeout|Watchdog caught collective operation timeout|"
                              r"DistBackendError.*[Tt]imeout|wait timeout after")
PROGRESS = {"ready", "step", "coll", "coll_end", "report", "verify", "check", "measure", "steps_done",
            "finished", "exit"}


@dataclass
class RankState:
    rank: int
    pid: int | None = None
    host: str | None = None
    master_port: str | None = None
    ready: bool = False
    last_step: int | None = None
    step_times: list[float] = field(default_factory=list)
    tokens_per_step: int | None = None
    collectives: deque = field(default_factory=lambda: deque(maxlen=64))
    reports: dict = field(default_factory=dict)
    verifies: list[dict] = field(default_factory=list)
    checks: list[dict] = field(default_factory=list)
    measures: list[dict] = field(default_factory=list)
    verdicts: list[dict] = field(default_factory=list)
    exception: dict | None = None
    exit_code: int | None = None
    dump: dict | None = None
    stack: str | None = None
    stack_source: str | None = None
    log: deque = field(default_factory=lambda: deque(maxlen=400))

    def feed(self, event: dict) -> bool:
        """Take one event; True when it shows the rank moving."""
        kind = event["ev"]
        if kind == "boot":
            self.pid, self.host, self.master_port = event.get("pid"), event.get("host"), event.get("master_port")
        elif kind == "ready":
            self.ready = True
        elif kind == "step":
            self.last_step = event["step"]
            self.step_times.append(event["t"])
            self.tokens_per_step = event.get("tokens") or self.tokens_per_step
        elif kind == "coll":
            self.collectives.append({**{k: v for k, v in event.items() if k not in ("ev", "t")},
                                     "state": "issued" if event.get("asynchronous") else "waiting"})
        elif kind == "coll_end":
            for entry in reversed(self.collectives):
                if entry["seq"] == event["seq"]:
                    entry.update(state="failed" if event.get("error") else "done", dt=event.get("dt"))
                    break
        elif kind == "report":
            self.reports.update(event.get("metrics") or {})
        elif kind in ("verify", "check", "measure", "verdict"):
            getattr(self, kind + "s" if kind != "verify" else "verifies").append(event)
        elif kind == "exception":
            self.exception = {key: event.get(key) for key in ("type", "message", "where", "traceback")}
        elif kind == "exit":
            self.exit_code = event.get("code")
        elif kind == "dump":
            self.dump = event
        return kind in PROGRESS

    def pending(self) -> dict | None:
        """The collective this rank is inside (or issued and never waited for), if any."""
        for entry in reversed(self.collectives):
            if entry["state"] in ("waiting", "issued"):
                return entry
        return None

    def failed_in(self) -> dict | None:
        """The collective this rank raised in (its last one, failed: the process-group timeout, or
        its peer's timeout closing the connection), so a hang the timeout ended says where."""
        last = self.collectives[-1] if self.collectives else None
        return last if last is not None and last["state"] == "failed" else None

    def as_dict(self) -> dict:
        return {
            "rank": self.rank, "pid": self.pid, "host": self.host, "exit_code": self.exit_code,
            "last_step": self.last_step, "log_tail": list(self.log)[-LOG_TAIL:],
            "stack": self.stack, "stack_source": self.stack_source,
            "collectives": [_public(entry) for entry in list(self.collectives)[-COLLECTIVES_SHOWN:]],
            "pending": _public(self.pending()) if self.pending() else None,
            "exception": self.exception, "metrics": dict(self.reports),
            "flight_recorder": (self.dump or {}).get("flight_recorder"),
        }


def _public(entry: dict) -> dict:
    return {key: entry.get(key) for key in ("seq", "op", "shape", "dtype", "bytes", "group", "pg", "peer", "site",
                                            "via", "state", "dt")}


def parse_failures(launcher_lines: list[str]) -> dict:
    """torchrun's failure report -> {"exit_codes": {rank: code}, "root_cause": rank, "report": text}."""
    text = "\n".join(launcher_lines)
    start = text.find("Failures:")
    if start < 0:
        start = text.find("Root Cause")
    if start < 0:
        return {"exit_codes": {}, "root_cause": None, "report": None}
    block = text[text.rfind("=" * 20, 0, start) if text.rfind("=" * 20, 0, start) >= 0 else start:]
    codes = {int(rank): int(code) for rank, code in
             re.findall(r"rank\s*:\s*(\d+)\s*\(local_rank:\s*\d+\)\s*\n\s*exitcode\s*:\s*(-?\d+)", block)}
    root = re.search(r"Root Cause.*?rank\s*:\s*(\d+)", block, re.S)
    return {"exit_codes": codes, "root_cause": int(root.group(1)) if root else None, "report": block[-4000:]}


def classify(ranks: list[RankState], *, expected: int, launcher_rc: int | None, hang: bool, cancelled: bool,
             over_time: bool) -> str:
    if cancelled:
        return "cancelled"
    if hang:
        return "hang"
    if any(state.exception and TIMEOUT_PATTERNS.search(state.exception.get("message") or "") for state in ranks):
        return "hang"
    crashed = any(state.exception or (state.exit_code not in (0, None)) for state in ranks)
    if crashed or launcher_rc not in (0, None) or sum(state.exit_code == 0 for state in ranks) < expected:
        return "crash"
    if any(not verify["passed"] for state in ranks for verify in state.verifies) or \
            any(verdict["outcome"] == "wrong" for state in ranks for verdict in state.verdicts):
        return "wrong"
    if over_time or any(verdict["outcome"] == "slow" for state in ranks for verdict in state.verdicts):
        return "slow"
    return "ok"


def metrics(ranks: list[RankState], launched_at: float) -> dict:
    """Step timing from the heartbeats (first step excluded: it carries the warm-up)."""
    firsts = [state.step_times[0] for state in ranks if state.step_times]
    per_rank = {}
    for state in ranks:
        gaps = [b - a for a, b in zip(state.step_times[1:], state.step_times[2:])]
        if gaps:
            per_rank[state.rank] = statistics.median(gaps)
    step_time = statistics.median(per_rank.values()) if per_rank else None
    tokens = sum(state.tokens_per_step or 0 for state in ranks)
    result = {
        "time_to_first_step_s": round(min(firsts) - launched_at, 3) if firsts else None,
        "steps": max((state.last_step + 1 for state in ranks if state.last_step is not None), default=0),
        "step_time_s": step_time,
        "per_rank_step_time_s": per_rank,
        "tokens_per_s": tokens / step_time if tokens and step_time else None,
        "mfu": None,
    }
    first = next((state for state in ranks if state.rank == min(s.rank for s in ranks)), None) if ranks else None
    if first is not None:
        result.update(first.reports)
    return result


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


# A rank that raised because its peer went away (gloo's "Connection closed by peer" and the advice after it)
# failed second, whatever torchrun stamps: a rank aborted in C++ leaves no error file, and on a loaded
# machine the peer's raise can be written before the launcher sees the abort (gather-sizes: rank 0's
# "remote worker" error named as the root cause once in CI-like load, rank 1 died of SIGABRT).
_PEER_LOST = re.compile(r"Connection (?:closed|reset) by peer|remote worker (?:crashing|hanging)|Broken pipe", re.I)
_ABORTS = frozenset(-number for number in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL))
"""Exit codes of a process that ended itself (torchrun's SIGTERM to the others is not one)."""


def _aborted_first(ranks: list[RankState], failures: dict) -> int | None:
    """torchrun's root cause, unless it only lost its peer and another rank aborted without a traceback."""
    root = failures.get("root_cause")
    raised = next((state for state in ranks if state.rank == root and state.exception), None)
    if raised is None or not _PEER_LOST.search(raised.exception.get("message") or ""):
        return root
    codes = failures.get("exit_codes", {})
    aborted = sorted(state.rank for state in ranks if not state.exception and codes.get(state.rank) in _ABORTS)
    return aborted[0] if aborted else root


def summary(outcome: str, ranks: list[RankState], *, expected: int, quiet_s: float | None,
            failures: dict) -> dict:
    """The one-line message and the facts behind it (which ranks wait where, who failed first)."""
    if outcome == "hang":
        waits = {}
        for state in ranks:
            pending = state.pending() or state.failed_in()
            where = f"in {pending['op']} ({pending.get('site') or '?'})" if pending else "outside any collective"
            waits.setdefault(where, []).append(state.rank)
        parts = [f"{_ranks(group)} {where}" for where, group in sorted(waits.items(), key=lambda kv: kv[1])]
        lead = f"no rank made progress for {quiet_s:.0f} s" if quiet_s else "the process-group timeout fired"
        timed_out = next((state for state in ranks if state.exception and
                          TIMEOUT_PATTERNS.search(state.exception.get("message") or "")), None)
        if timed_out is not None:  # the error as the learner meets it, and its line
            # (first even when the watchdog ended the run after it: a rank busy outside any
            # collective outlives its peers' timeouts until the run is stopped)
            where = f" at {timed_out.exception['where']}" if timed_out.exception.get("where") else ""
            lead = "the process-group timeout fired"
            lead += f" (rank {timed_out.rank}: {_first_line(timed_out.exception['message'])}{where})"
        return {"category": "hang", "message": f"{lead}: " + "; ".join(parts), "lead": lead,
                "waiting_in": {where: group for where, group in waits.items()}}
    if outcome == "crash":
        root = _aborted_first(ranks, failures)
        failed = [state for state in ranks if state.exception]
        first = next((state for state in failed if state.rank == root), None)
        code = failures.get("exit_codes", {}).get(root)
        if first is None and isinstance(code, int) and code < 0:
            # torchrun's root cause died of a signal (gloo's enforce aborts in C++: no Python
            # exception); a rank that raised afterwards ("Connection reset by peer") is not it.
            then = f"; then rank {failed[0].rank} failed: {failed[0].exception['type']}" if failed else ""
            return {"category": "crash", "message": f"rank {root} died of {_signal_name(-code)} (exit code {code}){then}",
                    "first_failure": root}
        first = first or (failed[0] if failed else None)
        if first is not None:
            where = f" at {first.exception['where']}" if first.exception.get("where") else ""
            message = f"rank {first.rank} failed: {first.exception['type']}: " \
                      f"{_first_line(first.exception['message'])}{where}"
        elif root is not None:
            message = f"rank {root} exited with code {failures['exit_codes'].get(root)}"
        else:
            missing = sorted(set(range(expected)) - {state.rank for state in ranks if state.exit_code == 0})
            message = f"{_ranks(missing)} did not finish (see the launcher's output)"
        return {"category": "crash", "message": message, "first_failure": first.rank if first else root}
    if outcome == "wrong":
        for state in ranks:
            for verify in state.verifies:
                if not verify["passed"]:
                    return {"category": "wrong", "message": f"ran to the end, but {verify['name']} is wrong on "
                                                            f"rank {state.rank}: {verify['detail']}"}
        why = next(v["why"] for state in ranks for v in state.verdicts if v["outcome"] == "wrong")
        return {"category": "wrong", "message": why}
    if outcome == "slow":
        why = next((v["why"] for state in ranks for v in state.verdicts if v["outcome"] == "slow"),
                   "did not finish within the wall-clock limit")
        return {"category": "slow", "message": why}
    if outcome == "cancelled":
        return {"category": "cancelled", "message": "stopped before the end"}
    steps = max((state.last_step + 1 for state in ranks if state.last_step is not None), default=0)
    return {"category": "ok", "message": f"all {expected} ranks finished" + (f" {steps} steps" if steps else "")}


def _ranks(ranks: list[int]) -> str:
    ranks = sorted(ranks)
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    if ranks == list(range(ranks[0], ranks[-1] + 1)) and len(ranks) > 2:
        return f"ranks {ranks[0]}-{ranks[-1]}"
    return "ranks " + ", ".join(map(str, ranks))


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0][:300] if (text or "").strip() else ""
