"""The learner's parsed formula printed back in display names (`6·Ψ + 12·Ψ/N`), from our own tree.

Printed by hand rather than through SymPy because building a SymPy expression evaluates it:
`((2^8)^8)^8…` becomes an integer of billions of digits before anything is shown. Printing the
tree is linear in its size whatever it contains.
"""

from __future__ import annotations

from fractions import Fraction

from tutor.grading.formula_parse import Tree

_PRECEDENCE = {"add": 1, "sub": 1, "mul": 2, "div": 2, "neg": 3, "pow": 4}
_SIGN = {"add": " + ", "sub": " - ", "mul": "·", "div": "/"}


def show_tree(tree: Tree, display: dict[str, str]) -> str:
    kind = tree[0]
    if kind == "num":
        return _number(tree[1])
    if kind == "sym":
        return display.get(tree[1], tree[1])
    if kind == "call":
        return f"{tree[1]}({', '.join(show_tree(argument, display) for argument in tree[2])})"
    if kind == "neg":
        return "-" + _wrap(tree[1], display, 3)
    if kind == "pow":
        exponent = tree[2]
        shown = str(exponent.numerator) if exponent.denominator == 1 and exponent >= 0 else f"({exponent})"
        return f"{_wrap(tree[1], display, 5)}^{shown}"
    level = _PRECEDENCE[kind]
    # The right operand of − and / needs brackets at equal precedence: a − (b − c), a/(b·c).
    right_level = level + 1 if kind in ("sub", "div") else level
    return _wrap(tree[1], display, level) + _SIGN[kind] + _wrap(tree[2], display, right_level)


def _wrap(tree: Tree, display: dict[str, str], level: int) -> str:
    text = show_tree(tree, display)
    own = _PRECEDENCE.get(tree[0], 5)
    if tree[0] == "num" and (tree[1] < 0 or tree[1].denominator != 1):
        own = 2
    return f"({text})" if own < level else text


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value))
