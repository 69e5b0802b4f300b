"""`tutor lab diagnose`: grade the learner's diagnosis against the lab's rubric.

Each diagnosis item (which ranks, which call, which category, why) has key points, each with
phrasings per language; a point counts when any phrasing appears in the answer, matched by
the grading package's rubric matcher (`tutor.grading.rubric.covers`: width, case, hyphens and
punctuation folded, English endings allowed, an English phrase only as whole words, so "r1"
does not match "r10"). The answer is only ever searched, never evaluated.
"""

from __future__ import annotations

from tutor.content.models import DiagnosisItem
from tutor.grading.normalize import LONG_LIMIT, clean
from tutor.grading.rubric import covers

PASS_SCORE = 0.6


def grade(items: list[DiagnosisItem], answer: str, lang: str = "en") -> dict:
    """{correct, score, feedback: [{item, covered, missing, model_answer}]}; any language counts.

    Correct at PASS_SCORE of the points' weight, with every `required` point covered.
    """
    text = clean(answer[:LONG_LIMIT], LONG_LIMIT)  # the caller bounds the length; never raise here
    total = gained = 0.0
    feedback = []
    missing_required = False
    for item in items:
        covered, missing = [], []
        for point in item.points:
            total += point.weight
            if covers(point, text):
                gained += point.weight
                covered.append(point.text.get(lang))
            else:
                missing.append(point.text.get(lang))
                missing_required |= point.required
        feedback.append({"item": item.id, "prompt": item.prompt.get(lang), "covered": covered, "missing": missing,
                         "model_answer": item.model_answer.get(lang)})
    score = gained / total if total else 0.0
    return {"correct": score >= PASS_SCORE and not missing_required, "score": round(score, 3), "feedback": feedback}


def grade_lab(items: list[DiagnosisItem], answer: str, evidence: dict | None, lang: str = "en") -> dict:
    """The one diagnosis grader the CLI and the app share: against the run's evidence when it
    hung or crashed, else against the lab's rubric alone."""
    if evidence is not None and evidence.get("outcome") in ("hang", "crash"):
        from tutor.labs.hangfacts import grade_run

        return grade_run(items, answer, evidence, lang)
    return grade(items, answer, lang)
