"""The English half of every bilingual message is punctuated in English, the Chinese half in Chinese.

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


HALF_WIDTH = re.compile(r"[;,:](?!\d)")  # not a ratio or a time ("2:1", "0:30")


def _halves(index: int):
    for path in sorted(TUTOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Message" and len(node.args) > index:
                half = node.args[index]
                pieces = [half] if isinstance(half, ast.Constant) else getattr(half, "values", [])
                # the literal parts only: "{option.id}:{why}" is checked by its ":", whatever the values hold
                text = "".join(piece.value for piece in pieces
                               if isinstance(piece, ast.Constant) and isinstance(piece.value, str))
                yield f"{path.relative_to(TUTOR.parent)}:{node.lineno}", text


def _english_halves():
    return _halves(0)


def test_every_english_message_has_english_punctuation():
    halves = list(_english_halves())
    assert len(halves) > 50  # the scan reads the calls it means to read
    wrong = [(where, text) for where, text in halves if FULL_WIDTH.search(text)]
    assert not wrong, wrong


def test_every_chinese_message_has_chinese_punctuation():
    # "r3:rank 3 停在 evaluate() 的 barrier 里" (a choice's why, seen in the mock at 120x36, 2026-12-04)
    halves = list(_halves(1))
    assert len(halves) > 50
    wrong = [(where, text) for where, text in halves if HALF_WIDTH.search(text) and "://" not in text]
    assert not wrong, wrong
