"""Checker for dp-overlap: same gradients as one process, and less exposed communication.

Both the learner's GradientBuckets and the shipped one run here, on identical models and
data, in alternating rounds, so the two are measured under the same load. Exposed
communication is read from torch.profiler's timeline of whole steps (forward, backward and
`finish()`), as the lesson defines it and `tutor.labs.trace_summary` computes it for the perf
labs: the time collectives ran (gloo's worker-thread spans on CPU, NCCL kernels on GPU) that no
computation covers, with the main thread's waits for a collective it called (a blocking
all-reduce inside a gradient hook waits inside autograd's AccumulateGrad) cut out of the
computation. Per step the ranks' smallest figure counts (the last rank to arrive waits only for
the transfer), then the median over steps.

Measured only after `backward()` returned, a blocking all-reduce inside the gradient hook
scored better than real overlap: its wait moved into backward (findings D3, issue 19). On the
whole step's timeline that wait is communication nothing covers. The structure is checked too,
from the recorder, which no load can blur: every all-reduce must be started during backward,
asynchronously, and waited for only after backward has returned.
"""

from __future__ import annotations

import statistics
import time

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs import trace_summary
from tutor.labs.rank.context import compare
from tutor.labs.rank.perf import StepProfiler, gather_json

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


def profiled_exposed(ctx, label: str, model, buckets, inputs, targets, steps: int) -> list[list[float]]:
    """This rank's [exposed, all] communication seconds in each of `steps` profiled whole steps
    (after one untraced profiler warm-up), from the torch.profiler timeline
    (`trace_summary.rank_steps`). One barrier lines the ranks up before the window, none inside
    it: a barrier's own communication would count in the step it falls in."""
    path = ctx.trace_dir / f"{label}-rank{ctx.rank}.trace.json"
    profiler = StepProfiler(path, ctx.device, warmup=1, active=steps)
    dist.barrier()
    profiler.start()
    for index in range(profiler.span):
        step(model, buckets, inputs, targets)
        if index < profiler.span - 1:
            profiler.step()
    profiler.stop()
    return [[record["exposed"], record["comm_total"]] for record in trace_summary.rank_steps(trace_summary.load(path))]


def exposed(mine: list[list[float]]) -> tuple[float, float]:
    """(share, seconds): the median over steps of the exposed share of the step's communication
    and of the exposed time, each step's figure from the rank with the least exposed time (the
    rank that arrives last at a collective waits only for the transfer, the others for it too).

    The share is what is judged. On a shared CPU, gloo reduces on the CPU, so communication
    that overlaps backward competes with it for the cores and lasts longer than communication
    that runs alone: real overlap can leave about as many exposed milliseconds as none, while
    the share of the communication that compute covers stays the overlap's own (findings D3).
    The bytes each step moves are checked apart (`collective_bytes`), so covered communication
    cannot be added to dilute the share."""
    every = gather_json(mine)
    steps = min(len(rank) for rank in every)
    if not steps:
        return float("nan"), float("nan")
    least = [min((rank[index] for rank in every), key=lambda pair: pair[0]) for index in range(steps)]
    return (statistics.median(seconds / total if total > 0 else 1.0 for seconds, total in least),
            statistics.median(seconds for seconds, _ in least))


def overlap_structure(ctx, model, buckets, inputs, targets) -> tuple[tuple[str, bool, str], tuple[str, bool, str]]:
    """Which all-reduces were started before `loss.backward()` returned, and the bytes the whole
    step's collectives moved (from the recorder): two checks."""
    model.zero_grad(set_to_none=False)
    step_mark = ctx.recorder.mark()
    buckets.start()
    loss = nn.functional.mse_loss(model(inputs), targets)
    mark = ctx.recorder.mark()
    loss.backward()
    synchronize()
    backward_done = time.time()
    after_backward = ctx.recorder.mark()
    buckets.finish()
    moved = collective_bytes(model, ctx.recorder.since(step_mark))
    reduces = [entry for entry in ctx.recorder.since(mark) if entry["op"] == "all_reduce"]
    early = [entry for entry in ctx.recorder.since(mark, until=after_backward)
             if entry["op"] == "all_reduce" and entry["t0"] <= backward_done]
    name = "all-reduces start during backward and are waited for after it"
    if not reduces:
        return (name, False, "the recorder saw no torch.distributed.all_reduce in a step"), moved
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
    return (name, passed, detail), moved


def collective_bytes(model, entries: list[dict]) -> tuple[str, bool, str]:
    """Every gradient all-reduced once: the step's collectives move the gradients' bytes, no more
    (covered dummy traffic would dilute the exposed share) and no fewer (compressed or skipped)."""
    gradients = sum(param.numel() * param.element_size() for param in model.parameters())
    moved = sum(int(entry.get("bytes") or 0) for entry in entries)
    ops = sorted({entry["op"] for entry in entries})
    return ("the step's collectives move every gradient once", moved == gradients,
            f"{moved:,} B in {len(entries)} collective(s) ({', '.join(ops) or 'none'}) per step; "
            f"the gradients are {gradients:,} B")


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
    structure, moved = overlap_structure(ctx, learner, learner_buckets, inputs[mine], targets[mine])
    ctx.check(*structure)
    ctx.check(*moved)

    shipped_model = build(state)
    shipped_buckets = shipped.GradientBuckets(shipped_model, bucket_bytes)
    timed = {"yours": (learner, learner_buckets), "shipped": (shipped_model, shipped_buckets)}
    samples: dict[str, list[list[float]]] = {name: [] for name in timed}
    steps = int(params.get("timed_steps", 6))
    for index in range(2):  # two rounds of half the steps each, the order alternating
        for name in (list(timed) if index % 2 else list(reversed(timed))):
            samples[name] += profiled_exposed(ctx, name, *timed[name], inputs[mine], targets[mine],
                                              max(1, steps // 2))
    (yours, yours_s), (theirs, theirs_s) = (exposed(samples[name]) for name in ("yours", "shipped"))
    sweep = bucket_sweep(ctx, program, state, inputs[mine], targets[mine], bucket_bytes)
    ratio = yours / theirs if theirs > 0 else float("inf")
    limit = float(params.get("max_exposed_ratio", 0.75))
    sizes = ", ".join(f"{label} {share:.0%} ({ms:.1f} ms)" for label, (share, ms) in sweep.items())
    ctx.check("exposed communication drops against the shipped program", ratio <= limit,
              f"{yours:.0%} of your communication is exposed ({yours_s * 1e3:.1f} ms per step), {theirs:.0%} of "
              f"the shipped program's ({theirs_s * 1e3:.1f} ms): ratio {ratio:.2f} (needs ≤ {limit:g}; "
              f"communication not covered by compute on the profiler's timeline of whole steps, traces "
              f"yours-rankN and shipped-rankN); exposed by bucket size: {sizes}",
              exposed_share=yours, shipped_exposed_share=theirs, exposed_s=yours_s, shipped_exposed_s=theirs_s,
              ratio=ratio)
    ctx.report(exposed_comm_s=yours_s, shipped_exposed_comm_s=theirs_s, exposed_share=yours,
               shipped_exposed_share=theirs, exposed_ratio=ratio,
               bucket_sweep_ms={label: ms for label, (_, ms) in sweep.items()},
               bucket_sweep_share={label: round(share, 3) for label, (share, _) in sweep.items()})
    ctx.finish()


def bucket_sweep(ctx, program, state, inputs, targets, default_bytes: int) -> dict[str, tuple[float, float]]:
    """(exposed share, exposed ms) of the learner's buckets at several bucket sizes (two profiled steps each)."""
    total = sum(tensor.numel() * tensor.element_size() for tensor in state.values())
    results = {}
    for index, (label, size) in enumerate((("64 KiB", 64 << 10), (f"{default_bytes >> 10} KiB", default_bytes),
                                           ("one bucket", total))):
        model = build(state)
        buckets = program.GradientBuckets(model, size)
        share, seconds = exposed(profiled_exposed(ctx, f"sweep{index}", model, buckets, inputs, targets, 2))
        results[label] = (share, round(seconds * 1e3, 2))
    return results


if __name__ == "__main__":
    main()
