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

    def specialised(self, outputs: Sequence[str], variables: Sequence[str]) -> tuple[tuple[str, ...], Callable]:
        """(constant input names, make): `make(*constants)` returns `f(*variables)` -> list of outputs,
        `fused`'s values (to rounding: a product of constants is grouped before the layout's factors).

        The planner's search varies only the layout (`variables`: TP, PP, CP, EP, DP, v); the model's
        and the run's numbers are constant for a whole search. Every part of the expressions that
        depends on the constants alone (h·V, the parameters of a layer, s·b·h·(18 + 4F/h) ...) is
        worked out once by `make`, and `f` reads those values as closure variables: no argument
        tuple to build and pick per configuration, and about half the arithmetic (issue 18's planner
        throughput; tests/sizing/test_specialised.py checks the values against `fused`). The code is
        lambdify's own printing of the common subexpressions, split after those of the constants
        (lambdify cannot nest one function in another, hence the split by hand)."""
        import inspect

        exprs = [self.composite(output) for output in outputs]
        used = {symbol.name for expr in exprs for symbol in expr.free_symbols}
        constants = tuple(name for name in SYMBOLS if name in used and name not in variables)
        replacements, reduced = sympy.cse(exprs, list=False)
        known = {S[name] for name in constants}
        outer: list[tuple[sympy.Symbol, sympy.Expr]] = []
        inner: list[tuple[sympy.Symbol, sympy.Expr]] = []
        hoisted: list[tuple[sympy.Symbol, sympy.Expr]] = []

        def constant(expr: sympy.Expr) -> bool:
            return expr.free_symbols <= known

        def hoist(expr: sympy.Expr) -> sympy.Expr:
            """`expr` with each of its largest parts of constants alone replaced by a symbol `make` computes."""
            if expr.is_Atom:
                return expr
            if constant(expr):
                return name_of(expr)
            if isinstance(expr, (sympy.Add, sympy.Mul)):
                fixed = [arg for arg in expr.args if constant(arg)]
                rest = [hoist(arg) for arg in expr.args if not constant(arg)]
                if len(fixed) > 1 or (fixed and not fixed[0].is_Atom):
                    fixed = [name_of(expr.func(*fixed))]
                return expr.func(*fixed, *rest, evaluate=False)
            return expr.func(*(hoist(arg) for arg in expr.args))

        def name_of(expr: sympy.Expr) -> sympy.Symbol:
            symbol = sympy.Symbol(f"k_{len(hoisted)}")
            hoisted.append((symbol, expr))
            known.add(symbol)
            return symbol

        for symbol, expr in replacements:
            if constant(expr):
                outer.append((symbol, expr))
                known.add(symbol)
            else:
                inner.append((symbol, hoist(expr)))
        reduced = [hoist(expr) for expr in reduced]
        if any(symbol.name in SYMBOLS for symbol, _ in hoisted):
            raise RuntimeError("a hoisted constant's name is an engine symbol's")
        outer += hoisted
        arguments = [S[name] for name in constants] + [S[name] for name in variables]
        full = sympy.lambdify(arguments, reduced, modules="math", cse=lambda _: (outer + inner, reduced))
        header, *body = inspect.getsource(full).rstrip("\n").split("\n")
        names = list(constants) + list(variables)
        if (header != f"def _lambdifygenerated({', '.join(names)}):" or len(body) != len(outer) + len(inner) + 1
                or not all(line.startswith("    ") for line in body)):
            raise RuntimeError("lambdify printed the fused function in an unexpected shape")  # a SymPy change
        lines = [f"def make({', '.join(constants)}):", *body[:len(outer)],
                 f"    def evaluate({', '.join(variables)}):", *("    " + line for line in body[len(outer):]),
                 "    return evaluate"]
        namespace = dict(full.__globals__)
        # SymPy's printing of the engine's own formulas: no learner text reaches this code.
        exec(compile("\n".join(lines) + "\n", "<planner specialised>", "exec"), namespace)
        return constants, namespace["make"]


def _shown(expr: sympy.Expr) -> str:
    return show(expr).replace(_REF, "")
