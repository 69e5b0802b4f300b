"""Open and clarify steps: the rubric's claims, stated or not, then the model answer.

Each key point is a claim (`tutor.grading.claims`): it counts when one clause of the answer
states it with the right polarity; said the other way round ("DP does not communicate once
per step") it does not count, and a stated contradiction ("TP across nodes") costs its weight
and is named. A bare list of terms and the question pasted back state nothing, and the
feedback says so. The score is the covered weight, less the contradicted weight, over the
total; the step is right at `pass_score`, with every `required` point covered and no
contradiction.

This is still a reading of words, not of understanding: the model answer is always shown
after, and the learner may grade themselves instead (`self_assessment`), recorded as such.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from tutor.grading.claims.asking import ASK_VERBS
from tutor.grading.claims.clauses import read
from tutor.grading.claims.folding import _CJK, _words, fold
from tutor.grading.claims.model import Reading
from tutor.grading.claims.points import Judgement, judge
from tutor.grading.claims.rank_words import numbers_as_digits
from tutor.grading.claims.self_answered import as_labels
from tutor.grading.normalize import LONG_LIMIT, TooLong, clean
from tutor.grading.verdict import Message, Verdict, join, unreadable

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import ClarifyStep, KeyPoint, OpenStep

SELF_SCORES = {"yes": 1.0, "partly": 0.5, "no": 0.0}
BARE_LIST = Message("This reads as a list of terms, not as statements, and a list earns nothing: say how they "
                    "relate — what runs where, how often, and why.",
                    "这是一串术语，不是陈述，列词不得分：要说清它们之间的关系——什么放在哪里、多久一次、为什么。")
COPIED = Message("That repeats the question; it earns nothing. Answer it in your own words.",
                 "这是把题目又抄了一遍，不得分。请用自己的话回答。")


def grade_rubric(step: OpenStep | ClarifyStep, answer: str, self_assessment: str | None = None,
                 prompts: tuple[str, ...] = (), exhibits: tuple[str, ...] = ()) -> Verdict:
    """`prompts`: the question as the learner saw it (both languages), so a copy of it earns nothing;
    `exhibits`: the measurements, logs and stacks shown with it, so the evidence pasted back (with or
    without the question) earns nothing either (`pasted`)."""
    expected = {"model_answer": step.model_answer.model_dump(),
                "points": [{"id": point.id, "text": point.text.model_dump(), "required": point.required}
                           for point in step.points]}
    try:
        text = clean(answer, LONG_LIMIT)
    except TooLong as error:
        return unreadable([error.message], expected)
    # ranks said in words are digits, as a lab diagnosis reads them: "只有零号进了all_gather", "rank zero calls it"
    # (round 15: a right mock answer refused for 零号)
    text = numbers_as_digits(text)
    whole = read(text, prompts)
    if prompts and not whole.copied and pasted(text, prompts + exhibits):
        whole = _all_copied(whole)
    if step.kind == "clarify":
        reading = asking(whole, text)
    else:  # "Who? rank 213. Why? …" answered as it asked; the asked points still read the questions as asked
        labelled = as_labels(text)
        relabelled = read(labelled, prompts) if labelled != text else whole
        if whole.copied and not relabelled.copied:  # the answer as written was found pasted
            relabelled = _all_copied(relabelled)
        reading = stating(relabelled)
    judged = {point.id: judge(point, whole if point.asked else reading) for point in step.points}
    share, covered, contradicted = tally(step.points, judged)
    required = any(point.required for point in step.points)
    missing_required = [point for point in step.points if point.required and point.id not in covered]
    correct = share >= step.pass_score and not missing_required and not contradicted
    honest = not any(item.denied or item.contradiction is not None for item in judged.values())
    topical = 0 < share < 1 and on_topic(step.points, whole, reading)
    score = credit(share, correct, topical and honest)
    if 0 < share < 1 and not topical and not correct:
        score = min(score, WRONG_CAP)  # mostly about something else: off-topic text scores at most 0.2
    # The share of weight is not the score (the score rises faster: `credit`), so it is shown as the
    # points stated, never called a score: "◐ 部分正确（41%）" over "要点得分 22%" read as two scores.
    stated = f"{len(covered)} of {len(step.points)}", f"{len(covered)}/{len(step.points)}"
    messages = [Message(f"Key points stated: {stated[0]} ({share:.0%} of the rubric's weight; right from "
                        f"{step.pass_score:.0%}{', with every required point' if required else ''}, "
                        "and nothing contradicted).",
                        f"讲到的要点：{stated[1]}（占权重 {share:.0%}；达到 {step.pass_score:.0%}"
                        f"{'且必答要点都讲到' if required else ''}、没有说反才算对）。")]
    messages += reading_notes(reading)
    messages += _point_lines(step, judged)
    details = {"coverage": round(share, 4), "covered": covered,
               "missing": [point.id for point in step.points if point.id not in covered],
               "contradicted": contradicted, "bare_list": reading.bare, "copied": reading.copied}
    if self_assessment is not None:
        self_score = SELF_SCORES[self_assessment]
        messages.insert(0, Message(f"Self-assessed: {self_assessment} (rubric score {score:.0%}).",
                                   f"自评：{ {'yes': '答对了', 'partly': '部分对', 'no': '没答对'}[self_assessment]}"
                                   f"（按要点评分 {score:.0%}）。"))
        return Verdict(self_score == 1.0, self_score, covered, expected, join(messages), self_assessed=True,
                       details=details)
    if not text:
        messages.insert(0, Message("The answer is empty.", "答案是空的。"))
    return Verdict(correct, score, covered, expected, join(messages), details=details)


def _all_copied(reading: Reading) -> Reading:
    """The reading with every clause marked copied (the question or its evidence pasted back)."""
    return Reading([replace(clause, copied=True) for clause in reading.clauses], reading.words, reading.bare, True)


# The evidence pasted back: a clause-by-clause copy test (`read`) compares words with the question's,
# but an exhibit's log lines ("rank 5: CUDA out of memory at step 3072") hold the very words of the
# diagnosis, so a paste of them read as claims (hang-oom-dead-rank's stage pasted whole scored 0.83).
# A paste is told from an answer that quotes the evidence by runs of words: most of the answer's runs
# of four words are the exhibit's or the question's, where a quoting answer adds its own reasoning.
PASTE_RUN = 4
PASTE_SHARE = 0.7
PASTE_MIN_RUNS = 8


def pasted(answer: str, shown: tuple[str, ...]) -> bool:
    runs = _runs(answer)
    if len(runs) < PASTE_MIN_RUNS:
        return False
    if not _CJK.search(answer):  # an English answer is no paste of the Chinese text (and needs no segmenter)
        shown = tuple(text for text in shown if not _CJK.search(text))
    seen = _shown_runs(shown)
    return sum(run in seen for run in runs) >= PASTE_SHARE * len(runs)


def _runs(text: str) -> list[tuple[str, ...]]:
    words = _words(fold(text))
    return [tuple(words[index:index + PASTE_RUN]) for index in range(len(words) - PASTE_RUN + 1)]


@lru_cache(maxsize=256)
def _shown_runs(shown: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """Read once per question, as its prompt words are (`asking._prompt_words`)."""
    return frozenset(run for text in shown for run in _runs(text))


def tally(points: list[KeyPoint], judged: dict[str, Judgement]) -> tuple[float, list[str], list[str]]:
    """(score, covered ids, contradicted ids): covered weight less contradicted weight, over the total."""
    total = sum(point.weight for point in points)
    covered = [point.id for point in points if judged[point.id].counts]
    contradicted = [point.id for point in points if judged[point.id].contradiction is not None]
    gained = sum(point.weight for point in points if point.id in covered)
    lost = sum(point.weight for point in points if point.id in contradicted)
    return max(0.0, (gained - lost) / total) if total else 0.0, covered, contradicted


# Partial credit (issue 14: strong answers >= 0.8, honest partial ones 0.3-0.6, lists, negations
# and off-topic text <= 0.2). The pass decision stays on the share of weight stated; the score
# rises faster than the share, so one point of five is worth about 0.4 and not 0.2, as an
# interviewer credits an answer that gets the main thing right. An answer not right is held to
# PARTIAL_CAP. Two kinds of answer keep the bare share: one that says a point the other way round
# or states a contradiction (not an honest partial answer), and one mostly about something else
# (most of its statements make no point of this rubric: another question's answer that brushes one).
# A lab diagnosis also needs its required part said (`tutor.labs.diagnose`): there a wrong culprit
# is the usual wrong answer, and the rest of its points are easy to brush.
PARTIAL_CURVE = 0.6
PARTIAL_CAP = 0.6
# A wrong answer that brushes some points scores at most this: a diagnosis that puts another rank in
# the culprit's place or names another category as the cause (`tutor.labs.diagnose`), and an answer
# mostly about something else (another question's answer stating two of this rubric's points).
WRONG_CAP = 0.2
ON_TOPIC_SHARE = 0.5


def credit(share: float, correct: bool, on_topic: bool) -> float:
    """The score of an answer that states `share` of the rubric's weight: 0 stays 0, all stays 1."""
    if share <= 0.0:
        return 0.0
    if share >= 1.0:
        return 1.0
    if not on_topic:
        return share if correct else min(share, PARTIAL_CAP)  # not right is never above an honest partial answer
    lifted = share ** PARTIAL_CURVE
    return lifted if correct else min(lifted, PARTIAL_CAP)


def on_topic(points: list[KeyPoint], whole: Reading, reading: Reading) -> bool:
    """Whether at least half of the answer's statements make, deny or contradict a point here."""
    stating = [clause for clause in reading.clauses if clause.states]
    if not stating:
        return False
    hits = 0
    for clause in stating:
        alone = Reading([clause], 0, False, False)
        if any(_touches(judge(point, alone)) for point in points):
            hits += 1
    return hits >= ON_TOPIC_SHARE * len(stating)


def _touches(judgement: Judgement) -> bool:
    return judgement.said or judgement.denied or judgement.contradiction is not None


def asking(reading: Reading, text: str) -> Reading:
    """A clarify step is answered with questions: only the clauses that ask count, unless the
    answer says it asks ("I'd ask about the model size and the tokens"). A pitch that mentions
    "how many GPUs one copy needs" in passing asks nothing."""
    if ASK_VERBS.search(text):
        return reading
    return Reading([clause for clause in reading.clauses if clause.question], reading.words, reading.bare, reading.copied)


def stating(reading: Reading) -> Reading:
    """An open step or a diagnosis is answered with statements: a clause that only asks ("Sharded?
    Async? Young?") states nothing, or a list of terms with question marks would pass."""
    kept = [clause for clause in reading.clauses if not clause.marked or _weighs(clause)]
    if len(kept) == len(reading.clauses):
        return reading
    return Reading(kept, reading.words, reading.bare or not kept, reading.copied)


def _weighs(clause) -> bool:
    """A question that weighs two answers is a step of a method ("First, is every rank slower or only
    one?", "是全局还是局部？"): it stays, when it is a sentence (four words or more) and not a list."""
    text = " ".join(fragment.text for fragment in clause.fragments if fragment.base is None)
    return not clause.bare and (" or " in f" {text} " or "还是" in text) and len(text.split()) >= 4


def reading_notes(reading: Reading) -> list[Message]:
    if reading.bare:
        return [BARE_LIST]
    if reading.copied:
        return [COPIED]
    return []


def covers(point: KeyPoint, text: str) -> bool:
    """Whether `text` states the point (with the right polarity, not contradicted), for other graders."""
    return judge(point, read(text)).counts


MISSED_LABELS = {"open": ("Missing", "没讲到"), "clarify": ("Also ask", "还应该问")}
"""(en, zh) label of a point the answer did not state, by step kind (see `conceal`)."""


NOT_YET = {"open": ("✗ Not yet said: {n} of the rubric's points{required}.", "✗ 还没讲到：评分要点里的 {n} 条{required}。"),
           "clarify": ("✗ Not yet asked: {n} of the rubric's questions{required}.",
                       "✗ 还没问到：评分要点里的 {n} 个问题{required}。")}
REQUIRED_AMONG = (" ({n} of them required)", "（其中 {n} 条必答）")
REQUIRED_MARK = (" (required)", "（必答）")


def without_model_answer(feedback: str, step, lang: str) -> str:
    """The feedback less its last line, the model answer ("Model answer: …"), for a front end that
    shows the model answer under its own heading once asked (Practice's F5: it was printed twice
    once revealed, walkthrough polish 10) or not yet (`conceal`). A step with none is unchanged."""
    model = getattr(step, "model_answer", None)
    if model is None or not model.get(lang):
        return feedback
    return "\n".join(line for line in feedback.splitlines() if not line.rstrip().endswith(model.get(lang).rstrip()))


def conceal(feedback: str, step: OpenStep | ClarifyStep, lang: str) -> str:
    """The feedback of a wrong attempt before the learner asks for the answer: a missing point is
    counted, not quoted (its line is the rubric's own sentence), and the model answer is left out,
    so the next attempt cannot copy them. What was said (covered, said the other way round,
    contradicted) stays, as a lab diagnosis shows which part is wrong (issue 14 item 2)."""
    missed_en, missed_zh = MISSED_LABELS[step.kind]
    prefix = f"✗ {missed_en}: " if lang == "en" else f"✗ {missed_zh}："
    lines = without_model_answer(feedback, step, lang).splitlines()
    kept = [line for line in lines if not line.startswith(prefix)]
    hidden = [line for line in lines if line.startswith(prefix)]
    if hidden:
        at = 0 if lang == "en" else 1
        required = sum(line.rstrip().endswith(REQUIRED_MARK[at].strip()) for line in hidden)
        kept.append(NOT_YET[step.kind][at].format(n=len(hidden),
                                                  required=REQUIRED_AMONG[at].format(n=required) if required else ""))
    return "\n".join(kept)


def _point_lines(step: OpenStep | ClarifyStep, judged: dict[str, Judgement]) -> list[Message]:
    lines: list[Message] = []
    said_en, said_zh = ("Asked", "问到了") if step.kind == "clarify" else ("Covered", "讲到了")
    missed_en, missed_zh = MISSED_LABELS[step.kind]
    for point in step.points:
        verdict = judged[point.id]
        if verdict.contradiction is not None:
            feedback = verdict.contradiction.feedback
            lines.append(Message(f"✗ Contradicted: {feedback.en}", f"✗ 说反了：{feedback.zh}"))
            continue
        if verdict.denied:
            lines.append(Message(f"✗ Said the other way round: {point.text.en}",
                                 f"✗ 说成了相反的意思：{point.text.zh}"))
            continue
        hit = verdict.counts
        label_en, label_zh = (said_en, said_zh) if hit else (missed_en, missed_zh)
        required_en, required_zh = REQUIRED_MARK if point.required and not hit else ("", "")
        lines.append(Message(f"{'✓' if hit else '✗'} {label_en}: {point.text.en}{required_en}",
                             f"{'✓' if hit else '✗'} {label_zh}：{point.text.zh}{required_zh}"))
    lines.append(Message(f"Model answer: {step.model_answer.en}", f"参考答案：{step.model_answer.zh}"))
    return lines
