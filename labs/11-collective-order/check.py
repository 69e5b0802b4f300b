"""Checker for collective-order: every step runs with the right weights, and the learning
rate still follows the job's tokens: at every sync step it changes, the same on every rank
(the replay checks that), to the schedule's value for the tokens all ranks had seen."""

from __future__ import annotations

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    steps, every = int(params["steps"]), int(params["sync_every"])
    result = program.main(["--steps", str(steps), "--sync-every", str(every)])
    if ctx.rank != 0:
        return
    report, cfg = result["report"], result["cfg"]
    fixcheck.all_steps(ctx, report, steps)
    by_step: dict[int, int] = {}
    for ledger in report["ledgers"]:
        for entry in ledger:
            by_step[entry["step"]] = by_step.get(entry["step"], 0) + int(entry["mask"].sum().item())
    expected, lr, seen = [], cfg.lr, 0
    for step in range(steps):
        if step > 0 and step % every == 0:
            lr = program.scheduled_lr(cfg, seen)
        expected.append(lr)
        seen += by_step.get(step, 0)
    got = result["lr_history"]
    same = len(got) == len(expected) and all(abs(a - b) < 1e-6 for a, b in zip(got, expected))
    ctx.check("the learning rate follows the job's tokens", same,
              f"{len(got)} steps, lr {got[-1]:.4f} at the end" if same else
              f"lr per step {[round(x, 4) for x in got]}, expected {[round(x, 4) for x in expected]}")


if __name__ == "__main__":
    main()
