"""Design questions: ordered steps of the other kinds, with partial credit.

Each step is graded on its own (`tutor check ID ANSWER --step S`); the question's verdict
combines the latest verdict of every step, weighted by `weight`: score = Σ w·s / Σ w over all
steps (an unanswered step scores 0), right when every step is right. `next_step` is the first
step, in order, not yet answered right — what an interviewer would ask next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from collections.abc import Mapping

from tutor.grading.verdict import Message, Verdict, join

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import Question


def combine(question: Question, step_scores: Mapping[str, tuple[bool, float]]) -> Verdict:
    """The design verdict from each step's latest (correct, score); missing steps count 0."""
    total = sum(step.weight for step in question.steps)
    gained = sum(step.weight * max(0.0, min(1.0, step_scores[step.id][1]))
                 for step in question.steps if step.id in step_scores)
    right = [step.id for step in question.steps if step_scores.get(step.id, (False, 0.0))[0]]
    done = len(right) == len(question.steps)
    following = next_step(question, step_scores)
    messages = [Message(f"Design: {len(right)} of {len(question.steps)} steps right, score {gained / total:.0%}.",
                        f"设计题：{len(question.steps)} 步里答对 {len(right)} 步，得分 {gained / total:.0%}。")]
    if following is not None:
        messages.append(Message(f"Next step: {following}.", f"下一步：{following}。"))
    details = {"steps": [{"id": step.id, "kind": step.kind, "answered": step.id in step_scores,
                          "correct": step_scores.get(step.id, (False, 0.0))[0],
                          "score": step_scores.get(step.id, (False, 0.0))[1], "weight": step.weight}
                         for step in question.steps], "next": following}
    return Verdict(done, gained / total, right, [step.id for step in question.steps], join(messages), details=details)


def next_step(question: Question, step_scores: Mapping[str, tuple[bool, float]]) -> str | None:
    for step in question.steps:
        if not step_scores.get(step.id, (False, 0.0))[0]:
            return step.id
    return None
