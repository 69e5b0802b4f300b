"""Data-parallel training on documents of mixed lengths.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 10 --long-doc 70
In the tutor:   tutor lab run long-batch, then tutor lab evidence long-batch

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch. The corpus is synthetic: documents of 12 to 24 tokens, and one
far longer document (a long web page) at index --long-doc. Each batch is padded to its
longest document. Each rank's GPU is simulated (tutor.labs.rank.memory): --device-memory-kib
is the room it has for activations, and a rank that needs more dies with
torch.OutOfMemoryError, as on a GPU.

What to observe: how the job ends, which rank fails first and at which step, and what that
rank was training at that moment (its batch, its shape) compared with the others.
"""

from __future__ import annotations

import argparse

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.memory import DeviceMemory

LONG_DOC_TOKENS = 600


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--long-doc", type=int, default=70)
    parser.add_argument("--device-memory-kib", type=float, default=400)
    return parser.parse_args(argv)


def make_batch(corpus: tt.Corpus, ids: list[int], cfg: tt.Config) -> tt.Batch:
    """The batch of these documents, padded to the longest one."""
    return tt.collate(corpus, ids)


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch, lengths={args.long_doc: LONG_DOC_TOKENS})
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg, memory=DeviceMemory.kib(args.device_memory_kib, device=f"GPU {ctx.local_rank}"))
    for step in ctx.steps(len(loader)):
        batch = make_batch(corpus, loader.ids(step), cfg)
        loss = trainer.train_step(step, batch)
        if ctx.rank == 0:
            ctx.log(f"step {step} loss {loss:.3f} batch {tuple(batch.tokens.shape)}")
    report = trainer.finish()
    ctx.finish()
    return {"report": report, "steps": len(loader), "cfg": cfg, "long_doc": args.long_doc,
            "long_doc_tokens": LONG_DOC_TOKENS}


if __name__ == "__main__":
    main()
