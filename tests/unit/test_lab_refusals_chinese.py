"""A lab command that is refused says why in Chinese in Chinese mode (issue 16, item 3).

Every refusal the lab core and the lab commands raise (tutor/labs/*.py, tutor/commands/lab*.py:
a GPU lab on a CPU, a bad --world-size, an unknown lab, no PyTorch, an empty answer) carries its
Chinese: a `tutor.text.T` from the module's `ERRORS` table, or `zh=`; read from the sources, so a
new refusal written in English only fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tutor import cli

TUTOR = Path(__file__).resolve().parents[2] / "tutor"
SOURCES = sorted([*(TUTOR / "labs").glob("*.py"), *(TUTOR / "commands").glob("lab*.py")])
REFUSALS = ("TutorError", "UserInputError")
CJK = re.compile(r"[\u3400-\u9fff]")


def _refusals():
    """(where, its Chinese): the `zh=` text, or the `ERRORS[...]` T it is given (None: neither)."""
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tables = _error_tables(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS:
                zh = next((item.value for item in node.keywords if item.arg == "zh"), None)
                key = _table_key(node.args[0]) if node.args else None
                yield f"{path.name}:{node.lineno}", zh if zh is not None else tables.get(key)


def _error_tables(tree: ast.Module) -> dict[str, ast.AST]:
    """The Chinese side of each entry of the module's ERRORS table of `T(en, zh)`s."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ERRORS" for t in node.targets):
            return {key.value: value.args[1] for key, value in zip(node.value.keys, node.value.values)
                    if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "T"}
    return {}


def _table_key(node: ast.AST) -> str | None:
    """"name" of `ERRORS["name"]` or `ERRORS["name"].filled(...)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "filled":
        node = node.func.value
    if isinstance(node, ast.Subscript) and getattr(node.value, "id", None) == "ERRORS":
        return node.slice.value if isinstance(node.slice, ast.Constant) else None
    return None


def _literal_text(node: ast.AST) -> str:
    return "".join(part.value for part in ast.walk(node) if isinstance(part, ast.Constant) and isinstance(part.value, str))


def test_every_refusal_of_the_lab_core_has_chinese():
    found = list(_refusals())
    assert len(found) >= 25  # the scan sees them, the commands' too
    english_only = [where for where, zh in found if zh is None or not CJK.search(_literal_text(zh))]
    assert not english_only, f"give these refusals zh=: {english_only}"


def test_the_cli_refuses_in_chinese_under_lang_zh(capsys):
    assert cli.main(["lab", "check", "fp8-matmul", "--backend", "gloo", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == "tutor: fp8-matmul 需要 CUDA GPU（--backend nccl）；这里没有可用的 GPU，所以跳过\n"
    assert cli.main(["lab", "check", "tp-mpl", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == "tutor: 没有叫 'tp-mpl' 的实验；你是想找 'tp-mlp' 吗？\n"
    assert cli.main(["lab", "check", "tp-mlp", "--world-size", "0"]) == 2  # English stays the default
    assert capsys.readouterr().err == "tutor: --world-size must be between 1 and 64, not 0\n"
