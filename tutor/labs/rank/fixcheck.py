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


LEAK_BYTES_PER_STEP = 2048
"""Growth per step above which a program keeps something from every step (a step's logits in
the OOM labs are ~20 KiB; the batch held from the last step varies by a few KiB)."""


class DeviceBudget:
    """Watches the simulated device the learner's program trains on (the OOM labs; findings D5).

    The briefs say every step must run on the same small device; a fix that makes the device
    bigger, drops it, or keeps copies the simulator does not count is no fix. Created by the
    checker before it calls the program's `main()`, it wraps `training.Trainer` so that every
    trainer built is seen with the device it was given, and after every optimizer step it
    sums the bytes of the tensors the process holds — the CPU stand-in for
    `torch.cuda.memory_allocated()` — leaving out what training must hold (weights, gradients,
    optimizer state) and the harness's own ledger of batches (kept for the replay).
    """

    def __init__(self, budget_kib: float):
        from tutor.labs.rank import training

        self.budget = int(float(budget_kib) * 1024)
        self.trainers: list = []
        self.held: list[int] = []
        watch = self
        built, stepped = training.Trainer.__init__, training.Trainer.step

        def init(trainer, *args, **kwargs):
            built(trainer, *args, **kwargs)
            watch.trainers.append(trainer)

        def step(trainer, *args, **kwargs):
            stepped(trainer, *args, **kwargs)
            watch.held.append(watch._held_bytes(trainer))

        training.Trainer.__init__, training.Trainer.step = init, step

    @staticmethod
    def _held_bytes(trainer) -> int:
        import gc

        needed = set()
        for param in trainer.model.parameters():
            needed.add(param.untyped_storage().data_ptr())
            if param.grad is not None:
                needed.add(param.grad.untyped_storage().data_ptr())
        for state in trainer.optimizer.state.values():
            needed.update(value.untyped_storage().data_ptr() for value in state.values()
                          if isinstance(value, torch.Tensor))
        for entry in trainer.ledger:
            needed.update(tensor.untyped_storage().data_ptr() for tensor in (entry.tokens, entry.targets, entry.mask))
        storages: dict[int, int] = {}
        for obj in gc.get_objects():
            if type(obj) is torch.Tensor or isinstance(obj, torch.Tensor):
                storage = obj.untyped_storage()
                if storage.data_ptr() not in needed:
                    storages[storage.data_ptr()] = storage.nbytes()
        return sum(storages.values())

    def report(self, ctx) -> None:
        from tutor.labs.rank.memory import DeviceMemory

        memories = [trainer.memory for trainer in self.trainers]
        kib = self.budget / 1024
        if not memories:
            passed, detail = False, "no training.Trainer was built, so no step ran on the simulated device"
        elif any(type(memory) is not DeviceMemory for memory in memories):
            passed, detail = False, ("a trainer ran without the simulated device (memory=None or another kind): "
                                     f"the brief's device has room for {kib:g} KiB of activations")
        elif any(memory.capacity != self.budget for memory in memories):
            sizes = ", ".join(f"{memory.capacity / 1024:g} KiB" for memory in memories)
            passed, detail = False, f"the device was given {sizes}; the brief's device has {kib:g} KiB"
        elif not all(memory.peak > 0 for memory in memories):
            passed, detail = False, "the simulated device counted no activations: the model is not on it"
        else:
            peak = max(memory.peak for memory in memories)
            passed, detail = True, f"every step on the {kib:g} KiB device (peak {peak / 1024:.1f} KiB of activations)"
        ctx.check("every step runs on the brief's device", passed, detail)
        if len(self.held) >= 4:
            # From the second step on (the first allocates what every step reuses): the slope of
            # a least-squares line, since the last step's batch, of varying length, is still held.
            held = self.held[1:]
            mean_x, mean_y = (len(held) - 1) / 2, sum(held) / len(held)
            growth = (sum((x - mean_x) * (y - mean_y) for x, y in enumerate(held))
                      / sum((x - mean_x) ** 2 for x in range(len(held))))
            trend = ", ".join(f"{value / 1024:.1f}" for value in self.held)
            passed = growth <= LEAK_BYTES_PER_STEP
            ctx.check("memory held does not grow from step to step", passed,
                      f"tensors held after each step (KiB, without weights, gradients, optimizer state and the "
                      f"harness's batches): {trend}" + ("" if passed else
                      f"; {growth / 1024:.1f} KiB more every step: something keeps each step's tensors"))


def draw(ctx, *choices: list[int]) -> list[int]:
    """One value from each list, drawn by rank 0 afresh on every check and sent to every rank.

    The checks move each planted fault (which rank, which step, how many documents) so that a
    fix written for the default run's numbers — "rank 0 skips its last batch", a broadcast of
    rank 0's flag, a break at `--filter-step` — fails (findings D6).
    """
    import random

    import torch.distributed as dist

    picked = torch.tensor([random.SystemRandom().choice(options) for options in choices], dtype=torch.long)
    dist.broadcast(picked, src=0)
    return [int(value) for value in picked.tolist()]


def empty_batch_at(step: int, rank: int, world_size: int, batch: int) -> None:
    """Make the corpus of the program under check empty rank `rank`'s documents at `step`,
    whatever lengths the program asks for (training.Corpus, patched in this process)."""
    from tutor.labs.rank import training

    first = (step * world_size + rank) * batch
    original = training.Corpus.__init__

    def init(corpus, cfg, size, *args, **kwargs):
        kwargs["lengths"] = {first + index: 0 for index in range(batch)}
        original(corpus, cfg, size, *args, **kwargs)

    training.Corpus.__init__ = init
