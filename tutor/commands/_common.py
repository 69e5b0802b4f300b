"""Small helpers shared by the command modules (kept free of heavy imports)."""

from __future__ import annotations

import sys

from tutor.text import T


def add_json_flag(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def add_lang_flag(parser) -> None:
    parser.add_argument("--lang", choices=("en", "zh"), default=None,
                        help="language of the text (default: en, or TUTOR_LANG)")


def env_lang() -> str | None:
    """TUTOR_LANG when it names a language (the default of every command's --lang)."""
    import os

    return os.environ.get("TUTOR_LANG") if os.environ.get("TUTOR_LANG") in ("en", "zh") else None


def lang_of(args) -> str:
    return args.lang or env_lang() or "en"


def lang_in(argv: list[str]) -> str:
    """The language a command line asks for before it is parsed, as `lang_of` reads it after:
    argparse's own errors (a bad choice, a missing name) are printed before there is an `args`."""
    found = None
    for index, token in enumerate(argv):
        if token == "--":
            break
        flag, equals, value = token.partition("=")
        if len(flag) > 3 and "--lang".startswith(flag):  # argparse takes `--la zh` for `--lang zh` too
            value = value if equals else (argv[index + 1] if index + 1 < len(argv) else "")
            found = value if value in ("en", "zh") else found  # the last one wins, as in argparse
    return found or env_lang() or "en"


def print_json(payload: dict) -> None:
    import json  # here, not above: `tutor start` imports this module and never prints JSON

    json.dump(payload, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


CONTENT_NOTE = T("tutor: note: {count} content problem(s) skipped; run `tutor validate`",
                 "tutor：提示：跳过了 {count} 处有问题的内容；运行 `tutor validate` 查看")


def loaded_content(lang: str = "en"):
    """The installed content; a one-line note on stderr (in `lang`) when some of it failed to load."""
    from tutor.content import load

    content = load()
    if content.problems:
        print(CONTENT_NOTE.format(lang, count=len(content.problems)), file=sys.stderr)
    return content


def interview_library(lang: str = "en"):
    """The bank and the interview content (`Library`); the same note when any of either failed to load:
    a scenario with a bad field is left out of its format, and without the note nobody is told."""
    from tutor.interview.scenarios import Library

    library = Library.installed()
    skipped = library.bank.skipped()
    if skipped:
        print(CONTENT_NOTE.format(lang, count=skipped), file=sys.stderr)
    return library


REPLACED_NOTE = ("tutor: note: the answer had bytes that are not UTF-8; each was replaced by \ufffd "
                 "and the answer graded as shown / 答案里有非 UTF-8 字节，已替换为 \ufffd 后评分")


def read_answer(given: str, stdin_limit: int) -> str:
    """The answer from argv, or from standard input when `given` is `-`, as valid text: bytes that
    are not UTF-8 (argv carries them as lone surrogates) become U+FFFD, with a note on stderr,
    so the answer can be graded *and* recorded (SQLite refuses surrogates)."""
    if given == "-":
        raw = sys.stdin.buffer.read(stdin_limit) if hasattr(sys.stdin, "buffer") else sys.stdin.read(stdin_limit)
        if isinstance(raw, str):
            text, replaced = valid_text(raw)
        else:
            try:
                text, replaced = raw.decode("utf-8"), False
            except UnicodeDecodeError:
                text, replaced = raw.decode("utf-8", "replace"), True
    else:
        text, replaced = valid_text(given)
    if replaced:
        print(REPLACED_NOTE, file=sys.stderr)
    return text


def valid_text(text: str) -> tuple[str, bool]:
    """`text` with lone surrogates (undecodable bytes) replaced by U+FFFD; whether any were."""
    try:
        text.encode("utf-8")
        return text, False
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), True
    except UnicodeEncodeError:  # surrogates that did not come from bytes: replace one by one
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text), True
