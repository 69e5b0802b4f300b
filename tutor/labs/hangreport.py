"""`tutor lab evidence`: a hung or crashed run laid out rank by rank, as plain text and as JSON.

Stacks side by side (each rank's own frames, innermost first), the collectives side by side
(what each rank called k-th on the world group, and the point-to-point operations with
their peers), torchrun's first failure and error files, and torchfrtrace's reading of the
flight recorder. The first divergence is marked only once the learner has answered the
diagnosis for this run: finding it is the exercise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.labs import hangtools, hangview

if TYPE_CHECKING:
    from tutor.store import Store

COLUMN = 36
RUN_ACTIONS = ("run", "run-solution", "check", "check-solution")


def latest(store: Store | None, lab: str, for_diagnosis: bool = False) -> tuple[int, dict] | None:
    """(history row id, evidence) of the lab's latest run or check that left evidence in `store`
    (None: no history, see `tutor.labs.history`).

    For a diagnosis, the latest run of the learner's program (or the shipped one) as it is:
    not the reference solution, and not a debug tool's rerun, which fails differently on purpose.
    """
    runs = _runs(store, lab, ("run", "check") if for_diagnosis else RUN_ACTIONS)
    for row_id, _action, evidence in runs:
        if not (for_diagnosis and evidence.get("debug")):
            return row_id, evidence
    return None


def studied(store: Store | None, lab: str) -> tuple[int, dict] | None:
    """The run a diagnosis is about: the latest `run` of the learner's program (what `tutor lab
    evidence` showed them), falling back to the latest `check` only when there was no run."""
    runs = _runs(store, lab, ("run", "check"))
    usable = [(row_id, action, evidence) for row_id, action, evidence in runs if not evidence.get("debug")]
    for row_id, action, evidence in usable:
        if action == "run":
            return row_id, evidence
    return (usable[0][0], usable[0][2]) if usable else None


def answered(store: Store | None, lab: str, after_id: int) -> bool:
    """Whether the learner has given a diagnosis of `lab` since history row `after_id`."""
    from tutor.store.lab_runs import diagnosed

    return store is not None and diagnosed(store, lab, after_id)


def _runs(store: Store | None, lab: str, actions: tuple[str, ...]) -> list[tuple[int, str, dict]]:
    from tutor.store.lab_runs import recent_evidence

    return [] if store is None else recent_evidence(store, lab, actions)


def view(evidence: dict, *, reveal: bool, flight_recorder: bool = False) -> dict:
    """The evidence view as data (the `--json` shape, and what the app draws)."""
    timeline = hangview.timeline(evidence)
    divergence = hangview.first_divergence(timeline) if reveal else None
    at = divergence.position if divergence and divergence.kind == "collective" else None
    group = divergence.group if divergence and divergence.kind == "collective" else None
    result = {
        "lab": evidence["lab"], "outcome": evidence["outcome"], "summary": evidence["summary"]["message"],
        "run_dir": evidence.get("run_dir"), "world_size": evidence.get("world_size"),
        "stacks": [{"rank": s.rank, "step": s.last_step, "source": s.source, "frames": [str(f) for f in s.frames],
                    "waiting_in": (s.waiting_in or {}).get("op"), "site": (s.waiting_in or {}).get("site"),
                    "failure": s.failure, "thread": s.thread_state} for s in hangview.stacks(evidence)],
        "collectives": [{"position": position, "ranks": {str(rank): _cell(call) for rank, call in row.items()},
                         "diverges": position == at}
                        for position, row in hangview.rows(timeline, group, around=at)],
        "p2p": {str(rank): [_cell(call) for call in calls[-hangview.WINDOW:]] for rank, calls in timeline.p2p.items()},
        "children": {str(rank["rank"]): [{"pid": pid, "frames": [str(f) for f in frames]}
                                         for pid, frames in hangview.child_stacks(rank.get("stack"))]
                     for rank in evidence.get("ranks") or [] if hangview.child_stacks(rank.get("stack"))},
        "last_collectives": _last_collectives(evidence),
        "first_divergence": None if divergence is None else {
            "kind": divergence.kind, "position": divergence.position, "text": divergence.text},
        "failure_report": (evidence.get("launcher") or {}).get("failure_report"),
        "error_files": hangtools.error_files(evidence),
    }
    if flight_recorder and evidence.get("run_dir"):
        result["flight_recorder"] = hangtools.frtrace(evidence["run_dir"])
    return result


def _last_collectives(evidence: dict) -> dict[str, dict]:
    """Each rank's last recorded collective on a process group of the program's own (`pg`: its
    name and description), when any rank's was: two groups of the same ranks, which the line-up
    by ranks cannot tell apart, differ here, as in the flight recorder (lab group-order)."""
    last = {str(rank["rank"]): (rank.get("collectives") or [None])[-1] for rank in evidence.get("ranks") or []}
    if not any(call and call.get("pg") for call in last.values()):
        return {}
    return {rank: {"op": call["op"], "pg": call.get("pg") or "world", "site": call.get("site"), "state": call.get("state")}
            for rank, call in last.items() if call}


def _cell(call) -> dict | None:
    if call is None:
        return None
    return {"op": call.label(), "site": call.site, "state": call.state}


def text(shown: dict, lab: str, lang: str = "en", answer_command: str | None = None) -> list[str]:
    zh = lang == "zh"
    lines = [f"{lab}: {shown['outcome']}, {shown['world_size']} ranks  ({shown['run_dir']})", f"  {shown['summary']}", ""]
    lines.append("调用栈（程序自己的帧，最内层在上）：" if zh else "Stacks (the program's own frames, innermost first):")
    heads, columns = [], []
    for stack in shown["stacks"]:
        where = stack["waiting_in"] or (("失败" if zh else "failed") if stack["failure"] else "-")
        state = f" · {stack['thread']}" if stack.get("thread") else ""  # py-spy: waiting (idle) or running Python
        heads.append(f"rank {stack['rank']} · step {_dash(stack['step'])} · {where}{state}")
        columns.append(stack["frames"] or [stack["failure"] or ("（无栈）" if zh else "(no stack)")])
    lines += _side_by_side(heads, columns)
    for rank, children in (shown.get("children") or {}).items():  # a rank's own processes (DataLoader workers)
        for child in children:
            frames = " ← ".join(child["frames"][:4]) or ("（无程序帧）" if zh else "(no frames of the program)")
            lines.append(f"  rank {rank} 的子进程 {child['pid']}：{frames}" if zh else
                         f"  rank {rank}'s child process {child['pid']}: {frames}")
    if shown["collectives"]:
        lines += ["", "world group 上的 collective，按位置对齐（每个 rank 第 k 个调用的是什么）：" if zh else
                  "Collectives on the world group, by position (what each rank called k-th):"]
        ranks = list(shown["collectives"][0]["ranks"])
        lines.append("  " + "#".ljust(5) + "".join(f"rank {rank}".ljust(28) for rank in ranks).rstrip())
        for row in shown["collectives"]:
            cells = [f"{cell['op']} {cell['state']}" if cell else "—" for cell in row["ranks"].values()]
            mark = ("  ← 第一个分歧" if zh else "  ← first divergence") if row["diverges"] else ""
            lines.append("  " + str(row["position"] + 1).ljust(5) + "".join(cell.ljust(28) for cell in cells).rstrip() + mark)
    if shown.get("last_collectives"):
        lines += ["", "每个 rank 最后一个 collective 和它的 process group：" if zh else
                  "Each rank's last collective and its process group:"]
        for rank, call in shown["last_collectives"].items():
            lines.append(f"  rank {rank}: {call['op']} on pg {call['pg']} ({call['site']}) {call['state']}")
    if shown["p2p"]:
        lines += ["", "点对点操作（最近几个，←from →to）：" if zh else "Point-to-point (the last few, ←from →to):"]
        for rank, calls in shown["p2p"].items():
            lines.append(f"  rank {rank}: " + ", ".join(f"{c['op']} {c['state']}" for c in calls if c))
    divergence = shown["first_divergence"]
    if divergence:
        lines += ["", ("第一个分歧：" if zh else "First divergence: ") + divergence["text"][lang]]
    elif shown["outcome"] in ("hang", "crash"):
        command = answer_command or f'tutor lab diagnose {lab} "..."'
        lines += ["", f"回答诊断之后，这里会标出第一个分歧：{command}" if zh else
                  f"The first divergence is marked once you have answered: {command}"]
    if shown["error_files"]:
        lines += ["", "torchrun 的 error file（最早的在前）：" if zh else "torchrun's error files (first failure first):"]
        for item in shown["error_files"]:
            lines += [f"  rank {item['rank']}: {item['message']}", f"    {item['path']}"]
    if shown.get("flight_recorder"):
        lines += ["", "torchfrtrace:", *("  " + line for line in shown["flight_recorder"]["output"].splitlines())]
    return lines


def _side_by_side(heads: list[str], columns: list[list[str]]) -> list[str]:
    width = COLUMN
    lines = ["  " + " │ ".join(head[:width].ljust(width) for head in heads)]
    depth = max((len(column) for column in columns), default=0)
    for index in range(min(depth, 6)):
        lines.append("  " + " │ ".join((column[index] if index < len(column) else "")[:width].ljust(width)
                                       for column in columns))
    return [line.rstrip() for line in lines]


def _dash(value) -> str:
    return "-" if value is None else str(value)


def evidence_from(run_dir: str | Path) -> dict | None:
    try:
        return json.loads((Path(run_dir) / "evidence.json").read_text())
    except (OSError, ValueError):
        return None
