"""A lab diagnosis graded as `tutor lab diagnose` grades it, against the labelled evidence, in the
answer's own language; and one item of its feedback."""

from __future__ import annotations

from tests.grading.labelled.cases import evidence
from tutor.content import load
from tutor.labs.diagnose import grade_lab


def diagnose(lab: str, answer: str) -> dict:
    lang = "zh" if any("\u4e00" <= char <= "\u9fff" for char in answer) else "en"
    return grade_lab(list(load().labs[lab].model.diagnosis), answer, evidence(lab), lang)


def item(verdict: dict, name: str) -> dict:
    return next(entry for entry in verdict["feedback"] if entry["item"] == name)
