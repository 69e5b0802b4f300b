"""`tutor lab list | show | start | run | check | diagnose | reset | evidence | mystery | experiment |
bandwidth | selfcheck`: parsing and rendering; running, checking and diagnosing are `tutor.actions.labs`."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path

from tutor.commands import lab_hang, lab_perf, lab_selfcheck
from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, print_json
from tutor.errors import TutorError, UserInputError
from tutor.text import T

LABELS = {
    "none": T("no labs installed", "没有安装实验"),
    "gpu_only": T("GPU only", "仅限 GPU"),
    "heading": T("{title}  ({kind}, {ranks} ranks{gpu})", "{title}（{kind}，{ranks} 个 rank{gpu}）"),
    "heading_gpu": T(", GPU only", "，仅限 GPU"),
    "copy": T("your copy: {path}", "你的副本：{path}"),
    "no_copy": T("not started — `tutor lab start {lab}`", "还没开始——`tutor lab start {lab}`"),
    "hint": T("hint {index}/{total}: {hint}", "提示 {index}/{total}：{hint}"),
    "more_hints": T("{count} more hint(s): `tutor lab show {lab} --hint {next}`",
                    "还有 {count} 条提示：`tutor lab show {lab} --hint {next} --lang zh`"),
    "diagnose": T("diagnose: {prompt}", "诊断：{prompt}"),
    "solution": T("reference solution ({path}):", "参考答案（{path}）："),
    "already": T("(already started: your edits are kept; `tutor lab reset {lab}` gives a fresh copy)",
                 "（已经开始过了：你的修改都保留着；`tutor lab reset {lab}` 会给你一份新的副本）"),
    "previous": T("(your previous copy is in {path})", "（你之前的副本在 {path}）"),
    "model_answer": T("  model answer: {answer}", "  参考答案：{answer}"),
    "passed_solution": T("PASSED (reference solution)", "通过（参考答案）"),
    "passed": T("PASSED. The reference solution is open: `tutor lab show {lab} --reveal`",
                "通过。参考答案已开放：`tutor lab show {lab} --reveal --lang zh`"),
    "not_yet": T("NOT YET: {failed} check(s) failed. Hints: `tutor lab show {lab} --hint 1`",
                 "还没通过：{failed} 项检查失败。提示：`tutor lab show {lab} --hint 1 --lang zh`"),
    "watching": T("watching {count} file(s); save to rerun, Ctrl-C to stop",
                  "正在监视 {count} 个文件；保存即重跑，Ctrl-C 停止"),
    "changed": T("changed: {files}", "有改动：{files}"),
}
STATUSES = {"new": T("new", "未开始"), "started": T("started", "已开始"), "passed": T("passed", "已通过")}
ERRORS = {
    "hint": T("--hint takes a tier number from 1, not {given}", "--hint 要从 1 开始的提示编号，不能是 {given}"),
    "locked": T("the reference solution opens once `tutor lab check {lab}` passes on your own copy; until then: "
                "`tutor lab show {lab} --hint 1`",
                "参考答案要等你自己的副本通过 `tutor lab check {lab}` 之后才开放；在那之前：`tutor lab show {lab} --hint 1 --lang zh`"),
    "editor": T("set $EDITOR (e.g. `export EDITOR=vim`) to use --edit", "要用 --edit，先设置 $EDITOR（例如 `export EDITOR=vim`）"),
    "no_diagnosis": T("{lab} has no diagnosis questions; `tutor lab check {lab}` checks it",
                      "{lab} 没有诊断题；用 `tutor lab check {lab}` 检查它"),
    "no_answer": T("give your diagnosis (quoted, or - for stdin), or --give-up to see the model answer",
                   "写下你的诊断（加引号，或者用 - 从标准输入读），或者用 --give-up 看参考答案"),
}


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="lab_command", metavar="ACTION", parser_class=type(parser), required=True)
    listing = sub.add_parser("list", help="the labs and where you stand")
    add_json_flag(listing)
    show = sub.add_parser("show", help="a lab's brief, hints and (once passed) its solution")
    show.add_argument("name")
    show.add_argument("--hint", type=int, default=0, metavar="N", help="show hints 1..N")
    show.add_argument("--reveal", action="store_true", help="show the reference solution (after passing)")
    add_json_flag(show)
    start = sub.add_parser("start", help="copy the lab's program into your workspace")
    start.add_argument("name")
    start.add_argument("--edit", action="store_true", help="open it in $EDITOR")
    add_json_flag(start)
    for action, summary in (("run", "run your copy (or the shipped program) on N ranks"),
                            ("check", "check your copy by its behaviour")):
        command = sub.add_parser(action, help=summary)
        command.add_argument("name")
        command.add_argument("--solution", action="store_true", help="use the reference solution")
        command.add_argument("--world-size", type=int, metavar="N", help="ranks (per node)")
        command.add_argument("--backend", choices=("auto", "gloo", "nccl"), default="auto")
        command.add_argument("--timeout", type=float, metavar="S", help="no-progress limit in seconds")
        command.add_argument("--watch", action="store_true", help="rerun whenever you save")
        add_json_flag(command)
    run = sub.choices["run"]
    run.add_argument("--nnodes", type=int, default=1)
    run.add_argument("--node-rank", type=int, default=0)
    run.add_argument("--rdzv-endpoint", metavar="HOST:PORT")
    run.add_argument("--rdzv-id", default=None)
    run.add_argument("--print-launch", action="store_true", help="print the torchrun command for every node")
    run.add_argument("program_args", nargs="*", metavar="ARG", help="arguments for the program (after --)")
    diagnose = sub.add_parser("diagnose", help="answer the lab's diagnosis questions")
    diagnose.add_argument("name")
    diagnose.add_argument("answer", nargs="?", help="your diagnosis in words (- reads it from stdin)")
    diagnose.add_argument("--give-up", action="store_true",
                          help="show the model answers instead (recorded as given up, reviewed as not known)")
    add_json_flag(diagnose)
    reset = sub.add_parser("reset", help="a fresh copy of the program (the old one is kept as .previous)")
    reset.add_argument("name")
    add_json_flag(reset)
    lab_perf.add_parsers(sub)
    lab_hang.add_parsers(sub)
    lab_selfcheck.add_parsers(sub)
    for command in sub.choices.values():  # every action, here and only here: its text in Chinese (issue 16)
        add_lang_flag(command)


def run(args) -> int:
    from tutor.commands._common import loaded_content
    from tutor.labs.catalog import all_labs, get_lab

    loaded_content(lang_of(args))  # a one-line note on stderr when a lab.yaml failed to load
    if args.lab_command == "list":
        return _list(args, all_labs())
    if args.lab_command == "bandwidth":
        return lab_perf.run_bandwidth(args)
    if args.lab_command == "mystery":
        return lab_hang.run_mystery(args)
    if args.lab_command == "selfcheck":
        return lab_selfcheck.run(args)
    entry = get_lab(args.name)
    handler = {"show": _show, "start": _start, "run": _run, "check": _check, "diagnose": _diagnose,
               "reset": _reset, "experiment": lab_perf.run_experiment,
               "evidence": lab_hang.run_evidence}[args.lab_command]
    return handler(args, entry)


def _list(args, labs) -> int:
    from tutor.labs.history import status as _status
    from tutor.labs.report import KINDS, pad
    from tutor.store import Store

    with Store() as store:
        rows = [{"name": name, "kind": entry.lab.kind, "title": entry.lab.title.model_dump(),
                 "world_size": entry.lab.world_size, "gpu_only": entry.lab.gpu_only, "status": _status(store, name)}
                for name, entry in labs.items()]
    if args.json:
        print_json({"labs": rows})
        return 0
    lang = lang_of(args)
    for row, entry in zip(rows, labs.values()):
        gpu = "  " + LABELS["gpu_only"].get(lang) if row["gpu_only"] else ""
        kind, status = KINDS[row["kind"]].get(lang), STATUSES[row["status"]].get(lang)
        print(f"{row['name']:<22} {pad(kind, 9)} {pad(status, 8)} {entry.lab.title.get(lang)}{gpu}")
    if not rows:
        print(LABELS["none"].get(lang))
    return 0


def _show(args, entry) -> int:
    from tutor.labs.history import has_passed
    from tutor.labs.report import KINDS
    from tutor.labs.workspace import working_program
    from tutor.store import Store

    lab, lang = entry.lab, lang_of(args)
    if args.hint < 0:
        raise UserInputError(ERRORS["hint"].filled(given=args.hint))
    with Store() as store:
        passed = has_passed(store, entry.name)
    if args.reveal and not passed:
        raise TutorError(ERRORS["locked"].filled(lab=entry.name))
    hints = [hint.get(lang) for hint in lab.hints[: args.hint]]
    copy = working_program(entry)
    record = {
        "name": entry.name, "kind": lab.kind, "title": lab.title.get(lang), "brief": lab.brief.get(lang),
        "world_size": lab.world_size, "world_sizes": entry.world_sizes, "gpu_only": lab.gpu_only,
        "symptom": lab.symptom, "timeout_s": lab.timeout_s, "section": lab.section,
        "program": str(entry.program), "workspace": str(copy) if copy else None, "passed": passed,
        "hints": hints, "hints_total": len(lab.hints),
        "diagnosis": [{"id": item.id, "prompt": item.prompt.get(lang)} for item in lab.diagnosis],
        "solution": {"path": str(entry.solution), "text": entry.solution.read_text()} if args.reveal else None,
    }
    if args.json:
        print_json(record)
        return 0
    gpu = LABELS["heading_gpu"].get(lang) if lab.gpu_only else ""
    print(LABELS["heading"].format(lang, title=record["title"], kind=KINDS[lab.kind].get(lang), ranks=lab.world_size,
                                   gpu=gpu) + "\n")
    print(record["brief"].rstrip() + "\n")
    print(LABELS["copy"].format(lang, path=record["workspace"] or LABELS["no_copy"].format(lang, lab=entry.name)))
    for index, hint in enumerate(hints, 1):
        print("\n" + LABELS["hint"].format(lang, index=index, total=len(lab.hints), hint=hint))
    if args.hint < len(lab.hints):
        print("\n" + LABELS["more_hints"].format(lang, count=len(lab.hints) - args.hint, lab=entry.name,
                                                next=args.hint + 1))
    for item in record["diagnosis"]:
        print("\n" + LABELS["diagnose"].format(lang, prompt=item["prompt"]))
    if args.reveal:
        print("\n" + LABELS["solution"].format(lang, path=entry.solution) + f"\n\n{record['solution']['text']}")
    return 0


def _start(args, entry) -> int:
    from tutor.labs.workspace import start

    path, created = start(entry)
    if args.json:
        print_json({"lab": entry.name, "path": str(path), "created": created})
    else:
        print(path if created else f"{path}\n" + LABELS["already"].format(lang_of(args), lab=entry.name))
    if args.edit:
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            raise UserInputError(ERRORS["editor"])
        subprocess.run([*shlex.split(editor), str(path)], check=False)
    return 0


def _reset(args, entry) -> int:
    from tutor.labs.workspace import reset

    path, kept = reset(entry)
    if args.json:
        print_json({"lab": entry.name, "path": str(path), "previous": str(kept) if kept else None})
    else:
        print(path)
        if kept is not None:
            print(LABELS["previous"].format(lang_of(args), path=kept))
    return 0


def _diagnose(args, entry) -> int:
    from tutor.actions import labs as lab_actions
    from tutor.store import Store

    lang = lang_of(args)
    if not entry.lab.diagnosis:
        raise UserInputError(ERRORS["no_diagnosis"].filled(lab=entry.name))
    if args.give_up:
        with Store() as store:
            shown = lab_actions.give_up(store, entry, lang)
        if args.json:
            print_json({"gave_up": True, "model_answers": shown})
        else:
            for item in shown:
                print(f"\n{item['prompt']}\n" + LABELS["model_answer"].format(lang, answer=item["model_answer"]))
        return 0
    if args.answer is None:
        raise UserInputError(ERRORS["no_answer"])
    answer = lab_hang.read_answer(args.answer)
    with Store() as store:  # graded against the latest run the learner studied, if any
        verdict = lab_actions.diagnose(store, entry, answer, lang)
    if args.json:
        print_json(verdict)
    else:
        lab_hang.print_verdict(verdict, lang)
    return 0 if verdict["correct"] else 1  # as `tutor check`: a script can tell a wrong diagnosis


def _options(args):
    from tutor.labs.run_options import RunOptions

    return RunOptions(solution=args.solution, world_size=args.world_size, backend=args.backend,
                      timeout_s=args.timeout, nnodes=getattr(args, "nnodes", 1),
                      node_rank=getattr(args, "node_rank", 0), rdzv_endpoint=getattr(args, "rdzv_endpoint", None),
                      rdzv_id=getattr(args, "rdzv_id", None), program_args=tuple(getattr(args, "program_args", ())))


def _run(args, entry) -> int:
    from tutor.actions import labs as lab_actions
    from tutor.labs.run_options import run_spec
    from tutor.labs.report import for_learner, run_text
    from tutor.store import Store

    options = _options(args)
    if args.print_launch:
        spec = lab_hang.debug_spec(run_spec(entry, options), args)
        print(spec.plan(Path("RUN_DIR")).print_launch())
        return 0

    def once() -> int:
        with Store() as store:  # opened first: a database that cannot take the run is said before it starts
            evidence = lab_actions.run(entry, options, store=store, debug=args.debug,
                                       on_event=None if args.json else _live_printer())
            shown = for_learner(store, evidence, entry.name, entry.lab.kind)  # measurements, not the answer
        if args.json:
            print_json(shown)
        else:
            print("\n".join(run_text(shown, lang_of(args))))
        # as a test runner does: a job that hung or crashed is a failure a script can tell (polish 14)
        return {"ok": 0, "cancelled": 130}.get(evidence["outcome"], 1)

    return _maybe_watch(args, entry, once)


def _check(args, entry) -> int:
    from tutor.actions import labs as lab_actions
    from tutor.labs.run_options import resolve
    from tutor.labs.report import check_text, for_learner
    from tutor.store import Store

    options = _options(args)
    resolve(entry, options)  # a bad option is one line before anything runs, --watch included

    def once() -> int:
        with Store() as store:
            result = lab_actions.check(entry, options, store=store, on_result=None if args.json else
                                       lambda each: print("\n".join(check_text(each, lang_of(args)))))
            shown_evidence = (for_learner(store, result["evidence"], entry.name, entry.lab.kind)
                              if args.json else None)
        if args.json:
            shown = {key: result[key] for key in ("lab", "passed", "checks", "evidence")}
            shown["evidence"] = shown_evidence
            print_json(shown)
        elif result["passed"]:
            print(LABELS["passed_solution" if args.solution else "passed"].format(lang_of(args), lab=entry.name))
        else:
            failed = sum(not check["passed"] for check in result["checks"])
            print(LABELS["not_yet"].format(lang_of(args), failed=failed, lab=entry.name))
        return 0 if result["passed"] else 1

    return _maybe_watch(args, entry, once)


def _maybe_watch(args, entry, once) -> int:
    from tutor.labs.watch import wait_for_change
    from tutor.labs.workspace import watched_files

    status = once()
    if not args.watch:
        return status
    try:
        while True:
            print("\n" + LABELS["watching"].format(lang_of(args), count=len(watched_files(entry))), file=sys.stderr)
            changed = wait_for_change(lambda: watched_files(entry))
            print(LABELS["changed"].format(lang_of(args), files=", ".join(path.name for path in changed)),
                  file=sys.stderr)
            status = once()
    except KeyboardInterrupt:
        return status


def _live_printer():
    """Print each rank's lines as they arrive, prefixed with the rank (thread-safe)."""
    from tutor.labs.runner import LogLine

    lock = threading.Lock()

    def show(event) -> None:
        if isinstance(event, LogLine) and (event.rank is not None or _worth_showing(event.text)):
            with lock:
                print(f"[{'rank%d' % event.rank if event.rank is not None else 'torchrun'}] {event.text}", flush=True)

    return show


def _worth_showing(line: str) -> bool:
    """torchrun's own lines: only its errors, not its banners."""
    return line.startswith(("E", "ERROR")) or "ChildFailedError" in line
