"""Cross-file checks on loaded content: ids, references, lab files, figure placeholders.

Schema problems are found while loading (tutor.content.loader); this module adds what needs
the whole picture. Each check is a function `Content -> Iterable[Problem]`; engine-backed
checks (formulas exist, expected values compute, figures render) join `CHECKS` from the
packages that own them, without this module importing them at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from tutor.content.loader import Content, Problem
from tutor.content.models.base import LANGS, PLACEHOLDER

Check = Callable[[Content], Iterable[Problem]]


def check_lesson_links(content: Content) -> Iterable[Problem]:
    for lesson_id, loaded in content.lessons.items():
        seen: set[str] = set()
        for index, section in enumerate(loaded.model.sections):
            where = ("sections", index)
            if section.id in seen:
                yield loaded.problem(f"section id {section.id!r} appears twice in lesson {lesson_id!r}", *where, "id")
            seen.add(section.id)
            for position, question_id in enumerate(section.questions):
                if question_id not in content.questions:
                    yield loaded.problem(f"unknown question {question_id!r}", *where, "questions", position)
            for position, lab_name in enumerate(section.labs):
                if lab_name not in content.labs:
                    yield loaded.problem(f"unknown lab {lab_name!r}", *where, "labs", position)
            for position, other in enumerate(section.see_also):
                if other not in content.lessons:
                    yield loaded.problem(f"unknown lesson {other!r}", *where, "see_also", position)


def check_figure_placeholders(content: Content) -> Iterable[Problem]:
    for loaded in content.lessons.values():
        lesson = loaded.model
        for name, figure in lesson.figures.items():
            if figure.fact is not None and not figure.source:
                yield loaded.problem(f"figure {name!r} is a published fact and needs a source", "figures", name)
            if (figure.formula is None) == (figure.fact is None):
                yield loaded.problem(f"figure {name!r} needs exactly one of formula or fact", "figures", name)
        used: set[str] = set()
        for index, section in enumerate(lesson.sections):
            per_lang = {lang: set(PLACEHOLDER.findall(section.body.get(lang))) for lang in LANGS}
            for lang, names in per_lang.items():
                for name in sorted(names - lesson.figures.keys()):
                    yield loaded.problem(f"{{{{{name}}}}} in the {lang} text is not declared in figures",
                                         "sections", index, "body", lang)
                used |= names
            if per_lang["en"] != per_lang["zh"]:
                only = sorted(per_lang["en"] ^ per_lang["zh"])
                yield loaded.problem(f"en and zh texts use different figures: {', '.join(only)}",
                                     "sections", index, "body")
        for name in sorted(lesson.figures.keys() - used):
            yield loaded.problem(f"figure {name!r} is declared but no section shows it", "figures", name)


def check_fact_figures_render(content: Content) -> Iterable[Problem]:
    """Every published-fact figure renders in both languages (its `fact_unit` known and fitting its unit).

    Formula figures (formula, inputs, value, unit) are the engine's own check,
    `tutor.sizing.content_checks`, which `engine_checks()` adds; a display unit it does not know
    is reported there too, so it is skipped here.
    """
    from tutor.content.render import figure_problems
    from tutor.sizing.display import DISPLAY_UNITS

    for loaded in content.lessons.values():
        lesson = loaded.model
        for name, reason in figure_problems(lesson):
            figure = lesson.figures[name]
            if figure.fact is not None and figure.unit in DISPLAY_UNITS:
                yield loaded.problem(f"figure {name!r} does not render: {reason}", "figures", name)


def check_question_links(content: Content) -> Iterable[Problem]:
    for loaded in content.questions.values():
        question = loaded.model
        lesson_id, _, section_id = question.section.partition("/")
        lesson = content.lessons.get(lesson_id)
        if lesson is None:
            yield loaded.problem(f"unknown lesson {lesson_id!r} in section {question.section!r}", "section")
        elif section_id not in {section.id for section in lesson.model.sections}:
            yield loaded.problem(f"lesson {lesson_id!r} has no section {section_id!r}", "section")
        step_ids: set[str] = set()
        for index, step in enumerate(question.steps):
            if step.id in step_ids:
                yield loaded.problem(f"step id {step.id!r} appears twice", "steps", index, "id")
            step_ids.add(step.id)
            if len(question.steps) > 1 and step.prompt is None:
                yield loaded.problem("each step of a multi-step question needs its own prompt", "steps", index)
            if step.kind == "choice" and not any(option.correct for option in step.options):
                yield loaded.problem("no option is marked correct", "steps", index, "options")
        for name in question.vary:
            if name not in question.given:
                yield loaded.problem(f"vary.{name} has no default in given", "vary", name)


def check_labs(content: Content) -> Iterable[Problem]:
    for name, loaded in content.labs.items():
        lab, folder = loaded.model, loaded.path.parent
        for key in ("program", "solution", "checker"):
            relative = getattr(lab, key)
            if relative is None:
                continue
            if not _inside(folder, relative) or not (folder / relative).is_file():
                yield loaded.problem(f"{key} file {relative!r} not found in {folder.name}/", key)
        for index, relative in enumerate(lab.files):
            if not _inside(folder, relative) or not (folder / relative).exists():
                yield loaded.problem(f"file {relative!r} not found in {folder.name}/", "files", index)
        if lab.section is not None:
            lesson_id, _, section_id = lab.section.partition("/")
            lesson = content.lessons.get(lesson_id)
            if lesson is None or section_id not in {section.id for section in lesson.model.sections}:
                yield loaded.problem(f"unknown lesson section {lab.section!r}", "section")
        if lab.world_size not in lab.world_sizes and lab.world_sizes:
            yield loaded.problem(f"world_size {lab.world_size} is not among world_sizes {lab.world_sizes}", "world_size")


def _inside(folder: Path, relative: str) -> bool:
    return (folder / relative).resolve().is_relative_to(folder.resolve())


CHECKS: list[Check] = [check_lesson_links, check_figure_placeholders, check_fact_figures_render, check_question_links,
                       check_labs]


def engine_checks() -> list[Check]:
    """Checks owned by the engine packages, imported only when validating."""
    found: list[Check] = []
    for module_name in ("tutor.sizing.content_checks", "tutor.sizing.scenario", "tutor.grading.content_checks",
                        "tutor.interview.content_checks"):
        try:
            module = __import__(module_name, fromlist=["CHECKS"])
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        found.extend(module.CHECKS)
    return found


def validate(content: Content) -> list[Problem]:
    """Every problem: those found loading, then every cross-file and engine check."""
    problems = list(content.problems)
    for check in CHECKS + engine_checks():
        problems.extend(check(content))
    return problems

