"""Shared set-up for the lab tests: the test programs and a guard that no process outlives a test."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tutor.labs import procs
from tutor.labs.runner import RUN_ID_ENV

PROGRAMS = Path(__file__).resolve().parent / "programs"


def leftovers(run_id: str, wait_s: float = 5.0) -> list[int]:
    """Processes of run `run_id` still alive after up to `wait_s` seconds."""
    deadline = time.monotonic() + wait_s
    while True:
        found = procs.pids_with_env(RUN_ID_ENV, run_id)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture
def loop_program() -> Path:
    return PROGRAMS / "loop.py"


@pytest.fixture(scope="session")
def lab_jobs(tmp_path_factory):
    """The lab tests' shared jobs (tests/labs/several.py), each run once per test process."""
    from tests.labs.several import Jobs

    return Jobs(tmp_path_factory.mktemp("lab-jobs"))
