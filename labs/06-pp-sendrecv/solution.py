"""Pipeline-parallel training over send and recv, with tied input and output embeddings.

Run it alone:   torchrun --nproc-per-node 2 train.py --steps 10 --unfreeze-at 4
In the tutor:   tutor lab run pp-sendrecv, then tutor lab evidence pp-sendrecv

The model's blocks are split over the ranks, one pipeline stage each: rank 0 holds the data
and the input embedding, the last rank the output layer and the loss. Each batch is cut into
micro-batches that go forward stage by stage and come back as gradients (GPipe's schedule),
over `torch.distributed` send and recv. The output layer shares its weight with the input
embedding (weight tying), so the first and the last stage each hold a copy of that weight and
add up their gradients after every backward. The embedding stays frozen for the first
--unfreeze-at steps (a common warm-up), then trains.

What to observe: the `step N` lines from rank 0, and whether the job finishes. If it stops
making progress, look at where every rank is waiting (a Python stack per rank) and at the
point-to-point operations each rank made last, with their peers.
"""

from __future__ import annotations

import argparse

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.replay import check_weights

MICROBATCHES = 4


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--unfreeze-at", type=int, default=4)
    return parser.parse_args(argv)


class Stage(nn.Module):
    """This rank's slice of the full model: its blocks, plus the embedding (first) or the head (last)."""

    def __init__(self, model: tt.TinyLM, rank: int, world_size: int):
        super().__init__()
        per = len(model.blocks) // world_size
        self.first, self.last = rank == 0, rank == world_size - 1
        self.embed = model.embed if self.first else None
        self.blocks = model.blocks[rank * per:(rank + 1) * per]
        self.head = model.head if self.last else None
        self.names = [name for name, param in model.named_parameters(remove_duplicate=False)
                      if any(param is mine for mine in self.parameters())
                      and (self.last or not name.startswith("head."))]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.embed is not None:
            x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x) if self.head is not None else x


def train_step(ctx, stage: Stage, cfg: tt.Config, batch: tt.Batch | None, shape: tuple[int, ...]) -> float | None:
    """One GPipe step: every micro-batch forward through the stages, then every backward."""
    prev, nxt, last_rank = ctx.rank - 1, ctx.rank + 1, ctx.world_size - 1
    size = shape[0]
    if stage.first:
        dist.send(batch.targets, dst=last_rank)
        dist.send(batch.mask, dst=last_rank)
    if stage.last:
        targets = torch.zeros(MICROBATCHES * size, shape[1], dtype=torch.long)
        mask = torch.zeros(MICROBATCHES * size, shape[1])
        dist.recv(targets, src=0)
        dist.recv(mask, src=0)
    inputs, outputs, total = [], [], 0.0
    for i in range(MICROBATCHES):
        rows = slice(i * size, (i + 1) * size)
        if stage.first:
            x = batch.tokens[rows]
        else:
            x = torch.zeros(*shape, cfg.dim)
            dist.recv(x, src=prev)
            x.requires_grad_()
        y = stage(x)
        if stage.last:
            y = tt.token_loss(y, targets[rows], mask[rows]) / MICROBATCHES
            total += y.item()
        else:
            dist.send(y.detach(), dst=nxt)
        inputs.append(x)
        outputs.append(y)
    for i in range(MICROBATCHES):
        if stage.last:
            outputs[i].backward()
        else:
            grad = torch.zeros(*shape, cfg.dim)
            dist.recv(grad, src=nxt)
            outputs[i].backward(grad)
        if not stage.first:
            dist.send(inputs[i].grad, dst=prev)
    return total if stage.last else None


def sync_tied_embedding(ctx, model: tt.TinyLM) -> None:
    """The first and the last stage each hold the tied weight: add up their two gradients."""
    peer = ctx.world_size - 1 - ctx.rank
    grad = model.embed.weight.grad
    theirs = torch.zeros_like(grad)
    # Both ends post their send and their receive at once, so neither waits for the other
    # to move first (blocking recv on both sides never completes).
    ops = [dist.P2POp(dist.isend, grad, peer), dist.P2POp(dist.irecv, theirs, peer)]
    for work in dist.batch_isend_irecv(ops):
        work.wait()
    grad += theirs


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config(layers=2 * ctx.world_size, tied=True)
    model = tt.make_model(cfg)
    stage = Stage(model, ctx.rank, ctx.world_size)
    optimizer = torch.optim.SGD(stage.parameters(), lr=cfg.lr, momentum=cfg.momentum)
    corpus = tt.Corpus(cfg, size=args.steps * MICROBATCHES * cfg.batch)
    shape = (cfg.batch, cfg.max_len - 1)
    ledger = []
    for step in ctx.steps(args.steps):
        model.embed.weight.requires_grad_(step >= args.unfreeze_at)
        batch = None
        if stage.first:
            first = step * MICROBATCHES * cfg.batch
            batch = tt.collate(corpus, list(range(first, first + MICROBATCHES * cfg.batch)), width=shape[1])
        loss = train_step(ctx, stage, cfg, batch, shape)
        if step >= args.unfreeze_at and (stage.first or stage.last) and ctx.world_size > 1:
            sync_tied_embedding(ctx, model)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if stage.first:
            ledger += [{"step": step, "tokens": batch.tokens[i * cfg.batch:(i + 1) * cfg.batch],
                        "targets": batch.targets[i * cfg.batch:(i + 1) * cfg.batch],
                        "mask": batch.mask[i * cfg.batch:(i + 1) * cfg.batch], "ids": [], "lr": cfg.lr,
                        "frozen": tt.frozen_names(model)} for i in range(MICROBATCHES)]
        if loss is not None:
            ctx.log(f"step {step} loss {loss:.3f}")
    weights = {name: param for name, param in model.named_parameters(remove_duplicate=False) if name in stage.names}
    report = check_weights(ctx, cfg, ledger, weights, MICROBATCHES)
    ctx.finish()
    return {"report": report, "steps": args.steps, "unfreeze_at": args.unfreeze_at, "cfg": cfg}


if __name__ == "__main__":
    main()
