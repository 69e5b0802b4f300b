"""A decimal number is one number to the claim reader: no phrase starts at the digits after its point
("8.6 days" says no "6 days", "2.5 days" no "5 days"), while a phrase written with the point or with a space
("6.4 tb", "6 4 tb") finds it, and two numbers apart ("6 = 2 forward") are still two. (Round 7, 2026-12-04: a
rate of 8.6 days per trillion tokens was read as a whole run of six days, a contradiction.)"""

from __future__ import annotations

import pytest

from tutor.grading.claims.folding import fold
from tutor.grading.claims.matching import pattern
from tutor.grading.normalize import LONG_LIMIT, clean

CASES = [
    ("6 days", "roughly 8.6 days per trillion tokens", False),
    ("5 days", "it takes 2.5 days", False),
    ("4 tb", "6.4 TB of model state", False),
    ("6 天", "每万亿 token 约 8.6 天", False),  # a number in a Chinese phrase is the whole number (round 8)
    ("6 天", "每万亿 token 约 6 天", True),
    ("6 days", "about 6 days in all", True),
    ("6 days", "6.5 hours, then 6 days", True),
    ("6 4 tb", "6.4 TB of model state", True),
    ("6.4 tb", "6.4 TB of model state", True),
    ("6.4 tb", "总共6.4TB", True),
    ("6.4 tb", "6 4 TB", True),
    ("2 forward", "6 = 2 forward + 4 backward", True),
    ("16 bytes", "16 bytes per parameter", True),
    ("1.5 gb", "about 1.5 GB per rank", True),
]


@pytest.mark.parametrize(("phrase", "text", "found"), CASES)
def test_a_number_does_not_start_after_a_decimal_point(phrase, text, found):
    assert (pattern(phrase).search(fold(clean(text, LONG_LIMIT))) is not None) is found
