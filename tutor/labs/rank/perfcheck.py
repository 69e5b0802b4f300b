"""The fix check of the performance labs, run as the job's program by `tutor lab check`.

The learner's program and the shipped one are both built in the same ranks (`build(ctx)`
returns a job with `step()` and `result()`), then timed in alternating rounds — shipped
first in one round, the learner's first in the next — so both see the same load; on a busy
laptop the load drifts, and alternating plus medians keeps the ratio honest. Three things
must hold, all measured in this one job:

1. the results are unchanged: after the same number of steps from the same start, the
   learner's `result()` equals the shipped program's (`torch.testing.assert_close`);
2. the time lost to the lab's category is gone: a profiled window of each program is summarised
   by `tutor.labs.trace_summary`, and the learner's time in the category must fall to at most
   `max_category_ratio` of the shipped program's (for a straggler on CPU, each rank's CPU time
   in the timed rounds stands in for the trace's busy time: see `_cpu_skew`);
3. the step is faster: the median over rounds of (shipped step time / learner's step time) is
   at least `min_speedup`. A round's step time is its fastest step, each step as long as its
   slowest rank's (for a straggler on CPU, by CPU time: see `check_fix`).

lab.yaml `check:` sets `min_speedup`, `max_category_ratio`, `rounds`, `steps_per_round`,
`rtol`, `atol`.
"""

from __future__ import annotations

import statistics
import time

import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs import trace_summary
from tutor.labs.rank.context import compare
from tutor.labs.rank.perf import StepProfiler, gather_json, synchronize

NAMES = ("shipped", "yours")
WALL, CPU = 0, 1
"""Columns of a timed step: wall-clock seconds, the rank's main-thread CPU seconds."""


def check_fix(ctx, category: str) -> None:
    params = lab.check_params()
    modules = {"shipped": lab.load_shipped(), "yours": lab.load_program()}
    jobs = {name: modules[name].build(ctx) for name in NAMES}
    for job in jobs.values():  # warm-up: first-step allocations and caches
        job.step()
    samples = _timed_rounds(ctx, jobs, int(params.get("rounds", 3)), int(params.get("steps_per_round", 3)))
    summaries = {name: _profiled(ctx, name, job) for name, job in jobs.items()}
    cpu_straggler = category == "straggler" and ctx.device.type == "cpu"
    if cpu_straggler:
        for name in NAMES:
            summaries[name]["straggler_s"] = _cpu_skew(samples, name)
    _check_results(ctx, jobs, float(params.get("rtol", 1e-3)), float(params.get("atol", 1e-5)))
    _check_category(ctx, category, summaries, float(params.get("max_category_ratio", 0.5)))
    # A straggler on a shared CPU: while the fast rank waits in the all-reduce it gives its core
    # to the slow one or to other processes, so wall-clock steps on an oversubscribed machine
    # shrink the very imbalance being fixed. The slowest rank's CPU time per step is the step
    # as dedicated hardware would run it (it is the column the category check reads, too).
    clock = CPU if cpu_straggler else WALL
    _check_speedup(ctx, samples, float(params.get("min_speedup", 1.5)), clock)
    ctx.finish()


def _timed_rounds(ctx, jobs: dict, rounds: int, steps: int) -> list[list[dict]]:
    """Every rank's [wall, CPU] seconds of each step: samples[rank][round][name][step]."""
    local = []
    for index in range(rounds):
        order = NAMES if index % 2 == 0 else tuple(reversed(NAMES))
        times: dict[str, list[list[float]]] = {}
        for name in order:
            dist.barrier()
            times[name] = []
            for _ in range(steps):
                synchronize(ctx.device)
                start, cpu = time.perf_counter(), time.thread_time()
                jobs[name].step()
                synchronize(ctx.device)
                times[name].append([time.perf_counter() - start, time.thread_time() - cpu])
        local.append(times)
    return gather_json(local)


def _best_steps(samples: list[list[dict]], clock: int = WALL) -> list[dict[str, float]]:
    """Per round, each program's best step, a step lasting as long as its slowest rank's
    (by wall clock or by CPU time: `clock`).

    The best of a few steps, not their mean: on a shared machine other processes only ever
    add time, so the fastest step is the closest to the program's own speed; the median over
    rounds of the ratio then discards a round that a burst of load hit unevenly.
    """
    rounds, steps = len(samples[0]), len(samples[0][0][NAMES[0]])
    return [{name: min(max(rank[index][name][step][clock] for rank in samples) for step in range(steps))
             for name in NAMES} for index in range(rounds)]


def _cpu_skew(samples: list[list[dict]], name: str) -> float:
    """Median over the timed steps of the slowest rank's main-thread CPU time minus the fastest's.

    On CPU, the straggler measure from the trace (wall-clock busy time) counts the time a rank
    was descheduled by other processes as work; CPU time does not, and a rank blocked in a
    collective uses none, so this is each rank's own work, whatever the machine's load.
    """
    skews = [max(rank[index][name][step][1] for rank in samples) - min(rank[index][name][step][1] for rank in samples)
             for index in range(len(samples[0])) for step in range(len(samples[0][index][name]))]
    return statistics.median(skews)


def _profiled(ctx, name: str, job) -> dict:
    """Four traced steps of one program (after an untraced profiler warm-up), summarised over ranks."""
    path = ctx.trace_dir / f"{name}-rank{ctx.rank}.trace.json"
    profiler = StepProfiler(path, ctx.device, warmup=1, active=4)
    profiler.start()
    for index in range(profiler.span):
        job.step()
        synchronize(ctx.device)
        if index < profiler.span - 1:
            profiler.step()
    profiler.stop()
    mine = trace_summary.rank_steps(trace_summary.load(path))
    return trace_summary.combine({rank: steps for rank, steps in enumerate(gather_json(mine))})


def _check_results(ctx, jobs: dict, rtol: float, atol: float) -> None:
    expected, actual = jobs["shipped"].result(), jobs["yours"].result()
    name = "results unchanged"
    for key, want in expected.items():
        if key not in actual:
            ctx.check(name, False, f"your result() has no {key!r}")
            return
        passed, detail = compare(actual[key], want, rtol=rtol, atol=atol)
        if not passed:
            ctx.check(name, False, f"{key} differs from the shipped program's after the same steps: {detail}")
            return
    ctx.check(name, True, f"{', '.join(expected)} equal the shipped program's after the same steps "
                          f"(rtol {rtol:g}, atol {atol:g})")


def _check_category(ctx, category: str, summaries: dict, max_ratio: float) -> None:
    key, label = trace_summary.CATEGORY_TIME[category]
    shipped, yours = summaries["shipped"], summaries["yours"]
    before, after = shipped.get(key) or 0.0, yours.get(key) or 0.0
    passed = after <= max_ratio * before
    if category == "straggler" and ctx.device.type == "cpu":
        label = "straggler time (slowest rank's extra CPU time per step, timed rounds)"
    detail = (f"{label}: {after * 1e3:.1f} ms per step, shipped {before * 1e3:.1f} ms "
              f"(needs ≤ {max_ratio:.0%} of the shipped); shipped trace says: {shipped.get('message')}; "
              f"yours: {yours.get('message')}")
    ctx.check(f"time lost to {category} is gone", passed, detail, shipped_s=before, yours_s=after)
    ctx.report(**{f"shipped_{key}": before, f"yours_{key}": after, "shipped_summary": _brief(shipped),
                  "yours_summary": _brief(yours)})


def _check_speedup(ctx, samples: list[list[dict]], min_speedup: float, clock: int = WALL) -> None:
    """The median over rounds of shipped / yours, by `clock`; the step times reported are wall clock."""
    rounds = _best_steps(samples, clock)
    ratios = [row["shipped"] / row["yours"] if row["yours"] > 0 else float("inf") for row in rounds]
    speedup = statistics.median(ratios)
    yours = statistics.median(row["yours"] for row in rounds)
    shipped = statistics.median(row["shipped"] for row in rounds)
    unit = "ms of the slowest rank's CPU time per step" if clock == CPU else "ms per step"
    ctx.check("faster than the shipped program", speedup >= min_speedup,
              f"{yours * 1e3:.1f} vs {shipped * 1e3:.1f} {unit} shipped: {speedup:.2f}× (needs ≥ {min_speedup:g}×; "
              f"best step of each interleaved round: {', '.join(f'{ratio:.2f}×' for ratio in ratios)})",
              speedup=speedup)
    walls = _best_steps(samples, WALL)
    ctx.report(speedup=speedup, round_speedups=ratios, step_time_s=statistics.median(row["yours"] for row in walls),
               shipped_step_time_s=statistics.median(row["shipped"] for row in walls))


def cuda_speedup(shipped, yours, rounds: int = 5, iters: int = 20) -> tuple[float, list[float], float, float]:
    """(median ratio, per-round ratios, your median time, the shipped median time) of two
    functions timed with CUDA events in alternating rounds (the GPU-only labs' checks)."""
    from tutor.labs.rank.perf import time_cuda

    samples: dict[str, list[float]] = {"shipped": [], "yours": []}
    functions = {"shipped": shipped, "yours": yours}
    for index in range(rounds):
        for name in (NAMES if index % 2 == 0 else tuple(reversed(NAMES))):
            samples[name].append(time_cuda(functions[name], iters=iters, warmup=3))
    ratios = [before / after for before, after in zip(samples["shipped"], samples["yours"])]
    return (statistics.median(ratios), ratios, statistics.median(samples["yours"]),
            statistics.median(samples["shipped"]))


def _brief(summary: dict) -> dict:
    keep = ("category", "finding", "message", "fractions", "step_time_s", "data_wait_s", "exposed_comm_s",
            "launch_overhead_s", "straggler_s", "slowest_rank", "host_syncs_per_step", "ops_per_step")
    return {key: summary.get(key) for key in keep}

