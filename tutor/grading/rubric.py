"""Open and clarify steps: coverage of a rubric's key points, then the model answer.

A point counts when any of its phrasings (either language) appears in the answer. Both sides
are folded first (NFKC width, case, punctuation and hyphens as spaces), so `All-Reduce`,
`allreduce` and `all reduce` are one phrase. An English phrase must stand as whole words, with
optional English endings (`overlap` matches `overlapping`, `tp` does not match `output`);
a phrase with Chinese in it matches anywhere, spaces ignored. The score is the covered weight
over the total; the step is right at `pass_score` with every `required` point covered.

Coverage is keyword evidence, not understanding: the model answer is always shown after, and
the learner may grade themselves instead (`self_assessment`), which is recorded as such.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tutor.content.models import ClarifyStep, KeyPoint, OpenStep
from tutor.grading.normalize import LONG_LIMIT, TooLong, clean, fold
from tutor.grading.verdict import Message, Verdict, join, unreadable

SELF_SCORES = {"yes": 1.0, "partly": 0.5, "no": 0.0}
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def grade_rubric(step: OpenStep | ClarifyStep, answer: str, self_assessment: str | None = None) -> Verdict:
    expected = {"model_answer": step.model_answer.model_dump(),
                "points": [{"id": point.id, "text": point.text.model_dump(), "required": point.required}
                           for point in step.points]}
    try:
        text = clean(answer, LONG_LIMIT)
    except TooLong as error:
        return unreadable([error.message], expected)
    covered = [point for point in step.points if covers(point, text)]
    total = sum(point.weight for point in step.points)
    coverage = sum(point.weight for point in covered) / total
    missing_required = [point for point in step.points if point.required and point not in covered]
    correct = coverage >= step.pass_score and not missing_required
    messages = [Message(f"Key points covered: {coverage:.0%} (right from {step.pass_score:.0%}"
                        f"{', with every required point' if any(p.required for p in step.points) else ''}).",
                        f"要点覆盖 {coverage:.0%}（达到 {step.pass_score:.0%}"
                        f"{'且必答要点都讲到' if any(p.required for p in step.points) else ''}算对）。"),
                *_coverage_lines(step, covered)]
    details = {"coverage": round(coverage, 4), "covered": [point.id for point in covered],
               "missing": [point.id for point in step.points if point not in covered]}
    if self_assessment is not None:
        score = SELF_SCORES[self_assessment]
        messages.insert(0, Message(f"Self-assessed: {self_assessment} (rubric coverage {coverage:.0%}).",
                                   f"自评：{ {'yes': '答对了', 'partly': '部分对', 'no': '没答对'}[self_assessment]}"
                                   f"（要点覆盖 {coverage:.0%}）。"))
        return Verdict(score == 1.0, score, details["covered"], expected, join(messages), self_assessed=True,
                       details=details)
    if not text:
        messages.insert(0, Message("The answer is empty.", "答案是空的。"))
    return Verdict(correct, coverage, details["covered"], expected, join(messages), details=details)


def covers(point: KeyPoint, text: str) -> bool:
    """Whether `text` (cleaned) says the point in any of its phrasings."""
    folded = fold(text)
    compact = folded.replace(" ", "")
    for phrases in point.phrases.values():
        for phrase in phrases:
            pattern = _pattern(phrase)
            if pattern is None:
                continue
            if isinstance(pattern, str):
                if pattern in compact:
                    return True
            elif pattern.search(folded):
                return True
    return False


@lru_cache(maxsize=4096)
def _pattern(phrase: str) -> re.Pattern | str | None:
    folded = fold(clean(phrase, LONG_LIMIT))
    if not folded:
        return None
    if _CJK.search(folded):
        return folded.replace(" ", "")
    words = [re.escape(word) for word in folded.split(" ")]
    # Words may be run together or apart ("all reduce" = "allreduce"); English endings allowed,
    # with the final consonant doubled too ("overlap" -> "overlapping").
    last = folded[-1]
    doubled = f"|{re.escape(last)}(?:ed|ing)" if last.isalpha() and last not in "aeiouy" else ""
    return re.compile(r"(?<!\w)" + r" ?".join(words) + rf"(?:s|es|ed|d|ing{doubled})?(?!\w)")


def _coverage_lines(step: OpenStep | ClarifyStep, covered: list[KeyPoint]) -> list[Message]:
    lines: list[Message] = []
    said_en, said_zh = ("Asked", "问到了") if isinstance(step, ClarifyStep) else ("Covered", "讲到了")
    missed_en, missed_zh = ("Also ask", "还应该问") if isinstance(step, ClarifyStep) else ("Missing", "没讲到")
    for point in step.points:
        hit = point in covered
        mark = "✓" if hit else "✗"
        label_en, label_zh = (said_en, said_zh) if hit else (missed_en, missed_zh)
        required_en, required_zh = (" (required)", "（必答）") if point.required and not hit else ("", "")
        lines.append(Message(f"{mark} {label_en}: {point.text.en}{required_en}",
                             f"{mark} {label_zh}:{point.text.zh}{required_zh}"))
    lines.append(Message(f"Model answer: {step.model_answer.en}", f"参考答案：{step.model_answer.zh}"))
    return lines
