"""Checker for eval-rank0: every step trains with the right weights, and at every evaluation
rank 0 logs the loss over the whole held-out set, each rank scoring only its own share.

The evaluation's interval and the held-out set's size are drawn by rank 0 on every check
(`check.eval_every`, `check.eval_docs`, none of them the shipped defaults), so a fix written for
the default run's steps ("the other ranks join at step 3") fails. The expected losses come from
the checker's own replay of every rank's batches (replay.py) and its own copy of the held-out
set, so a fix that changes the data or the metric does not pass by agreeing with itself. Which
held-out documents each rank's model saw is counted here, at the model's forward, by their
tokens: rank 0 scoring every document alone is not data-parallel evaluation.
"""

from __future__ import annotations

import contextlib

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck
from tutor.labs.rank import training as tt
from tutor.labs.rank.replay import replay

EVAL_SEED = 1
KEY_TOKENS = 8
"""Leading tokens that identify a held-out document in a forward's input (every document has
at least 12 tokens; the held-out set's chain differs from the training corpus's)."""


@contextlib.contextmanager
def process_group_kept():
    """The program's `ctx.finish()` would end the process group; the checker ends it itself."""
    real = lab.init()
    real.finish = lambda: None
    try:
        yield
    finally:
        del real.finish


class HeldOutSeen:
    """Counts, at TinyLM.forward, how often this rank's model saw each held-out document."""

    def __init__(self, corpus: tt.Corpus):
        self.keys = {tuple(corpus.document(i)[:KEY_TOKENS]): i for i in range(len(corpus))}
        self.seen: dict[int, int] = {}
        self.original = tt.TinyLM.forward
        watch = self

        def forward(model, tokens):
            for row in tokens.detach().cpu().tolist():
                doc = watch.keys.get(tuple(row[:KEY_TOKENS]))
                if doc is not None:
                    watch.seen[doc] = watch.seen.get(doc, 0) + 1
            return watch.original(model, tokens)

        tt.TinyLM.forward = forward

    def close(self) -> None:
        tt.TinyLM.forward = self.original


def held_out_loss(model: torch.nn.Module, corpus: tt.Corpus) -> float:
    """The mean token loss over every held-out document, in one process."""
    with torch.no_grad():
        batch = tt.collate(corpus, list(range(len(corpus))), corpus.cfg.max_len)
        return float(tt.token_loss(model(batch.tokens), batch.targets, batch.mask))


def run(ctx, program, shipped, params: dict) -> None:
    steps = int(params["steps"])
    every, documents = fixcheck.draw(ctx, [int(n) for n in params["eval_every"]], [int(n) for n in params["eval_docs"]])
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=documents, seed=EVAL_SEED)
    seen = HeldOutSeen(corpus)
    try:
        with process_group_kept():
            result = program.main(["--steps", str(steps), "--eval-every", str(every), "--eval-docs", str(documents)])
    finally:
        seen.close()
    evaluations = [step for step in range(steps) if (step + 1) % every == 0]
    label = f"every {every} steps, {documents} held-out documents"
    # Every rank: at most its share of each evaluation, each document at most once per evaluation.
    share = -(-documents // ctx.world_size)
    fair = len(seen.seen) <= share and all(count == len(evaluations) for count in seen.seen.values())
    ctx.check(f"{label}: each rank scores only its own share of the held-out set", fair,
              f"rank {ctx.rank} scored {len(seen.seen)} held-out documents, each {len(evaluations)} times "
              f"(its share is at most {share} of {documents}, once per evaluation)" if fair else
              f"rank {ctx.rank} scored {len(seen.seen)} held-out documents ({sum(seen.seen.values())} forwards over "
              f"{len(evaluations)} evaluations); its share is at most {share} of {documents}, once per evaluation")
    counts = torch.tensor([len(seen.seen)])
    torch.distributed.all_reduce(counts)
    if ctx.rank != 0:
        return
    report = result.get("report") or {}
    fixcheck.all_steps(ctx, report, steps)
    ctx.check(f"{label}: every held-out document is scored", int(counts.item()) == documents,
              f"{int(counts.item())} of {documents} documents scored over all ranks")
    if not report.get("ledgers"):
        ctx.check(f"{label}: rank 0 logs the whole held-out set's loss at every evaluation", False,
                  "no training report to replay (the program's trainer.finish() did not run)")
        return
    _, snapshots = replay(cfg, report["ledgers"], ctx.world_size, snapshot_at=tuple(evaluations))
    expected = []
    for step in evaluations:
        model = tt.make_model(cfg)
        model.load_state_dict(snapshots[step]["model"])
        expected.append((step, held_out_loss(model, corpus)))
    logged = [(int(step), float(loss)) for step, loss in result.get("evals") or []]
    same = [s for s, _ in logged] == [s for s, _ in expected] and all(
        abs(a - b) <= 1e-4 * abs(b) for (_, a), (_, b) in zip(logged, expected))
    ctx.check(f"{label}: rank 0 logs the whole held-out set's loss at every evaluation", same,
              f"logged {[(s, round(x, 4)) for s, x in logged]}, expected {[(s, round(x, 4)) for s, x in expected]}")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), None, lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
