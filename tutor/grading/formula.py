"""Formula steps: is the learner's expression the engine formula, whatever its form?

Decided in two stages, both bounded by construction (every answer graded in well under 2 s):
1. Random numeric probing: both expressions at 6 points drawn per symbol (whole numbers for
   counts, fractions for MFU-like inputs); a single disagreement beyond 1e-9 means "different".
2. When they agree, both are evaluated in exact fractions (`formula_exact`) at those points and at
   3 more drawn from 2^30 values: an exact disagreement catches `6Ψ + 12Ψ/N + 1e-12`; exact
   agreement of two rational functions is an identity test (Schwartz–Zippel). No symbolic
   expansion is done: its cost explodes with nesting (`((x+1)^8)^8…`, `max(poly, 0)`), while each
   exact step's number size is checked before it is computed. For logs, roots and ceilings the
   probes decide. A `Budget` (time, cancellation) bounds the whole in seconds as well.
Near misses get named: a constant factor off, a symbol missing or extra, a declared mistake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import math
import random
from collections.abc import Callable
from typing import Any
from fractions import Fraction
from functools import lru_cache

from tutor.grading import engine
from tutor.grading.budget import Budget, OutOfBudget
from tutor.grading.formula_exact import Inexact, TooBig, exact_value, is_rational_function, tree_from_sympy
from tutor.grading.formula_parse import FormulaError, Tree, evaluate, parse_formula, symbols_in
from tutor.grading.formula_text import show_tree
from tutor.grading.verdict import Message, Verdict, join, unreadable

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import FormulaStep

PROBES = 6
RELATIVE = 1e-9
EXACT_POINTS = 3
EXACT_RANGE = 2 ** 30


def grade_formula(step: FormulaStep, answer: str, budget: Budget | None = None) -> Verdict:
    """Grade one formula answer. `budget` (default: `GRADE_SECONDS`, not cancellable) is checked
    as the exact stage runs; a worker passes `Budget(cancelled=...)` to be stoppable, and gets
    `budget.Cancelled` raised when it asks to stop."""
    budget = budget if budget is not None else Budget()
    expected = expected_formula(step)
    resolver = make_resolver(step)
    try:
        tree = parse_formula(answer, resolver, make_resolver(step, own_only=True))
    except FormulaError as error:
        return unreadable([error.message, _usable(step)], expected)
    used = symbols_in(tree)
    wanted = set(engine.formula_symbols(step.formula))
    points = _points(step.formula, sorted(used | wanted))
    mine = [evaluate(tree, point) for point in points]
    theirs = [_expected_at(step.formula, point) for point in points]
    parsed = {"formula": _show_tree(tree), "symbols": sorted(used)}
    if _agree(mine, theirs):
        exact = _exact_difference(tree, step.formula, points, answer, budget)
        if exact is None or exact == 0:
            how = Message("Checked exactly (identity test in exact fractions).", "已用精确分数做恒等验证。") \
                if exact == 0 else Message(f"Checked at {PROBES} random points.", f"已在 {PROBES} 个随机点上验证。")
            return Verdict(True, 1.0, parsed, expected, join([Message("Right: the formulas are equivalent.",
                                                                      "正确：两个公式等价。"), how]))
        return Verdict(False, 0.0, parsed, expected, join([Message(
            "Almost: numerically very close, but not the same expression (a tiny extra term?).",
            "差一点：数值非常接近，但不是同一个式子（多了一个很小的项？）。")]), mistake="formula-near-miss")
    messages, mistake = _diagnose(step, tree, used, wanted, points, mine, theirs)
    return Verdict(False, 0.0, parsed, expected, join([Message("Not equivalent to the expected formula.",
                                                               "和期望的公式不等价。"), *messages]), mistake=mistake)


def expected_formula(step: FormulaStep) -> dict:
    """`{formula, symbols}` as `--reveal` shows it: the engine's display form and each symbol's meaning."""
    from tutor.sizing import registry
    from tutor.sizing.printing import show

    catalog = engine.symbol_catalog()
    symbols = {catalog[name].display: {"en": catalog[name].en, "zh": catalog[name].zh}
               for name in engine.formula_symbols(step.formula)}
    return {"formula": show(registry.get(step.formula).expr), "symbols": symbols}


# How people write a question's own symbols when they do not use its display form; tried only
# for the question's own symbols, after their listed spellings.
COMMON_SPELLINGS = {"params": ("P", "W", "N_params", "n_params"), "ckpt_write_s": ("d", "D", "t_ckpt", "t_save"),
                    "mtbf_s": ("m", "T_mtbf")}


def make_resolver(step: FormulaStep, own_only: bool = False) -> Callable[[str], str | None]:
    """Typed name -> engine symbol: the step's spellings, then the formula's own symbols, then
    (unless `own_only`) any engine symbol, so a wrong symbol is read and named, not refused."""
    catalog = engine.symbol_catalog()
    own = engine.formula_symbols(step.formula)
    extra = dict(step.symbols)
    pools = (own,) if own_only else (own, tuple(catalog))

    @lru_cache(maxsize=256)
    def resolve(typed: str) -> str | None:
        if typed in extra:
            return extra[typed]
        # The question's own symbols first, in every spelling, before any other engine symbol:
        # `6P + 12P/N` on a question about Ψ and N is Ψ, not PP (issue 14 item 7).
        for names in pools:
            for exact in (True, False):
                for name in names:
                    info = catalog[name]
                    spellings = (info.name, info.display, *info.aliases)
                    if exact and typed in spellings:
                        return name
                    if not exact and typed.casefold() in {spelling.casefold() for spelling in spellings}:
                        return name
            if names is own:
                for name in names:
                    if typed in COMMON_SPELLINGS.get(name, ()):
                        return name
        return None

    return resolve


def _usable(step: FormulaStep) -> Message:
    catalog = engine.symbol_catalog()
    names = [catalog[name] for name in engine.formula_symbols(step.formula)]
    listed_en = ", ".join(f"{info.display} ({info.en})" for info in names)
    listed_zh = "、".join(f"{info.display}({info.zh})" for info in names)
    return Message(f"Symbols you can use: {listed_en}.", f"可以用的符号：{listed_zh}。")


def _points(formula: str, names: list[str]) -> list[dict[str, float]]:
    """Deterministic probe points, so the same answer always gets the same verdict."""
    catalog = engine.symbol_catalog()
    rng = random.Random(f"probe/{formula}")
    points = []
    for _ in range(PROBES):
        point = {}
        for name in names:
            kind = getattr(catalog.get(name), "kind", "positive")
            point[name] = (float(rng.randint(2, 64)) if kind == "count"
                           else rng.uniform(0.05, 0.95) if kind == "fraction" else rng.uniform(1.5, 60.0))
        points.append(point)
    return points


@lru_cache(maxsize=None)
def _compiled(formula: str) -> Callable[..., float]:
    import sympy

    from tutor.sizing import registry

    item = registry.get(formula)
    catalog = engine.symbol_catalog()
    return sympy.lambdify([catalog[name].symbol for name in item.symbols], item.expr, modules="math")


def _expected_at(formula: str, point: dict[str, float]) -> float:
    try:
        return float(_compiled(formula)(*(point[name] for name in engine.formula_symbols(formula))))
    except (ArithmeticError, ValueError, TypeError):
        return math.nan


def _agree(mine: list[float], theirs: list[float]) -> bool:
    compared = 0
    for a, b in zip(mine, theirs):
        if not math.isfinite(b):
            continue
        if not math.isfinite(a) or abs(a - b) > RELATIVE * max(abs(a), abs(b)):
            return False
        compared += 1
    return compared > 0


def _exact_difference(tree: Tree, formula: str, points: list[dict[str, float]], answer: str,
                      budget: Budget) -> int | None:
    """1 when exact arithmetic shows the two differ at a point, 0 when both are rational functions
    that agree exactly at every point (equal, bar a chance under 1e-6), None when undecided (an
    irrational or piecewise value, a number too large, the time budget spent)."""
    theirs = _expected_tree(formula)
    if theirs is None:
        return None
    catalog = engine.symbol_catalog()
    # The extra points depend on the answer too, so no answer can be built to vanish on them.
    rng = random.Random(f"exact/{formula}/{answer}")
    names = sorted(points[0])
    exact_points = [{name: Fraction(value) for name, value in point.items()} for point in points]
    for _ in range(EXACT_POINTS):
        exact_points.append({name: _exact_draw(rng, getattr(catalog.get(name), "kind", "positive"))
                             for name in names})
    compared = 0
    for point in exact_points:
        try:
            mine, expected = exact_value(tree, point, budget), exact_value(theirs, point, budget)
        except (ArithmeticError, ValueError, Inexact):
            continue  # undefined or irrational at this point: the other points decide
        except (TooBig, OutOfBudget):
            return None
        if mine != expected:
            return 1
        compared += 1
    rational = is_rational_function(tree) and is_rational_function(theirs)
    return 0 if rational and compared >= EXACT_POINTS else None


def _exact_draw(rng: random.Random, kind: str) -> Fraction:
    if kind == "count":
        return Fraction(rng.randint(2, EXACT_RANGE))
    if kind == "fraction":
        return Fraction(rng.randint(1, EXACT_RANGE - 1), EXACT_RANGE)
    return Fraction(rng.randint(EXACT_RANGE, 64 * EXACT_RANGE), EXACT_RANGE)


@lru_cache(maxsize=None)
def _expected_tree(formula: str) -> Tree | None:
    from tutor.sizing import registry

    return tree_from_sympy(registry.get(formula).expr)


def to_sympy(tree: Tree) -> Any:  # a SymPy expression (SymPy ships no types)
    """Our tree as a SymPy expression, built node by node (never from text)."""
    import sympy

    kind = tree[0]
    if kind == "num":
        return sympy.Rational(tree[1].numerator, tree[1].denominator)
    if kind == "sym":
        return engine.symbol_catalog()[tree[1]].symbol
    if kind == "neg":
        return -to_sympy(tree[1])
    if kind == "pow":
        return sympy.Pow(to_sympy(tree[1]), sympy.Rational(tree[2].numerator, tree[2].denominator))
    if kind == "call":
        functions = {"sqrt": sympy.sqrt, "log": sympy.log, "ln": sympy.log, "exp": sympy.exp,
                     "ceil": sympy.ceiling, "floor": sympy.floor, "min": sympy.Min, "max": sympy.Max,
                     "abs": sympy.Abs}
        return functions[tree[1]](*(to_sympy(argument) for argument in tree[2]))
    left, right = to_sympy(tree[1]), to_sympy(tree[2])
    return {"add": left + right, "sub": left - right, "mul": left * right, "div": left / right}[kind]


def _diagnose(step: FormulaStep, tree: Tree, used: set[str], wanted: set[str], points: list[dict[str, float]],
              mine: list[float], theirs: list[float]) -> tuple[list[Message], str | None]:
    catalog = engine.symbol_catalog()
    for mistake in step.mistakes:
        if mistake.formula and mistake.feedback and set(engine.formula_symbols(mistake.formula)) <= set(points[0]):
            if _agree(mine, [_expected_at(mistake.formula, point) for point in points]):
                return [Message(mistake.feedback.en, mistake.feedback.zh)], mistake.id
    messages: list[Message] = []
    missing, extra = sorted(wanted - used), sorted(used - wanted)
    for name in missing:
        messages.append(Message(f"Your formula does not use {catalog[name].display} ({catalog[name].en}).",
                                f"你的公式里没有 {catalog[name].display}（{catalog[name].zh}）。"))
    for name in extra:
        messages.append(Message(f"The answer does not depend on {catalog[name].display} ({catalog[name].en}).",
                                f"答案和 {catalog[name].display}（{catalog[name].zh}）无关。"))
    ratios = [a / b for a, b in zip(mine, theirs) if math.isfinite(a) and math.isfinite(b) and b != 0]
    if not missing and not extra and ratios and all(abs(r - ratios[0]) <= 1e-9 * abs(ratios[0]) for r in ratios):
        factor = _factor_text(ratios[0])
        messages.append(Message(f"Off by a constant factor: yours is {factor} × the expected formula.",
                                f"差一个常数倍：你的是期望公式的 {factor} 倍。"))
        return messages, "formula-constant-factor"
    return messages, ("formula-symbols" if missing or extra else None)


def _factor_text(ratio: float) -> str:
    """A small fraction when the factor is one (1/2, 3/4, 16/6), else a decimal (0.707)."""
    fraction = Fraction(ratio).limit_denominator(16)
    if abs(float(fraction) - ratio) <= 1e-9 * abs(ratio):
        return str(fraction)
    return f"{ratio:.3g}"


def _show_tree(tree: Tree) -> str:
    """The parsed formula in display names, to echo what was understood (linear in its size)."""
    catalog = engine.symbol_catalog()
    return show_tree(tree, {name: info.display for name, info in catalog.items()})
