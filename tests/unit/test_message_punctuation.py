"""The English half of every bilingual message is punctuated in English.

A pass that gave the Chinese feedback full-width punctuation once reached an English message too
("Could not find a number in 'x'； write e.g. 39 GB， 1.2e25"). Read from the syntax tree of the
code: every `Message(en, zh)` call's first argument.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TUTOR = Path(__file__).resolve().parents[2] / "tutor"
FULL_WIDTH = re.compile(r"[；，：。！？（）]")


def _english_halves():
    for path in sorted(TUTOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Message" and node.args:
                first = node.args[0]
                pieces = [first] if isinstance(first, ast.Constant) else getattr(first, "values", [])
                text = "".join(piece.value for piece in pieces
                               if isinstance(piece, ast.Constant) and isinstance(piece.value, str))
                yield f"{path.relative_to(TUTOR.parent)}:{node.lineno}", text


def test_every_english_message_has_english_punctuation():
    halves = list(_english_halves())
    assert len(halves) > 50  # the scan reads the calls it means to read
    wrong = [(where, text) for where, text in halves if FULL_WIDTH.search(text)]
    assert not wrong, wrong
