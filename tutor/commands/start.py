"""`tutor start [--lang en|zh]`: open the app."""

from __future__ import annotations

from tutor.commands._common import add_lang_flag, lang_of


def add_arguments(parser) -> None:
    add_lang_flag(parser)


def run(args) -> int:
    import sys

    from tutor.errors import TutorError

    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise TutorError("`tutor start` needs a terminal; for scripts use the other commands with --json")
    from tutor.ui.app import TutorApp

    TutorApp(lang=lang_of(args)).run()
    return 0
