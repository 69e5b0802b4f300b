"""Plain-text views of a run's evidence and a check's verdict (the CLI's output)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tutor.labs.measure import blind, report_lines

if TYPE_CHECKING:
    from tutor.store import Store

MARK = {True: "✓", False: "✗"}


def for_learner(store: Store | None, evidence: dict, lab: str, kind: str | None = None) -> dict:
    """The evidence as `tutor lab run` shows it before the learner has tried a diagnosis: what
    the tools measured, not the tutor's conclusion (issue 19). A perf run keeps its step and
    per-phase times and traces without the category; a hang keeps every rank's stack and
    collective without the one-line grouping of who waits where (a cluster gives N dumps and
    leaves the comparison to you). After a `tutor lab diagnose` attempt (in `store`), all of it."""
    from tutor.labs.history import has_diagnosed

    if kind not in ("perf", "hang") or has_diagnosed(store, lab):
        return evidence
    shown = blind(evidence)
    summary = shown.get("summary") or {}
    if shown.get("outcome") == "hang" and summary.get("category") == "hang":
        lead = summary.get("lead") or str(summary.get("message", "")).split(":", 1)[0]
        summary["message"] = f"{lead}: where each rank waits is below; `tutor lab evidence {lab}` lines them up"
        summary.pop("waiting_in", None)
    return shown


def run_text(evidence: dict) -> list[str]:
    lines = [f"{evidence['lab']}: {evidence['outcome']} in {evidence['elapsed_s']:.1f} s "
             f"({evidence['world_size']} ranks, {evidence['backend']})",
             f"  {evidence['summary']['message']}"]
    ranks = evidence.get("ranks") or []
    if ranks:
        lines.append(f"  {'rank':<5} {'last step':<10} {'exit':<6} where")
        for rank in ranks:
            lines.append(f"  {rank['rank']:<5} {_show(rank['last_step']):<10} {_show(rank['exit_code']):<6} "
                         f"{_where(rank, evidence)}")
    if evidence["outcome"] == "hang":
        lines += _hang_details(ranks, evidence)
    metrics = evidence.get("metrics") or {}
    if metrics.get("step_time_s"):
        lines.append(f"  step time {metrics['step_time_s'] * 1000:.1f} ms (median), "
                     f"first step after {metrics['time_to_first_step_s']:.1f} s")
    lines += report_lines(evidence)
    lines.append(f"  evidence: {evidence['run_dir']} (evidence.json, rank*.log)")
    return lines


def _show(value: object) -> str:
    return "-" if value is None else str(value)


def _where(rank: dict, evidence: dict) -> str:
    pending = rank.get("pending")
    if pending and evidence["outcome"] in ("hang", "crash", "cancelled"):
        shape = f" {pending['shape']}" if pending.get("shape") is not None else ""
        return f"in {pending['op']}{shape} at {pending.get('site') or '?'}"
    if rank.get("exception"):
        where = rank["exception"].get("where")
        return f"{rank['exception']['type']}" + (f" at {where}" if where else "")
    return ""


def _hang_details(ranks: list[dict], evidence: dict) -> list[str]:
    program = Path(evidence.get("program") or "").name
    # py-spy writes `func (train.py:12)`, faulthandler and Python `File ".../train.py", line 12`
    marks = (f"({program}:", f"/{program}\", line")
    lines = []
    for rank in ranks:
        stack = rank.get("stack") or ""
        frames = [line.strip() for line in stack.splitlines() if program and any(mark in line for mark in marks)]
        if frames:
            lines.append(f"  rank {rank['rank']} stack ({rank.get('stack_source')}): " + " <- ".join(frames[:4]))
        recent = [f"{c['op']}#{c['seq']}({c['state']})" for c in rank.get("collectives", [])[-4:]]
        if recent:
            lines.append(f"  rank {rank['rank']} recent collectives: " + ", ".join(recent))
    return lines


def check_text(result: dict, lang: str = "en") -> list[str]:
    from tutor.labs.check_names import check_detail, check_name

    evidence = result["evidence"]
    lines = [f"{result['lab']}: checking {result['program']} on {evidence['world_size']} ranks" if lang != "zh" else
             f"{result['lab']}：在 {evidence['world_size']} 个 rank 上检查 {result['program']}"]
    for check in result["checks"]:
        lines.append(f"  {MARK[bool(check['passed'])]} {check_name(check['name'], lang)}{'：' if lang == 'zh' else ': '}"
                     f"{check_detail(check['detail'], lang)}")
    return lines
