"""A language model trained data-parallel, whose step grows when ranks are added. Why?

Run it alone:   torchrun --nproc-per-node 2 train.py          (1 rank works too)
In the tutor:   tutor lab run exposed-comm           step time, tokens/s, MFU, trace summary
                tutor lab experiment exposed-comm --vary ranks   one rank vs all ranks
                tutor lab experiment exposed-comm --vary data    synthetic data vs this loader
                tutor lab bandwidth                  all-reduce algbw and busbw, as nccl-tests reports them
                tutor lab diagnose exposed-comm "..."            name the category
                tutor lab check exposed-comm         your program against this one, same job

Each rank trains a copy of the model on its own token stream and the ranks average their
gradients every step. The helper times every step, measures the machine's matmul peak at the
start, and records a few steps with torch.profiler: a chrome trace per rank under the run
folder's traces/ (open it in https://ui.perfetto.dev; gloo's collectives run on threads of
their own, next to the main thread).

What to observe: the step time at 1 rank and at 2; in the trace, what runs on the main thread
and on the collective threads, and when. Make the step faster without changing what the model
learns: the check builds your job and this one with `build()`, runs them in turns, and
compares `result()`.
"""

from __future__ import annotations

import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from tutor.labs import rank as lab
from tutor.labs.rank.perf import Meter, count_params

VOCAB, WIDTH, BLOCKS = 512, 128, 8
BATCH, SEQ = 2, 32
STEPS = 12
STREAM_TOKENS = 1 << 16


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(WIDTH), nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(),
                                                  nn.Linear(4 * WIDTH, WIDTH)) for _ in range(BLOCKS))
        self.head = nn.Sequential(nn.LayerNorm(WIDTH), nn.Linear(WIDTH, VOCAB))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        hidden = self.embed(tokens)
        for block in self.blocks:
            hidden = hidden + block(hidden)
        return self.head(hidden)


class TokenStream:
    """This rank's tokens (made up, the same on every run), served as BATCH windows of SEQ + 1."""

    def __init__(self, rank: int, synthetic: bool = False):
        self.generator = torch.Generator().manual_seed(rank)
        self.synthetic = synthetic
        starts = torch.randint(1, VOCAB, (STREAM_TOKENS // 8, 1), generator=self.generator, device="cpu")
        self.tokens = ((starts + torch.arange(8, device="cpu")) % VOCAB).flatten()  # runs of consecutive tokens
        self.position = 0

    def next_batch(self) -> tuple[torch.Tensor, torch.Tensor]:
        if self.synthetic:
            batch = torch.randint(1, VOCAB, (BATCH, SEQ + 1), generator=self.generator, device="cpu")
        else:
            span = BATCH * (SEQ + 1)
            if self.position + span > self.tokens.numel():
                self.position = 0
            batch = self.tokens[self.position: self.position + span].view(BATCH, SEQ + 1)
            self.position += span
        return batch[:, :-1], batch[:, 1:]


class Job:
    """Everything one rank trains with; `step()` is one optimizer step."""

    def __init__(self, ctx, synthetic_data: bool = False):
        torch.manual_seed(0)  # the same initial model on every rank
        self.device, self.world_size = ctx.device, ctx.world_size
        # DDP puts the gradients in buckets and all-reduces each bucket as soon as backward has
        # filled it, on gloo's (or NCCL's) own thread, while the rest of backward runs.
        self.model = DistributedDataParallel(TinyLM().to(ctx.device))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.stream = TokenStream(ctx.rank, synthetic_data)
        self.losses: list[torch.Tensor] = []
        self.params = count_params(self.model)
        self.tokens_per_step = BATCH * SEQ

    def step(self) -> None:
        inputs, targets = self.stream.next_batch()
        inputs, targets = inputs.to(self.device), targets.to(self.device)
        loss = F.cross_entropy(self.model(inputs).flatten(0, 1), targets.flatten())
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()  # returns once every gradient is averaged over the ranks
        self.optimizer.step()
        self.losses.append(loss.detach())

    def result(self) -> dict[str, torch.Tensor]:
        """What the model learned: every parameter and the loss of every step."""
        params = torch.cat([param.detach().flatten() for param in self.model.parameters()])
        return {"parameters": params, "losses": torch.stack(self.losses)}


def build(ctx, synthetic_data: bool = False) -> Job:
    return Job(ctx, synthetic_data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--synthetic-data", action="store_true", help="random tokens instead of the stream")
    args = parser.parse_args()
    ctx = lab.init()
    job = build(ctx, synthetic_data=args.synthetic_data)
    meter = Meter(ctx, params=job.params, tokens_per_step=job.tokens_per_step)
    for _ in meter.steps(args.steps):
        job.step()
    ctx.log(f"loss after {args.steps} steps: {job.losses[-1].item():.4f}")
    meter.finish(synthetic_data=args.synthetic_data)
    ctx.finish()


if __name__ == "__main__":
    main()
