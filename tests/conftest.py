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
