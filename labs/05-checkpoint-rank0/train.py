"""Data-parallel training with periodic checkpoints.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --save-every 5
In the tutor:   tutor lab run checkpoint-rank0, then tutor lab evidence checkpoint-rank0

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. Every --save-every steps the job writes a checkpoint: the
weights, the optimizer's state, and where each rank's data stream stands, so that a restart
resumes every rank where it stopped.

What to observe: the `step N` lines, and whether the job finishes. If it stops making
progress, find out where each rank is waiting before you read the code: a Python stack of
every rank (`py-spy dump --pid PID`, or the tutor's evidence) and the collectives each rank
made last.
"""

from __future__ import annotations

import argparse
import os

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.fixcheck import output_path


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--save-every", type=int, default=5)
    parser.add_argument("--checkpoint", default=None, help="default: checkpoint.pt in the run folder")
    return parser.parse_args(argv)


def data_positions(ctx, loader: tt.ShardedLoader) -> list[int]:
    """Every rank's position in its data stream: a restart needs all of them."""
    mine = torch.tensor([loader.position])
    positions = [torch.zeros(1, dtype=torch.long) for _ in range(ctx.world_size)]
    dist.all_gather(positions, mine)
    return [int(position.item()) for position in positions]


def save_checkpoint(ctx, trainer: tt.Trainer, loader: tt.ShardedLoader, path, step: int) -> None:
    if ctx.rank == 0:
        positions = data_positions(ctx, loader)
        state = {"step": step, **trainer.state(), "data_positions": positions}
        torch.save(state, f"{path}.tmp")
        os.replace(f"{path}.tmp", path)  # a crash mid-write never leaves half a checkpoint
        ctx.log(f"checkpoint of step {step} written to {path}")


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    path = args.checkpoint or output_path(ctx, "checkpoint.pt")
    saved = []
    for step in ctx.steps(len(loader)):
        loss = trainer.train_step(step, loader.batch(step))
        if ctx.rank == 0:
            ctx.log(f"step {step} loss {loss:.3f}")
        if (step + 1) % args.save_every == 0:
            save_checkpoint(ctx, trainer, loader, path, step)
            saved.append(step)
    report = trainer.finish(snapshot_at=tuple(saved))
    ctx.finish()
    return {"report": report, "checkpoint": str(path), "saved": saved, "cfg": cfg, "steps": len(loader)}


if __name__ == "__main__":
    main()
