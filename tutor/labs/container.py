"""A kernel-enforced container for one lab run: a memory cgroup the launcher starts in.

Everything the launcher starts stays in its cgroup, whatever it does (setsid, double fork, a
new session, a cleared environment), so the end of a run can kill the cgroup's every process
and know none is left; and the cgroup's memory limit holds for the run as a whole, NCCL runs
included (CUDA maps far more address space than it uses, so the per-rank RLIMIT_AS of
`procs.cap_memory` cannot apply there). When the kernel ends a process for going over the
limit, the cgroup counts it, and the evidence says so.

Where available: cgroup v2 with the memory controller delegated to this process's cgroup, else
cgroup v1's memory hierarchy, else nothing (a laptop user's session usually cannot create
cgroups); the subreaper and the run marker of `procs` still stand then. Hand-written: the
cgroupfs interface is a few files, and the libraries for it wrap systemd or need root tools.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from tutor.labs.procs import reap_children

CGROUP_ROOT = Path("/sys/fs/cgroup")
PREFIX = "tutor-lab-"
STALE_AFTER_S = 30.0


@dataclass(frozen=True)
class _Flavour:
    kind: str
    limit_file: str
    swap_file: str  # swap counted against the limit too, so going over it cannot just swap the machine
    events_file: str  # where the kernel counts processes it killed for memory


_V2 = _Flavour("cgroup v2", "memory.max", "memory.swap.max", "memory.events")
_V1 = _Flavour("cgroup v1", "memory.limit_in_bytes", "memory.memsw.limit_in_bytes", "memory.oom_control")


def _own_cgroups(proc_cgroup: str) -> dict[str, str]:
    """This process's cgroup per hierarchy, from /proc/self/cgroup: {"": v2 path, "memory": v1 path}."""
    found = {}
    for line in proc_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(",") if parts[1] else [""]:
                found[controller] = parts[2]
    return found


def _parents(root: Path = CGROUP_ROOT) -> list[tuple[_Flavour, Path]]:
    """Where this process may create a child memory cgroup, best first."""
    try:
        own = _own_cgroups(Path("/proc/self/cgroup").read_text())
    except OSError:
        return []
    found = []
    if "" in own:
        for mount in (root, root / "unified"):
            parent = mount / own[""].lstrip("/")
            try:
                if "memory" in (parent / "cgroup.subtree_control").read_text().split():
                    found.append((_V2, parent))
                    break
            except OSError:
                continue
    if "memory" in own:
        found.append((_V1, root / "memory" / own["memory"].lstrip("/")))
    return found


class Container:
    """One run's cgroup. `create` returns None where no cgroup can be made."""

    def __init__(self, flavour: _Flavour, path: Path, limit_bytes: int):
        self.flavour, self.path, self.limit_bytes = flavour, path, limit_bytes
        self._procs_file = os.fsencode(path / "cgroup.procs")

    @classmethod
    def create(cls, name: str, limit_bytes: int, root: Path = CGROUP_ROOT) -> Container | None:
        for flavour, parent in _parents(root):
            path = parent / name
            try:
                path.mkdir()
            except OSError:
                continue
            try:
                (path / flavour.limit_file).write_text(str(int(limit_bytes)))
            except OSError:
                _rmdir(path)
                continue
            try:  # v1: memory + swap ≤ the limit; v2: no swap (absent where the kernel has no swap accounting)
                (path / flavour.swap_file).write_text(str(int(limit_bytes)) if flavour is _V1 else "0")
            except OSError:
                pass
            return cls(flavour, path, int(limit_bytes))
        return None

    @classmethod
    def of_this_process(cls, root: Path = CGROUP_ROOT) -> Container | None:
        """The run's cgroup this process was started in (the launcher's view), if any."""
        for flavour, parent in _parents(root):
            if parent.name.startswith(PREFIX):
                return cls(flavour, parent, 0)
        return None

    def enter(self) -> None:
        """Move the calling process into the cgroup. Called as a Popen preexec_fn, between fork
        and exec: only raw os calls, no Python locks that another thread could hold."""
        try:
            handle = os.open(self._procs_file, os.O_WRONLY)
        except OSError:  # gone already: the run goes ahead outside it, as where there are no cgroups
            return
        try:
            os.write(handle, b"0")
        except OSError:
            pass
        finally:
            os.close(handle)

    def pids(self) -> list[int]:
        try:
            return [int(line) for line in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def oom_kills(self) -> int:
        """Processes of this run the kernel ended for going over the memory limit."""
        try:
            for line in (self.path / self.flavour.events_file).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def describe(self) -> dict:
        return {"kind": self.flavour.kind, "limit_bytes": self.limit_bytes, "oom_kills": self.oom_kills()}

    def kill_all(self, wait_s: float = 3.0, spare: int | None = None, reap: bool = False) -> list[int]:
        """SIGKILL every process in the cgroup (but `spare`) until none is left; returns those still there.
        `reap`: also collect this process's dead children (the launcher, a subreaper, inherits the
        run's orphans; a zombie stays in the cgroup until it is reaped)."""
        deadline = time.monotonic() + wait_s
        while True:
            left = [pid for pid in self.pids() if pid != spare]
            if not left or time.monotonic() > deadline:
                return left
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            if reap:
                reap_children()
            time.sleep(0.02)

    def remove(self) -> None:
        _rmdir(self.path)


def sweep_stale(root: Path = CGROUP_ROOT) -> int:
    """End and remove the cgroups of runs whose tutor died (kill -9) before it could; returns how many.

    A live run's cgroup holds its launcher, whose parent (the tutor that started it) is alive; a
    stale one holds nothing, or processes whose launcher is gone."""
    removed = 0
    for flavour, parent in _parents(root):
        for path in parent.parent.glob(PREFIX + "*") if parent.name.startswith(PREFIX) else parent.glob(PREFIX + "*"):
            container = Container(flavour, path, 0)
            try:  # a run's cgroup is empty for a moment after it is made, before its launcher enters
                young = time.time() - path.stat().st_mtime < STALE_AFTER_S
            except OSError:
                continue
            if young or any(_is_live_launcher(pid) for pid in container.pids()):
                continue
            container.kill_all()
            container.remove()
            removed += not path.exists()
    return removed


def _is_live_launcher(pid: int) -> bool:
    """A process started as the tutor's launcher whose parent is still there."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return False
    return b"tutor.labs.agent" in command and parent != 1 and Path(f"/proc/{parent}").exists()


def _rmdir(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass
