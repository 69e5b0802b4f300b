"""Numeric steps: the expected value from the engine, the learner's quantity, a tolerance.

Right when some reading of the answer lies within the step's relative tolerance of the
engine's value; otherwise `mistakes.diagnose` names the likely slip. Either way the feedback
says when GB and GiB were mixed, since they differ by 7%.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tutor.content.models import NumericStep
from tutor.grading import engine
from tutor.grading.mistakes import close, diagnose
from tutor.grading.quantity import Quantity, QuantityError, Reading, parse_quantity
from tutor.grading.variant import Variant, resolve
from tutor.grading.verdict import Message, Verdict, join, unreadable


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
    for position, reading in enumerate(quantity.readings):
        if close(reading.value, expected.base, expected.tolerance):
            return _right(expected, quantity, reading, position)
    reading = quantity.readings[0]
    for candidate in quantity.readings:
        diagnosis = diagnose(step, expected.inputs, candidate, expected.base, expected.unit, variant.values)
        if diagnosis is not None:
            return Verdict(False, 0.0, _parsed(quantity, candidate, expected), expected.to_json(),
                           join([_wrong_line(quantity, expected), diagnosis.message]), mistake=diagnosis.id)
    return Verdict(False, 0.0, _parsed(quantity, reading, expected), expected.to_json(),
                   join([_wrong_line(quantity, expected), _direction(reading.value, expected)]))


def _right(expected: Expected, quantity: Quantity, reading: Reading, position: int) -> Verdict:
    messages = [Message(f"Right: {expected.shown('en')} (within ±{expected.tolerance:.0%}).",
                        f"正确：{expected.shown('zh')}（误差 ±{expected.tolerance:.0%} 以内）。")]
    if position > 0:
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
