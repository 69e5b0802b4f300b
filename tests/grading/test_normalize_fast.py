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
