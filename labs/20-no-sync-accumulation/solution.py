"""Gradient accumulation under DistributedDataParallel, with `no_sync` to save communication.

Run it alone:   torchrun --nproc-per-node 2 train.py --steps 6      (2 or 4 ranks)
In the tutor:   tutor lab run no-sync-accumulation, then tutor lab check no-sync-accumulation

Each optimizer step accumulates the gradients of ACCUM micro-batches per rank, then Adam
updates the weights. The gradient all-reduce only needs to happen once per optimizer step,
so the micro-steps that do not need it run inside DDP's `no_sync()`. Every rank reads its own
micro-batches (a generator seeded by --seed, the rank, the step and the micro-step).

What to observe: each rank's loss per step, and at the end each rank's checksum of its
weights (the sum of every parameter, and of their absolute values).
"""

from __future__ import annotations

import argparse
import contextlib

import torch
import torch._dynamo  # noqa: F401  (torch.optim imports it on first use: seconds under load, which
#                               the no-progress watchdog would take for a hang; pay it at start-up)
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from tutor.labs import rank as lab

IN, HIDDEN, OUT, MICRO_BATCH, ACCUM, LR = 32, 64, 32, 8, 4, 1e-2


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def make_model(seed: int) -> nn.Module:
    torch.manual_seed(seed)  # the same initial weights on every rank
    return nn.Sequential(nn.Linear(IN, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, OUT))


def micro_batch(seed: int, rank: int, step: int, micro: int) -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator(device=torch.get_default_device())  # the GPU's under NCCL
    generator.manual_seed(hash((seed, rank, step, micro)) & 0x7FFFFFFF)
    inputs = torch.randn(MICRO_BATCH, IN, generator=generator)
    return inputs, torch.sin(inputs[:, :OUT] * 2) + 0.1 * torch.randn(MICRO_BATCH, OUT, generator=generator)


def train(ctx, model: DistributedDataParallel, optimizer, steps: int, seed: int) -> list[float]:
    losses = []
    for step in ctx.steps(steps):
        total = 0.0
        for micro in range(ACCUM):
            inputs, targets = micro_batch(seed, ctx.rank, step, micro)
            # One all-reduce per optimizer step is enough: DDP all-reduces what has been
            # accumulated when backward runs outside no_sync, so that must be the last micro-step.
            sync = micro == ACCUM - 1
            with contextlib.nullcontext() if sync else model.no_sync():
                loss = F.mse_loss(model(inputs), targets) / ACCUM
                loss.backward()
            total += loss.item()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(total)
        ctx.log(f"step {step} loss {total:.4f}")
    return losses


def checksum(model: nn.Module) -> tuple[float, float]:
    flat = torch.cat([param.detach().reshape(-1) for param in model.parameters()])
    return flat.sum().item(), flat.abs().sum().item()


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    model = DistributedDataParallel(make_model(args.seed))
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    losses = train(ctx, model, optimizer, args.steps, args.seed)
    total, absolute = checksum(model.module)
    ctx.log(f"weights checksum: sum {total:.6f}, sum of |w| {absolute:.6f}")
    ctx.report(final_loss=losses[-1], weight_sum=total, weight_abs_sum=absolute)
    result = {"model": model.module, "losses": losses}
    ctx.finish()
    return result


if __name__ == "__main__":
    main()
