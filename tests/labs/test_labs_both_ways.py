"""Every parallelism lab both ways on CPU with gloo (issues 7 and 19, DESIGN §2.4).

As shipped, the program runs to the end at 2 ranks but fails its check, and the checks that fail
say what is wrong; the reference solution passes every check at 2 ranks and again at 4, where
each lab's layout and its engine numbers change (the symptom needs no second showing at 4).
"""

from __future__ import annotations

import pytest

from tests.labs.results import assert_no_leftovers, failed_checks
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab

pytestmark = pytest.mark.slow

# lab -> ({check the shipped program must fail: words its message must contain}, checks it must
# still pass, how many checks the solution's run has at least)
SHIPPED_FAILS: dict[str, tuple[dict[str, str], tuple[str, ...], int]] = {
    "tp-mlp": ({"collectives per layer per step": "forward 0 all-reduce(s), backward 0"}, (), 4),
    "dp-overlap": ({"all-reduces start during backward and are waited for after it":
                    "0 of 8 all-reduces started before backward returned"}, (), 4),
    "pp-1f1b": ({"activations in flight stay within 1F1B's bound": "1F1B holds at most p − stage"}, (), 4),
    "zero1-memory": ({"optimizer state per rank": "engine zero1_bytes − weight_bytes − grad_bytes"}, (), 4),
    "fsdp-zero3": ({
        "parameters gathered per layer, forward and backward; gradients reduce-scattered":
            "also all_reduce, which ZeRO-3 does not need",
        "bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)":
            "measured 1,579,008 B, engine zero3_bytes − optimizer_bytes_sharded = 789,504 B",
    }, (), 6),
    "no-sync-accumulation": ({
        "every replica holds the same weights": "the replicas have drifted apart",
        "weights equal one process on the whole global batch": "",
    }, (), 4),
    # Exact, but not a ring: the output is right and the communication is not.
    "ring-attention": ({
        "K/V pass around the ring, neighbour to neighbour": "also all_gather_into_tensor, which the ring does not need",
        "K/V bytes each rank sends, forward, × 3 (the engine counts forward and backward)":
            "measured 0 B, engine cp_bytes_per_layer = 24,576 B",
    }, ("output equals causal attention over the whole sequence",), 4),
}


def assert_solution_passes(name: str, world_size: int, tmp_path) -> dict:
    solution = check_lab(get_lab(name), solution=True, world_size=world_size, run_root=tmp_path / "solution")
    assert solution["passed"], failed_checks(solution)
    assert len(solution["checks"]) >= SHIPPED_FAILS[name][2]
    return solution


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(SHIPPED_FAILS))
def test_shipped_fails_its_check_and_the_solution_passes(name, tmp_path):
    entry = get_lab(name)
    shipped = check_lab(entry, program=entry.program, world_size=2, run_root=tmp_path / "shipped")
    assert shipped["evidence"]["outcome"] == "ok", shipped["evidence"]["summary"]
    assert not shipped["passed"]
    failed = failed_checks(shipped)
    must_fail, must_pass, _ = SHIPPED_FAILS[name]
    for check_name, words in must_fail.items():
        assert check_name in failed and words in failed[check_name], failed
    assert not set(must_pass) & set(failed), failed
    assert_no_leftovers(shipped, assert_solution_passes(name, 2, tmp_path))


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(SHIPPED_FAILS))
def test_the_solution_passes_at_four_ranks(name, tmp_path):
    assert 4 in get_lab(name).world_sizes
    assert_no_leftovers(assert_solution_passes(name, 4, tmp_path))
