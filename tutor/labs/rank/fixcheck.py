"""What the hang labs' checkers verify once the learner's program no longer hangs.

A fix must keep what the bug sat inside: the checkpoint is still written, complete and
loadable; every step still runs with the right weights (replay.py). These helpers run on
rank 0 after the learner's `main()` returned, and report with `ctx.check(...)`.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

from tutor.labs.rank.context import compare
from tutor.labs.rank.replay import ATOL, RTOL
from tutor.labs.rank.training import Config, make_model


def output_path(ctx, name: str) -> Path:
    """Where a program writes a file (a checkpoint): the run folder under the tutor, else here."""
    folder = ctx.session.run_dir or Path.cwd()
    return Path(folder) / name


def all_steps(ctx, report: dict, expected: int) -> None:
    steps = report.get("steps") or {}
    done = {rank: len(done) for rank, done in steps.items()}
    passed = bool(done) and all(count == expected for count in done.values()) and len(done) == ctx.world_size
    ctx.check("every step ran on every rank", passed,
              f"{expected} steps on each of {ctx.world_size} ranks" if passed else
              f"expected {expected} steps on each rank; ran " + ", ".join(f"rank {r}: {n}" for r, n in done.items()))


def checkpoint(ctx, path: str | os.PathLike, report: dict, step: int, cfg: Config, positions: list[int]) -> None:
    """The checkpoint of `step` exists, loads into a fresh model and optimizer, and holds the
    replay's weights and optimizer state at that step and every rank's data position."""
    path = Path(path)
    if not path.is_file():
        ctx.check("checkpoint written", False, f"no checkpoint at {path}")
        return
    ctx.check("checkpoint written", True, f"{path.name}, {path.stat().st_size:,} bytes")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
        model = make_model(cfg)
        model.load_state_dict(state["model"])
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
        optimizer.load_state_dict(state["optimizer"])
    except Exception as error:  # whatever is wrong with the file, the learner sees it in one line
        ctx.check("checkpoint loads into a fresh model and optimizer", False, f"{type(error).__name__}: {error}")
        return
    ctx.check("checkpoint loads into a fresh model and optimizer", True, "model and optimizer state_dicts load")
    snapshot = (report.get("snapshots") or {}).get(step)
    if snapshot is None:
        ctx.check("checkpoint holds the weights of its step", False, f"no replay of step {step} to compare with")
        return
    keys_ok = state.get("step") == step
    weights = torch.cat([value.reshape(-1).float() for value in state["model"].values()])
    expected = torch.cat([value.reshape(-1).float() for value in snapshot["model"].values()])
    same, detail = compare(weights, expected, rtol=RTOL, atol=ATOL)
    ctx.check("checkpoint holds the weights of its step", same and keys_ok,
              f"step {state.get('step')} (expected {step}); weights vs replay: {detail}")
    momentum = [s.get("momentum_buffer") for s in state["optimizer"]["state"].values()]
    complete = len(momentum) == len(list(model.parameters())) and all(m is not None for m in momentum)
    ctx.check("checkpoint holds the optimizer state", complete,
              f"{sum(m is not None for m in momentum)} of {len(list(model.parameters()))} momentum buffers")
    saved = state.get("data_positions")
    ctx.check("checkpoint holds every rank's data position", saved == positions,
              f"saved {saved}, expected {positions}")
