"""A named formula: plain frozen data (its SymPy expression, unit, explanation and source).

Formulas are declared in the topic modules of `tutor.sizing.formulas`; `tutor.sizing.registry`
collects them. Nothing here evaluates anything: the engine compiles an expression once
(`tutor.sizing.engine`) and the printer shows it (`tutor.sizing.printing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from tutor.sizing.symbols import SYMBOLS
from tutor.text import T

class Min(sympy.Min):
    """SymPy's Min, never evaluated: built, substituted (xreplace) and rebuilt by cse as written.
    Evaluating one orders its symbolic arguments through the assumptions system (is_ge on each
    pair), which made compiling the planner's Llama 3 trimmed-split functions ~0.5 s each; the value
    is the same, `min` in the generated code either way. Printers find Min's methods by the MRO."""

    def __new__(cls, *args, **options):
        options["evaluate"] = False
        return super().__new__(cls, *args, **options)


class Max(sympy.Max):
    """SymPy's Max, never evaluated (see Min)."""

    def __new__(cls, *args, **options):
        options["evaluate"] = False
        return super().__new__(cls, *args, **options)


# Result units (base units only; `format_value` turns them into GB, days, %, ...).
RESULT_UNITS = ("B", "s", "h", "days", "FLOPs", "FLOP/s", "fraction", "count", "params", "tokens/s", "B/s")


@dataclass(frozen=True)
class Formula:
    """One formula of the registry."""

    name: str
    expr: sympy.Expr
    symbols: tuple[str, ...]
    """Input names, in the order a caller would list them (e.g. params, tp, pp)."""
    unit: str
    """Unit of the result: one of RESULT_UNITS."""
    text: T
    """What it computes and why, in English and Chinese."""
    source: str
    """Lesson section, paper and table or equation."""
    steps: tuple[str, ...] = field(default=())
    """Other formulas `explain()` shows first, as the way to this one."""

    @property
    def sympy_symbols(self) -> dict[str, sympy.Symbol]:
        return {name: SYMBOLS[name].symbol for name in self.symbols}


def formula(name: str, expr: sympy.Expr, unit: str, text: T, source: str,
            steps: tuple[str, ...] = (), order: tuple[str, ...] = ()) -> Formula:
    """Declare a formula; its inputs are the expression's free symbols (`order` puts some first)."""
    present = {symbol.name for symbol in expr.free_symbols}
    unknown = present - SYMBOLS.keys()
    if unknown:
        raise ValueError(f"formula {name}: undeclared symbols {sorted(unknown)}")
    if unit not in RESULT_UNITS:
        raise ValueError(f"formula {name}: unit {unit!r} is not one of {RESULT_UNITS}")
    if set(order) - present:
        raise ValueError(f"formula {name}: order names symbols it does not use: {sorted(set(order) - present)}")
    # Inputs in the declaration order of symbols.py unless the formula says otherwise.
    rest = [candidate for candidate in SYMBOLS if candidate in present and candidate not in order]
    return Formula(name, expr, tuple(order) + tuple(rest), unit,
                   text, source, steps)
