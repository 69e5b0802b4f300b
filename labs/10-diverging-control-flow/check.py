"""Checker for diverging-control-flow: the early stop still stops, at the same step on every
rank (the first step with a non-finite loss, before its update), with the right weights.

The emptied batch is placed by the checker, at a step and (beyond two ranks) on a rank other
than 0 drawn for each check (fixcheck.empty_batch_at); the program's --filter-step is left at its default, so
neither a broadcast of rank 0's flag nor a break at that step passes for the fix."""

from __future__ import annotations

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck
from tutor.labs.rank import training as tt


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    steps = int(params["steps"])
    default = program.parse([]).filter_step  # what the program reads when not told: never the bad step
    # The emptied batch goes on a rank other than 0, so a broadcast of rank 0's flag fails; at two
    # ranks it must be rank 0's: the shipped reduce tells rank 0 and the faulty rank, so with the
    # fault on rank 1 both would stop and the shipped program would pass.
    ranks = [0] if ctx.world_size == 2 else list(range(1, ctx.world_size))
    bad, rank = fixcheck.draw(ctx, [step for step in range(1, steps - 1) if step != default], ranks)
    fixcheck.empty_batch_at(bad, rank, ctx.world_size, tt.Config().batch)
    result = program.main(["--steps", str(steps)])
    if ctx.rank != 0:
        return
    done = result["report"]["steps"]
    stopped = {rank: len(trained) for rank, trained in done.items()}
    ctx.check("the guard still stops the run", result["stopped_at"] == bad,
              f"rank 0 stopped at step {result['stopped_at']} (the first non-finite loss is at step {bad}, "
              f"on rank {rank})")
    ctx.check("every rank stops at the same step, before its update", all(n == bad for n in stopped.values()),
              "updates per rank: " + ", ".join(f"rank {r}: {n}" for r, n in stopped.items()) + f" (expected {bad})")


if __name__ == "__main__":
    main()
