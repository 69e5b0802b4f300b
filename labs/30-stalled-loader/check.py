"""Checker for stalled-loader: the run ends, every rank's weights equal one process training on
every rank's batches, every rank trains on its documents in every epoch, the loader still reads
in worker processes (fresh every epoch, or persistent), and the writer rank's cache file holds every document it tokenized.

The writer rank is drawn afresh on every check, so a fix that knows which rank writes fails.
What each rank trained on is read back from the ledger `finish()` gathers; the loader's workers
are counted where DataLoader starts them (its multi-process iterator, patched in this process).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck


class LoaderIterators:
    """The DataLoader iterators this process started: the multi-process ones' worker counts, and
    how many read in the main process (torch's two iterator classes, patched in this process)."""

    def __enter__(self):
        from torch.utils.data import dataloader

        self.module, self.workers, self.single = dataloader, [], 0
        self.originals = (dataloader._MultiProcessingDataLoaderIter.__init__,
                          dataloader._SingleProcessDataLoaderIter.__init__)
        multi_init, single_init = self.originals

        def multi(iterator, loader, *args, **kwargs):
            self.workers.append(loader.num_workers)
            multi_init(iterator, loader, *args, **kwargs)

        def single(iterator, loader, *args, **kwargs):
            self.single += 1
            single_init(iterator, loader, *args, **kwargs)

        dataloader._MultiProcessingDataLoaderIter.__init__ = multi
        dataloader._SingleProcessDataLoaderIter.__init__ = single
        return self

    def __exit__(self, *exc):
        (self.module._MultiProcessingDataLoaderIter.__init__,
         self.module._SingleProcessDataLoaderIter.__init__) = self.originals


def run(ctx, program, shipped, params: dict) -> None:
    epochs, steps = int(params["epochs"]), int(params["steps"])
    (writer,) = fixcheck.draw(ctx, list(range(ctx.world_size)))
    started = time.time()
    with LoaderIterators() as loaders:
        result = program.main(["--epochs", str(epochs), "--steps", str(steps), "--writer-rank", str(writer)])
    label = f"writer rank {writer}"
    # fresh workers every epoch, or persistent ones (started once): either way in worker processes
    in_workers = bool(loaders.workers) and min(loaders.workers) >= 1 and loaders.single == 0
    ctx.check(f"{label}: the loader reads in worker processes (rank {ctx.rank})", in_workers,
              f"DataLoader iterators with {loaders.workers} workers, {loaders.single} in the main process")
    cfg = result["cfg"]
    mine = shipped.my_documents(ctx.rank, ctx.world_size, steps, cfg.batch)
    if ctx.rank == writer:
        corpus = shipped.tt.Corpus(cfg, size=steps * ctx.world_size * cfg.batch)
        path = Path(result.get("cache_file") or "")
        try:
            if path.stat().st_mtime < started:
                raise FileNotFoundError  # a file left by an earlier run, not written by this one
            written = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            written, why = None, f"{path.name or 'no file'}: {type(error).__name__} (not written by this run)"
        else:
            why = f"{len(written)} documents written"
        want = {str(index): corpus.document(index) for index in mine}
        ctx.check(f"{label}: the writer's cache file holds every document it tokenized", written == want,
                  why if written != want else f"{len(want)} documents, each as tokenized")
    if ctx.rank != 0:
        return
    report = result["report"]
    fixcheck.all_steps(ctx, report, epochs * steps)
    wrong = None
    for rank, ledger in enumerate(report["ledgers"]):
        theirs = shipped.my_documents(rank, ctx.world_size, steps, cfg.batch)
        expected = [theirs[i * cfg.batch:(i + 1) * cfg.batch] for i in range(steps)] * epochs
        got = [list(entry["ids"]) for entry in ledger]
        if got != expected and wrong is None:
            wrong = f"rank {rank} trained on {got}, expected {expected}"
    ctx.check(f"{label}: every rank trains on its documents in every epoch, in order", wrong is None,
              wrong or f"{epochs} epochs of {steps} batches on each of {ctx.world_size} ranks")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), lab.load_shipped(), lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
