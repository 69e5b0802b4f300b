"""Checker for dp-overlap: same gradients as one process, and less exposed communication.

Both the learner's GradientBuckets and the shipped one run here, on identical models and
data, in alternating steps, so the two are timed under the same load. The ranks share their
timestamps afterwards and all judge the same figure: per step, how long communication went on
after the slowest rank's backward (see `exposed`).

That figure alone let a blocking all-reduce inside the gradient hook score better than real
overlap: its wait moved into backward (findings D3). So the structure is checked from the
recorder, which no load can blur: every all-reduce must be started during backward,
asynchronously, and waited for only after backward has returned. (A wall-clock timeline of
the whole step, the other way to see it, was tried: on a shared 2-core machine overlapped
communication is time-sliced with the compute it overlaps, and the honest fix failed it.)
"""

from __future__ import annotations

import statistics
import time

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

WIDTH, LAYERS, BATCH_PER_RANK = 256, 8, 512


def synchronize() -> None:
    """Wait for this rank's queued GPU compute before reading a clock (a no-op on CPU).

    Only the compute stream: NCCL runs on a stream of its own, and waiting for it here would
    hide the very communication being measured.
    """
    if torch.cuda.is_initialized():
        torch.cuda.current_stream().synchronize()


def build(state: dict | None = None) -> nn.Sequential:
    model = nn.Sequential(*[layer for _ in range(LAYERS) for layer in (nn.Linear(WIDTH, WIDTH), nn.Tanh())])
    if state is not None:
        model.load_state_dict(state)
    for param in model.parameters():
        param.grad = torch.zeros_like(param)
    return model


def step(model, buckets, inputs, targets) -> tuple[float, float]:
    """One step under the start/backward/finish protocol; returns the wall-clock times when
    backward returned and when every gradient was averaged."""
    model.zero_grad(set_to_none=False)
    buckets.start()
    loss = nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    synchronize()
    backward_done = time.time()
    buckets.finish()
    synchronize()
    return backward_done, time.time()


def exposed(samples: list[tuple[float, float]]) -> float:
    """Median over steps of how long communication kept the step going after the slowest rank's
    backward: max over ranks of the finish time minus max over ranks of the backward end. Taking
    both maxima removes the ranks' skew (on a shared CPU, some rank is always late), which would
    otherwise count as communication. One machine, one clock."""
    local = torch.tensor(samples, dtype=torch.float64)
    every = [torch.zeros_like(local) for _ in range(dist.get_world_size())]
    dist.all_gather(every, local)
    stacked = torch.stack(every)
    return statistics.median((stacked[:, :, 1].max(0).values - stacked[:, :, 0].max(0).values).tolist())


def overlap_structure(ctx, model, buckets, inputs, targets) -> tuple[str, bool, str]:
    """Which all-reduces were started before `loss.backward()` returned (from the recorder)."""
    model.zero_grad(set_to_none=False)
    buckets.start()
    loss = nn.functional.mse_loss(model(inputs), targets)
    mark = ctx.recorder.mark()
    loss.backward()
    synchronize()
    backward_done = time.time()
    after_backward = ctx.recorder.mark()
    buckets.finish()
    reduces = [entry for entry in ctx.recorder.since(mark) if entry["op"] == "all_reduce"]
    early = [entry for entry in ctx.recorder.since(mark, until=after_backward)
             if entry["op"] == "all_reduce" and entry["t0"] <= backward_done]
    name = "all-reduces start during backward and are waited for after it"
    if not reduces:
        return name, False, "the recorder saw no torch.distributed.all_reduce in a step"
    blocking = [entry for entry in early if not entry.get("asynchronous")]
    # An async all-reduce's end is when its wait() returned (recorder.py): waiting inside the
    # hook serializes communication with backward as surely as a blocking call.
    waited = [entry for entry in early if entry.get("asynchronous") and entry.get("dt") is not None
              and entry["t0"] + entry["dt"] < backward_done]
    started = len(reduces) >= 2 and len(early) >= len(reduces) - 1
    passed = started and not blocking and not waited
    detail = f"{len(early)} of {len(reduces)} all-reduces started before backward returned"
    if not started:
        detail += "; the rest waited for the whole backward pass"
    if blocking:
        detail += f"; {len(blocking)} of them blocking (async_op=False): backward waits for each"
    if waited:
        detail += f"; {len(waited)} waited for inside backward: nothing overlaps"
    return name, passed, detail


def main() -> None:
    ctx = lab.init()
    program, shipped = lab.load_program(), lab.load_shipped()
    params = lab.check_params()
    bucket_bytes = int(params.get("bucket_bytes", 512 << 10))
    torch.manual_seed(0)
    state = build().state_dict()
    torch.manual_seed(7)  # the full batch, the same on every rank; each rank takes its slice
    inputs = torch.randn(BATCH_PER_RANK * ctx.world_size, WIDTH)
    targets = torch.randn(BATCH_PER_RANK * ctx.world_size, WIDTH)
    mine = slice(ctx.rank * BATCH_PER_RANK, (ctx.rank + 1) * BATCH_PER_RANK)

    reference = build(state)
    nn.functional.mse_loss(reference(inputs), targets).backward()
    learner = build(state)
    learner_buckets = program.GradientBuckets(learner, bucket_bytes)
    for attempt in range(2):  # twice: the second step shows whether per-step state is reset
        step(learner, learner_buckets, inputs[mine], targets[mine])
        for (name, param), want in zip(learner.named_parameters(), reference.parameters()):
            passed, detail = compare(param.grad, want.grad)
            if not passed:
                break
        if not passed:
            detail = f"step {attempt + 1}, {name}: {detail}"
            break
    ctx.check("gradients equal one process on the full batch", passed,
              detail if not passed else "every gradient matches, two steps running")
    ctx.check(*overlap_structure(ctx, learner, learner_buckets, inputs[mine], targets[mine]))

    shipped_model = build(state)
    shipped_buckets = shipped.GradientBuckets(shipped_model, bucket_bytes)
    timed = {"yours": (learner, learner_buckets), "shipped": (shipped_model, shipped_buckets)}
    samples = {name: [] for name in timed}
    rounds = int(params.get("timed_steps", 6))
    for index in range(rounds + 1):
        order = list(timed) if index % 2 else list(reversed(timed))
        for name in order:
            dist.barrier()
            times = step(*timed[name], inputs[mine], targets[mine])
            if index >= 1:  # the first round warms up
                samples[name].append(times)
    yours, theirs = (exposed(samples[name]) for name in ("yours", "shipped"))
    sweep = bucket_sweep(program, state, inputs[mine], targets[mine], bucket_bytes)
    ratio = yours / theirs if theirs > 0 else float("inf")
    limit = float(params.get("max_exposed_ratio", 0.75))
    sizes = ", ".join(f"{label} {ms:.1f} ms" for label, ms in sweep.items())
    ctx.check("exposed communication drops against the shipped program", ratio <= limit,
              f"exposed {yours * 1e3:.1f} ms per step vs {theirs * 1e3:.1f} ms shipped: ratio {ratio:.2f} "
              f"(needs ≤ {limit:g}); by bucket size: {sizes}",
              exposed_s=yours, shipped_exposed_s=theirs, ratio=ratio)
    ctx.report(exposed_comm_s=yours, shipped_exposed_comm_s=theirs, exposed_ratio=ratio, bucket_sweep_ms=sweep)
    ctx.finish()


def bucket_sweep(program, state, inputs, targets, default_bytes: int) -> dict[str, float]:
    """Exposed milliseconds of the learner's buckets at several bucket sizes."""
    total = sum(tensor.numel() * tensor.element_size() for tensor in state.values())
    results = {}
    for label, size in (("64 KiB", 64 << 10), (f"{default_bytes >> 10} KiB", default_bytes), ("one bucket", total)):
        model = build(state)
        buckets = program.GradientBuckets(model, size)
        timings = []
        for _ in range(3):
            dist.barrier()
            timings.append(step(model, buckets, inputs, targets))
        results[label] = round(exposed(timings[1:]) * 1e3, 2)
    return results


if __name__ == "__main__":
    main()
