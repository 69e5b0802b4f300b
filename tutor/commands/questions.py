"""`tutor questions [--tag T] [--json]`: the practice questions."""

from __future__ import annotations

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, loaded_content, print_json


def add_arguments(parser) -> None:
    parser.add_argument("--tag", action="append", default=[], metavar="T",
                        help="only questions with this tag (repeat for any of several)")
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    content = loaded_content()
    questions = [loaded.model for loaded in content.questions.values()
                 if not args.tag or set(args.tag) & set(loaded.model.tags)]
    if args.json:
        print_json({"questions": [
            {"id": q.id, "kind": q.kind, "tags": list(q.tags), "title": q.title.model_dump(),
             "section": q.section, "steps": [{"id": step.id, "kind": step.kind} for step in q.steps]}
            for q in questions
        ]})
        return 0
    lang = lang_of(args)
    for q in questions:
        print(f"{q.id:<36} {q.kind:<8} {q.title.get(lang)}  [{', '.join(q.tags)}]")
    if not questions:
        known = sorted({tag for loaded in content.questions.values() for tag in loaded.model.tags})
        print("no questions match" + (f"; tags: {', '.join(known)}" if known else ""))
    return 0
