"""The report of a mock interview: per-stage scores, the rubric, what to review next; Markdown export.

The rubric is what interviewers say separates candidates (interview-topics §2): clarifying
questions asked before computing, a number on every step (numbers right), the key points of
each open answer, and the time used against the time given.
"""

from __future__ import annotations

from tutor.interview.clock import clock_text
from tutor.interview.present import feedback_markdown

NUMBER_KINDS = ("numeric", "config", "formula")

LABELS: dict[str, tuple[str, str]] = {
    "title": ("Mock interview — {format} ({mode})", "模拟面试——{format}（{mode}）"),
    "strict": ("strict", "严格模式"),
    "practice": ("practice", "练习模式"),
    "finished": ("finished", "已完成"),
    "abandoned": ("abandoned — the answered stages are kept", "已放弃——已答的部分保留"),
    "summary": ("{when} · {used} used of {budget} · score {score} · {status}",
                "{when} · 用时 {used}（共 {budget}）· 得分 {score} · {status}"),
    "stages": ("Stages", "各阶段"),
    "table": ("| # | stage | score | time |", "| # | 阶段 | 得分 | 用时 |"),
    "followup": ("follow-up", "追问"),
    "not_reached": ("not reached", "没答到"),
    "timed_out": ("time up", "超时收卷"),
    "rubric": ("Rubric", "评分要点"),
    "clarifying": ("Clarifying questions asked: {asked} of {total}", "问到的澄清问题：{asked}/{total}"),
    "numbers": ("Numbers right: {right} of {total}", "数字算对：{right}/{total}"),
    "points": ("Key points covered: {covered} of {total}", "讲到的要点：{covered}/{total}"),
    "missed": (" — missed: ", "——漏了："),
    "time": ("Time used: {used} of {budget}", "用时：{used}（共 {budget}）"),
    "over": ("over time: {stages}", "超时的阶段：{stages}"),
    "followups": ("Follow-ups: {asked} asked, {right} right", "追问：问了 {asked} 个，答对 {right} 个"),
    "review": ("What to review next", "接下来复习"),
    "nothing": ("Nothing: every stage was right.", "没有：每一步都答对了。"),
    "review_cards": ("These questions are in your review queue (`tutor review`).",
                     "这些题已加入复习队列（`tutor review`）。"),
    "answers": ("Answers and feedback", "作答与反馈"),
    "your_answer": ("Your answer:", "你的回答："),
    "empty": ("(no answer)", "（未作答）"),
}


def label(key: str, lang: str, **values: object) -> str:
    en, zh = LABELS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def build_report(session, status: str, ended_at: str) -> dict:
    """The report of `session` (a MockSession) as plain JSON-ready data, both languages inside."""
    from tutor.grading import step_prompt

    answered = {result.stage.key: result for result in session.results}
    stages = []
    for index, stage in enumerate(session.stages):
        question, step = session.question(stage), session.step(stage)
        result = answered.get(stage.key)
        entry = {"key": stage.key, "number": index + 1, "question_id": question.id, "step_id": step.id,
                 "kind": step.kind, "followup": stage.followup, "section": question.section, "seed": stage.seed,
                 "weight": 1.0 if stage.followup else step.weight, "title": question.title.model_dump(),
                 "prompt": step_prompt(question, step, session.variant(stage)) if len(question.steps) > 1
                 else question.title.model_dump(),
                 "budget_s": stage.budget_s, "answered": result is not None}
        if result is not None:
            verdict = result.verdict
            details = verdict.get("details") or {}
            entry.update({"correct": result.correct, "score": round(result.score, 4),
                          "elapsed_s": round(result.elapsed_s, 1), "over_time": result.over_time,
                          "timed_out": result.timed_out, "hints_used": result.hints_used, "answer": result.answer,
                          "feedback": verdict.get("feedback", {}), "expected": verdict.get("expected")})
            if step.kind in ("open", "clarify"):
                texts = {point.id: point.text.model_dump() for point in step.points}
                entry["covered"] = [texts[key] for key in details.get("covered", []) if key in texts]
                entry["missing"] = [texts[key] for key in details.get("missing", []) if key in texts]
        else:
            entry.update({"correct": False, "score": 0.0})
        stages.append(entry)
    total_weight = sum(entry["weight"] for entry in stages)
    score = sum(entry["weight"] * entry["score"] for entry in stages) / total_weight if total_weight else 0.0
    return {"session": session.id, "format": session.format.id,
            "format_name": {"en": session.format.name[0], "zh": session.format.name[1]},
            "mode": session.mode, "status": status, "started_at": session.started_at, "ended_at": ended_at,
            "score": round(score, 4), "stages": stages, "rubric": _rubric(stages),
            "review_next": _review_next(session.library, stages)}


def _rubric(stages: list[dict]) -> dict:
    clarify = [entry for entry in stages if entry["kind"] == "clarify" and entry["answered"]]
    opens = [entry for entry in stages if entry["kind"] == "open" and entry["answered"]]
    numbers = [entry for entry in stages if entry["kind"] in NUMBER_KINDS]
    followups = [entry for entry in stages if entry["followup"]]
    answered = [entry for entry in stages if entry["answered"]]
    return {
        "clarifying": {"asked": [text for entry in clarify for text in entry["covered"]],
                       "missed": [text for entry in clarify for text in entry["missing"]]}
        if any(entry["kind"] == "clarify" for entry in stages) else None,
        "numbers": {"right": sum(entry["correct"] for entry in numbers), "total": len(numbers)},
        "key_points": {"covered": sum(len(entry["covered"]) for entry in opens),
                       "total": sum(len(entry["covered"]) + len(entry["missing"]) for entry in opens),
                       "missing": [text for entry in opens for text in entry["missing"]]},
        "time": {"used_s": round(sum(entry["elapsed_s"] for entry in answered), 1),
                 "budget_s": round(sum(entry["budget_s"] for entry in stages), 1),
                 "over_time": [entry["number"] for entry in answered if entry["over_time"]],
                 "timed_out": [entry["number"] for entry in answered if entry["timed_out"]]},
        "followups": {"asked": len(followups), "right": sum(entry["correct"] for entry in followups)},
    }


def _review_next(library, stages: list[dict]) -> list[dict]:
    """The lesson sections behind every stage that was not right, in the order they came up."""
    sections: dict[str, dict] = {}
    for entry in stages:
        if entry["correct"]:
            continue
        item = sections.setdefault(entry["section"], {"section": entry["section"], "title": None, "questions": [],
                                                      "stages": []})
        title = library.section_title(entry["section"])
        item["title"] = title.model_dump() if title is not None else None
        if entry["question_id"] not in item["questions"]:
            item["questions"].append(entry["question_id"])
        item["stages"].append(entry["number"])
    return list(sections.values())


def report_markdown(report: dict, lang: str = "en") -> str:
    """The report as a Markdown document (`tutor mock --export`)."""
    pick = (lambda pair: (pair or {}).get(lang) or (pair or {}).get("en", ""))
    rubric = report["rubric"]
    lines = [f"# {label('title', lang, format=pick(report['format_name']), mode=label(report['mode'], lang))}", "",
             label("summary", lang, when=report["started_at"].replace("T", " ").replace("+00:00", " UTC"),
                   used=clock_text(rubric["time"]["used_s"]), budget=clock_text(rubric["time"]["budget_s"]),
                   score=f"{report['score']:.0%}", status=label(report["status"], lang)),
             "", f"## {label('stages', lang)}", "", label("table", lang), "|---|---|---|---|"]
    for entry in report["stages"]:
        name = _one_line(pick(entry["prompt"]))
        if entry["followup"]:
            name = f"*{label('followup', lang)}:* {name}"
        if not entry["answered"]:
            lines.append(f"| {entry['number']} | {name} | — | {label('not_reached', lang)} |")
            continue
        mark = "✓" if entry["correct"] else "✗"
        time = f"{clock_text(entry['elapsed_s'])} / {clock_text(entry['budget_s'])}"
        if entry["timed_out"]:
            time += f" ({label('timed_out', lang)})"
        elif entry["over_time"]:
            time += " ⚠"
        lines.append(f"| {entry['number']} | {name} | {entry['score']:.0%} {mark} | {time} |")
    lines += ["", f"## {label('rubric', lang)}", ""]
    if rubric["clarifying"] is not None:
        clarifying = rubric["clarifying"]
        line = label("clarifying", lang, asked=len(clarifying["asked"]),
                     total=len(clarifying["asked"]) + len(clarifying["missed"]))
        if clarifying["missed"]:
            line += label("missed", lang) + _list(clarifying["missed"], pick, lang)
        lines.append(f"- {line}")
    if rubric["numbers"]["total"]:
        lines.append(f"- {label('numbers', lang, **rubric['numbers'])}")
    points = rubric["key_points"]
    if points["total"]:
        line = label("points", lang, covered=points["covered"], total=points["total"])
        if points["missing"]:
            line += label("missed", lang) + _list(points["missing"], pick, lang)
        lines.append(f"- {line}")
    line = label("time", lang, used=clock_text(rubric["time"]["used_s"]), budget=clock_text(rubric["time"]["budget_s"]))
    if rubric["time"]["over_time"]:
        line += "; " + label("over", lang, stages=", ".join(str(number) for number in rubric["time"]["over_time"]))
    lines.append(f"- {line}")
    if rubric["followups"]["asked"]:
        lines.append(f"- {label('followups', lang, **rubric['followups'])}")
    lines += ["", f"## {label('review', lang)}", ""]
    if report["review_next"]:
        for item in report["review_next"]:
            title = pick(item["title"]) if item["title"] else item["section"]
            lines.append(f"- **{title}** (`{item['section']}`) — " + ", ".join(f"#{n}" for n in item["stages"]))
        lines += ["", label("review_cards", lang)]
    else:
        lines.append(label("nothing", lang))
    lines += ["", f"## {label('answers', lang)}", ""]
    for entry in report["stages"]:
        if not entry["answered"]:
            continue
        lines += [f"### {entry['number']}. {_one_line(pick(entry['prompt']))}", "",
                  f"**{label('your_answer', lang)}**", ""]
        answer = entry["answer"].strip()
        lines += [f"> {row}" if row else ">" for row in answer.splitlines()] if answer else [label("empty", lang)]
        lines += ["", feedback_markdown(entry.get("feedback"), lang), ""]
    return "\n".join(lines).rstrip() + "\n"


def _list(texts: list[dict], pick, lang: str) -> str:
    return ("；" if lang == "zh" else "; ").join(pick(text) for text in texts)


def _one_line(text: str, limit: int = 90) -> str:
    flat = " ".join(text.split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
