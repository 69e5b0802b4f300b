"""Helpers shared by tests (importable as tests.helpers)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def run_tutor(*args: str, env: dict | None = None, cwd: Path | None = None, timeout: float = 60,
              input: str | None = None) -> subprocess.CompletedProcess:
    """Run `python -m tutor ARGS` in a subprocess with the test's environment."""
    return subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd or REPO, timeout=timeout, input=input)
