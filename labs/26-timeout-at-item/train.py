"""Data-parallel training with asynchronous collectives that logs every few steps.

Run it alone:   torchrun --nproc-per-node 4 train.py --steps 12 --log-every 4 --long-doc 21
In the tutor:   tutor lab run timeout-at-item, then tutor lab evidence timeout-at-item --fr

Each rank trains the same small language model on its own slice of every global batch and
averages the gradients itself. Its collectives are torch's functional collectives: as with
NCCL, a collective returns at once and the rank waits for it only where it first reads the
result (at the optimizer step for the gradients, at `.item()` for the logged numbers). The
metrics travel over a process group of their own, with a short timeout, so that logging never
queues behind the gradients. Documents longer than the model's context are cut to it, and
the log says how many tokens the job has cut so far.

What to observe: how the job ends, the error and the line that torchrun's report and the
traceback give, and whether that line is where the ranks stopped doing the same thing. The
flight recorder (`tutor lab evidence timeout-at-item --fr`) lists each rank's collectives in
order, with their sizes.
"""

from __future__ import annotations

import argparse
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

METRICS_TIMEOUT_S = 8.0
LONG_DOC_TOKENS = 60


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--log-every", type=int, default=4)
    parser.add_argument("--long-doc", type=int, default=21, help="a document longer than the context")
    return parser.parse_args(argv)


def make_corpus(cfg: tt.Config, args: argparse.Namespace, world_size: int) -> tt.Corpus:
    return tt.Corpus(cfg, size=args.steps * world_size * cfg.batch, lengths={args.long_doc: LONG_DOC_TOKENS})


def cut_tokens(corpus: tt.Corpus, ids: list[int], max_len: int) -> int:
    """Tokens of these documents beyond the model's context (dropped by the collate)."""
    return sum(max(0, corpus.length(i) - max_len) for i in ids)


def average_gradients(model: torch.nn.Module, world_size: int) -> None:
    """Every gradient averaged over the ranks: one all-reduce of them all, read at once."""
    grads = [p.grad for p in model.parameters()]
    total = funcol.all_reduce(torch.cat([g.reshape(-1) for g in grads]), "sum", dist.group.WORLD)
    for grad, part in zip(grads, (total / world_size).split([g.numel() for g in grads])):
        grad.copy_(part.view_as(grad))


class Metrics:
    """The loss and the cut tokens since the last log, summed over the ranks when logged."""

    def __init__(self, group):
        self.group = group
        self.loss_sum, self.tokens, self.cut_total = 0.0, 0, 0.0
        self.cut = None

    def add(self, loss: float, tokens: int, cut: int) -> None:
        self.loss_sum += loss * tokens
        self.tokens += tokens
        if cut:
            # Start summing the cut tokens over the ranks now; the log reads the total.
            self.cut = funcol.all_reduce(torch.tensor([float(cut)]), "sum", self.group)

    def log(self, ctx, step: int) -> tuple[int, float, float]:
        stats = funcol.all_reduce(torch.tensor([self.loss_sum, float(self.tokens)]), "sum", self.group)
        if self.cut is not None:
            self.cut_total += self.cut.item()
        mean_loss = (stats[0] / stats[1]).item()
        self.loss_sum, self.tokens, self.cut = 0.0, 0, None
        if ctx.rank == 0:
            ctx.log(f"step {step}: loss {mean_loss:.4f}, {self.cut_total:.0f} tokens cut so far")
        return step, mean_loss, self.cut_total


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = make_corpus(cfg, args, ctx.world_size)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    model = tt.make_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
    metrics = Metrics(dist.new_group(timeout=timedelta(seconds=METRICS_TIMEOUT_S)))
    logged = []
    for step in ctx.steps(len(loader)):
        batch = loader.batch(step)
        loss = tt.token_loss(model(batch.tokens), batch.targets, batch.mask)
        optimizer.zero_grad()
        loss.backward()
        average_gradients(model, ctx.world_size)
        optimizer.step()
        metrics.add(loss.item(), batch.real_tokens, cut_tokens(corpus, batch.ids, loader.max_len))
        if (step + 1) % args.log_every == 0 or step + 1 == len(loader):
            logged.append(metrics.log(ctx, step))
    ctx.finish()
    return {"logged": logged, "model": model, "cfg": cfg, "steps": len(loader)}


if __name__ == "__main__":
    main()
