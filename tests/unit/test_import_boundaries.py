"""The core never imports textual; nothing but lab rank processes imports torch (DESIGN §2.2)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import tutor

CORE = ("tutor.content", "tutor.store", "tutor.sizing", "tutor.grading", "tutor.interview", "tutor.labs",
        "tutor.commands", "tutor.cli", "tutor.paths", "tutor.units")
# Modules that run inside lab rank processes, where torch is the point.
RANK_SIDE = ("tutor.labs.rank",)


def _core_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(tutor.__path__, "tutor."):
        if info.name.startswith(CORE) and not info.name.startswith(RANK_SIDE):
            names.append(info.name)
    return sorted(names)


@pytest.mark.timeout(120)
def test_core_modules_import_neither_textual_nor_torch():
    probe = (
        "import importlib, sys\n"
        f"for name in {_core_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'torch'}))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.timeout(60)
def test_the_app_starts_without_torch():
    probe = ("import sys; sys.modules['torch'] = None\n"  # any import of torch now fails
             "import tutor.ui.app\nprint('ok')")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "ok", result.stderr
