"""Numbers for people: `format_value(39.375e9, "GB")` -> "39.4 GB" (GB = 1e9 bytes, DESIGN §4).

Values arrive in base units (bytes, seconds, fractions, FLOPs, FLOP/s, tokens/s, counts). A value
returned by `evaluate()` knows its unit (`value.unit`), so `format_value(evaluate("mtbf_hours",
...), "h")` does not treat hours as seconds; `from_unit=` says it for a plain float. Standard
library only: graders and renderers may import this without SymPy.
"""

from __future__ import annotations

import math

from tutor.sizing.errors import SizingError
from tutor.text import T

# display unit -> (dimension, base units per display unit)
DISPLAY_UNITS: dict[str, tuple[str, float]] = {
    "B": ("bytes", 1), "KB": ("bytes", 1e3), "MB": ("bytes", 1e6), "GB": ("bytes", 1e9), "TB": ("bytes", 1e12),
    "PB": ("bytes", 1e15), "KiB": ("bytes", 2**10), "MiB": ("bytes", 2**20), "GiB": ("bytes", 2**30),
    "TiB": ("bytes", 2**40),
    "ms": ("time", 1e-3), "s": ("time", 1), "min": ("time", 60), "h": ("time", 3600), "days": ("time", 86400),
    "%": ("fraction", 0.01), "fraction": ("fraction", 1),
    "FLOPs": ("flops", 1), "FLOP/s": ("flop_rate", 1), "TFLOP/s": ("flop_rate", 1e12), "PFLOP/s": ("flop_rate", 1e15),
    "tokens/s": ("token_rate", 1), "params": ("count", 1), "GB/s": ("byte_rate", 1e9),
    "x": ("any", 1), "plain": ("any", 1), "": ("any", 1),
}
# result unit of a formula -> (dimension, base units per result unit)
RESULT_BASE: dict[str, tuple[str, float]] = {
    "B": ("bytes", 1), "s": ("time", 1), "h": ("time", 3600), "days": ("time", 86400),
    "fraction": ("fraction", 1), "FLOPs": ("flops", 1), "FLOP/s": ("flop_rate", 1),
    "tokens/s": ("token_rate", 1), "params": ("count", 1), "count": ("count", 1), "B/s": ("byte_rate", 1),
}
TIME_UNITS = {"ms": T("ms", "毫秒"), "s": T("s", "秒"), "min": T("min", "分钟"), "h": T("h", "小时"),
              "days": T("days", "天")}
_EN_SCALE = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))
_ZH_SCALE = ((1e12, "万亿"), (1e8, "亿"), (1e4, "万"))


def dimension(unit: str) -> str | None:
    """The dimension of a display or result unit (bytes, time, fraction, ...), None if unknown."""
    entry = DISPLAY_UNITS.get(unit) or RESULT_BASE.get(unit)
    return entry[0] if entry else None


def compatible(result_unit: str, display_unit: str) -> bool:
    """Whether a formula's result can be shown in `display_unit` (plain shows anything)."""
    shown = DISPLAY_UNITS.get(display_unit)
    base = RESULT_BASE.get(result_unit)
    return shown is not None and base is not None and shown[0] in ("any", base[0])


def gigabytes(value: float, lang: str = "en") -> str:
    """Bytes as GB with one decimal, the way memory is shown in reports and plans."""
    return format_value(value, "GB", 1, lang)


def format_value(value: float, unit: str, digits: int = 1, lang: str = "en", *, from_unit: str | None = None) -> str:
    """`value` (base units, or `from_unit`, or its own `.unit`) shown in `unit` with `digits` decimals."""
    if unit not in DISPLAY_UNITS:
        raise SizingError(f"unknown display unit {unit!r}; use one of {', '.join(u for u in DISPLAY_UNITS if u)}")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SizingError(f"cannot show {value!r} as a number")
    source = from_unit or getattr(value, "unit", None)
    dim, per_display = DISPLAY_UNITS[unit]
    amount = float(value)
    if source is not None and dim != "any":
        if source not in RESULT_BASE:
            raise SizingError(f"unknown unit {source!r}")
        source_dim, per_source = RESULT_BASE[source]
        if source_dim != dim:
            raise SizingError(f"cannot show a value in {source} as {unit}")
        amount = amount * per_source
    if dim != "any":
        amount /= per_display
    digits = max(0, int(digits))
    if unit == "FLOPs":
        return f"{_scientific(amount, digits)} FLOPs"
    if unit in ("tokens/s", "params"):
        scaled = _scaled(amount, digits, lang)
        return f"{scaled} tokens/s" if unit == "tokens/s" else scaled
    if unit in ("x", "plain", "", "fraction"):
        return _plain(amount, digits)
    if unit == "%":
        return f"{amount:.{digits}f}%"
    label = TIME_UNITS[unit].get(lang) if unit in TIME_UNITS else unit
    return f"{amount:.{digits}f} {label}"


def format_auto(value: float, result_unit: str, digits: int = 1, lang: str = "en") -> str:
    """A value in a formula's result unit, in the display unit a person would pick."""
    dim, per_source = RESULT_BASE.get(result_unit, ("any", 1))
    base = float(value) * per_source
    if dim == "bytes":  # GB up to 10 TB, as the lesson writes 1120 GB
        steps = (("TB", 1e13), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3))
        unit = next((u for u, limit in steps if abs(base) >= limit), "B")
    elif dim == "time":
        unit = next((u for u, limit in (("days", 2 * 86400), ("h", 2 * 3600), ("min", 120)) if abs(base) >= limit), "s")
    elif dim == "fraction":
        unit = "%"
    elif dim == "flops":
        unit = "FLOPs"
    elif dim == "flop_rate":
        unit = "TFLOP/s"
    elif dim == "token_rate":
        unit = "tokens/s"
    elif dim == "byte_rate":  # nccl-tests' unit (GB = 1e9 bytes)
        unit = "GB/s"
    elif result_unit == "params":
        unit = "params"
    else:
        unit, digits = "plain", (0 if float(value).is_integer() else digits)
    return format_value(base, unit, digits, lang, from_unit=None if dim == "any" else _base_of(dim))


def _base_of(dim: str) -> str:
    return next(unit for unit, (d, factor) in RESULT_BASE.items() if d == dim and factor == 1)


def _scientific(amount: float, digits: int) -> str:
    mantissa, _, exponent = f"{amount:.{digits}e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def _scaled(amount: float, digits: int, lang: str) -> str:
    if lang == "zh":
        for factor, word in _ZH_SCALE:
            if abs(amount) >= factor:
                return f"{amount / factor:.{digits}f} {word}"
        return _plain(amount, digits)
    for factor, suffix in _EN_SCALE:
        if abs(amount) >= factor:
            return f"{amount / factor:.{digits}f}{suffix}"
    return _plain(amount, digits)


def _plain(amount: float, digits: int) -> str:
    if abs(amount) >= 1e15:
        return _scientific(amount, digits)
    return f"{amount:.{digits}f}"


def engineering(number: float) -> str:
    """A number as typed in a derivation: 8192, 70e9, 4.375e9, 0.4, 285.2e6."""
    number = float(number)
    if number == 0:
        return "0"
    if number.is_integer() and abs(number) < 1e6:
        return str(int(number))
    exponent = int(math.floor(math.log10(abs(number)) / 3) * 3)
    if exponent == 0 or -3 <= exponent < 0 and abs(number) >= 0.001:
        return f"{number:.4g}"
    mantissa = f"{number / 10**exponent:.4g}"
    return f"{mantissa}e{exponent}"
