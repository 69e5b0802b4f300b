"""`init()` and the `RankContext` a lab program works with (rank, world, device, heartbeats).

With NCCL, the rank's GPU becomes torch's default device, so the same lab code runs on both.
The process group gets a short timeout (the runner passes it; 60 s when run by hand) instead
of gloo's 30-minute and NCCL's 10-minute defaults (facts §5), so a planted hang ends in
seconds. The backend is gloo on CPU and NCCL on GPUs; NCCL wants one GPU per rank.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist

from tutor.labs.rank.recorder import Recorder
from tutor.labs.rank.session import Session, current, under_torchrun

DEFAULT_TIMEOUT_S = 60.0
JOIN_TIMEOUT_S = 60.0
"""At least this long to join the process group: ranks of a loaded machine reach
`init_process_group` seconds apart (importing torch), which is not a hang. The run's own,
shorter timeout is set once every rank has joined."""


@dataclass
class RankContext:
    """What a rank knows about its job; pass it around instead of module-level globals."""

    rank: int
    world_size: int
    local_rank: int
    backend: str
    device: torch.device
    session: Session
    recorder: Recorder

    @property
    def is_first(self) -> bool:
        return self.rank == 0

    @property
    def trace_dir(self) -> Path:
        """Where profiler traces go (the run folder's traces/, listed in the evidence's trace_files)."""
        base = self.session.run_dir or Path(tempfile.gettempdir()) / f"tutor-lab-{os.getpid()}"
        folder = base / "traces"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def log(self, *parts: object) -> None:
        """One line of output; torchrun (under the tutor) puts the rank prefix in front."""
        prefix = "" if os.environ.get("TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE") else f"[rank{self.rank}] "
        print(prefix + " ".join(str(part) for part in parts), flush=True)

    def steps(self, count: int, start: int = 0, tokens_per_step: int | None = None) -> Iterator[int]:
        """Yield step numbers; each one is a heartbeat for the runner's no-progress watchdog."""
        for step in range(start, count):
            self.session.emit("step", step=step, tokens=tokens_per_step)
            yield step
        self.session.emit("steps_done", steps=count)

    def report(self, **metrics: object) -> None:
        """Numbers for the evidence (`metrics` in `tutor lab run --json`)."""
        self.session.emit("report", metrics=metrics)

    def verify(self, name: str, actual: torch.Tensor, expected: torch.Tensor,
               rtol: float | None = None, atol: float | None = None) -> bool:
        """Compare with `torch.testing.assert_close`; a mismatch makes the run's outcome `wrong`."""
        passed, detail = compare(actual, expected, rtol=rtol, atol=atol)
        self.session.emit("verify", name=name, passed=passed, detail=detail)
        self.log(f"{'ok  ' if passed else 'WRONG'} {name}: {detail}")
        return passed

    def verdict(self, outcome: str, why: str) -> None:
        """Declare the run `wrong` or `slow` (perf labs), with the reason shown to the learner."""
        self.session.emit("verdict", outcome=outcome, why=why)

    def check(self, name: str, passed: bool, detail: str, **data: object) -> None:
        """A checker's verdict on one property of the learner's program."""
        self.session.emit("check", name=name, passed=bool(passed), detail=detail, data=data)

    def measure(self, name: str, value: float, formula: str, inputs: dict, rtol: float,
                atol: float = 0.0, unit: str = "", subtract: tuple[str, ...] = ()) -> None:
        """A measured number the tutor compares with the sizing engine's `formula(inputs)`
        (minus each formula in `subtract`, at the same inputs)."""
        self.session.emit("measure", name=name, value=float(value), formula=formula, inputs=inputs,
                          rtol=rtol, atol=atol, unit=unit, subtract=list(subtract))

    def finish(self) -> None:
        """Leave the process group cleanly (all ranks)."""
        if dist.is_initialized():
            dist.destroy_process_group()
        self.session.emit("finished")


_context: RankContext | None = None


def init(backend: str | None = None, timeout_s: float | None = None) -> RankContext:
    global _context
    if _context is not None:
        return _context
    if not under_torchrun():
        raise SystemExit("run this program with torchrun, e.g. `torchrun --nproc-per-node 2 "
                         f"{os.path.basename(sys.argv[0])}`, or through `tutor lab run`")
    session = current()
    backend = backend or os.environ.get("TUTOR_LAB_BACKEND") or _auto_backend(session)
    timeout_s = timeout_s or float(os.environ.get("TUTOR_LAB_PG_TIMEOUT", DEFAULT_TIMEOUT_S))
    if backend == "nccl":
        if not torch.cuda.is_available() or torch.cuda.device_count() < session.local_world_size:
            raise SystemExit(f"--backend nccl needs {session.local_world_size} CUDA GPU(s) on this node; "
                             f"found {torch.cuda.device_count() if torch.cuda.is_available() else 0}")
        device = torch.device("cuda", session.local_rank)
        torch.cuda.set_device(device)
        # New tensors and modules go to this rank's GPU, so one lab program serves gloo and NCCL.
        torch.set_default_device(device)
        dist.init_process_group("nccl", timeout=timedelta(seconds=max(timeout_s, JOIN_TIMEOUT_S)), device_id=device)
    else:
        device = torch.device("cpu")
        dist.init_process_group(backend, timeout=timedelta(seconds=max(timeout_s, JOIN_TIMEOUT_S)))
    if timeout_s < JOIN_TIMEOUT_S:
        # torch's setter for a live group's timeout (gloo and NCCL): every collective from here on
        # waits at most `timeout_s`, then raises the backend's timeout error, as on a cluster
        dist.distributed_c10d._set_pg_timeout(timedelta(seconds=timeout_s))
    recorder = Recorder(session)
    recorder.install()
    _context = RankContext(rank=dist.get_rank(), world_size=dist.get_world_size(), local_rank=session.local_rank,
                           backend=backend, device=device, session=session, recorder=recorder)
    session.emit("ready", backend=backend, world_size=_context.world_size, device=str(device),
                 pg_timeout_s=timeout_s)
    return _context


def _auto_backend(session: Session) -> str:
    if torch.cuda.is_available() and torch.cuda.device_count() >= session.local_world_size:
        return "nccl"
    return "gloo"


# torch.testing.assert_close's default tolerances per dtype, as its documentation tabulates them
# (https://docs.pytorch.org/docs/stable/testing.html); any other dtype compares exactly.
DEFAULT_TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5), torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7), torch.complex32: (1e-3, 1e-5), torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


def compare(actual: torch.Tensor, expected: torch.Tensor, rtol: float | None = None,
            atol: float | None = None) -> tuple[bool, str]:
    """(passed, one-line detail): assert_close's rule, |actual − expected| ≤ atol + rtol·|expected|
    elementwise, same dtype, NaN never close, with its default tolerances.

    Written here rather than calling torch.testing.assert_close: on torch 2.13 its first call
    imports torch.distributed.tensor and, through it, SymPy and torch's symbolic shapes, about
    1.5 CPU-seconds in every rank of every check, which is the checker's cost and not the
    learner's program's."""
    actual, expected = actual.detach(), expected.detach().to(actual.device)
    if actual.shape != expected.shape:
        return False, f"shape {tuple(actual.shape)} instead of {tuple(expected.shape)}"
    if actual.dtype != expected.dtype:
        return False, f"dtype {actual.dtype} instead of {expected.dtype}"
    if not actual.numel():
        return True, f"matches (max abs error {0.0:.1e})"
    if rtol is None and atol is None:
        rtol, atol = DEFAULT_TOLERANCES.get(actual.dtype, (0.0, 0.0))
    error = (actual.double() - expected.double()).abs().max().item()
    if not bool(torch.isclose(actual, expected, rtol=rtol or 0.0, atol=atol or 0.0).all()):
        scale = expected.double().abs().max().item()
        return False, f"max abs error {error:.3g} (values up to {scale:.3g})"
    return True, f"matches (max abs error {error:.1e})"
