"""Every check and measurement name a lab's check can report has a Chinese name (issue 16).

The names are read from the checkers' sources, not listed by hand: each `ctx.check / measure /
verify(name, ...)` call in labs/*/ and tutor/labs/rank/, with `name` a string, an f-string (its
template, `{}` per value), a variable bound to one, or a helper's returned tuple
(`ctx.check(*helper(...))`), and the core's own check dicts in tutor/labs/checks.py. A call
whose name cannot be read this way fails the test too, so a new form cannot slip by.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tutor.labs.check_names import DETAILS, PARTS, ZH, check_detail, check_name

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")
REPORTING = ("check", "measure", "verify")


def _template(node: ast.AST, bound: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left, bound), _template(node.right, bound)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    return None


def _names_in(path: Path) -> tuple[set[str], list[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    helpers = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    scopes = [*helpers.values(), tree]
    names, unread = set(), []
    for scope in scopes:
        for node in _own_nodes(scope):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in REPORTING and node.args):
                continue
            first = node.args[0]
            found = _check_tuples(first.value, scope, tree, helpers, 0) if isinstance(first, ast.Starred) \
                else [_name(first, scope, tree)]
            for name in found or [None]:
                if name is None:
                    unread.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                else:
                    names.add(name)
    return names, unread


def _own_nodes(scope: ast.AST):
    """The nodes of a function (or the module) outside the functions nested in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef):
            stack.extend(ast.iter_child_nodes(node))


def _bindings(name: str, scope: ast.AST, tree: ast.Module) -> list[tuple[ast.AST, int | None]]:
    """What `name` is assigned in its function, else in the module: (value, index in a tuple target)."""
    for where in (scope, tree):
        found = []
        for node in _own_nodes(where):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and target.id == name:
                    found.append((node.value, None))
                elif isinstance(target, ast.Tuple):
                    found += [(node.value, index) for index, element in enumerate(target.elts)
                              if isinstance(element, ast.Name) and element.id == name]
        if found:
            return found
    return []


def _name(node: ast.AST, scope: ast.AST, tree: ast.Module) -> str | None:
    if isinstance(node, ast.Name):
        bound = [value for value, index in _bindings(node.id, scope, tree) if index is None]
        return _template(bound[0], {}) if bound else None
    return _template(node, {})


def _check_tuples(node: ast.AST, scope: ast.AST, tree: ast.Module, helpers: dict, depth: int,
                  index: int | None = None) -> list[str | None]:
    """The names of the (name, passed, detail) tuples an expression can be: a tuple, a helper's
    return value, or a variable bound to either (also as one element of a returned pair)."""
    if depth > 6:
        return [None]
    if index is not None:  # element `index` of what `node` gives
        if isinstance(node, ast.Tuple):
            return _check_tuples(node.elts[index], scope, tree, helpers, depth + 1)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
            helper = helpers[node.func.id]
            return [name for ret in _returns(helper)
                    for name in _check_tuples(ret, helper, tree, helpers, depth + 1, index)]
        return [None]
    if isinstance(node, ast.Tuple) and node.elts:
        return [_name(node.elts[0], scope, tree)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
        helper = helpers[node.func.id]
        return [name for ret in _returns(helper) for name in _check_tuples(ret, helper, tree, helpers, depth + 1)]
    if isinstance(node, ast.Name):
        return [name for value, at in _bindings(node.id, scope, tree)
                for name in _check_tuples(value, scope, tree, helpers, depth + 1, at)] or [None]
    return [None]


def _returns(helper: ast.FunctionDef) -> list[ast.AST]:
    return [node.value for node in _own_nodes(helper) if isinstance(node, ast.Return) and node.value is not None]


def _core_names() -> set[str]:
    tree = ast.parse((ROOT / "tutor/labs/checks.py").read_text(encoding="utf-8"))
    return {value.value for node in ast.walk(tree) if isinstance(node, ast.Dict)
            for key, value in zip(node.keys, node.values)
            if isinstance(key, ast.Constant) and key.value == "name" and isinstance(value, ast.Constant)}


def _sources() -> list[Path]:
    return sorted((ROOT / "labs").glob("*/*.py")) + sorted((ROOT / "tutor/labs/rank").glob("*.py"))


def test_every_name_a_checker_can_report_has_chinese():
    names, unread = set(), []
    for path in _sources():
        found, missed = _names_in(path)
        names |= found
        unread += missed
    names |= _core_names()
    assert not unread, f"check names this test cannot read (use a string, an f-string or a variable): {unread}"
    assert len(names) > 80  # the scan sees the labs
    missing = sorted(name for name in names if name not in ZH)
    assert not missing, f"add these to tutor/labs/check_names.py ZH: {missing}"


def test_perf_categories_and_checker_values_have_chinese():
    categories = set()
    for path in sorted((ROOT / "labs").glob("*/check.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "category" and isinstance(node.value, ast.Constant):
                categories.add(node.value.value)
    assert categories and not categories - set(PARTS), categories - set(PARTS)
    assert check_name("time lost to data-loading is gone", "zh") == "浪费在数据加载上的时间消除了"
    assert check_name("input_grad: faster than bf16", "zh") == "输入梯度：比 bf16 快"
    assert check_name("long document on rank 3: the log counts the tokens cut on every rank", "zh") \
        == "长文档在 rank 3 上：日志统计了每个 rank 上被截掉的 token"
    assert check_name("set 7: rank 0 has every document's loss", "zh") == "第 7 组：rank 0 拿到了每篇文档的 loss"


def test_every_chinese_name_is_chinese_and_keeps_each_value():
    for table in (ZH, PARTS, DETAILS):
        for english, chinese in table.items():
            assert CJK.search(chinese), english
            wanted = english.count("{}")
            assert sorted(set(re.findall(r"\{(\d+)\}", chinese)), key=int) == [str(i) for i in range(wanted)], english


def test_english_is_untouched_and_an_unknown_name_is_shown_as_it_is():
    assert check_name("time lost to data-loading is gone", "en") == "time lost to data-loading is gone"
    assert check_name("my own self-check", "zh") == "my own self-check"
    assert check_detail("all 4 ranks finished in 2.5 s", "zh") == "全部 4 个 rank 在 2.5 秒内跑完"
    assert check_detail("a checker's own words", "zh") == "a checker's own words"
    measured = check_detail("measured 1,024 B, engine zero1_bytes = 1,000 B at params=10, dp=2 "
                            "(rank 1; relative tolerance 0.02)", "zh")
    assert measured == "实测 1,024 B，引擎 zero1_bytes = 1,000 B（params=10, dp=2；rank 1，相对容差 0.02）"
