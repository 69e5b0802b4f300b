"""Read a quantity as learners write it: `≈39 GB`, `3.9e10 bytes`, `54万 tokens/s`, `43天`.

Grammar (after `normalize.clean`), in order:
  [label (= | : | ≈)]  [approx]  [qualifier]  number  [multiplier] [unit]  [approx]  [qualifier]
with numbers plain, grouped (`1,120`, `1_000`), scientific (`1.2e25`, `1.2×10^25`, `10²⁵`) or a
ratio of two numbers (`3/256`); multipliers K/M/B/T, 万, 亿; units from `tutor.grading.units`;
approximate marks ≈ ~ 约 大约 about approx around roughly, and 左右 after the number; times may
be compound (`2 h 48 min`, `1天2小时`). Hand-written (a few regular expressions on a capped
string) because the grammar mixes units, multipliers and Chinese words no library reads
together; see `tutor.grading.units` for why not pint.

The result keeps every sensible *reading*: a bare `39` asked in GB is 39 GB, but could also be
the base unit (`39e9` meaning bytes, `0.23` meaning 23%); the grader takes the reading that fits.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tutor.grading import units
from tutor.grading.normalize import SHORT_LIMIT, TooLong, clean
from tutor.grading.verdict import Message

_APPROX_PREFIX = re.compile(
    r"^(?:≈|~=|=~|~|∼|≃|约等于|约为|约|大约|大概|差不多|将近|接近|about|approximately|approx\.?|around|roughly|"
    r"circa|ca\.|nearly|almost)\s*", re.IGNORECASE)
_APPROX_SUFFIX = re.compile(r"\s*(?:左右|上下|or so|ish)$", re.IGNORECASE)
_QUALIFIER_PREFIX = re.compile(r"^(?:每张卡|每卡|单卡|每个 ?gpu|每 ?gpu|per gpu|总共|一共|合计|total|in total)\s*",
                               re.IGNORECASE)
_QUALIFIER_SUFFIX = re.compile(
    r"\s*(?:per gpu|/gpu|per rank|/rank|per device|each|on each gpu|in total|total|每卡|每张卡|总共|per replica)$",
    re.IGNORECASE)
# "m = 512/2 = 256", "bubble ≈ 1.2%", "每卡是 39 GB": the answer is what follows the last sign.
_EQUALS = re.compile(r"~=|=~|=|≈|≃|:|是|为")
_APPROX_BEFORE = re.compile(r"(?:≈|≃|~=|=~|~|约|大约|about|approx\.?|around|roughly)\s*$", re.IGNORECASE)
_RATE_PREFIX = re.compile(r"^每秒(?:钟)?\s*")
_PERCENT_PREFIX = re.compile(r"^百分之\s*")

_MANTISSA = r"(?:\d{1,3}(?:,\d{3})+|\d+(?:_\d+)*)(?:\.\d*)?|\.\d+"
_NUMBER = re.compile(
    rf"^(?P<sign>[+-]?)\s*(?P<mantissa>{_MANTISSA})"
    r"(?:\s*[eE]\s*(?P<e>[+-]?\d{1,4})|\s*(?:[x×*·]|\\times)\s*10\s*(?:\^|\*\*)\s*(?P<pow>[+-]?\d{1,4}))?"
    rf"(?:\s*/\s*(?P<denominator>{_MANTISSA})(?![\w]))?")
_POWER_OF_TEN = re.compile(r"^10\s*(?:\^|\*\*)\s*(?P<pow>[+-]?\d{1,4})")
_TIME_PART = re.compile(r"^(?P<unit>[^\d]+?)\s*(?=\d|$)")
MAX_PARTS = 4


class QuantityError(ValueError):
    """The text is not a quantity this grader can read; `message` says how to write one."""

    def __init__(self, message: Message):
        super().__init__(message.en)
        self.message = message


@dataclass(frozen=True)
class Reading:
    """One way to understand the answer: a value in base units and the unit it was read in."""

    value: float
    unit: str
    """Canonical spelling of the unit the number was read in ("GB", "GiB", "tokens/s", "")."""
    binary: bool = False
    """Read in a binary byte unit (KiB..PiB)."""


@dataclass(frozen=True)
class Quantity:
    """A parsed answer: its readings (most likely first) and whether it was marked approximate."""

    readings: tuple[Reading, ...]
    approx: bool
    text: str
    low: tuple[Reading, ...] | None = None
    """For a range ("39-40 GB", "39 到 40 GB"): the low end's readings, position by position with
    `readings` (the high end); None for one value."""


def parse_quantity(text: object, display_unit: str, dimension: str, display_factor: float) -> Quantity:
    """Read `text` as a quantity of `dimension`, asked for in `display_unit` (`display_factor` base units)."""
    try:
        cleaned = clean(text, SHORT_LIMIT)
    except TooLong as error:
        raise QuantityError(error.message) from None
    if not cleaned:
        raise QuantityError(Message("The answer is empty.", "答案是空的。"))
    body, approx = _strip_decorations(cleaned)
    rate_prefix = _RATE_PREFIX.match(body)
    if rate_prefix:
        body = body[rate_prefix.end():]
    percent_prefix = _PERCENT_PREFIX.match(body)
    if percent_prefix:
        body = body[percent_prefix.end():] + "%"
    number, rest = _leading_number(body, cleaned)
    low = None
    span = _RANGE.match(rest)
    if span:
        # "39-40 GB", "39 – 40", "39 to 40 GB", "39~40GB", "39 GB - 40 GB": both ends in the high end's unit
        high, high_rest = _leading_number(span.group("high"), cleaned)
        unit = high_rest.strip() or span.group("unit").strip()
        if not span.group("unit").strip() or _key_unit(span.group("unit")) == _key_unit(unit):
            low = tuple(_readings(number, unit, display_unit, dimension, display_factor, cleaned))
            number, rest = high, unit
    if rate_prefix:
        rest = (rest + "/s") if rest else "/s"
    readings = _readings(number, rest.strip(), display_unit, dimension, display_factor, cleaned)
    if low is not None and not all(a.value <= b.value for a, b in zip(low, readings)):
        raise QuantityError(Message(f"{_quote(cleaned)} reads as a range whose low end is above its high end.",
                                    f"{_quote(cleaned)} 像是一个范围，但下限比上限还大。"))
    return Quantity(tuple(readings), approx or low is not None, cleaned, low)


# A range after the first number: its own unit (optional), a dash, "to", 到/至 or ~, a number.
_RANGE = re.compile(r"^(?P<unit>\s*[^\d\s~–—-]*?)\s*(?:-|–|—|~|～|to|到|至)\s*(?P<high>\d.*)$", re.IGNORECASE)


def _key_unit(text: str) -> str:
    return text.strip().casefold().replace(" ", "")


# A value followed by its derivation in brackets, "39.4 GB (4.375B params × 9 bytes)": the
# value is what comes before. A label before a count, "DP 8", and a floor, "at least 200", "200+".
_DERIVATION = re.compile(r"^([^()（）]*\d[^()（）]*?)\s*[(（].*[)）]\s*$")
_LABEL_PREFIX = re.compile(r"^(?:tp|pp|cp|dp|ep|at least|at minimum|minimum of|≥|>=|至少|最少)\s*", re.IGNORECASE)
_PLUS_SUFFIX = re.compile(r"(?<=\d)\s*\+$")


def _strip_decorations(text: str) -> tuple[str, bool]:
    approx = False
    derivation = _DERIVATION.match(text)
    if derivation and not re.search(r"[=≈]", derivation.group(1)):
        text = derivation.group(1).strip()
    signs = list(_EQUALS.finditer(text))
    if signs and re.search(r"\d", text[signs[-1].end():]):
        last = signs[-1]
        approx = last.group() in ("≈", "≃", "~=", "=~") or bool(_APPROX_BEFORE.search(text[:last.start()]))
        text = text[last.end():].strip()
    for _ in range(3):  # "about ~39 GB per GPU": a few decorations, in any order
        before = text
        for pattern in (_APPROX_PREFIX, _APPROX_SUFFIX):
            stripped = pattern.sub("", text)
            approx = approx or stripped != text
            text = stripped
        text = _QUALIFIER_SUFFIX.sub("", _QUALIFIER_PREFIX.sub("", text)).strip()
        text = _PLUS_SUFFIX.sub("", _LABEL_PREFIX.sub("", text)).strip()
        if text == before:
            break
    return text, approx


def _leading_number(body: str, original: str) -> tuple[float, str]:
    power = _POWER_OF_TEN.match(body)
    if power:
        return _finite(10.0 ** _clamp_exponent(int(power.group("pow")), original), original), body[power.end():]
    match = _NUMBER.match(body)
    if match:
        value = _to_float(match.group("sign") + match.group("mantissa"), original)
        exponent = match.group("e") or match.group("pow")
        if exponent is not None:
            value *= 10.0 ** _clamp_exponent(int(exponent), original)
        if match.group("denominator") is not None:
            denominator = _to_float(match.group("denominator"), original)
            if denominator == 0:
                raise QuantityError(Message("Division by zero in the answer.", "答案里除以了零。"))
            value /= denominator
        return _finite(value, original), body[match.end():]
    raise QuantityError(Message(
        f"Could not find a number in {_quote(original)}; write e.g. 39 GB, 1.2e25, 540K tokens/s.",
        f"在 {_quote(original)} 里没找到数字；可以写 39 GB、1.2e25、54万 tokens/s 这样的形式。"))


def _readings(number: float, rest: str, display_unit: str, dimension: str, display_factor: float,
              original: str) -> list[Reading]:
    if rest == "":
        # A bare number is in the unit asked for; the base unit is the second guess.
        readings = [Reading(number * display_factor, "" if display_unit in ("x", "plain") else display_unit)]
        if display_factor != 1:
            readings.append(Reading(number, _base_label(dimension)))
        return readings
    if dimension == "time":
        return [_compound_time(number, rest, original)]
    found = units.lookup(rest, dimension)
    if found is not None:
        factor, label = found
        return [Reading(_finite(number * factor, original), label, label.endswith("iB"))]
    if dimension in ("count", "any") and (units.other_dimension(rest, dimension) is not None
                                          or units.counts_machines(rest)):
        # "200 GB" asked as a count is bytes, not 200 × G × B (giga, then B read as billion)
        raise QuantityError(_unit_problem(rest, dimension, original))
    multiplier, unit_text = _split_multiplier(rest)
    if multiplier is not None:
        if unit_text == "":
            # "16T" asked in bytes, "989T" asked in FLOP/s: the multiplier scales the base unit.
            return [Reading(_finite(number * multiplier, original), _base_label(dimension))]
        found = units.lookup(unit_text, dimension)
        if found is not None:
            return [Reading(_finite(number * multiplier * found[0], original), found[1], found[1].endswith("iB"))]
    raise QuantityError(_unit_problem(rest, dimension, original))


def _compound_time(number: float, rest: str, original: str) -> Reading:
    """`2 h 48 min`, `1天2小时`: parts summed; a lone part is the usual `43 days`."""
    total, labels = 0.0, list[str]()
    for _ in range(MAX_PARTS):
        unit_match = _TIME_PART.match(rest)
        unit_text = unit_match.group("unit").strip() if unit_match else rest
        found = units.lookup(unit_text, "time")
        if found is None:
            multiplier, remainder = _split_multiplier(rest)
            if multiplier is not None and remainder == "" and not labels:
                return Reading(_finite(number * multiplier, original), "s")
            raise QuantityError(_unit_problem(unit_text, "time", original))
        total += number * found[0]
        labels.append(found[1])
        rest = rest[unit_match.end():].strip() if unit_match else ""
        if not rest:
            return Reading(_finite(total, original), "+".join(labels))
        number, rest = _leading_number(rest, original)
        rest = rest.strip()
    raise QuantityError(Message(f"Too many parts in {_quote(original)}; write one time, e.g. 43 days.",
                                f"{_quote(original)} 分段太多；写一个时间，如 43 天。"))


_MULTIPLIER_WORDS = sorted(units.MULTIPLIERS, key=len, reverse=True)


def _split_multiplier(rest: str) -> tuple[float | None, str]:
    """`T` -> (1e12, ""), `万 GB` -> (1e4, "GB"); a lowercase `m` is not million outside counts."""
    compact = rest.replace(" ", "")
    for word in _MULTIPLIER_WORDS:
        if compact.casefold().startswith(word) and not (len(word) == 1 and compact.startswith("m")):
            return units.MULTIPLIERS[word], compact[len(word):]
    return None, rest


def _unit_problem(unit_text: str, dimension: str, original: str) -> Message:
    wanted_en, wanted_zh = units.DIMENSION_WORDS.get(dimension, units.DIMENSION_WORDS["any"])
    if units.counts_machines(unit_text):
        return Message(f"{_quote(unit_text)} counts machines, not what the question counts (a node holds several "
                       f"GPUs); give the number it asks for.",
                       f"{_quote(unit_text)} 数的是机器，不是题目要数的东西（一台机器有好几张卡）；请按题目问的给数。")
    other = units.other_dimension(unit_text, dimension)
    if other is not None:
        got_en, got_zh = units.DIMENSION_WORDS[other]
        return Message(f"{_quote(unit_text)} makes this {got_en.split(' (')[0]}; the question asks for {wanted_en}.",
                       f"{_quote(unit_text)} 表示的是{got_zh.split('（')[0]}；这题问的是{wanted_zh}。")
    return Message(f"Unknown unit {_quote(unit_text)} in {_quote(original)}; the question asks for {wanted_en}.",
                   f"{_quote(original)} 里的单位 {_quote(unit_text)} 看不懂；这题问的是{wanted_zh}。")


def _base_label(dimension: str) -> str:
    return {"bytes": "B", "time": "s", "fraction": "fraction", "flops": "FLOPs", "flop_rate": "FLOP/s",
            "token_rate": "tokens/s", "byte_rate": "B/s"}.get(dimension, "")


def _to_float(text: str, original: str) -> float:
    try:
        return float(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise QuantityError(Message(f"{_quote(original)} is not a number I can read.",
                                    f"{_quote(original)} 不是能读懂的数字。")) from None


def _clamp_exponent(exponent: int, original: str) -> int:
    if abs(exponent) > 300:
        raise QuantityError(Message(f"The exponent in {_quote(original)} is out of range.",
                                    f"{_quote(original)} 的指数超出范围。"))
    return exponent


def _finite(value: float, original: str) -> float:
    if not math.isfinite(value):
        raise QuantityError(Message(f"{_quote(original)} is too large to be an answer.",
                                    f"{_quote(original)} 太大了，不像是答案。"))
    return value


def _quote(text: str, limit: int = 40) -> str:
    return f"'{text if len(text) <= limit else text[:limit] + '…'}'"


__all__ = ["Quantity", "QuantityError", "Reading", "parse_quantity"]
