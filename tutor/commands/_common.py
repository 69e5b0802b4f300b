"""Small helpers shared by the command modules (kept free of heavy imports)."""

from __future__ import annotations

import json
import sys


def add_json_flag(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def add_lang_flag(parser) -> None:
    parser.add_argument("--lang", choices=("en", "zh"), default=None,
                        help="language of the text (default: en, or TUTOR_LANG)")


def lang_of(args) -> str:
    import os

    return args.lang or (os.environ.get("TUTOR_LANG") if os.environ.get("TUTOR_LANG") in ("en", "zh") else "en")


def print_json(payload: dict) -> None:
    json.dump(payload, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def loaded_content():
    """The installed content; a one-line note on stderr when some of it failed to load."""
    from tutor.content import load

    content = load()
    if content.problems:
        print(f"tutor: note: {len(content.problems)} content problem(s) skipped; run `tutor validate`",
              file=sys.stderr)
    return content
