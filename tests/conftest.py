"""Shared test set-up: every test gets its own TUTOR_HOME; no test touches the real one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import FIXTURES


@pytest.fixture(autouse=True)
def tutor_home(tmp_path_factory, monkeypatch) -> Path:
    """A fresh, empty learner folder for each test (autouse: the real one is never touched)."""
    home = tmp_path_factory.mktemp("tutor-home")
    monkeypatch.setenv("TUTOR_HOME", str(home))
    monkeypatch.delenv("TUTOR_LANG", raising=False)
    return home


@pytest.fixture
def fixture_content(monkeypatch) -> Path:
    """Point the tutor at the small fixture content tree instead of the real bank."""
    root = FIXTURES / "content"
    monkeypatch.setenv("TUTOR_CONTENT", str(root))
    from tutor.content import load

    load.cache_clear()
    yield root
    load.cache_clear()


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups (it ran first: no group)
@pytest.fixture
def tutor_here(capsys):
    """`tutor ARGS` run in this process: (exit code, stdout, stderr). For bad input, refused before
    anything starts: a `python -m tutor` process of its own costs ~1.5 CPU-s (imports), per case."""
    from tutor import cli

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            code = cli.main(list(args))
        except SystemExit as exit:  # argparse's own errors
            code = exit.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


def pytest_collection_modifyitems(config, items):
    """Under xdist (`-n 2 --dist loadgroup`), the perf-lab tests run one after another on one worker.

    They compare a fixed program with the shipped one by measured speed, in the same check; two
    such checks side by side on two cores would each see the other's load come and go.
    """
    for item in items:
        if item.path.name.startswith("test_perf_"):
            item.add_marker(pytest.mark.xdist_group("perf-labs"))
