"""Every cheat of the findings (labs-as-a-learner.md) runs against its lab's check and must fail it.

Each cheat of the findings passed the check before the fix it is named after (seen, and said in
the commit that made it fail); the cheats of issue 19's labs were written with their checkers. A cheat is the lab's own program with a few lines changed (tests/labs/cheats.py, with the table);
each test names the property that must catch it, so a cheat that fails for an unrelated reason
(a crash, another check) does not count as caught. At 2 ranks (4 where 2 cannot show it); the
labs of issue 19 included.

A cheat caught inside a run that ends `ok` is checked in its lab's shared 2-rank job, beside the
shipped program and the solution (tests/labs/several.py: the lab checker's own `main()` on each
program in turn, its checks labelled with the cheat's name); one that must fail the run itself
("runs to completion"), or needs 4 ranks, gets a check run of its own.
"""

from __future__ import annotations

import pytest

from tests.labs import cheats, several
from tests.labs.conftest import leftovers
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab

pytestmark = pytest.mark.slow
CHEATS = cheats.CHEATS
SHARED = sorted(name for name in CHEATS if several.job_of(name))
ALONE = sorted(name for name in CHEATS if not several.job_of(name))

@pytest.mark.timeout(900)  # the first test of a job runs it (~1-4 min on two cores, the perf labs' up to ~8)
@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.xdist_group(
    several.xdist_group(several.job_of(name)))) for name in SHARED])
def test_the_cheat_fails_its_check_in_its_labs_job(name, lab_jobs):
    cheat = CHEATS[name]
    result = lab_jobs.get(several.job_of(name))  # outcome ok, nothing left running (several.check_several)
    by_name = several.checks_of(result, name)
    assert by_name, f"{name} reported no check"
    caught = [catcher for catcher in several.catchers(cheat) if catcher in by_name and not by_name[catcher]["passed"]]
    assert caught, by_name
    assert cheat.words in by_name[caught[0]]["detail"], by_name[caught[0]]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", ALONE)
def test_the_cheat_fails_its_check(name, tmp_path):
    cheat = CHEATS[name]
    if isinstance(cheat.change, dict):
        program = cheats.make(tmp_path, cheat.lab, "", base=cheat.base, replace=cheat.change)
    else:
        program = cheats.make(tmp_path, cheat.lab, cheat.change, base=cheat.base)
    result = check_lab(get_lab(cheat.lab), program=program, world_size=cheat.world_size, run_root=tmp_path / "runs")
    by_name = {check["name"]: check for check in result["checks"]}
    catchers = several.catchers(cheat)
    if "runs to completion" not in catchers:  # caught by the property, not by a crash or a hang
        assert result["evidence"]["outcome"] == "ok", result["evidence"]["summary"]
    assert not result["passed"], by_name
    caught = [name for name in catchers if name in by_name and not by_name[name]["passed"]]
    assert caught, by_name
    assert cheat.words in by_name[caught[0]]["detail"], by_name[caught[0]]
    assert leftovers(result["evidence"]["run_dir"].rsplit("/", 1)[-1]) == []
