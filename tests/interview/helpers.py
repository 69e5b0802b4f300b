"""Shared by the interview and mock-UI tests: the fixture content tree, and right answers."""

from __future__ import annotations

from pathlib import Path

FIXTURE_ROOT = Path(__file__).resolve().parent / "fixtures" / "content"


def point_at(root: Path, monkeypatch) -> None:
    """Make `root` the installed content and forget what was loaded before."""
    from tutor.content import load

    monkeypatch.setenv("TUTOR_CONTENT", str(root))
    load.cache_clear()


def right_answer(session, stage=None) -> str:
    """What a strong candidate answers to a stage: the engine's value, the right options, the model answer."""
    from tutor.grading.dispatch import expected_answer

    stage = stage or session.current
    question, step = session.question(stage), session.step(stage)
    expected = expected_answer(question, step, session.variant(stage))
    if step.kind == "numeric":
        return expected["text"]["en"]
    if step.kind == "choice":
        return ", ".join(expected["options"])
    if step.kind == "config":
        return " ".join(f"{key.upper()}={value}" for key, value in expected["example"].items() if value)
    return step.model_answer.en
