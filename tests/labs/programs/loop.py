"""Test program for the runner: N steps of all_reduce, with a planted fault on demand.

    loop.py STEPS [--hang-at S] [--crash-at S [--lag SECONDS]] [--wrong] [--sleep SECONDS]

--hang-at S: rank 0 calls an extra all_gather at step S (the others wait in all_reduce).
--crash-at S: rank 1 raises at step S; --lag: rank 0 computes that long at step S before its
all_reduce (a slower survivor). --wrong: rank 0's self-check fails.
"""

import argparse
import time

import torch
import torch.distributed as dist

from tutor.labs import rank as lab

parser = argparse.ArgumentParser()
parser.add_argument("steps", type=int)
parser.add_argument("--hang-at", type=int, default=-1)
parser.add_argument("--crash-at", type=int, default=-1)
parser.add_argument("--lag", type=float, default=0.0)
parser.add_argument("--wrong", action="store_true")
parser.add_argument("--sleep", type=float, default=0.02)
args = parser.parse_args()

ctx = lab.init()
x = torch.ones(8)
for step in ctx.steps(args.steps, tokens_per_step=128):
    if step == args.hang_at and ctx.rank == 0:
        dist.all_gather([torch.zeros(8) for _ in range(ctx.world_size)], x)
    if step == args.crash_at and ctx.rank == 1:
        raise RuntimeError("simulated out of memory")
    if step == args.crash_at and ctx.rank == 0:
        time.sleep(args.lag)  # still computing when its peer fails
    work = dist.all_reduce(x, async_op=True)
    work.wait()
    x /= ctx.world_size
    time.sleep(args.sleep)
ctx.verify("sum", x, torch.ones(8) + (1.0 if args.wrong and ctx.rank == 0 else 0.0))
ctx.report(final=x[0].item())
ctx.finish()
