"""`tutor lesson ID [--section S] [--lang en|zh] [--json] [--plain]`: one lesson, rendered.

Every figure is computed by the sizing engine as the lesson is shown. On a terminal the
Markdown is drawn with rich (already installed as Textual's own dependency; it does not pull in
Textual itself); piped or with `--plain` it is printed as Markdown text.
"""

from __future__ import annotations

import difflib
import sys

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, loaded_content, print_json
from tutor.errors import UserInputError


def add_arguments(parser) -> None:
    parser.add_argument("lesson_id", metavar="ID", help="lesson id (see `tutor lessons`)")
    parser.add_argument("--section", metavar="S", help="show only this section")
    add_lang_flag(parser)
    add_json_flag(parser)
    parser.add_argument("--plain", action="store_true", help="print Markdown text even on a terminal")


def run(args) -> int:
    from tutor.content.render import render_lesson

    content = loaded_content()
    loaded = content.lessons.get(args.lesson_id)
    if loaded is None:
        raise UserInputError(_unknown(args.lesson_id, sorted(content.lessons), "lesson", "tutor lessons"))
    lesson = loaded.model
    if args.section is not None and args.section not in {section.id for section in lesson.sections}:
        raise UserInputError(_unknown(args.section, [s.id for s in lesson.sections], f"section in {lesson.id!r}",
                                      "tutor lessons"))
    rendered = render_lesson(lesson, lang_of(args))
    if args.json:
        print_json(_as_json(rendered, args.section))
        return 0
    text = rendered.markdown(args.section)
    if args.plain or not sys.stdout.isatty():
        sys.stdout.write(text)
    else:
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text, code_theme="ansi_dark"))
    return 0


def _unknown(given: str, known: list[str], what: str, where: str) -> str:
    close = difflib.get_close_matches(given, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; see `{where}`"
    return f"no {what} {given!r}{hint}"


def _as_json(rendered, section_id: str | None) -> dict:
    sections = [section for section in rendered.sections if section_id is None or section.id == section_id]
    shown = {name for section in sections for name in section.figures}
    return {
        "id": rendered.id,
        "kind": rendered.kind,
        "lang": rendered.lang,
        "title": rendered.title,
        "summary": rendered.summary.strip(),
        "sections": [
            {"id": section.id, "title": section.title, "body": section.body, "figures": list(section.figures),
             "questions": list(section.questions), "labs": list(section.labs), "see_also": list(section.see_also)}
            for section in sections
        ],
        "figures": {
            name: {"value": figure.value, "value_unit": figure.value_unit, "text": figure.text, "unit": figure.unit,
                   **({"formula": figure.formula} if figure.formula else {"source": figure.source})}
            for name, figure in rendered.figures.items() if section_id is None or name in shown
        },
    }
