"""Data-parallel training that uploads a checkpoint every few steps, in the background.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --save-every 4 --upload-rank 1
In the tutor:   tutor lab run exit-hang, then tutor lab evidence exit-hang

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. Every --save-every steps the rank that owns the checkpoint store
(--upload-rank) hands a copy of the weights to an uploader, whose thread writes it to the
store (a folder here, --store) while training goes on; a store is slow, so each upload takes
a while. After the last step every rank checks its weights, leaves the process group and
returns.

What to observe: every rank's log up to the end, which ranks' processes have exited and which
have not, and what each thread of a process that is still there is doing (its stack shows
every thread).
"""

from __future__ import annotations

import argparse
import os
import queue
import threading
import time
from pathlib import Path

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

UPLOAD_S = 0.5


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--save-every", type=int, default=4)
    parser.add_argument("--upload-rank", type=int, default=1, help="the rank that owns the checkpoint store")
    parser.add_argument("--store", default=None, help="the store's folder (default: the run folder's store/)")
    return parser.parse_args(argv)


class Uploader:
    """Writes checkpoints to the store from a thread of its own, in the order they were handed over."""

    def __init__(self, store: Path):
        self.store = store
        self.store.mkdir(parents=True, exist_ok=True)
        self.queue: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="checkpoint-uploader")
        self.thread.start()

    def submit(self, step: int, state: dict) -> None:
        self.queue.put((step, state))

    def close(self) -> None:
        """Upload what is queued, then end the thread."""
        self.queue.put(None)
        self.thread.join()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            step, state = item
            time.sleep(UPLOAD_S)  # the store's latency
            path = self.store / f"step-{step}.pt"
            torch.save(state, path.with_suffix(".tmp"))
            os.replace(path.with_suffix(".tmp"), path)  # whole or absent, never half written


def store_folder(ctx, args: argparse.Namespace) -> Path:
    return Path(args.store) if args.store else Path(ctx.session.run_dir or Path.cwd()) / "store"


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    uploader = Uploader(store_folder(ctx, args)) if ctx.rank == args.upload_rank else None
    try:
        for step in ctx.steps(len(loader)):
            loss = trainer.forward(step, loader.batch(step))
            trainer.backward(loss)
            trainer.step()
            if ctx.rank == 0:
                ctx.log(f"step {step}: loss {loss.item():.4f}")
            if uploader is not None and (step + 1) % args.save_every == 0:
                uploader.submit(step, {name: value.detach().clone() for name, value in trainer.model.state_dict().items()})
    finally:
        # On every path, not only on an error: the uploader's thread is not a daemon (a daemon
        # would die with the process, and the last upload with it), so a process whose thread
        # still waits for work never exits, and the job never ends.
        if uploader is not None:
            uploader.close()
    report = trainer.finish()
    ctx.log("training done")
    ctx.finish()
    return {"report": report, "steps": len(loader), "store": str(store_folder(ctx, args))}


if __name__ == "__main__":
    main()
