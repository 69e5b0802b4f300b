"""The rank context's `compare` gives assert_close's verdict without importing what assert_close
imports on its first call (torch.distributed.tensor, SymPy): see its docstring."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")


@pytest.mark.timeout(120)
def test_compare_gives_assert_closes_verdict_on_every_case():
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("compare_cases.py"))],
                          capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stderr[-2000:]
    counts = re.search(r"compared: (\d+) close, (\d+) not close, (\d+) differ", done.stdout)
    assert counts, done.stdout
    close, not_close, differ = map(int, counts.groups())
    assert differ == 0, done.stdout
    assert close >= 20 and not_close >= 20  # the cases sit on both sides of the tolerances


@pytest.mark.timeout(120)
def test_compare_imports_neither_sympy_nor_dtensor():
    done = subprocess.run([sys.executable, "-c", (
        "import sys, torch\n"
        "from tutor.labs.rank.context import compare\n"
        "assert compare(torch.ones(3), torch.ones(3))[0] and not compare(torch.ones(3), torch.zeros(3))[0]\n"
        "print('sympy' in sys.modules, 'torch.distributed.tensor' in sys.modules)\n")],
        capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False"], done.stdout
