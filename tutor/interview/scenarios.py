"""Interview content: `interview/*.yaml` under the content root (docs/interview.md).

Each file is a YAML list. An entry is either
- a **scenario**: a question (every field of `tutor.content.models.Question`, graded by the same
  graders) plus the `format` it serves, the `exhibit` the candidate is shown (measurements and a
  trace summary, or every rank's stack dump), for follow-ups the `topics` it may follow and whether
  it `probes` a weak answer or a strong one, and for a candidate-led round the `structure` its
  rubric points should come in; or
- a **reference** to a bank question (`question: trillion-parameter-design`), asked as it is.

The interview-only fields are declared here rather than in the content models, so the question
bank keeps its own schema and the mock interview is an addition to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from tutor.content.loader import Content, Loaded, Problem
from tutor.content.models import Ident, Question, Text

Probe = Literal["weak", "strong", "any"]
SCENARIO_FORMATS = ("pitch", "debug", "hang", "followup", "led", "behavioural")
REF_FORMATS = ("design", "followup")


class RankStack(BaseModel):
    """What one rank showed when the job hung: a py-spy dump, or what the tool printed instead."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    rank: Annotated[int, Field(ge=0, le=1023)]
    """The global rank."""
    stack: str
    """The dump as the tool prints it (language-neutral, so written once)."""
    log: str | None = None
    """The last lines of the rank's log, when they matter."""


class Exhibit(BaseModel):
    """The material an interviewer hands over: measurements and a trace summary, or stack dumps."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    text: Text | None = None
    """Markdown; `{name}` inserts a scenario input, formatted like a question prompt."""
    stacks: list[RankStack] = []
    """Every rank's dump, in rank order (a hang scenario gives all of them)."""


class Scenario(Question):
    """A question written for the mock interview."""

    format: Literal["pitch", "debug", "hang", "followup", "led", "behavioural"]
    """The format that asks it."""
    exhibit: Exhibit | None = None
    """What the candidate is shown besides the prompt."""
    topics: list[Ident] = []
    """Follow-ups: the tags of the stages this follow-up may be asked after."""
    probes: Probe = "weak"
    """Follow-ups: asked after a wrong or vague answer (`weak`, the default), after a strong one to
    test its trade-offs (`strong`: why not more PP, why not FSDP), or after either (`any`)."""
    structure: list[Ident] = []
    """Candidate-led rounds: the ids of the open step's points in the order a strong candidate
    takes them (clarify → memory → layout → time → reliability → monitoring); the report scores
    the order the answer actually took."""


class BankRef(BaseModel):
    """A bank question (`questions/*.yaml`) asked in a mock interview as it is."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    question: Ident
    """The bank question's id."""
    format: Literal["design", "followup"]
    """The format that asks it."""
    topics: list[Ident] = []
    """Follow-ups: the tags of the stages it may be asked after."""
    probes: Probe = "weak"
    """Follow-ups: after a weak answer, a strong one, or any (as for scenarios)."""


@dataclass
class InterviewContent:
    """Scenarios and references loaded from one `interview/` folder, with the problems found."""

    scenarios: dict[str, Loaded[Scenario]] = field(default_factory=dict)
    refs: list[Loaded[BankRef]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def load_interview(folder: Path) -> InterviewContent:
    """Every `*.yaml` in `folder` (missing folder: nothing)."""
    from tutor.content.loader import _validate  # one way of turning pydantic errors into path:line
    from tutor.content.yamlsafe import YamlProblem, read_document

    loaded = InterviewContent()
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            document = read_document(path)
        except YamlProblem as problem:
            loaded.problems.append(Problem(path, problem.line, problem.message))
            continue
        if not isinstance(document.data, list):
            loaded.problems.append(Problem(path, 1, "an interview file is a YAML list of scenarios and references"))
            continue
        for index, item in enumerate(document.data):
            is_ref = isinstance(item, dict) and "question" in item
            model = _validate(BankRef if is_ref else Scenario, document, (index,), path, loaded, data=item)
            if model is None:
                continue
            entry = Loaded(model, path, document, (index,))
            if is_ref:
                loaded.refs.append(entry)
            elif model.id in loaded.scenarios:
                other = loaded.scenarios[model.id]
                loaded.problems.append(entry.problem(f"scenario id {model.id!r} is also used at "
                                                     f"{other.path.name}:{other.line('id')}", "id"))
            else:
                loaded.scenarios[model.id] = entry
    return loaded


@lru_cache(maxsize=1)
def installed() -> InterviewContent:
    """The installed interview content, loaded once per process."""
    from tutor.paths import content_root

    return load_interview(content_root() / "interview")


class Library:
    """The bank and the interview content together: what each format draws from.

    `bank` is a loaded `tutor.content.Content`; `interview` an `InterviewContent`.
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
