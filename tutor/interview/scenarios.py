"""Interview content: `interview/*.yaml` under the content root (docs/interview.md).

Each file is a YAML list. An entry is either
- a **scenario**: a question (every field of `tutor.content.models.question.Question`, graded by the same
  graders) plus the `format` it serves, the `exhibit` the candidate is shown (measurements and a
  trace summary, or every rank's stack dump), for follow-ups the `topics` it may follow and whether
  it `probes` a weak answer or a strong one, and for a candidate-led round the `structure` its
  rubric points should come in; or
- a **reference** to a bank question (`question: trillion-parameter-design`), asked as it is.

The models are `tutor.content.models.interview`; the files are loaded with the rest of the
content (`tutor.content.loader`, `Content.interview`). This module is the mock interview's view
of them: `Library`, the bank and the interview content together.
"""

from __future__ import annotations

from tutor.content.loader import Content, InterviewContent
from tutor.content.models.base import Text
from tutor.content.models.question import Question


def installed() -> InterviewContent:
    """The installed interview content: the one loaded with the rest (`tutor.content.load()`, cached
    per content folder). Not cached here: a cache of its own kept one folder's content for the
    whole process (a test pointing TUTOR_CONTENT at a fixture left it for every later test)."""
    from tutor.content import load

    return load().interview


class Library:
    """The bank and the interview content together: what each format draws from.

    `bank` is a loaded `tutor.content.loader.Content`; `interview` an `InterviewContent`.
    """

    def __init__(self, bank: Content, interview: InterviewContent):
        self.bank = bank
        self.interview = interview

    @classmethod
    def installed(cls) -> Library:
        from tutor.content import load

        return cls(load(), installed())

    def question(self, question_id: str) -> Question | None:
        """A bank question or an interview scenario by id."""
        if question_id in self.bank.questions:
            return self.bank.questions[question_id].model
        scenario = self.interview.scenarios.get(question_id)
        return scenario.model if scenario is not None else None

    def for_format(self, format_id: str) -> list[Question]:
        """The questions a format asks, scenarios first, then bank references (missing ones skipped)."""
        found: list[Question] = [entry.model for entry in self.interview.scenarios.values()
                                 if entry.model.format == format_id]
        for ref in self.interview.refs:
            if ref.model.format == format_id and ref.model.question in self.bank.questions:
                found.append(self.bank.questions[ref.model.question].model)
        return found

    def followups(self, probes: tuple[str, ...] = ("weak", "strong", "any")) -> list[tuple[Question, frozenset[str]]]:
        """Every follow-up with the topics it may follow; `probes` keeps those asked after a weak
        answer, a strong one, or either."""
        pairs = [(entry.model, frozenset(entry.model.topics)) for entry in self.interview.scenarios.values()
                 if entry.model.format == "followup" and entry.model.probes in probes]
        for ref in self.interview.refs:
            if ref.model.format == "followup" and ref.model.question in self.bank.questions \
                    and ref.model.probes in probes:
                pairs.append((self.bank.questions[ref.model.question].model, frozenset(ref.model.topics)))
        return pairs

    def structure(self, question_id: str) -> list[str]:
        """A candidate-led scenario's expected order of rubric points (empty for anything else)."""
        entry = self.interview.scenarios.get(question_id)
        return list(entry.model.structure) if entry is not None else []

    def rapid_fire_pool(self) -> list[Question]:
        """Bank questions of one parametric numeric step: each comes back with new numbers."""
        return [loaded.model for loaded in self.bank.questions.values()
                if len(loaded.model.steps) == 1 and loaded.model.steps[0].kind == "numeric" and loaded.model.vary]

    def section_title(self, section: str) -> Text | None:
        lesson_id, _, section_id = section.partition("/")
        lesson = self.bank.lessons.get(lesson_id)
        if lesson is None:
            return None
        return next((item.title for item in lesson.model.sections if item.id == section_id), None)
