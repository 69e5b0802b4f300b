"""Checker for no-sync-accumulation: every replica ends with the same weights, those of one
process accumulating the whole global batch, with one gradient all-reduce per optimizer step.

The learner's `train(ctx, model, optimizer, steps, seed)` runs on a DDP model built here,
with micro-batches drawn here from a seed chosen for this run. DDP's gradient all-reduce
happens in C++, out of the recorder's sight, so the model gets a comm hook that averages each
bucket with the public `torch.distributed.all_reduce` (recorded like any call of the program).
"""

from __future__ import annotations

import os

import torch
import torch._dynamo  # noqa: F401  (torch.optim imports it on first use: seconds under load, which
#                               the no-progress watchdog would take for a hang; pay it at start-up)
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare


def run_seed() -> int:
    seed = torch.tensor([int.from_bytes(os.urandom(3), "little") if dist.get_rank() == 0 else 0])
    dist.broadcast(seed, 0)
    return int(seed.item())


def average_bucket(world_size: int, bucket):
    """DDP's own averaging, through the public API; blocking, as the bucket is small."""
    tensor = bucket.buffer()
    tensor.div_(world_size)
    dist.all_reduce(tensor)
    future: torch.futures.Future = torch.futures.Future()
    future.set_result(tensor)
    return future


def flat(model) -> torch.Tensor:
    return torch.cat([param.detach().reshape(-1) for param in model.parameters()])


def main() -> None:
    ctx = lab.init()
    program = lab.load_program()
    params = lab.check_params()
    steps, n = int(params.get("steps", 4)), ctx.world_size
    seed = run_seed()
    in_dim, out_dim, batch, accum = program.IN, program.OUT, program.MICRO_BATCH, program.ACCUM

    def micro_batch(seed: int, rank: int, step: int, micro: int):
        """This run's data, not the program's: a different batch on every rank."""
        generator = torch.Generator(device=torch.get_default_device())  # the GPU's under NCCL
        generator.manual_seed((seed * 7919 + rank * 104729 + step * 131 + micro) & 0x7FFFFFFF)
        inputs = torch.randn(batch, in_dim, generator=generator)
        return inputs, torch.sin(inputs[:, :out_dim] * 2) + 0.1 * torch.randn(batch, out_dim, generator=generator)

    program.micro_batch = micro_batch
    model = DistributedDataParallel(program.make_model(seed))
    model.register_comm_hook(n, average_bucket)
    # Plain SGD, not the program's Adam: Adam divides each update by the gradient's own size, so it
    # hides a wrong scale (a loss not divided by ACCUM) and magnifies rounding where a gradient is
    # near zero: the right solution, whose gradients are summed in another order than the reference's,
    # missed the 1e-5 tolerance on about one run's seed in 300. SGD is linear in the gradients.
    optimizer = torch.optim.SGD(model.parameters(), lr=program.LR)
    mark = ctx.recorder.mark()
    program.train(ctx, model, optimizer, steps, seed)
    calls = ctx.recorder.since(mark)

    mine = flat(model.module)
    every = [torch.zeros_like(mine) for _ in range(n)]
    dist.all_gather(every, mine)
    spread = max((other - every[0]).abs().max().item() for other in every)
    ctx.check("every replica holds the same weights", spread == 0.0,
              "the ranks' weights are identical" if spread == 0.0 else
              f"the ranks' weights differ by up to {spread:.3g} after {steps} steps: the replicas have drifted apart")

    reference = program.make_model(seed)
    sgd = torch.optim.SGD(reference.parameters(), lr=program.LR)
    for step in range(steps):
        sgd.zero_grad()
        for rank in range(n):
            for micro in range(accum):
                inputs, targets = micro_batch(seed, rank, step, micro)
                (F.mse_loss(reference(inputs), targets) / (accum * n)).backward()
        sgd.step()
    passed, detail = compare(mine, flat(reference), rtol=1e-4, atol=1e-5)
    ctx.check("weights equal one process on the whole global batch", passed,
              f"{detail}, after {steps} steps of {accum} micro-batches on each of {n} ranks")

    reduces = [call for call in calls if call["op"] == "all_reduce" and "in average_bucket" in (call.get("site") or "")]
    others = sorted({call["op"] for call in calls} - {"all_reduce"} |
                    ({"all_reduce (outside DDP)"} if len(reduces) < sum(c["op"] == "all_reduce" for c in calls) else set()))
    passed = len(reduces) == steps and not others
    ctx.check("gradients all-reduced once per optimizer step", passed,
              f"{len(reduces)} gradient all-reduce(s) by DDP in {steps} steps of {accum} micro-batches (one per step "
              f"is enough)" + (f"; also {', '.join(others)}" if others else ""))
    ctx.finish()


if __name__ == "__main__":
    main()
