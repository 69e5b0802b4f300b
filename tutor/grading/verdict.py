"""What every grader returns: a Verdict, with feedback in both languages (DESIGN §5).

`tutor check --json` prints `Verdict.to_json()`: `{correct, score, parsed, expected, feedback}`.
Feedback is built from `Message`s so each grader says a thing once, in English and Chinese.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor.text import T

Message = T
"""One sentence of feedback in both languages: the bilingual text type (`tutor.text.T`), under
the name the graders' `Message(en, zh)` calls use (tests/unit/test_message_punctuation reads them)."""


def join(messages: list[Message]) -> dict[str, str]:
    """Messages as the `feedback` object: one line per message, per language."""
    return T("\n".join(m.en for m in messages), "\n".join(m.zh for m in messages)).to_json()


@dataclass(frozen=True)
class Verdict:
    """The outcome of grading one answer to one step."""

    correct: bool
    score: float
    """0..1; partial credit for choice, rubric, config and design answers."""
    parsed: object
    """What the grader read from the answer (JSON-ready), or None when it could not read it."""
    expected: object
    """The expected answer (JSON-ready); callers decide whether to show it (`reveal`)."""
    feedback: dict[str, str]
    """`{"en": ..., "zh": ...}`, one line per remark."""
    mistake: str | None = None
    """Id of a recognised mistake (e.g. `forgot-cp-in-shard`), for progress and review."""
    self_assessed: bool = False
    """The score is the learner's own judgement (open and clarify steps)."""
    details: dict = field(default_factory=dict)
    """Per-rule, per-point or per-step breakdown for the interface (JSON-ready)."""

    @property
    def readable(self) -> bool:
        """Whether the answer could be read at all (an unreadable answer is not an attempt)."""
        return self.parsed is not None

    def to_json(self, reveal: bool = True) -> dict:
        return {
            "correct": self.correct,
            "score": round(self.score, 4),
            "parsed": self.parsed,
            "expected": self.expected if reveal else None,
            "feedback": dict(self.feedback),
            "mistake": self.mistake,
            "self_assessed": self.self_assessed,
            "details": self.details,
        }


def unreadable(messages: list[Message], expected: object = None) -> Verdict:
    """The verdict for an answer the grader could not read: wrong, score 0, parsed None."""
    return Verdict(False, 0.0, None, expected, join(messages))
