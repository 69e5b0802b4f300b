"""Is the distributed result the right one? Replay every rank's batches in one process and compare.

Data parallelism with an averaged gradient all-reduce is, step for step, one process taking
the gradient of (Σ over ranks of each rank's mean token loss) / world size; a GPipe pipeline
is one process taking the gradient of (Σ over micro-batches of each one's mean loss) / m. So
rank 0 gathers every rank's ledger (the batch tensors, learning rate and frozen parameters of
each step it trained) and weights, replays the ledgers on a fresh copy of the model with the
same optimizer, and compares: every weight every rank holds must equal the replay's
(`assert_close`). A rank that skipped a step, a step averaged over the wrong ranks, a
learning rate that differs between ranks, or two copies of a tied weight that drifted apart
all show.
"""

from __future__ import annotations

import copy
import io
import time
from collections import defaultdict

import torch
import torch.distributed as dist

from tutor.labs.rank.context import compare
from tutor.labs.rank.training import Config, make_model, token_loss

RTOL, ATOL = 1e-4, 1e-5
REPLAY_CHECK = "weights equal a one-process replay of every rank's batches"
_HELD: list = []


def replay(cfg: Config, ledgers: list[list[dict]], parts: int, snapshot_at: tuple[int, ...] = ()):
    """(model, {step: state after that step}): one process replaying the ledgers' steps in order.

    Each step's loss is the sum of its entries' mean token losses over `parts` (the world size
    for data parallelism, the micro-batch count for a pipeline).
    """
    with torch.device("cpu"):  # on CPU whatever the job's device (NCCL ranks default to their GPU)
        model = make_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=cfg.momentum)
    by_step: dict[int, list[dict]] = defaultdict(list)
    for ledger in ledgers:
        for entry in ledger:
            by_step[entry["step"]].append(entry)
    snapshots = {}
    for step in sorted(by_step):
        entries = by_step[step]
        frozen = set(entries[0].get("frozen") or ())
        for name, param in model.named_parameters():
            param.requires_grad_(name not in frozen)
        loss = sum(token_loss(model(e["tokens"]), e["targets"], e["mask"]) for e in entries) / parts
        loss.backward()
        for group in optimizer.param_groups:
            group["lr"] = entries[0]["lr"]
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if step in snapshot_at:
            snapshots[step] = copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict()})
    return model, snapshots


def gather_to_first(ctx, item: object) -> list | None:
    """Every rank's `item` on rank 0 (None elsewhere): torch.save bytes through two collectives.

    `dist.gather_object` would do this, but it needs numpy to turn the bytes back, and a lab
    must not need more than torch.
    """
    buffer = io.BytesIO()
    torch.save(item, buffer)
    data = torch.frombuffer(bytearray(buffer.getvalue()), dtype=torch.uint8)
    sizes = [torch.zeros(1, dtype=torch.long) for _ in range(ctx.world_size)]
    mine = torch.tensor([data.numel()])
    dist.all_gather(sizes, mine)
    longest = max(int(size.item()) for size in sizes)
    padded = torch.zeros(longest, dtype=torch.uint8)
    padded[: data.numel()] = data
    parts = [torch.zeros(longest, dtype=torch.uint8) for _ in range(ctx.world_size)] if ctx.rank == 0 else None
    dist.gather(padded, parts, dst=0)
    # This is the job's last collective, and the process group goes soon after (DDP's reducer
    # releases it). gloo's worker threads drop their references to a collective's tensors
    # after the call returned, which needs the GIL; if the main thread is by then in
    # ProcessGroupGloo's destructor, holding the GIL and joining those threads, both wait for
    # ever (seen with torch 2.13 on a busy CPU). So the tensors stay referenced from Python,
    # and the GIL is let go for a moment for the workers to finish.
    _HELD.append((mine, sizes, padded, parts))
    time.sleep(0.2)
    if ctx.rank != 0:
        return None
    return [torch.load(io.BytesIO(bytes(part[: int(size.item())].tolist())), map_location="cpu", weights_only=False)
            for part, size in zip(parts, sizes)]


def ledger_entries(ledger) -> list[dict]:
    return [{"step": e.step, "tokens": e.tokens.cpu(), "targets": e.targets.cpu(), "mask": e.mask.cpu(), "ids": e.ids,
             "lr": e.lr, "frozen": tuple(e.frozen)} for e in ledger]


def check_weights(ctx, cfg: Config, ledger: list[dict], weights: dict[str, torch.Tensor], parts: int,
                  snapshot_at: tuple[int, ...] = ()) -> dict | None:
    """Gather (ledger, named weights) from every rank; on rank 0 replay and compare.

    A collective (every rank calls it). Rank 0 reports the comparison and returns
    {steps: {rank: [steps]}, ledgers, snapshots, replay}; the other ranks return None.
    """
    mine = {"rank": ctx.rank, "ledger": ledger, "weights": {k: v.detach().float().cpu() for k, v in weights.items()}}
    gathered = gather_to_first(ctx, mine)
    if gathered is None:
        return None
    gathered.sort(key=lambda item: item["rank"])
    model, snapshots = replay(cfg, [item["ledger"] for item in gathered], parts, snapshot_at)
    expected = model.state_dict()
    passed, detail = True, "no weights to compare"
    for item in gathered:
        for name, value in item["weights"].items():
            same, what = compare(value, expected[name], rtol=RTOL, atol=ATOL)
            if not same:
                passed, detail = False, f"{name} on rank {item['rank']}: {what}"
                break
            detail = what if passed else detail
        if not passed:
            break
    ctx.check(REPLAY_CHECK, passed, detail)
    ctx.session.emit("verify", name=REPLAY_CHECK, passed=passed, detail=detail)
    ctx.log(f"{'ok  ' if passed else 'WRONG'} weights vs one-process replay: {detail}")
    return {"steps": {item["rank"]: [e["step"] for e in item["ledger"]] for item in gathered},
            "ledgers": [item["ledger"] for item in gathered], "snapshots": snapshots, "replay": model}


def check_run(trainer, snapshot_at: tuple[int, ...] = ()) -> dict:
    """End of a data-parallel run: every rank's steps and weights against the replay.

    Every rank calls this. Rank 0 also checks that every rank trained the same steps, and
    returns check_weights' report; the others return {steps: {own rank: [steps]}}.
    """
    ctx = trainer.ctx
    entries = ledger_entries(trainer.ledger)
    report = check_weights(ctx, trainer.cfg, entries, dict(trainer.model.named_parameters()), ctx.world_size,
                           snapshot_at)
    if report is None:
        return {"steps": {ctx.rank: [e["step"] for e in entries]}}
    steps = report["steps"]
    same = len({tuple(done) for done in steps.values()}) == 1
    ctx.check("every rank trained the same steps", same,
              f"{len(steps[0])} steps on each of {ctx.world_size} ranks" if same else
              "steps per rank: " + "; ".join(f"rank {r}: {len(done)}" for r, done in steps.items()))
    return report
