"""`tutor lab diagnose`: grade the learner's diagnosis against the lab's rubric.

A plain keyword rubric, kept here until the grading package's rubric grader takes over: each
diagnosis item (which ranks, which call, which line, why) has key points, each with phrasings
per language; a point counts when any phrasing appears in the answer. Matching is on
normalised text (NFKC, lower case, runs of spaces and punctuation folded), and an ASCII
phrasing must stand as a whole word, so "r1" does not match "r10". The answer is only ever
searched, never evaluated.
"""

from __future__ import annotations

import re
import unicodedata

from tutor.content.models import DiagnosisItem

PASS_SCORE = 0.6


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[\s_]+", " ", text)
    return re.sub(r"\s*([,.;:!?()\[\]{}'\"`])\s*", r" \1 ", text).strip()


def _present(phrase: str, answer: str) -> bool:
    phrase = normalize(phrase)
    if not phrase:
        return False
    if phrase.isascii():
        return re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", answer) is not None
    return phrase in answer


def grade(items: list[DiagnosisItem], answer: str, lang: str = "en") -> dict:
    """{correct, score, feedback: [{item, covered, missing, model_answer}]}; any language counts."""
    text = normalize(answer)
    total = gained = 0.0
    feedback = []
    for item in items:
        covered, missing = [], []
        for point in item.points:
            phrases = [phrase for phrases in point.phrases.values() for phrase in phrases]
            total += point.weight
            if any(_present(phrase, text) for phrase in phrases):
                gained += point.weight
                covered.append(point.text.get(lang))
            else:
                missing.append(point.text.get(lang))
        feedback.append({"item": item.id, "prompt": item.prompt.get(lang), "covered": covered, "missing": missing,
                         "model_answer": item.model_answer.get(lang)})
    score = gained / total if total else 0.0
    return {"correct": score >= PASS_SCORE, "score": round(score, 3), "feedback": feedback}
