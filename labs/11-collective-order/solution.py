"""Data-parallel training whose learning rate follows the tokens seen by the whole job.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --sync-every 4
In the tutor:   tutor lab run collective-order, then tutor lab evidence collective-order

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. Every --sync-every steps the ranks share how many real tokens
each one has trained on, and rank 0, which owns the learning-rate schedule, sets the new
learning rate from the job's total and sends it to every rank.

What to observe: the `step N` lines and the learning rate rank 0 prints, and whether the job
ends. If it stops making progress, compare, rank by rank, the collectives each one made last:
their order, their kind and where they were called.
"""

from __future__ import annotations

import argparse
import math

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

DECAY_TOKENS = 2_000.0


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--sync-every", type=int, default=4)
    return parser.parse_args(argv)


def scheduled_lr(cfg: tt.Config, tokens: float) -> float:
    """Cosine decay over the tokens the whole job has seen."""
    progress = min(tokens / DECAY_TOKENS, 1.0)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def gather_tokens(ctx, mine: int) -> list[int]:
    """How many real tokens each rank has trained on."""
    counts = [torch.zeros(1, dtype=torch.long) for _ in range(ctx.world_size)]
    dist.all_gather(counts, torch.tensor([mine]))
    return [int(count.item()) for count in counts]


def sync_schedule(ctx, cfg: tt.Config, trainer: tt.Trainer, tokens: int) -> float:
    """The new learning rate, the same on every rank; rank 0 computes it from the job's tokens."""
    # One order on every rank: first every rank's count, then rank 0's learning rate. Ranks
    # that call collectives in different orders wait in different ones for ever.
    total = sum(gather_tokens(ctx, tokens))
    lr = torch.zeros(1)
    if ctx.rank == 0:
        trainer.tokens_seen = total
        lr[0] = scheduled_lr(cfg, trainer.tokens_seen)
    dist.broadcast(lr, src=0)
    return float(lr.item())


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    trainer.tokens_seen = 0
    tokens, lr, history = 0, cfg.lr, []
    for step in ctx.steps(len(loader)):
        if step > 0 and step % args.sync_every == 0:
            lr = sync_schedule(ctx, cfg, trainer, tokens)
        batch = loader.batch(step)
        loss = trainer.forward(step, batch)
        trainer.backward(loss)
        trainer.step(lr=lr)
        tokens += batch.real_tokens
        history.append(lr)
        if ctx.rank == 0:
            ctx.log(f"step {step} loss {loss.item():.3f} lr {lr:.4f}")
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "lr_history": history, "steps": len(loader), "cfg": cfg}


if __name__ == "__main__":
    main()
