"""Checker for checkpoint-rank0: every step runs with the right weights, and the checkpoint is
still written, complete and loadable (weights and optimizer state of its step, every rank's
data position)."""

from __future__ import annotations

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    steps, every = int(params["steps"]), int(params["save_every"])
    result = program.main(["--steps", str(steps), "--save-every", str(every)])
    if ctx.rank != 0:
        return
    report = result["report"]
    fixcheck.all_steps(ctx, report, steps)
    last = (steps // every) * every - 1
    # Each rank's offset in its token stream after step `last` (training.ShardedLoader.position):
    # they differ by rank, so only a gather of every rank's own position gives them.
    positions = [int(sum(entry["mask"].sum().item() for entry in ledger if entry["step"] <= last))
                 for ledger in report["ledgers"]]
    fixcheck.checkpoint(ctx, result["checkpoint"], report, last, result["cfg"], positions=positions)


if __name__ == "__main__":
    main()
