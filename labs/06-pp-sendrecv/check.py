"""Checker for pp-sendrecv: every step runs, the pipeline's weights equal the unpipelined
model's (so both copies of the tied weight got the summed gradient), and the embedding still
trains once it is unfrozen."""

from __future__ import annotations

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    steps, unfreeze = int(params["steps"]), int(params["unfreeze_at"])
    result = program.main(["--steps", str(steps), "--unfreeze-at", str(unfreeze)])
    if ctx.rank != 0:
        return
    report = result["report"]
    trained = sorted(set(report["steps"][0])) if report else []
    ctx.check("every step ran", trained == list(range(steps)), f"{len(trained)} of {steps} steps on the first stage")
    model = report["replay"] if report else None
    with torch.device("cpu"):  # where the replay is, whatever the job's device
        initial = tt.make_model(result["cfg"]).embed.weight
    moved = model is not None and (model.embed.weight - initial).abs().max().item() > 0
    frozen_until = [entry["step"] for ledger in (report or {}).get("ledgers", []) for entry in ledger
                    if "embed.weight" in entry["frozen"]]
    ctx.check("the tied embedding trains from --unfreeze-at", moved and max(frozen_until, default=-1) < unfreeze,
              f"frozen in steps {sorted(set(frozen_until))}, then trained" if moved else
              "the embedding never changed")


if __name__ == "__main__":
    main()
