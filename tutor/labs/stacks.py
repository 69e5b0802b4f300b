"""Stacks of hung ranks: py-spy when it is installed, else faulthandler on SIGUSR1.

py-spy reads a process from outside (ptrace), so it works whatever the rank is doing and
shows where each thread is, including a main thread blocked in a C++ collective, and, with
`--subprocesses`, where each of the rank's child processes is (its DataLoader workers). Without it
(or without ptrace permission) the rank's own faulthandler, armed at boot, writes every
thread's Python stack when it receives SIGUSR1. Both run for all ranks at once. Either way the
tutor's own frames are dropped (`hangview.learner_stack`, docs/labs.md "Code the labs share").
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tutor.labs.hangview import learner_stack

PY_SPY_TIMEOUT_S = 8.0
FAULTHANDLER_WAIT_S = 2.0


def py_spy() -> str | None:
    """The py-spy executable: on PATH, or beside this Python (a virtualenv not activated)."""
    beside = Path(sys.executable).parent / "py-spy"
    return shutil.which("py-spy") or (str(beside) if beside.is_file() else None)


def collect(pids: dict[int, int], run_dir: Path) -> dict[int, tuple[str, str]]:
    """rank -> (stack text, source) for each rank pid that is still alive."""
    found: dict[int, tuple[str, str]] = {}
    tool = py_spy()
    if tool and pids:
        with ThreadPoolExecutor(max_workers=len(pids)) as pool:
            results = dict(zip(pids, pool.map(lambda pid: _py_spy_dump(tool, pid), pids.values())))
        found.update({rank: (learner_stack(text), "py-spy") for rank, text in results.items() if text})
    missing = {rank: pid for rank, pid in pids.items() if rank not in found}
    if missing:
        found.update(_faulthandler(missing, run_dir))
    return found


def _py_spy_dump(tool: str, pid: int) -> str | None:
    try:
        # --subprocesses: a rank's own children too (its DataLoader workers), each after the rank
        result = subprocess.run([tool, "dump", "--pid", str(pid), "--subprocesses"], capture_output=True, text=True,
                                timeout=PY_SPY_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() if result.returncode == 0 and result.stdout.strip() else None


def _faulthandler(pids: dict[int, int], run_dir: Path) -> dict[int, tuple[str, str]]:
    files = {rank: run_dir / f"rank{rank}.stack.txt" for rank in pids}
    sizes = {rank: _size(path) for rank, path in files.items()}
    for pid in pids.values():
        try:
            os.kill(pid, signal.SIGUSR1)
        except OSError:
            pass
    deadline = time.monotonic() + FAULTHANDLER_WAIT_S
    while time.monotonic() < deadline and any(_size(files[rank]) <= sizes[rank] for rank in pids):
        time.sleep(0.05)
    # the handler writes frame by frame: read once the files have stopped growing
    previous = None
    while time.monotonic() < deadline + FAULTHANDLER_WAIT_S:
        current = {rank: _size(path) for rank, path in files.items()}
        if current == previous:
            break
        previous = current
        time.sleep(0.1)
    found = {}
    for rank, path in files.items():
        if _size(path) > sizes[rank]:
            with open(path, errors="replace") as handle:
                handle.seek(sizes[rank])
                found[rank] = (learner_stack(handle.read().strip()), "faulthandler")
    return found


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
