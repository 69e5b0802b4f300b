"""A small language model, trained data-parallel on text documents. Why is each step so slow?

Run it alone:   torchrun --nproc-per-node 2 train.py          (1 rank works too)
In the tutor:   tutor lab run slow-dataloader           step time, tokens/s, MFU, trace summary
                tutor lab experiment slow-dataloader --vary data    synthetic data vs this loader
                tutor lab experiment slow-dataloader --vary ranks   one rank vs all ranks
                tutor lab diagnose slow-dataloader "..."            name the category
                tutor lab check slow-dataloader         your program against this one, same job

Each rank reads its own documents and trains a copy of the model on windows of SEQ tokens;
DistributedDataParallel averages the gradients. The helper times every step, measures the
machine's matmul peak at the start, and records a few steps with torch.profiler: a chrome
trace per rank under the run folder's traces/ (open it in https://ui.perfetto.dev).

What to observe: the step time and MFU; then, in the trace, what the main thread is doing
during each step and what it is not. Make the step faster without changing what the model
learns: the check builds your job and this one with `build()`, runs them in turns, and
compares `result()`.
"""

from __future__ import annotations

import argparse
import random
import re
import unicodedata

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from tutor.labs import rank as lab
from tutor.labs.rank.perf import Meter, count_params

SYLLABLES = ("ka", "ren", "sho", "li", "mor", "tan", "vi", "qua", "el", "dus", "bri", "on", "gal", "fe", "rum",
             "sa", "tek", "ni", "po", "wal", "xi", "yo", "zen", "chu")
DOCUMENTS_PER_RANK, WORDS_PER_DOCUMENT = 16, 800
VOCAB, WIDTH, BLOCKS = 256, 128, 2
BATCH, SEQ, STEPS = 8, 128, 12


class Tokenizer:
    """Byte-pair encoding over characters: merge the best-ranked adjacent pair until none is left."""

    def __init__(self):
        self.ranks: dict[tuple[str, str], int] = {}
        for syllable in SYLLABLES:
            parts = list(syllable)
            while len(parts) > 1:
                self.ranks.setdefault((parts[0], parts[1]), len(self.ranks))
                parts = [parts[0] + parts[1], *parts[2:]]
        pieces = sorted({char for syllable in SYLLABLES for char in syllable} | {a + b for a, b in self.ranks})
        self.ids = {piece: index + 1 for index, piece in enumerate(pieces)}  # 0: unknown

    def encode(self, text: str) -> list[int]:
        words = re.findall(r"\w+|[^\w\s]", unicodedata.normalize("NFKC", text).lower())
        return [self.ids.get(piece, 0) for word in words for piece in self._merge(word)]

    def _merge(self, word: str) -> list[str]:
        parts = list(word)
        while len(parts) > 1:
            rank, index = min((self.ranks.get(pair, len(self.ranks)), index)
                              for index, pair in enumerate(zip(parts, parts[1:])))
            if rank == len(self.ranks):
                break
            parts[index: index + 2] = [parts[index] + parts[index + 1]]
        return parts


def documents(rank: int) -> list[str]:
    """This rank's share of the corpus (made up, the same on every run)."""
    rng = random.Random(1000 + rank)
    return [" ".join("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))
                     for _ in range(WORDS_PER_DOCUMENT)) for _ in range(DOCUMENTS_PER_RANK)]


class DocumentWindows:
    """Batches of BATCH windows of SEQ + 1 tokens, each from the next document in turn.

    The documents are tokenized once, here, before training: the training step only slices
    token ids. (On a GPU machine, DataLoader workers would also take the tokenizer off the
    training process's critical path; on a laptop's CPU the workers would compete with the
    ranks for the same cores.)
    """

    def __init__(self, texts: list[str], tokenizer: Tokenizer):
        self.documents = [tokenizer.encode(text) for text in texts]
        self.step = 0

    def next_batch(self) -> tuple[torch.Tensor, torch.Tensor]:
        windows = []
        for row in range(BATCH):
            index = (self.step * BATCH + row) % len(self.documents)
            tokens = self.documents[index]
            offset = (self.step * 97 + row * 31) % (len(tokens) - SEQ - 1)
            windows.append(tokens[offset: offset + SEQ + 1])
        self.step += 1
        batch = torch.tensor(windows, device="cpu")
        return batch[:, :-1], batch[:, 1:]


class SyntheticWindows:
    """Random tokens of the same shape: a loader that costs nothing (for the controlled experiment)."""

    def __init__(self, rank: int):
        self.generator = torch.Generator().manual_seed(rank)

    def next_batch(self) -> tuple[torch.Tensor, torch.Tensor]:
        batch = torch.randint(1, VOCAB, (BATCH, SEQ + 1), generator=self.generator, device="cpu")
        return batch[:, :-1], batch[:, 1:]


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
    """Everything one rank trains with; `step()` is one optimizer step."""

    def __init__(self, ctx, synthetic_data: bool = False):
        torch.manual_seed(0)  # the same initial model on every rank
        self.device = ctx.device
        self.model = DistributedDataParallel(TinyLM().to(ctx.device))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.loader = SyntheticWindows(ctx.rank) if synthetic_data else DocumentWindows(documents(ctx.rank),
                                                                                        Tokenizer())
        self.losses: list[torch.Tensor] = []
        self.params = count_params(self.model)
        self.tokens_per_step = BATCH * SEQ

    def step(self) -> None:
        inputs, targets = self.loader.next_batch()
        inputs, targets = inputs.to(self.device), targets.to(self.device)
        loss = F.cross_entropy(self.model(inputs).flatten(0, 1), targets.flatten())
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
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
    parser.add_argument("--synthetic-data", action="store_true", help="random tokens instead of the documents")
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
