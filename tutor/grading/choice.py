"""Choice steps: answers by option id (`a`, `A`, `a, c`, `(b)`, `a 和 c`) or by an option's text.

A single-choice step is right when exactly the right option is chosen. A multiple-choice step
gives partial credit: (right picks − wrong picks) / right options, at least 0, and is right
only when the chosen set is exactly the right set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import re

from tutor.grading.normalize import SHORT_LIMIT, TooLong, clean, fold
from tutor.grading.verdict import Message, Verdict, join, unreadable

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import ChoiceStep

_SEPARATORS = re.compile(r"\s*(?:,|;|/|、|\band\b|和|与|及|&|\+|\s)\s*", re.IGNORECASE)
_WRAPPED = re.compile(r"^[(\[]?([a-z0-9]{1,3})[)\].:]?$", re.IGNORECASE)


def grade_choice(step: ChoiceStep, answer: str) -> Verdict:
    right = {option.id for option in step.options if option.correct}
    expected = sorted(right)
    try:
        cleaned = clean(answer, SHORT_LIMIT)
    except TooLong as error:
        return unreadable([error.message], expected)
    chosen = _chosen(step, cleaned)
    if chosen is None:
        ids = ", ".join(option.id for option in step.options)
        return unreadable([Message(f"Answer with option letters ({ids}), e.g. 'a' or 'a, c', or with an option's text.",
                                   f"请用选项字母（{ids}）作答，如 'a' 或 'a， c'，也可以写选项原文。")], expected)
    hits, wrong = len(chosen & right), len(chosen - right)
    if step.multiple:
        score = max(0.0, (hits - wrong) / len(right)) if right else 0.0
    else:
        score = 1.0 if chosen == right else 0.0
    correct = chosen == right
    messages = [Message("Right." if correct else "Not right.", "正确。" if correct else "不对。")]
    if not step.multiple and len(chosen) > 1:
        messages.append(Message("Choose one option.", "只能选一个。"))
    if step.multiple and not correct and hits < len(right):
        messages.append(Message(f"{len(right) - hits} right option(s) not chosen.", f"还有 {len(right) - hits} 个正确选项没选。"))
    for option in step.options:
        if option.id in chosen and option.why is not None:
            messages.append(Message(f"{option.id}: {option.why.en}", f"{option.id}：{option.why.zh}"))
    return Verdict(correct, score, sorted(chosen), expected, join(messages),
                   details={"right": sorted(chosen & right), "wrong": sorted(chosen - right)})


# What people put around the letters: "Answer: A", "option a", "I'd pick b", "The answer is c",
# "选 a", "答案是 b". Stripped before the letters are read.
_LEAD = re.compile(r"^\s*(?:(?:my\s+)?answers?\s*(?:is|are|:)?|the\s+answers?\s+(?:is|are)|i(?:'|’)?d\s+(?:pick|choose|go\s+with)|"
                   r"i\s+(?:pick|choose|would\s+pick|would\s+choose)|options?|choices?|答案\s*(?:是|:)?|选项?|我选)\s*[:：]?\s*",
                   re.IGNORECASE)
_OPTION_WORD = re.compile(r"\boptions?\s+", re.IGNORECASE)


def _chosen(step: ChoiceStep, cleaned: str) -> set[str] | None:
    picked = _letters(step, cleaned)
    if picked is not None:
        return picked
    stripped = _OPTION_WORD.sub("", _LEAD.sub("", cleaned, count=1)).strip(" .。")
    if stripped and stripped != cleaned:
        picked = _letters(step, stripped)
        if picked is not None:
            return picked
    ids = {option.id.casefold() for option in step.options}
    run = (stripped or cleaned).strip(" .。").casefold()
    # "ABCD", "acd": a run of distinct option letters, when every option id is one letter
    if all(len(i) == 1 for i in ids) and 1 < len(run) <= len(ids) and set(run) <= ids and len(set(run)) == len(run):
        return {option.id for option in step.options if option.id.casefold() in run}
    return None


def _letters(step: ChoiceStep, cleaned: str) -> set[str] | None:
    folded = fold(cleaned)
    if not folded:
        return None
    for option in step.options:  # the whole text of one option
        if folded in (fold(option.text.en), fold(option.text.zh)):
            return {option.id}
    ids = {option.id.casefold(): option.id for option in step.options}
    picked: set[str] = set()
    for part in _SEPARATORS.split(cleaned):
        if not part:
            continue
        match = _WRAPPED.match(part)
        if match is None or match.group(1).casefold() not in ids:
            return None
        picked.add(ids[match.group(1).casefold()])
    return picked or None
