"""The launch command: PyTorch's elastic launcher (torchrun) with the tutor's rank entry point.

Every rank runs `python -m tutor.labs.rank PROGRAM ARGS` under `torch.distributed.run`, which
sets up the parent-death signal, the event file and the evidence hooks before the program's
first line, then runs the program as `__main__`.

Ports: on one machine the launcher is started `--standalone`, so its c10d rendezvous store
binds `localhost:0` and the kernel hands out a free port at bind time; no port is chosen
first and used later, so two runs at once cannot race for one. Across machines the
rendezvous endpoint is the learner's `HOST:PORT`, and node 0 hosts the store
(`is_host=1`); the others connect to it.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import tutor

BACKENDS = ("gloo", "nccl")
# Process-group timeout = the run's no-progress limit + this margin, so the watchdog sees a
# hang (and collects stacks from ranks still blocked in it) before the timeout ends it.
PG_TIMEOUT_MARGIN_S = 5.0
PREFIX_TEMPLATE = "[rank${rank}]:"


@dataclass(frozen=True)
class LaunchPlan:
    """How to start one node's ranks of a lab program."""

    program: Path
    """The Python file every rank runs."""
    nproc_per_node: int
    """Ranks on this node."""
    run_dir: Path
    """Where event files, logs and evidence go."""
    backend: str = "gloo"
    timeout_s: float = 30.0
    """No-progress limit; the process-group timeout is this plus PG_TIMEOUT_MARGIN_S."""
    args: tuple[str, ...] = ()
    nnodes: int = 1
    node_rank: int = 0
    rdzv_endpoint: str | None = None
    rdzv_id: str = "tutor-lab"
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def multi_node(self) -> bool:
        return self.nnodes > 1

    @property
    def pg_timeout_s(self) -> float:
        return self.timeout_s + PG_TIMEOUT_MARGIN_S

    def torchrun_args(self, node_rank: int | None = None) -> list[str]:
        """The launcher's arguments (everything after `torchrun`)."""
        node_rank = self.node_rank if node_rank is None else node_rank
        args = ["--nproc-per-node", str(self.nproc_per_node), "--max-restarts", "0"]
        if self.multi_node:
            args += ["--nnodes", str(self.nnodes), "--rdzv-backend", "c10d",
                     "--rdzv-endpoint", str(self.rdzv_endpoint), "--rdzv-id", self.rdzv_id,
                     "--rdzv-conf", f"is_host={1 if node_rank == 0 else 0}"]
        else:
            args.append("--standalone")
        return args + ["--module", "tutor.labs.rank", str(self.program), *self.args]

    def command(self) -> list[str]:
        """argv of the launcher process this machine starts (see tutor/labs/agent.py)."""
        logs = ["--tee", "3", "--log-dir", str(self.run_dir / "torchrun")]
        return [sys.executable, "-m", "tutor.labs.agent", *logs, *self.torchrun_args()]

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """The environment of the launcher, which its ranks inherit."""
        env = dict(os.environ if base is None else base)
        package_parent = str(Path(tutor.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
        env.update(self.rank_env())
        env.update({
            "TUTOR_LAB_RUN_DIR": str(self.run_dir),
            "TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE": PREFIX_TEMPLATE,
            "PYTHONUNBUFFERED": "1",
            # torch warns on import when numpy is missing; it is not needed here and the
            # warning would open every rank's log.
            "PYTHONWARNINGS": "ignore:Failed to initialize NumPy",
        })
        env.setdefault("OMP_NUM_THREADS", "1")  # torchrun's own default, without its banner
        if not self.multi_node and sys.platform.startswith("linux"):
            env.setdefault("GLOO_SOCKET_IFNAME", "lo")  # keep a one-machine run on loopback
        env.update(self.extra_env)
        return env

    def rank_env(self) -> dict[str, str]:
        """What the rank helper reads; also printed by --print-launch."""
        env = {
            "TUTOR_LAB_BACKEND": self.backend,
            "TUTOR_LAB_PG_TIMEOUT": f"{self.pg_timeout_s:g}",
            # The flight recorder: on for gloo and NCCL. NCCL also dumps on its own timeout,
            # into the run folder (older releases read the TORCH_NCCL_* names).
            "TORCH_FR_BUFFER_SIZE": "2000",
        }
        if self.backend == "nccl":
            prefix = str(self.run_dir / "fr_trace_rank_")
            env.update({"TORCH_NCCL_DUMP_ON_TIMEOUT": "1", "TORCH_FR_DUMP_TEMP_FILE": prefix,
                        "TORCH_NCCL_DEBUG_INFO_TEMP_FILE": prefix})
        return env

    def print_launch(self) -> str:
        """The command to run on every node, one block per node (for --print-launch)."""
        env = " ".join(f"{key}={shlex.quote(value)}" for key, value in sorted(self.rank_env().items())
                       if key.startswith("TUTOR_LAB_"))
        blocks = []
        for node in range(self.nnodes):
            command = " ".join(shlex.quote(part) for part in ["torchrun", *self.torchrun_args(node)])
            blocks.append(f"# node {node}\n{env} {command}")
        return "\n".join(blocks)


def require_torch() -> None:
    """Refuse a run, in one line, when this Python has no PyTorch.

    Why check here: every rank would die importing torch and the run would read as a crash of
    the learner's program. `find_spec` looks for the package without importing it (the core
    never imports torch).
    """
    from importlib.util import find_spec

    from tutor.errors import TutorError

    if find_spec("torch") is None:
        raise TutorError("the labs need PyTorch, which this Python does not have: in the tutor's checkout, "
                         "pip install torch==2.13.0 '.[labs]'")


def visible_gpus() -> int:
    """CUDA GPUs this process could use, without importing torch (for `--backend auto`).

    Counts the NVIDIA driver's entries in /proc, narrowed by CUDA_VISIBLE_DEVICES when set.
    """
    driver = Path("/proc/driver/nvidia/gpus")
    count = len(list(driver.iterdir())) if driver.is_dir() else 0
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        count = min(count, len([item for item in visible.split(",") if item.strip() and item.strip() != "-1"]))
    return count


def resolve_backend(backend: str, ranks_per_node: int) -> str:
    """`auto` means NCCL when every rank of this node can have a GPU of its own, else gloo."""
    if backend != "auto":
        return backend
    return "nccl" if visible_gpus() >= ranks_per_node else "gloo"

