"""Checker for timeout-at-item: the run ends, every rank's weights equal one process training
on every rank's batches, and rank 0's log has each interval's loss over all ranks and the
tokens cut on every rank.

The learner's `main` runs twice (`check.long_docs`), the long document on another rank each
time (ranks 1 and 0 at 2 ranks, 1 and 2 at 4), so a log that counts only one rank's cut tokens,
or one that knows where the long document is, fails. The reference is computed
here with its own corpus, model and optimizer (the learner's program only gives the parse of
its arguments), so a fix that changes the data or the training does not pass by agreeing
with itself.
"""

from __future__ import annotations

import contextlib

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.context import compare

LONG_DOC_TOKENS = 60


@contextlib.contextmanager
def process_group_kept():
    """The program's `ctx.finish()` would end the process group; the checker ends it itself."""
    real = lab.init()
    real.finish = lambda: None
    try:
        yield
    finally:
        del real.finish


def reference(steps: int, log_every: int, long_doc: int, world_size: int):
    """(the log: [(step, mean loss, cut tokens so far)], the model) of one process that
    trains on every rank's batch each step, the gradients averaged."""
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=steps * world_size * cfg.batch, lengths={long_doc: LONG_DOC_TOKENS})
    loaders = [tt.ShardedLoader(corpus, rank, world_size, cfg.batch) for rank in range(world_size)]
    model = tt.make_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
    logged, loss_sum, tokens, cut = [], 0.0, 0, 0
    for step in range(len(loaders[0])):
        optimizer.zero_grad()
        for loader in loaders:
            batch = loader.batch(step)
            loss = tt.token_loss(model(batch.tokens), batch.targets, batch.mask)
            (loss / world_size).backward()
            loss_sum += loss.item() * batch.real_tokens
            tokens += batch.real_tokens
            cut += sum(max(0, corpus.length(i) - loader.max_len) for i in batch.ids)
        optimizer.step()
        if (step + 1) % log_every == 0 or step + 1 == len(loaders[0]):
            logged.append((step, loss_sum / tokens, float(cut)))
            loss_sum, tokens = 0.0, 0
    return logged, model


def run(ctx, program, shipped, params: dict) -> None:
    steps, every = int(params["steps"]), int(params["log_every"])
    for long_doc in params["long_docs"]:
        argv = ["--steps", str(steps), "--log-every", str(every), "--long-doc", str(long_doc)]
        expected_log, expected_model = reference(steps, every, int(long_doc), ctx.world_size)
        with process_group_kept():
            result = program.main(argv)
        where = (int(long_doc) // tt.Config().batch) % ctx.world_size
        label = f"long document on rank {where}"
        weights = torch.cat([p.detach().reshape(-1) for p in result["model"].parameters()])
        want = torch.cat([p.detach().reshape(-1) for p in expected_model.parameters()])
        same, detail = compare(weights, want, rtol=1e-4, atol=1e-6)
        ctx.check(f"{label}: weights equal one process training on every rank's batches", same,
                  f"rank {ctx.rank}: {detail}")
        if ctx.rank != 0:
            continue
        logged = [tuple(float(x) for x in entry) for entry in result.get("logged") or []]
        steps_ok = [int(s) for s, _, _ in logged] == [s for s, _, _ in expected_log]
        losses_ok = steps_ok and all(abs(a[1] - b[1]) <= 1e-4 * abs(b[1]) for a, b in zip(logged, expected_log))
        ctx.check(f"{label}: the log has each interval's loss over all ranks", losses_ok,
                  f"logged {[(int(s), round(l, 4)) for s, l, _ in logged]}, "
                  f"expected {[(s, round(l, 4)) for s, l, _ in expected_log]}")
        cuts_ok = steps_ok and all(abs(a[2] - b[2]) < 1e-6 for a, b in zip(logged, expected_log))
        ctx.check(f"{label}: the log counts the tokens cut on every rank", cuts_ok,
                  f"cut tokens so far {[c for _, _, c in logged]}, expected {[c for _, _, c in expected_log]}")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), None, lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
