"""Controlled experiments for the perf labs (lesson §slow-training, step 4): change one variable.

- `vary_ranks`: the same program on one rank and on N; tokens/s per rank and the scaling
  efficiency tokens/s(N) / (N × tokens/s(1)). Data-parallel work that scales perfectly keeps
  100%; communication and stragglers show up as the loss.
- `vary_data`: the same program with its own loader and with `--synthetic-data` (batches of
  the same shape that cost nothing to make); a big difference convicts the data loader.
- `bandwidth`: all-reduce time per buffer size, and algbw and busbw exactly as nccl-tests
  defines them, from the engine's `coll_algbw` and `allreduce_busbw`.

The runs go through the same runner as `tutor lab run` (evidence, cleanup); they run one after
the other, so on a busy machine repeat an experiment before trusting a small difference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.errors import UserInputError
from tutor.labs.run_options import RunOptions, run_spec
from tutor.labs.catalog import LabEntry
from tutor.labs.measure import blind
from tutor.labs import runner
from tutor.labs.runner import RunEvent, RunSpec

if TYPE_CHECKING:
    from tutor.store import Store

VARIABLES = ("ranks", "data")
BANDWIDTH_PROGRAM = Path(__file__).resolve().parent / "rank" / "bandwidth.py"


def _run(spec: RunSpec, on_event: Callable[[RunEvent], None] | None,
         on_run: Callable[[runner.LabRun], None] | None = None) -> dict:
    """One run of an experiment; `on_run` is handed each run before it starts, so a caller (the
    app's F7) can cancel it: a run cancelled before it starts ends at once."""
    # looked up at the call, not bound at import: a stand-in for runner.LabRun (tests) reaches every caller
    run = runner.LabRun(spec, on_event=on_event)
    if on_run is not None:
        on_run(run)
    return run.run()


def _row(label: str, evidence: dict) -> dict:
    metrics = evidence.get("metrics") or {}
    world = evidence.get("world_size") or 1
    tokens_per_s = metrics.get("tokens_per_s")
    return {"label": label, "world_size": world, "outcome": evidence["outcome"],
            "step_time_s": metrics.get("step_time_s"), "tokens_per_s": tokens_per_s,
            "tokens_per_s_per_rank": tokens_per_s / world if tokens_per_s else None, "mfu": metrics.get("mfu"),
            "category": (evidence.get("summary") or {}).get("category"),
            "summary": (evidence.get("summary") or {}).get("message"),
            "measured": (blind(evidence).get("summary") or {}).get("message"), "run_dir": evidence.get("run_dir")}


def _needs_meter(entry: LabEntry) -> None:
    if entry.lab.kind != "perf":
        raise UserInputError(f"experiments are for the perf labs; {entry.name} is a {entry.lab.kind} lab",
                             zh=f"实验只用于 perf 类实验；{entry.name} 是 {entry.lab.kind} 类的")


def vary_ranks(entry: LabEntry, options: RunOptions, on_event=None, on_run=None) -> dict:
    _needs_meter(entry)
    world = options.world_size or entry.lab.world_size
    if world < 2:
        raise UserInputError("--vary ranks compares 1 rank with N: give --world-size 2 or more",
                             zh="--vary ranks 比较 1 个 rank 和 N 个 rank：请给 --world-size 2 或更大")
    rows = [_row(f"{size} rank{'s' if size > 1 else ''}",
                 _run(run_spec(entry, replace(options, world_size=size)), on_event, on_run))
            for size in (1, world)]
    one, many = rows
    result = {"experiment": "ranks", "lab": entry.name, "runs": rows, "scaling_efficiency": None}
    if one["tokens_per_s"] and many["tokens_per_s"]:
        efficiency = many["tokens_per_s"] / (world * one["tokens_per_s"])
        result["scaling_efficiency"] = efficiency
        result["message"] = (f"{world} ranks make {many['tokens_per_s']:,.0f} tokens/s, {efficiency:.0%} of {world} × "
                             f"one rank's {one['tokens_per_s']:,.0f}: "
                             + ("the ranks add little overhead" if efficiency >= 0.85 else
                                "adding ranks costs time per step — look at communication and at the slowest rank"))
    else:
        result["message"] = "a run did not finish; see its run folder"
    return result


def vary_data(entry: LabEntry, options: RunOptions, on_event=None, on_run=None) -> dict:
    _needs_meter(entry)
    real = _row("its own loader", _run(run_spec(entry, options), on_event, on_run))
    with_synthetic = replace(options, program_args=(*options.program_args, "--synthetic-data"))
    synthetic = _row("synthetic data", _run(run_spec(entry, with_synthetic), on_event, on_run))
    result = {"experiment": "data", "lab": entry.name, "runs": [real, synthetic], "speedup_with_synthetic": None}
    if real["step_time_s"] and synthetic["step_time_s"]:
        ratio = real["step_time_s"] / synthetic["step_time_s"]
        result["speedup_with_synthetic"] = ratio
        result["message"] = (f"synthetic data makes the step {ratio:.2f}× as fast ({real['step_time_s'] * 1e3:.1f} → "
                             f"{synthetic['step_time_s'] * 1e3:.1f} ms)")
        result["conclusion"] = ("the loader is on the critical path" if ratio >= 1.25 else
                                "the data loader is not what slows the step")
    else:
        result["message"] = "a run did not finish; see its run folder"
    return result


def bandwidth(world_size: int, backend: str, sizes: str, iters: int, timeout_s: float = 120.0,
              on_event=None) -> dict:
    """Run the all-reduce benchmark and compute algbw and busbw with the engine."""
    if world_size < 2:
        raise UserInputError("--world-size must be at least 2: an all-reduce needs someone to reduce with",
                             zh="--world-size 至少要 2：all-reduce 得有另一方一起归约")
    spec = RunSpec(lab="bandwidth", program=BANDWIDTH_PROGRAM, world_size=world_size, backend=backend,
                   timeout_s=timeout_s, args=("--sizes", sizes, "--iters", str(iters)))
    evidence = _run(spec, on_event)
    rows = (evidence.get("metrics") or {}).get("all_reduce") or []
    return {"experiment": "bandwidth", "collective": "all_reduce", "world_size": world_size, "backend": backend,
            "outcome": evidence["outcome"], "summary": (evidence.get("summary") or {}).get("message"),
            "rows": bandwidth_rows(rows, world_size), "run_dir": evidence.get("run_dir")}


def bandwidth_rows(rows: list[dict], world_size: int) -> list[dict]:
    """algbw = S/t and busbw = algbw × 2(n−1)/n per row, in B/s (nccl-tests doc/PERFORMANCE.md)."""
    from tutor.sizing.engine import evaluate

    table = []
    for row in rows:
        inputs = {"message_bytes": row["bytes"], "coll_time": row["time_s"]}
        table.append({**row, "algbw": float(evaluate("coll_algbw", **inputs)),
                      "busbw": float(evaluate("allreduce_busbw", **inputs, ranks=world_size))})
    return table


def bandwidth_text(result: dict) -> list[str]:
    """The table as all_reduce_perf prints it (time in µs, bandwidths in GB/s = 1e9 B/s)."""
    lines = [f"all_reduce over {result['world_size']} ranks ({result['backend']}): {result['outcome']}",
             f"{'size (B)':>12} {'count':>10} {'type':>6} {'redop':>6} {'time (us)':>10} {'algbw':>8} "
             f"{'busbw':>8} {'#wrong':>7}"]
    for row in result["rows"]:
        lines.append(f"{row['bytes']:>12} {row['count']:>10} {row['type']:>6} {row['redop']:>6} "
                     f"{row['time_s'] * 1e6:>10.1f} {row['algbw'] / 1e9:>8.3f} {row['busbw'] / 1e9:>8.3f} "
                     f"{row['wrong']:>7}")
    lines.append("algbw = S/t; busbw = algbw × 2(n−1)/n, comparable with a link's rating at any rank count "
                 "(nccl-tests doc/PERFORMANCE.md)")
    if result.get("run_dir"):
        lines.append(f"evidence: {result['run_dir']}")
    return lines


def experiment_text(result: dict) -> list[str]:
    lines = [f"{result['lab']}: {result['experiment']} experiment"]
    for row in result["runs"]:
        step = f"{row['step_time_s'] * 1e3:8.1f} ms" if row["step_time_s"] else "       - ms"
        rate = f"{row['tokens_per_s']:>10,.0f} tokens/s" if row["tokens_per_s"] else "         - tokens/s"
        mfu = f"MFU {row['mfu']:.1%}" if row["mfu"] else ""
        lines.append(f"  {row['label']:<16} {row['outcome']:<7} step {step}  {rate}  {mfu}")
        if row.get("summary"):
            lines.append(f"  {'':<16} {row['summary']}")
    lines.append(f"  {result.get('message', '')}" + (f": {result['conclusion']}" if result.get("conclusion") else ""))
    return lines


def for_learner(store: Store | None, result: dict, lab: str) -> dict:
    """The experiment as shown before a diagnosis attempt (in `store`): measurements, no category,
    no conclusion (see tutor.labs.report.for_learner)."""
    from tutor.labs.history import has_diagnosed

    if has_diagnosed(store, lab):
        return result
    shown = {**result, "runs": [{**row, "category": None, "summary": row.get("measured")}
                                for row in result.get("runs") or []]}
    shown.pop("conclusion", None)
    return shown
