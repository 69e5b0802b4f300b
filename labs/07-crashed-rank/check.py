"""Checker for crashed-rank: every step runs with the right weights on a device of the same
size, and rank 0 still reports the run's token accuracy, the same number a one-process
replay gives."""

from __future__ import annotations

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck, training as tt


def expected_accuracy(cfg: tt.Config, report: dict) -> float:
    """Rank 0's token accuracy, each batch scored by the weights it was trained from (replay)."""
    with torch.device("cpu"):  # where the replay's snapshots are, whatever the job's device
        model = tt.make_model(cfg)
    snapshots = report["snapshots"]
    correct = total = 0.0
    for entry in report["ledgers"][0]:
        if entry["step"] > 0:
            model.load_state_dict(snapshots[entry["step"] - 1]["model"])
        with torch.no_grad():
            hits = (model(entry["tokens"]).argmax(-1) == entry["targets"]).float() * entry["mask"]
        correct += hits.sum().item()
        total += entry["mask"].sum().item()
    return correct / total if total else 0.0


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    device = fixcheck.DeviceBudget(params["device_memory_kib"])
    steps = int(params["steps"])
    result = program.main(["--steps", str(steps), "--device-memory-kib", str(params["device_memory_kib"])])
    device.report(ctx)
    if ctx.rank != 0:
        return
    report = result["report"]
    fixcheck.all_steps(ctx, report, steps)
    reported, expected = result.get("accuracy"), expected_accuracy(result["cfg"], report)
    ctx.check("rank 0 still reports the token accuracy", reported is not None and abs(reported - expected) < 1e-9,
              f"reported {reported if reported is None else f'{reported:.4f}'}, replay {expected:.4f}")


if __name__ == "__main__":
    main()
