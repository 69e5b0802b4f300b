"""A derivation: registry formulas chained into a report, declared once, used two ways, without SymPy.

A `Link` names an output, the formula that computes it, and how the formula's inputs are bound
(by default a symbol binds to the earlier output of the same name, else to the input of that
name; `bind` gives a `Term` instead, e.g. `n_shard=symbol("dp") * symbol("cp")` or
`params=ref("params_per_gpu")`).

- `run(values)` evaluates link by link and records each step for the learner (`tutor size`).
- `fused(outputs)` / `specialised(outputs, variables)` write the links as one plain Python function,
  each formula's generated expression in turn with its inputs renamed to the bound values — the
  planner's fast path.
Both evaluate the same generated code (tutor/sizing/compiled_formulas.py) on the same bound values,
operation for operation, so the two cannot disagree, and neither imports SymPy (issue 18: `tutor
plan` for 16,384 GPUs under a second). The derivation text comes from the pre-rendered formulas
(tutor/sizing/printed_formulas.py); `tutor.sizing.symbolic` gives the same chain as SymPy
expressions, which the tests check both against.
"""

from __future__ import annotations

import ast
import copy
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from tutor.sizing import compiled_formulas as generated
from tutor.sizing import engine
from tutor.sizing.display import engineering
from tutor.sizing.rendering import PRERENDERED, REF, Rendering


@dataclass(frozen=True)
class Term:
    """What a link binds a formula's input to: a whole-number factor times a product of inputs and
    earlier outputs (`out:NAME`), over a product of them. Every binding the chains need is one
    (N = DP·CP, Ψ/(TP·PP), s/CP, 3600·MTBF, GPT-3's 2048 positions); a monomial keeps its value and
    its code one and the same left-to-right product."""

    factor: int = 1
    numerator: tuple[str, ...] = ()
    denominator: tuple[str, ...] = ()

    def __mul__(self, other: Term | int) -> Term:
        other = other if isinstance(other, Term) else Term(other)
        return Term(self.factor * other.factor, self.numerator + other.numerator,
                    self.denominator + other.denominator)

    __rmul__ = __mul__

    def __truediv__(self, other: Term) -> Term:
        if other.factor != 1:
            raise ValueError("a Term divides by inputs only")
        return Term(self.factor, self.numerator + other.denominator, self.denominator + other.numerator)

    @property
    def names(self) -> tuple[str, ...]:
        return self.numerator + self.denominator

    @property
    def single(self) -> str | None:
        """The one name this term is (an input or `out:` reference), else None."""
        return self.numerator[0] if self.factor == 1 and len(self.numerator) == 1 and not self.denominator else None

    def value(self, lookup: Callable[[str], float]) -> float:
        """The value, multiplied in the order `code` writes it (so the fast path's bits are these)."""
        factors: list[float] = [self.factor] if self.factor != 1 or not self.numerator else []
        factors += [lookup(name) for name in self.numerator]
        result = factors[0]
        for factor in factors[1:]:
            result = result * factor
        if self.denominator:
            below = lookup(self.denominator[0])
            for name in self.denominator[1:]:
                below = below * lookup(name)
            result = result / below
        return float(result)

    def code(self, spell: Callable[[str], str]) -> str:
        """Python for `value`, each name spelled by `spell`."""
        top = ([str(self.factor)] if self.factor != 1 or not self.numerator else []) + [spell(n) for n in self.numerator]
        text = "*".join(top)
        if self.denominator:
            below = "*".join(spell(name) for name in self.denominator)
            text = f"{text}/({below})" if len(self.denominator) > 1 else f"{text}/{below}"
        return text

    @property
    def key(self) -> tuple:
        """How the pre-rendered table (printed_formulas.BOUND) names this term."""
        return (self.factor, self.numerator, self.denominator)


def symbol(name: str) -> Term:
    """An input of the derivation (an engine symbol)."""
    if name not in generated.SYMBOLS:
        raise ValueError(f"{name!r} is not an engine symbol (tutor/sizing/symbols.py)")
    return Term(1, (name,))


def ref(output: str) -> Term:
    """The value of an earlier link, for use in a `bind` term."""
    return Term(1, (REF + output,))


def constant(number: int) -> Term:
    """A fixed whole number (GPT-3's 2048 learned positions)."""
    return Term(int(number))


@dataclass(frozen=True)
class Link:
    id: str
    formula: str
    bind: tuple[tuple[str, Term], ...] = field(default=())


def link(output: str, formula: str, **bind: Term) -> Link:
    return Link(output, formula, tuple(bind.items()))


class Derivation:
    """A chain of links; see the module docstring."""

    def __init__(self, links: Sequence[Link]) -> None:
        self.links = tuple(links)
        self.binding: dict[str, dict[str, Term]] = {}
        seen: set[str] = set()
        for item in self.links:
            if not item.id.isidentifier():
                raise ValueError(f"link {item.id!r}: an output's name must be an identifier")
            symbols, _ = engine.signature(item.formula)
            given = dict(item.bind)
            unknown = set(given) - set(symbols)
            if unknown:
                raise ValueError(f"link {item.id}: {item.formula} has no input {sorted(unknown)}")
            self.binding[item.id] = {
                name: given.get(name, ref(name) if name in seen else symbol(name)) for name in symbols}
            seen.add(item.id)
        used = {name for terms in self.binding.values() for term in terms.values() for name in term.names
                if not name.startswith(REF)}
        self.inputs = tuple(name for name in generated.SYMBOLS if name in used)

    @cached_property
    def _steps(self) -> list[tuple[Link, tuple[str, ...], list[tuple[str, Term, str | None, bool]]]]:
        """Per link: its formula's inputs, and per input its term, the one name it is (else None) and
        whether the step notes it (worked out once, not per report)."""
        plan = []
        for item in self.links:
            symbols, _ = engine.signature(item.formula)
            bound = []
            for name, term in self.binding[item.id].items():
                single = term.single
                # A plain input, or the earlier output of the same name, needs no note.
                noted = single is None or single.startswith(REF) and single != REF + name
                bound.append((name, term, single, noted))
            plan.append((item, symbols, bound))
        return plan

    def run(self, values: Mapping[str, float], lang: str = "en",
            rendering: Rendering = PRERENDERED) -> tuple[dict[str, float], list[dict]]:
        """Every output, and the learner's steps {id, formula, substituted, value, unit}."""
        known: dict[str, float] = {}
        scope = {**values}  # the inputs, and each output as `out:NAME` once computed
        lookup = scope.__getitem__
        steps = []
        for item, symbols, bound in self._steps:
            arguments: dict[str, float] = {}
            notes = []
            for name, term, single, noted in bound:
                arguments[name] = lookup(single) if single is not None else term.value(lookup)
                if noted:
                    notes.append(f"{generated.SYMBOLS[name][0]} ← {rendering.bound(term)} = "
                                 f"{engineering(arguments[name])}")
            value = engine.compute(item.formula, [arguments[name] for name in symbols])
            known[item.id] = scope[REF + item.id] = value
            steps.append(engine.step(item.id, item.formula, arguments, value, lang,
                                     bound="; ".join(notes) + ": " if notes else "", rendering=rendering))
        return known, steps

    def needed(self, outputs: Sequence[str]) -> list[Link]:
        """The links `outputs` depend on, in chain order."""
        by_id = {item.id: item for item in self.links}
        wanted: set[str] = set()
        pending = list(outputs)
        while pending:
            output = pending.pop()
            if output in wanted:
                continue
            if output not in by_id:
                raise ValueError(f"no link computes {output!r}")
            wanted.add(output)
            pending += [name[len(REF):] for term in self.binding[output].values() for name in term.names
                        if name.startswith(REF)]
        return [item for item in self.links if item.id in wanted]

    def _inputs_of(self, links: Sequence[Link]) -> tuple[str, ...]:
        used = {name for item in links for term in self.binding[item.id].values() for name in term.names
                if not name.startswith(REF)}
        return tuple(name for name in generated.SYMBOLS if name in used)

    def fused(self, outputs: Sequence[str]) -> tuple[tuple[str, ...], Callable[..., tuple]]:
        """(input names, f(*inputs) -> tuple of outputs): the links as one function."""
        links = self.needed(outputs)
        names = self._inputs_of(links)
        body = _Body(self, None)
        for item in links:
            body.add(item)
        lines = [f"def fused({', '.join(names)}):", *("    " + line for line in body.lines("inner")),
                 f"    return ({''.join(_spelled(REF + name) + ', ' for name in outputs)})"]
        return names, _compiled(lines, "fused")

    def specialised(self, outputs: Sequence[str], variables: Sequence[str]) -> tuple[tuple[str, ...], Callable]:
        """(constant input names, make): `make(*constants)` returns `f(*variables)` -> the outputs,
        `fused`'s values to the bit.

        The planner's search varies only the layout (`variables`: TP, PP, CP, EP, DP, v); the model's
        and the run's numbers are constant for a whole search. Every part of the formulas that depends
        on the constants alone (a link of them, h·V, a layer's parameters, s·b·h·(18 + 4f/h) ...) is
        worked out once by `make`, and `f` reads those values as closure variables: no argument tuple
        to build and pick per configuration, and about half the arithmetic (the planner's ~100,000
        configurations/s, benchmarks/bench_planner.py). A part is taken out whole, as the expression
        writes it, so its value is the same float either way."""
        links = self.needed(outputs)
        constants = tuple(name for name in self._inputs_of(links) if name not in variables)
        body = _Body(self, frozenset(constants))
        for item in links:
            body.add(item)
        lines = [f"def make({', '.join(constants)}):", *("    " + line for line in body.lines("outer")),
                 f"    def evaluate({', '.join(variables)}):", *("        " + line for line in body.lines("inner")),
                 f"        return ({''.join(_spelled(REF + name) + ', ' for name in outputs)})",
                 "    return evaluate"]
        return constants, _compiled(lines, "make")


class _Body:
    """The statements of a fused function, link by link: each formula's generated expression
    (compiled_formulas.EXPRESSIONS) with its inputs renamed to the bound values. With `constants`,
    the statements that depend on them alone go to `outer` (run once per search), and so does every
    largest such part of an expression that also reads a variable (`k_0 = 3*ffn*hidden + ...`)."""

    def __init__(self, derivation: Derivation, constants: frozenset[str] | None) -> None:
        self.derivation = derivation
        self.fixed = None if constants is None else set(constants)  # None: one flat function, nothing taken out
        self.outer: list[tuple[str, ast.expr]] = []
        self.inner: list[tuple[str, ast.expr]] = []

    def _put(self, target: str, expr: ast.expr, constant: bool) -> None:
        if constant and self.fixed is not None:
            self.outer.append((target, expr))
            self.fixed.add(target)
        else:
            self.inner.append((target, expr))

    def lines(self, which: str) -> list[str]:
        """The statements of `outer` or `inner`, each subexpression they share computed once."""
        return _Shared(self.outer if which == "outer" else self.inner, "s_" if which == "outer" else "t_").lines

    def add(self, item: Link) -> None:
        symbols, _ = engine.signature(item.formula)
        names: dict[str, ast.expr] = {}
        for name in symbols:
            term = self.derivation.binding[item.id][name]
            if term.single is not None:
                names[name] = ast.Name(_spelled(term.single), ast.Load())
                continue
            local = f"b_{item.id}_{name}"  # a term bound to a local first: an input may appear twice
            self._put(local, ast.parse(term.code(_spelled), mode="eval").body, self._constant(term.names))
            names[name] = ast.Name(local, ast.Load())
        expr = _Renamed(names).visit(copy.deepcopy(_expression(item.formula)))
        expr, constant = self._hoisted(expr)
        self._put(_spelled(REF + item.id), expr, constant)

    def _constant(self, names: Sequence[str]) -> bool:
        return self.fixed is not None and all(_spelled(name) in self.fixed for name in names)

    def _hoisted(self, node: ast.expr) -> tuple[ast.expr, bool]:
        """(node with its largest constant parts taken out to `outer`, whether it is constant itself)."""
        if self.fixed is None:
            return node, False
        if isinstance(node, ast.Name):
            return node, node.id in self.fixed
        if isinstance(node, ast.Constant):
            return node, True
        if isinstance(node, ast.BinOp):
            (node.left, node.right), constant = self._parts([node.left, node.right])
        elif isinstance(node, ast.UnaryOp):
            (node.operand,), constant = self._parts([node.operand])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PURE:
            node.args, constant = self._parts(node.args)
        else:  # a conditional (Piecewise) is evaluated as written: nothing is taken out of a branch
            fixed = self.fixed
            constant = all(sub.id in fixed or sub.id in _PURE for sub in ast.walk(node) if isinstance(sub, ast.Name))
        return node, constant

    def _parts(self, children: list[ast.expr]) -> tuple[list[ast.expr], bool]:
        """An operation's operands, and whether all are constant: then they stay as they are (the whole
        operation is taken out, or is part of a larger constant); else each constant one is taken out."""
        parts = [self._hoisted(child) for child in children]
        if all(constant for _, constant in parts):
            return [child for child, _ in parts], True
        return [self._taken_out(child) if constant else child for child, constant in parts], False

    def _taken_out(self, node: ast.expr) -> ast.expr:
        if isinstance(node, (ast.Name, ast.Constant)):
            return node
        local = f"k_{len(self.outer)}"
        self._put(local, node, True)
        return ast.Name(local, ast.Load())


class _Shared(ast.NodeTransformer):
    """Statements with each operation that occurs more than once among them (⌈L/p⌉, min(m, p), N - 1 ...)
    computed once into a local before its first use: the same operation on the same values, so the
    same float. Nothing is shared out of a conditional's branches, which are evaluated as written."""

    def __init__(self, statements: Sequence[tuple[str, ast.expr]], prefix: str) -> None:
        self.counts: Counter[str] = Counter()
        for _, expr in statements:
            self._count(expr)
        self.prefix = prefix
        self.names: dict[str, str] = {}  # an operation's dump -> its local
        self.lines: list[str] = []
        for target, expr in statements:
            self.lines.append(f"{target} = {ast.unparse(self.visit(expr))}")

    def _count(self, node: ast.AST) -> None:
        if isinstance(node, ast.IfExp):
            return
        if isinstance(node, _OPERATIONS):
            self.counts[ast.dump(node)] += 1
        for child in ast.iter_child_nodes(node):
            self._count(child)

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.IfExp):
            return node
        if isinstance(node, _OPERATIONS):
            key = ast.dump(node)
            if self.counts[key] > 1:
                if key not in self.names:
                    shown = ast.unparse(self.generic_visit(node))
                    self.names[key] = f"{self.prefix}{len(self.names)}"
                    self.lines.append(f"{self.names[key]} = {shown}")
                return ast.Name(self.names[key], ast.Load())
        return self.generic_visit(node)


_OPERATIONS = (ast.BinOp, ast.UnaryOp, ast.Call)
_FUNCTIONS = {"ceil": math.ceil, "floor": math.floor, "log": math.log, "sqrt": math.sqrt}
"""The math functions the generated expressions call (compiled_formulas imports the same)."""
_PURE = {*_FUNCTIONS, "min", "max"}  # with the builtins they call: a call of constants is a constant


@lru_cache(maxsize=None)
def _expression(formula: str) -> ast.expr:
    return ast.parse(generated.EXPRESSIONS[formula], mode="eval").body


class _Renamed(ast.NodeTransformer):
    def __init__(self, names: Mapping[str, ast.expr]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.names.get(node.id, node)


def _spelled(name: str) -> str:
    """An input's name as is; an earlier output `out:x` as the local `o_x` (no input's name starts with
    `o_`, nor with `b_`, `k_`, `s_` or `t_`, the other locals: tests/sizing/test_specialised.py)."""
    return "o_" + name[len(REF):] if name.startswith(REF) else name


def _compiled(lines: list[str], entry: str) -> Callable:
    namespace: dict[str, object] = dict(_FUNCTIONS)
    # Code written above from the engine's generated expressions and its own link and symbol names
    # (identifiers, checked in Derivation.__init__ and by symbol()): no learner text reaches it.
    exec(compile("\n".join(lines) + "\n", f"<derivation {entry}>", "exec"), namespace)  # noqa: S102
    return namespace[entry]  # type: ignore[return-value]
