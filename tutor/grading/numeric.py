"""Numeric steps: the expected value from the engine, the learner's quantity, a tolerance.

Right when some reading of the answer lies within the step's relative tolerance of the
engine's value; otherwise `mistakes.diagnose` names the likely slip. Either way the feedback
says when GB and GiB were mixed, since they differ by 7%.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from collections.abc import Mapping
from dataclasses import dataclass

from tutor.grading import engine
from tutor.grading.mistakes import close, diagnose
from tutor.grading.quantity import Quantity, QuantityError, Reading, parse_quantity
from tutor.grading.variant import Variant, resolve
from tutor.grading.verdict import Message, Verdict, join, unreadable

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import NumericStep


@dataclass(frozen=True)
class Expected:
    """A numeric step's expected value for one variant."""

    base: float
    """In base units (bytes, seconds, fraction, ...)."""
    unit: str
    tolerance: float
    digits: int
    inputs: Mapping[str, object]
    """The resolved formula inputs (for diagnosing mistakes)."""

    @property
    def dimension(self) -> str:
        return engine.display_unit(self.unit)[0]

    @property
    def factor(self) -> float:
        return engine.display_unit(self.unit)[1]

    def shown(self, lang: str = "en") -> str:
        return engine.format_display(self.base, self.unit, self.digits, lang)

    def to_json(self) -> dict:
        """`{value, unit, tolerance, text}` as `tutor ask --reveal` shows it (value in `unit`)."""
        value = self.base if self.dimension == "any" else self.base / self.factor
        return {"value": float(f"{value:.6g}"), "unit": self.unit, "tolerance": self.tolerance,
                "text": {"en": self.shown("en"), "zh": self.shown("zh")}}


def expected_value(step: NumericStep, variant: Variant) -> Expected:
    """The engine's value for this step and variant (EngineError when the content is broken)."""
    inputs = resolve(step.answer.inputs, variant.values)
    base = engine.evaluate_base(step.answer.formula, inputs)
    return Expected(base, step.answer.unit, step.answer.tolerance, step.answer.digits, inputs)


def grade_numeric(step: NumericStep, variant: Variant, answer: str) -> Verdict:
    expected = expected_value(step, variant)
    try:
        quantity = parse_quantity(answer, expected.unit, expected.dimension, expected.factor)
    except QuantityError as error:
        return unreadable([error.message], expected.to_json())
    if quantity.low is not None:
        return _grade_range(step, expected, quantity)
    for position, reading in enumerate(quantity.readings):
        if close(reading.value, expected.base, expected.tolerance):
            return _right(expected, quantity, reading, position)
    reading = quantity.readings[0]
    for candidate in quantity.readings:
        slip = _bits_slip(candidate, expected)
        if slip is not None:
            return Verdict(False, 0.0, _parsed(quantity, candidate, expected), expected.to_json(),
                           join([_wrong_line(quantity, expected), slip]), mistake="bits-not-bytes")
        diagnosis = diagnose(step, expected.inputs, candidate, expected.base, expected.unit, variant.values)
        if diagnosis is not None:
            return Verdict(False, 0.0, _parsed(quantity, candidate, expected), expected.to_json(),
                           join([_wrong_line(quantity, expected), diagnosis.message]), mistake=diagnosis.id)
    band = step.answer.band
    if band is not None and band > expected.tolerance:
        for candidate in quantity.readings:
            if close(candidate.value, expected.base, band):
                off = abs(candidate.value / expected.base - 1)
                high = candidate.value > expected.base
                return Verdict(False, BAND_SCORE, _parsed(quantity, candidate, expected), expected.to_json(),
                               join([Message(f"Close: the right method, but {off:.0%} {'high' if high else 'low'}; "
                                             f"right is within ±{expected.tolerance:.0%}. Recheck a rounded input or "
                                             "constant.",
                                             f"接近了：方法对，但{'偏大' if high else '偏小'} {off:.0%}；误差 "
                                             f"±{expected.tolerance:.0%} 以内才算对。检查一下哪个输入或常数取整了。")]),
                               mistake="close")
    return Verdict(False, 0.0, _parsed(quantity, reading, expected), expected.to_json(),
                   join([_wrong_line(quantity, expected), _direction(reading.value, expected)]))


BAND_SCORE = 0.5
"""Partial credit for an estimate inside the step's declared band: the method is right."""
RANGE_WIDTH = 2.0
"""A range is narrow when its high end is at most 1 + RANGE_WIDTH × tolerance (or the step's
band, for an estimate) times its low end ("39-40 GB" at ±5%: 1.03 ≤ 1.10); a wider one is a
hedge, not an estimate."""


def _grade_range(step: NumericStep, expected: Expected, quantity: Quantity) -> Verdict:
    """A range is right when it is narrow and holds the value (both ends within tolerance count as
    holding it); a wide range that holds it is a hedge and is not right; a range beside the value
    is graded by its middle, so its mistake is named."""
    tolerance = expected.tolerance
    lows = quantity.low
    assert lows is not None, "only a range is graded here"
    for position, (low, high) in enumerate(zip(lows, quantity.readings)):
        holds = low.value <= expected.base <= high.value or (
            close(low.value, expected.base, tolerance) and close(high.value, expected.base, tolerance))
        if not holds:
            continue
        middle = Reading((low.value + high.value) / 2, high.unit, high.binary)
        if high.value <= low.value * (1 + max(RANGE_WIDTH * tolerance, step.answer.band or 0)):
            return _right(expected, quantity, middle, position)
        return Verdict(False, 0.0, _parsed(quantity, middle, expected), expected.to_json(),
                       join([Message(f"'{quantity.text}' is too wide to be an answer: it holds the value, but an "
                                     f"interviewer wants one number (within ±{tolerance:.0%}) or a narrow range.",
                                     f"'{quantity.text}' 范围太宽，不算答案：虽然包含了正确值，但面试官要的是一个数"
                                     f"（±{tolerance:.0%} 以内）或一个很窄的范围。")]), mistake="wide-range")
    middle = Reading((lows[0].value + quantity.readings[0].value) / 2, quantity.readings[0].unit,
                     quantity.readings[0].binary)
    diagnosis = diagnose(step, expected.inputs, middle, expected.base, expected.unit, {})
    if diagnosis is not None:
        return Verdict(False, 0.0, _parsed(quantity, middle, expected), expected.to_json(),
                       join([_wrong_line(quantity, expected), diagnosis.message]), mistake=diagnosis.id)
    return Verdict(False, 0.0, _parsed(quantity, middle, expected), expected.to_json(),
                   join([_wrong_line(quantity, expected), _direction(middle.value, expected)]))


def _bits_slip(reading: Reading, expected: Expected) -> Message | None:
    """`39.4 Gb` for 39.4 GB: Gb is gigabits, an eighth of the bytes. For a bandwidth also the
    other way: `400 GB/s` where a 400 Gb/s link gives 50 GB/s (the link's figure not divided by 8)."""
    if expected.dimension == "byte_rate":
        in_bits = reading.unit.endswith(("b/s", "bit/s"))
        if in_bits and close(reading.value * 8, expected.base, expected.tolerance):
            return Message(f"'{reading.unit}' is bits per second, not bytes: your number is 8× too small as written. "
                           "GPU and NCCL bandwidths are in GB/s (gigabytes); network links are sold in Gb/s (gigabits).",
                           f"'{reading.unit}' 是 bit 每秒，不是字节：按写法小了 8 倍。GPU 和 NCCL 的带宽用 GB/s（字节），"
                           "网卡标的是 Gb/s（比特）。")
        if not in_bits and reading.unit and close(reading.value / 8, expected.base, expected.tolerance):
            return Message("8× too high: a link sold as N Gb/s carries N/8 GB/s (8 bits per byte).",
                           "大了 8 倍：标称 N Gb/s 的链路只有 N/8 GB/s（每字节 8 bit）。")
        return None
    if expected.dimension != "bytes" or not reading.unit.endswith(("b", "bit")) or reading.unit == "B":
        return None
    if not close(reading.value * 8, expected.base, expected.tolerance):
        return None
    return Message(f"'{reading.unit}' is bits, not bytes: your number is 8× too small as written. Memory is "
                   "counted in bytes; write GB (gigabytes), not Gb (gigabits).",
                   f"'{reading.unit}' 是 bit，不是字节：按写法小了 8 倍。显存按字节算，要写 GB（千兆字节），不是 Gb（千兆比特）。")


def _right(expected: Expected, quantity: Quantity, reading: Reading, position: int) -> Verdict:
    messages = [Message(f"Right: {expected.shown('en')} (within ±{expected.tolerance:.0%}).",
                        f"正确：{expected.shown('zh')}（误差 ±{expected.tolerance:.0%} 以内）。")]
    # A bare number read in the base unit is a guess worth naming, except for a fraction: "3/256"
    # or "0.0117" for a 1.2% bubble is how one writes a fraction, with no unit to add (polish 5).
    if position > 0 and not (expected.dimension == "fraction" and reading.unit == "fraction"):
        shown_en, shown_zh = (engine.format_display(reading.value, expected.unit, expected.digits, lang)
                              for lang in ("en", "zh"))
        messages.append(Message(f"Read '{quantity.text}' in {reading.unit or 'plain units'} ({shown_en}); "
                                "write the unit next time.",
                                f"'{quantity.text}' 按 {reading.unit or '无单位'} 理解（{shown_zh}）；下次请写上单位。"))
    messages.extend(_gib_note(reading, expected))
    return Verdict(True, 1.0, _parsed(quantity, reading, expected), expected.to_json(), join(messages))


def _gib_note(reading: Reading, expected: Expected) -> list[Message]:
    if expected.dimension != "bytes" or reading.binary == expected.unit.endswith("iB"):
        return []
    gib = reading.value / 2**30
    gb = reading.value / 1e9
    return [Message(f"GB and GiB differ by 7%: {gib:.1f} GiB = {gb:.1f} GB (the lesson uses GB = 10^9 bytes).",
                    f"GB 和 GiB 差 7%：{gib:.1f} GiB = {gb:.1f} GB（本课用 GB = 10^9 字节）。")]


def _wrong_line(quantity: Quantity, expected: Expected) -> Message:
    return Message(f"Not right: '{quantity.text}' is not within ±{expected.tolerance:.0%} of the answer.",
                   f"不对：'{quantity.text}' 不在答案的 ±{expected.tolerance:.0%} 以内。")


def _direction(value: float, expected: Expected) -> Message:
    if expected.base == 0:
        return Message("The answer is zero.", "答案是零。")
    ratio = value / expected.base
    if ratio <= 0:
        return Message("The answer is positive.", "答案是正数。")
    if ratio > 1:
        return Message(f"Too high, by about {ratio:.2g}×. Recheck which sizes divide it.",
                       f"偏大，约 {ratio:.2g} 倍。检查一下该除以哪些并行维度。")
    return Message(f"Too low, by about {1 / ratio:.2g}×. Recheck what you divided by.",
                   f"偏小，约 {1 / ratio:.2g} 倍。检查一下除掉了什么。")


def _parsed(quantity: Quantity, reading: Reading, expected: Expected) -> dict:
    value = reading.value if expected.dimension == "any" else reading.value / expected.factor
    return {"value": float(f"{value:.6g}"), "unit": expected.unit, "as_written": reading.unit,
            "base": reading.value, "approx": quantity.approx}
