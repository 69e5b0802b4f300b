"""The generated plain-Python formulas (tutor/sizing/compiled_formulas.py) are current and agree with
SymPy, so evaluating a number never needs SymPy (issue 18: `tutor check` on a numeric step)."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest
import sympy

from tutor.sizing import compiled_formulas, registry
from tutor.sizing.generate import TARGET, source
from tutor.sizing.symbols import COUNT, COUNT0, SYMBOLS


def test_generated_module_is_current():
    assert TARGET.read_text(encoding="utf-8") == source(), "run `python -m tutor.sizing.generate`"


def test_every_formula_agrees_with_sympy():
    rng = random.Random(18)
    for name in registry.names():
        item = registry.get(name)
        exact = sympy.lambdify([SYMBOLS[s].symbol for s in item.symbols], item.expr, modules="mpmath")
        for _ in range(5):
            point = [float(rng.randint(0 if SYMBOLS[s].kind == COUNT0 else 1, 64)) if SYMBOLS[s].kind in (COUNT, COUNT0)
                     else rng.uniform(0.05, 1.0) if SYMBOLS[s].kind == "fraction" else rng.uniform(1.0, 1e4)
                     for s in item.symbols]
            fast = compiled_formulas.FUNCTIONS[name](*point)
            slow = float(exact(*point))
            assert math.isclose(fast, slow, rel_tol=1e-9, abs_tol=1e-12), (name, point, fast, slow)
        assert compiled_formulas.FORMULAS[name] == (item.symbols, item.unit)


@pytest.mark.timeout(60)
def test_numeric_check_imports_no_sympy(tmp_path):
    code = ("import sys\nfrom tutor.cli import main\n"
            "status = main(['check', 'distopt-bytes-per-gpu', '39 GB'])\n"
            "assert 'sympy' not in sys.modules, 'sympy imported'\nprint('ok', status)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"TUTOR_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout
    # With the index the first check wrote: a GPU's memory comes from the catalog's plain table, so the
    # spec dataclasses (12 ms of CPU to build) and the model presets are not imported either.
    code = ("import sys\nfrom tutor.cli import main\n"
            "status = main(['check', 'min-gpus-for-model-state', '63'])\n"
            "loaded = [name for name in ('sympy', 'tutor.sizing.specs', 'tutor.sizing.presets') if name in sys.modules]\n"
            "assert not loaded, loaded\nprint('ok', status)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"TUTOR_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout
    # Issue 18: building a content model's schema on first use costs ~45 ms of CPU (and imports
    # importlib.metadata for pydantic's plugins), a sixth of a `tutor check`. A numeric check with its
    # explanation shown (a right answer, --json) reads models rebuilt by the index with model_construct and
    # validates nothing: before, the grader's built-in mistake texts were validated at import (Text built)
    # and the explanation went out through model_dump (which builds the serializer).
    env = {"TUTOR_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    code = ("import contextlib, io, json, sys\nfrom tutor.cli import main\nimport pydantic\n"
            "out = io.StringIO()\nwith contextlib.redirect_stdout(out):\n"
            "    status = main(['check', 'min-gpus-for-model-state', '200', '--json'])\n"
            "def below(cls):\n    for sub in cls.__subclasses__():\n        yield sub\n        yield from below(sub)\n"
            "built = [c.__qualname__ for c in below(pydantic.BaseModel) if c.__pydantic_complete__]\n"
            "payload = json.loads(out.getvalue())\n"
            "assert status == 0 and payload['explain']['en'] and payload['explain']['zh'], payload\n"
            "assert not built, built\nassert 'importlib.metadata' not in sys.modules\nprint('ok')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout

