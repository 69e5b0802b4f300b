"""Checker for exit-hang: training still trains right, every checkpoint is in the store, whole,
with its step's weights, when the program's `main` returns, and no thread the program started
is still running then (the process can exit, and no upload dies with it).

The learner's `main` runs twice, with two different uploading ranks drawn by rank 0 on every
check, and the checkpoint interval drawn too (`check.save_every`), so "close the uploader on
rank 1" fails. The
weights a checkpoint must hold are the checker's own replay of every rank's batches at its step
(replay.py). A non-daemon thread the program left running is reported, and then the check's
own process waits for it at exit, as the learner's does: the check ends as a hang ("runs to
completion" fails). A daemon uploader fails too: it is still running, its last upload not done.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
from pathlib import Path

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck
from tutor.labs.rank.context import compare
from tutor.labs.rank.replay import ATOL, RTOL, replay
from tutor.labs.rank.training import Config


@contextlib.contextmanager
def process_group_kept():
    """The program's `ctx.finish()` would end the process group; the checker ends it itself."""
    real = lab.init()
    real.finish = lambda: None
    try:
        yield
    finally:
        del real.finish


def run(ctx, program, shipped, params: dict) -> None:
    steps = int(params["steps"])
    every, first, nonce = fixcheck.draw(ctx, [int(n) for n in params["save_every"]], list(range(ctx.world_size)),
                                        list(range(1, 10**6)))
    second = fixcheck.draw(ctx, [rank for rank in range(ctx.world_size) if rank != first])[0]
    for uploader in (first, second):
        store = Path(tempfile.gettempdir()) / f"tutor-exit-hang-{nonce}-{uploader}"
        check_once(ctx, program, steps, every, uploader, store)


def check_once(ctx, program, steps: int, every: int, uploader: int, store: Path) -> None:
    label = f"rank {uploader} uploading every {every} steps"
    before = set(threading.enumerate())
    try:
        with process_group_kept():
            result = program.main(["--steps", str(steps), "--save-every", str(every), "--upload-rank", str(uploader),
                                   "--store", str(store)])
        saved = sorted(store.glob("step-*.pt")) if ctx.rank == uploader else []
        left = [thread for thread in threading.enumerate() if thread not in before and thread.is_alive()]
        ctx.check(f"{label}: no thread of the program is left running when main returns", not left,
                  f"rank {ctx.rank}: none left" if not left else
                  f"rank {ctx.rank}: " + ", ".join(f"thread {t.name!r} ({'daemon' if t.daemon else 'not a daemon'})"
                                                   for t in left) + " still running after main returned: "
                  "a non-daemon thread keeps the process from exiting, a daemon one dies with what it was doing")
        expected_steps = [step for step in range(steps) if (step + 1) % every == 0]
        names = [path.name for path in saved]
        if ctx.rank == uploader:
            ctx.check(f"{label}: every checkpoint is in the store when main returns",
                      names == [f"step-{step}.pt" for step in expected_steps],
                      f"rank {ctx.rank}: {names}, expected {[f'step-{step}.pt' for step in expected_steps]}")
        dist.barrier()  # the uploader's files, as they were when its main returned, for rank 0
        if ctx.rank != 0:
            return
        report = result.get("report") or {}
        fixcheck.all_steps(ctx, report, steps)
        if not report.get("ledgers"):
            ctx.check(f"{label}: each checkpoint holds the weights of its step", False, "no training report to replay")
            return
        _, snapshots = replay(Config(), report["ledgers"], ctx.world_size, snapshot_at=tuple(expected_steps))
        problems = []
        for step in expected_steps:
            path = store / f"step-{step}.pt"
            try:
                state = torch.load(path, map_location="cpu", weights_only=True)
                got = torch.cat([value.reshape(-1).float() for value in state.values()])
            except Exception as error:  # missing, half written, not a state dict: one line each
                problems.append(f"step {step}: {type(error).__name__}: {error}")
                continue
            want = torch.cat([value.reshape(-1).float() for value in snapshots[step]["model"].values()])
            same, detail = compare(got, want, rtol=RTOL, atol=ATOL)
            if not same:
                problems.append(f"step {step}: {detail}")
        ctx.check(f"{label}: each checkpoint holds the weights of its step", not problems,
                  f"{len(expected_steps)} checkpoints equal the replay" if not problems else "; ".join(problems))
    finally:
        if ctx.rank == 0:  # the last to read it
            shutil.rmtree(store, ignore_errors=True)


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), None, lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
