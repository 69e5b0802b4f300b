"""Every check and measurement name, and every detail, a lab's check can report has Chinese (issue 16).

The names are read from the checkers' sources, not listed by hand: each `ctx.check / measure /
verify(name, ...)` call in labs/*/ and tutor/labs/rank/, with `name` a string, an f-string (its
template, `{}` per value), a variable bound to one, or a helper's returned tuple
(`ctx.check(*helper(...))`), and the core's own check dicts in tutor/labs/checks.py. A call
whose name cannot be read this way fails the test too, so a new form cannot slip by. The details
are read the same way, further (see `_DetailScan`), with the core's own and the run's summaries.
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


# Details. A check's detail is read as its name is, and further: every string a detail can be made
# of must have Chinese (DETAILS, or PARTS for a value put into another's template): a literal, an
# f-string's template, each branch of `a if c else b` and `a or b`, each value a variable is given
# (in a tuple, a loop, a comprehension too), each return of a helper (also one imported from
# tutor.labs.rank), the items of a list joined into it or taken from it (`.append`ed ones too), a
# string the checker stops with (`raise SystemExit("…")`, which the learner reads as the run's
# failure). A value in an f-string that is no string (a number, a shape) needs nothing; a detail
# whose own shape cannot be read fails the test, as a name does.
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
DEEPEST = 60
KEPT = {"rank", "ranks", "ms", "KiB", "MiB", "MFLOP"}  # as the house writes them in Chinese: “每个 rank”, “3 ms”


def _needs_chinese(template: str) -> bool:
    prose = re.sub(r"\{\}|`[^`]*`|\S*[_.=()\[\]/]\S*", " ", template)  # values, identifiers, code stay
    return any(word not in KEPT for word in WORD.findall(prose))


CORE_TEXT_KEYS = ("detail", "message")
# where the core writes the details it reports itself (checks.py) and the run's summary (evidence.py),
# and the summary a run shows before a diagnosis (report.py)
CORE_TEXTS = ("tutor/labs/checks.py", "tutor/labs/evidence.py", "tutor/labs/report.py")


class _Item(ast.AST):
    """An item of what a loop or comprehension runs over, as a variable it binds is given one."""

    def __init__(self, iterable: ast.AST):
        super().__init__()
        self.iterable, self.lineno = iterable, getattr(iterable, "lineno", 0)


def _paths(target: ast.AST, name: str) -> list[tuple[int, ...]]:
    if isinstance(target, ast.Name):
        return [()] if target.id == name else []
    if isinstance(target, ast.Tuple):
        return [(index, *path) for index, element in enumerate(target.elts) for path in _paths(element, name)]
    return []


class _DetailScan:
    """The detail templates of the checks the scanned sources can report."""

    def __init__(self) -> None:
        self.modules: dict[Path, tuple[ast.Module, dict]] = {}
        self.found: set[str] = set()
        self.unread: list[str] = []
        self.following: set[tuple] = set()

    def module(self, path: Path) -> tuple[ast.Module, dict]:
        if path not in self.modules:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            helpers = {node.name: (node, path) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
            self.modules[path] = (tree, helpers)
            for node in tree.body:  # helpers imported from the shared rank package
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tutor.labs.rank."):
                    source = ROOT / (node.module.replace(".", "/") + ".py")
                    for alias in node.names:
                        if source.exists() and alias.name in self.module(source)[1]:
                            helpers.setdefault(alias.asname or alias.name, self.module(source)[1][alias.name])
        return self.modules[path]

    def scan(self, path: Path) -> None:
        tree, helpers = self.module(path)
        for scope in [tree, *(helper for helper, _ in helpers.values() if _ == path)]:
            for node in _own_nodes(scope):
                detail = _detail_argument(node)
                if detail is not None:
                    where = (path, scope)
                    shapes = (self.element(detail.value, (2,), where, True) if isinstance(detail, ast.Starred)
                              else self.shapes(detail, where, True))
                    self.found.update(shapes)

    def scan_core(self, path: Path) -> None:
        """The core's own details and the run's summary message, a failed "runs to completion"'s
        detail: `{"detail": …}` / `{"message": …}` in a dict, or `summary["message"] = …`."""
        tree, helpers = self.module(path)
        for scope in [tree, *(helper for helper, _ in helpers.values() if _ == path)]:
            for node in _own_nodes(scope):
                values = []
                if isinstance(node, ast.Dict):
                    values = [value for key, value in zip(node.keys, node.values)
                              if isinstance(key, ast.Constant) and key.value in CORE_TEXT_KEYS]
                elif isinstance(node, ast.Assign):
                    values = [node.value for target in node.targets if isinstance(target, ast.Subscript)
                              and isinstance(target.slice, ast.Constant) and target.slice.value in CORE_TEXT_KEYS]
                for value in values:
                    self.found.update(self.shapes(value, (path, scope), True))

    def _unread(self, node: ast.AST, where, strict: bool) -> list[str]:
        if strict:
            self.unread.append(f"{where[0].relative_to(ROOT)}:{getattr(node, 'lineno', '?')}")
        return []

    def shapes(self, node: ast.AST, where, strict: bool, depth: int = 0) -> list[str]:
        """The templates a string expression can be; the strings put into it are `found` too."""
        down = depth + 1
        if depth > DEEPEST:  # never silently: a lost string is a missed one
            return self._unread(node, where, True)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return [node.value]
            return [] if node.value is None else self._unread(node, where, strict)
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    self.found.update(self.shapes(part.value, where, False, down))
            return ["".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return [left + right for left in self.shapes(node.left, where, strict, down)
                    for right in self.shapes(node.right, where, strict, down)]
        if isinstance(node, ast.IfExp):
            return self.shapes(node.body, where, strict, down) + self.shapes(node.orelse, where, strict, down)
        if isinstance(node, ast.BoolOp):
            return [shape for value in node.values for shape in self.shapes(value, where, strict, down)]
        if isinstance(node, (ast.Name, _Item)):
            return self.element(node, (), where, strict, down)
        if isinstance(node, ast.NamedExpr):
            return self.shapes(node.value, where, strict, down)
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                return ["{}"]  # a field of an event: a detail made, and looked up, where it was reported
            return self.items(node.value, where, strict, down)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "join" and node.args:
                self.found.update(self.items(node.args[0], where, strict, down))
                return ["{}"]
            if isinstance(func, ast.Name) and func.id == "next" and node.args:
                return self.items(node.args[0], where, strict, down) + \
                    (self.shapes(node.args[1], where, strict, down) if len(node.args) > 1 else [])
            if isinstance(func, ast.Name) and func.id in self.module(where[0])[1]:
                return self.element(node, (), where, strict, down)
        return self._unread(node, where, strict)

    def element(self, node: ast.AST, path: tuple[int, ...], where, strict: bool, depth: int = 0) -> list[str]:
        """The templates of element path[0] (of its element path[1], …) of what `node` gives."""
        down = depth + 1
        if depth > DEEPEST:  # never silently: a lost string is a missed one
            return self._unread(node, where, True)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.module(where[0])[1]:
            helper, source = self.module(where[0])[1][node.func.id]
            return [shape for ret in _returns(helper) for shape in self.element(ret, path, (source, helper), strict, down)]
        if isinstance(node, ast.Name):
            key = (node.id, path, where)
            if key in self.following:  # `problem = problem or …`: its other values are read already
                return []
            self.following.add(key)
            found = [shape for value, inner, place in self.bindings(node.id, where)
                     for shape in self.element(value, inner + path, place, strict, down)]
            self.following.discard(key)
            return found or self._unread(node, where, strict)
        if isinstance(node, _Item):
            return self.items(node.iterable, where, strict, down, path)
        if not path:
            return self.shapes(node, where, strict, down)
        if isinstance(node, ast.Tuple) and path[0] < len(node.elts):
            return self.element(node.elts[path[0]], path[1:], where, strict, down)
        if isinstance(node, ast.IfExp):
            return self.element(node.body, path, where, strict, down) + self.element(node.orelse, path, where, strict, down)
        return self._unread(node, where, strict)

    def items(self, node: ast.AST, where, strict: bool, depth: int, path: tuple[int, ...] = ()) -> list[str]:
        """The templates of (element `path` of) the items of a list, generator or dict's values."""
        down = depth + 1
        if depth > DEEPEST:  # never silently: a lost string is a missed one
            return self._unread(node, where, True)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [shape for item in node.elts for shape in self.element(item, path, where, strict, down)]
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.element(node.elt, path, where, strict, down)
        if isinstance(node, ast.Subscript):  # a slice
            return self.items(node.value, where, strict, down, path)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            if node.func.id == "zip" and path and path[0] < len(node.args):
                return self.items(node.args[path[0]], where, strict, down, path[1:])
            if node.func.id == "enumerate" and path[:1] == (1,):
                return self.items(node.args[0], where, strict, down, path[1:])
            if node.func.id in ("sorted", "reversed", "list", "set"):
                return self.items(node.args[0], where, strict, down, path)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            base = node.func.value
            if node.func.attr == "values" or (node.func.attr == "items" and path[:1] == (1,)):
                return self.values(base, where, strict, down, path[1:] if node.func.attr == "items" else path)
        if isinstance(node, ast.Name):
            key = ("items", node.id, path, where)
            if key in self.following:  # `ranks = sorted(ranks)`
                return []
            self.following.add(key)
            found = [shape for value, inner, place in self.bindings(node.id, where) if not inner
                     for shape in self.items(value, place, strict, down, path)]
            self.following.discard(key)
            for call in _own_nodes(where[1]):  # problems.append(…), problems.extend(…)
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.args
                        and isinstance(call.func.value, ast.Name) and call.func.value.id == node.id):
                    if call.func.attr == "append":
                        found += self.element(call.args[0], path, where, strict, down)
                    elif call.func.attr == "extend":
                        found += self.items(call.args[0], where, strict, down, path)
            return found or self._unread(node, where, strict)
        return self._unread(node, where, strict)

    def values(self, node: ast.AST, where, strict: bool, depth: int, path: tuple[int, ...]) -> list[str]:
        """The templates of a dict's values."""
        if isinstance(node, ast.Dict):
            return [shape for value in node.values for shape in self.element(value, path, where, strict, depth + 1)]
        if isinstance(node, ast.DictComp):
            return self.element(node.value, path, where, strict, depth + 1)
        if isinstance(node, ast.Name):
            return [shape for value, inner, place in self.bindings(node.id, where) if not inner
                    for shape in self.values(value, place, strict, depth + 1, path)] or self._unread(node, where, strict)
        return self._unread(node, where, strict)

    def bindings(self, name: str, where) -> list[tuple[ast.AST, tuple[int, ...], tuple]]:
        """Each value `name` is given in its function, else in the module: (value, element path, place)."""
        path, scope = where
        tree = self.module(path)[0]
        for place in ((path, scope), (path, tree)):
            found = []
            for node in _own_nodes(place[1]):
                if isinstance(node, ast.Assign):
                    found += [(node.value, inner, place) for target in node.targets for inner in _paths(target, name)]
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                    found += [(node.value, inner, place) for inner in _paths(node.target, name)]
                elif isinstance(node, (ast.For, ast.comprehension)):
                    found += [(_Item(node.iter), inner, place) for inner in _paths(node.target, name)]
            if found:
                return found
        return []


def _detail_argument(node: ast.AST) -> ast.AST | None:
    """The detail of a `ctx.check(name, passed, detail)` (or `ctx.check(*a_check)`), or the message of a
    `raise SystemExit("…")`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "check":
        keyword = next((item.value for item in node.keywords if item.arg == "detail"), None)
        if keyword is not None:
            return keyword
        if len(node.args) >= 3:
            return node.args[2]
        if node.args and isinstance(node.args[0], ast.Starred):
            return node.args[0]
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name) \
            and node.exc.func.id == "SystemExit" and node.exc.args:
        first = node.exc.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, int)):
            return first
    return None


def test_every_detail_a_checker_can_report_has_chinese():
    scan = _DetailScan()
    for path in _sources():
        scan.scan(path)
    for path in CORE_TEXTS:
        scan.scan_core(ROOT / path)
    assert not scan.unread, f"check details this test cannot read: {sorted(set(scan.unread))}"
    assert len(scan.found) > 150  # the scan sees the labs' details
    # `detail += "; also …"` adds a clause, which check_detail reads on its own, keyed without "; "
    missing = sorted(template for template in scan.found if _needs_chinese(template) and not
                     {template, template.removeprefix("; ")} & (set(DETAILS) | set(PARTS)))
    assert not missing, "add these to tutor/labs/check_names.py DETAILS:\n" + "\n".join(missing)


def test_a_detail_of_clauses_and_a_failed_run_read_in_chinese():
    # clause by clause, a value never spanning two ("3 of 4 …; 2 of them blocking" is not "{} of them blocking")
    assert check_detail("3 of 4 all-reduces started before backward returned; 2 of them blocking (async_op=False): "
                        "backward waits for each", "zh") \
        == "4 次 all-reduce 中有 3 次在反向传播返回之前启动；其中 2 次是阻塞的（async_op=False）：反向传播要等每一次做完"
    # an entry holding a "; " itself, then a clause added to it, then the failing rank
    assert check_detail("forward 0 all-reduce(s), backward 0; Megatron's layout needs 2 and 2 per layer (one per "
                        "attention and one per MLP, each way); also broadcast, which this layout does not need (rank 1)",
                        "zh").endswith("；另外还有 broadcast，这个布局用不着（rank 1）")
    assert check_detail("step 2: KeyError: 'x'; a checker's own words", "zh") == "第 2 步：KeyError: 'x'；a checker's own words"
    # a crash at the learner's line (a function the checker calls is missing), a hang, a GPU lab on a CPU
    assert check_detail("rank 0 failed: AttributeError: module 'lab_program' has no attribute 'schedule' at "
                        "train.py:12 in main", "zh") \
        == "rank 0 出错：AttributeError: 你的程序里没有 'schedule'（train.py 第 12 行，main 里）"
    assert check_detail("no rank made progress for 30 s: rank 0 in all_reduce (train.py:40); ranks 1-3 outside any "
                        "collective", "zh") \
        == "30 秒内没有任何 rank 取得进展：rank 0 卡在 all_reduce（train.py:40）；rank 1 到 3 不在任何集合通信里"
    # a hang whose timeout a rank met, before and after the diagnosis (the error is quoted as torch wrote it)
    timed_out = "the process-group timeout fired (rank 0: Timed out waiting 10000ms at train.py:42 in data_positions)"
    assert check_detail(f"{timed_out}: where each rank waits is below; `tutor lab evidence checkpoint-rank0` lines "
                        "them up", "zh") \
        == "进程组超时触发了（rank 0：Timed out waiting 10000ms，train.py 第 42 行，data_positions 里）：每个 rank " \
           "卡在哪里见下方；`tutor lab evidence checkpoint-rank0` 会把它们对齐列出"
    assert check_detail(f"{timed_out}: rank 0 in all_gather (train.py:42); ranks 1-3 in all_reduce (train.py:65)", "zh") \
        == "进程组超时触发了（rank 0：Timed out waiting 10000ms，train.py 第 42 行，data_positions 里）：rank 0 卡在 " \
           "all_gather（train.py:42）；rank 1 到 3 卡在 all_reduce（train.py:65）"
    assert check_detail("rank 1 failed: SystemExit: kernel-fusion needs a CUDA GPU", "zh") \
        == "rank 1 出错：SystemExit: kernel-fusion 需要 CUDA GPU"
