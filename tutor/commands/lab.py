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


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="lab_command", metavar="ACTION", parser_class=type(parser), required=True)
    listing = sub.add_parser("list", help="the labs and where you stand")
    add_json_flag(listing)
    add_lang_flag(listing)
    show = sub.add_parser("show", help="a lab's brief, hints and (once passed) its solution")
    show.add_argument("name")
    show.add_argument("--hint", type=int, default=0, metavar="N", help="show hints 1..N")
    show.add_argument("--reveal", action="store_true", help="show the reference solution (after passing)")
    add_json_flag(show)
    add_lang_flag(show)
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
    add_lang_flag(sub.choices["check"])  # the check names and verdict in Chinese (issue 16)
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
    add_lang_flag(diagnose)
    reset = sub.add_parser("reset", help="a fresh copy of the program (the old one is kept as .previous)")
    reset.add_argument("name")
    add_json_flag(reset)
    lab_perf.add_parsers(sub)
    lab_hang.add_parsers(sub)
    lab_selfcheck.add_parsers(sub)


def run(args) -> int:
    from tutor.commands._common import loaded_content
    from tutor.labs.catalog import all_labs, get_lab

    loaded_content()  # a one-line note on stderr when a lab.yaml failed to load
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
        gpu = "  GPU only" if row["gpu_only"] else ""
        print(f"{row['name']:<22} {row['kind']:<9} {row['status']:<8} {entry.lab.title.get(lang)}{gpu}")
    if not rows:
        print("no labs installed")
    return 0


def _show(args, entry) -> int:
    from tutor.labs.history import has_passed
    from tutor.labs.workspace import working_program
    from tutor.store import Store

    lab, lang = entry.lab, lang_of(args)
    if args.hint < 0:
        raise UserInputError("--hint takes a tier number from 1")
    with Store() as store:
        passed = has_passed(store, entry.name)
    if args.reveal and not passed:
        raise TutorError(f"the reference solution opens once `tutor lab check {entry.name}` passes on your own "
                         f"copy; until then: `tutor lab show {entry.name} --hint 1`")
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
    print(f"{record['title']}  ({lab.kind}, {lab.world_size} ranks{', GPU only' if lab.gpu_only else ''})\n")
    print(record["brief"].rstrip() + "\n")
    print(f"your copy: {record['workspace'] or f'not started — `tutor lab start {entry.name}`'}")
    for index, hint in enumerate(hints, 1):
        print(f"\nhint {index}/{len(lab.hints)}: {hint}")
    if args.hint < len(lab.hints):
        print(f"\n{len(lab.hints) - args.hint} more hint(s): `tutor lab show {entry.name} --hint {args.hint + 1}`")
    for item in record["diagnosis"]:
        print(f"\ndiagnose: {item['prompt']}")
    if args.reveal:
        print(f"\nreference solution ({entry.solution}):\n\n{record['solution']['text']}")
    return 0


def _start(args, entry) -> int:
    from tutor.labs.workspace import start

    path, created = start(entry)
    if args.json:
        print_json({"lab": entry.name, "path": str(path), "created": created})
    else:
        print(path if created else f"{path}\n(already started: your edits are kept; `tutor lab reset "
                                   f"{entry.name}` gives a fresh copy)")
    if args.edit:
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            raise UserInputError("set $EDITOR (e.g. `export EDITOR=vim`) to use --edit")
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
            print(f"(your previous copy is in {kept})")
    return 0


def _diagnose(args, entry) -> int:
    from tutor.actions import labs as lab_actions
    from tutor.store import Store

    if not entry.lab.diagnosis:
        raise UserInputError(f"{entry.name} has no diagnosis questions; `tutor lab check {entry.name}` checks it")
    if args.give_up:
        with Store() as store:
            shown = lab_actions.give_up(store, entry, lang_of(args))
        if args.json:
            print_json({"gave_up": True, "model_answers": shown})
        else:
            for item in shown:
                print(f"\n{item['prompt']}\n  model answer: {item['model_answer']}")
        return 0
    if args.answer is None:
        raise UserInputError("give your diagnosis (quoted, or - for stdin), or --give-up to see the model answer")
    answer = lab_hang.read_answer(args.answer)
    with Store() as store:  # graded against the latest run the learner studied, if any
        verdict = lab_actions.diagnose(store, entry, answer, lang_of(args))
    if args.json:
        print_json(verdict)
    else:
        lab_hang.print_verdict(verdict)
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
            print("\n".join(run_text(shown)))
        return 130 if evidence["outcome"] == "cancelled" else 0

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
            zh = lang_of(args) == "zh"
            if args.solution:
                print("通过（参考答案）" if zh else "PASSED (reference solution)")
            else:
                print(f"通过。参考答案已开放：`tutor lab show {entry.name} --reveal`" if zh else
                      f"PASSED. The reference solution is open: `tutor lab show {entry.name} --reveal`")
        else:
            failed = sum(not check["passed"] for check in result["checks"])
            print(f"还没通过：{failed} 项检查失败。提示：`tutor lab show {entry.name} --hint 1 --lang zh`"
                  if lang_of(args) == "zh" else
                  f"NOT YET: {failed} check(s) failed. Hints: `tutor lab show {entry.name} --hint 1`")
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
            print(f"\nwatching {len(watched_files(entry))} file(s); save to rerun, Ctrl-C to stop", file=sys.stderr)
            changed = wait_for_change(lambda: watched_files(entry))
            print(f"changed: {', '.join(path.name for path in changed)}", file=sys.stderr)
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
