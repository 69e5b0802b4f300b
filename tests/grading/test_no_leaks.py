"""No prompt, reference line, first hint or placeholder gives the answer away: every question
of the bank, every step, 20 seeds (issue 14 item 6)."""

from __future__ import annotations

from tutor.content import load
from tutor.grading.variant import draw
from tutor.grading.leaks import leaks

PLACEHOLDER_KEYS = ("answer.numeric", "answer.formula", "answer.numeric.short", "answer.numeric.plain",
                    "answer.formula.short")


def _placeholders():
    from tutor.ui.strings import STRINGS  # plain data, no textual

    return {key: STRINGS[key] for key in PLACEHOLDER_KEYS}


def test_the_checker_catches_the_leaks_of_the_review():
    """Hostile first: the three leaks found in review are caught on a copy of the question."""
    questions = load().questions
    dense = questions["config-dense-cluster"].model
    step = dense.steps[0]
    leaky = dense.model_copy(update={"prompt": dense.prompt.model_copy(
        update={"en": dense.prompt.en + " (e.g. TP=8 PP=1 CP=1 DP=8)"})})
    assert leaks(leaky, step, draw(leaky, 0))
    formula = questions["distopt-formula"].model
    leaky = formula.model_copy(update={"source": "lesson §memory (6Ψ + 12Ψ/N, N = DP × CP)"})
    assert leaks(leaky, formula.steps[0], draw(leaky, 0))
    numeric = questions["distopt-bytes-per-gpu"].model
    assert leaks(numeric, numeric.steps[0], draw(numeric, 0), {"x": ("a number, e.g. 39 GB", "如 39 GB")})


def test_no_question_gives_its_answer_away():
    placeholders = _placeholders()
    found = []
    for loaded in load().questions.values():
        question = loaded.model
        for seed in range(20):
            variant = draw(question, seed)
            for step in question.steps:
                for text in leaks(question, step, variant, placeholders):
                    found.append(f"{question.id}/{step.id} seed {seed}: {text}")
    assert not found, "\n".join(sorted(set(found))[:40])
