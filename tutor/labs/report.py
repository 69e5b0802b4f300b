"""Plain-text views of a run's evidence and a check's verdict (the CLI's output)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tutor.labs.measure import blind, report_lines
from tutor.text import T

if TYPE_CHECKING:
    from tutor.store import Store

MARK = {True: "✓", False: "✗"}
OUTCOMES = {"ok": T("ok", "正常结束"), "hang": T("hang", "卡死"), "crash": T("crash", "崩溃"),
            "wrong": T("wrong", "结果不对"), "slow": T("slow", "太慢"), "cancelled": T("cancelled", "已停止")}
"""The runner's outcome words, as the text output shows them (the evidence keeps the English)."""
KINDS = {"parallel": T("parallel", "并行"), "hang": T("hang", "卡死"), "perf": T("perf", "性能")}
LABELS = {
    "outcome": T("{lab}: {outcome} in {elapsed:.1f} s ({ranks} ranks, {backend})",
                 "{lab}：{outcome}，用时 {elapsed:.1f} 秒（{ranks} 个 rank，{backend}）"),
    "columns": T("rank|last step|exit|where", "rank|最后一步|退出码|位置"),
    "in_op": T("in {op}{shape} at {site}", "卡在 {op}{shape}（{site}）"),
    "raised_at": T("{type} at {where}", "{type}（{where}）"),
    "stack": T("rank {rank} stack ({source}): {frames}", "rank {rank} 的调用栈（{source}）：{frames}"),
    "recent": T("rank {rank} recent collectives: {calls}", "rank {rank} 最近的 collective：{calls}"),
    "step_time": T("step time {step:.1f} ms (median), first step after {first:.1f} s",
                   "每步 {step:.1f} ms（中位数），第一步在 {first:.1f} 秒后"),
    "evidence": T("evidence: {path} (evidence.json, rank*.log)", "证据：{path}（evidence.json、rank*.log）"),
    "checking": T("{lab}: checking {program} on {ranks} ranks", "{lab}：在 {ranks} 个 rank 上检查 {program}"),
    "check": T("{mark} {name}: {detail}", "{mark} {name}：{detail}"),
}


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


def run_text(evidence: dict, lang: str = "en") -> list[str]:
    from tutor.labs.check_names import check_detail

    outcome = OUTCOMES[evidence["outcome"]].get(lang) if evidence["outcome"] in OUTCOMES else evidence["outcome"]
    lines = [LABELS["outcome"].format(lang, lab=evidence["lab"], outcome=outcome, elapsed=evidence["elapsed_s"],
                                      ranks=evidence["world_size"], backend=evidence["backend"]),
             f"  {check_detail(evidence['summary']['message'], lang)}"]
    ranks = evidence.get("ranks") or []
    if ranks:
        rank, step, code, where = LABELS["columns"].get(lang).split("|")
        lines.append(f"  {pad(rank, 5)} {pad(step, 10)} {pad(code, 6)} {where}")
        for rank in ranks:
            lines.append(f"  {rank['rank']:<5} {_show(rank['last_step']):<10} {_show(rank['exit_code']):<6} "
                         f"{_where(rank, evidence, lang)}")
    if evidence["outcome"] == "hang":
        lines += _hang_details(ranks, evidence, lang)
    metrics = evidence.get("metrics") or {}
    if metrics.get("step_time_s"):
        lines.append("  " + LABELS["step_time"].format(lang, step=metrics["step_time_s"] * 1000,
                                                       first=metrics["time_to_first_step_s"]))
    lines += report_lines(evidence, lang)
    lines.append("  " + LABELS["evidence"].format(lang, path=evidence["run_dir"]))
    return lines


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` aligned in `width` terminal columns, a CJK character taking two (str.ljust counts one)."""
    room = " " * max(0, width - _columns(text))
    return room + text if right else text + room


def fit(text: str, width: int) -> str:
    """`text` cut to `width` terminal columns and padded to them (a column of a side-by-side view)."""
    while _columns(text) > width:
        text = text[:-1]
    return pad(text, width)


def _columns(text: str) -> int:
    from unicodedata import east_asian_width

    return sum(2 if east_asian_width(char) in "WF" else 1 for char in text)


def _show(value: object) -> str:
    return "-" if value is None else str(value)


def _where(rank: dict, evidence: dict, lang: str) -> str:
    pending = rank.get("pending")
    if pending and evidence["outcome"] in ("hang", "crash", "cancelled"):
        shape = f" {pending['shape']}" if pending.get("shape") is not None else ""
        return LABELS["in_op"].format(lang, op=pending["op"], shape=shape, site=pending.get("site") or "?")
    if rank.get("exception"):
        where = rank["exception"].get("where")
        kind = rank["exception"]["type"]
        return LABELS["raised_at"].format(lang, type=kind, where=where) if where else kind
    return ""


def _hang_details(ranks: list[dict], evidence: dict, lang: str) -> list[str]:
    program = Path(evidence.get("program") or "").name
    # py-spy writes `func (train.py:12)`, faulthandler and Python `File ".../train.py", line 12`
    marks = (f"({program}:", f"/{program}\", line")
    lines = []
    for rank in ranks:
        stack = rank.get("stack") or ""
        frames = [line.strip() for line in stack.splitlines() if program and any(mark in line for mark in marks)]
        if frames:
            lines.append("  " + LABELS["stack"].format(lang, rank=rank["rank"], source=rank.get("stack_source"),
                                                       frames=" <- ".join(frames[:4])))
        recent = [f"{c['op']}#{c['seq']}({c['state']})" for c in rank.get("collectives", [])[-4:]]
        if recent:
            lines.append("  " + LABELS["recent"].format(lang, rank=rank["rank"], calls=", ".join(recent)))
    return lines


def check_text(result: dict, lang: str = "en") -> list[str]:
    from tutor.labs.check_names import check_detail, check_name

    evidence = result["evidence"]
    lines = [LABELS["checking"].format(lang, lab=result["lab"], program=result["program"], ranks=evidence["world_size"])]
    for check in result["checks"]:
        lines.append("  " + LABELS["check"].format(lang, mark=MARK[bool(check["passed"])],
                                                   name=check_name(check["name"], lang),
                                                   detail=check_detail(check["detail"], lang)))
    return lines
