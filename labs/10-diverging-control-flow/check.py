"""Checker for diverging-control-flow: the early stop still stops, at the same step on every
rank (the first step with a non-finite loss, before its update), with the right weights."""

from __future__ import annotations

from tutor.labs import rank as lab


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    steps, bad = int(params["steps"]), int(params["filter_step"])
    result = program.main(["--steps", str(steps), "--filter-step", str(bad)])
    if ctx.rank != 0:
        return
    done = result["report"]["steps"]
    stopped = {rank: len(trained) for rank, trained in done.items()}
    ctx.check("the guard still stops the run", result["stopped_at"] == bad,
              f"rank 0 stopped at step {result['stopped_at']} (the first non-finite loss is at step {bad})")
    ctx.check("every rank stops at the same step, before its update", all(n == bad for n in stopped.values()),
              "updates per rank: " + ", ".join(f"rank {r}: {n}" for r, n in stopped.items()) + f" (expected {bad})")


if __name__ == "__main__":
    main()
