"""Data-parallel training that measures a held-out loss every few steps.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --eval-every 4 --eval-docs 22
In the tutor:   tutor lab run eval-rank0, then tutor lab evidence eval-rank0 --fr

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. Every --eval-every steps the job measures the loss on a held-out
set of --eval-docs documents: `evaluate` scores this rank's share of them and sums the loss
and the tokens over the ranks. The sums are CPU tensors, so they travel over a gloo group of
their own, as in jobs that train on NCCL, with a short timeout so that a stuck evaluation
does not hold the job for half an hour. Rank 0 writes the result to the log.

What to observe: how the job ends, the error and the line it names, and where each rank was
at that moment (its stack and its last collectives; the flight recorder with --fr).
"""

from __future__ import annotations

import argparse
from datetime import timedelta

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

EVAL_TIMEOUT_S = 6.0
EVAL_SEED = 1


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--eval-every", type=int, default=4)
    parser.add_argument("--eval-docs", type=int, default=22, help="documents in the held-out set")
    return parser.parse_args(argv)


def held_out(cfg: tt.Config, documents: int) -> tt.Corpus:
    """The held-out documents: another seed than the training corpus, the same on every rank."""
    return tt.Corpus(cfg, size=documents, seed=EVAL_SEED)


def evaluate(ctx, model: torch.nn.Module, corpus: tt.Corpus, group) -> float:
    """The mean token loss over the held-out set: this rank scores documents rank, rank + W, …,
    and the loss and token sums are all-reduced over the evaluation group."""
    ids = list(range(ctx.rank, len(corpus), ctx.world_size))
    with torch.no_grad():
        batch = tt.collate(corpus, ids, corpus.cfg.max_len)
        loss = tt.token_loss(model(batch.tokens), batch.targets, batch.mask)
    sums = torch.tensor([loss.item() * batch.real_tokens, float(batch.real_tokens)], dtype=torch.float64)
    dist.all_reduce(sums, group=group)
    return float(sums[0] / sums[1])


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    eval_set = held_out(cfg, args.eval_docs)
    eval_group = dist.new_group(backend="gloo", timeout=timedelta(seconds=EVAL_TIMEOUT_S))
    evals = []
    for step in ctx.steps(len(loader)):
        loss = trainer.forward(step, loader.batch(step))
        trainer.backward(loss)
        trainer.step()
        if (step + 1) % args.eval_every == 0:
            # Every rank evaluates: evaluate() holds a collective, and a collective that only
            # some ranks call waits for the others for ever (the others are already in the next
            # step's gradient all-reduce). Only the logging is rank 0's.
            held = evaluate(ctx, trainer.model, eval_set, eval_group)
            if ctx.rank == 0:
                ctx.log(f"step {step}: train loss {loss.item():.4f}, held-out loss {held:.4f}")
                evals.append((step, held))
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "evals": evals, "cfg": cfg, "steps": len(loader)}


if __name__ == "__main__":
    main()
