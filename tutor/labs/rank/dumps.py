"""Evidence a rank writes about itself when the runner asks: stacks and the flight recorder.

Two ways in, because a hung rank is blocked inside a C++ collective:
- SIGUSR1 -> `faulthandler` writes every thread's Python stack from a C-level handler, which
  works even while the main thread never returns to the interpreter.
- The file `dump.request` in the run folder -> a daemon thread (it runs: the blocked main
  thread has released the GIL) writes the Python stacks with source lines, and the flight
  recorder's buffer (`torch._C._distributed_c10d._dump_fr_trace()`), which gloo fills but
  never writes out on its own. The raw pickle is kept for `torchfrtrace`, with its
  `pg_config` filled in from the process groups this rank knows (a gloo dump leaves it
  keyed by an empty name, which torchfrtrace cannot match to the entries).
"""

from __future__ import annotations

import faulthandler
import json
import pickle
import signal
import sys
import threading
import traceback

from tutor.labs.events import DUMP_REQUEST
from tutor.labs.rank.session import Session

POLL_S = 0.1
FR_ENTRIES_KEPT = 16


def arm(session: Session) -> None:
    if session.run_dir is None:
        return
    stack_file = open(session.run_dir / f"rank{session.rank}.stack.txt", "w")  # kept open for the handler
    faulthandler.register(signal.SIGUSR1, file=stack_file, all_threads=True)
    threading.Thread(target=_wait_for_request, args=(session,), name="tutor-lab-dumps", daemon=True).start()


def _wait_for_request(session: Session) -> None:
    request = session.run_dir / DUMP_REQUEST
    wake = threading.Event()
    while not request.exists():
        wake.wait(POLL_S)
    files = {"pystack": _write_stacks(session)}
    fr_file, fr_summary = _write_flight_recorder(session)
    if fr_file:
        files["flight_recorder"] = fr_file
    session.emit("dump", files=files, flight_recorder=fr_summary)


def _write_stacks(session: Session) -> str:
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    parts = []
    for ident, frame in sys._current_frames().items():
        if ident == threading.get_ident():
            continue  # this dump thread itself
        parts.append(f"Thread {names.get(ident, ident)}:\n" + "".join(traceback.format_stack(frame)))
    path = session.run_dir / f"rank{session.rank}.pystack.txt"
    path.write_text("\n".join(parts))
    return str(path)


def _write_flight_recorder(session: Session) -> tuple[str | None, list[dict]]:
    if "torch" not in sys.modules:
        return None, []
    try:
        import torch
        import torch.distributed as dist

        if not dist.is_initialized():
            return None, []
        raw = pickle.loads(torch._C._distributed_c10d._dump_fr_trace(includeStackTraces=False))
    except Exception as error:  # an older build without the recorder: say so in the evidence
        return None, [{"error": f"{type(error).__name__}: {error}"}]
    raw["pg_config"] = _pg_config(dist) or raw.get("pg_config", {})
    path = session.run_dir / f"fr_trace_rank_{session.rank}"
    with open(path, "wb") as handle:
        pickle.dump(raw, handle)
    return str(path), [_summarize(entry) for entry in raw.get("entries", [])[-FR_ENTRIES_KEPT:]]


def _pg_config(dist) -> dict:
    config = {}
    try:
        groups = dist.distributed_c10d._world.pg_group_ranks
        for group, ranks in groups.items():
            name = group.group_name
            config[name] = {"name": name, "desc": getattr(group, "group_desc", name) or name,
                            "ranks": json.dumps(sorted(ranks))}
    except Exception:  # private API; the dump stays readable by the tutor without it
        return {}
    return config


def _summarize(entry: dict) -> dict:
    return {
        "seq": entry.get("collective_seq_id") if not entry.get("is_p2p") else entry.get("p2p_seq_id"),
        "op": entry.get("profiling_name"),
        "group": (entry.get("process_group") or ("", ""))[1],
        "pg": (entry.get("process_group") or ("", ""))[0],
        "sizes": entry.get("input_sizes"),
        "state": entry.get("state"),
        "p2p": bool(entry.get("is_p2p")),
    }

