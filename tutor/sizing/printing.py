"""Show a formula as a person writes it (16·Ψ/(PP·TP)) and with numbers put in (16·70e9/(4·4)).

Printing only: the expression tree is walked with the values standing in for the symbols;
nothing is substituted or evaluated by SymPy here. `python -m tutor.sizing.generate` prints every
formula with it ahead of time (tutor/sizing/printed_formulas.py), so reports need no SymPy at run
time; `SympyRendering` prints a derivation with it at run time, the tests' reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

import sympy
from sympy.printing.str import StrPrinter

from tutor.sizing.display import engineering
from tutor.sizing.symbols import S, SYMBOLS

if TYPE_CHECKING:
    from tutor.sizing.derivation import Term


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


def template(expr: sympy.Expr) -> tuple[str, ...]:
    """`show_with`'s parts: text at even positions, a symbol's name at odd ones (for the generator)."""
    return _template(expr)


def term_expr(term: Term) -> sympy.Expr:
    """A derivation's bound term as SymPy: inputs as the engine's symbols, `out:x` as a positive symbol."""
    from tutor.sizing.rendering import REF

    def one(name: str) -> sympy.Symbol:
        return sympy.Symbol(name, positive=True) if name.startswith(REF) else S[name]

    return sympy.Integer(term.factor) * sympy.Mul(*map(one, term.numerator)) / sympy.Mul(*map(one, term.denominator))


def shown_term(term: Term) -> str:
    """A bound term as the derivation notes it (`CP·DP`, `first_stage_params`)."""
    from tutor.sizing.rendering import REF

    return show(term_expr(term)).replace(REF, "")


class SympyRendering:
    """The derivation text printed by SymPy at run time (tutor.sizing.rendering.Rendering): what
    the pre-rendered tables must equal byte for byte (tests/sizing/test_printed.py)."""

    def formula(self, name: str) -> str:
        from tutor.sizing import registry

        return show(registry.get(name).expr)

    def substituted(self, name: str, values: Mapping[str, float]) -> str:
        from tutor.sizing import registry

        return show_with(registry.get(name).expr, dict(values))

    def bound(self, term: Term) -> str:
        return shown_term(term)
