"""The fix check of the performance labs, run as the job's program by `tutor lab check`.

The learner's program runs in the check's ranks; the shipped one runs in worker processes of
its own (rank/baseline.py), started before the learner's code is imported, so nothing the
learner's `build()` does can change the baseline it is compared with. Both build a job
(`build(ctx)` → `step()`, `result()`), and are timed in alternating rounds — shipped first in
one round, the learner's first in the next — so both see the same load. What is timed is the
whole work the result depends on: a round is N steps *and* the `result()` after them (a
`step()` that only counts and a `result()` that trains is timed like any other; findings D1),
with N drawn per round and per check run, so the job cannot know when it will be asked.
Five things must hold, all measured in this one check:

1. the results are unchanged: after every round (and after the profiled window) the learner's
   `result()` equals the shipped program's after the same number of steps
   (`torch.testing.assert_close`), so the result came from the steps that were timed;
2. the step does the model's work: one step of each, counted by torch's FlopCounterMode, must
   do at least a quarter of the shipped program's matmul FLOPs (a job trained ahead in
   `build()` whose steps only replay it does none);
3. the learner's program is idle while the shipped one is timed (its process's CPU time over
   the baseline's rounds): a background thread cannot slow the baseline or train unseen;
4. the time lost to the lab's category is gone: a profiled window of each program is summarised
   by `tutor.labs.trace_summary`, and the learner's time in the category must fall to at most
   `max_category_ratio` of the shipped program's. On CPU, each rank's CPU time in the timed
   rounds stands in for the trace's busy time in every summary's straggler measure (and so in
   its category), and for a straggler each rank's FLOPs must be balanced too: see
   `_check_category`;
5. the step is faster: shipped / learner's time per step, in each one's best round or as the
   median of the rounds' paired ratios, is at least `min_speedup` (`measured_speedup`); where
   one reading clears it and the other does not, as many rounds again are timed first. A
   round's time is as long as its slowest rank's (for a straggler on CPU, by process CPU time:
   see `check_fix`).

lab.yaml `check:` sets `min_speedup`, `max_category_ratio`, `rounds`, `steps_per_round`,
`rtol`, `atol`.
"""

from __future__ import annotations

import os
import random
import statistics
import time

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs import trace_summary
from tutor.labs.measure import measurements_message
from tutor.labs.rank.context import compare
from tutor.labs.rank.perf import StepProfiler, gather_json, synchronize

NAMES = ("shipped", "yours")
WALL, CPU = 0, 1
"""Columns of a timed round: wall-clock seconds, the rank's process CPU seconds."""
MIN_WORK = 0.25
"""The least share of the shipped step's FLOPs a step must do (the straggler fix drops the
padding, about half of them; a step that does none is replaying work done elsewhere)."""
IDLE_CPU = 0.1
"""The share of the baseline's timed wall-clock a learner's process may spend on CPU meanwhile
(its own event writer and the collectives' threads use a little)."""


def check_fix(ctx, category: str) -> None:
    from tutor.labs.rank.baseline import Baseline
    from tutor.labs.rank.checking import SHIPPED_ENV

    params = lab.check_params()
    rounds, steps = int(params.get("rounds", 5)), int(params.get("steps_per_round", 3))
    min_speedup = float(params.get("min_speedup", 1.5))
    # A straggler on a shared CPU: while the fast rank waits in the all-reduce it gives its core
    # to the slow one or to other processes, so wall-clock steps on an oversubscribed machine
    # shrink the very imbalance being fixed. The slowest rank's CPU time per step is the step
    # as dedicated hardware would run it (it is the column the category check reads, too).
    cpu_straggler = category == "straggler" and ctx.device.type == "cpu"
    clock = CPU if cpu_straggler else WALL
    plan = _draw_rounds(rounds, steps)
    baseline = Baseline(ctx, os.environ[SHIPPED_ENV])  # before the learner's code is imported
    try:
        baseline.call("build")
        job = lab.load_program().build(ctx)
        job.step()  # warm-up: first-step allocations and caches
        flops = {"shipped": baseline.call("flops")["flops"], "yours": counted_step(job)}
        samples, results, idle = _rounds(ctx, baseline, job, plan)
        if readings_disagree(_round_times(gather_json(samples), plan, clock), min_speedup):
            first = len(plan)
            plan = plan + _draw_rounds(rounds, steps)
            for mine, more in zip((samples, results, idle), _rounds(ctx, baseline, job, plan, first)):
                mine.extend(more)
        summaries = {"shipped": baseline.call("profile", save=_save_path(ctx, "profile"))["summary"],
                     "yours": profiled(ctx, "yours", job)}
        results.append((2 + sum(plan) + 5, _load(ctx, "profile"), job.result()))
        samples = gather_json(samples)
        flops = gather_json(flops)
        if ctx.device.type == "cpu":
            # Every lab's, not only the straggler's: a shipped launch-bound program whose rank 1
            # shared a core with another process was called a straggler by its traces (CI, 2 cores).
            summaries = {name: trace_summary.restate_straggler(summaries[name], _cpu_per_step(samples, name, plan),
                                                               _cpu_skew(samples, name, plan))
                         for name in NAMES}
        _check_results(ctx, results, float(params.get("rtol", 1e-3)), float(params.get("atol", 1e-5)))
        _check_work(ctx, flops)
        _check_idle(ctx, idle)
        _check_category(ctx, category, summaries, float(params.get("max_category_ratio", 0.5)),
                        flops if cpu_straggler else None)
        _check_speedup(ctx, samples, plan, min_speedup, clock, extended=len(plan) > rounds)
    finally:
        baseline.close()
    ctx.finish()


def _draw_rounds(rounds: int, steps: int) -> list[int]:
    """Each round's step count, drawn by rank 0 from steps-1 … steps+1 (at least 2) on every check."""
    mine = [random.SystemRandom().randint(max(2, steps - 1), steps + 1) for _ in range(rounds)]
    return gather_json(mine)[0]


def _save_path(ctx, tag: object) -> str:
    folder = ctx.trace_dir.parent / "baseline"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"result-{tag}-rank{ctx.rank}.pt")


def _load(ctx, tag: object) -> dict:
    return torch.load(_save_path(ctx, tag), weights_only=True)


def timed_round(ctx, job, steps: int) -> tuple[list[float], dict]:
    """[wall, process CPU] seconds of `steps` steps and the `result()` after them, and that result.

    Process CPU time, not the main thread's: work handed to another thread is work too.
    """
    synchronize(ctx.device)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        job.step()
    result = job.result()
    synchronize(ctx.device)
    return [time.perf_counter() - start, time.process_time() - cpu], {key: value.detach().clone()
                                                                       for key, value in result.items()}


def counted_step(job) -> float:
    """The FLOPs of one step, counted by torch's dispatcher (matmuls forward and backward)."""
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with counter:
        job.step()
    return float(counter.get_total_flops())


def _rounds(ctx, baseline, job, plan: list[int], first: int = 0) -> tuple[list[dict], list[tuple], list[dict]]:
    """Alternating timed rounds, those of `plan` from `first` on. Returns this rank's
    samples[round][name] = [wall, CPU], the (steps so far, shipped result, your result) after
    each round, and, per shipped round, the baseline's wall time and this process's CPU time meanwhile."""
    samples, results, idle = [], [], []
    done = 2 + sum(plan[:first])  # the warm-up step, the counted one and the rounds before
    for index in range(first, len(plan)):
        steps = plan[index]
        order = NAMES if index % 2 == 0 else tuple(reversed(NAMES))
        times: dict[str, list[float]] = {}
        for name in order:
            dist.barrier()
            if name == "shipped":
                cpu = time.process_time()
                times[name] = baseline.call("round", steps=steps, save=_save_path(ctx, index))["times"]
                idle.append({"wall_s": times[name][WALL], "cpu_s": time.process_time() - cpu})
            else:
                times[name], yours = timed_round(ctx, job, steps)
        done += steps
        samples.append(times)
        results.append((done, _load(ctx, index), yours))
    return samples, results, idle


def _round_times(samples: list[list[dict]], plan: list[int], clock: int = WALL) -> list[dict[str, float]]:
    """Per round, each program's time per step, a round lasting as long as its slowest rank's."""
    return [{name: max(rank[index][name][clock] for rank in samples) / steps for name in NAMES}
            for index, steps in enumerate(plan)]


def _cpu_per_step(samples: list[list[dict]], name: str, plan: list[int]) -> dict[int, float]:
    """Each rank's median over the rounds of its CPU time per step."""
    return {rank: statistics.median(rounds[index][name][CPU] / steps for index, steps in enumerate(plan))
            for rank, rounds in enumerate(samples)}


def _cpu_skew(samples: list[list[dict]], name: str, plan: list[int]) -> float:
    """Median over the rounds of the slowest rank's CPU time per step minus the fastest's.

    On CPU, the straggler measure from the trace (wall-clock busy time) counts the time a rank
    was descheduled by other processes as work; CPU time does not, and a rank blocked in a
    collective uses none, so this is each rank's own work, whatever the machine's load.
    """
    skews = []
    for index, steps in enumerate(plan):
        cpu = [rank[index][name][CPU] for rank in samples]
        skews.append((max(cpu) - min(cpu)) / steps)
    return statistics.median(skews)


def profiled(ctx, name: str, job) -> dict:
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


def _check_results(ctx, results: list[tuple], rtol: float, atol: float) -> None:
    name = "results unchanged"
    worst = 0.0
    for steps, expected, actual in results:
        for key, want in expected.items():
            if key not in actual:
                ctx.check(name, False, f"your result() has no {key!r}")
                return
            passed, detail = compare(actual[key], want, rtol=rtol, atol=atol)
            if not passed:
                ctx.check(name, False, f"{key} differs from the shipped program's after {steps} steps: {detail}")
                return
            mine = actual[key].detach().double()
            if mine.numel():
                worst = max(worst, float((mine - want.to(mine.device).double()).abs().max()))
    ctx.check(name, True, f"{', '.join(results[0][1])} equal the shipped program's after every round "
                          f"({', '.join(str(steps) for steps, _, _ in results)} steps; largest difference "
                          f"{worst:.1e}; rtol {rtol:g}, atol {atol:g})")


def _check_work(ctx, flops: list[dict]) -> None:
    shipped, yours = (sum(rank[name] for rank in flops) for name in NAMES)
    passed = yours >= MIN_WORK * shipped
    ctx.check("the step does the model's work", passed,
              f"one step of yours: {yours / 1e6:.1f} MFLOP over all ranks, the shipped program's "
              f"{shipped / 1e6:.1f} (counted by torch's FlopCounterMode; needs ≥ {MIN_WORK:.0%})"
              + ("" if passed else ": the work the result depends on is done outside the step"),
              yours_flops=yours, shipped_flops=shipped)


def _check_idle(ctx, idle: list[dict]) -> None:
    wall = sum(item["wall_s"] for item in idle)
    cpu = sum(item["cpu_s"] for item in idle)
    passed = cpu <= IDLE_CPU * wall + 0.02
    ctx.check("your program is idle while the shipped one is timed", passed,
              f"your process used {cpu * 1e3:.0f} ms of CPU during the shipped program's "
              f"{wall * 1e3:.0f} ms of timed rounds (allowed {IDLE_CPU:.0%})"
              + ("" if passed else ": work in a background thread slows the baseline and is not timed"))


def _check_category(ctx, category: str, summaries: dict, max_ratio: float, flops: list[dict] | None) -> None:
    key, label = trace_summary.CATEGORY_TIME[category]
    shipped, yours = summaries["shipped"], summaries["yours"]
    before, after = shipped.get(key) or 0.0, yours.get(key) or 0.0
    passed = after <= max_ratio * before
    extra = ""
    if flops is not None:
        # CPU time can be evened out by burning it on the fast rank (findings D8); FLOPs cannot,
        # so the work itself must be balanced too.
        label = "straggler time (slowest rank's extra CPU time per step, timed rounds)"
        skew = {name: max(rank[name] for rank in flops) - min(rank[name] for rank in flops) for name in NAMES}
        balanced = skew["yours"] <= max_ratio * skew["shipped"]
        passed = passed and balanced
        per_rank = ", ".join(f"{rank['yours'] / 1e6:.1f}" for rank in flops)
        extra = (f"; work per rank: {per_rank} MFLOP, "
                 f"the busiest minus the least busy {skew['yours'] / 1e6:.1f} vs {skew['shipped'] / 1e6:.1f} "
                 f"shipped (needs ≤ {max_ratio:.0%})")
    # The traces' measurements, not their classification (a check of the shipped program must not
    # answer the lab's diagnosis question for the learner).
    detail = (f"{label}: {after * 1e3:.1f} ms per step, shipped {before * 1e3:.1f} ms "
              f"(needs ≤ {max_ratio:.0%} of the shipped){extra}; the shipped program's trace, "
              f"{measurements_message(shipped)}; yours, {measurements_message(yours)}")
    ctx.check(f"time lost to {category} is gone", passed, detail, shipped_s=before, yours_s=after)
    ctx.report(**{f"shipped_{key}": before, f"yours_{key}": after, "shipped_summary": _brief(shipped),
                  "yours_summary": _brief(yours)})


def measured_speedup(rounds: list[dict[str, float]]) -> tuple[float, float, float]:
    """(speedup by best rounds, by the median of paired ratios, the larger) over the timed rounds.

    The speedup is the larger of two readings, each robust to one kind of load on a shared
    machine, where other processes only ever add time. Each program's best round: bursts of load
    that miss one round of each (under three lab jobs at once exposed-comm's honest fix read
    1.22x by the paired median). The median of the rounds' paired ratios: load that lasts a
    while and spares neither program's rounds but one (CI: slow-dataloader's solution read 1.67x
    by best rounds, 112 ms shipped in the only light round, while its rounds' ratios were
    3.07x and 2.32x). A fix that is not fast enough is read slow by both; a cheat that moves work
    out of the timed steps is timed either way, since a round holds all its work.
    """
    yours = min(row["yours"] for row in rounds)
    best = min(row["shipped"] for row in rounds) / yours if yours > 0 else float("inf")
    paired = statistics.median(_ratios(rounds))
    return best, paired, max(best, paired)


def readings_disagree(rounds: list[dict[str, float]], min_speedup: float) -> bool:
    """Whether one reading of `measured_speedup` clears `min_speedup` and the other does not.

    Then the check times as many rounds again before it decides. Under CI load (2 cores, two lab
    jobs at once) the shipped exposed-comm program checked against itself read 1.62x by best
    rounds (51.6 vs 83.9 ms per step: every shipped round was slowed, one of its twin's was not);
    more rounds give each program more chances at a light one, and the best rounds meet again.
    """
    best, paired, _ = measured_speedup(rounds)
    return (best >= min_speedup) != (paired >= min_speedup)


def _ratios(rounds: list[dict[str, float]]) -> list[float]:
    return [row["shipped"] / row["yours"] if row["yours"] > 0 else float("inf") for row in rounds]


def _check_speedup(ctx, samples: list[list[dict]], plan: list[int], min_speedup: float, clock: int = WALL,
                   extended: bool = False) -> None:
    """`measured_speedup` of the rounds by `clock`. A round, not a single step: it holds all the
    work its result depends on, so work moved into one step of the round is still counted. The
    alternating order gives both programs the same chances. The step times reported are wall clock."""
    rounds = _round_times(samples, plan, clock)
    ratios = _ratios(rounds)
    best, paired, speedup = measured_speedup(rounds)
    yours, shipped = (min(row[name] for row in rounds) for name in ("yours", "shipped"))
    unit = "ms of the slowest rank's CPU time per step" if clock == CPU else "ms per step"
    ctx.check("faster than the shipped program", speedup >= min_speedup,
              f"{yours * 1e3:.1f} vs {shipped * 1e3:.1f} {unit} shipped in each one's best round: {best:.2f}×; "
              f"round by round {', '.join(f'{ratio:.2f}×' for ratio in ratios)}, median {paired:.2f}× "
              f"(needs ≥ {min_speedup:g}× by either; interleaved rounds of {', '.join(map(str, plan))} steps "
              f"and the result(){'; the rounds doubled: the two readings disagreed' if extended else ''})",
              speedup=speedup)
    walls = _round_times(samples, plan, WALL)
    ctx.report(speedup=speedup, round_speedups=ratios, step_time_s=min(row["yours"] for row in walls),
               shipped_step_time_s=min(row["shipped"] for row in walls))


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
            "launch_overhead_s", "straggler_s", "straggler_clock", "slowest_rank", "host_syncs_per_step",
            "ops_per_step")
    return {key: summary.get(key) for key in keep}

