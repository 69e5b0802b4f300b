"""The program's own Chinese text is punctuated in Chinese (issue 20, natural Chinese).

The content files have their own test (tests/content/test_punctuation.py); this one reads every
string literal of tutor/ that the learner can see: single-line, not raw (raw strings are the
regular expressions that read answers, which must accept both widths), not docstrings. Inside
Chinese text a comma, semicolon, colon, question or exclamation mark, or bracket next to a Chinese
character is full-width: "放不下（每卡 80 GB），", not "放不下(每卡 80 GB),".
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

TUTOR = Path(__file__).resolve().parents[2] / "tutor"
CJK = "\u3400-\u9fff"
HALF_WIDTH_NEXT_TO_CHINESE = re.compile(rf"[{CJK}][,;?!:(]|[,;?!][{CJK}]|\)[{CJK}]")


def _shown_literals():
    for path in sorted(TUTOR.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type != tokenize.STRING or token.start[0] != token.end[0]:
                continue
            prefix = re.match(r"[A-Za-z]*", token.string).group(0).lower()
            if "r" in prefix or token.string[len(prefix):].startswith(('"""', "'''")):
                continue
            yield f"{path.relative_to(TUTOR.parent)}:{token.start[0]}", token.string


def test_chinese_text_in_the_program_has_full_width_punctuation():
    literals = list(_shown_literals())
    assert sum(bool(re.search(f"[{CJK}]", text)) for _, text in literals) > 500  # the scan reads them
    wrong = [(where, text) for where, text in literals if HALF_WIDTH_NEXT_TO_CHINESE.search(text)]
    assert not wrong, wrong[:20]
