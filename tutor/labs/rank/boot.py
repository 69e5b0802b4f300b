"""A rank's first moments: announce itself, arm the evidence hooks, run the program.

The program runs as `__main__` (runpy), exactly as `python train.py` would run it, with its
own folder first on sys.path. An exception that ends it is recorded twice: as an event for
the tutor, and in torchrun's error file, so torchrun's failure report shows the root cause's
traceback (its "Root Cause (first observed failure)" section). Both, and the traceback the rank
prints, are the learner's frames and torch's: the tutor's own (this runner, the hang labs' Trainer
and replay check) are cut out of it (docs/labs.md, "Code the labs share").
"""

from __future__ import annotations

import math
import os
import runpy
import socket
import sys
import time
import traceback
import types

from tutor.labs.events import FAILURE_RELEASE
from tutor.labs.rank import dumps
from tutor.labs.rank.session import current

HOLD_S = 10.0


def main(argv: list[str]) -> None:
    if not argv:
        print("usage: python -m tutor.labs.rank PROGRAM [ARGS...] (under torchrun)", file=sys.stderr)
        raise SystemExit(2)
    program = os.path.abspath(argv[0])
    session = current()
    session.emit("boot", pid=os.getpid(), rank=session.rank, local_rank=session.local_rank,
                 host=socket.gethostname(), master_port=os.environ.get("MASTER_PORT"), program=program)
    dumps.arm(session)
    sys.excepthook = _print_learner_traceback
    sys.argv = [program, *argv[1:]]
    sys.path.insert(0, os.path.dirname(program))
    try:
        runpy.run_path(program, run_name="__main__")
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if isinstance(exit_.code, str):  # `raise SystemExit("message")`: the message is the cause
            session.emit("exception", type="SystemExit", message=exit_.code, where=None, traceback=None)
        if code == 0:
            _wait_for_threads()
        session.emit("exit", code=code)
        if code == 0:
            _exit_without_teardown()
        raise
    except BaseException as error:
        from tutor.labs.procs import MEMORY_CAP_ENV, is_out_of_memory

        _cut_tutor_frames(error)

        message = str(error)[:2000]
        if is_out_of_memory(error):  # the per-rank cap (procs.cap_memory) was reached
            message = f"out of memory: this rank reached its cap of {os.environ.get(MEMORY_CAP_ENV, '?')} MB " \
                      f"({MEMORY_CAP_ENV}) {message}".rstrip()
        session.emit("exception", type=type(error).__name__, message=message,
                     where=_where(error, program), traceback="".join(traceback.format_exception(error))[-6000:])
        recorded = time.time()
        _record_for_torchrun(error)
        _hold_for_evidence(session)
        # torchrun orders failures by their error files' timestamps in whole seconds, ties to the
        # lower rank: a peer whose collective fails when this process exits, within the same
        # second, would be named the root cause. Leave only once that second has passed.
        time.sleep(max(0.0, math.floor(recorded) + 1.05 - time.time()))
        session.emit("exit", code=1)
        if not isinstance(error, Exception):  # KeyboardInterrupt and the like: Python's own exit
            raise
        _print_learner_traceback(type(error), error, error.__traceback__)
        _exit_without_teardown(1)
    _wait_for_threads()
    session.emit("exit", code=0)
    _exit_without_teardown()


def _cut_tutor_frames(error: BaseException | None) -> None:
    """Drop the tutor's frames (tutor/labs/...) from the traceback of `error` and of the exceptions
    it was raised from or during, in place.

    Why by hand: Python has no way to hide a library's frames from a traceback (pytest relinks
    them the same way); a traceback's entries can be rebuilt (types.TracebackType) since 3.7.
    """
    from tutor.labs.hangview import TUTOR_FRAMES

    todo, seen = [error], set()
    while todo:
        error = todo.pop()
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        kept, tb = [], error.__traceback__
        while tb is not None:
            if not TUTOR_FRAMES.search(tb.tb_frame.f_code.co_filename.replace("\\", "/")):
                kept.append(tb)
            tb = tb.tb_next
        relinked = None
        for entry in reversed(kept):
            relinked = types.TracebackType(relinked, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
        error.__traceback__ = relinked
        todo += [error.__cause__, error.__context__]


def _print_learner_traceback(kind, error, tb) -> None:
    """sys.excepthook: the uncaught exception's traceback as the learner's program has it."""
    if error is not None:
        error.__traceback__ = tb
        _cut_tutor_frames(error)
        tb = error.__traceback__
    sys.__excepthook__(kind, error, tb)


def _wait_for_threads() -> None:
    """Wait for the program's non-daemon threads, as the interpreter does at exit.

    Why: `_exit_without_teardown` leaves with `os._exit`, which would end such a thread with the
    process; a Python program does not end while one of its non-daemon threads runs (its
    `threading._shutdown` joins them), and a thread that never ends keeps a finished job alive
    for ever (lab exit-hang). Joined in the order they were started, as the interpreter does;
    daemon threads (the tutor's own: dumps, watchers) are not waited for.
    """
    import threading

    # First what the interpreter's threading._shutdown runs before it joins: the callbacks of
    # threading._register_atexit (concurrent.futures tells its idle workers to stop there).
    for callback in reversed(list(getattr(threading, "_threading_atexits", []))):
        callback()
    current = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not current and thread is not threading.main_thread() and not thread.daemon:
            thread.join()


def _exit_without_teardown(code: int = 0) -> None:
    """End a rank whose program has finished (or raised: `code` 1, as Python's own exit after an
    uncaught exception, its traceback printed), skipping the interpreter's teardown.

    Why: with gloo (measured on torch 2.13 CPU), objects that still reference a destroyed
    process group's work, such as a DDP reducer, are freed during interpreter finalization, and
    about one exit in ten then aborts with "terminate called without an active exception"
    (a bare DDP script under torchrun: 1 run in 10; the perf labs: 5 runs in 14). torchrun reports
    that as a crash of a program that finished. Known upstream (pytorch/pytorch#190489, and the
    abandoned atexit fix #179291). Every event is written line by line and the program's own
    files are closed, so nothing is lost by leaving at once. After an exception the teardown is
    slower still: destroying a process group with a collective still pending waits for gloo's
    timeout again, so a failed rank took seconds to end (7 s after its exit event, uneven-batches
    at 2 ranks under load) while torchrun and its peers waited for it.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _hold_for_evidence(session) -> None:
    """Under the tutor, keep this failed process (and so its connections) up until the runner
    has taken the other ranks' stacks: on gloo its exit would make their collectives fail at
    once, and torchrun ends them half a second later, so their stacks would be lost. On a
    cluster the ranks of other nodes would go on waiting; this lets the evidence show that."""
    if session.run_dir is None:
        return
    release = session.run_dir / FAILURE_RELEASE
    deadline = time.monotonic() + HOLD_S
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def _where(error: BaseException, program: str) -> str | None:
    """The innermost line of the learner's own files in the traceback.

    Under `tutor lab check` the job's program is the lab's checker, which imports the learner's
    program (TUTOR_LAB_PROGRAM): a line of that program is preferred, so a crash is placed at
    the learner's line, not at the checker's call (findings D11)."""
    folders = [os.path.dirname(path) for path in (os.environ.get("TUTOR_LAB_PROGRAM"), program) if path]
    found = None
    for folder in folders:
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename.startswith("<"):
                continue  # generated code (a dataclass's __init__), not a file of the program's folder
            if os.path.abspath(frame.filename).startswith(os.path.abspath(folder) + os.sep):
                found = f"{os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}"
        if found is not None:
            break
    if found is None and isinstance(error, SyntaxError) and error.filename:
        found = f"{os.path.basename(error.filename)}:{error.lineno}"
    return found


def _record_for_torchrun(error: BaseException) -> None:
    if not os.environ.get("TORCHELASTIC_ERROR_FILE") or "torch" not in sys.modules:
        return
    try:
        from torch.distributed.elastic.multiprocessing.errors import ErrorHandler

        ErrorHandler().record_exception(error)
    except Exception:  # the error file is a courtesy; the event above is the record
        pass
