"""The report of a mock interview: per-stage scores, the rubric, what to review next; Markdown export.

The rubric is what interviewers say separates candidates (interview-topics §2): clarifying
questions asked before computing, a number on every step (numbers right), the key points of
each open answer, and the time used against the time given. Beside the score, a communication
score (clarified first, within time, statements rather than lists of terms, the structure of a
candidate-led answer, a pitch that fits its thirty seconds) and a verdict in the words hiring
committees use — strong hire, hire, lean no, no — with the reasons that decided it.

The verdict's thresholds are the tutor's own, set against its score (they are not any company's
bar): strong hire at 85% with communication at 80% and nothing said backwards; hire at 70% with
communication at 60%; lean no at 50%; no below. A hire also needs something right on every stage
that carries a fifth or more of the interview: a hang round scored 72% ("hire") with its fix
stage 0% (a raised timeout offered as the fix; found driving the mock in tmux), and no committee
hires a debugger who cannot fix the hang. Many small stages (rapid fire's ten) stay averaged.
"""

from __future__ import annotations

from tutor.interview.clock import clock_text
from tutor.interview.present import feedback_markdown
from tutor.text import T

NUMBER_KINDS = ("numeric", "config", "formula")

LABELS: dict[str, T] = {
    "title": T("Mock interview — {format} ({mode})", "模拟面试——{format}（{mode}）"),
    "strict": T("strict", "严格模式"),
    "practice": T("practice", "练习模式"),
    "finished": T("finished", "已完成"),
    "abandoned": T("abandoned — the answered stages are kept", "已放弃——已答的部分保留"),
    "summary": T("{when} · {used} used of {budget} · score {score} · {status}",
                "{when} · 用时 {used}（共 {budget}）· 得分 {score} · {status}"),
    "stages": T("Stages", "各阶段"),
    "table": T("| # | stage | score | time |", "| # | 阶段 | 得分 | 用时 |"),
    "followup": T("follow-up", "追问"),
    "not_reached": T("not reached", "没答到"),
    "timed_out": T("time up", "超时收卷"),
    "rubric": T("Rubric", "评分要点"),
    "clarifying": T("Clarifying questions asked: {asked} of {total}", "问到的澄清问题：{asked}/{total}"),
    "numbers": T("Numbers right: {right} of {total}", "数字算对：{right}/{total}"),
    "points": T("Key points covered: {covered} of {total}", "讲到的要点：{covered}/{total}"),
    "missed": T(" — missed: ", "——漏了："),
    "time": T("Time used: {used} of {budget}", "用时：{used}（共 {budget}）"),
    "budget_added": T("{total} ({planned} + {added} for a follow-up)", "{total}：{planned}，追问加了 {added}"),
    "budget_added_many": T("{total} ({planned} + {added} for follow-ups)", "{total}：{planned}，追问加了 {added}"),
    "over": T("over time: {stages}", "超时的阶段：{stages}"),
    "followups": T("Follow-ups: {asked} asked, {right} right", "追问：问了 {asked} 个，答对 {right} 个"),
    "review": T("What to review next", "接下来复习"),
    "nothing": T("Nothing: every stage was right.", "没有：每一步都答对了。"),
    "review_cards": T("These questions are in your review queue (`tutor review`).",
                     "这些题已加入复习队列（`tutor review`）。"),
    "answers": T("Answers and feedback", "作答与反馈"),
    "your_answer": T("Your answer:", "你的回答："),
    "empty": T("(no answer)", "（未作答）"),
    "verdict": T("Verdict: **{level}** · communication and structure {communication}",
                "结论：**{level}** · 表达与结构 {communication}"),
    "strong-hire": T("strong hire", "强烈推荐录用"),
    "hire": T("hire", "录用"),
    "lean-no": T("lean no", "倾向不录用"),
    "no": T("no", "不录用"),
    "spoken": T("Spoken: {seconds} s of speech for a {cap} s answer; graded up to where {cap} s ends",
               "说出来约 {seconds} 秒，限时 {cap} 秒；只按前 {cap} 秒的内容打分"),
    "structure": T("Structure: {score} in the expected order", "结构：{score} 按预期顺序"),
    "out_of_order": T(" — out of turn: ", "——顺序不对："),
    "not_taken": T(" — not taken: ", "——没讲："),
    "colon": T(":", "："),
    # Items of a list in a line; a Chinese item's own full stop is dropped before "；" (_list).
    "separator": T("; ", "；"),
}

# Verdict thresholds (see the module docstring): (level, minimum score, minimum communication).
LEVELS = (("strong-hire", 0.85, 0.8), ("hire", 0.7, 0.6), ("lean-no", 0.5, 0.0), ("no", 0.0, 0.0))
# A stage this large a share of the interview's weight, scored below NOTHING_RIGHT (the ceiling of
# a bare list of terms, issue 14), keeps the verdict at lean no.
DECISIVE_SHARE = 0.2
NOTHING_RIGHT = 0.2
REASONS: dict[str, T] = {
    "clarified": T("asked the clarifying questions before computing", "先问清楚再计算"),
    "no-clarify": T("skipped clarifying questions: {missed}", "没问清楚就开算，漏了：{missed}"),
    "numbers": T("numbers right: {right} of {total}", "数字算对 {right}/{total}"),
    "points": T("key points covered: {covered} of {total}", "要点讲到 {covered}/{total}"),
    "contradicted": T("said something backwards: {what}", "有说反的地方：{what}"),
    "over-time": T("over time on {count} stage(s)", "{count} 个阶段超时"),
    "bare": T("answered with lists of terms instead of statements", "用一串名词代替了完整的表述"),
    "structure": T("set a clear structure ({score} in order)", "结构清楚（{score} 按顺序）"),
    "structure-off": T("structure out of order or incomplete ({score} in order)", "结构顺序乱或不完整（{score} 按顺序）"),
    "spoken-cut": T("the pitch ran {seconds} s of speech; what came after {cap} s was not heard",
                   "陈述说出来要 {seconds} 秒；{cap} 秒之后的内容面试官听不到"),
    "followups": T("follow-ups right: {right} of {asked}", "追问答对 {right}/{asked}"),
    "abandoned": T("the interview was not finished", "面试没有做完"),
    "missed-stage": T("nothing right on stage {numbers}, a large part of this interview",
                      "第 {numbers} 阶段几乎全错，而这一阶段在整场面试里占比很大"),
}


def label(key: str, lang: str, **values: object) -> str:
    return LABELS[key].format(lang, **values)


def build_report(session, status: str, ended_at: str) -> dict:
    """The report of `session` (a MockSession) as plain JSON-ready data, both languages inside."""
    from tutor.grading.dispatch import step_prompt

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
                entry["contradicted"] = [texts[key] for key in details.get("contradicted", []) if key in texts]
                entry["bare_list"] = bool(details.get("bare_list"))
            for key in ("spoken", "structure"):
                if key in verdict:
                    entry[key] = verdict[key]
            if "structure" in entry:
                texts = {point.id: point.text.model_dump() for point in step.points}
                entry["structure"] = {**entry["structure"], "texts": {key: texts[key] for key in texts}}
        else:
            entry.update({"correct": False, "score": 0.0})
        stages.append(entry)
    total_weight = sum(entry["weight"] for entry in stages)
    score = sum(entry["weight"] * entry["score"] for entry in stages) / total_weight if total_weight else 0.0
    rubric = _rubric(stages)
    return {"session": session.id, "format": session.format.id,
            "format_name": session.format.name.to_json(),
            "mode": session.mode, "status": status, "started_at": session.started_at, "ended_at": ended_at,
            "score": round(score, 4), "stages": stages, "rubric": rubric,
            "verdict": verdict_of(score, rubric, stages, status),
            "review_next": _review_next(session.library, stages)}


def communication(stages: list[dict]) -> dict:
    """How the answers were delivered, each part 0–1 where it applies; `score` is their mean."""
    answered = [entry for entry in stages if entry["answered"]]
    parts: dict[str, float] = {}
    clarify = [entry for entry in stages if entry["kind"] == "clarify"]
    if clarify:
        parts["clarified"] = sum(entry["score"] for entry in clarify) / len(clarify)
    if answered:
        parts["in_time"] = sum(not entry["over_time"] for entry in answered) / len(answered)
    free = [entry for entry in answered if entry["kind"] in ("open", "clarify")]
    if free:
        parts["statements"] = sum(not entry.get("bare_list") for entry in free) / len(free)
    structured = [entry["structure"]["score"] for entry in answered if "structure" in entry]
    if structured:
        parts["structure"] = sum(structured) / len(structured)
    spoken = [entry["spoken"] for entry in answered if "spoken" in entry]
    if spoken:
        parts["fits_time"] = sum(min(1.0, item["cap_s"] / item["seconds"]) if item["seconds"] else 1.0
                                 for item in spoken) / len(spoken)
    score = sum(parts.values()) / len(parts) if parts else 0.0
    return {"score": round(score, 4), "parts": {key: round(value, 4) for key, value in parts.items()}}


def verdict_of(score: float, rubric: dict, stages: list[dict], status: str) -> dict:
    """strong hire / hire / lean no / no, with the reasons (both languages) that decided it."""
    talk = communication(stages)
    contradicted = [text for entry in stages for text in entry.get("contradicted", [])]
    level = next(name for name, least, least_talk in LEVELS
                 if score >= least and talk["score"] >= least_talk and not (name == "strong-hire" and contradicted))
    if status != "finished" and level in ("strong-hire", "hire"):
        level = "lean-no"  # an interview left unfinished is not a hire, whatever was answered
    missed = _decisive_misses(stages)
    if missed and level in ("strong-hire", "hire"):
        level = "lean-no"
    reasons: list[dict] = []

    def add(key: str, **values: object) -> None:
        reason = REASONS[key]
        filled = T(reason.en.format(**{k: v.en if isinstance(v, T) else v for k, v in values.items()}),
                   reason.zh.format(**{k: v.zh if isinstance(v, T) else v for k, v in values.items()}))
        reasons.append({"id": key, **filled.to_json()})

    def joined(texts: list[dict]) -> T:
        return T(_list(texts, lambda text: text["en"], "en"), _list(texts, lambda text: text["zh"], "zh"))

    if status != "finished":
        add("abandoned")
    if missed:
        add("missed-stage", numbers=", ".join(str(number) for number in missed))
    if rubric["clarifying"] is not None:
        if rubric["clarifying"]["missed"]:
            add("no-clarify", missed=joined(rubric["clarifying"]["missed"]))
        else:
            add("clarified")
    if rubric["numbers"]["total"]:
        add("numbers", **rubric["numbers"])
    if rubric["key_points"]["total"]:
        add("points", covered=rubric["key_points"]["covered"], total=rubric["key_points"]["total"])
    if contradicted:
        add("contradicted", what=joined(contradicted))
    if rubric["time"]["over_time"]:
        add("over-time", count=len(rubric["time"]["over_time"]))
    if "statements" in talk["parts"] and talk["parts"]["statements"] < 1:
        add("bare")
    if "structure" in talk["parts"]:
        add("structure" if talk["parts"]["structure"] >= 0.8 else "structure-off",
            score=f"{talk['parts']['structure']:.0%}")
    for entry in stages:
        if entry.get("spoken", {}).get("cut"):
            add("spoken-cut", seconds=round(entry["spoken"]["seconds"]), cap=round(entry["spoken"]["cap_s"]))
    if rubric["followups"]["asked"]:
        add("followups", **rubric["followups"])
    return {"level": level, "label": LABELS[level].to_json(),
            "communication": talk, "reasons": reasons}


def _decisive_misses(stages: list[dict]) -> list[int]:
    """The numbers of the main stages (not follow-ups) worth DECISIVE_SHARE or more of the weight that
    got nothing right."""
    total = sum(entry.get("weight", 1.0) for entry in stages)
    return [entry.get("number", index + 1) for index, entry in enumerate(stages)
            if total and not entry.get("followup") and entry.get("weight", 1.0) / total >= DECISIVE_SHARE
            and entry["score"] < NOTHING_RIGHT]


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


def _budget_text(report: dict, lang: str) -> str:
    """The interview's time budget, saying what follow-ups added to the format's (walkthrough polish
    13: the format said 45:00, its report "of 48:00", and nothing said a follow-up added 3:00)."""
    followups = [entry["budget_s"] for entry in report["stages"] if entry["followup"]]
    total = report["rubric"]["time"]["budget_s"]
    if not sum(followups):
        return clock_text(total)
    return label("budget_added" if len(followups) == 1 else "budget_added_many", lang, total=clock_text(total),
                 planned=clock_text(total - sum(followups)), added=clock_text(sum(followups)))


def report_markdown(report: dict, lang: str = "en") -> str:
    """The report as a Markdown document (`tutor mock --export`)."""
    pick = (lambda pair: (pair or {}).get(lang) or (pair or {}).get("en", ""))
    rubric = report["rubric"]
    lines = [f"# {label('title', lang, format=pick(report['format_name']), mode=label(report['mode'], lang))}", "",
             label("summary", lang, when=report["started_at"].replace("T", " ").replace("+00:00", " UTC"),
                   used=clock_text(rubric["time"]["used_s"]), budget=_budget_text(report, lang),
                   score=f"{report['score']:.0%}", status=label(report["status"], lang)),
             ""]
    verdict = report.get("verdict")
    if verdict:
        lines += [label("verdict", lang, level=pick(verdict["label"]),
                        communication=f"{verdict['communication']['score']:.0%}"), ""]
        lines += [f"- {pick(reason)}" for reason in verdict["reasons"]] + [""]
    lines += [f"## {label('stages', lang)}", "", label("table", lang), "|---|---|---|---|"]
    for entry in report["stages"]:
        name = _one_line(pick(entry["prompt"]))
        if entry["followup"]:
            name = f"*{label('followup', lang)}{label('colon', lang)}* {name}"
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
    line = label("time", lang, used=clock_text(rubric["time"]["used_s"]), budget=_budget_text(report, lang))
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
        if entry.get("spoken", {}).get("cut"):
            lines += ["", label("spoken", lang, seconds=round(entry["spoken"]["seconds"]),
                                cap=round(entry["spoken"]["cap_s"]))]
        if "structure" in entry:
            structure, texts = entry["structure"], entry["structure"].get("texts", {})
            line = label("structure", lang, score=f"{structure['score']:.0%}")
            if structure["out_of_order"]:
                line += label("out_of_order", lang) + _list([texts[key] for key in structure["out_of_order"]
                                                             if key in texts], pick, lang)
            if structure["missing"]:
                line += label("not_taken", lang) + _list([texts[key] for key in structure["missing"]
                                                          if key in texts], pick, lang)
            lines += ["", line]
        lines += ["", feedback_markdown(entry.get("feedback"), lang), ""]
    return "\n".join(lines).rstrip() + "\n"


def _list(texts: list[dict], pick, lang: str) -> str:
    # "……四类。；hang 住了……" and "only when needed.; Each GEMM …" read as typos: an item's own full stop
    # is dropped before the separator (the list is a run of items after "missed:", not of sentences).
    return label("separator", lang).join(pick(text).rstrip("。.") for text in texts)


def _one_line(text: str, limit: int = 90) -> str:
    flat = " ".join(text.split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
