"""A small language model, trained data-parallel, at a fraction of what the machine can do. Why?

Run it alone:   torchrun --nproc-per-node 2 train.py          (1 rank works too)
In the tutor:   tutor lab run launch-bound           step time, tokens/s, MFU, trace summary
                tutor lab experiment launch-bound --vary data    synthetic data vs this loader
                tutor lab experiment launch-bound --vary ranks   one rank vs all ranks
                tutor lab diagnose launch-bound "..."            name the category
                tutor lab check launch-bound         your program against this one, same job

Each rank trains a copy of the model on its own token stream; DistributedDataParallel averages
the gradients once per optimizer step. The helper times every step, measures the machine's
matmul peak at the start, and records a few steps with torch.profiler: a chrome trace per rank
under the run folder's traces/ (open it in https://ui.perfetto.dev).

What to observe: MFU against the measured peak; in the trace, how many operations a step runs,
how long each one takes, and what lies between them. Make the step faster without changing
what the model learns: the check builds your job and this one with `build()`, runs them in
turns, and compares `result()`.
"""

from __future__ import annotations

import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from tutor.labs import rank as lab
from tutor.labs.rank.perf import Meter, count_params

VOCAB, WIDTH, BLOCKS = 256, 64, 2
SEQUENCES_PER_STEP, SEQ = 16, 32
MICRO_BATCH = 1
STEPS = 12
STREAM_TOKENS = 1 << 16


class Norm(nn.Module):
    """Layer normalisation over the last dimension, with a learned scale and shift."""

    def __init__(self, width: int, eps: float = 1e-5):
        super().__init__()
        self.weight, self.bias, self.eps = nn.Parameter(torch.ones(width)), nn.Parameter(torch.zeros(width)), eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(-1, keepdim=True)
        centered = x - mean
        variance = (centered * centered).mean(-1, keepdim=True)
        return centered * torch.rsqrt(variance + self.eps) * self.weight + self.bias


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.blocks = nn.ModuleList(nn.Sequential(Norm(WIDTH), nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(),
                                                  nn.Linear(4 * WIDTH, WIDTH)) for _ in range(BLOCKS))
        self.head = nn.Sequential(Norm(WIDTH), nn.Linear(WIDTH, VOCAB))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        hidden = self.embed(tokens)
        for block in self.blocks:
            hidden = hidden + block(hidden)
        return self.head(hidden)


class TokenStream:
    """This rank's tokens (made up, the same on every run), served as SEQUENCES_PER_STEP windows."""

    def __init__(self, rank: int, synthetic: bool = False):
        self.generator = torch.Generator().manual_seed(rank)
        self.synthetic = synthetic
        # A stream with some structure to learn: runs of tokens that follow one another.
        starts = torch.randint(1, VOCAB, (STREAM_TOKENS // 8, 1), generator=self.generator, device="cpu")
        self.tokens = ((starts + torch.arange(8, device="cpu")) % VOCAB).flatten()
        self.position = 0

    def next_batch(self) -> tuple[torch.Tensor, torch.Tensor]:
        if self.synthetic:
            batch = torch.randint(1, VOCAB, (SEQUENCES_PER_STEP, SEQ + 1), generator=self.generator, device="cpu")
        else:
            span = SEQUENCES_PER_STEP * (SEQ + 1)
            if self.position + span > self.tokens.numel():
                self.position = 0
            batch = self.tokens[self.position: self.position + span].view(SEQUENCES_PER_STEP, SEQ + 1)
            self.position += span
        return batch[:, :-1], batch[:, 1:]


class Job:
    """Everything one rank trains with; `step()` is one optimizer step over SEQUENCES_PER_STEP sequences."""

    def __init__(self, ctx, synthetic_data: bool = False):
        torch.manual_seed(0)  # the same initial model on every rank
        self.device = ctx.device
        self.model = DistributedDataParallel(TinyLM().to(ctx.device))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.stream = TokenStream(ctx.rank, synthetic_data)
        self.losses: list[float] = []
        self.params = count_params(self.model)
        self.tokens_per_step = SEQUENCES_PER_STEP * SEQ

    def step(self) -> None:
        inputs, targets = self.stream.next_batch()
        inputs, targets = inputs.to(self.device), targets.to(self.device)
        self.optimizer.zero_grad(set_to_none=True)
        micro_batches = SEQUENCES_PER_STEP // MICRO_BATCH
        running = 0.0
        for index in range(micro_batches):
            rows = slice(index * MICRO_BATCH, (index + 1) * MICRO_BATCH)
            last = index == micro_batches - 1
            with self.model.no_sync() if not last else torch.enable_grad():  # average gradients once, at the end
                logits = self.model(inputs[rows])
                loss = F.cross_entropy(logits.flatten(0, 1), targets[rows].flatten()) / micro_batches
                loss.backward()
            running += loss.item()
        self.optimizer.step()
        self.losses.append(running)

    def result(self) -> dict[str, torch.Tensor]:
        """What the model learned: every parameter and the loss of every step."""
        params = torch.cat([param.detach().flatten() for param in self.model.parameters()])
        return {"parameters": params, "losses": torch.tensor(self.losses, dtype=torch.float32)}


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
    ctx.log(f"loss after {args.steps} steps: {float(job.result()['losses'][-1]):.4f}")
    meter.finish(synthetic_data=args.synthetic_data)
    ctx.finish()


if __name__ == "__main__":
    main()
