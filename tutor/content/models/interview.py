"""Interview content: `interview/*.yaml` under the content root (docs/interview.md).

Each file is a YAML list. An entry is either
- a **scenario**: a question (every field of `Question`, graded by the same graders) plus the
  `format` it serves, the `exhibit` the candidate is shown (measurements and a trace summary, or
  every rank's stack dump), for follow-ups the `topics` it may follow and whether it `probes` a
  weak answer or a strong one, and for a candidate-led round the `structure` its rubric points
  should come in; or
- a **reference** to a bank question (`question: trillion-parameter-design`), asked as it is.

The interview-only fields live in these models, not in `Question`, so the question bank keeps its
own schema and the mock interview is an addition to it. Loaded by `tutor.content.loader` with the
other kinds.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from tutor.content.models.base import ContentModel, Ident, Text
from tutor.content.models.question import Question

Probe = Literal["weak", "strong", "any"]


class RankStack(ContentModel):
    """What one rank showed when the job hung: a py-spy dump, or what the tool printed instead."""

    rank: Annotated[int, Field(ge=0, le=1023)]
    """The global rank."""
    stack: str
    """The dump as the tool prints it (language-neutral, so written once)."""
    log: str | None = None
    """The last lines of the rank's log, when they matter."""


class Exhibit(ContentModel):
    """The material an interviewer hands over: measurements and a trace summary, or stack dumps."""

    text: Text | None = None
    """Markdown; `{name}` inserts a scenario input, formatted like a question prompt."""
    stacks: list[RankStack] = []
    """Every rank's dump, in rank order (a hang scenario gives all of them)."""


class InterviewScenario(Question):
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


class BankRef(ContentModel):
    """A bank question (`questions/*.yaml`) asked in a mock interview as it is."""

    question: Ident
    """The bank question's id."""
    format: Literal["design", "followup"]
    """The format that asks it."""
    topics: list[Ident] = []
    """Follow-ups: the tags of the stages it may be asked after."""
    probes: Probe = "weak"
    """Follow-ups: after a weak answer, a strong one, or any (as for scenarios)."""
