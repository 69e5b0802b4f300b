"""Texts of the Labs screen: the brief, a run's outcome, a check's verdict (pure functions, tested
without a terminal), and the screen's interface strings in both languages."""

from __future__ import annotations

from rich.text import Text

from tutor.labs.check_names import check_detail, check_name
from tutor.labs.report import KINDS, OUTCOMES
from tutor.text import T
from tutor.ui.strings import STRINGS, plural, register, text

register({
    "labs.list": T("Labs", "实验"),
    "labs.gpu_only": T("GPU only", "仅限 GPU"),
    "labs.busy_quit": T("A run of the lab {lab} (quitting stops it)", "实验 {lab} 的运行（退出会停止它）"),
    "labs.tab_brief": T("Brief", "说明"),
    "labs.tab_run": T("Run", "运行"),
    "labs.tab_evidence": T("Evidence", "证据"),
    "labs.loading": T("Loading the labs…", "正在读取实验…"),
    "labs.none": T("No labs installed.", "没有安装实验。"),
    "labs.still_loading": T("The labs are still loading: press the key again in a moment.",
                           "实验还在读取：稍等一下再按。"),
    "labs.keys": T("F4 start (your copy) · F5 run · F6 check · F7 stop · F8 watch (check on save) · F9 next lab · "
                  "F3 hint · Esc home",
                  "F4 开始（拷贝一份）· F5 运行 · F6 检查 · F7 停止 · F8 监视（保存即检查）· F9 下一个实验 · "
                  "F3 提示 · Esc 回首页"),
    "labs.perf_keys": T("Experiments: ctrl+d runs it with synthetic data, ctrl+r on one rank and on all of them.",
                       "控制变量实验：ctrl+d 换成 synthetic data 再跑，ctrl+r 对比一个 rank 和全部 rank。"),
    "labs.meta": T("{kind} · {ranks} · no-progress limit {timeout:g} s · {status}",
                  "{kind} · {ranks} 个 rank · 无进展超时 {timeout:g} 秒 · {status}"),
    "labs.status.new": T("not started", "未开始"),
    "labs.status.started": T("started", "已开始"),
    "labs.status.passed": T("passed", "已通过"),
    "labs.copy": T("Your copy: `{path}`", "你的副本：`{path}`"),
    "labs.no_copy": T("No copy yet: F4 copies the program for you to edit; F5 runs the shipped one.",
                     "还没有副本：F4 拷贝一份程序给你改；F5 运行原始程序。"),
    "labs.hints": T("Hints", "提示"),
    "labs.diagnose": T("Diagnose", "诊断"),
    "labs.answer": T("Your diagnosis: which ranks, which call, which line, why — Enter to grade",
                    "你的诊断：哪些 rank、哪个调用、哪一行、为什么——回车评分"),
    "labs.answer_perf": T("Your diagnosis: which category, what in the evidence shows it, why — Enter to grade",
                         "你的诊断：哪一类问题、证据里哪一处说明了它、为什么——回车评分"),
    "labs.answer.short": T("Ranks, call, line, why · Enter", "rank、调用、行号、原因·回车"),
    "labs.answer_perf.short": T("Category, evidence, why · Enter", "类别、证据、原因·回车"),
    "labs.started": T("Copied to {path}", "已拷贝到 {path}"),
    "labs.already": T("Already started: {path}", "已经开始过了：{path}"),
    "labs.busy": T("A run is going: F7 stops it first.", "正在运行：先按 F7 停止。"),
    "labs.idle": T("Nothing is running.", "没有在运行。"),
    "labs.no_hints": T("No more hints.", "没有更多提示了。"),
    "labs.phase": T("{action} · {phase}", "{action} · {phase}"),
    "labs.no_run": T("No run yet: F5 runs the lab, F6 checks it.", "还没有运行过：F5 运行，F6 检查。"),
    "labs.answer_after_run": T("Run the lab first (F5): the diagnosis is graded against what the run showed.",
                              "先运行（F5）：诊断要对照这次运行的证据来评分。"),
    "labs.empty_answer": T("Type a diagnosis first.", "请先写下诊断。"),
    "labs.no_diagnosis": T("This lab has no diagnosis questions; F6 checks your fix.",
                          "这个实验没有诊断题；F6 检查你的修改。"),
    "labs.outcome": T("{outcome} in {elapsed:.1f} s ({ranks}, {backend})",
                     "{outcome}，用时 {elapsed:.1f} 秒（{ranks} 个 rank，{backend}）"),
    "labs.passed": T("✓ Passed", "✓ 通过"),
    "labs.next_line": T("F9: next lab ({lab})", "F9：下一个实验（{lab}）"),
    "labs.passed_next": T("Passed. F9 opens the next lab: {lab}", "通过了。按 F9 打开下一个实验：{lab}"),
    "labs.all_passed": T("Every lab this machine can run is passed.", "这台机器能跑的实验都通过了。"),
    "labs.no_experiment": T("Experiments are for the perf labs.", "控制变量实验只适用于性能类实验。"),
    "labs.experiment_started": T("Experiment: vary {variable} (two runs, one after the other).",
                                "实验：改变 {variable}（依次跑两次）。"),
    "labs.experiment": T("Controlled experiment", "控制变量实验"),
    "labs.experiment_stopped": T("Experiment stopped: every run of it has ended.", "实验已停止：它的每次运行都已结束。"),
    "labs.check_at": T("check at {ranks} ranks (of {sizes})", "检查：{ranks} 个 rank（共 {sizes}）"),
    "labs.watch_off": T("Watch mode off.", "已关闭监视模式。"),
    "labs.watch_needs_copy": T("F4 first: watch mode checks your copy each time you save it.",
                              "先按 F4：监视模式会在你每次保存副本时重新检查。"),
    "labs.watching": T("◉ Watching {files}: each save checks it again (F6) · F8 stops",
                      "◉ 正在监视 {files}：每次保存都会重新检查（F6）· F8 停止"),
    "labs.saved": T("Saved {files}: checking.", "已保存 {files}：开始检查。"),
    "labs.saved_busy": T("Saved {files} while a run is going: F7 stops it, then save again.",
                        "保存了 {files}，但还有运行没结束：先按 F7 停止，再保存一次。"),
    # The runner's outcome words, as the outcome line shows them (Chinese mode said "cancelled").
    "labs.not_yet": T("✗ Not yet: {failed} failed", "✗ 还没通过：{failed} 项检查失败"),
    "labs.rank_line": T("rank {rank}: step {step}, exit {exit}", "rank {rank}：第 {step} 步，退出码 {exit}"),
    # The run's progress line (Chinese mode read "run · running", found in tmux).
    "labs.action.run": T("run", "运行"),
    "labs.action.check": T("check", "检查"),
    "labs.action.experiment": T("experiment {variable}", "实验：改变 {variable}"),
    "labs.phase.launching": T("launching", "启动中"),
    "labs.phase.running": T("running", "运行中"),
    "labs.phase.hang": T("hang", "卡死"),
    "labs.phase.stopping": T("stopping", "正在停止"),
    "labs.phase.finished": T("finished", "结束"),
    "labs.phase.collecting-evidence": T("collecting evidence", "收集证据中"),
    "labs.phase.quiet": T("no progress for {seconds} s", "{seconds} 秒没有进展"),
})


def phase_text(action: str, name: str, detail: str, lang: str) -> str:
    """The progress line of a run: the action and the runner's phase in `lang`; a detail the runner
    writes (the command, an outcome, the quiet time) translated where it is one of its own forms."""
    import re

    kind, _, variable = action.partition(" ")
    if f"labs.action.{kind}" in STRINGS and (kind != "experiment" or variable):
        action = text(f"labs.action.{kind}", lang, variable=variable) if variable else text(f"labs.action.{kind}", lang)
    phase = text(f"labs.phase.{name}", lang) if f"labs.phase.{name}" in STRINGS else name
    quiet = re.fullmatch(r"no progress for (\d+) s", detail)
    if quiet:
        detail = text("labs.phase.quiet", lang, seconds=quiet.group(1))
    elif detail in OUTCOMES:
        detail = OUTCOMES[detail].get(lang)
    return text("labs.phase", lang, action=action, phase=f"{phase} {detail}".strip()[:200])

OUTCOME_STYLE = {"ok": "bold green", "hang": "bold yellow", "crash": "bold red", "wrong": "bold red",
                 "slow": "bold magenta", "cancelled": "dim"}


def brief_markdown(entry, lang: str, status: str, hints_shown: int, workspace: str | None) -> str:
    lab = entry.lab
    lines = [f"## {lab.title.get(lang)}", "",
             f"*{text('labs.meta', lang, kind=kind_name(lab.kind, lang), ranks=_ranks(lab.world_size, lang), timeout=lab.timeout_s, status=text(f'labs.status.{status}', lang))}*",
             "", lab.brief.get(lang).rstrip(), "",
             text("labs.copy", lang, path=workspace) if workspace else text("labs.no_copy", lang), "",
             f"*{text('labs.keys', lang)}*", ""]  # prose, not code: a code span does not wrap
    if lab.kind == "perf":
        lines += [f"*{text('labs.perf_keys', lang)}*", ""]
    if hints_shown:
        lines += [f"**{text('labs.hints', lang)}**", ""]
        lines += [f"{index}. {hint.get(lang)}" for index, hint in enumerate(lab.hints[:hints_shown], 1)] + [""]
    if lab.diagnosis:
        lines += [f"**{text('labs.diagnose', lang)}**", ""]
        lines += [f"- {item.prompt.get(lang)}" for item in lab.diagnosis]
    return "\n".join(lines).rstrip() + "\n"


def outcome_text(evidence: dict, lang: str, check: dict | None = None, next_lab: str | None = None) -> Text:
    """The run's outcome line, the runner's summary, each rank's last step, and a check's verdict."""
    outcome = evidence["outcome"]
    shown = OUTCOMES[outcome].get(lang) if outcome in OUTCOMES else outcome
    line = Text(text("labs.outcome", lang, outcome=shown, elapsed=evidence.get("elapsed_s") or 0.0,
                     ranks=_ranks(evidence.get("world_size") or 0, lang), backend=evidence.get("backend")),
                style=OUTCOME_STYLE.get(evidence["outcome"], "bold"))
    line.append(f"\n{check_detail((evidence.get('summary') or {}).get('message', ''), lang)}\n")
    for rank in evidence.get("ranks") or []:
        pending = rank.get("pending") or {}
        where = f"{pending.get('op')} ({pending.get('site')})" if pending and evidence["outcome"] != "ok" else ""
        line.append("  " + text("labs.rank_line", lang, rank=rank["rank"],
                                step="-" if rank["last_step"] is None else rank["last_step"],
                                exit="-" if rank["exit_code"] is None else rank["exit_code"]) + f" {where}\n",
                    style="dim")
    if check is not None:
        failed = sum(not item["passed"] for item in check["checks"])
        line.append("\n" + (text("labs.passed", lang) if check["passed"] else
                            text("labs.not_yet", lang, failed=plural(failed, "check", "checks", lang))) + "\n",
                    style="bold green" if check["passed"] else "bold red")
        for item in check["checks"]:
            line.append(f"  {'✓' if item['passed'] else '✗'} {check_name(item['name'], lang)}{'：' if lang == 'zh' else ': '}",
                        style="green" if item["passed"] else "red")
            line.append(f"{check_detail(item['detail'], lang)}\n")
        if check["passed"]:
            line.append("\n" + (text("labs.next_line", lang, lab=next_lab) if next_lab else text("labs.all_passed", lang))
                        + "\n", style="bold")
    return line


def kind_name(kind: str, lang: str) -> str:
    """A lab's kind in the learner's language (Chinese mode showed "parallel", "hang", "perf")."""
    return KINDS[kind].get(lang) if kind in KINDS else kind


def _ranks(count: int, lang: str) -> str:
    return plural(count, "rank", "ranks", lang)
