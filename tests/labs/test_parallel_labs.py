"""The parallelism labs moe-expert-parallel, sequence-parallel and pp-interleaved, both ways on
CPU with gloo at 2 ranks, and the cheats a hostile learner would try, each of which must fail
the check that names it (and here, every check it must fail, with the words each must say).

Their shipped programs, solutions and cheats (tests/labs/cheats.py, `moe-*`, `sp-*`,
`pp-interleaved-*`) run in the shared 2-rank `parallel` job with the other parallelism labs',
each through the lab checker's own `main()`, every check named `LABEL: name`
(tests/labs/several.py): a job's cost is mostly starting torchrun and importing torch in every
rank, a cheat's checks cost milliseconds (the pipeline lab's about 3 s). A cheat is the
solution with one change a learner might try instead of the real fix.
"""

from __future__ import annotations

import pytest

from tests.labs import several

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group(several.xdist_group(several.job_of_lab("moe-expert-parallel")))]
JOB = several.job_of_lab("moe-expert-parallel")
assert {several.job_of_lab(lab) for lab in several.MORE_PARALLEL_LABS} == {JOB}


def of(result: dict, lab: str, kind: str) -> tuple[list[str], dict[str, str]]:
    """(names of every check, {name: detail} of the failed) of a lab's shipped program, solution or cheat."""
    return several.of(result, several.label(lab, kind) if kind in ("shipped", "solution") else kind)


def solution_passes(result: dict, lab: str, checks: int) -> None:
    """The solution passes every check of its lab, `checks` of them with the job's "runs to completion"."""
    names, failed = of(result, lab, "solution")
    assert not failed, failed
    assert len(names) + 1 == checks, names


# --- moe-expert-parallel ----------------------------------------------------------------------

MOE_OUTPUT = "routed output equals the dense layer with every expert"
MOE_SIZES = "all-to-all sizes follow the routing: dispatch, then combine"
MOE_ONLY = "no collective but the two all-to-alls moves tokens or weights"


@pytest.mark.timeout(600)  # the first test of the job runs it: ~1-3 min on two loaded cores
def test_moe_expert_parallel_shipped_and_cheats_fail_solution_passes(lab_jobs):
    lab, result = "moe-expert-parallel", lab_jobs.get(JOB)  # outcome ok, nothing left (several.check_several)

    names, failed = of(result, lab, "shipped")  # even splits: copies land on the wrong ranks
    assert set(names) == {MOE_OUTPUT, MOE_SIZES, MOE_ONLY}
    assert set(failed) == {MOE_OUTPUT, MOE_SIZES}, failed
    assert "max abs error" in failed[MOE_OUTPUT]
    assert "sent [[24, 24], [24, 24]]" in failed[MOE_SIZES], failed[MOE_SIZES]

    _, failed = of(result, lab, "moe-pad-to-capacity")
    assert set(failed) == {MOE_SIZES} and "sent [[48, 48], [48, 48]]" in failed[MOE_SIZES], failed
    _, failed = of(result, lab, "moe-gather-tokens")
    assert set(failed) == {MOE_SIZES, MOE_ONLY}, failed
    assert "all_gather of 1,536 B (float32)" in failed[MOE_ONLY] and "all_reduce of 3,072 B" in failed[MOE_ONLY]
    _, failed = of(result, lab, "moe-integer-side-channel")
    assert set(failed) == {MOE_ONLY} and "an all-to-all of" in failed[MOE_ONLY], failed

    solution_passes(result, lab, checks=4)


# --- sequence-parallel ------------------------------------------------------------------------

SP_OUTPUT = "output slice equals the whole block in one process"
SP_GRADS = "gradients equal the whole block in one process"
SP_NORM = "the LayerNorm runs on this rank's sequence slice only"
SP_COLLECTIVES = "all-gather and reduce-scatter along the sequence, no all-reduce"
SP_VALUES = "values each rank sends for the block, forward and backward, × 2 (the engine's layer has two such blocks)"
SP_ACTIVATION = "LayerNorm input each rank holds (16-bit bytes, the engine's unit)"


@pytest.mark.timeout(600)
def test_sequence_parallel_shipped_and_cheats_fail_solution_passes(lab_jobs):
    lab, result = "sequence-parallel", lab_jobs.get(JOB)

    names, failed = of(result, lab, "shipped")  # right numbers, tensor parallelism's communication and memory
    assert set(names) == {SP_OUTPUT, SP_GRADS, SP_NORM, SP_COLLECTIVES, SP_VALUES, SP_ACTIVATION}
    assert set(failed) == {SP_NORM, SP_COLLECTIVES, SP_VALUES, SP_ACTIVATION}, failed
    assert "'all_reduce': 1" in failed[SP_COLLECTIVES]
    assert "measured 6144 values, engine tp_values_per_layer = 4096 values" in failed[SP_VALUES]
    assert "measured 2,048 B, engine activation_per_layer_full_sp = 1,024 B" in failed[SP_ACTIVATION]

    _, failed = of(result, lab, "sp-norm-after-gather")
    assert set(failed) == {SP_NORM, SP_ACTIVATION}, failed
    assert "saw inputs of shape [[32, 2, 16]]" in failed[SP_NORM]
    _, failed = of(result, lab, "sp-all-reduce-then-slice")
    assert set(failed) == {SP_COLLECTIVES, SP_VALUES}, failed

    solution_passes(result, lab, checks=7)


# --- pp-interleaved ---------------------------------------------------------------------------

PP_BUBBLE_M2 = "pipeline bubble at p=2, v=2, m=2 (rank idle / busy time, less the overhead per micro-batch)"
PP_PEAK = "activations in flight stay within interleaved 1F1B's bound"


@pytest.mark.timeout(600)
def test_pp_interleaved_shipped_and_cheat_fail_solution_passes(lab_jobs):
    lab, result = "pp-interleaved", lab_jobs.get(JOB)

    names, failed = of(result, lab, "shipped")  # one stage per rank: 1F1B's bubble, (p − 1)/m
    assert len(names) == 9, names
    assert "engine bubble_fraction_interleaved = 0.250" in failed[PP_BUBBLE_M2], failed
    assert set(failed) <= {name for name in names if name.startswith("pipeline bubble")}, failed

    _, failed = of(result, lab, "pp-interleaved-gpipe")
    assert PP_PEAK in failed and "held up to 16 chunk activations" in failed[PP_PEAK], failed

    solution_passes(result, lab, checks=10)
