"""The static checks configured in pyproject.toml, run as part of the suite (issue 15 item 6):
ruff (correctness rules), import-linter (the layer order of docs/architecture.md, no textual in
the core, torch only on the rank side) and mypy on the typed core packages.

The tools come with the `test` extra; a missing one fails here rather than passing unchecked.
"""

from __future__ import annotations

import ast
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tutor.labs

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def _run(*command: str, timeout: int) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.timeout(60)
def test_ruff_finds_nothing():
    result = _run(_tool("ruff"), "check", "--no-cache", "tutor", "tests", "benchmarks", "labs", timeout=50)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(120)
def test_import_contracts_are_kept():
    result = _run(_tool("lint-imports"), "--no-cache", timeout=110)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.timeout(180)
def test_mypy_passes_on_the_typed_core():
    # its cache (.mypy_cache, ignored by git) makes a rerun take a second; a fresh one ~6 CPU-s
    result = _run(_tool("mypy"), timeout=170)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr


def test_the_torch_contract_lists_every_core_module_of_tutor_labs():
    # import-linter cannot exclude one subpackage from a source package, so the contract lists
    # tutor.labs' modules one by one: a new module left off the list would go unchecked.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(item for item in config["tool"]["importlinter"]["contracts"]
                    if "torch" in item.get("forbidden_modules", ()))
    listed = {name for name in contract["source_modules"] if name.startswith("tutor.labs.")}
    present = {f"tutor.labs.{info.name}" for info in pkgutil.iter_modules(tutor.labs.__path__)
               if info.name != "rank"}
    assert listed == present
    # and the package's own __init__ (not a listed module) imports nothing at all
    init = ast.parse(Path(tutor.labs.__file__).read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(init) if isinstance(node, (ast.Import, ast.ImportFrom))]


@pytest.mark.parametrize("package", ["tutor.sizing", "tutor.grading", "tutor.content.models"])
def test_the_package_files_that_had_lazy_export_tables_hold_their_docstring_only(package):
    # issue 15: their lazy export tables (a name -> module dict and a module __getattr__) hid
    # each name's module from editors and checkers; callers import from the defining module.
    import importlib

    module = importlib.import_module(package)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    assert [type(node).__name__ for node in tree.body] == ["Expr"]  # the docstring only


def test_the_content_package_file_defines_load_and_re_exports_nothing():
    # `tutor.content.load()` is the package's own (cached) function; the loader's names that a
    # module __getattr__ used to hand out come from tutor.content.loader, so the file binds no
    # name from another tutor module at run time: its one tutor import is an annotation's.
    import tutor.content

    tree = ast.parse(Path(tutor.content.__file__).read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert defined == {"load", "_load"}
    assert not [node for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets)]
    run_time = [node.module for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert not [name for name in run_time if name and name.startswith("tutor")]
    typed = [statement for node in tree.body if isinstance(node, ast.If) for statement in node.body]
    assert [(statement.module, [alias.name for alias in statement.names]) for statement in typed] == [
        ("tutor.content.loader", ["Content"])]
