"""Data parallelism with gradient buckets: hide the all-reduce behind the backward pass.

Run it alone:   torchrun --nproc-per-node 2 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run dp-overlap, then tutor lab check dp-overlap

Every rank holds the whole model and a slice of the batch. After the backward pass the ranks
average their gradients with all-reduce, bucket by bucket (PyTorch DDP: 25 MiB buckets, a
first one of 1 MiB; here they are smaller because the model is). Backward produces the last
layer's gradients first, so the buckets are filled in that order.

What to observe: each step prints how long backward took and how long after it every
gradient was averaged; at the end, the exposed communication per step: how long the
all-reduce kept the step going after the slowest rank's backward had ended. That is what the
all-reduce adds to a step. The check measures it against the program as shipped, in the same
run.
"""

from __future__ import annotations

import time

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab

WIDTH, LAYERS, BATCH_PER_RANK = 256, 8, 512
BUCKET_BYTES = 512 << 10


def synchronize() -> None:
    """Wait for this rank's queued GPU compute before reading a clock (a no-op on CPU).

    Only the compute stream: NCCL runs on a stream of its own, and waiting for it here would
    hide the very communication being measured.
    """
    if torch.cuda.is_initialized():
        torch.cuda.current_stream().synchronize()


def make_model() -> nn.Sequential:
    return nn.Sequential(*[layer for _ in range(LAYERS) for layer in (nn.Linear(WIDTH, WIDTH), nn.Tanh())])


class GradientBuckets:
    """Averages the model's gradients over the ranks, in buckets of about `bucket_bytes`.

    Use: `buckets.start()` before `loss.backward()`, `buckets.finish()` after it; when
    `finish()` returns, every `.grad` holds the average over the ranks of `group`.
    """

    def __init__(self, model: nn.Module, bucket_bytes: int = BUCKET_BYTES, group=None):
        self.group = group
        self.world_size = dist.get_world_size(group)
        self.buckets: list[list[nn.Parameter]] = [[]]
        filled = 0
        for param in reversed([p for p in model.parameters() if p.requires_grad]):  # backward's order
            if self.buckets[-1] and filled + param.numel() * param.element_size() > bucket_bytes:
                self.buckets.append([])
                filled = 0
            self.buckets[-1].append(param)
            filled += param.numel() * param.element_size()
        self.bucket_of = {param: index for index, bucket in enumerate(self.buckets) for param in bucket}
        self.in_flight: list[tuple[list[nn.Parameter], torch.Tensor, object]] = []
        self.ready = [0] * len(self.buckets)
        for param in self.bucket_of:
            param.register_post_accumulate_grad_hook(self._grad_ready)

    def start(self) -> None:
        self.in_flight.clear()
        self.ready = [0] * len(self.buckets)

    def _grad_ready(self, param: nn.Parameter) -> None:
        index = self.bucket_of[param]
        self.ready[index] += 1
        if self.ready[index] == len(self.buckets[index]):
            bucket = self.buckets[index]
            flat = torch.cat([p.grad.reshape(-1) for p in bucket])
            self.in_flight.append((bucket, flat, dist.all_reduce(flat, group=self.group, async_op=True)))

    def finish(self) -> None:
        for bucket, flat, work in self.in_flight:
            work.wait()
            self._unflatten(bucket, flat)
        self.in_flight.clear()

    def _unflatten(self, bucket: list[nn.Parameter], flat: torch.Tensor) -> None:
        flat /= self.world_size
        offset = 0
        for param in bucket:
            param.grad.copy_(flat[offset: offset + param.numel()].view_as(param.grad))
            offset += param.numel()


def train_step(model, buckets, inputs, targets) -> tuple[float, float, float]:
    """One step; returns the wall-clock times when backward began, when it returned, and when
    every gradient was averaged."""
    model.zero_grad(set_to_none=False)
    buckets.start()
    loss = nn.functional.mse_loss(model(inputs), targets)
    synchronize()
    begin = time.time()
    loss.backward()
    synchronize()
    backward_done = time.time()
    buckets.finish()
    synchronize()
    return begin, backward_done, time.time()


def exposed_per_step(times: list[tuple[float, float, float]]) -> list[float]:
    """Per step: how long communication kept the step going after the slowest rank's backward.

    The ranks' clocks are the same machine's clock; on several machines they would need syncing.
    """
    local = torch.tensor([[done, finished] for _, done, finished in times], dtype=torch.float64)
    every = [torch.zeros_like(local) for _ in range(dist.get_world_size())]
    dist.all_gather(every, local)
    stacked = torch.stack(every)
    return (stacked[:, :, 1].max(0).values - stacked[:, :, 0].max(0).values).tolist()


def main() -> None:
    ctx = lab.init()
    torch.manual_seed(0)  # the same model on every rank
    model = make_model()
    for param in model.parameters():  # gradients exist before the first hook fires
        param.grad = torch.zeros_like(param)
    buckets = GradientBuckets(model)
    torch.manual_seed(1 + ctx.rank)  # a different slice of data per rank
    inputs, targets = torch.randn(BATCH_PER_RANK, WIDTH), torch.randn(BATCH_PER_RANK, WIDTH)
    ctx.log(f"{len(buckets.buckets)} buckets of up to {BUCKET_BYTES >> 10} KiB")
    times = []
    for step in ctx.steps(8):
        dist.barrier()
        begin, backward_done, finished = train_step(model, buckets, inputs, targets)
        times.append((begin, backward_done, finished))
        ctx.log(f"step {step}: backward {(backward_done - begin) * 1e3:.1f} ms, then "
                f"{(finished - backward_done) * 1e3:.1f} ms until every gradient was averaged")
    exposed = sorted(exposed_per_step(times[1:]))  # the first step warms up
    ctx.log(f"exposed communication per step (median, after the slowest rank's backward): "
            f"{exposed[len(exposed) // 2] * 1e3:.1f} ms")
    ctx.report(exposed_comm_s=exposed[len(exposed) // 2])
    ctx.finish()


if __name__ == "__main__":
    main()
