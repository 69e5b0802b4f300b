"""The shared-job harness (tests/labs/several.py) on a job that must end in a hang.

A fixture lab with its own checker (tests/labs/fixtures/checked): the solution's check runs
first and passes; the shipped program, last, hangs the job, which is what
`check_several(..., outcome="hang")` expects. One 2-rank job: ~13 CPU-s, ~6 s of it waiting for
the hang.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.labs import several
from tutor import content

CHECKED = Path(__file__).resolve().parent / "fixtures" / "checked"


@pytest.fixture
def checked_labs(monkeypatch):
    """The fixture content root, for this test only (content.load() is cached per process)."""
    monkeypatch.setenv("TUTOR_CONTENT", str(CHECKED))
    content.load.cache_clear()
    yield
    monkeypatch.undo()
    content.load.cache_clear()


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_job_may_end_in_the_hang_its_last_program_must_show(checked_labs, tmp_path):
    programs = [several.solution("checked-demo"), several.shipped("checked-demo")]
    # 6 s, not the lab's 3: the solution's check must not read as the hang on a loaded machine
    result = several.check_several(tmp_path, programs, outcome="hang", timeout_s=6)
    assert several.of(result, "solution") == (["average over the ranks"], {})
    evidence = result["evidence"]
    assert not result["passed"], result["checks"]
    # the first sign, as on a cluster: the process-group timeout, then where each rank waits
    message = evidence["summary"]["message"]
    assert message.startswith("the process-group timeout fired (rank "), evidence["summary"]
    assert message.endswith("rank 0 in broadcast (train.py:8 in average); rank 1 in all_reduce (train.py:9 in average)")


def test_an_unknown_outcome_is_refused_before_any_job(tmp_path):
    with pytest.raises(ValueError, match="outcome must be one of ok, hang, crash, wrong"):
        several.check_several(tmp_path, [several.solution("tp-mlp")], outcome="timeout")
    assert not any(tmp_path.iterdir())
