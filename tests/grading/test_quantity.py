"""Quantity parsing: the ways learners write numbers, units and approximations."""

from __future__ import annotations

import pytest

from tutor.grading.quantity import QuantityError, parse_quantity

GB = ("GB", "bytes", 1e9)
TB = ("TB", "bytes", 1e12)
DAYS = ("days", "time", 86400)
HOURS = ("h", "time", 3600)
PERCENT = ("%", "fraction", 0.01)
TOKENS = ("tokens/s", "token_rate", 1)
FLOPS = ("FLOPs", "flops", 1)
TFLOPS = ("TFLOP/s", "flop_rate", 1e12)
PLAIN = ("x", "any", 1)
PARAMS = ("params", "count", 1)


def first(text: str, asked: tuple) -> float:
    return parse_quantity(text, *asked).readings[0].value


@pytest.mark.parametrize(("text", "asked", "value"), [
    ("39 GB", GB, 39e9), ("39GB", GB, 39e9), ("39 gb", GB, 39e9), ("３９ＧＢ", GB, 39e9),
    ("1,120 GB", GB, 1120e9), ("1_120 GB", GB, 1120e9), ("3.9e10 bytes", GB, 3.9e10), ("3.9E+10 B", GB, 3.9e10),
    ("39 字节", GB, 39), ("0.039 TB", GB, 39e9), ("39000 MB", GB, 39e9), ("36.32 GiB", GB, 36.32 * 2**30),
    ("16T", TB, 16e12), ("16 TB", TB, 16e12), ("1.5 PiB", TB, 1.5 * 2**50),
    ("43 days", DAYS, 43 * 86400), ("43天", DAYS, 43 * 86400), ("43 d", DAYS, 43 * 86400),
    ("1032 h", DAYS, 1032 * 3600), ("1032小时", DAYS, 1032 * 3600), ("6 weeks", DAYS, 42 * 86400),
    ("2.8 小时", HOURS, 2.8 * 3600), ("168 分钟", HOURS, 168 * 60), ("2 h 48 min", HOURS, 2 * 3600 + 48 * 60),
    ("1天2小时", DAYS, 26 * 3600), ("10080 s", HOURS, 10080),
    ("23%", PERCENT, 0.23), ("23 %", PERCENT, 0.23), ("23 percent", PERCENT, 0.23), ("百分之23", PERCENT, 0.23),
    ("540K tokens/s", TOKENS, 540e3), ("540k", TOKENS, 540e3), ("54万 tokens/s", TOKENS, 540e3),
    ("54 万", TOKENS, 540e3), ("每秒 54 万 token", TOKENS, 540e3), ("0.54M tok/s", TOKENS, 540e3),
    ("540,000 tokens per second", TOKENS, 540e3), ("540000 tokens/sec", TOKENS, 540e3),
    ("1.2e25 FLOPs", FLOPS, 1.2e25), ("1.2×10^25", FLOPS, 1.2e25), ("1.2 x 10^25 FLOP", FLOPS, 1.2e25),
    ("1.2·10²⁵", FLOPS, 1.2e25), ("10^25", FLOPS, 1e25), ("12 YFLOPs", FLOPS, 12e24),
    ("989 TFLOP/s", TFLOPS, 989e12), ("989 TFLOPS", TFLOPS, 989e12), ("989T", TFLOPS, 989e12),
    ("0.989 PFLOP/s", TFLOPS, 989e12), ("9.89e14 FLOP/s", TFLOPS, 9.89e14),
    ("200", PLAIN, 200), ("200 GPUs", PLAIN, 200), ("200张卡", PLAIN, 200), ("4x", PLAIN, 4), ("4 倍", PLAIN, 4),
    ("70B", PARAMS, 70e9), ("70 billion", PARAMS, 70e9), ("700亿", PARAMS, 70e9), ("1.5T", PARAMS, 1.5e12),
    ("m = 64", PLAIN, 64), ("bubble = 3/256 ≈ 1.2%", PERCENT, 0.012), ("每卡是 39 GB", GB, 39e9),
    ("-5 GB", GB, -5e9),
])
def test_reads(text, asked, value):
    assert first(text, asked) == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize("text", ["≈39 GB", "~39 GB", "约 39 GB", "大约39GB", "about 39 GB", "approx. 39 GB",
                                  "roughly 39GB", "39 GB 左右", "M ≈ 39 GB", "~= 39 GB"])
def test_approximate_marks(text):
    quantity = parse_quantity(text, *GB)
    assert quantity.approx and quantity.readings[0].value == pytest.approx(39e9)


@pytest.mark.parametrize("text", ["39 GB per GPU", "每卡 39 GB", "39 GB each", "total 39 GB", "39 GB 每张卡"])
def test_qualifiers_are_ignored(text):
    assert first(text, GB) == pytest.approx(39e9)


def test_bare_number_has_a_second_reading_in_the_base_unit():
    readings = parse_quantity("39e9", *GB).readings
    assert [r.value for r in readings] == [pytest.approx(39e18), pytest.approx(39e9)]
    assert parse_quantity("0.23", *PERCENT).readings[1].value == pytest.approx(0.23)


def test_binary_units_are_marked():
    assert parse_quantity("36 GiB", *GB).readings[0].binary
    assert not parse_quantity("36 GB", *GB).readings[0].binary


@pytest.mark.parametrize(("text", "says"), [
    ("", "empty"), ("banana", "Could not find a number"), ("39 h", "time"), ("43 GB", "size in bytes"),
    ("39 apples", "Unknown unit"), ("1e999", "out of range"), ("1/0", "Division by zero"),
    ("x" * 500, "characters long"),
])
def test_errors_say_what_is_wrong(text, says):
    asked = DAYS if says == "size in bytes" else GB
    with pytest.raises(QuantityError) as caught:
        parse_quantity(text, *asked)
    assert says in caught.value.message.en
    assert caught.value.message.zh


def test_wrong_dimension_names_both_sides_in_chinese_too():
    with pytest.raises(QuantityError) as caught:
        parse_quantity("39 h", *GB)
    assert "时间" in caught.value.message.zh and "字节" in caught.value.message.zh
