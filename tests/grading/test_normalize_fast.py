"""The fast path of `normalize.clean` (printable text skips the per-character look-up) gives the
same text as the look-up: every control, format, surrogate and private-use character is a space."""

from __future__ import annotations

import unicodedata

import pytest

from tutor.grading.normalize import clean


def _slow(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return " ".join("".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") else c
                            for c in text).split())


@pytest.mark.parametrize("text", ["a\u200bb", "a\tb\nc", "a\u2028b\u2029c", "x\ue000y", "rank\u00ad0", "\ufeff39 GB",
                                  "０号卡在　all_gather", "DP 每个 step 只同步一次", "plain text, nothing odd"])
def test_fast_path_matches_the_character_look_up(text):
    assert clean(text, 1000) == _slow(text)


def test_a_list_line_in_free_text_ends_the_statement_before_it():
    """An answer typed as a list in the app's answer box: each item is its own statement; a number
    that starts a line ('3.5x') and a line that merely wraps stay as they are, and a short answer
    (a number, a formula) keeps its line breaks as spaces."""
    from tutor.grading.normalize import LONG_LIMIT

    assert clean("- rank 0: all_gather\n- ranks 1-3: all-reduce\n2) fix\n①修", LONG_LIMIT) == \
        "rank 0: all_gather; ranks 1-3: all-reduce; fix; 修"
    assert clean("3.5x faster\nwrapped\nline", LONG_LIMIT) == "3.5x faster wrapped line"
    assert clean("1.5\n- 2", 400) == "1.5 - 2"
