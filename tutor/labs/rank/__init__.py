"""The rank-side helper: what a lab program imports (`from tutor.labs import rank as lab`).

    ctx = lab.init()                    # process group with a short timeout, recorder on
    for step in ctx.steps(10):          # a heartbeat per step for the runner's watchdog
        ...
    ctx.verify("output", out, expected) # a self-check; a failure makes the outcome `wrong`
    ctx.finish()

Checkers (`labs/NN-name/check.py`) also use `load_program()`, `load_shipped()`,
`check_params()`, `ctx.check(...)` and `ctx.measure(...)`.

This package is the only part of tutor that imports torch, and only inside rank processes;
importing the package itself stays cheap (torch is imported by `init` and the checkers'
helpers), so the tutor's import-boundary test can walk it. When the runner started this
process, the first thing done here is to tie its life to the launcher's (see procs.py).
"""

from __future__ import annotations

import os
import signal

from tutor.labs.agent import LAUNCHER_PID_ENV
from tutor.labs.procs import MEMORY_CAP_ENV, cap_memory, die_with_parent

if os.environ.get(LAUNCHER_PID_ENV, "").isdigit():
    die_with_parent(signal.SIGKILL, int(os.environ[LAUNCHER_PID_ENV]))
    if os.environ.get(MEMORY_CAP_ENV, "").isdigit():
        cap_memory(int(os.environ[MEMORY_CAP_ENV]))


def init(backend: str | None = None, timeout_s: float | None = None):
    """Join the process group of this job and return the rank's `RankContext`."""
    from tutor.labs.rank.context import init as _init

    return _init(backend=backend, timeout_s=timeout_s)


def load_program():
    """The learner's program under check, imported as a module (its `main` does not run)."""
    from tutor.labs.rank.checking import load_program as _load

    return _load()


def load_shipped():
    """The program as shipped, imported as a module (for same-run comparisons)."""
    from tutor.labs.rank.checking import load_shipped as _load

    return _load()


def check_params() -> dict:
    """The `check:` parameters of the lab's lab.yaml."""
    from tutor.labs.rank.checking import check_params as _params

    return _params()


__all__ = ["check_params", "init", "load_program", "load_shipped"]
