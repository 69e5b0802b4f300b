"""The one place grading talks to the sizing engine: values, units, symbols and formatting.

Every expected value is `tutor.sizing.engine.evaluate(formula, **inputs)` converted to base units;
nothing here computes a number of its own. Keeping the calls in one module keeps the graders
independent of the engine's module layout.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, SupportsFloat

from tutor.sizing.display import DISPLAY_UNITS, RESULT_BASE

if TYPE_CHECKING:  # tutor.sizing.symbols builds SymPy symbols: imported on first use, not at start-up
    from tutor.sizing.symbols import SymbolInfo

PARALLEL_DIMS = ("tp", "pp", "cp", "ep", "dp")
DIM_LABELS = {"tp": "TP", "pp": "PP", "cp": "CP", "ep": "EP", "dp": "DP", "vpp": "v", "gpus": "GPUs",
              "n_shard": "N", "micro_batch": "micro-batch", "layers": "L"}


class EngineError(ValueError):
    """The engine could not compute a value for these inputs (message from the engine)."""


def display_unit(unit: str) -> tuple[str, float]:
    """(dimension, base units per display unit) of a numeric answer's unit."""
    dimension, factor = DISPLAY_UNITS[unit]
    return ("any" if dimension == "any" else dimension), float(factor)


def known_unit(unit: str) -> bool:
    return unit in DISPLAY_UNITS


def evaluate_base(formula: str, inputs: Mapping[str, object]) -> float:
    """Formula value in base units (bytes, seconds, fraction, ...); EngineError when it cannot be computed."""
    from tutor.sizing.engine import evaluate
    from tutor.sizing.errors import SizingError

    try:
        value = evaluate(formula, **dict(inputs))
    except SizingError as error:
        raise EngineError(str(error)) from None
    factor = RESULT_BASE.get(getattr(value, "unit", ""), ("", 1))[1]
    result = float(value) * factor
    if not math.isfinite(result):
        raise EngineError(f"{formula} is not finite for these inputs")
    return result


# Signatures come from the engine's generated module, so a numeric check imports no SymPy.
def result_dimension(formula: str) -> str:
    """Dimension of a formula's result (bytes, time, ...), for checking a question's unit."""
    from tutor.sizing.engine import signature

    return RESULT_BASE.get(signature(formula)[1], ("any", 1))[0]


def unit_fits(formula: str, unit: str) -> bool:
    """Whether the formula's result can be shown in display unit `unit` (a plain `x` shows anything)."""
    from tutor.sizing.display import compatible
    from tutor.sizing.engine import signature

    return compatible(signature(formula)[1], unit)


def formula_symbols(formula: str) -> tuple[str, ...]:
    from tutor.sizing.engine import signature

    return tuple(signature(formula)[0])


def formula_exists(formula: str) -> bool:
    from tutor.sizing.compiled_formulas import FORMULAS

    return formula in FORMULAS


def format_display(base_value: float, unit: str, digits: int, lang: str = "en") -> str:
    """A base-unit value shown in `unit` ("39.4 GB", "42.9 天")."""
    from tutor.sizing.display import format_value

    return format_value(float(base_value), unit, digits, lang)


@lru_cache(maxsize=None)
def symbol_catalog() -> dict[str, SymbolInfo]:
    """name -> the engine's SymbolInfo (display form, aliases, kind, unit, en/zh meaning)."""
    from tutor.sizing.symbols import SYMBOLS

    return dict(SYMBOLS)


def format_input(name: str, value: object, lang: str = "en") -> str:
    """A question input as a prompt shows it: 70B params, 8192 tokens, 80 GB, 989 TFLOP/s, 40%."""
    if isinstance(value, (str, bool)) or not isinstance(value, SupportsFloat):
        return str(value)
    from tutor.sizing.compiled_formulas import SYMBOLS

    unit = SYMBOLS[name][2] if name in SYMBOLS else "count"
    number = float(value)
    if name == "seq" and number.is_integer():
        # Sequence lengths are binary (128K = 131,072): a decimal suffix would print 131.072K.
        return f"{int(number):,}"
    if unit == "B":
        return _shortest(number, "GB", lang)
    if unit == "FLOP/s":
        return _shortest(number, "TFLOP/s", lang)
    if unit == "fraction":
        return _shortest(number, "%", lang)
    if unit == "s":
        return _shortest(number, "s" if number < 600 else ("min" if number < 7200 else "h"), lang)
    if unit == "tokens/s":
        return _significant(number, "tokens/s", lang)
    if unit in ("params", "count") and number >= 1e5:
        # Engineers write 70B and 2T in Chinese too ("70B 模型"), so counts keep K/M/B/T.
        return _shortest(number, "params", "en") + (" tokens/s" if unit == "tokens/s" else "")
    return _shortest(number, "plain", lang)


def _significant(base_value: float, unit: str, lang: str, figures: int = 3) -> str:
    """A measured rate rounded to `figures` significant digits (264K tokens/s, 90.4K, 1.23M)."""
    import re

    for digits in range(4):
        text = format_display(base_value, unit, digits, lang)
        shown = re.search(r"\d[\d,]*(?:\.\d+)?", text)
        if shown and len(shown.group(0).replace(",", "").replace(".", "").lstrip("0")) >= figures:
            return text
    return format_display(base_value, unit, 3, lang)


def _shortest(base_value: float, unit: str, lang: str) -> str:
    """The value with as few decimals as show it exactly (70B, not 70.0B; 4.375B; 8192)."""
    exact = _trim_zeros(format_display(base_value, unit, 6, lang))
    for digits in range(4):
        text = format_display(base_value, unit, digits, lang)
        if text == exact:
            return text
    return _trim_zeros(format_display(base_value, unit, 3, lang))


def _trim_zeros(text: str) -> str:
    return re.sub(r"\.(?=\D|$)", "", re.sub(r"(\.\d*?)0+(?=\D|$)", r"\1", text))
