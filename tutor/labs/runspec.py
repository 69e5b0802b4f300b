"""What a lab run is asked to do (RunSpec), the events it reports, and its run folder."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from tutor.labs.launch import LaunchPlan


@dataclass(frozen=True)
class RunSpec:
    """One run of a lab program on this node."""

    lab: str
    program: Path
    world_size: int = 2
    """Ranks on this node (all ranks, on one machine)."""
    backend: str = "gloo"
    timeout_s: float = 30.0
    """No-progress limit once every rank is up; the process-group timeout is a little longer
    (with `timeout_first`: the process-group timeout, the no-progress limit a little longer)."""
    startup_s: float = 120.0
    """No-progress limit until every rank has joined the process group."""
    max_wall_s: float = 900.0
    args: tuple[str, ...] = ()
    nnodes: int = 1
    node_rank: int = 0
    rdzv_endpoint: str | None = None
    rdzv_id: str = "tutor-lab"
    env: dict[str, str] = field(default_factory=dict)
    run_root: Path | None = None
    """Parent folder of the run folders (default: TUTOR_HOME/lab-runs/LAB)."""
    keep_runs: int = 20
    timeout_first: bool = False
    """A hang lab: the process-group timeout ends a hang, with the backend's own error, before the
    watchdog (which then only catches ranks stuck outside any collective)."""

    def plan(self, run_dir: Path) -> LaunchPlan:
        return LaunchPlan(program=Path(self.program), nproc_per_node=self.world_size, run_dir=run_dir,
                          backend=self.backend, timeout_s=self.timeout_s, args=tuple(self.args),
                          nnodes=self.nnodes, node_rank=self.node_rank, rdzv_endpoint=self.rdzv_endpoint,
                          rdzv_id=self.rdzv_id, extra_env=dict(self.env), timeout_first=self.timeout_first)


@dataclass(frozen=True)
class LogLine:
    rank: int | None
    """None for the launcher's own lines."""
    stream: str
    text: str


@dataclass(frozen=True)
class RankProgress:
    rank: int
    step: int | None
    state: str
    """booted, ready, running, exited."""


@dataclass(frozen=True)
class Phase:
    name: str
    """launching, running, hang, collecting-evidence, stopping, finished."""
    detail: str = ""


@dataclass(frozen=True)
class Finished:
    evidence: dict


RunEvent = LogLine | RankProgress | Phase | Finished


def new_run_dir(spec: RunSpec) -> Path:
    """A fresh folder for one run; the oldest beyond `spec.keep_runs` are removed."""
    from tutor.paths import home_dir

    root = Path(spec.run_root) if spec.run_root else home_dir() / "lab-runs" / spec.lab
    root.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    run_dir = root / f"{stamp}-{os.getpid()}"
    run_dir.mkdir()
    old = sorted(path for path in root.iterdir() if path.is_dir() and path != run_dir)
    for path in old[: max(0, len(old) - spec.keep_runs + 1)]:
        shutil.rmtree(path, ignore_errors=True)
    return run_dir
