"""Fixtures shared by the UI tests."""

from __future__ import annotations

from pathlib import Path

import pytest

LAB_FIXTURE = Path(__file__).resolve().parents[1] / "labs" / "fixtures"


@pytest.fixture
def lab_content(monkeypatch) -> Path:
    """Point the tutor at the labs' fixture content (a fast hang lab) instead of the real labs."""
    monkeypatch.setenv("TUTOR_CONTENT", str(LAB_FIXTURE))
    from tutor.content import load

    load.cache_clear()
    yield LAB_FIXTURE
    load.cache_clear()


@pytest.fixture
def mock_content(monkeypatch):
    """Point the tutor at the interview tests' fixture content (mock and review screens)."""
    from tests.interview.helpers import FIXTURE_ROOT, point_at

    point_at(FIXTURE_ROOT, monkeypatch)
    yield
    from tutor.content import load

    load.cache_clear()
