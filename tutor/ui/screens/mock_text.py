"""The mock screen's words (registered with the interface strings) and the Markdown it shows."""

from __future__ import annotations

from pathlib import Path

from tutor.text import T
from tutor.ui.strings import register, text

register({
    "mock.formats": T("Formats", "题型"),
    "mock.mode": T("mode: {mode} · F4", "模式：{mode} · F4"),
    "mock.strict": T("strict", "严格"),
    "mock.practice": T("practice", "练习"),
    "mock.intro": T(
        "## Mock interview\n\nPick a format on the left (↑↓, Enter). The clock starts when the question appears.\n\n"
        "- **Strict** (default): no hints, no lesson, no verdicts until the report; when a stage's time is up, "
        "what you typed is your answer.\n"
        "- **Practice** (F4): hints (F3), the lesson section (F5), a verdict after each answer (F6 goes on); the "
        "clock may run over.\n\nA vague or wrong answer may draw a follow-up question. Every stage is saved as it "
        "ends: leave at any time and the interview resumes next time. The report lists the rubric — clarifying "
        "questions asked, numbers right, key points covered, time used — and what to review next.",
        "## 模拟面试\n\n在左边选一个题型（↑↓，回车）。题目出现时开始计时。\n\n"
        "- **严格模式**（默认）：没有提示、不能看课，报告之前不告诉对错；某一阶段时间到，已经写下的就是你的答案。\n"
        "- **练习模式**（F4）：有提示（F3）、能看本节课文（F5），每答一题就给判定（F6 继续）；可以超时。\n\n"
        "答得含糊或答错，可能会被追问。每个阶段答完就保存：随时离开，下次接着答。报告会列出评分要点——问了哪些澄清问题、"
        "数字算对几个、讲到哪些要点、用了多少时间——以及接下来该复习什么。"),
    "mock.stage": T("stage {index} of {total}", "第 {index}/{total} 阶段"),
    "mock.followup": T("follow-up question", "追问"),
    "mock.followup_heading": T("Follow-up", "追问"),
    "mock.idle": T("no interview running", "没有进行中的面试"),
    "mock.strict_line": T("strict: cut off at 0:00", "严格：到点收卷"),
    "mock.practice_line": T("practice: may run over", "练习：可以超时"),
    "mock.time_up": T("Time is up: your answer so far was recorded.", "时间到：已按你写到的内容收卷。"),
    "mock.recorded": T("Recorded: {used} of {budget}.", "已记录：用时 {used}（共 {budget}）。"),
    "mock.next": T("F6: next question", "F6：下一题"),
    "mock.report_next": T("F6: the report", "F6：看报告"),
    "mock.no_more_hints": T("No more hints for this stage.", "这一阶段没有更多提示了。"),
    "mock.empty": T("Type an answer first (F9 ends the interview).", "请先作答（F9 结束面试）。"),
    "mock.empty.choice": T("Tick at least one option first: Space ticks the highlighted one (F9 ends the interview).",
                           "请先勾选至少一个选项：空格键勾选当前高亮的一项（F9 结束面试）。"),
    "mock.running": T("An interview is running: answer it, or end it with F9.", "有一场面试正在进行：继续答，或按 F9 结束。"),
    "mock.resume": T("An interview was interrupted: {format} (#{id}), started {started}, {answered} of {stages} "
                    "stages answered.\n\nResume it where it stopped (r), or record it as abandoned (a)? "
                    "Either way its answers are kept.",
                    "有一场面试中断了：{format}（#{id}），开始于 {started}，{stages} 个阶段答了 {answered} 个。\n\n"
                    "从中断处继续（r），还是记为放弃（a）？两种情况已答的内容都会保留。"),
    "mock.resume_button": T("Resume (r)", "继续（r）"),
    "mock.abandon_button": T("Abandon (a)", "放弃（a）"),
    "mock.abandoned": T("Recorded as abandoned; its answers are kept.", "已记为放弃；已答的内容保留。"),
    "mock.busy_quit": T("A mock interview (it is saved: you can resume it)", "一场模拟面试（已保存，下次可以接着答）"),
    "mock.end_confirm": T("End the interview now? Stages not reached score 0 and it counts in your trend.",
                         "现在结束面试？没答到的阶段记 0 分，并计入成绩趋势。"),
    "mock.end_confirm_early": T("End the interview now? It is in its first minute, so it is recorded as "
                               "abandoned and not counted in your trend.",
                               "现在结束面试？才开始不到一分钟，会记为放弃，不计入成绩趋势。"),
    "mock.end_yes": T("End it (y)", "结束（y）"),
    "mock.end_no": T("Go on (n)", "继续答（n）"),
    "mock.ended_early": T("Ended in its first minute: recorded as abandoned, not counted in the trend.",
                         "开始不到一分钟就结束：记为放弃，不计入成绩趋势。"),
    "mock.exported": T("Report written to {path}", "报告已写到 {path}"),
    "mock.report_keys": T("F8 writes this report as Markdown · pick a format for another interview",
                         "F8 把报告导出为 Markdown · 选一个题型再来一场"),
})

STAGE_LABELS = {"stage": "mock.stage", "followup": "mock.followup", "idle": "mock.idle",
                "strict": "mock.strict_line", "practice": "mock.practice_line"}
"""MockTimer's labels -> string keys (the stage label keeps its {index} and {total})."""


def stage_text(session, lang: str, stage=None) -> str:
    """A stage as asked (default: the current one): a follow-up says so; a design question keeps its
    numbers back until the clarifying questions are asked."""
    from tutor.interview.present import reveals_setting, step_markdown

    stage = stage or session.current
    question, step = session.question(stage), session.step(stage)
    body = step_markdown(question, step, session.variant(stage), lang, reveal_setting=reveals_setting(question, step),
                         list_options=False)
    if stage.followup:
        body = f"**{text('mock.followup_heading', lang)}**\n\n{body}"
    return body


def report_text(report: dict, lang: str) -> str:
    """The report as the pane's Markdown. Each answer is quoted there as typed and each feedback may
    quote it: escaped here, or `**b**` typed came back bold and `[a](x)` a link. (The exported .md
    file keeps them as written: a reader there sees the source.)"""
    from tutor.interview.report import report_markdown
    from tutor.ui import plain_markdown

    stages = [{**plain_markdown.verdict(entry), "answer": "\n".join(plain_markdown.escape(row)
                                                                   for row in entry["answer"].splitlines())}
              if entry.get("answered") and isinstance(entry.get("answer"), str) else entry
              for entry in report.get("stages", [])]
    return report_markdown({**report, "stages": stages}, lang)


def lesson_markdown(app, section: str, lang: str) -> str:
    """The lesson section behind a stage (practice mode), rendered by the engine through the app's cache."""
    from tutor.errors import TutorError

    lesson_id, _, section_id = section.partition("/")
    try:
        rendered = app.rendered_lesson(lesson_id, lang).section(section_id)
    except (TutorError, KeyError) as error:
        return f"**{error}**"
    return f"**{rendered.title}**\n\n{rendered.body.strip()}"


def export_report(report: dict, lang: str) -> Path:
    """Write the report as Markdown into <data folder>/reports (not the working folder, which may be a
    git checkout: walkthrough minor 21); the path written, which the notification shows."""
    from tutor.interview.report import report_markdown
    from tutor.paths import home_dir

    folder = home_dir() / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"mock-{report['session']}-{report['format']}.md"
    target.write_text(report_markdown(report, lang), encoding="utf-8")
    return target
