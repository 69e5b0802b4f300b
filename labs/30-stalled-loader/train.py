"""Data-parallel training that reads its documents through a DataLoader with worker processes.

Run it alone:   torchrun --nproc-per-node 4 train.py --epochs 3 --writer-rank 1
In the tutor:   tutor lab run stalled-loader, then tutor lab evidence stalled-loader

Each rank trains the same small language model under DistributedDataParallel on its own
documents, read by a torch DataLoader with 2 worker processes (a fresh pair every epoch, as
DataLoader starts them). Documents are tokenized through a cache, filled by the main process
before training so that the workers start warm, and safe to share between threads. After every
epoch one rank (--writer-rank, the one with the local disk) writes the cache to disk in the
background, so that the next job starts warm too, while training goes on.

What to observe: the `epoch E step N` lines, how the job ends, and where each rank is, and
each rank's worker processes too (`py-spy dump --subprocesses`; the tutor's evidence shows
the workers of every rank).
"""

from __future__ import annotations

import argparse
import json
import threading
import time

import torch
from torch.utils.data import DataLoader, Dataset

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.fixcheck import output_path

WORKERS = 2
WRITE_DOCS_PER_S = 20.0
"""The background write is throttled, to leave the disk to the data loader."""


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=3, help="steps per epoch")
    parser.add_argument("--writer-rank", type=int, default=1, help="the rank that writes the cache to disk")
    return parser.parse_args(argv)


class TokenCache:
    """Documents' tokens by index, shared by the threads of a process (under `lock`)."""

    def __init__(self, corpus: tt.Corpus):
        self.corpus = corpus
        self.tokens: dict[int, list[int]] = {}
        self.lock = threading.Lock()

    def encode(self, index: int) -> list[int]:
        with self.lock:
            if index not in self.tokens:
                self.tokens[index] = self.corpus.document(index)
            return self.tokens[index]

    def save_in_background(self, path) -> threading.Thread:
        """Write the cache to `path` while training goes on; nothing is added to it meanwhile."""
        self.lock.acquire()
        writer = threading.Thread(target=self._write, args=(path,), daemon=True)
        writer.start()
        return writer

    def _write(self, path) -> None:
        try:
            with open(path, "w", encoding="utf-8") as out:
                out.write("{")
                for number, (index, tokens) in enumerate(sorted(self.tokens.items())):
                    out.write(("," if number else "") + json.dumps(str(index)) + ":" + json.dumps(tokens))
                    time.sleep(1.0 / WRITE_DOCS_PER_S)
                out.write("}")
        finally:
            self.lock.release()


class Documents(Dataset):
    """This rank's documents, in order, tokenized through the cache."""

    def __init__(self, ids: list[int], cache: TokenCache):
        self.ids, self.cache = ids, cache

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, position: int) -> tuple[int, list[int]]:
        index = self.ids[position]
        return index, self.cache.encode(index)


def collate(items: list[tuple[int, list[int]]], max_len: int = tt.Config().max_len) -> tt.Batch:
    """The documents padded to the longest, each cut to the context."""
    docs = [tokens[:max_len] for _, tokens in items]
    width = max(1, max(len(doc) - 1 for doc in docs))
    tokens = torch.zeros(len(docs), width, dtype=torch.long)
    targets = torch.zeros(len(docs), width, dtype=torch.long)
    mask = torch.zeros(len(docs), width)
    for row, doc in enumerate(docs):
        n = len(doc) - 1
        tokens[row, :n] = torch.tensor(doc[:-1])
        targets[row, :n] = torch.tensor(doc[1:])
        mask[row, :n] = 1.0
    return tt.Batch([index for index, _ in items], tokens, targets, mask)


def my_documents(rank: int, world_size: int, steps: int, batch: int) -> list[int]:
    """Rank r's share of each global batch, as the other labs' loaders give it."""
    return [(step * world_size + rank) * batch + i for step in range(steps) for i in range(batch)]


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    cache = TokenCache(corpus)
    ids = my_documents(ctx.rank, ctx.world_size, args.steps, cfg.batch)
    for index in ids:  # warm: the workers start with every document tokenized
        cache.encode(index)
    loader = DataLoader(Documents(ids, cache), batch_size=cfg.batch, num_workers=WORKERS, collate_fn=collate)
    trainer = tt.Trainer(ctx, cfg)
    path, writer = output_path(ctx, f"token-cache-rank{ctx.rank}.json"), None
    for step in ctx.steps(args.epochs * args.steps):
        if step % args.steps == 0:
            batches = iter(loader)  # a new epoch: DataLoader starts its worker processes
        loss = trainer.train_step(step, next(batches))
        if ctx.rank == 0:
            ctx.log(f"epoch {step // args.steps} step {step} loss {loss:.3f}")
        if (step + 1) % args.steps == 0 and ctx.rank == args.writer_rank:
            if writer is not None:
                writer.join()  # one write at a time
            writer = cache.save_in_background(path)
    if writer is not None:
        writer.join()
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "cache_file": str(path), "writer_rank": args.writer_rank, "steps": args.epochs * args.steps,
            "cfg": cfg, "ids": ids}


if __name__ == "__main__":
    main()
