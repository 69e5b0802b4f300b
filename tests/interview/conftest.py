"""Interview tests run on the small fixture tree (tests/interview/fixtures/content), on a frozen clock."""

from __future__ import annotations

import pytest

from tests.interview.helpers import FIXTURE_ROOT, point_at
from tutor.interview.clock import ManualClock


@pytest.fixture
def interview_content(monkeypatch):
    point_at(FIXTURE_ROOT, monkeypatch)
    yield FIXTURE_ROOT
    from tutor.content import load

    load.cache_clear()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def library(interview_content):
    from tutor.interview.scenarios import Library

    return Library.installed()


@pytest.fixture
def store(tutor_home):
    from tutor.store import Store

    with Store() as opened:
        yield opened
