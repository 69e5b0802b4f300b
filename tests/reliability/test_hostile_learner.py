"""Lab programs that try to outlive their run (issue 17 item 4): double forks, children ignoring
SIGTERM, setsid'd fork trees, a process that clears its environment, allocation without bound.
After every run, and after a kill -9 of the tutor mid-run, no process of the run and no listening
socket of theirs is left (counted by the run's marker in the environment, as tests/labs does);
what escapes even a killed launcher is ended from the run's cgroup, where one can be made."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.labs.conftest import leftovers
from tutor.labs import container, procs
from tutor.labs.container import Container, sweep_stale
from tutor.labs.runner import NO_CGROUP_ENV, RUN_ID_ENV, RUN_MEMORY_ENV, LabRun, RunSpec

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
run = LabRun(RunSpec(lab="hostile", program=Path(sys.argv[1]), args=(sys.argv[3], "60", *sys.argv[4:]), world_size=2,
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


def _cgroup_or_skip() -> None:
    probe = Container.create(f"tutor-probe-{os.getpid()}", 1 << 30)
    if probe is None:
        pytest.skip("this machine lets the tutor create no memory cgroup (the marker sweep is all there is)")
    probe.remove()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def _launcher(run_id: str) -> int:
    return next(pid for pid in procs.pids_with_env(RUN_ID_ENV, run_id)
                if b"tutor.labs.agent" in Path(f"/proc/{pid}/cmdline").read_bytes())


@pytest.mark.timeout(120)
@pytest.mark.parametrize("cgroup", [True, False], ids=["in-a-cgroup", "without"])
def test_what_escapes_a_killed_launcher_is_ended_by_the_next_run(tmp_path, monkeypatch, cgroup):
    """setsid, double fork, exec with an empty environment; then the tutor and its launcher are
    both killed (-9), as `pkill -9 -f tutor` would: no marker finds the escaped process and the
    subreaper that held it is gone. The run's cgroup still holds it, and the next run's start
    empties stale cgroups; without one it outlives everything (the reason for the cgroup)."""
    if cgroup:
        _cgroup_or_skip()
    else:
        monkeypatch.setenv(NO_CGROUP_ENV, "1")
    pid_file = tmp_path / "escaped.pid"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(HOSTILE), str(tmp_path), "clear-env", str(pid_file)],
                              stdout=subprocess.PIPE, text=True)
    run_id, ticks = None, 0
    for line in parent.stdout:
        if line.startswith("RUN"):
            run_id = line.split()[1]
        ticks += line.startswith("TICK")
        if ticks >= 2:
            break
    for _ in range(50):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.1)
    escaped = int(pid_file.read_text())
    os.kill(_launcher(run_id), signal.SIGKILL)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    try:
        assert _left(run_id) == (0, 0)  # the ranks die with their launcher; the marked are swept
        assert _alive(escaped)
        monkeypatch.setattr(container, "STALE_AFTER_S", 0.0)  # the cgroup is seconds old here
        sweep_stale()  # what the next lab run does first
        assert _alive(escaped) is not cgroup
    finally:
        if _alive(escaped):
            os.kill(escaped, signal.SIGKILL)


@pytest.mark.timeout(120)
def test_the_run_memory_limit_ends_a_run_that_goes_over_it_as_out_of_memory(tmp_path, monkeypatch):
    """The cgroup's limit, not the per-rank address-space cap (set out of reach here, as on NCCL)."""
    _cgroup_or_skip()
    monkeypatch.setenv(procs.MEMORY_CAP_ENV, "100000")
    monkeypatch.setenv(RUN_MEMORY_ENV, "1500")
    run = LabRun(RunSpec(lab="hostile", program=HOSTILE, args=("allocate", "1"), world_size=2, timeout_s=20.0,
                         run_root=tmp_path))
    evidence = run.run()
    assert evidence["outcome"] == "crash"
    assert evidence["container"]["oom_kills"] >= 1 and evidence["container"]["limit_bytes"] == 1500 << 20
    assert "memory limit of 1.5 GiB (out of memory)" in evidence["summary"]["message"]
    assert _left(run.run_id) == (0, 0)
