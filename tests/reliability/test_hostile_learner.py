"""Lab programs that try to outlive their run (issue 17 item 4): double forks, children ignoring
SIGTERM, setsid'd fork trees, allocation without bound. After every run, and after a kill -9 of the
tutor mid-run, no process of the run and no listening socket of theirs is left (counted by the
run's marker in the environment, as tests/labs does)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.labs.conftest import leftovers
from tutor.labs import procs
from tutor.labs.runner import RUN_ID_ENV, LabRun, RunSpec

pytestmark = pytest.mark.slow
HOSTILE = Path(__file__).resolve().parent / "programs" / "hostile.py"


def _listening_inodes() -> set[str]:
    inodes = set()
    for name in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        inodes |= {fields[9] for fields in (line.split() for line in lines) if len(fields) > 9 and fields[3] == "0A"}
    return inodes


def _sockets_of(pids: list[int]) -> int:
    """Listening sockets held by these processes (socket inodes in /proc/PID/fd)."""
    listening, held = _listening_inodes(), set()
    for pid in pids:
        try:
            for fd in os.scandir(f"/proc/{pid}/fd"):
                target = os.readlink(fd.path)
                if target.startswith("socket:[") and target[8:-1] in listening:
                    held.add(target[8:-1])
        except OSError:
            continue
    return len(held)


def _left(run_id: str) -> tuple[int, int]:
    """(processes, listening sockets) of the run still there; anything found is then killed."""
    pids = leftovers(run_id, wait_s=6.0)
    sockets = _sockets_of(pids)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return len(pids), sockets


ALL = "double-fork,ignore-term,fork-tree"  # one run for all three (each lab run costs ~15 s under load)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", [ALL])
def test_nothing_outlives_a_finished_run(tmp_path, kind):
    run = LabRun(RunSpec(lab="hostile", program=HOSTILE, args=(kind, "1"), world_size=2, timeout_s=8.0,
                         run_root=tmp_path))
    evidence = run.run()
    assert _left(run.run_id) == (0, 0), evidence["outcome"]


PARENT = """
import sys
from pathlib import Path
from tutor.labs.runner import LabRun, RunSpec, LogLine
run = LabRun(RunSpec(lab="hostile", program=Path(sys.argv[1]), args=(sys.argv[3], "60"), world_size=2,
                     timeout_s=30.0, run_root=Path(sys.argv[2])),
             on_event=lambda e: print("TICK", flush=True) if isinstance(e, LogLine) and "tick" in e.text else None)
print("RUN", run.run_id, flush=True)
run.run()
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", [ALL])
def test_nothing_outlives_a_kill_9_of_the_tutor(tmp_path, kind):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(HOSTILE), str(tmp_path), kind],
                              stdout=subprocess.PIPE, text=True)
    run_id, ticks = None, 0
    for line in parent.stdout:
        if line.startswith("RUN"):
            run_id = line.split()[1]
        ticks += line.startswith("TICK")
        if ticks >= 4:  # both ranks running, their children started
            break
    assert run_id and len(procs.pids_with_env(RUN_ID_ENV, run_id)) > 3
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert _left(run_id) == (0, 0)


@pytest.mark.timeout(120)
def test_allocation_without_bound_ends_as_out_of_memory(tmp_path, monkeypatch):
    monkeypatch.setenv(procs.MEMORY_CAP_ENV, "1500")
    run = LabRun(RunSpec(lab="hostile", program=HOSTILE, args=("allocate", "1"), world_size=2, timeout_s=20.0,
                         run_root=tmp_path))
    evidence = run.run()
    assert evidence["outcome"] == "crash"
    assert "out of memory" in str(evidence), [rank.get("exception") for rank in evidence["ranks"]]
    assert _left(run.run_id) == (0, 0)
