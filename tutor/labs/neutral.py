"""A hang program with nothing that names its scenario, for mystery mode.

A lab's train.py says what it is in many places besides its bug: the docstring describes the
scenario and what to observe, comments explain the schedule, and the names of its own functions
(`save_checkpoint`, `sync_schedule`, `gather_tokens`) and flags (`--save-every`, `--filter-step`)
each belong to one lab. Someone who has done the labs would recognise the scenario from any one of
them instead of diagnosing it from the evidence. The neutral copy keeps the program's behaviour
and drops the rest:

- docstrings go; comments go (the copy is re-emitted from the syntax tree by `ast.unparse`);
- the module's own functions and classes get neutral names (`part_1`, `Part1`, in the order they
  are defined), and so do its module constants (`SETTING_1`);
- each drawn flag's value becomes its argument's default, under a neutral flag (`--knob-1`), so
  the command line carries only the flags every lab shares (`--steps`);
- help texts go.

The names the learner will meet in stacks and in the copy are the neutral ones, so `restore`
maps them back in an answer before the scenario's rubric (written with the real names) reads it.

Written by hand on `ast` because no maintained library renames a module's own definitions; the
program is the tutor's own lab code, parsed, never the learner's text.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

SHARED_FLAGS = frozenset({"--steps"})
"""Flags every hang lab has: they say nothing about the scenario and stay on the command line."""
KEPT_NAMES = frozenset({"main", "parse"})
"""Entry points every lab program defines (the rank runner calls `main`)."""


@dataclass(frozen=True)
class Neutral:
    source: str
    """The program re-emitted without docstrings, comments and telling names."""
    args: tuple[str, ...]
    """The command line left: only the shared flags."""
    names: dict[str, str] = field(default_factory=dict)
    """Neutral name -> the program's own name, for `restore`."""


def neutralise(source: str, args: tuple[str, ...]) -> Neutral:
    """The neutral copy of `source`, run with `args` (flag/value pairs as lab.yaml gives them)."""
    tree = ast.parse(source)
    drawn = dict(zip(args[::2], args[1::2]))
    renames = _own_names(tree)
    flags = _flag_renames(tree, drawn)
    _Rewrite(renames, flags, drawn).visit(tree)
    ast.fix_missing_locations(tree)
    kept = tuple(item for flag, value in drawn.items() if flag in SHARED_FLAGS for item in (flag, value))
    names = {new: old for old, new in renames.items()}
    names.update({_dest(new): _dest(old) for old, new in flags.items()})
    return Neutral(source=_emit(tree), args=kept, names=names)


def _emit(tree: ast.Module) -> str:
    """The module as source, with the blank lines around definitions that a reader expects."""
    parts: list[str] = []
    for node in tree.body:
        definition = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If))
        if parts and definition:
            parts.append("\n")
        parts.append(ast.unparse(node) + "\n")
        if definition:
            parts.append("\n")
    return "".join(parts).replace("\n\n\n\n", "\n\n\n").rstrip() + "\n"


def restore(answer: str, names: dict[str, str]) -> str:
    """`answer` with the neutral names it uses put back as the program's own names."""
    if not names:
        return answer
    # ASCII word edges: `\b` would see no edge in "part_2里" (CJK letters are word characters).
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9_])({alternatives})(?![A-Za-z0-9_])")
    return pattern.sub(lambda match: names[match.group(1)], answer)


def _own_names(tree: ast.Module) -> dict[str, str]:
    renames: dict[str, str] = {}
    functions = classes = constants = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in KEPT_NAMES:
            functions += 1
            renames[node.name] = f"part_{functions}"
        elif isinstance(node, ast.ClassDef):
            classes += 1
            renames[node.name] = f"Part{classes}"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id.isupper():
                    constants += 1
                    renames[target.id] = f"SETTING_{constants}"
    return renames


def _flag_renames(tree: ast.Module, drawn: dict[str, str]) -> dict[str, str]:
    """Every flag the program declares except the shared ones -> `--knob-N`."""
    flags: dict[str, str] = {}
    for node in ast.walk(tree):
        flag = _declared_flag(node)
        if flag and flag not in SHARED_FLAGS and flag not in flags:
            flags[flag] = f"--knob-{len(flags) + 1}"
    return flags


def _declared_flag(node: ast.AST) -> str | None:
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            and node.args[0].value.startswith("--")):
        return node.args[0].value
    return None


def _dest(flag: str) -> str:
    return flag.lstrip("-").replace("-", "_")


class _Rewrite(ast.NodeTransformer):
    def __init__(self, renames: dict[str, str], flags: dict[str, str], drawn: dict[str, str]):
        self.renames, self.flags, self.drawn = renames, flags, drawn
        self.dests = {_dest(old): _dest(new) for old, new in flags.items()}
        self.drawn_dests = {_dest(old): _dest(new) for old, new in flags.items() if old in drawn}

    def _drop_docstring(self, node):
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
        return node

    def visit_Module(self, node):
        self.generic_visit(node)
        return self._drop_docstring(node)

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        node.name = self.renames.get(node.name, node.name)
        return self._drop_docstring(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.generic_visit(node)
        node.name = self.renames.get(node.name, node.name)
        return self._drop_docstring(node)

    def visit_Name(self, node):
        node.id = self.renames.get(node.id, node.id)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        # The parsed arguments are read as `args.<dest>` in every lab program.
        if isinstance(node.value, ast.Name) and node.value.id == "args" and node.attr in self.dests:
            node.attr = self.dests[node.attr]
        return node

    def visit_Constant(self, node):
        # A result key spelled like a flag's dest ("unfreeze_at") would name it again.
        if isinstance(node.value, str) and node.value in self.drawn_dests:
            node.value = self.drawn_dests[node.value]
        return node

    def visit_Call(self, node):
        flag = _declared_flag(node)
        self.generic_visit(node)
        if flag is None:
            return node
        node.keywords = [keyword for keyword in node.keywords if keyword.arg != "help"]
        if flag in self.flags:
            node.args[0] = ast.Constant(self.flags[flag])
            if flag in self.drawn:
                # argparse converts a string default with the argument's `type`, as it would the flag.
                node.keywords = [keyword for keyword in node.keywords if keyword.arg != "default"]
                node.keywords.append(ast.keyword(arg="default", value=ast.Constant(self.drawn[flag])))
        return node
