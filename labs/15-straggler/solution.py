"""A small language model, trained data-parallel on documents of every length. Why so slow?

Run it alone:   torchrun --nproc-per-node 2 train.py          (1 rank works too)
In the tutor:   tutor lab run straggler           step time per rank, tokens/s, MFU, trace summary
                tutor lab experiment straggler --vary ranks   one rank vs all ranks
                tutor lab experiment straggler --vary data    synthetic data vs this loader
                tutor lab diagnose straggler "..."            name the category
                tutor lab check straggler         your program against this one, same job

Every step takes the next global batch of documents; each rank trains on its share, packed
into one row, and
DistributedDataParallel averages the gradients, each rank's loss scaled so that the update is
the mean over every real token of the global batch. The helper times every step, measures the
machine's matmul peak at the start, and records a few steps with torch.profiler: a chrome
trace per rank under the run folder's traces/ (open it in https://ui.perfetto.dev).

What to observe: the step time of each rank; in the traces, what each rank does in a step and
how long it waits in the collective. Make the step faster without changing what the model
learns: the check builds your job and this one with `build()`, runs them in turns, and
compares `result()`.
"""

from __future__ import annotations

import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from tutor.labs import rank as lab
from tutor.labs.rank.perf import Meter, count_params

VOCAB, WIDTH, BLOCKS = 256, 64, 2
DOCUMENTS_PER_RANK = 8
LENGTHS = (16, 16, 16, 16, 16, 16, 1024, 1024)  # mostly short documents, a few long ones
STEPS = 12


class Corpus:
    """The global batches of documents (made up, the same on every rank and every run)."""

    def __init__(self, world_size: int, synthetic: bool = False):
        self.world_size, self.synthetic = world_size, synthetic

    def global_batch(self, step: int) -> list[torch.Tensor]:
        generator = torch.Generator().manual_seed(step)
        count = DOCUMENTS_PER_RANK * self.world_size
        order = torch.randperm(count, generator=generator, device="cpu").tolist()
        documents = []
        for index in order:
            length = LENGTHS[index % len(LENGTHS)] + int(torch.randint(0, 16, (1,), generator=generator, device="cpu"))
            if self.synthetic:
                documents.append(torch.randint(1, VOCAB, (length,), generator=generator, device="cpu"))
            else:  # runs of consecutive tokens: something to learn
                start = int(torch.randint(1, VOCAB, (1,), generator=generator, device="cpu"))
                documents.append((start + torch.arange(length, device="cpu")) % VOCAB)
        return documents


def my_documents(batch: list[torch.Tensor], rank: int, world_size: int) -> list[torch.Tensor]:
    """This rank's share of the global batch, balanced by tokens: longest document first, each to
    the rank with the fewest tokens so far (greedy; every rank computes the same assignment)."""
    loads = [0] * world_size
    mine = []
    for index in sorted(range(len(batch)), key=lambda i: (-len(batch[i]), i)):
        target = loads.index(min(loads))
        loads[target] += len(batch[index])
        if target == rank:
            mine.append(batch[index])
    return mine


def packed_batch(documents: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """Inputs and next-token targets of every document, packed into one row: the model looks at
    one token at a time, so no padding is needed, and no time goes to padded positions."""
    return torch.cat([document[:-1] for document in documents]), torch.cat([document[1:] for document in documents])


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


class Job:
    """Everything one rank trains with; `step()` is one optimizer step over one global batch."""

    def __init__(self, ctx, synthetic_data: bool = False):
        torch.manual_seed(0)  # the same initial model on every rank
        self.rank, self.world_size, self.device = ctx.rank, ctx.world_size, ctx.device
        self.model = DistributedDataParallel(TinyLM().to(ctx.device))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.corpus = Corpus(ctx.world_size, synthetic_data)
        self.step_index = 0
        self.loss_sums: list[torch.Tensor] = []
        self.params = count_params(self.model)
        self.tokens_per_step = sum(len(doc) - 1 for doc in self.corpus.global_batch(0)) // ctx.world_size

    def step(self) -> None:
        batch = self.corpus.global_batch(self.step_index)
        self.step_index += 1
        predicted = sum(len(document) - 1 for document in batch)  # next-token targets in the global batch
        inputs, targets = packed_batch(my_documents(batch, self.rank, self.world_size))
        inputs, targets = inputs.to(self.device), targets.to(self.device)
        loss_sum = F.cross_entropy(self.model(inputs), targets, reduction="sum")
        self.optimizer.zero_grad(set_to_none=True)
        # DDP averages over ranks; times world_size / predicted makes it the mean over every token.
        (loss_sum * self.world_size / predicted).backward()
        self.optimizer.step()
        self.loss_sums.append(loss_sum.detach() / predicted)

    def result(self) -> dict[str, torch.Tensor]:
        """What the model learned: every parameter, and the mean loss over the global batch per step."""
        losses = torch.stack(self.loss_sums)
        dist.all_reduce(losses)
        params = torch.cat([param.detach().flatten() for param in self.model.parameters()])
        return {"parameters": params, "losses": losses}


def build(ctx, synthetic_data: bool = False) -> Job:
    return Job(ctx, synthetic_data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--synthetic-data", action="store_true", help="random tokens, same document lengths")
    args = parser.parse_args()
    ctx = lab.init()
    job = build(ctx, synthetic_data=args.synthetic_data)
    meter = Meter(ctx, params=job.params, tokens_per_step=job.tokens_per_step)
    for _ in meter.steps(args.steps):
        job.step()
    losses = job.result()["losses"]
    ctx.log(f"loss after {args.steps} steps: {losses[-1].item():.4f}")
    meter.finish(synthetic_data=args.synthetic_data)
    ctx.finish()


if __name__ == "__main__":
    main()
