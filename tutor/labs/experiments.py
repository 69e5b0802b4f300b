"""Controlled experiments for the perf labs (lesson §slow-training, step 4): change one variable.

- `vary_ranks`: the same program on one rank and on N; tokens/s per rank and the scaling
  efficiency tokens/s(N) / (N × tokens/s(1)). Data-parallel work that scales perfectly keeps
  100%; communication and stragglers show up as the loss.
- `vary_data`: the same program with its own loader and with `--synthetic-data` (batches of
  the same shape that cost nothing to make); a big difference convicts the data loader. The two
  runs are compared by their best timed step (each rank's fastest, the job's slowest of those):
  the runs are minutes apart on a shared machine, and a burst of someone else's work slows a
  median but rarely every step.
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
from tutor.text import T
from tutor.labs.run_options import RunOptions, run_spec
from tutor.labs.catalog import LabEntry
from tutor.labs.measure import blind
from tutor.labs import runner
from tutor.labs.runner import RunEvent, RunSpec

if TYPE_CHECKING:
    from tutor.store import Store

VARIABLES = ("ranks", "data")
# Synthetic data this much faster puts the loader on the critical path (the conclusion's threshold).
LOADER_BOUND_SPEEDUP = 1.25
BANDWIDTH_PROGRAM = Path(__file__).resolve().parent / "rank" / "bandwidth.py"

ERRORS = {
    "not_perf": T("experiments are for the perf labs; {lab} is a {kind} lab", "控制变量实验只用于性能类实验；{lab} 是{kind}类的"),
    "one_rank": T("--vary ranks compares 1 rank with N: give --world-size 2 or more",
                  "--vary ranks 比较 1 个 rank 和 N 个 rank：请给 --world-size 2 或更大"),
    "bandwidth_ranks": T("--world-size must be at least 2: an all-reduce needs someone to reduce with",
                         "--world-size 至少要 2：all-reduce 得有另一方一起归约"),
}
# An experiment's result keeps its English (`--json`, the history); its text is made again from
# the numbers in the learner's language.
LABELS = {
    "one_rank": T("1 rank", "1 个 rank"),
    "ranks": T("{count} ranks", "{count} 个 rank"),
    "own_loader": T("its own loader", "程序自己的 loader"),
    "synthetic": T("synthetic data", "合成数据"),
    "scaling": T("{world} ranks make {many:,.0f} tokens/s, {efficiency:.0%} of {world} × one rank's {one:,.0f}: {verdict}",
                 "{world} 个 rank 每秒 {many:,.0f} 个 token，是 {world} × 单个 rank（{one:,.0f}）的 {efficiency:.0%}："
                 "{verdict}"),
    "scales": T("the ranks add little overhead", "加 rank 几乎没有额外开销"),
    "costs": T("adding ranks costs time per step — look at communication and at the slowest rank",
               "加 rank 让每步变慢了——去看通信和最慢的那个 rank"),
    "synthetic_speedup": T("synthetic data makes the step {ratio:.2f}× as fast ({real:.1f} → {synthetic:.1f} ms, "
                           "best timed step)",
                           "换成合成数据后，每步快到 {ratio:.2f} 倍（{real:.1f} → {synthetic:.1f} ms，取最快的计时 step）"),
    "loader_bound": T("the loader is on the critical path", "loader 在关键路径上"),
    "loader_fine": T("the data loader is not what slows the step", "拖慢每步的不是 data loader"),
    "concluded": T("{message}: {conclusion}", "{message}：{conclusion}"),
    "unfinished": T("a run did not finish; see its run folder", "有一次运行没跑完；见它的运行目录"),
    "experiment": T("{lab}: {variable} experiment", "{lab}：控制变量实验，变量：{variable}"),
    "variable.ranks": T("ranks", "rank 数"),
    "variable.data": T("data", "数据"),
    "step": T("step", "每步"),
    "bandwidth": T("all_reduce over {ranks} ranks ({backend}): {outcome}", "all_reduce，{ranks} 个 rank（{backend}）：{outcome}"),
    "columns": T("size (B)|count|type|redop|time (us)|algbw|busbw|#wrong",
                 "大小 (B)|元素数|类型|归约|时间 (us)|algbw|busbw|错误数"),
    "busbw": T("algbw = S/t; busbw = algbw × 2(n−1)/n, comparable with a link's rating at any rank count "
               "(nccl-tests doc/PERFORMANCE.md)",
               "algbw = S/t；busbw = algbw × 2(n−1)/n，任何 rank 数下都能直接和链路的标称带宽比较"
               "（nccl-tests doc/PERFORMANCE.md）"),
    "evidence": T("evidence: {path}", "证据：{path}"),
}


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
            "step_time_s": metrics.get("step_time_s"), "best_step_time_s": best_step_time(metrics),
            "tokens_per_s": tokens_per_s,
            "tokens_per_s_per_rank": tokens_per_s / world if tokens_per_s else None, "mfu": metrics.get("mfu"),
            "category": (evidence.get("summary") or {}).get("category"),
            "summary": (evidence.get("summary") or {}).get("message"),
            "measured": (blind(evidence).get("summary") or {}).get("message"), "run_dir": evidence.get("run_dir")}


def best_step_time(metrics: dict) -> float | None:
    """The job's best timed step: each rank's fastest step outside the warm-up and the profiled
    window (tutor.labs.rank.perf.Meter.timed_step_times), the slowest rank's of those, since every
    rank waits for the slowest at the gradient all-reduce."""
    skipped = set(metrics.get("profiled_steps") or ()) | {0}
    fastest = [min(timed) for times in (metrics.get("per_rank_step_times_s") or {}).values()
               if (timed := [t for index, t in enumerate(times) if index not in skipped])]
    return max(fastest) if fastest else metrics.get("step_time_s")


def _compared_step(row: dict) -> float | None:
    # a result recorded before rows kept their best step (the history) compares its medians
    return row.get("best_step_time_s") or row["step_time_s"]


def _needs_meter(entry: LabEntry) -> None:
    if entry.lab.kind != "perf":
        from tutor.labs.report import KINDS

        raise UserInputError(ERRORS["not_perf"].filled(lab=entry.name, kind=KINDS[entry.lab.kind]))


def vary_ranks(entry: LabEntry, options: RunOptions, on_event=None, on_run=None) -> dict:
    _needs_meter(entry)
    world = options.world_size or entry.lab.world_size
    if world < 2:
        raise UserInputError(ERRORS["one_rank"])
    rows = [_row(_ranks_label(size).en, _run(run_spec(entry, replace(options, world_size=size)), on_event, on_run))
            for size in (1, world)]
    one, many = rows
    result = {"experiment": "ranks", "lab": entry.name, "runs": rows, "scaling_efficiency": None}
    if one["tokens_per_s"] and many["tokens_per_s"]:
        result["scaling_efficiency"] = many["tokens_per_s"] / (world * one["tokens_per_s"])
    result["message"] = message(result).en
    return result


def _ranks_label(size: int) -> T:
    return LABELS["one_rank"] if size == 1 else LABELS["ranks"].filled(count=size)


def vary_data(entry: LabEntry, options: RunOptions, on_event=None, on_run=None) -> dict:
    _needs_meter(entry)
    real = _row(LABELS["own_loader"].en, _run(run_spec(entry, options), on_event, on_run))
    with_synthetic = replace(options, program_args=(*options.program_args, "--synthetic-data"))
    synthetic = _row(LABELS["synthetic"].en, _run(run_spec(entry, with_synthetic), on_event, on_run))
    result = {"experiment": "data", "lab": entry.name, "runs": [real, synthetic], "speedup_with_synthetic": None}
    slow, fast = _compared_step(real), _compared_step(synthetic)
    if slow and fast:
        result["speedup_with_synthetic"] = slow / fast
    result["message"] = message(result).en
    if result["speedup_with_synthetic"] is not None:
        result["conclusion"] = conclusion(result).en
    return result


def message(result: dict) -> T:
    """What an experiment measured, in one sentence, from its numbers."""
    runs = result["runs"]
    if result["experiment"] == "ranks" and result.get("scaling_efficiency") is not None:
        one, many = runs
        efficiency = result["scaling_efficiency"]
        return LABELS["scaling"].filled(world=many["world_size"], many=many["tokens_per_s"], one=one["tokens_per_s"],
                                        efficiency=efficiency, verdict=LABELS["scales" if efficiency >= 0.85 else "costs"])
    if result["experiment"] == "data" and result.get("speedup_with_synthetic") is not None:
        real, synthetic = runs
        return LABELS["synthetic_speedup"].filled(ratio=result["speedup_with_synthetic"],
                                                  real=_compared_step(real) * 1e3,
                                                  synthetic=_compared_step(synthetic) * 1e3)
    return LABELS["unfinished"]


def conclusion(result: dict) -> T:
    """What the data experiment says of the loader (shown once the learner has tried a diagnosis)."""
    return LABELS["loader_bound" if result["speedup_with_synthetic"] >= LOADER_BOUND_SPEEDUP else "loader_fine"]


def bandwidth(world_size: int, backend: str, sizes: str, iters: int, timeout_s: float = 120.0,
              on_event=None) -> dict:
    """Run the all-reduce benchmark and compute algbw and busbw with the engine."""
    if world_size < 2:
        raise UserInputError(ERRORS["bandwidth_ranks"])
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


def bandwidth_text(result: dict, lang: str = "en") -> list[str]:
    """The table as all_reduce_perf prints it (time in µs, bandwidths in GB/s = 1e9 B/s)."""
    from tutor.labs.report import OUTCOMES, pad

    widths = (12, 10, 6, 6, 10, 8, 8, 7)
    outcome = OUTCOMES[result["outcome"]].get(lang) if result["outcome"] in OUTCOMES else result["outcome"]
    lines = [LABELS["bandwidth"].format(lang, ranks=result["world_size"], backend=result["backend"], outcome=outcome),
             " ".join(pad(name, width, right=True) for name, width in zip(LABELS["columns"].get(lang).split("|"), widths))]
    for row in result["rows"]:
        lines.append(f"{row['bytes']:>12} {row['count']:>10} {row['type']:>6} {row['redop']:>6} "
                     f"{row['time_s'] * 1e6:>10.1f} {row['algbw'] / 1e9:>8.3f} {row['busbw'] / 1e9:>8.3f} "
                     f"{row['wrong']:>7}")
    lines.append(LABELS["busbw"].get(lang))
    if result.get("run_dir"):
        lines.append(LABELS["evidence"].format(lang, path=result["run_dir"]))
    return lines


def experiment_text(result: dict, lang: str = "en") -> list[str]:
    """The experiment's runs side by side and what they measured, in `lang` (its result keeps the English)."""
    from tutor.labs.check_names import check_detail
    from tutor.labs.report import OUTCOMES, pad

    variable = LABELS.get(f"variable.{result['experiment']}")
    lines = [LABELS["experiment"].format(lang, lab=result["lab"], variable=variable or result["experiment"])]
    for index, row in enumerate(result["runs"]):
        step = f"{row['step_time_s'] * 1e3:8.1f} ms" if row["step_time_s"] else "       - ms"
        rate = f"{row['tokens_per_s']:>10,.0f} tokens/s" if row["tokens_per_s"] else "         - tokens/s"
        mfu = f"MFU {row['mfu']:.1%}" if row["mfu"] else ""
        outcome = OUTCOMES[row["outcome"]].get(lang) if row["outcome"] in OUTCOMES else row["outcome"]
        lines.append(f"  {pad(_row_label(result, index, row).get(lang), 16)} {pad(outcome, 7)} "
                     f"{LABELS['step'].get(lang)} {step}  {rate}  {mfu}".rstrip())
        if row.get("summary"):
            lines.append(f"  {'':<16} {check_detail(row['summary'], lang)}")
    said = message(result) if "message" in result else T("", "")
    if result.get("conclusion"):
        said = LABELS["concluded"].filled(message=said, conclusion=conclusion(result))
    lines.append(f"  {said.get(lang)}")
    return lines


def _row_label(result: dict, index: int, row: dict) -> T:
    if result["experiment"] == "ranks":
        return _ranks_label(row["world_size"])
    if result["experiment"] == "data":
        return LABELS[("own_loader", "synthetic")[index]]
    return T(row["label"], row["label"])


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
