"""Render a lesson: each figure through the sizing engine, then the text with the figures in it.

A figure is either an engine formula with its inputs (`tutor.sizing.engine.evaluate`) or a published
fact with its source; either way `tutor.sizing.display.format_value` turns the value into text in the
learner's language. Nothing here computes a number itself, so changing a formula in
`tutor/sizing` changes every lesson that shows it (DESIGN §2.1).

The engine (and with it SymPy) is imported on first use, never at module import, so loading
content stays cheap.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tutor.content.models.base import LANGS, PLACEHOLDER
from tutor.content.models.lesson import Figure, Lesson
from tutor.errors import TutorError


class FigureError(TutorError):
    """A figure that cannot be shown: unknown formula, bad inputs, a non-finite value, a bad unit."""

    def __init__(self, lesson_id: str, name: str, reason: str):
        super().__init__(f"lesson {lesson_id!r}, figure {name!r}: {reason}")
        self.lesson_id = lesson_id
        self.name = name
        self.reason = reason


@dataclass(frozen=True)
class RenderedFigure:
    """One figure: its value as the engine (or the fact) gives it, and its text."""

    name: str
    value: float
    value_unit: str | None
    """Unit of `value`: the formula's result unit, or the fact's `fact_unit` (None: base units)."""
    text: str
    unit: str
    """The display unit the lesson asked for."""
    formula: str | None
    source: str | None


@dataclass(frozen=True)
class RenderedSection:
    id: str
    title: str
    body: str
    questions: tuple[str, ...]
    labs: tuple[str, ...]
    see_also: tuple[str, ...]
    figures: tuple[str, ...] = ()
    """Names of the figures the body shows, in order of first use."""


@dataclass(frozen=True)
class RenderedLesson:
    """A lesson in one language with every placeholder filled in."""

    id: str
    kind: str
    lang: str
    title: str
    summary: str
    sections: tuple[RenderedSection, ...]
    figures: dict[str, RenderedFigure] = field(default_factory=dict)

    def section(self, section_id: str) -> RenderedSection | None:
        return next((section for section in self.sections if section.id == section_id), None)

    def markdown(self, section_id: str | None = None) -> str:
        """The lesson (or one section) as Markdown, with its practice links under each section."""
        sections = self.sections if section_id is None else tuple(
            section for section in self.sections if section.id == section_id)
        parts = [f"# {self.title}", "", self.summary.strip(), ""]
        for section in sections:
            parts += [f"## {section.title}", "", section.body.rstrip(), ""]
            parts += _links(section, self.lang)
        return "\n".join(parts).rstrip() + "\n"


_LINK_LABELS = {
    "en": {"questions": "Practice:", "labs": "Labs:", "see_also": "Deep dives:"},
    "zh": {"questions": "练习\uff1a", "labs": "实验\uff1a", "see_also": "深入阅读\uff1a"},  # full-width colons
}


def _links(section: RenderedSection, lang: str) -> list[str]:
    labels = _LINK_LABELS[lang]
    lines = []
    for key, command in (("questions", "tutor ask"), ("labs", "tutor lab show"), ("see_also", "tutor lesson")):
        ids = getattr(section, key)
        if ids:
            lines.append(f"*{labels[key]}* " + " \u00b7 ".join(f"`{command} {item}`" for item in ids))
    return lines + [""] if lines else []


def figure_value(lesson_id: str, name: str, figure: Figure) -> tuple[float, str | None]:
    """The figure's value and its unit: a published fact (base units), or the engine's result."""
    if figure.fact is not None:
        return float(figure.fact), figure.fact_unit
    if figure.formula is None:
        raise FigureError(lesson_id, name, "needs a formula or a fact")
    from tutor.sizing import engine, registry
    from tutor.sizing.errors import SizingError

    try:
        value = engine.evaluate(figure.formula, **figure.inputs)
        unit = registry.get(figure.formula).unit
    except SizingError as error:
        raise FigureError(lesson_id, name, str(error)) from None
    if not math.isfinite(value):
        raise FigureError(lesson_id, name, f"formula {figure.formula} gives {value} for these inputs")
    return float(value), unit


def render_figure(lesson_id: str, name: str, figure: Figure, lang: str = "en") -> RenderedFigure:
    from tutor.sizing.display import format_value
    from tutor.sizing.errors import SizingError

    value, value_unit = figure_value(lesson_id, name, figure)
    try:
        text = format_value(value, figure.unit, digits=figure.digits, lang=lang, from_unit=value_unit)
    except SizingError as error:
        raise FigureError(lesson_id, name, str(error)) from None
    return RenderedFigure(name, value, value_unit, text, figure.unit, figure.formula, figure.source)


def render_figures(lesson: Lesson, lang: str = "en") -> dict[str, RenderedFigure]:
    return {name: render_figure(lesson.id, name, figure, lang) for name, figure in lesson.figures.items()}


def fill(text: str, figures: dict[str, RenderedFigure], lesson_id: str = "?") -> str:
    """Replace every `{{name}}` with its figure's text; an undeclared name is an error."""

    def replace(match) -> str:
        name = match.group(1)
        if name not in figures:
            raise FigureError(lesson_id, name, "used in the text but not declared under figures")
        return figures[name].text

    return PLACEHOLDER.sub(replace, text)


# Markdown turns a line break inside a paragraph into a space, which is right between English
# words and wrong between Chinese characters ("全部 参数"). Authors wrap Chinese lines in the
# YAML like English ones, so such breaks are joined here. Full-width punctuation never takes a
# space, nor do — … “ ” next to a Chinese character; between Chinese and Latin text the space
# stays, as the lessons write it.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_FULL_WIDTH = re.compile(r"[\u3000-\u303f\uff00-\uffef]")
_SHARED_PUNCT = re.compile(r"[\u2014\u2026\u201c\u201d]")
_BLOCK_START = re.compile(r"^\s*(?:[-*+] |\d+[.)] |\||#|>|```)")


def join_cjk_lines(text: str) -> str:
    """Join soft line breaks that touch Chinese text, outside code fences, tables and list starts."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        previous = out[-1] if out else ""
        separator = None
        if (not fenced and previous.strip() and line.strip() and not _BLOCK_START.match(line)
                and not previous.lstrip().startswith(("|", "```")) and not previous.startswith("    ")
                and not line.startswith("    " + " " * _indent(previous))):
            separator = _separator(previous.rstrip()[-1], line.lstrip()[0])
        if separator is None:
            out.append(line)
        else:
            out[-1] = previous.rstrip() + separator + line.lstrip()
    return "\n".join(out)


def _separator(last: str, first: str) -> str | None:
    """What joins two wrapped lines: "" or " ", or None to leave the line break."""
    cjk_last, cjk_first = bool(_CJK.match(last)), bool(_CJK.match(first))
    if _FULL_WIDTH.match(last) or _FULL_WIDTH.match(first) or (cjk_last and cjk_first):
        return ""
    if (_SHARED_PUNCT.match(last) and cjk_first) or (cjk_last and _SHARED_PUNCT.match(first)):
        return ""
    if cjk_last or cjk_first:
        return " "
    return None


def _indent(line: str) -> int:
    """Where a list item's text starts (continuation lines align with it)."""
    match = re.match(r"^(\s*)(?:[-*+] |\d+[.)] )?", line)
    return len(match.group(0)) if match else 0


def render_lesson(lesson: Lesson, lang: str = "en") -> RenderedLesson:
    """The lesson in `lang` with every figure computed and formatted; raises FigureError."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    figures = render_figures(lesson, lang)
    sections = tuple(
        RenderedSection(section.id, section.title.get(lang),
                        join_cjk_lines(fill(section.body.get(lang), figures, lesson.id)),
                        tuple(section.questions), tuple(section.labs), tuple(section.see_also),
                        tuple(dict.fromkeys(PLACEHOLDER.findall(section.body.get(lang)))))
        for section in lesson.sections
    )
    return RenderedLesson(lesson.id, lesson.kind, lang, lesson.title.get(lang), join_cjk_lines(lesson.summary.get(lang)),
                          sections, figures)


def figure_problems(lesson: Lesson) -> Iterator[tuple[str, str]]:
    """(figure name, reason) for every figure that does not render in some language."""
    for name, figure in lesson.figures.items():
        for lang in LANGS:
            try:
                render_figure(lesson.id, name, figure, lang)
            except FigureError as error:
                yield name, error.reason
                break
