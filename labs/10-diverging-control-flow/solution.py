"""Data-parallel training with a guard that stops the run on a non-finite loss.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --filter-step 5
In the tutor:   tutor lab run diverging-control-flow, then tutor lab evidence diverging-control-flow

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. A loss that is not finite (NaN, inf) means the run has gone
wrong, so the loop stops before that step's update, on purpose, to keep the weights of the
last good step. The corpus is synthetic; a faulty filter emptied some documents of the
batch of step --filter-step (it happens: a filter keeps the document and drops its text).

What to observe: the `step N` lines, which ranks stop and when, and whether the job ends.
If it stops making progress, find where each rank is waiting and which ranks left the loop.
"""

from __future__ import annotations

import argparse
import math

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--filter-step", type=int, default=5)
    return parser.parse_args(argv)


def should_stop(ctx, loss: torch.Tensor) -> bool:
    """Stop when the loss is not finite on any rank: a decision every rank takes together.

    all_reduce(MAX) hands every rank the same answer; `reduce` would give it to rank 0 only,
    and a rank that decides alone leaves the others waiting in the next collective.
    """
    bad = torch.tensor([0.0 if math.isfinite(loss.item()) else 1.0])
    dist.all_reduce(bad, op=dist.ReduceOp.MAX)
    return bad.item() > 0


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    first_emptied = args.filter_step * ctx.world_size * cfg.batch
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch,
                       lengths={first_emptied + i: 0 for i in range(cfg.batch)})
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    stopped_at = None
    for step in ctx.steps(len(loader)):
        loss = trainer.forward(step, loader.batch(step))
        if should_stop(ctx, loss):
            ctx.log(f"step {step}: loss is {loss.item()}, stopping before the update")
            stopped_at = step
            break
        trainer.backward(loss)
        trainer.step()
        if ctx.rank == 0:
            ctx.log(f"step {step} loss {loss.item():.3f}")
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "stopped_at": stopped_at, "steps": len(loader), "cfg": cfg}


if __name__ == "__main__":
    main()
