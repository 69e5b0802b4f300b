"""The `tutor` command: argparse front end that dispatches to `tutor.commands`.

Start-up cost matters (`tutor --help` must answer fast and import neither torch, sympy nor
textual), so this module imports only the standard library and the command table; each
command imports what it needs inside its `run`.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from tutor import __version__
from tutor.commands import COMMANDS
from tutor.errors import TutorError
from tutor.text import T

if TYPE_CHECKING:
    import argparse


@cache
def _parser_class(lang: str = "en") -> type[argparse.ArgumentParser]:
    """An ArgumentParser whose errors are one line in `lang` and exit status 2 (DESIGN §5); its
    subparsers are of the same class, so they say theirs in `lang` too. Made on first use:
    `tutor start` does not import argparse at all (its first frame, issue 16)."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            from tutor.commands.usage_errors import usage_line

            self.exit(2, usage_line(self.prog, message, lang) + "\n")

    return _Parser


def build_parser(only: str | None = None, lang: str = "en") -> argparse.ArgumentParser:
    """The whole command tree, or just the command `only` (a known name): importing every
    command module costs ~40 ms that `tutor start` would pay before its first frame. Its
    usage errors are in `lang` (the one the command line asks for, `lang_in`)."""
    _Parser = _parser_class(lang)
    parser = _Parser(
        prog="tutor",
        description="Terminal tutor for the distributed-LLM-training interview.",
        epilog="Run `tutor start` for the app, `tutor COMMAND --help` for one command.",
    )
    parser.add_argument("--version", action="version", version=f"tutor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module_name, summary) in COMMANDS.items():
        if only is not None and name != only:
            continue
        module = import_module(f"tutor.commands.{module_name}")
        command_parser = sub.add_parser(name, help=summary, description=summary)
        module.add_arguments(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


LAST_WORDS = {
    "interrupted": T("tutor: interrupted", "tutor：已中断"),
    "internal": T("tutor: internal error: {error} (rerun with TUTOR_DEBUG=1 for the traceback, and please report it)",
                  "tutor：内部错误：{error}（设置 TUTOR_DEBUG=1 再运行一次可以看到 traceback，也请报告这个问题）"),
}
"""What `main` says when a command ends on Ctrl-C or on an error of the tutor's own."""

FREE_TEXT_COMMANDS = ("check",)
"""Commands whose positional arguments are learner text, which may start with '-' (`-inf`,
`--overlap-param-gather`)."""


def answers_as_positionals(argv: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """argv with every token that is not one of the command's own options moved after `--`, so
    argparse reads `tutor check ID -inf --json` as the answer `-inf` plus the flag --json."""
    if not argv or argv[0] not in FREE_TEXT_COMMANDS or "--" in argv:
        return argv
    command = next(action for action in parser._subparsers._group_actions[0].choices.values()
                   if action.prog.endswith(" " + argv[0]))
    known = command._option_string_actions
    options: list[str] = []
    positionals: list[str] = []
    tokens = iter(argv[1:])
    for token in tokens:
        name = token.split("=", 1)[0]
        action = known.get(name)
        if action is None and name.startswith("--") and len(name) > 2:
            matches = [option for option in known if option.startswith(name)]  # argparse abbreviations
            action = known[matches[0]] if len(matches) == 1 else None
        if action is None or token == "-":
            positionals.append(token)
            continue
        options.append(token)
        if action.nargs is None and "=" not in token:  # an option that takes one value
            value = next(tokens, None)
            if value is not None:
                options.append(value)
    return [argv[0], *options, "--", *positionals]


def _plain_start(argv: list[str]):
    """`tutor start` or `tutor start --lang en|zh` as parsed arguments, without argparse (its
    import and parse cost ~40 ms of CPU before the app's first frame); None for anything else."""
    from types import SimpleNamespace

    if argv == ["start"]:
        return SimpleNamespace(command="start", lang=None)
    if len(argv) == 3 and argv[:2] == ["start", "--lang"] and argv[2] in ("en", "zh"):
        return SimpleNamespace(command="start", lang=argv[2])
    return None


def _lang(args) -> str:
    from tutor.commands._common import lang_of

    return lang_of(args) if hasattr(args, "lang") else "en"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _plain_start(argv)
    if args is not None:
        from tutor.commands import start

        args._run = start.run
    else:
        # A known command first: only its parser is needed (help, errors and all); anything else
        # (`--help`, `--version`, a typo) gets the whole tree and its listing.
        from tutor.commands._common import lang_in

        parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None, lang_in(argv))
        argv = answers_as_positionals(argv, parser)
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
    try:
        return int(args._run(args) or 0)
    except TutorError as error:
        message = error.text(_lang(args)) if hasattr(error, "text") else str(error)  # the engine's are bilingual
        print(f"tutor: {message}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(LAST_WORDS["interrupted"].get(_lang(args)), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `tutor questions | head` closes the pipe early; that is not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # the last line of defence: never a traceback (DESIGN §2.5)
        if os.environ.get("TUTOR_DEBUG"):
            raise
        print(LAST_WORDS["internal"].format(_lang(args), error=f"{type(error).__name__}: {error}"), file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
