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
4. The launcher is a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`): a learner's process that
   double-forks or calls setsid is reparented to the launcher, not to init, so it stays in the
   launcher's tree; and every process of a run carries the run's marker in its environment
   (`RUN_MARKER_ENV`). On every end (normal exit, SIGTERM from the parent-death signal, the
   orphan watch, the runner's stop) `sweep` freezes (SIGSTOP) and then SIGKILLs every process
   of the tree and every marked one, round after round until none is left, so a fork tree or a
   child ignoring SIGTERM cannot outlast it. (A cgroup would be the kernel-enforced form of this;
   it needs a delegated cgroup v2 subtree, which a learner's machine rarely grants.)
5. Each CPU rank runs under an address-space limit (`cap_memory`, RLIMIT_AS), so a program that
   allocates without bound fails with MemoryError in that rank ("out of memory" in the evidence)
   instead of exhausting the machine.
Linux only where it says so; elsewhere layers 1 and 3 (without /proc: the known pids) remain.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36
PROC = Path("/proc")
RUN_MARKER_ENV = "TUTOR_LAB_RUN_ID"
"""Set by the runner on the launcher; every process of the run inherits it (the sweep's marker)."""
MEMORY_CAP_ENV = "TUTOR_LAB_RANK_MEMORY_MB"
SWEEP_LIMIT_S = 5.0


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


def become_subreaper() -> bool:
    """Orphaned descendants of this process are reparented to it instead of to init (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def run_processes(run_id: str | None, root: int | None = None) -> set[Proc]:
    """The live processes of a run: descendants of `root` and every process marked with `run_id`,
    never the calling process itself."""
    found = descendants(root) if root is not None else set()
    if run_id:
        for pid in pids_with_env(RUN_MARKER_ENV, run_id):
            proc = identify(pid)
            if proc is not None:
                found.add(proc)
    return {proc for proc in found if proc.pid != os.getpid()}


def sweep(run_id: str | None, root: int | None = None, limit_s: float = SWEEP_LIMIT_S, reap: bool = False) -> int:
    """Stop, then kill, every process of the run, round after round until a round finds none
    (a fork tree forks while it is being killed; a stopped process cannot). Returns how many.
    `reap` only in the launcher (a subreaper): elsewhere waiting for any child would steal the
    exit status of children that other code is waiting for."""
    killed: set[Proc] = set()
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        found = run_processes(run_id, root)
        if not found:
            break
        kill_all(found, signal.SIGSTOP)
        kill_all(found, signal.SIGKILL)
        killed |= found
        if reap:
            reap_children()
        time.sleep(0.01)
    return len(killed)


def reap_children() -> None:
    """As a subreaper we inherit orphans; collect the ones that have died (never blocks)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def cap_memory(megabytes: int) -> bool:
    """Limit this process's address space (inherited by what it starts); False if not possible."""
    import resource

    limit = int(megabytes) << 20
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        return False
    return True


def default_rank_memory_mb(ranks: int) -> int:
    """Per-rank cap: half the machine's memory shared by the ranks, 2–8 GB (torch itself maps
    ~0.6 GB of address space)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    except (ValueError, OSError):
        return 4096
    return max(2048, min(8192, total // (2 * max(1, ranks))))


def is_out_of_memory(error: BaseException) -> bool:
    text = str(error)
    return isinstance(error, MemoryError) or "can't allocate memory" in text or "not enough memory" in text
