"""A lesson (`lessons/*.yaml`): sections, live figures, worked examples."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from tutor.content.models.base import FormulaName, Ident, Number, Text, ContentModel


class Figure(ContentModel):
    """A number shown in a lesson, computed by the sizing engine, never typed in."""

    formula: FormulaName | None = None
    """Name of an engine formula (`tutor size` registry)."""
    inputs: dict[str, Number | str] = {}
    """Values for the formula's symbols (numbers, or preset names where the formula takes one)."""
    unit: str = ""
    """Display unit of `tutor.sizing.display.format_value`: B, KB, MB, GB, TB, MiB, GiB, s, min, h, days, %,
    FLOPs, TFLOP/s, tokens/s, params (a count with K/M/B/T, 万/亿), x (plain)."""
    digits: int = Field(default=1, ge=0, le=6)
    """Decimals shown in the rendered figure (`format_value`'s `digits`)."""
    fact: Number | None = None
    """A published figure instead of a formula; then `source` is required."""
    fact_unit: str | None = None
    """The unit `fact` is written in (s, h, days, B, FLOPs, FLOP/s, fraction, count); default: base units."""
    source: str | None = None
    """Where a published figure comes from (paper and table, vendor page)."""


class Scenario(ContentModel):
    """A sizing set-up the playground can open from this section (a worked example)."""

    id: Ident
    """Unique within the lesson."""
    title: Text
    """What the scenario is, as the playground lists it."""
    settings: dict[str, Number | str | bool]
    """`tutor size` settings without dashes: model, gpus, tp, pp, cp, dp, seq, global_batch, sharding, …"""


class Section(ContentModel):
    """One section of a lesson."""

    id: Ident
    """Unique within the lesson; `lesson-id/section-id` is how questions point here."""
    title: Text
    """Heading."""
    body: Text
    """Markdown; `{{name}}` inserts a figure declared in the lesson's `figures`."""
    questions: list[Ident] = []
    """Practice questions for this section, by id."""
    labs: list[Ident] = []
    """Labs for this section, by name (folder name without its `NN-` prefix)."""
    see_also: list[Ident] = []
    """Deep-dive lessons this section points to, by lesson id."""
    scenarios: list[Scenario] = []
    """Worked examples the playground opens preset (`g` in the lesson reader)."""


class Lesson(ContentModel):
    """A lesson or a deep dive, in sections."""

    id: Ident
    """Unique lesson id."""
    kind: Literal["lesson", "deep-dive"] = "lesson"
    """The main lesson, or a deep dive it points to."""
    order: int = 0
    """Position in the lesson list."""
    title: Text
    """Title."""
    summary: Text
    """One or two sentences shown in lists."""
    figures: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], Figure] = {}
    """Named figures the bodies insert with `{{name}}`."""
    sections: list[Section] = Field(min_length=1)
    """The sections, in reading order."""
