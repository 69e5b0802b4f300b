"""`tutor validate [PATH...]`: every content problem as `path:line: message`; exit 1 if any."""

from __future__ import annotations

from pathlib import Path

from tutor.errors import UserInputError


def add_arguments(parser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="content roots, folders or files (default: the installed content)")


def run(args) -> int:
    from tutor.content.loader import Content, load_content, load_path
    from tutor.content.validate import validate
    from tutor.paths import content_root

    if not args.paths:
        content = load_content([content_root()])
        problems = validate(content)
        scope = None
    else:
        content = Content()
        for path in args.paths:
            if not path.exists():
                raise UserInputError(f"no such file or folder: {path}")
        single = [path for path in args.paths if not _is_root(path)]
        for path in args.paths:
            if not load_path(path, content):
                raise UserInputError(
                    f"cannot tell what {path} holds: put lessons in lessons/, question lists in "
                    "questions/, labs in labs/NN-name/lab.yaml, or pass a content root"
                )
        if single and not any(_is_root(path) for path in args.paths):
            _add_context(content, content_root(), {path.resolve() for path in single})
        problems = validate(content)
        scope = {path.resolve() for path in args.paths}
        problems = [p for p in problems if scope is None or _within(p.path, scope)]
    for problem in problems:
        print(problem)
    counts = f"{len(content.lessons)} lessons, {len(content.questions)} questions, {len(content.labs)} labs"
    if problems:
        print(f"{len(problems)} problem(s) in {counts}")
        return 1
    print(f"ok: {counts}")
    return 0


def _is_root(path: Path) -> bool:
    return path.is_dir() and any((path / name).is_dir() for name in ("lessons", "questions", "labs"))


def _add_context(content, root: Path, given: set[Path]) -> None:
    """Load the installed content around single files, so their references can resolve."""
    from tutor.content.loader import load_content

    context = load_content([root])
    for attribute in ("lessons", "questions", "labs"):
        mine = getattr(content, attribute)
        for key, loaded in getattr(context, attribute).items():
            if key not in mine and not _within(loaded.path, given):
                mine[key] = loaded


def _within(path: Path, scope: set[Path]) -> bool:
    # The file's folder is resolved, not the file: a symlink out of the tree (or in a loop) is a
    # problem of the tree it is listed in, and must not vanish from the report.
    resolved = path.parent.resolve() / path.name
    return any(resolved == item or resolved.is_relative_to(item) for item in scope)
