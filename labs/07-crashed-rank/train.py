"""Data-parallel training that reports its token accuracy at the end.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --device-memory-kib 240
In the tutor:   tutor lab run crashed-rank, then tutor lab evidence crashed-rank

Each rank trains the same small language model under DistributedDataParallel on its own
slice of every global batch; rank 0 also reports the token accuracy of the run. Each rank's
GPU is simulated (tutor.labs.rank.memory): --device-memory-kib is the room it has for
activations, and a rank that needs more dies with torch.OutOfMemoryError, as on a GPU.

What to observe: how the job ends and which rank failed first. Read torchrun's report (its
"Root Cause (first observed failure)" section) and the error file it names, the failed
rank's traceback, and where the other ranks were waiting when it failed. On a cluster they
would be on other nodes and go on waiting until the process-group timeout.
"""

from __future__ import annotations

import argparse

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.memory import DeviceMemory


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--device-memory-kib", type=float, default=240)
    return parser.parse_args(argv)


def token_accuracy(predictions: list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]) -> float:
    """Share of real tokens whose most likely prediction was the right one."""
    correct = total = 0.0
    for logits, targets, mask in predictions:
        hits = (logits.argmax(-1) == targets).float() * mask
        correct += hits.sum().item()
        total += mask.sum().item()
    return correct / total if total else 0.0


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.steps * ctx.world_size * cfg.batch)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    memory = DeviceMemory.kib(args.device_memory_kib, device=f"GPU {ctx.local_rank}")
    trainer = tt.Trainer(ctx, cfg, memory=memory)
    predictions = []
    for step in ctx.steps(len(loader)):
        batch = loader.batch(step)
        loss = trainer.train_step(step, batch)
        if ctx.rank == 0:
            predictions.append((trainer.logits, batch.targets, batch.mask))
            ctx.log(f"step {step} loss {loss:.3f}")
    accuracy = token_accuracy(predictions) if ctx.rank == 0 else None
    if accuracy is not None:
        ctx.log(f"token accuracy over the run: {accuracy:.1%}")
    report = trainer.finish(snapshot_at=tuple(range(len(loader))))
    ctx.finish()
    return {"report": report, "accuracy": accuracy, "steps": len(loader), "cfg": cfg, "peak_bytes": memory.peak}


if __name__ == "__main__":
    main()
