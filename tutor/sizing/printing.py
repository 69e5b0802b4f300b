"""Show a formula as a person writes it (16·Ψ/(PP·TP)) and with numbers put in (16·70e9/(4·4)).

Printing only: the expression tree is walked with the values standing in for the symbols;
nothing is substituted or evaluated by SymPy here.
"""

from __future__ import annotations

from functools import lru_cache

import sympy
from sympy.printing.str import StrPrinter

from tutor.sizing.display import engineering
from tutor.sizing.symbols import SYMBOLS


class _Printer(StrPrinter):
    def __init__(self, values: dict[str, str] | None = None) -> None:
        super().__init__({"order": "none"})
        self._values = values

    def _print_Symbol(self, expr: sympy.Symbol) -> str:
        if self._values is not None and expr.name in self._values:
            return self._values[expr.name]
        info = SYMBOLS.get(expr.name)
        return info.display if info else expr.name

    def _as_ordered_terms(self, expr: sympy.Expr, order: str | None = None) -> list:
        # Positive terms first: `PP - 1`, not SymPy's canonical `-1 + PP`.
        return sorted(expr.args, key=lambda term: term.could_extract_minus_sign())

    def _print_Piecewise(self, expr: sympy.Piecewise) -> str:
        parts = []
        for value, condition in expr.args:
            shown = self._print(value)
            parts.append(shown if condition is sympy.true else f"{shown} if {self._print(condition)}")
        return "; otherwise ".join(parts)

    def _print_ceiling(self, expr: sympy.Expr) -> str:
        return f"⌈{self._print(expr.args[0])}⌉"


def _tidy(text: str) -> str:
    return text.replace("**", "^").replace("*", "·")


@lru_cache(maxsize=None)
def show(expr: sympy.Expr) -> str:
    """The expression with display names: `6·Ψ + 12·Ψ/N`."""
    return _tidy(_Printer().doprint(expr))


_MARK = "\x00"


@lru_cache(maxsize=None)
def _template(expr: sympy.Expr) -> tuple[str, ...]:
    # Printed once with a marker per symbol; the numbers are spliced in per call (printing is slow).
    marked = _tidy(_Printer({symbol.name: _MARK + symbol.name + _MARK for symbol in expr.free_symbols}).doprint(expr))
    return tuple(marked.split(_MARK))


def show_with(expr: sympy.Expr, values: dict[str, float]) -> str:
    """The expression with numbers standing in for its symbols: `6·4.375e9 + 12·4.375e9/4`."""
    parts = _template(expr)
    return "".join(engineering(values[part]) if index % 2 else part for index, part in enumerate(parts))
