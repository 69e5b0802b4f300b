"""A derivation: registry formulas chained into a report, declared once, used two ways.

A `Link` names an output, the formula that computes it, and how the formula's inputs are bound
(by default a symbol binds to the earlier output of the same name, else to the input of that
name; `bind` gives an expression instead, e.g. `n_shard=dp*cp` or `params=ref("params_per_gpu")`).

- `run(values)` evaluates link by link and records each step for the learner (`tutor size`).
- `fused(outputs)` substitutes the links into each other once, symbolically, and compiles the
  result with `lambdify(..., cse=True)` into one plain function — the planner's fast path.
Both start from the same registry expressions, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import sympy

from tutor.sizing import engine, registry
from tutor.sizing.display import engineering
from tutor.sizing.printing import show
from tutor.sizing.symbols import S, SYMBOLS

_REF = "out:"


def ref(output: str) -> sympy.Symbol:
    """The value of an earlier link, for use in a `bind` expression."""
    return sympy.Symbol(_REF + output, positive=True)


@dataclass(frozen=True)
class Link:
    id: str
    formula: str
    bind: tuple[tuple[str, sympy.Expr], ...] = field(default=())


def link(output: str, formula: str, **bind: sympy.Expr) -> Link:
    return Link(output, formula, tuple(bind.items()))


class Derivation:
    """A chain of links; see the module docstring."""

    def __init__(self, links: Sequence[Link]) -> None:
        self.links = tuple(links)
        self.binding: dict[str, dict[str, sympy.Expr]] = {}
        seen: set[str] = set()
        for item in self.links:
            formula = registry.get(item.formula)
            given = dict(item.bind)
            unknown = set(given) - set(formula.symbols)
            if unknown:
                raise ValueError(f"link {item.id}: {item.formula} has no input {sorted(unknown)}")
            self.binding[item.id] = {
                name: given.get(name, ref(name) if name in seen else S[name]) for name in formula.symbols}
            seen.add(item.id)
        used = {symbol.name for exprs in self.binding.values() for expr in exprs.values()
                for symbol in expr.free_symbols if not symbol.name.startswith(_REF)}
        self.inputs = tuple(name for name in SYMBOLS if name in used)

    @cached_property
    def _bound(self) -> dict[tuple[str, str], tuple[list[sympy.Symbol], Callable[..., float]]]:
        # Bind expressions that are more than a plain name, compiled once.
        compiled: dict[tuple[str, str], tuple[list[sympy.Symbol], Callable[..., float]]] = {}
        for output, exprs in self.binding.items():
            for name, expr in exprs.items():
                if not isinstance(expr, sympy.Symbol):
                    arguments = sorted(expr.free_symbols, key=lambda symbol: symbol.name)
                    compiled[(output, name)] = (arguments, sympy.lambdify(arguments, expr, modules="math"))
        return compiled

    def run(self, values: Mapping[str, float], lang: str = "en") -> tuple[dict[str, float], list[dict]]:
        """Every output, and the learner's steps {id, formula, substituted, value, unit}."""
        known: dict[str, float] = {}
        steps = []
        for item in self.links:
            formula = registry.get(item.formula)
            arguments: dict[str, float] = {}
            notes = []
            for name, expr in self.binding[item.id].items():
                arguments[name] = self._value(item.id, name, expr, values, known)
                if not isinstance(expr, sympy.Symbol) or expr.name.startswith(_REF) and expr.name != _REF + name:
                    notes.append(f"{SYMBOLS[name].display} ← {_shown(expr)} = {engineering(arguments[name])}")
            value = engine.compute(item.formula, [arguments[name] for name in formula.symbols])
            known[item.id] = value
            steps.append(engine.step(item.id, item.formula, arguments, value, lang,
                                     bound="; ".join(notes) + ": " if notes else ""))
        return known, steps

    def _value(self, output: str, name: str, expr: sympy.Expr, values: Mapping[str, float],
               known: Mapping[str, float]) -> float:
        if isinstance(expr, sympy.Symbol):
            return known[expr.name[len(_REF):]] if expr.name.startswith(_REF) else values[expr.name]
        arguments, function = self._bound[(output, name)]
        return float(function(*(self._value(output, name, symbol, values, known) for symbol in arguments)))

    def composite(self, output: str) -> sympy.Expr:
        """The output as one expression of the inputs (substituted once, when compiling)."""
        return self._composites[output]

    @cached_property
    def _composites(self) -> dict[str, sympy.Expr]:
        done: dict[str, sympy.Expr] = {}
        for item in self.links:
            formula = registry.get(item.formula)
            replacements = {}
            for name, expr in self.binding[item.id].items():
                refs = {symbol: done[symbol.name[len(_REF):]] for symbol in expr.free_symbols
                        if symbol.name.startswith(_REF)}
                replacements[S[name]] = expr.xreplace(refs)
            done[item.id] = formula.expr.xreplace(replacements)
        return done

    def fused(self, outputs: Sequence[str]) -> tuple[tuple[str, ...], Callable[..., tuple]]:
        """(input names, f(*inputs) -> tuple of outputs), compiled once with common subexpressions shared."""
        exprs = [self.composite(output) for output in outputs]
        used = {symbol.name for expr in exprs for symbol in expr.free_symbols}
        names = tuple(name for name in SYMBOLS if name in used)
        function = sympy.lambdify([S[name] for name in names], exprs, modules="math", cse=True)
        return names, function


def _shown(expr: sympy.Expr) -> str:
    return show(expr).replace(_REF, "")
