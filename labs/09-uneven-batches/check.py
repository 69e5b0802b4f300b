"""Checker for uneven-batches: every rank takes the same steps with the right weights, and the
epoch still covers the data: no document twice, fewer than one global batch left out."""

from __future__ import annotations

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck
from tutor.labs.rank import training as tt


def uneven_counts(world_size: int, batch: int, steps: int) -> list[int]:
    """Corpus sizes (around `steps` global batches) whose contiguous shards — the first ones a
    document longer — leave the ranks with different batch counts; beyond 2 ranks, only those
    where the longer shards are not "rank 0 alone", so that no fix hard-coded for the default
    run (rank 0 skips its last batch) passes."""
    sizes = []
    for documents in range((steps - 1) * world_size * batch + 1, (steps + 2) * world_size * batch):
        base, extra = divmod(documents, world_size)
        counts = [-(-(base + (rank < extra)) // batch) for rank in range(world_size)]
        longer = {rank for rank, count in enumerate(counts) if count == max(counts)}
        if max(counts) > min(counts) and (world_size == 2 or longer != {0}):
            sizes.append(documents)
    return sizes


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    steps = int(params["steps"])
    documents, = fixcheck.draw(ctx, uneven_counts(ctx.world_size, tt.Config().batch, steps))
    result = program.main(["--steps", str(steps), "--documents", str(documents)])
    if ctx.rank != 0:
        return
    report, cfg = result["report"], result["cfg"]
    ids = [doc for ledger in report["ledgers"] for entry in ledger for doc in entry["ids"]]
    repeated = len(ids) - len(set(ids))
    left_out = result["documents"] - len(set(ids))
    limit = ctx.world_size * cfg.batch
    ctx.check("the epoch still covers the data", repeated == 0 and left_out < limit,
              f"{len(set(ids))} of {result['documents']} documents trained once each; {left_out} left for the next "
              f"epoch (fewer than one global batch of {limit})" if repeated == 0 and left_out < limit else
              f"{repeated} documents trained twice, {left_out} left out (at most {limit - 1} may be)")


if __name__ == "__main__":
    main()
