"""Read torch.profiler chrome traces and say where each step's time went (lesson §slow-training).

Each profiled step of each rank is cut into parts that add up to the step:

- **data wait**: from the step's start to its first operation (CPU) or first kernel (GPU):
  the time the step waits for its batch;
- **exposed communication**: collective time not covered by computation (gloo's worker-thread
  spans on CPU, NCCL kernels on GPU, minus the union of compute ops or kernels);
- **launch overhead**: gaps between operations plus the time inside tiny operations (CPU), or
  the device idle between kernels (GPU): a step made of many small ops is bound by launching
  them, not by computing them;
- **compute**: the rest.

Ranks are then compared: the true communication cost of a step is the *smallest* exposed
communication of any rank (the rank that arrives last at a collective waits only for the
transfer; the others also wait for it), and the **straggler** time is how much longer the
slowest rank computes than the fastest, each in its least busy step. The largest category over a threshold names the
step's problem; none over it means the step is compute-bound.

Standard library only: the core reads the run's traces after a run, and the rank-side checker
reads its own traces with the same code.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable
from pathlib import Path

CATEGORIES = ("data-loading", "communication", "compute", "straggler")
CATEGORY_TIME = {"data-loading": ("data_wait_s", "data wait"),
                 "communication": ("exposed_comm_s", "exposed communication"),
                 "straggler": ("straggler_s", "straggler time (slowest rank's extra compute)"),
                 "compute": ("launch_overhead_s", "launch overhead (gaps between and inside tiny ops)")}
"""Each category's time in a summary (the key) and its name, as the fix check reports it."""
TINY_OP_S = 50e-6
"""A CPU op shorter than this is mostly dispatch and autograd overhead (a 4×4 add costs ~10 µs
through PyTorch on a laptop core, a 32×64×256 matmul with its autograd record a few tens)."""
THRESHOLDS = {"data": 0.2, "communication": 0.2, "straggler": 0.3, "launch": 0.3}
"""Share of a step above which a category is called the step's problem. Straggler and launch
overhead sit higher: on a shared laptop core, noise alone makes some rank a few ms late, and
every op pays some dispatch."""
HOST_SYNC_OPS = ("aten::_local_scalar_dense",)  # what `.item()`, `float(t)` and `if t:` come down to
CUDA_SYNCS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize")
DEVICE_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
STEP_NAME = re.compile(r"^ProfilerStep#(\d+)$")
TRACE_RANK = re.compile(r"rank(\d+)")


def is_comm(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith(("gloo:", "c10d::", "record_param_comms")) or "nccl" in lowered


def load(path: str | Path) -> list[dict]:
    """The complete ('X') events of one chrome trace file."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    events = data.get("traceEvents", []) if isinstance(data, dict) else data
    return [event for event in events if isinstance(event, dict) and event.get("ph") == "X" and "dur" in event]


# ---------------------------------------------------------------- interval arithmetic (seconds)

def union(intervals: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for start, end in sorted(item for item in intervals if item[1] > item[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def subtract(intervals: list[tuple[float, float]], minus: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Parts of the (merged) `intervals` outside the (merged) `minus`."""
    result = []
    for start, end in intervals:
        cursor = start
        for cut_start, cut_end in minus:
            if cut_end <= cursor or cut_start >= end:
                continue
            if cut_start > cursor:
                result.append((cursor, cut_start))
            cursor = max(cursor, cut_end)
        if cursor < end:
            result.append((cursor, end))
    return result


def clip(intervals: Iterable[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    return [(max(start, lo), min(end, hi)) for start, end in intervals if end > lo and start < hi]


def total(intervals: Iterable[tuple[float, float]]) -> float:
    return sum(end - start for start, end in intervals)


def _span(event: dict) -> tuple[float, float]:
    start = float(event["ts"]) / 1e6
    return start, start + float(event["dur"]) / 1e6


# ---------------------------------------------------------------- one rank

def rank_steps(events: list[dict]) -> list[dict]:
    """Per profiled step of one rank's trace: where its time went (seconds)."""
    steps = sorted((event for event in events if STEP_NAME.match(str(event.get("name", "")))),
                   key=lambda event: event["ts"])
    if not steps:
        return []
    if any(event.get("cat") in DEVICE_CATS for event in events):
        return _device_steps(events, steps)
    return _host_steps(events, steps)


def _waits(ops: list[dict]) -> list[tuple[float, float]]:
    """Where the main thread waits for a collective it called: from the call to the next op it
    starts, or to the end of the op that made the call (a blocking all-reduce in a gradient
    hook waits inside autograd's AccumulateGrad, and the wait has no op of its own).
    `ops` are sorted by start, longest first."""
    spans = [_span(event) for event in ops]
    waits = []
    for index, event in enumerate(ops):
        if not is_comm(str(event.get("name", ""))):
            continue
        start, end = spans[index]
        parents = [other_end for other_start, other_end in spans[:index] if other_start <= start and other_end >= end]
        until = min(parents) if parents else end
        later = [other_start for other_start, _ in spans[index + 1:] if other_start >= end]
        waits.append((start, max(end, min([until, *later[:1]]))))
    return union(waits)


def _host_steps(events: list[dict], steps: list[dict]) -> list[dict]:
    """CPU: the main thread's top-level ops are the computation; gloo's threads the communication."""
    main = steps[0].get("tid")
    ops = sorted((event for event in events if event.get("cat") == "cpu_op" and event.get("tid") == main),
                 key=lambda event: (event["ts"], -event["dur"]))
    top, reach = [], float("-inf")
    for event in ops:  # ops nested in another op belong to it
        start, end = _span(event)
        if start >= reach:
            top.append((event, start, end))
            reach = end
        else:
            reach = max(reach, end)
    comm_spans = union(_span(event) for event in events if is_comm(str(event.get("name", ""))))
    main_comm = _waits(ops)
    syncs = [_span(event)[0] for event in events if event.get("name") in HOST_SYNC_OPS]
    result = []
    for step in steps:
        s0, s1 = _span(step)
        work = [(event, max(start, s0), min(end, s1)) for event, start, end in top
                if end > s0 and start < s1 and not is_comm(str(event.get("name", "")))]
        first = min((start for _, start, _ in work), default=s1)
        # Waiting for a collective called from inside an op is not computing: cut it out.
        compute = subtract(union((start, end) for _, start, end in work), clip(main_comm, s0, s1))
        exposed = subtract(subtract(union(clip(comm_spans, s0, s1)), compute), [(s0, first)])
        busy = union([*compute, *exposed, (s0, first)])
        tiny = sum(end - start for _, start, end in work if end - start < TINY_OP_S)
        gaps = (s1 - s0) - total(busy)
        durations = [end - start for _, start, end in work]
        result.append(_step_record(step, s0, s1, data=first - s0, exposed=total(exposed), launch=gaps + tiny,
                                   compute=total(compute) - tiny, comm_total=total(clip(comm_spans, s0, s1)),
                                   ops=len(work), median_op_s=statistics.median(durations) if durations else 0.0,
                                   host_syncs=sum(s0 <= t < s1 for t in syncs)))
    return result


def _device_steps(events: list[dict], steps: list[dict]) -> list[dict]:
    """GPU: kernels, assigned to the step whose host code launched them (by correlation id)."""
    launched = {event["args"]["correlation"]: float(event["ts"]) / 1e6 for event in events
                if event.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in (event.get("args") or {})}
    kernels = [event for event in events if event.get("cat") in DEVICE_CATS]
    syncs = [_span(event)[0] for event in events
             if event.get("name") in CUDA_SYNCS or event.get("name") in HOST_SYNC_OPS]
    windows = [_span(step) for step in steps]
    per_step: list[list[dict]] = [[] for _ in steps]
    for kernel in kernels:
        at = launched.get((kernel.get("args") or {}).get("correlation"), _span(kernel)[0])
        for index, (h0, h1) in enumerate(windows):
            if h0 <= at < h1:
                per_step[index].append(kernel)
                break
    result, previous_end = [], None
    for step, (h0, h1), mine in zip(steps, windows, per_step):
        if not mine:
            continue
        spans = [_span(kernel) for kernel in mine]
        w0 = h0 if previous_end is None else previous_end
        w1 = max(end for _, end in spans)
        first = min(start for start, _ in spans)
        comm = union(span for span, kernel in zip(spans, mine) if is_comm(str(kernel.get("name", ""))))
        compute = union(span for span, kernel in zip(spans, mine) if not is_comm(str(kernel.get("name", ""))))
        exposed = subtract(comm, compute)
        data = max(0.0, first - w0)
        gaps = max(0.0, (w1 - w0) - data - total(union([*compute, *comm])))
        durations = [end - start for start, end in spans]
        result.append(_step_record(step, w0, w1, data=data, exposed=total(exposed), launch=gaps,
                                   compute=total(compute), comm_total=total(comm), ops=len(mine),
                                   median_op_s=statistics.median(durations),
                                   host_syncs=sum(h0 <= t < h1 for t in syncs)))
        previous_end = w1
    return result


def _step_record(step: dict, start: float, end: float, **parts: float) -> dict:
    return {"step": int(STEP_NAME.match(step["name"]).group(1)), "start_s": start, "duration_s": end - start,
            **{key: (int(value) if key in ("ops", "host_syncs") else float(value)) for key, value in parts.items()}}


# ---------------------------------------------------------------- all ranks

def combine(per_rank: dict[int, list[dict]], thresholds: dict[str, float] | None = None) -> dict:
    """The job's summary from every rank's steps: the category, the message, the facts behind it."""
    limits = {**THRESHOLDS, **(thresholds or {})}
    ranks = sorted(rank for rank, steps in per_rank.items() if steps)
    if not ranks:
        return {"category": None, "message": "no profiled steps in the traces", "ranks": []}
    common = sorted(set.intersection(*({step["step"] for step in per_rank[rank]} for rank in ranks)))
    by_step = {rank: {step["step"]: step for step in per_rank[rank]} for rank in ranks}
    rows = []
    for number in common:
        records = {rank: by_step[rank][number] for rank in ranks}
        own = {rank: record["duration_s"] - record["exposed"] for rank, record in records.items()}
        rows.append({
            "duration": statistics.median(record["duration_s"] for record in records.values()),
            "data": statistics.median(record["data"] for record in records.values()),
            "communication": min(record["exposed"] for record in records.values()),
            "launch": statistics.median(record["launch"] for record in records.values()),
            "own": own,
            "ops": statistics.median(record["ops"] for record in records.values()),
            "median_op_s": statistics.median(record["median_op_s"] for record in records.values()),
            "host_syncs": max(record["host_syncs"] for record in records.values()),
        })
    if not rows:
        return {"category": None, "message": "the ranks' traces share no profiled step", "ranks": ranks}
    median = {key: statistics.median(row[key] for row in rows)
              for key in ("duration", "data", "communication", "launch", "ops", "median_op_s", "host_syncs")}
    # Each rank's least busy step, compared. On a shared machine noise makes some rank late in
    # any single step (a rank descheduled mid-compute looks busy longer), and noise only ever
    # adds time; a straggler is late even in its best step.
    own = {rank: min(row["own"][rank] for row in rows) for rank in ranks}
    slowest, fastest = max(own, key=own.get), min(own, key=own.get)
    median["straggler"] = own[slowest] - own[fastest]
    step = median["duration"] or 1e-12
    fractions = {key: median[key] / step for key in ("data", "communication", "launch", "straggler")}
    summary = {
        "steps_profiled": [int(number) for number in common],
        "step_time_s": median["duration"],
        "data_wait_s": median["data"],
        "exposed_comm_s": median["communication"],
        "launch_overhead_s": median["launch"],
        "straggler_s": median["straggler"],
        "fractions": {key: round(value, 4) for key, value in fractions.items()},
        "ops_per_step": int(median["ops"]),
        "median_op_us": round(median["median_op_s"] * 1e6, 1),
        "host_syncs_per_step": int(median["host_syncs"]),
        "per_rank_busy_s": {rank: own[rank] for rank in ranks},
        "slowest_rank": {"rank": slowest, "by_s": own[slowest] - own[fastest],
                         "ratio": own[slowest] / own[fastest] if own[fastest] > 0 else None,
                         "fastest": fastest} if len(ranks) > 1 else None,
        "ranks": ranks,
    }
    summary["category"], summary["finding"] = _category(fractions, limits)
    summary["message"] = _message(summary)
    return summary


def restate_straggler(summary: dict, per_rank_s: dict[int, float], skew_s: float,
                      thresholds: dict[str, float] | None = None) -> dict:
    """`summary` with its straggler time measured another way: each rank's own work per step
    (`per_rank_s`, process CPU time on a CPU machine) and the slowest minus the fastest (`skew_s`),
    and the category, finding and message decided again from it.

    On an oversubscribed CPU a rank that shares its core with another process is busy longer in
    wall-clock time in every profiled step, and the traces call it a straggler; its CPU time
    does not grow (tutor.labs.rank.perfcheck times the rounds both ways).
    """
    if len(per_rank_s) < 2 or not summary.get("step_time_s"):
        return summary
    slowest, fastest = max(per_rank_s, key=per_rank_s.get), min(per_rank_s, key=per_rank_s.get)
    restated = {**summary, "straggler_s": skew_s, "straggler_clock": "cpu",
                "fractions": {**summary["fractions"], "straggler": round(skew_s / summary["step_time_s"], 4)},
                "slowest_rank": {"rank": slowest, "by_s": skew_s, "fastest": fastest,
                                 "ratio": per_rank_s[slowest] / per_rank_s[fastest] if per_rank_s[fastest] > 0 else None}}
    restated["category"], restated["finding"] = _category(restated["fractions"], {**THRESHOLDS, **(thresholds or {})})
    restated["message"] = _message(restated)
    return restated


def _category(fractions: dict[str, float], limits: dict[str, float]) -> tuple[str, str]:
    over = {key: value for key, value in fractions.items() if value >= limits[key]}
    if not over:
        return "compute", "compute-bound"
    key = max(over, key=lambda name: over[name] / limits[name])
    return {"data": ("data-loading", "data wait"), "communication": ("communication", "exposed communication"),
            "straggler": ("straggler", "straggler"), "launch": ("compute", "launch-bound")}[key]


def _message(summary: dict) -> str:
    fractions, finding = summary["fractions"], summary["finding"]
    ms = lambda seconds: f"{seconds * 1e3:.1f} ms"  # noqa: E731
    step = f"of a {ms(summary['step_time_s'])} step"
    if finding == "data wait":
        return (f"data loading: each step waits {ms(summary['data_wait_s'])} ({fractions['data']:.0%} {step}) "
                f"before its first operation — idle until the batch is ready")
    if finding == "exposed communication":
        return (f"communication: {ms(summary['exposed_comm_s'])} per step ({fractions['communication']:.0%} {step}) "
                f"of communication not overlapped with compute")
    if finding == "straggler":
        slow = summary["slowest_rank"]
        clock = " of CPU time" if summary.get("straggler_clock") == "cpu" else ""
        return (f"straggler: rank {slow['rank']} computes {ms(slow['by_s'])}{clock} longer per step than rank "
                f"{slow['fastest']} ({fractions['straggler']:.0%} {step}); the others wait for it in the collective")
    if finding == "launch-bound":
        return (f"compute, launch-bound: {fractions['launch']:.0%} {step} is gaps between and inside tiny ops "
                f"({summary['ops_per_step']} ops per step, median {summary['median_op_us']:.0f} µs); "
                f"{summary['host_syncs_per_step']} host sync(s) per step (.item())")
    return (f"compute-bound: no data wait, exposed communication, straggler or launch overhead above its "
            f"threshold (data {fractions['data']:.0%}, communication {fractions['communication']:.0%}, "
            f"straggler {fractions['straggler']:.0%}, launch {fractions['launch']:.0%} {step})")


def summarize_files(paths: Iterable[str | Path], thresholds: dict[str, float] | None = None) -> dict:
    """The summary of a run's traces, one file per rank (`rankN` in the file name)."""
    per_rank: dict[int, list[dict]] = {}
    files = []
    for index, path in enumerate(sorted(Path(p) for p in paths)):
        match = TRACE_RANK.search(path.name)
        rank = int(match.group(1)) if match else index
        try:
            per_rank[rank] = rank_steps(load(path))
        except (OSError, ValueError, KeyError, TypeError):  # a trace cut short by a kill: skip it
            continue
        files.append(str(path))
    summary = combine(per_rank, thresholds)
    summary["trace_files"] = files
    return summary
