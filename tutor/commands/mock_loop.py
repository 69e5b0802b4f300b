"""`tutor mock` on a plain terminal: show a stage, time it, read the answer, go on (the answers are
given to `tutor.actions.mock`, which grades and records them).

Strict mode cuts an answer off at time up (what was typed is the answer) and says nothing about
right or wrong until the report; practice mode lets the clock run over, gives hints and the
lesson on request, and shows each verdict.
"""

from __future__ import annotations

import time

from tutor.actions import mock
from tutor.interview.clock import clock_text
from tutor.interview.present import reveals_setting, step_markdown, verdict_markdown
from tutor.interview.report import report_markdown
from tutor.interview.terminal import LineReader, read_answer
from tutor.text import T

WORDS = {
    "stage": T("[{index}/{total}] {format} · {budget} for this stage · {mode}",
               "[{index}/{total}] {format} · 本阶段 {budget} · {mode}"),
    "followup": T("Follow-up", "追问"),
    "how": T("Answer, then an empty line. :quit pauses, :end finishes now{extra}.",
             "作答后空一行提交。:quit 暂停，:end 立即结束{extra}。"),
    "extra": T(", :hint, :lesson", "，:hint 提示，:lesson 看课"),
    "recorded": T("Recorded — {used} of {budget}{late}.", "已记录——用时 {used}（共 {budget}）{late}。"),
    "late": T(", over time", "，超时"),
    "cut": T("Time is up: your answer so far was recorded.", "时间到：已按你写到的内容收卷。"),
    "paused": T("Paused. `tutor mock --resume` continues interview #{id} at this stage.",
                "已暂停。`tutor mock --resume` 从这一阶段继续第 {id} 场面试。"),
    "no_hint": T("No hints in strict mode." , "严格模式没有提示。"),
    "no_more": T("No more hints for this step.", "这一步没有更多提示了。"),
    "no_lesson": T("The lesson stays closed in strict mode.", "严格模式下不能看课。"),
    "export": T("Save it as Markdown: tutor mock --export", "导出为 Markdown：tutor mock --export"),
    "early": T("Ended in its first minute: recorded as abandoned (left out of the trend); your answers are kept.",
               "开始不到一分钟就结束：记为放弃（不计入趋势），已答内容保留。"),
}


def say(key: str, lang: str, **values: object) -> str:
    return WORDS[key].format(lang, **values)


def run_interview(session, lang: str, out, reader: LineReader | None = None) -> dict | None:
    """Run to the end (the report) or to a pause (None); every stage is stored as it ends."""
    reader = reader or LineReader()
    mode_word = {"strict": T("strict", "严格模式"), "practice": T("practice", "练习模式")}[session.mode]
    while not session.done:
        stage = session.current
        question, step, variant = session.question(), session.step(), session.variant()
        index = session.stages.index(stage) + 1
        header = say("stage", lang, index=index, total=len(session.stages), format=session.format.label(lang),
                     budget=clock_text(stage.budget_s), mode=mode_word.get(lang))
        print(f"\n{'─' * 72}\n{header}", file=out)
        if stage.followup:
            print(f"{say('followup', lang)}:", file=out)
        print(step_markdown(question, step, variant, lang, reveal_setting=reveals_setting(question, step)), file=out)
        print(say("how", lang, extra=say("extra", lang) if session.mode == "practice" else ""), file=out, flush=True)
        session.begin()
        deadline = time.monotonic() + stage.budget_s if session.mode == "strict" else None
        typed = read_answer(reader, deadline)
        while typed.command in (":hint", ":lesson"):
            print(_help_text(session, typed.command, lang), file=out, flush=True)
            typed = read_answer(reader, deadline)
        if typed.command == ":quit" or (typed.eof and not typed.text):
            print(say("paused", lang, id=session.id), file=out)
            return None
        if typed.command == ":end":
            report, early = mock.end(session)
            if early:
                print(say("early", lang), file=out)
            return _finish(report, lang, out)
        if typed.timed_out:
            print(say("cut", lang), file=out)
        result = mock.answer(session, typed.text, timed_out=typed.timed_out, lang=lang)
        if session.mode == "practice":
            print(verdict_markdown(result.verdict, lang), file=out)
        print(say("recorded", lang, used=clock_text(result.elapsed_s), budget=clock_text(stage.budget_s),
                  late=say("late", lang) if result.over_time else ""), file=out, flush=True)
        if typed.eof:
            break
    if not session.done:
        print(say("paused", lang, id=session.id), file=out)
        return None
    return _finish(session.report, lang, out)


def _finish(report: dict, lang: str, out) -> dict:
    print(f"\n{'═' * 72}\n{report_markdown(report, lang)}\n{say('export', lang)}", file=out, flush=True)
    return report


def _help_text(session, command: str, lang: str) -> str:
    if session.mode == "strict":
        return say("no_hint" if command == ":hint" else "no_lesson", lang)
    if command == ":hint":
        hint = session.hint()
        return f"→ {hint.get(lang)}" if hint is not None else say("no_more", lang)
    from tutor.content import load
    from tutor.content.render import render_lesson

    lesson_id, _, section_id = session.lesson_section().partition("/")
    section = render_lesson(load().lessons[lesson_id].model, lang).section(section_id)
    return f"## {section.title}\n\n{section.body.strip()}\n"
