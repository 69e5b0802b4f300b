"""The launch command: PyTorch's elastic launcher (torchrun) with the tutor's rank entry point.

Every rank runs `python -m tutor.labs.rank PROGRAM ARGS` under `torch.distributed.run`, which
sets up the parent-death signal, the event file and the evidence hooks before the program's
first line, then runs the program as `__main__`.

Ports: on one machine the launcher is started `--standalone`, so its c10d rendezvous store
binds `localhost:0` and the kernel hands out a free port at bind time; no port is chosen
first and used later, so two runs at once cannot race for one. Across machines the
rendezvous endpoint is the learner's `HOST:PORT`: torchrun's static rendezvous, where node 0
hosts the store and `--node-rank R` makes node R's ranks R·n … R·n + n − 1 whatever order the
nodes start in (c10d's dynamic rendezvous numbers nodes in the order they join, so the node
started with `--node-rank 1` could hold rank 0). The rendezvous gives up after the run's
no-progress limit, not torchrun's 600 s, and says which node it waited for
(`rendezvous_failure`).
"""

from __future__ import annotations

import math
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import tutor

BACKENDS = ("gloo", "nccl")
# Process-group timeout = the run's no-progress limit + this margin, so the watchdog sees a
# hang (and collects stacks from ranks still blocked in it) before the timeout ends it. The hang
# labs turn that round (`timeout_first`): the process-group timeout is the run's limit and the
# watchdog waits WATCHDOG_MARGIN_S longer, so a hang ends as on a cluster, with the backend's
# timeout error, and the watchdog only catches ranks that wait outside any timed collective (a
# rank stuck in Python with its peers in gloo's send/recv, which wait without a timeout).
PG_TIMEOUT_MARGIN_S = 5.0
WATCHDOG_MARGIN_S = 2.0
"""A waiting rank's timeout fires at most the timeout after its collective began, which is a
progress event: 2 s is well above the runner's 0.1 s poll and the error's way to the event file."""
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
    timeout_first: bool = False
    """The process-group timeout is `timeout_s` itself (it fires before the watchdog)."""

    @property
    def multi_node(self) -> bool:
        return self.nnodes > 1

    @property
    def pg_timeout_s(self) -> float:
        return self.timeout_s if self.timeout_first else self.timeout_s + PG_TIMEOUT_MARGIN_S

    @property
    def watchdog_s(self) -> float:
        """The no-progress limit once every rank is up."""
        return self.timeout_s + WATCHDOG_MARGIN_S if self.timeout_first else self.timeout_s

    @property
    def rendezvous_timeout_s(self) -> int:
        """How long a node waits for the others to join: the no-progress limit, in whole seconds."""
        return max(1, math.ceil(self.timeout_s))

    def torchrun_args(self, node_rank: int | None = None) -> list[str]:
        """The launcher's arguments (everything after `torchrun`)."""
        node_rank = self.node_rank if node_rank is None else node_rank
        args = ["--nproc-per-node", str(self.nproc_per_node), "--max-restarts", "0"]
        if self.multi_node:
            args += ["--nnodes", str(self.nnodes), "--node-rank", str(node_rank), "--rdzv-backend", "static",
                     "--rdzv-endpoint", str(self.rdzv_endpoint), "--rdzv-id", self.rdzv_id,
                     "--rdzv-conf", f"timeout={self.rendezvous_timeout_s}"]
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


def rendezvous_waiting(argv: list[str]) -> str | None:
    """What a node of a multi-node run waits for, from its torchrun arguments; None on one node."""
    options = _options(argv)
    nnodes, node = int(options.get("--nnodes", "1")), int(options.get("--node-rank", "0"))
    if nnodes < 2:
        return None
    per_node = int(options.get("--nproc-per-node", "1"))
    others = ", ".join(str(other) for other in range(nnodes) if other != node)
    endpoint, timeout = options.get("--rdzv-endpoint", "?"), options.get("--rdzv-conf", "timeout=?").split("=")[-1]
    role = "hosting the rendezvous" if node == 0 else "joining the rendezvous"
    first, last = node * per_node, node * per_node + per_node - 1
    ranks = f"rank {first}" if first == last else f"ranks {first}-{last}"
    return (f"tutor: node {node} of {nnodes} ({ranks}), {role} at "
            f"{endpoint}: waiting for node(s) {others}; gives up after {timeout} s")


def rendezvous_failure(error: BaseException, argv: list[str]) -> str | None:
    """One clear line for a rendezvous that timed out or found no host; None for other errors.

    torchrun reports these as a TCPStore traceback ("Timed out after 10 seconds waiting for
    clients. 1/2 clients joined", "failed to connect"), which does not say what to do.
    """
    text = f"{type(error).__name__}: {error}"
    options = _options(argv)
    nnodes, node = int(options.get("--nnodes", "1")), int(options.get("--node-rank", "0"))
    if nnodes < 2:
        return None
    endpoint, timeout = options.get("--rdzv-endpoint", "?"), options.get("--rdzv-conf", "timeout=?").split("=")[-1]
    joined = re.search(r"(\d+)/(\d+) clients joined", text)
    if node == 0 and (joined or "waiting for clients" in text or "Timed out" in text):
        missing = nnodes - int(joined.group(1)) if joined else nnodes - 1
        return (f"tutor: node 0 of {nnodes} gave up after {timeout} s: {missing} node(s) never joined the rendezvous "
                f"at {endpoint}; start `tutor lab run … --nnodes {nnodes} --node-rank R --rdzv-endpoint {endpoint}` "
                f"on {'node 1' if nnodes == 2 else f'each of nodes 1-{nnodes - 1}'} (R), within {timeout} s of each other")
    if node != 0 and re.search(r"connect|timed out|timeout", text, re.IGNORECASE):
        return (f"tutor: node {node} of {nnodes} gave up after {timeout} s: node 0 never answered at {endpoint} "
                f"(it hosts the rendezvous); start `tutor lab run … --nnodes {nnodes} --node-rank 0 --rdzv-endpoint "
                f"{endpoint}` on the machine at that address")
    return None


def _options(argv: list[str]) -> dict[str, str]:
    """`--flag value` pairs of a torchrun command line (up to the program)."""
    found = {}
    for flag, value in zip(argv, argv[1:]):
        if flag == "--module":
            break
        if flag.startswith("--"):
            found[flag] = value
    return found


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
                         "pip install torch==2.13.0 '.[labs]'",
                         zh="实验需要 PyTorch，而这个 Python 里没有：在 tutor 的代码目录里运行 "
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

