"""A due review card turned into something to answer (answering it: `tutor.actions.review`).

A question card asks one step: the step the learner last did worst (what they got wrong comes
back), with new numbers when the question is parametric. A lab card asks the lab's diagnosis
questions again, with its brief. The grade — never the learner's own opinion — rates the card
(`tutor.interview.review.rating_for`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tutor.interview.review import PAR_SECONDS, lab_item, question_item
from tutor.store.db import Store
from tutor.store.mocks import all_stage_results
from tutor.store.records import latest_step_scores
from tutor.text import T


@dataclass(frozen=True)
class ReviewTask:
    item_id: str
    kind: str
    """"question" or "lab"."""
    title: dict
    """{en, zh}"""
    par_s: float
    question: object = None
    step: object = None
    seed: int = 0
    lab_name: str | None = None
    lab: object = None
    in_bank: bool = False
    """A bank question (its answers join the attempts), not an interview scenario."""

    def prompt_markdown(self, lang: str, list_options: bool = True) -> str:
        if self.kind == "question":
            from tutor.grading.variant import draw
            from tutor.interview.present import step_markdown

            return step_markdown(self.question, self.step, draw(self.question, self.seed), lang,
                                 list_options=list_options)
        lines = [f"## {self.lab.title.get(lang)}", "", self.lab.brief.get(lang).strip(), ""]
        lines += [f"{index + 1}. {item.prompt.get(lang)}" for index, item in enumerate(self.lab.diagnosis)]
        return "\n".join(lines).rstrip() + "\n"

    def hints(self) -> list:
        return list(self.step.hints) if self.kind == "question" else list(self.lab.hints)


def task_for(item_id: str, library, store: Store, rng: random.Random) -> ReviewTask | None:
    """The task for a card, or None when its question or lab is no longer installed."""
    kind, _, name = item_id.partition(":")
    if kind == "q":
        question = library.question(name)
        if question is None:
            return None
        step = _weakest_step(store, question)
        seed = rng.randint(1, 2**31 - 1) if question.vary else 0
        return ReviewTask(item_id, "question", question.title.model_dump(), PAR_SECONDS.get(step.kind, 90.0),
                          question=question, step=step, seed=seed, in_bank=name in library.bank.questions)
    if kind == "lab" and name in library.bank.labs:
        lab = library.bank.labs[name].model
        if not lab.diagnosis:
            return None
        return ReviewTask(item_id, "lab", lab.title.model_dump(), PAR_SECONDS["diagnosis"], lab_name=name, lab=lab)
    return None


def _weakest_step(store: Store, question):
    """The step with the lowest latest score, from practice attempts and mock stages (first on ties)."""
    if len(question.steps) == 1:
        return question.steps[0]
    latest = latest_step_scores(store, question.id)
    for score, detail in all_stage_results(store):
        if detail.get("question_id") == question.id:
            latest[detail["step_id"]] = score
    return min(question.steps, key=lambda step: latest.get(step.id, 1.0))


SCORED = T("### {heading} ({score})", "### {heading}（{score}）")


def lab_feedback_markdown(graded: dict, lang: str) -> str:
    """The diagnosis grader's feedback (`tutor.labs.diagnose.grade`) as Markdown."""
    from tutor.interview.present import VERDICT

    heading = VERDICT["right" if graded["correct"] else "wrong"].get(lang)
    lines = [SCORED.format(lang, heading=heading, score=f"{graded['score']:.0%}"), ""]
    for item in graded["feedback"]:
        lines.append(f"**{item['prompt']}**")
        lines += [f"- ✓ {text}" for text in item["covered"]] + [f"- ✗ {text}" for text in item["missing"]]
        lines += ["", f"*{item['model_answer']}*", ""] if item.get("model_answer") else [""]
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["ReviewTask", "lab_feedback_markdown", "lab_item", "question_item", "task_for"]
