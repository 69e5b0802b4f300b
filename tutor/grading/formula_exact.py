"""Exact evaluation of a learner's formula tree at rational points, with its cost bounded first.

This replaces symbolic expansion (`sympy.cancel`) as the second stage of formula grading.
Expansion cost is exponential in the answer's length (`((x+1)^8)^8…`, or a polynomial hidden in
`max(X, 0)` that SymPy unwraps), and no estimate of it survives every rewrite SymPy makes.
Evaluating in exact fractions instead costs at most one operation per tree node, and the size of
every intermediate number is predicted *before* the operation is done (`MAX_BITS`), so no answer
can make one step expensive. For rational functions, exact agreement at random points drawn from a
set of 2^30 values is the Schwartz–Zippel identity test: a wrong formula of degree d passes a
point with probability at most d/2^30.
"""

from __future__ import annotations

import math
from typing import Any
from fractions import Fraction

from tutor.grading.budget import Budget
from tutor.grading.formula_parse import Tree

MAX_BITS = 8192
"""Largest numerator or denominator (in bits) any step may produce; ~2,500 digits, a fraction of a
millisecond per operation. A formula that needs more is left to the numeric probes."""


class TooBig(Exception):
    """The next operation would produce a number over `MAX_BITS`; nothing was computed."""


class Inexact(Exception):
    """The value is not rational at this point (log, exp, a root that is not a perfect square)."""


def _size(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _guard(bits: int) -> None:
    if bits > MAX_BITS:
        raise TooBig


def exact_value(tree: Tree, point: dict[str, Fraction], budget: Budget | None = None) -> Fraction:
    """The tree's exact value at `point`. Raises TooBig, Inexact, ZeroDivisionError (undefined
    here), ValueError (outside the domain, e.g. a root of a negative), or the budget's exceptions."""
    if budget is not None:
        budget.check()
    kind = tree[0]
    if kind == "num":
        _guard(_size(tree[1]))
        return tree[1]
    if kind == "sym":
        return point[tree[1]]
    if kind == "neg":
        return -exact_value(tree[1], point, budget)
    if kind == "pow":
        base, exponent = exact_value(tree[1], point, budget), tree[2]
        if exponent.denominator == 2:
            base = _sqrt(base)
        _guard(_size(base) * abs(exponent.numerator))
        return base ** exponent.numerator
    if kind == "call":
        return _call(tree[1], [exact_value(argument, point, budget) for argument in tree[2]])
    left, right = exact_value(tree[1], point, budget), exact_value(tree[2], point, budget)
    # a/b ± c/d has a numerator of at most size(a·d) + 1 bits and a denominator of size(b·d).
    _guard(_size(left) + _size(right) + 1)
    if kind == "add":
        return left + right
    if kind == "sub":
        return left - right
    if kind == "mul":
        return left * right
    return left / right


def _sqrt(value: Fraction) -> Fraction:
    if value < 0:
        raise ValueError("root of a negative number")
    top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if top * top != value.numerator or bottom * bottom != value.denominator:
        raise Inexact
    return Fraction(top, bottom)


def _call(name: str, arguments: list[Fraction]) -> Fraction:
    if name == "sqrt":
        return _sqrt(arguments[0])
    if name in ("ceil", "floor"):
        return Fraction(math.ceil(arguments[0]) if name == "ceil" else math.floor(arguments[0]))
    if name in ("min", "max"):
        return min(arguments) if name == "min" else max(arguments)
    if name == "abs":
        return abs(arguments[0])
    raise Inexact  # log, ln, exp: irrational at rational points other than trivial ones


def is_rational_function(tree: Tree) -> bool:
    """Only + − × ÷ and whole powers: the trees for which exact agreement at random points is an
    identity test (piecewise functions like max or ceil can agree by chance on a region)."""
    kind = tree[0]
    if kind in ("num", "sym"):
        return True
    if kind == "call":
        return False
    if kind == "pow":
        return tree[2].denominator == 1 and is_rational_function(tree[1])
    return all(is_rational_function(child) for child in tree[1:] if isinstance(child, tuple))


def tree_from_sympy(expr: Any) -> Tree | None:  # a SymPy expression (SymPy ships no types)
    """An engine formula (trusted, small) as our tree, so both sides are evaluated the same exact
    way; None when it uses something the evaluator does not know."""
    import sympy

    if isinstance(expr, sympy.Rational):
        return ("num", Fraction(int(expr.p), int(expr.q)))
    if isinstance(expr, sympy.Symbol):
        return ("sym", expr.name)
    if isinstance(expr, sympy.Pow) and isinstance(expr.exp, sympy.Rational):
        base = tree_from_sympy(expr.base)
        return None if base is None else ("pow", base, Fraction(int(expr.exp.p), int(expr.exp.q)))
    names = {sympy.ceiling: "ceil", sympy.floor: "floor", sympy.Max: "max", sympy.Min: "min", sympy.Abs: "abs",
             sympy.log: "log", sympy.exp: "exp"}
    if isinstance(expr, (sympy.Add, sympy.Mul)) or expr.func in (sympy.Max, sympy.Min):
        parts = [tree_from_sympy(argument) for argument in expr.args]
        if any(part is None for part in parts):
            return None
        operator = "add" if isinstance(expr, sympy.Add) else "mul" if isinstance(expr, sympy.Mul) \
            else names[expr.func]
        tree = parts[0]
        for part in parts[1:]:
            tree = ("call", operator, (tree, part)) if operator in ("max", "min") else (operator, tree, part)
        return tree
    if expr.func in names and len(expr.args) == 1:
        argument = tree_from_sympy(expr.args[0])
        return None if argument is None else ("call", names[expr.func], (argument,))
    return None
