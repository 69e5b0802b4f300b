"""A lab run or check that is refused says why in Chinese in Chinese mode (issue 16, item 3).

Every refusal the lab core raises (tutor/labs/*.py: a GPU lab on a CPU, a bad --world-size, an
unknown lab, no PyTorch) carries its Chinese (`zh=`), which the CLI prints under `--lang zh`; read
from the sources, so a new refusal written in English only fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tutor import cli

LABS = Path(__file__).resolve().parents[2] / "tutor" / "labs"
REFUSALS = ("TutorError", "UserInputError")
CJK = re.compile(r"[\u3400-\u9fff]")


def _refusals():
    for path in sorted(LABS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS:
                yield f"{path.name}:{node.lineno}", next((item.value for item in node.keywords if item.arg == "zh"), None)


def _literal_text(node: ast.AST) -> str:
    return "".join(part.value for part in ast.walk(node) if isinstance(part, ast.Constant) and isinstance(part.value, str))


def test_every_refusal_of_the_lab_core_has_chinese():
    found = list(_refusals())
    assert len(found) >= 12  # the scan sees them
    english_only = [where for where, zh in found if zh is None or not CJK.search(_literal_text(zh))]
    assert not english_only, f"give these refusals zh=: {english_only}"


def test_the_cli_refuses_in_chinese_under_lang_zh(capsys):
    assert cli.main(["lab", "check", "fp8-matmul", "--backend", "gloo", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == "tutor: fp8-matmul 需要 CUDA GPU（--backend nccl）；这里没有可用的 GPU，所以跳过\n"
    assert cli.main(["lab", "check", "tp-mpl", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == "tutor: 没有叫 'tp-mpl' 的实验；你是想找 'tp-mlp' 吗？\n"
    assert cli.main(["lab", "check", "tp-mlp", "--world-size", "0"]) == 2  # English stays the default
    assert capsys.readouterr().err == "tutor: --world-size must be between 1 and 64, not 0\n"
