"""`tutor start [--lang en|zh]`: open the app."""

from __future__ import annotations

from tutor.commands._common import add_lang_flag, env_lang


def add_arguments(parser) -> None:
    add_lang_flag(parser)


def run(args) -> int:
    import sys

    from tutor.errors import TutorError

    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise TutorError("`tutor start` needs a terminal; for scripts use the other commands with --json")
    from tutor.ui.app import TutorApp

    app = TutorApp(lang=args.lang or env_lang())
    app.run()
    # Non-zero when the app ended on an error it could not survive (its traceback is printed and logged).
    return app.return_code or 0
