"""What a mock stage or a review item shows, as Markdown: the prompt with its numbers, the exhibit
(measurements and trace summary, or every rank's stack dump), the step asked, and the verdict.

Pure functions of content and grader output, shared by the CLI and the app, tested without a
terminal.
"""

from __future__ import annotations

from tutor.text import T

# The one wording of a verdict's heading: the app's strings (tutor.ui.strings) and the lab
# diagnosis feedback (review_tasks.lab_feedback_markdown) take theirs from here.
VERDICT: dict[str, T] = {"right": T("✓ Right", "✓ 正确"), "wrong": T("✗ Not right", "✗ 不对"),
           "partly": T("◐ Partly right ({score})", "◐ 部分正确（{score}）"),
           "step": T("Step {index} of {total}", "第 {index}/{total} 步"), "rank": T("rank {rank}", "rank {rank}"),
           "log": T("last log lines", "最后几行日志"), "options": T("Options", "选项"),
           "unit": T("answer in {unit}", "单位：{unit}"), "expected": T("Expected:", "答案：")}


def _say(key: str, lang: str, **values: object) -> str:
    return VERDICT[key].format(lang, **values)


def exhibit_markdown(question, variant, lang: str) -> str:
    """The scenario's exhibit, or "" for a bank question (which has none)."""
    from tutor.grading.variant import render

    exhibit = getattr(question, "exhibit", None)
    if exhibit is None:
        return ""
    parts = []
    if exhibit.text is not None:
        parts.append(render(exhibit.text.get(lang), variant.values, lang).rstrip())
    for stack in exhibit.stacks:
        heading = f"**{_say('rank', lang, rank=stack.rank)} · py-spy dump**"
        parts.append(f"{heading}\n\n```text\n{stack.stack.rstrip()}\n```")
        if stack.log:
            parts.append(f"*{_say('log', lang)}*\n\n```text\n{stack.log.rstrip()}\n```")
    return "\n\n".join(parts)


def reveals_setting(question, step) -> bool:
    """A design question opening with clarifying questions keeps its numbers back until they are asked."""
    return not (step.kind == "clarify" and question.steps[0].id == step.id and len(question.steps) > 1)


def step_markdown(question, step, variant, lang: str, reveal_setting: bool = True, list_options: bool = True) -> str:
    """The question as asked at one step: title, prompt, the step's own prompt, then the exhibit.

    `reveal_setting=False` keeps the question's prompt (the scenario's numbers) back — the design
    format asks its clarifying questions before the interviewer gives the setting.
    `list_options=False` leaves a choice step's options to the answer widget that shows them.
    """
    from tutor.grading.dispatch import step_prompt
    from tutor.grading.variant import render

    parts = [f"## {question.title.get(lang)}", ""]
    if reveal_setting:
        parts += [render(question.prompt.get(lang), variant.values, lang).strip(), ""]
    if len(question.steps) > 1:
        index = [item.id for item in question.steps].index(step.id)
        parts += [f"**{_say('step', lang, index=index + 1, total=len(question.steps))}**", "",
                  step_prompt(question, step, variant)[lang], ""]
    if step.kind == "choice" and list_options:
        parts += [f"*{_say('options', lang)}*", ""]
        parts += [f"- **{option.id}**) {option.text.get(lang)}" for option in step.options] + [""]
    if step.kind == "numeric" and step.answer.unit != "x":
        parts += [f"*{_say('unit', lang, unit=step.answer.unit)}*", ""]
    exhibit = exhibit_markdown(question, variant, lang) if reveal_setting else ""
    if exhibit:
        parts += ["---", "", exhibit, ""]
    return "\n".join(parts).rstrip() + "\n"


def verdict_markdown(verdict: dict, lang: str, reveal: bool = True) -> str:
    """A grader's verdict (`Verdict.to_json()`): right or wrong, the feedback, the expected answer."""
    if verdict["correct"]:
        heading = _say("right", lang)
    elif 0 < verdict["score"] < 1:
        heading = _say("partly", lang, score=f"{verdict['score']:.0%}")
    else:
        heading = _say("wrong", lang)
    parts = [f"### {heading}", "", feedback_markdown(verdict.get("feedback"), lang)]
    expected = verdict.get("expected")
    if reveal and isinstance(expected, dict) and isinstance(expected.get("text"), dict):
        parts += ["", f"**{_say('expected', lang)}** {expected['text'].get(lang)}"]
    elif reveal and isinstance(expected, list) and all(isinstance(item, str) for item in expected):
        parts += ["", f"**{_say('expected', lang)}** {', '.join(expected)}"]
    return "\n".join(parts).rstrip() + "\n"


def feedback_markdown(feedback: dict | None, lang: str) -> str:
    """A grader's feedback, one remark a line (a Markdown hard break keeps them apart)."""
    lines = [line.strip() for line in (feedback or {}).get(lang, "").splitlines() if line.strip()]
    return "  \n".join(lines)
