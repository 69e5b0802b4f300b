"""Entry point of the launcher process: `python -m tutor.labs.agent TORCHRUN-ARGS`.

It is torchrun (`torch.distributed.run`, PyTorch's elastic agent) with two things done first:
the kernel will send it SIGTERM when the tutor dies (torchrun then stops its ranks), and its
pid is exported so each rank can tell whether its launcher is still the one that started it.
This module imports nothing from torch itself; runpy hands the process over to torchrun.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys

LAUNCHER_PID_ENV = "TUTOR_LAB_LAUNCHER_PID"
PARENT_PID_ENV = "TUTOR_LAB_PARENT_PID"


def main() -> None:
    from tutor.labs.procs import die_with_parent

    expected = os.environ.get(PARENT_PID_ENV)
    die_with_parent(signal.SIGTERM, int(expected) if expected and expected.isdigit() else None)
    os.environ[LAUNCHER_PID_ENV] = str(os.getpid())
    sys.argv = ["torchrun", *sys.argv[1:]]
    runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
