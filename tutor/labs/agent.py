"""Entry point of the launcher process: `python -m tutor.labs.agent TORCHRUN-ARGS`.

It is torchrun (`torch.distributed.run`, PyTorch's elastic agent) with three things done first:
the kernel will send it SIGTERM when the tutor dies (torchrun then stops its ranks), a watch
thread makes sure it is gone a few seconds later, and its pid is exported so each rank can tell
whether its launcher is still the one that started it.
This module imports nothing from torch itself; runpy hands the process over to torchrun.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
import time
import traceback

LAUNCHER_PID_ENV = "TUTOR_LAB_LAUNCHER_PID"
PARENT_PID_ENV = "TUTOR_LAB_PARENT_PID"


ORPHAN_GRACE_S = 3.0


def _end_if_orphaned(parent: int) -> None:
    """SIGKILL this launcher a few seconds after its parent is gone.

    The parent-death SIGTERM lets torchrun stop its ranks in order, but torchrun can then hang
    at interpreter exit, joining its log-tailing threads, with its rendezvous port still bound.
    This daemon thread keeps running through that and ends it; the ranks, tied to the launcher
    by their own parent-death signal, go with it.
    """
    from tutor.labs.procs import RUN_MARKER_ENV, sweep

    while os.getppid() == parent:
        time.sleep(0.2)
    time.sleep(ORPHAN_GRACE_S)
    sweep(os.environ.get(RUN_MARKER_ENV), os.getpid(), reap=True)  # SIGTERM-ignoring and escaped processes too
    _empty_own_cgroup()  # and what cleared its environment: only the run's cgroup still holds it
    os.kill(os.getpid(), signal.SIGKILL)


def _empty_own_cgroup() -> None:
    from tutor.labs.container import Container

    own = Container.of_this_process()
    if own is not None:
        own.kill_all(spare=os.getpid(), reap=True)


def main() -> None:
    from tutor.labs.procs import RUN_MARKER_ENV, become_subreaper, die_with_parent, sweep

    expected = os.environ.get(PARENT_PID_ENV)
    parent = int(expected) if expected and expected.isdigit() else None
    become_subreaper()  # double-forked and setsid'd processes of the ranks stay in this tree
    if die_with_parent(signal.SIGTERM, parent) and parent is not None:
        threading.Thread(target=_end_if_orphaned, args=(parent,), daemon=True, name="tutor-orphan-watch").start()
    os.environ[LAUNCHER_PID_ENV] = str(os.getpid())
    from tutor.labs.launch import rendezvous_failure, rendezvous_waiting

    argv = sys.argv[1:]
    waiting = rendezvous_waiting(argv)
    if waiting:
        print(waiting, file=sys.stderr, flush=True)
    sys.argv = ["torchrun", *argv]
    code = 0
    try:
        runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except Exception as error:  # a rendezvous that timed out reads as one line, not a TCPStore traceback
        message = rendezvous_failure(error, argv)
        if message is None:
            traceback.print_exc()  # torchrun's failure report (ChildFailedError), as Python prints it
        else:
            print(message, file=sys.stderr, flush=True)
        code = 1
    finally:
        # However torchrun ends (done, failed, SIGTERM), nothing the ranks started outlives it.
        sweep(os.environ.get(RUN_MARKER_ENV), os.getpid(), reap=True)
        _empty_own_cgroup()
    # torchrun has stopped its ranks and its log tailing; the interpreter's teardown (torch
    # imported, threads joined) took 4 s after its failure report on two loaded cores, while the
    # tutor waited for this process to end, and can hang (see _end_if_orphaned). Leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
