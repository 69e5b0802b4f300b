"""Data-parallel training over data that was sharded ahead of time, one shard per rank.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 9
In the tutor:   tutor lab run uneven-batches, then tutor lab evidence uneven-batches

Each rank trains the same small language model under DistributedDataParallel. A
preprocessing job split the corpus into one shard per rank, as evenly as a split of whole
documents goes: the corpus has --steps × ranks × 4 documents plus one left over (a real
corpus seldom divides), and the first shards take one more document each when it does not
divide. Each rank reads its own shard in batches of 4 documents, to the end of its shard.

What to observe: the `step N` lines of every rank, and whether the job finishes. If it stops
making progress, compare where each rank is waiting and how many batches each one trained.
"""

from __future__ import annotations

import argparse

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=9)
    parser.add_argument("--documents", type=int, default=None,
                        help="documents in the corpus (default: steps × ranks × batch + 1)")
    return parser.parse_args(argv)


def shard(documents: int, rank: int, world_size: int) -> list[int]:
    """This rank's shard: a contiguous split, the first `documents % world_size` shards one longer."""
    base, extra = divmod(documents, world_size)
    start = rank * base + min(rank, extra)
    return list(range(start, start + base + (1 if rank < extra else 0)))


def batches_of(ids: list[int], size: int) -> list[list[int]]:
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    documents = args.documents or args.steps * ctx.world_size * cfg.batch + 1
    corpus = tt.Corpus(cfg, size=documents)
    batches = batches_of(shard(documents, ctx.rank, ctx.world_size), cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    for step in ctx.steps(len(batches)):
        loss = trainer.train_step(step, tt.collate(corpus, batches[step], cfg.max_len))
        ctx.log(f"step {step} loss {loss:.3f}")
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "documents": documents, "cfg": cfg}


if __name__ == "__main__":
    main()
