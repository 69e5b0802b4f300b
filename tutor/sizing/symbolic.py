"""A derivation as SymPy expressions: each output substituted down to the inputs, for checking.

The engine runs derivations on the generated formula functions (tutor.sizing.derivation); this
module builds the same chain from the registry's SymPy expressions, so the tests can compare the
fast path with an independent evaluation (`lambdified`) and the benchmarks can time SymPy's own
`subs` against it. Imports SymPy: never on the way of `tutor size` or `tutor plan`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sympy

from tutor.sizing import registry
from tutor.sizing.derivation import Derivation
from tutor.sizing.printing import term_expr
from tutor.sizing.rendering import REF
from tutor.sizing.symbols import S, SYMBOLS


def composites(derivation: Derivation) -> dict[str, sympy.Expr]:
    """Every output as one expression of the inputs."""
    done: dict[str, sympy.Expr] = {}
    for item in derivation.links:
        replacements = {}
        for name, term in derivation.binding[item.id].items():
            expr = term_expr(term)
            refs = {symbol: done[symbol.name[len(REF):]] for symbol in expr.free_symbols
                    if symbol.name.startswith(REF)}
            replacements[S[name]] = expr.xreplace(refs)
        done[item.id] = registry.get(item.formula).expr.xreplace(replacements)
    return done


def lambdified(derivation: Derivation, outputs: Sequence[str],
               modules: str = "mpmath") -> tuple[tuple[str, ...], Callable[..., list]]:
    """(input names, f(*inputs) -> outputs) from the substituted expressions; mpmath by default, so the
    reference does its own arithmetic rather than the generated functions'."""
    done = composites(derivation)
    exprs = [done[output] for output in outputs]
    used = {symbol.name for expr in exprs for symbol in expr.free_symbols}
    names = tuple(name for name in SYMBOLS if name in used)
    return names, sympy.lambdify([S[name] for name in names], exprs, modules=modules)
