"""Data-parallel training on web pages cut into pieces at sentence ends.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 8 --table-doc 45
In the tutor:   tutor lab run busy-rank, then tutor lab evidence busy-rank

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. The documents are scraped pages: sentences, each ending in the
end-of-sentence token (0). A page longer than the model's context is cut into pieces at
sentence ends, each piece the longest run of whole sentences that fits in the context, so
that no sentence is split across two training rows. Page --table-doc has a table in it.

What to observe: the `step N` lines, how the job ends, and, rank by rank, where each one is:
in a collective, or somewhere else, and whether it is waiting or working (py-spy marks each
thread `idle` or `active`).
"""

from __future__ import annotations

import argparse
import random

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

EOS = 0
TABLE_TOKENS = 40


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--table-doc", type=int, default=45, help="the page with a table in it")
    return parser.parse_args(argv)


class Pages:
    """Page i: 2 to 5 sentences of 3 to 9 tokens, each ending in EOS; a table's cells, one long
    run of tokens, after the first sentence of page `table_doc`."""

    def __init__(self, cfg: tt.Config, size: int, table_doc: int):
        self.cfg, self.size, self.table_doc = cfg, size, table_doc

    def __len__(self) -> int:
        return self.size

    def document(self, index: int) -> list[int]:
        rng = random.Random(7_919 + index)
        sentences = [[rng.randrange(1, self.cfg.vocab) for _ in range(rng.randint(3, 9))] + [EOS]
                     for _ in range(rng.randint(2, 5))]
        if index == self.table_doc:
            sentences.insert(1, [rng.randrange(1, self.cfg.vocab) for _ in range(TABLE_TOKENS)] + [EOS])
        return [token for sentence in sentences for token in sentence]


def pieces(doc: list[int], max_len: int) -> list[list[int]]:
    """The page in pieces of at most `max_len` tokens, each cut after a sentence end."""
    out, start = [], 0
    while start < len(doc):
        end = min(start + max_len, len(doc))
        while start < end < len(doc) and doc[end - 1] != EOS:
            end -= 1  # back to the last sentence end that fits
        if end > start:
            out.append(doc[start:end])
        start = end
    return out


def make_batch(pages: Pages, ids: list[int], max_len: int) -> tt.Batch:
    """Every piece of these pages, one row each, padded to the longest."""
    rows = [piece for index in ids for piece in pieces(pages.document(index), max_len)]
    width = max(len(row) for row in rows) - 1
    tokens = torch.zeros(len(rows), width, dtype=torch.long)
    targets = torch.zeros(len(rows), width, dtype=torch.long)
    mask = torch.zeros(len(rows), width)
    for row, piece in enumerate(rows):
        n = len(piece) - 1
        tokens[row, :n] = torch.tensor(piece[:-1])
        targets[row, :n] = torch.tensor(piece[1:])
        mask[row, :n] = 1.0
    return tt.Batch(list(ids), tokens, targets, mask)


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    pages = Pages(cfg, args.steps * ctx.world_size * cfg.batch, args.table_doc)
    loader = tt.ShardedLoader(pages, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    for step in ctx.steps(len(loader)):
        loss = trainer.train_step(step, make_batch(pages, loader.ids(step), cfg.max_len))
        if ctx.rank == 0:
            ctx.log(f"step {step} loss {loss:.3f}")
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "steps": len(loader), "cfg": cfg}


if __name__ == "__main__":
    main()
