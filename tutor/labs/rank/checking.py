"""Helpers for a lab's checker (`labs/NN-name/check.py`), which runs as the job's program.

The runner passes the learner's program in TUTOR_LAB_PROGRAM, the shipped one in
TUTOR_LAB_SHIPPED and the lab.yaml `check:` parameters as JSON in TUTOR_LAB_CHECK_PARAMS.
The checker imports the programs as modules (their `if __name__ == "__main__"` part does not
run), exercises their classes and functions against a reference, and reports each property
with `ctx.check(...)` / `ctx.measure(...)`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from types import ModuleType

PROGRAM_ENV = "TUTOR_LAB_PROGRAM"
SHIPPED_ENV = "TUTOR_LAB_SHIPPED"
PARAMS_ENV = "TUTOR_LAB_CHECK_PARAMS"


def _load(path: str, module_name: str) -> ModuleType:
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def load_program() -> ModuleType:
    path = os.environ.get(PROGRAM_ENV)
    if not path:
        raise SystemExit(f"{PROGRAM_ENV} is not set: run checkers through `tutor lab check`")
    return _load(path, "lab_program")


def load_shipped() -> ModuleType:
    path = os.environ.get(SHIPPED_ENV)
    if not path:
        raise SystemExit(f"{SHIPPED_ENV} is not set: run checkers through `tutor lab check`")
    return _load(path, "lab_shipped")


def check_params() -> dict:
    return json.loads(os.environ.get(PARAMS_ENV) or "{}")
