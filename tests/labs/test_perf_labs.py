"""The low-utilization labs (issue 9), both ways, on CPU with gloo at 2 ranks.

One check of the reference solution measures both sides in the same job: the shipped
program's profiled steps must put it in the lab's own category (the trace summary points at
it), and the solution must meet the lab's speedup threshold with the results unchanged. The
shipped program checked against itself must fail. Speedups are ratios measured in one run,
in alternating rounds; thresholds are in each lab.yaml, with margin for a loaded 2-core machine.

Every lab's shipped program, solution and cheats (test_lab_cheats.py) run in one job, a lab
after another, each through the lab checker's own `main()` (tests/labs/several.py); the shipped
program runs in baseline worker processes of its own, as in `tutor lab check`, one pair for
the job, started before the first program is imported, each lab's shipped program loaded into
them in turn (a pair per lab cost ~7 CPU-s a worker more).
"""

from __future__ import annotations

import pytest

from tests.labs import several
from tutor.labs.catalog import get_lab
from tutor.labs.trace_summary import CATEGORY_TIME

pytestmark = pytest.mark.slow

# lab -> (category of the shipped program, the summary's finding)
PERF_LABS = {
    "slow-dataloader": ("data-loading", "data wait"),
    "exposed-comm": ("communication", "exposed communication"),
    "launch-bound": ("compute", "launch-bound"),
    "straggler": ("straggler", "straggler"),
}
CHECKS = ("results unchanged", "faster than the shipped program")


assert set(PERF_LABS) == set(several.PERF_LABS)


def reported(result: dict, label: str) -> dict:
    """Rank 0's reports from the check of `label` (the evidence's metrics, unlabelled)."""
    prefix = f"{label}: "
    return {key[len(prefix):]: value for key, value in result["evidence"]["metrics"].items() if key.startswith(prefix)}


# Under xdist, in the perf labs' group (tests/conftest.py): one worker runs the job once.
@pytest.mark.timeout(900)  # the first test runs the job: ~4-8 min on two loaded cores
@pytest.mark.parametrize("name", sorted(PERF_LABS))
def test_shipped_is_slow_in_its_category_and_the_solution_meets_the_threshold(name, lab_jobs):
    entry = get_lab(name)
    category, finding = PERF_LABS[name]
    result = lab_jobs.get(several.PERF_JOB)  # outcome ok, nothing left running (several.check_several)
    by_name = several.checks_of(result, several.label(name, "solution"))
    failed = [check for check in by_name.values() if not check["passed"]]
    assert by_name and not failed, failed
    assert {*CHECKS, f"time lost to {category} is gone"} <= set(by_name)
    metrics = reported(result, several.label(name, "solution"))
    shipped = metrics["shipped_summary"]
    assert (shipped["category"], shipped["finding"]) == (category, finding), shipped["message"]
    if name == "straggler":  # the last rank gets the long documents (a perf run's evidence: test_perf_cli.py)
        assert shipped["slowest_rank"]["rank"] == 1, shipped
    assert metrics["speedup"] >= entry.lab.check["min_speedup"]
    before, after = metrics[f"shipped_{CATEGORY_TIME[category][0]}"], metrics[f"yours_{CATEGORY_TIME[category][0]}"]
    assert after <= entry.lab.check["max_category_ratio"] * before
    traces = result["evidence"]["trace_files"]
    assert {path.rsplit("/", 1)[-1] for path in traces} >= {"shipped-rank0.trace.json", "yours-rank1.trace.json"}


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", sorted(PERF_LABS))
def test_the_shipped_program_fails_its_check(name, lab_jobs):
    entry = get_lab(name)
    by_name = several.checks_of(lab_jobs.get(several.PERF_JOB), several.label(name, "shipped"))
    assert by_name and not all(check["passed"] for check in by_name.values()), by_name
    assert by_name["results unchanged"]["passed"], by_name["results unchanged"]
    speed = by_name["faster than the shipped program"]
    assert not speed["passed"] and f"needs ≥ {entry.lab.check['min_speedup']:g}×" in speed["detail"], speed
