"""Formula bombs (issue 17 item 1): nesting, max/min wrappers and large exponents, every answer
graded within 2 s and 300 MB. The suite runs in a child process with CPU-time and address-space
limits, so a regression fails the test instead of hanging or swapping the machine."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("formula_bombs_child.py")
LIMIT_S = 2.0
LIMIT_MB = 300


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.timeout(150)
def test_nesting_shaped_formulas_are_graded_within_2_s_and_300_mb():
    done = subprocess.run([sys.executable, str(CHILD), "150"], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limits, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["worst_s"] <= LIMIT_S, figures
    assert figures["peak_mb"] <= LIMIT_MB, figures
