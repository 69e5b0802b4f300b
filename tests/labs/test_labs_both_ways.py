"""Every parallelism lab, both ways, at 2 and 4 ranks on CPU with gloo (issue 7, DESIGN §2.4).

As shipped, the program runs to the end but fails its check, and the check that fails says
what is wrong; the reference solution passes every check.
"""

from __future__ import annotations

import pytest

from tests.labs.conftest import leftovers
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab

pytestmark = pytest.mark.slow

# The check each shipped program must fail, and words its message must contain.
SHIPPED_FAILS = {
    "tp-mlp": ("collectives per layer per step", "forward 0 all-reduce(s), backward 0"),
    "dp-overlap": ("all-reduces start during backward and are waited for after it", "0 of 8 all-reduces started before backward returned"),
    "pp-1f1b": ("activations in flight stay within 1F1B's bound", "1F1B holds at most p − stage"),
    "zero1-memory": ("optimizer state per rank", "engine zero1_bytes − weight_bytes − grad_bytes"),
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("world_size", [2, 4])
@pytest.mark.parametrize("name", sorted(SHIPPED_FAILS))
def test_shipped_fails_its_check_and_the_solution_passes(name, world_size, tmp_path):
    entry = get_lab(name)
    assert world_size in entry.world_sizes
    shipped = check_lab(entry, program=entry.program, world_size=world_size, run_root=tmp_path / "shipped")
    assert shipped["evidence"]["outcome"] == "ok", shipped["evidence"]["summary"]
    assert not shipped["passed"]
    failed = {check["name"]: check["detail"] for check in shipped["checks"] if not check["passed"]}
    check_name, words = SHIPPED_FAILS[name]
    assert check_name in failed and words in failed[check_name], failed

    solution = check_lab(entry, solution=True, world_size=world_size, run_root=tmp_path / "solution")
    assert solution["passed"], [check for check in solution["checks"] if not check["passed"]]
    assert len(solution["checks"]) >= 4
    for result in (shipped, solution):
        assert leftovers(result["evidence"]["run_dir"].rsplit("/", 1)[-1]) == []
