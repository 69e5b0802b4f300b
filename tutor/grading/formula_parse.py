"""A whitelist parser for formulas the learner types: `6Ψ + 12Ψ/N`, `34*s*b*h/(TP*CP)`.

The text is tokenised here (numbers, names, + − × ÷ · / ^ ** and parentheses; anything else is
refused), learner names are replaced by placeholders `n0, n1, …`, implicit products are made
explicit (`6Ψ` -> `6*n0`, `sbh` -> `s*b*h` when each letter is a symbol), and only then does
`ast.parse(mode="eval")` build a tree, which is walked with a whitelist of node types. Nothing
is ever evaluated by Python, `sympify` or `parse_expr`; the tree becomes our own small tuples,
from which the grader computes floats or builds SymPy objects by hand.

Bounds keep any input cheap: at most 300 characters, 150 tree nodes, numbers of 24 digits,
constant exponents up to 8 (halves allowed, for square roots).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from fractions import Fraction

from tutor.grading.normalize import TooLong, clean
from tutor.grading.verdict import Message

MAX_CHARS = 300
MAX_NODES = 150
MAX_EXPONENT = 8
MAX_NUMBER_CHARS = 24
FUNCTIONS = {"sqrt": 1, "log": 1, "ln": 1, "exp": 1, "ceil": 1, "floor": 1, "min": 2, "max": 2, "abs": 1}
_TOKEN = re.compile(r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<name>[^\W\d]\w*)|"
                    r"(?P<op>\*\*|[-+*/^×÷·()=,√]))")
_OPERATOR = {"×": "*", "·": "*", "÷": "/", "^": "**"}

Tree = tuple
"""("num", Fraction) | ("sym", name) | (op, left, right) for add/sub/mul/div | ("pow", base, Fraction)
| ("neg", operand) | ("call", function, (arguments...))."""


class FormulaError(ValueError):
    """The text is not a formula this grader accepts; `message` says why."""

    def __init__(self, message: Message):
        super().__init__(message.en)
        self.message = message


def parse_formula(text: object, resolve: Callable[[str], str | None],
                  split: Callable[[str], str | None] | None = None) -> Tree:
    """The learner's formula as a tree over engine symbol names (`resolve` maps a typed name).

    `split` (default `resolve`) decides which names a run-together word may be split into;
    graders pass the formula's own symbols, so `and` never becomes a·N·d."""
    try:
        cleaned = clean(text, MAX_CHARS)
    except TooLong as error:
        raise FormulaError(error.message) from None
    if not cleaned:
        raise FormulaError(Message("The answer is empty.", "答案是空的。"))
    tokens = _tokens(cleaned)
    equals = [index for index, (_, value) in enumerate(tokens) if value == "="]
    if equals:  # "M = 6Ψ + 12Ψ/N": a name, then the answer
        if len(equals) > 1 or any(kind != "name" for kind, _ in tokens[:equals[0]]):
            raise FormulaError(Message("Write the formula, or one name = the formula (M = 6Ψ + 12Ψ/N).",
                                       "只写公式，或写成 名字 = 公式（M = 6Ψ + 12Ψ/N）。"))
        tokens = tokens[equals[0] + 1:]
    names: list[str] = []
    source = _python_text(_explicit(tokens, resolve, split or resolve), resolve, names)
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise FormulaError(Message(f"'{cleaned}' is not a complete formula (check the operators and parentheses).",
                                   f"'{cleaned}' 不是完整的公式（检查运算符和括号）。")) from None
    counter = [0]
    return _walk(tree.body, names, counter)


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            rest = text[position:].strip()
            if not rest:
                break
            raise FormulaError(Message(
                f"'{rest[0]}' is not allowed in a formula; use numbers, symbols, + - × ÷ ^ and parentheses.",
                f"公式里不能用 '{rest[0]}'；只能用数字、符号、+ - × ÷ ^ 和括号。"))
        kind = match.lastgroup
        if kind is None:  # every alternative of _TOKEN is a named group
            raise FormulaError(Message(f"'{text[position]}' is not allowed in a formula.",
                                       f"公式里不能用 '{text[position]}'。"))
        value = match.group(kind)
        if kind == "num" and len(value) > MAX_NUMBER_CHARS:
            raise FormulaError(Message("A number in the formula is too long.", "公式里的数字太长了。"))
        tokens.append((kind, _OPERATOR.get(value, value)))
        position = match.end()
    return tokens


def _explicit(tokens: list[tuple[str, str]], resolve: Callable[[str], str | None],
              split_into: Callable[[str], str | None]) -> list[tuple[str, str]]:
    """Split run-together symbols (`sbh`) and insert the products juxtaposition means (`6Ψ`, `2(a+b)`)."""
    split: list[tuple[str, str]] = []
    for index, (kind, value) in enumerate(tokens):
        is_call = index + 1 < len(tokens) and tokens[index + 1][1] == "(" and value.lower() in FUNCTIONS
        if kind == "name" and not is_call and resolve(value) is None:
            parts = _split_name(value, split_into)
            if parts:
                split.extend(("name", part) for part in parts)
                continue
        split.append((kind, value))
    split = _roots(split)
    result: list[tuple[str, str]] = []
    for index, (kind, value) in enumerate(split):
        if result:
            previous_kind, previous = result[-1]
            ends_operand = previous_kind in ("num", "name") or previous == ")"
            starts_operand = kind in ("num", "name") or value == "("
            function_call = previous_kind == "name" and previous.lower() in FUNCTIONS and value == "("
            if previous_kind == "num" and kind == "num":
                raise FormulaError(Message("Two numbers side by side; put an operator between them.",
                                           "两个数字挨在一起；中间要有运算符。"))
            if ends_operand and starts_operand and not function_call:
                result.append(("op", "*"))
        result.append((kind, value))
    return result


def _roots(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`√x` and `√(…)` as calls of sqrt: `sqrt ( x )`, `sqrt ( … )`."""
    result: list[tuple[str, str]] = []
    for index, (kind, value) in enumerate(tokens):
        if value != "√":
            if not (result and result[-1] == ("op", "√pending")):
                result.append((kind, value))
                continue
            result.pop()
            if value == "(":
                result.extend([("name", "sqrt"), ("op", "(")])
            else:
                result.extend([("name", "sqrt"), ("op", "("), (kind, value), ("op", ")")])
            continue
        result.append(("op", "√pending"))
    if result and result[-1] == ("op", "√pending"):
        raise FormulaError(Message("√ needs something to take the root of.", "√ 后面要有开方的内容。"))
    return result


def _split_name(name: str, resolve: Callable[[str], str | None]) -> list[str] | None:
    """`sbh` -> [s, b, h] when every piece is a known symbol (fewest pieces wins)."""
    if len(name) > 12:
        return None
    best: list[list[str] | None] = [[]] + [None] * len(name)
    for end in range(1, len(name) + 1):
        for start in range(end):
            piece = name[start:end]
            before = best[start]
            if before is not None and resolve(piece) is not None:
                candidate = before + [piece]
                current = best[end]
                if current is None or len(candidate) < len(current):
                    best[end] = candidate
    found = best[len(name)]
    return found if found and len(found) > 1 else None


def _python_text(tokens: list[tuple[str, str]], resolve: Callable[[str], str | None], names: list[str]) -> str:
    """Tokens as Python source whose only names are placeholders (`n0`) and function names (`f_sqrt`)."""
    pieces = []
    for index, (kind, value) in enumerate(tokens):
        if kind == "name":
            next_value = tokens[index + 1][1] if index + 1 < len(tokens) else ""
            if value.lower() in FUNCTIONS and next_value == "(":
                pieces.append(f"f_{value.lower()}")
                continue
            symbol = resolve(value)
            if symbol is None:
                raise FormulaError(Message(f"Unknown symbol '{value}'.", f"不认识的符号 '{value}'。"))
            names.append(symbol)
            pieces.append(f"n{len(names) - 1}")
        else:
            pieces.append(value)
    return " ".join(pieces)


def _walk(node: ast.AST, names: list[str], counter: list[int]) -> Tree:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise FormulaError(Message("The formula is too long.", "公式太长了。"))
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        value = node.value
        if isinstance(value, float) and not math.isfinite(value):
            raise FormulaError(Message("A number in the formula is out of range.", "公式里的数字超出范围。"))
        return ("num", Fraction(repr(value)) if isinstance(value, float) else Fraction(value))
    if isinstance(node, ast.Name) and re.fullmatch(r"n\d+", node.id):
        return ("sym", names[int(node.id[1:])])
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _walk(node.operand, names, counter)
        return ("neg", operand) if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left = _walk(node.left, names, counter)
        if isinstance(node.op, ast.Pow):
            return ("pow", left, _exponent(_walk(node.right, names, counter)))
        ops = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}
        if type(node.op) in ops:
            return (ops[type(node.op)], left, _walk(node.right, names, counter))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith("f_")
            and not node.keywords and len(node.args) == FUNCTIONS.get(node.func.id[2:], -1)):
        arguments = tuple(_walk(argument, names, counter) for argument in node.args)
        return ("call", node.func.id[2:], arguments)
    raise FormulaError(Message("Only numbers, symbols, + - × ÷ ^, parentheses and sqrt/log/exp/min/max are allowed.",
                               "只能用数字、符号、+ - × ÷ ^、括号和 sqrt/log/exp/min/max。"))


def _exponent(tree: Tree) -> Fraction:
    if tree[0] == "div" and tree[1][0] == "num" and tree[2][0] == "num" and tree[2][1] != 0:
        tree = ("num", Fraction(tree[1][1]) / Fraction(tree[2][1]))  # x^(1/2): a root written as a power
    value = tree[1] if tree[0] == "num" else (-tree[1][1] if tree[0] == "neg" and tree[1][0] == "num" else None)
    if value is None or abs(value) > MAX_EXPONENT or value.denominator > 2:
        raise FormulaError(Message(f"Exponents must be small constants (at most {MAX_EXPONENT}, or ½ for a root).",
                                   f"指数只能是小常数（不超过 {MAX_EXPONENT}，或 ½ 表示开方）。"))
    return value


def evaluate(tree: Tree, values: dict[str, float]) -> float:
    """The tree's value as a float (NaN where it is undefined: a division by zero, a log of −1)."""
    try:
        return _float(tree, values)
    except (ArithmeticError, ValueError):
        return math.nan


_FLOAT_FUNCTIONS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "log": math.log, "ln": math.log, "exp": math.exp, "ceil": math.ceil, "floor": math.floor,
    "min": min, "max": max, "abs": abs,
}


def _float(tree: Tree, values: dict[str, float]) -> float:
    kind = tree[0]
    if kind == "num":
        return float(tree[1])
    if kind == "sym":
        return values[tree[1]]
    if kind == "neg":
        return -_float(tree[1], values)
    if kind == "pow":
        return math.pow(_float(tree[1], values), float(tree[2]))
    if kind == "call":
        return float(_FLOAT_FUNCTIONS[tree[1]](*(_float(argument, values) for argument in tree[2])))
    left, right = _float(tree[1], values), _float(tree[2], values)
    if kind == "div":
        return left / right
    return {"add": left + right, "sub": left - right, "mul": left * right}[kind]


def symbols_in(tree: Tree) -> set[str]:
    if tree[0] == "sym":
        return {tree[1]}
    if tree[0] == "num":
        return set()
    children = tree[2] if tree[0] == "call" else [part for part in tree[1:] if isinstance(part, tuple)]
    return set().union(*(symbols_in(child) for child in children))
