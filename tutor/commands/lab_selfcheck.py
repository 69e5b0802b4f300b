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

from tutor.commands._common import add_json_flag, lang_of, print_json
from tutor.text import T

SYMPTOMS = {"parallel": {"wrong", "slow", "fail-check"}, "hang": {"hang", "crash"}, "perf": {"slow", "fail-check"}}
"""What the shipped program of each kind of lab may show."""
SOLUTION_TIMEOUT_S = 10.0
RUN_ENDS_IN = ("hang", "crash")
"""Symptoms that are the run's outcome; the others are a run that ends and fails its check."""
PROBLEMS = {
    "missing": T("{file}: named in lab.yaml but missing", "{file}：lab.yaml 里写了，文件却不存在"),
    "no_hints": T("no hints", "没有提示"),
    "no_diagnosis": T("a {kind} lab needs a diagnosis", "{kind} 类实验要有诊断题"),
    "no_speedup": T("a perf lab needs check.min_speedup", "perf 类实验要有 check.min_speedup"),
    "symptom": T("symptom {symptom!r} is not one a {kind} lab shows ({allowed})",
                 "症状 {symptom!r} 不是 {kind} 类实验会有的（可选：{allowed}）"),
    "passes": T("the shipped program passes its check: it shows no symptom", "原始程序通过了检查：它没有表现出症状"),
    "ended": T("the shipped program should {symptom}, but its run ended {outcome!r}",
               "原始程序应该 {symptom}，运行却以 {outcome!r} 结束"),
    "not_to_end": T("the shipped program should run to the end and fail its check, but its run ended {outcome!r}",
                    "原始程序应该跑到结束、再在检查里失败，运行却以 {outcome!r} 结束"),
    "failed_check": T("{name}: {detail}", "{name}：{detail}"),
    "joined": T("; ", "；"),
    "run_ended": T("run ended {outcome!r}", "运行以 {outcome!r} 结束"),
    "solution": T("the solution fails its check: {failed}", "参考答案没通过检查：{failed}"),
    "no_gpu": T("needs CUDA GPUs, and this machine has none", "需要 CUDA GPU，这台机器上没有"),
}
"""What a self-check finds wrong; the report keeps the English (`--json`), the text is in the learner's language."""
LABELS = {
    "skipped": T("- {lab}: metadata whole; runs skipped: {why}", "- {lab}：元数据完整；没有运行：{why}"),
    "ok": T("✓ {lab}: metadata whole, the shipped program shows its symptom, the solution passes",
            "✓ {lab}：元数据完整，原始程序表现出了症状，参考答案通过"),
    "failed": T("✗ {lab}:", "✗ {lab}："),
    "metadata": T("    metadata: {problem}", "    元数据：{problem}"),
    "runs_skipped": T("    runs skipped: {why}", "    没有运行：{why}"),
    "total": T("{passed} of {total} lab(s) pass their self-check", "{total} 个实验中有 {passed} 个通过自检"),
    "failing": T("; failing: {labs}", "；没通过：{labs}"),
}


def add_parsers(sub) -> None:
    selfcheck = sub.add_parser("selfcheck", help="for lab authors: each lab's metadata is whole, its shipped "
                                                 "program shows its symptom and its solution passes")
    selfcheck.add_argument("name", nargs="?", help="one lab (default: every lab)")
    add_json_flag(selfcheck)


def metadata_problems(entry, content_problems) -> list[T]:
    """What is missing or inconsistent in a lab's lab.yaml and files (empty: whole)."""
    lab, problems = entry.lab, []
    folder = entry.folder.resolve()
    for problem in content_problems:
        if folder in Path(problem.path).resolve().parents:
            problems.append(T(str(problem), str(problem)))  # the content loader's words are English only
    named = [entry.program, entry.solution] + ([entry.checker] if entry.checker else []) + \
            [entry.folder / name for name in lab.files]
    problems += [PROBLEMS["missing"].filled(file=path.name) for path in named if not path.is_file()]
    if not lab.hints:
        problems.append(PROBLEMS["no_hints"])
    if lab.kind in ("hang", "perf") and not lab.diagnosis:
        problems.append(PROBLEMS["no_diagnosis"].filled(kind=lab.kind))
    if lab.kind == "perf" and "min_speedup" not in lab.check:
        problems.append(PROBLEMS["no_speedup"])
    if lab.symptom not in SYMPTOMS[lab.kind]:
        problems.append(PROBLEMS["symptom"].filled(symptom=lab.symptom, kind=lab.kind,
                                                   allowed=", ".join(sorted(SYMPTOMS[lab.kind]))))
    return problems


def shipped_problem(entry, result: dict) -> T | None:
    """Why the shipped program's check does not show the lab's symptom (None: it does)."""
    outcome = result["evidence"]["outcome"]
    if result["passed"]:
        return PROBLEMS["passes"]
    if entry.lab.symptom in RUN_ENDS_IN:
        if outcome != entry.lab.symptom:
            return PROBLEMS["ended"].filled(symptom=entry.lab.symptom, outcome=outcome)
        return None
    if outcome != "ok":
        return PROBLEMS["not_to_end"].filled(outcome=outcome)
    return None


def failed_checks(result: dict) -> T:
    """The failed checks, each with its detail, in both languages (tutor.labs.check_names)."""
    from tutor.labs.check_names import check_detail, check_name

    failed = [check for check in result["checks"] if not check["passed"]]
    if not failed:
        return PROBLEMS["run_ended"].filled(outcome=result["evidence"]["outcome"])
    en, zh = (PROBLEMS["joined"].get(lang).join(
        PROBLEMS["failed_check"].format(lang, name=check_name(check["name"], lang),
                                        detail=check_detail(check.get("detail", ""), lang)).rstrip(":： ")
        for check in failed) for lang in ("en", "zh"))
    return T(en, zh)


def selfcheck(entry, content_problems, run_root: Path) -> dict:
    from tutor.labs.checks import check_lab
    from tutor.labs.launch import visible_gpus

    report = {"lab": entry.name, "metadata": metadata_problems(entry, content_problems), "shipped": None,
              "solution": None, "skipped": None}
    if entry.lab.gpu_only and visible_gpus() == 0:
        report["skipped"] = PROBLEMS["no_gpu"]
    else:
        shipped = check_lab(entry, program=entry.program, run_root=run_root / "shipped")
        report["shipped"] = shipped_problem(entry, shipped)
        # A longer no-progress limit for the solution than the lab's own (which sets how soon the
        # shipped hang is called): on a loaded machine a correct run can stall for seconds.
        solution = check_lab(entry, solution=True, timeout_s=max(entry.lab.timeout_s, SOLUTION_TIMEOUT_S),
                             run_root=run_root / "solution")
        report["solution"] = None if solution["passed"] else PROBLEMS["solution"].filled(failed=failed_checks(solution))
    report["ok"] = not report["metadata"] and report["shipped"] is None and report["solution"] is None
    return report


def run(args) -> int:
    from tutor.content import load
    from tutor.labs.catalog import all_labs, get_lab
    from tutor.labs.launch import require_torch

    content = load()  # loaded (and any problem noted) by `tutor lab` already; cached
    # `is None`, not falsy: an empty name (`tutor lab selfcheck ""`) is an unknown lab, not every lab
    entries = list(all_labs().values()) if args.name is None else [get_lab(args.name)]
    require_torch()
    reports = []
    with tempfile.TemporaryDirectory(prefix="tutor-selfcheck-") as root:
        for entry in entries:
            report = selfcheck(entry, content.problems, Path(root) / entry.name)
            reports.append(report)
            if not args.json:
                _print(report, lang_of(args))
    failed = [report["lab"] for report in reports if not report["ok"]]
    if args.json:
        print_json({"labs": [_english(report) for report in reports], "ok": not failed})
    else:
        lang = lang_of(args)
        print(LABELS["total"].format(lang, passed=len(reports) - len(failed), total=len(reports))
              + (LABELS["failing"].format(lang, labs=", ".join(failed)) if failed else ""))
    return 1 if failed else 0


def _english(report: dict) -> dict:
    """The report as `--json` gives it: each problem in English."""
    def plain(value):
        return value.en if isinstance(value, T) else value

    return {key: [plain(item) for item in value] if isinstance(value, list) else plain(value)
            for key, value in report.items()}


def _print(report: dict, lang: str) -> None:
    if report["skipped"] and not report["metadata"]:
        print(LABELS["skipped"].format(lang, lab=report["lab"], why=report["skipped"]), flush=True)
        return
    if report["ok"]:
        print(LABELS["ok"].format(lang, lab=report["lab"]), flush=True)
        return
    print(LABELS["failed"].format(lang, lab=report["lab"]), flush=True)
    for problem in report["metadata"]:
        print(LABELS["metadata"].format(lang, problem=problem))
    for key in ("shipped", "solution"):
        if report[key]:
            print(f"    {report[key].get(lang)}")
    if report["skipped"]:
        print(LABELS["runs_skipped"].format(lang, why=report["skipped"]))
