"""`tutor lab evidence`: a hung or crashed run laid out rank by rank, as plain text and as JSON.

Stacks side by side (each rank's own frames, innermost first), the collectives side by side
(what each rank called k-th on the world group, and the point-to-point operations with
their peers), torchrun's first failure and error files, and torchfrtrace's reading of the
flight recorder. The first divergence is marked only once the learner has answered the
diagnosis for this run: finding it is the exercise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.labs import hangtools, hangview
from tutor.text import T

if TYPE_CHECKING:
    from tutor.store import Store

COLUMN = 36
LABELS = {
    "head": T("{lab}: {outcome}, {ranks} ranks  ({run_dir})", "{lab}：{outcome}，{ranks} 个 rank（{run_dir}）"),
    "stacks": T("Stacks (the program's own frames, innermost first):", "调用栈（程序自己的帧，最内层在上）："),
    "failed": T("failed", "失败"),
    "rank_head": T("rank {rank} · step {step} · {where}{state}", "rank {rank} · 第 {step} 步 · {where}{state}"),
    "no_stack": T("(no stack)", "（无栈）"),
    "no_frames": T("(no frames of the program)", "（无程序帧）"),
    "child": T("  rank {rank}'s child process {pid}: {frames}", "  rank {rank} 的子进程 {pid}：{frames}"),
    "collectives": T("Collectives on the world group, by position (what each rank called k-th):",
                     "world group 上的 collective，按位置对齐（每个 rank 第 k 个调用的是什么）："),
    "diverges": T("  ← first divergence", "  ← 第一个分歧"),
    "last": T("Each rank's last collective and its process group:", "每个 rank 最后一个 collective 和它的 process group："),
    "last_call": T("  rank {rank}: {op} on pg {pg} ({site}) {state}", "  rank {rank}：{op}，pg {pg}（{site}）{state}"),
    "p2p": T("Point-to-point (the last few, ←from →to):", "点对点操作（最近几个，←from →to）："),
    "divergence": T("First divergence: {text}", "第一个分歧：{text}"),
    "marked_later": T("The first divergence is marked once you have answered: {command}",
                      "回答诊断之后，这里会标出第一个分歧：{command}"),
    "error_files": T("torchrun's error files (first failure first):", "torchrun 的 error file（最早的在前）："),
}
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
            "kind": divergence.kind, "position": divergence.position, "text": divergence.text.to_json()},
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
    from tutor.labs.check_names import check_detail
    from tutor.labs.report import OUTCOMES

    outcome = OUTCOMES[shown["outcome"]].get(lang) if shown["outcome"] in OUTCOMES else shown["outcome"]
    lines = [LABELS["head"].format(lang, lab=lab, outcome=outcome, ranks=shown["world_size"], run_dir=shown["run_dir"]),
             f"  {check_detail(shown['summary'], lang)}", "", LABELS["stacks"].get(lang)]
    heads, columns = [], []
    for stack in shown["stacks"]:
        where = stack["waiting_in"] or (LABELS["failed"].get(lang) if stack["failure"] else "-")
        state = f" · {stack['thread']}" if stack.get("thread") else ""  # py-spy: waiting (idle) or running Python
        heads.append(LABELS["rank_head"].format(lang, rank=stack["rank"], step=_dash(stack["step"]), where=where,
                                                state=state))
        columns.append(stack["frames"] or [stack["failure"] or LABELS["no_stack"].get(lang)])
    lines += _side_by_side(heads, columns)
    for rank, children in (shown.get("children") or {}).items():  # a rank's own processes (DataLoader workers)
        for child in children:
            frames = " ← ".join(child["frames"][:4]) or LABELS["no_frames"].get(lang)
            lines.append(LABELS["child"].format(lang, rank=rank, pid=child["pid"], frames=frames))
    if shown["collectives"]:
        lines += ["", LABELS["collectives"].get(lang)]
        ranks = list(shown["collectives"][0]["ranks"])
        lines.append("  " + "#".ljust(5) + "".join(f"rank {rank}".ljust(28) for rank in ranks).rstrip())
        for row in shown["collectives"]:
            cells = [f"{cell['op']} {cell['state']}" if cell else "—" for cell in row["ranks"].values()]
            mark = LABELS["diverges"].get(lang) if row["diverges"] else ""
            lines.append("  " + str(row["position"] + 1).ljust(5) + "".join(cell.ljust(28) for cell in cells).rstrip() + mark)
    if shown.get("last_collectives"):
        lines += ["", LABELS["last"].get(lang)]
        for rank, call in shown["last_collectives"].items():
            lines.append(LABELS["last_call"].format(lang, rank=rank, **call))
    if shown["p2p"]:
        lines += ["", LABELS["p2p"].get(lang)]
        for rank, calls in shown["p2p"].items():
            lines.append(f"  rank {rank}: " + ", ".join(f"{c['op']} {c['state']}" for c in calls if c))
    divergence = shown["first_divergence"]
    if divergence:
        lines += ["", LABELS["divergence"].format(lang, text=divergence["text"][lang])]
    elif shown["outcome"] in ("hang", "crash"):
        command = answer_command or f'tutor lab diagnose {lab} "..."'
        lines += ["", LABELS["marked_later"].format(lang, command=command)]
    if shown["error_files"]:
        lines += ["", LABELS["error_files"].get(lang)]
        for item in shown["error_files"]:
            lines += [f"  rank {item['rank']}: {item['message']}", f"    {item['path']}"]
    if shown.get("flight_recorder"):
        lines += ["", "torchfrtrace:", *("  " + line for line in shown["flight_recorder"]["output"].splitlines())]
    return lines


def _side_by_side(heads: list[str], columns: list[list[str]]) -> list[str]:
    from tutor.labs.report import fit

    width = COLUMN
    lines = ["  " + " │ ".join(fit(head, width) for head in heads)]
    depth = max((len(column) for column in columns), default=0)
    for index in range(min(depth, 6)):
        lines.append("  " + " │ ".join(fit(column[index] if index < len(column) else "", width) for column in columns))
    return [line.rstrip() for line in lines]


def _dash(value) -> str:
    return "-" if value is None else str(value)


