"""Checker for group-order: every step trains with the gradients averaged over every rank on
the gradient group, and the logging rank logs each interval's loss over all ranks, summed over
the metrics group.

The learner's `main` runs twice, the logging rank drawn afresh for each run by rank 0 (two
different ranks), so a fix that swaps the groups back on one hard-coded rank fails one of them
by a timeout. Which group each collective went to is read from the tutor's recorder (by the
groups' descriptions, "grads" and "metrics", which the program gives them): a fix that puts
everything on the default group, or the metrics on the gradients' group, has no groups of its
own left to get wrong. The reference is the checker's own: its
corpus, model and SGD, one process training on every rank's batches.
"""

from __future__ import annotations

import contextlib
import random

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.context import compare


@contextlib.contextmanager
def process_group_kept():
    """The program's `ctx.finish()` would end the process group; the checker ends it itself."""
    real = lab.init()
    real.finish = lambda: None
    try:
        yield
    finally:
        del real.finish


def groups_used(entries: list[dict]) -> dict[str, set[str]]:
    """{op: the descriptions of the groups its calls went to ("default": the world)}, from the
    tutor's recorder (its `pg` is "NAME (DESCRIPTION)")."""
    used: dict[str, set[str]] = {"all_reduce": set(), "reduce": set()}
    for entry in entries:
        if entry["op"] in used:
            pg = entry.get("pg")
            used[entry["op"]].add("default" if pg is None else pg.partition(" (")[2].rstrip(")") or "unnamed")
    return used


def two_logging_ranks(ctx) -> list[int]:
    """Two different logging ranks, drawn by rank 0 on every check and sent to every rank."""
    picked = torch.tensor(random.SystemRandom().sample(range(ctx.world_size), 2), dtype=torch.long)
    dist.broadcast(picked, src=0)
    return [int(rank) for rank in picked.tolist()]


def reference(steps: int, log_every: int, world_size: int):
    """(the log: [(step, mean loss over all ranks since the last log)], the model) of one process."""
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=steps * world_size * cfg.batch)
    loaders = [tt.ShardedLoader(corpus, rank, world_size, cfg.batch) for rank in range(world_size)]
    model = tt.make_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
    logged, loss_sum, tokens = [], 0.0, 0
    for step in range(len(loaders[0])):
        optimizer.zero_grad()
        for loader in loaders:
            batch = loader.batch(step)
            loss = tt.token_loss(model(batch.tokens), batch.targets, batch.mask)
            (loss / world_size).backward()
            loss_sum += loss.item() * batch.real_tokens
            tokens += batch.real_tokens
        optimizer.step()
        if (step + 1) % log_every == 0 or step + 1 == len(loaders[0]):
            logged.append((step, loss_sum / tokens))
            loss_sum, tokens = 0.0, 0
    return logged, model


def run(ctx, program, shipped, params: dict) -> None:
    steps, every = int(params["steps"]), int(params["log_every"])
    expected_log, expected_model = reference(steps, every, ctx.world_size)
    want = torch.cat([p.detach().reshape(-1) for p in expected_model.parameters()])
    for log_rank in two_logging_ranks(ctx):
        label = f"rank {log_rank} logging"
        mark = ctx.recorder.mark()
        with process_group_kept():
            result = program.main(["--steps", str(steps), "--log-every", str(every), "--log-rank", str(log_rank)])
        used = groups_used(ctx.recorder.since(mark))
        weights = torch.cat([p.detach().reshape(-1) for p in result["model"].parameters()])
        same, detail = compare(weights, want, rtol=1e-4, atol=1e-6)
        ctx.check(f"{label}: weights equal one process training on every rank's batches", same,
                  f"rank {ctx.rank}: {detail}")
        own = used["all_reduce"] == {"grads"} and used["reduce"] == {"metrics"}
        ctx.check(f"{label}: gradients on the gradient group, metrics on the metrics group", bool(own),
                  f"rank {ctx.rank}: all_reduce on {sorted(used['all_reduce'])}, reduce on {sorted(used['reduce'])} "
                  "(groups by description)")
        if ctx.rank != log_rank:
            continue
        logged = [(int(s), float(x)) for s, x in result.get("logged") or []]
        ok = [s for s, _ in logged] == [s for s, _ in expected_log] and all(
            abs(a - b) <= 1e-4 * abs(b) for (_, a), (_, b) in zip(logged, expected_log))
        ctx.check(f"{label}: the logging rank logs each interval's loss over all ranks", ok,
                  f"rank {ctx.rank} logged {[(s, round(x, 4)) for s, x in logged]}, "
                  f"expected {[(s, round(x, 4)) for s, x in expected_log]}")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), None, lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
