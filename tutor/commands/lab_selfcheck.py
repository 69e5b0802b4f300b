"""`tutor lab selfcheck [NAME] [--json]`: for lab authors, like rustlings' `dev check`.

For each lab (or the one named) it proves, without the test suite, that:
- its metadata is whole: lab.yaml loaded without problems, every file it names exists, it has
  hints, a hang or perf lab has a diagnosis, a perf lab a `min_speedup`, and its symptom is one
  its kind can show;
- the shipped program shows its symptom: a hang or crash lab's run ends in that outcome, any
  other runs to the end and fails its check;
- the reference solution passes its check.
It runs the same library calls as tests/labs (tutor.labs.checks.check_lab, on CPU with gloo).
GPU-only labs are skipped on a machine without GPUs, and say so. Exit 1 if any lab fails.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tutor.commands._common import add_json_flag, print_json

SYMPTOMS = {"parallel": {"wrong", "slow", "fail-check"}, "hang": {"hang", "crash"}, "perf": {"slow", "fail-check"}}
"""What the shipped program of each kind of lab may show."""
SOLUTION_TIMEOUT_S = 10.0
RUN_ENDS_IN = ("hang", "crash")
"""Symptoms that are the run's outcome; the others are a run that ends and fails its check."""


def add_parsers(sub) -> None:
    selfcheck = sub.add_parser("selfcheck", help="for lab authors: each lab's metadata is whole, its shipped "
                                                 "program shows its symptom and its solution passes")
    selfcheck.add_argument("name", nargs="?", help="one lab (default: every lab)")
    add_json_flag(selfcheck)


def metadata_problems(entry, content_problems) -> list[str]:
    """What is missing or inconsistent in a lab's lab.yaml and files (empty: whole)."""
    lab, problems = entry.lab, []
    folder = entry.folder.resolve()
    for problem in content_problems:
        if folder in Path(problem.path).resolve().parents:
            problems.append(str(problem))
    named = [entry.program, entry.solution] + ([entry.checker] if entry.checker else []) + \
            [entry.folder / name for name in lab.files]
    problems += [f"{path.name}: named in lab.yaml but missing" for path in named if not path.is_file()]
    if not lab.hints:
        problems.append("no hints")
    if lab.kind in ("hang", "perf") and not lab.diagnosis:
        problems.append(f"a {lab.kind} lab needs a diagnosis")
    if lab.kind == "perf" and "min_speedup" not in lab.check:
        problems.append("a perf lab needs check.min_speedup")
    if lab.symptom not in SYMPTOMS[lab.kind]:
        problems.append(f"symptom {lab.symptom!r} is not one a {lab.kind} lab shows "
                        f"({', '.join(sorted(SYMPTOMS[lab.kind]))})")
    return problems


def shipped_problem(entry, result: dict) -> str | None:
    """Why the shipped program's check does not show the lab's symptom (None: it does)."""
    outcome = result["evidence"]["outcome"]
    if result["passed"]:
        return "the shipped program passes its check: it shows no symptom"
    if entry.lab.symptom in RUN_ENDS_IN:
        if outcome != entry.lab.symptom:
            return f"the shipped program should {entry.lab.symptom}, but its run ended {outcome!r}"
        return None
    if outcome != "ok":
        return f"the shipped program should run to the end and fail its check, but its run ended {outcome!r}"
    return None


def failed_checks(result: dict) -> str:
    failed = [f"{check['name']}: {check.get('detail', '')}".rstrip(": ") for check in result["checks"]
              if not check["passed"]]
    return "; ".join(failed) or f"run ended {result['evidence']['outcome']!r}"


def selfcheck(entry, content_problems, run_root: Path) -> dict:
    from tutor.labs.checks import check_lab
    from tutor.labs.launch import visible_gpus

    report = {"lab": entry.name, "metadata": metadata_problems(entry, content_problems), "shipped": None,
              "solution": None, "skipped": None}
    if entry.lab.gpu_only and visible_gpus() == 0:
        report["skipped"] = "needs CUDA GPUs, and this machine has none"
    else:
        shipped = check_lab(entry, program=entry.program, run_root=run_root / "shipped")
        report["shipped"] = shipped_problem(entry, shipped)
        # A longer no-progress limit for the solution than the lab's own (which sets how soon the
        # shipped hang is called): on a loaded machine a correct run can stall for seconds.
        solution = check_lab(entry, solution=True, timeout_s=max(entry.lab.timeout_s, SOLUTION_TIMEOUT_S),
                             run_root=run_root / "solution")
        report["solution"] = None if solution["passed"] else f"the solution fails its check: {failed_checks(solution)}"
    report["ok"] = not report["metadata"] and report["shipped"] is None and report["solution"] is None
    return report


def run(args) -> int:
    from tutor.content import load
    from tutor.labs.catalog import all_labs, get_lab
    from tutor.labs.launch import require_torch

    content = load()  # loaded (and any problem noted) by `tutor lab` already; cached
    entries = [get_lab(args.name)] if args.name else list(all_labs().values())
    require_torch()
    reports = []
    with tempfile.TemporaryDirectory(prefix="tutor-selfcheck-") as root:
        for entry in entries:
            report = selfcheck(entry, content.problems, Path(root) / entry.name)
            reports.append(report)
            if not args.json:
                _print(report)
    failed = [report["lab"] for report in reports if not report["ok"]]
    if args.json:
        print_json({"labs": reports, "ok": not failed})
    else:
        print(f"{len(reports) - len(failed)} of {len(reports)} lab(s) pass their self-check"
              + (f"; failing: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def _print(report: dict) -> None:
    if report["skipped"] and not report["metadata"]:
        print(f"- {report['lab']}: metadata whole; runs skipped: {report['skipped']}", flush=True)
        return
    if report["ok"]:
        print(f"✓ {report['lab']}: metadata whole, the shipped program shows its symptom, the solution passes",
              flush=True)
        return
    print(f"✗ {report['lab']}:", flush=True)
    for problem in report["metadata"]:
        print(f"    metadata: {problem}")
    for key in ("shipped", "solution"):
        if report[key]:
            print(f"    {report[key]}")
    if report["skipped"]:
        print(f"    runs skipped: {report['skipped']}")
