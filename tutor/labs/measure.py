"""A perf run's numbers, computed in the core from what the ranks measured (lesson §slow-training).

The ranks report raw measurements (step times, tokens per step, Ψ, the measured matmul peak,
the device's name; tutor/labs/rank/perf.py). Here the engine turns them into what a learner
reads: tokens/s, achieved FLOP/s per rank and MFU = tokens/s × 6Ψ / (ranks × peak) (formulas
`achieved_flops_per_gpu` and `mfu_from_tokens`), against the measured peak and, on a GPU in
tutor.sizing's catalog, the published one as well. The run's traces are summarised by
`trace_summary`, and the summary's category becomes the run's (`summary.category`).
"""

from __future__ import annotations

import re
from pathlib import Path

from tutor.text import T

# Device names (torch.cuda.get_device_name) -> tutor.sizing catalog names.
CATALOG_NAMES = ((re.compile(r"H200", re.I), "h200-141gb"), (re.compile(r"H100", re.I), "h100-80gb"),
                 (re.compile(r"A100.*40\s*GB", re.I), "a100-40gb"), (re.compile(r"A100", re.I), "a100-80gb"),
                 (re.compile(r"B200", re.I), "b200-192gb"))
TRACE_GROUP = re.compile(r"^(.*?)-?rank\d+")
# HBM bandwidth per GPU (bytes/s), for the memory-bound predictions of the kernel-fusion lab.
HBM_BANDWIDTH = {"a100-40gb": 1555e9, "a100-80gb": 2039e9, "h100-80gb": 3.35e12, "h200-141gb": 4.8e12,
                 "b200-192gb": 8e12}
HBM_SOURCE = ("NVIDIA A100/H100/H200/B200 datasheets as tabulated in stas00/ml-engineering "
              "compute/accelerator/README.md (shared/reference/facts.md §1)")


def catalog_gpu(device_name: str | None):
    """The catalog entry for a CUDA device name, or None (a CPU, or a GPU the catalog lacks)."""
    from tutor.sizing.hardware import gpu

    for pattern, name in CATALOG_NAMES:
        if device_name and pattern.search(device_name):
            return gpu(name)
    return None


def published_peaks(device_name: str | None) -> dict:
    """The catalog's dense BF16 and FP8 peaks and the datasheet's HBM bandwidth of a known GPU."""
    hardware = catalog_gpu(device_name)
    if hardware is None:
        return {}
    peaks = {"gpu": hardware.name, "peak_flops_published": hardware.peak_flops, "peak_source": hardware.source}
    if hardware.peak_fp8:
        peaks["peak_fp8_flops_published"] = hardware.peak_fp8
    if hardware.name in HBM_BANDWIDTH:
        peaks["hbm_bandwidth_published"] = HBM_BANDWIDTH[hardware.name]
        peaks["hbm_source"] = HBM_SOURCE
    return peaks


def perf_metrics(metrics: dict, world_size: int) -> dict:
    """MFU and achieved FLOP/s from a run's reported numbers (nothing when they are missing)."""
    from tutor.sizing.engine import evaluate
    from tutor.sizing.errors import SizingError

    added = published_peaks(metrics.get("device_name"))
    step, tokens, params = metrics.get("step_time_s"), metrics.get("tokens_per_step"), metrics.get("params")
    if not (step and tokens and params):
        return added
    added["tokens_per_s"] = tokens / step
    try:
        added["achieved_flops_per_rank"] = float(evaluate("achieved_flops_per_gpu", tokens_per_s=added["tokens_per_s"],
                                                          params=params, gpus=world_size))
        measured = metrics.get("peak_flops_measured")
        if measured:
            added["mfu"] = float(evaluate("mfu_from_tokens", tokens_per_s=added["tokens_per_s"], params=params,
                                          gpus=world_size, peak_flops=measured))
            added["mfu_basis"] = REPORT["basis"].format("en", rate=flop_rate(measured), matmul=metrics.get("peak_matmul"))
        if "peak_flops_published" in added:
            added["mfu_published"] = float(evaluate("mfu_from_tokens", tokens_per_s=added["tokens_per_s"],
                                                    params=params, gpus=world_size,
                                                    peak_flops=added["peak_flops_published"]))
    except SizingError as error:  # an absurd measurement (e.g. a zero step) is reported, not fatal
        added["metrics_error"] = str(error)
    return added


def flop_rate(value: float) -> str:
    """FLOP/s in the unit that reads best: a laptop core in GFLOP/s, a GPU in TFLOP/s."""
    return f"{value / 1e12:,.0f} TFLOP/s" if value >= 1e12 else f"{value / 1e9:,.1f} GFLOP/s"


def trace_groups(paths: list[str]) -> dict[str, list[str]]:
    """Trace files by the program they trace: `rank0.trace.json` -> "", `yours-rank0...` -> "yours"."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        match = TRACE_GROUP.match(Path(path).name)
        if match:
            groups.setdefault(match.group(1), []).append(path)
    return groups


def enrich(evidence: dict) -> dict:
    """Add the perf metrics and the trace summary to a finished run's evidence (in place).

    Never raises: the evidence of a run matters more than its extras, so a failure here is
    recorded in the evidence instead.
    """
    try:
        return _enrich(evidence)
    except Exception as error:
        evidence.setdefault("metrics", {})["metrics_error"] = f"{type(error).__name__}: {error}"
        return evidence


def _enrich(evidence: dict) -> dict:
    from tutor.labs.trace_summary import summarize_files

    metrics = evidence.setdefault("metrics", {})
    metrics.update(perf_metrics(metrics, evidence.get("world_size") or 1))
    groups = trace_groups([path for path in evidence.get("trace_files") or [] if path.endswith(".json")])
    if not groups:
        return evidence
    summaries = {group: summarize_files(files) for group, files in groups.items()}
    # A perf lab's Meter (it reports `profiled_steps`) makes the trace's category the run's own.
    measured = "profiled_steps" in metrics
    if measured and set(summaries) == {""} and evidence.get("outcome") == "ok" and summaries[""].get("category"):
        run_message = evidence.get("summary", {}).get("message")
        evidence["summary"] = {**summaries[""], "run": run_message}
    else:
        evidence.setdefault("summary", {})["traces"] = summaries
    return evidence


REPORT = {
    "rate": T("{rate:,.0f} tokens/s on {ranks} rank(s){mfu}{published}", "{ranks} 个 rank 每秒 {rate:,.0f} 个 token{mfu}{published}"),
    "mfu": T(" · MFU {mfu:.1%} of the {basis}", " · MFU {mfu:.1%}（相对{basis}）"),
    "published": T(" · {mfu:.1%} of the published {peak:,.0f} TFLOP/s", " · 相对标称的 {peak:,.0f} TFLOP/s 为 {mfu:.1%}"),
    "per_rank": T("step time per rank: {times}", "各 rank 每步用时：{times}"),
    "traces": T("traces (open in https://ui.perfetto.dev): {paths}", "trace（用 https://ui.perfetto.dev 打开）：{paths}"),
    "basis": T("measured peak {rate} ({matmul} matmul)", "实测峰值 {rate}，{matmul} matmul"),
}


def report_lines(evidence: dict, lang: str = "en") -> list[str]:
    """The perf lines of `tutor lab run`'s text output (nothing for a run without a Meter)."""
    metrics = evidence.get("metrics") or {}
    if "profiled_steps" not in metrics:
        return []
    lines = []
    if metrics.get("tokens_per_s"):
        mfu = REPORT["mfu"].format(lang, mfu=metrics["mfu"], basis=_basis(metrics, lang)) if metrics.get("mfu") else ""
        published = (REPORT["published"].format(lang, mfu=metrics["mfu_published"],
                                                peak=metrics["peak_flops_published"] / 1e12)
                     if metrics.get("mfu_published") else "")
        lines.append("  " + REPORT["rate"].format(lang, rate=metrics["tokens_per_s"], ranks=evidence.get("world_size"),
                                                  mfu=mfu, published=published))
    per_rank = metrics.get("per_rank_step_time_s") or {}
    if per_rank:
        lines.append("  " + REPORT["per_rank"].format(lang, times=", ".join(
            f"rank {rank} {seconds * 1e3:.1f} ms" for rank, seconds in sorted(per_rank.items(), key=lambda kv: int(kv[0])))))
    traces = evidence.get("trace_files") or []
    if traces:
        lines.append("  " + REPORT["traces"].format(lang, paths=", ".join(traces)))
    return lines


def _basis(metrics: dict, lang: str) -> str:
    """`mfu_basis` in `lang`: the evidence keeps the English line `perf_metrics` wrote."""
    measured = metrics.get("peak_flops_measured")
    if not measured:
        return metrics["mfu_basis"]
    return REPORT["basis"].format(lang, rate=flop_rate(measured), matmul=metrics.get("peak_matmul"))


CLASSIFICATION = ("category", "finding", "slowest_rank")
"""What the trace summary concludes, as opposed to what it measured: the answer to a perf lab's
first diagnosis question ("which category?"), kept from the learner until they have tried one."""


def blind(evidence: dict) -> dict:
    """A copy of the evidence with the trace summary's measurements and without its conclusion.

    A real profiler gives step time, per-phase times and the trace; naming the category is the
    learner's job (issue 19: "data loading: each step waits 133 ms" printed by `run` was the
    answer before the question). `measurements_message` replaces the message.
    """
    import copy

    shown = copy.deepcopy(evidence)
    summary = shown.get("summary")
    if not isinstance(summary, dict):
        return shown
    if "fractions" in summary:
        _blind_summary(summary)
    for group in (summary.get("traces") or {}).values():
        if isinstance(group, dict) and "fractions" in group:
            _blind_summary(group)
    metrics = shown.get("metrics") or {}
    for key in ("shipped_summary", "yours_summary"):  # a check's two programs
        if isinstance(metrics.get(key), dict) and "fractions" in metrics[key]:
            _blind_summary(metrics[key])
    return shown


def _blind_summary(summary: dict) -> None:
    for key in CLASSIFICATION:
        summary.pop(key, None)
    summary["message"] = measurements_message(summary)
    summary["classification"] = "hidden until you try `tutor lab diagnose` (or read the trace yourself)"


def measurements_message(summary: dict) -> str:
    """One line of what the profiled steps measured, per step, naming no category."""
    step = summary.get("step_time_s") or 0.0

    def part(label: str, key: str) -> str:
        value = summary.get(key) or 0.0
        share = f" ({value / step:.0%})" if step else ""
        return f"{label} {value * 1e3:.1f} ms{share}"

    straggler = ("slowest minus fastest rank's CPU time" if summary.get("straggler_clock") == "cpu"
                 else "slowest minus fastest rank's busy time")
    busy = summary.get("per_rank_busy_s") or {}
    ranks = (", busy per rank " + ", ".join(f"{rank}: {seconds * 1e3:.1f} ms" for rank, seconds in
                                            sorted(busy.items(), key=lambda item: int(item[0])))) if busy else ""
    return (f"per profiled step: {step * 1e3:.1f} ms; " + "; ".join((
        part("before the first op", "data_wait_s"), part("collectives not overlapped with compute", "exposed_comm_s"),
        part("gaps and tiny ops", "launch_overhead_s"), part(straggler, "straggler_s")))
        + f"; {summary.get('ops_per_step') or 0} ops, {summary.get('host_syncs_per_step') or 0} host syncs per step"
        + ranks)
