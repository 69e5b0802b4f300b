"""The lesson bank's shape: the main lesson's section ids, its deep dives, and their links."""

from __future__ import annotations

from tests.helpers import REPO
from tutor.content.loader import load_content
from tutor.content.validate import check_figure_placeholders, check_lesson_links

CONTENT = load_content([REPO])
DEEP_DIVES = {"choosing-config", "flops-mfu", "mixed-precision-fp8", "overlap-limits", "debugging-slow-hung"}


def test_the_main_lesson_has_exactly_the_section_ids_questions_point_at():
    recipe = CONTENT.lessons["recipe"].model
    assert recipe.kind == "lesson"
    assert [section.id for section in recipe.sections] == [
        "recipe", "memory", "placement", "ep-folding", "worked-examples", "trillion-design",
        "running-fast", "slow-training", "hangs", "pitch", "self-test",
    ]


def test_every_deep_dive_exists_and_the_main_lesson_points_to_it():
    kinds = {lesson_id: loaded.model.kind for lesson_id, loaded in CONTENT.lessons.items()}
    assert {lesson_id for lesson_id, kind in kinds.items() if kind == "deep-dive"} == DEEP_DIVES
    pointed = {other for section in CONTENT.lessons["recipe"].model.sections for other in section.see_also}
    assert pointed == DEEP_DIVES


def test_lesson_links_and_placeholders_are_consistent():
    lesson_paths = {loaded.path for loaded in CONTENT.lessons.values()}
    problems = [str(problem) for check in (check_lesson_links, check_figure_placeholders)
                for problem in check(CONTENT) if problem.path in lesson_paths]
    assert problems == []


def test_published_facts_cite_their_source():
    for loaded in CONTENT.lessons.values():
        for name, figure in loaded.model.figures.items():
            if figure.fact is not None:
                assert figure.source and ("facts.md" in figure.source or "paper" in figure.source), name


def test_the_pitch_keeps_its_english_answer_in_the_chinese_version():
    pitch = next(section for section in CONTENT.lessons["recipe"].model.sections if section.id == "pitch")
    english_answer = [line for line in pitch.body.en.splitlines() if line.startswith(">")]
    assert english_answer and all(line in pitch.body.zh.splitlines() for line in english_answer)
    # Beside the English answer, one to say in an interview held in Chinese (its own quoted lines).
    chinese_answer = [line for line in pitch.body.zh.splitlines()
                      if line.startswith(">") and line not in english_answer and any("\u4e00" <= c <= "\u9fff" for c in line)]
    assert chinese_answer
