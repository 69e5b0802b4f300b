"""Process hygiene for lab runs: no process a run started may outlive it.

Three layers, because each one alone has a gap:
1. The launcher runs in a session of its own, so a terminal's Ctrl-C reaches only the tutor,
   which then stops the run in order, and the runner can signal the whole group.
2. Every process the runner starts asks the kernel for a parent-death signal
   (`prctl(PR_SET_PDEATHSIG)`): the launcher gets SIGTERM when the tutor dies, each rank
   SIGKILL when the launcher dies — this is what covers the tutor being SIGKILLed. torchrun
   puts each rank in a session of its own, so a group kill alone would miss them.
3. While a run lasts, the runner keeps a list of the launcher's descendants (from /proc), and
   after the run ends it kills any that are still there, checking each one's start time so
   that a recycled pid is never hit.
Linux only where it says so; elsewhere layers 1 and 3 (without /proc: the known pids) remain.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PROC = Path("/proc")


def die_with_parent(sig: int, expected_parent: int | None = None) -> bool:
    """Ask the kernel to send `sig` to this process when its parent thread exits.

    Returns False where prctl is unavailable. If the parent died before the call (we were
    already reparented), send the signal to ourselves now: that is the race prctl leaves open.
    """
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        return False
    if expected_parent is not None and os.getppid() != expected_parent:
        os.kill(os.getpid(), sig)
    return True


@dataclass(frozen=True)
class Proc:
    """A process identified by pid and start time (a pid alone can be reused)."""

    pid: int
    start: int


def _stat(pid: int) -> tuple[int, int] | None:
    """(ppid, start time in clock ticks) of a live process, from /proc/PID/stat."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    fields = text[text.rindex(")") + 2:].split()
    if fields[0] == "Z":
        return None  # a zombie holds no resources; its parent reaps it
    return int(fields[1]), int(fields[19])


def process_table() -> dict[int, tuple[int, int]]:
    """pid -> (ppid, start) for every live process (empty where there is no /proc)."""
    table = {}
    if not PROC.is_dir():
        return table
    for entry in os.scandir(PROC):
        if entry.name.isdigit():
            info = _stat(int(entry.name))
            if info is not None:
                table[int(entry.name)] = info
    return table


def descendants(root: int) -> set[Proc]:
    """Every live descendant of `root` (children, grandchildren, …)."""
    table = process_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: set[Proc] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.add(Proc(child, table[child][1]))
            stack.append(child)
    return found


def identify(pid: int) -> Proc | None:
    info = _stat(pid)
    return Proc(pid, info[1]) if info else None


def is_alive(proc: Proc) -> bool:
    info = _stat(proc.pid)
    return info is not None and info[1] == proc.start


def kill_all(procs: set[Proc], sig: int = signal.SIGKILL) -> int:
    """Signal each process that is still the same process; returns how many were signalled."""
    sent = 0
    for proc in procs:
        if is_alive(proc):
            try:
                os.kill(proc.pid, sig)
                sent += 1
            except (ProcessLookupError, PermissionError):
                pass
    return sent


def pids_with_env(key: str, value: str) -> list[int]:
    """Live processes whose environment holds KEY=VALUE (how tests find a run's processes)."""
    needle = f"{key}={value}".encode() + b"\0"
    found = []
    if not PROC.is_dir():
        return found
    for entry in os.scandir(PROC):
        if not entry.name.isdigit():
            continue
        try:
            environ = (PROC / entry.name / "environ").read_bytes() + b"\0"
        except OSError:
            continue
        if needle in environ and _stat(int(entry.name)) is not None:
            found.append(int(entry.name))
    return found


def listening_ports() -> set[int]:
    """TCP ports in LISTEN state on this machine (IPv4 and IPv6), from /proc/net."""
    ports = set()
    for name in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == "0A":  # TCP_LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports
