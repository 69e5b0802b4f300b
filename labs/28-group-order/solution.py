"""Data-parallel training with its gradients and its metrics on process groups of their own.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --log-every 4 --log-rank 1
In the tutor:   tutor lab run group-order, then tutor lab evidence group-order --fr

Each rank trains the same small language model on its own slice of every global batch and
averages the gradients itself, with an all-reduce over a process group kept for gradients.
Every --log-every steps the loss is summed over the ranks to the rank that writes the job's
metrics (--log-rank), over a second group kept for metrics, so that logging never queues
behind the gradients (on NCCL, each group has its own stream). Both groups hold every rank and
have a short timeout. The metrics writer is set up on its own rank, with the metrics group.

What to observe: how the job ends, where each rank was (stacks, collectives) and, in the
flight recorder (--fr), which process group each rank's last collective went to: its name and
description, and its sequence number in that group.
"""

from __future__ import annotations

import argparse
from datetime import timedelta

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

GROUP_TIMEOUT_S = 6.0


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--log-every", type=int, default=4)
    parser.add_argument("--log-rank", type=int, default=1, help="the rank that writes the metrics")
    return parser.parse_args(argv)


def job_group(name: str):
    """A process group of every rank, with the job's short timeout."""
    return dist.new_group(timeout=timedelta(seconds=GROUP_TIMEOUT_S), group_desc=name)


class MetricsWriter:
    """Writes the job's metrics (here to the log); lives on the logging rank, with its group."""

    def __init__(self, ctx, group):
        self.ctx = ctx
        self.group = group
        self.logged: list[tuple[int, float]] = []

    def write(self, step: int, loss: float) -> None:
        self.logged.append((step, loss))
        self.ctx.log(f"step {step}: loss {loss:.4f}")


def make_groups(ctx, log_rank: int):
    """(gradient group, metrics group, the metrics writer on the logging rank, else None)."""
    # Every rank creates every group, in one order: new_group is matched by its order of calls,
    # so a group created first on one rank and second on another is not the same group.
    grads = job_group("grads")
    metrics = job_group("metrics")
    writer = MetricsWriter(ctx, metrics) if ctx.rank == log_rank else None
    return grads, metrics, writer


def average_gradients(model: torch.nn.Module, group, world_size: int) -> None:
    """Every gradient averaged over the ranks: one all-reduce of them all."""
    grads = [p.grad for p in model.parameters()]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat, group=group)
    for grad, part in zip(grads, (flat / world_size).split([g.numel() for g in grads])):
        grad.copy_(part.view_as(grad))


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    model = tt.make_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
    grads, metrics, writer = make_groups(ctx, args.log_rank)
    loss_sum, tokens = 0.0, 0
    for step in ctx.steps(len(loader)):
        batch = loader.batch(step)
        loss = tt.token_loss(model(batch.tokens), batch.targets, batch.mask)
        optimizer.zero_grad()
        loss.backward()
        average_gradients(model, grads, ctx.world_size)
        optimizer.step()
        loss_sum, tokens = loss_sum + loss.item() * batch.real_tokens, tokens + batch.real_tokens
        if (step + 1) % args.log_every == 0 or step + 1 == len(loader):
            sums = torch.tensor([loss_sum, float(tokens)], dtype=torch.float64)
            dist.reduce(sums, dst=args.log_rank, group=metrics)
            if writer is not None:
                writer.write(step, float(sums[0] / sums[1]))
            loss_sum, tokens = 0.0, 0
    ctx.finish()
    return {"model": model, "logged": writer.logged if writer is not None else None, "steps": len(loader)}


if __name__ == "__main__":
    main()
