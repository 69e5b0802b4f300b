"""`tutor lessons [--json]`: the lessons and deep dives, with their sections."""

from __future__ import annotations

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, loaded_content, print_json


def add_arguments(parser) -> None:
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    content = loaded_content()
    lessons = sorted((loaded.model for loaded in content.lessons.values()), key=lambda lesson: (lesson.order, lesson.id))
    if args.json:
        print_json({"lessons": [
            {"id": lesson.id, "kind": lesson.kind, "title": lesson.title.model_dump(),
             "sections": [{"id": section.id, "title": section.title.model_dump()} for section in lesson.sections]}
            for lesson in lessons
        ]})
        return 0
    lang = lang_of(args)
    width = max((len(f"{lesson.id}/{section.id}") for lesson in lessons for section in lesson.sections), default=0) + 4
    for lesson in lessons:
        print(f"{lesson.id:<{width}}{lesson.title.get(lang)}")
        for section in lesson.sections:
            print(f"  {f'{lesson.id}/{section.id}':<{width - 2}}{section.title.get(lang)}")
    if not lessons:
        print("no lessons installed")
    return 0
