"""The parallelism labs moe-expert-parallel, sequence-parallel and pp-interleaved, both ways on
CPU with gloo at 2 ranks, and the cheats a hostile learner would try, each of which must fail
the check that names it.

Per lab, one job runs the lab checker's own `main()` on the shipped program, the solution and
each cheat in turn, every check named `LABEL: name` (tests/labs/several.py): a job's cost is
mostly starting torchrun and importing torch in every rank (about 10 s on 2 cores), a cheat's
checks cost milliseconds (the pipeline lab's about 3 s). A cheat is the solution with one
change a learner might try instead of the real fix, written into a temporary file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.labs import cheats, several
from tutor.labs.catalog import LabEntry, get_lab

pytestmark = pytest.mark.slow

def cheat(entry: LabEntry, tmp_path: Path, name: str, replacements: list[tuple[str, str]]) -> several.Program:
    """The lab's solution with `replacements` applied, each of which must match once."""
    path = cheats.make(tmp_path, entry.name, "", base="solution", replace=dict(replacements), name=f"{name}.py")
    return several.Program(name, entry.name, path)


def check_several(entry: LabEntry, tmp_path: Path, programs: list[several.Program]) -> dict:
    """One 2-rank job: the shipped program, the solution, then `programs` (outcome ok, nothing left)."""
    return several.check_several(tmp_path / "several",
                                 [several.shipped(entry.name), several.solution(entry.name), *programs])


of = several.of


def solution_passes(result: dict, checks: int) -> None:
    """The solution passes every check of its lab, `checks` of them with the job's "runs to completion"."""
    names, failed = of(result, "solution")
    assert not failed, failed
    assert len(names) + 1 == checks, names


# --- moe-expert-parallel ----------------------------------------------------------------------

MOE_OUTPUT = "routed output equals the dense layer with every expert"
MOE_SIZES = "all-to-all sizes follow the routing: dispatch, then combine"
MOE_ONLY = "no collective but the two all-to-alls moves tokens or weights"

# Capacity-style dispatch: every split padded to room for all copies; right output, wrong sizes.
PAD_TO_CAPACITY = [(
    "    send, recv = send_counts.tolist(), recv_counts.tolist()\n",
    "    counts = send_counts.tolist()\n"
    "    capacity = tokens.shape[0]  # room for every copy: a fixed size, padded, so the sizes never vary\n"
    "    tokens = torch.cat([torch.cat([c, c.new_zeros(capacity - len(c), HIDDEN)]) for c in tokens.split(counts)])\n"
    "    experts_sent = torch.cat([torch.cat([c, c.new_full((capacity - len(c),), -1)])\n"
    "                              for c in experts_sent.split(counts)])\n"
    "    send = recv = [capacity] * world_size\n"), (
    "    token_of_copy = torch.arange",
    "    returned = torch.cat([c[:n] for c, n in zip(returned.split(capacity), counts)])\n"
    "    token_of_copy = torch.arange")]

# Skip the all-to-alls: gather every rank's tokens, run the local experts on all of them and
# all-reduce the partial outputs; right output, no dispatch at all.
GATHER_TOKENS = [(
    "    # How many copies go to each rank depends on the routing",
    "    everyone = [torch.empty_like(x) for _ in range(world_size)]  # every rank's tokens, everywhere\n"
    "    dist.all_gather(everyone, x, group=group)\n"
    "    every_x = torch.cat(everyone)\n"
    "    every_gate, every_chosen = route(every_x, router)\n"
    "    partial = torch.zeros(world_size * x.shape[0], HIDDEN)\n"
    "    for index, expert in enumerate(local_experts):\n"
    "        for slot in range(TOP_K):\n"
    "            rows = every_chosen[:, slot] == rank * EXPERTS_PER_RANK + index\n"
    "            partial[rows] += every_gate[rows, slot, None] * expert(every_x[rows])\n"
    "    dist.all_reduce(partial, group=group)\n"
    "    return partial[rank * x.shape[0]:(rank + 1) * x.shape[0]]\n"
    "    # How many copies go to each rank depends on the routing")]

# A side channel beside the real dispatch: integers sized like the token rows but 4 wide, room
# for any float data viewed as int32 (another rank's expert weights, say).
INTEGER_SIDE_CHANNEL = [(
    "    outputs = torch.zeros_like(received)\n",
    "    smuggled = torch.empty(sum(recv), 4, dtype=torch.int32)\n"
    "    room = torch.zeros(len(experts_sent), 4, dtype=torch.int32)\n"
    "    dist.all_to_all_single(smuggled, room, recv, send, group=group)\n"
    "    outputs = torch.zeros_like(received)\n")]


@pytest.mark.timeout(240)
def test_moe_expert_parallel_shipped_and_cheats_fail_solution_passes(tmp_path):
    entry = get_lab("moe-expert-parallel")
    result = check_several(entry, tmp_path, [
        cheat(entry, tmp_path, "pad", PAD_TO_CAPACITY),
        cheat(entry, tmp_path, "gather", GATHER_TOKENS),
        cheat(entry, tmp_path, "side_channel", INTEGER_SIDE_CHANNEL)])

    names, failed = of(result, "shipped")  # even splits: copies land on the wrong ranks
    assert set(names) == {MOE_OUTPUT, MOE_SIZES, MOE_ONLY}
    assert set(failed) == {MOE_OUTPUT, MOE_SIZES}, failed
    assert "max abs error" in failed[MOE_OUTPUT]
    assert "sent [[24, 24], [24, 24]]" in failed[MOE_SIZES], failed[MOE_SIZES]

    _, failed = of(result, "pad")
    assert set(failed) == {MOE_SIZES} and "sent [[48, 48], [48, 48]]" in failed[MOE_SIZES], failed
    _, failed = of(result, "gather")
    assert set(failed) == {MOE_SIZES, MOE_ONLY}, failed
    assert "all_gather of 1,536 B (float32)" in failed[MOE_ONLY] and "all_reduce of 3,072 B" in failed[MOE_ONLY]
    _, failed = of(result, "side_channel")
    assert set(failed) == {MOE_ONLY} and "an all-to-all of" in failed[MOE_ONLY], failed

    solution_passes(result, checks=4)


# --- sequence-parallel ------------------------------------------------------------------------

SP_OUTPUT = "output slice equals the whole block in one process"
SP_GRADS = "gradients equal the whole block in one process"
SP_NORM = "the LayerNorm runs on this rank's sequence slice only"
SP_COLLECTIVES = "all-gather and reduce-scatter along the sequence, no all-reduce"
SP_VALUES = "values each rank sends for the block, forward and backward, × 2 (the engine's layer has two such blocks)"
SP_ACTIVATION = "LayerNorm input each rank holds (16-bit bytes, the engine's unit)"

# Gather first, normalise the whole sequence: the same collectives and values, but every rank
# holds the whole sequence's LayerNorm input and output.
NORM_AFTER_GATHER = [(
    "        h = self.norm(x)                                  # on this rank's s/t rows only\n"
    "        h = _GatherSequence.apply(h, self.group)          # g: all-gather forward, reduce-scatter backward\n",
    "        h = self.norm(_GatherSequence.apply(x, self.group))  # the whole sequence, normalised on every rank\n")]

# Leave the region with an all-reduce and keep this rank's rows: right numbers, twice the values.
ALL_REDUCE_THEN_SLICE = [(
    "        dist.reduce_scatter_single(out, x.contiguous(), group=group)\n        return out\n",
    "        x = x.contiguous()\n"
    "        dist.all_reduce(x, group=group)  # everyone gets the whole sum; keep this rank's rows\n"
    "        return x.chunk(world_size)[dist.get_rank(group)].clone()\n")]


@pytest.mark.timeout(240)
def test_sequence_parallel_shipped_and_cheats_fail_solution_passes(tmp_path):
    entry = get_lab("sequence-parallel")
    result = check_several(entry, tmp_path, [
        cheat(entry, tmp_path, "norm_after_gather", NORM_AFTER_GATHER),
        cheat(entry, tmp_path, "all_reduce_then_slice", ALL_REDUCE_THEN_SLICE)])

    names, failed = of(result, "shipped")  # right numbers, tensor parallelism's communication and memory
    assert set(names) == {SP_OUTPUT, SP_GRADS, SP_NORM, SP_COLLECTIVES, SP_VALUES, SP_ACTIVATION}
    assert set(failed) == {SP_NORM, SP_COLLECTIVES, SP_VALUES, SP_ACTIVATION}, failed
    assert "'all_reduce': 1" in failed[SP_COLLECTIVES]
    assert "measured 6144 values, engine tp_values_per_layer = 4096 values" in failed[SP_VALUES]
    assert "measured 2,048 B, engine activation_per_layer_full_sp = 1,024 B" in failed[SP_ACTIVATION]

    _, failed = of(result, "norm_after_gather")
    assert set(failed) == {SP_NORM, SP_ACTIVATION}, failed
    assert "saw inputs of shape [[32, 2, 16]]" in failed[SP_NORM]
    _, failed = of(result, "all_reduce_then_slice")
    assert set(failed) == {SP_COLLECTIVES, SP_VALUES}, failed

    solution_passes(result, checks=7)


# --- pp-interleaved ---------------------------------------------------------------------------

PP_BUBBLE_M2 = "pipeline bubble at p=2, v=2, m=2 (rank idle / busy time, less the overhead per micro-batch)"
PP_PEAK = "activations in flight stay within interleaved 1F1B's bound"

# GPipe on the interleaved placement: every forward, then every backward. Its bubble is as
# small as interleaved 1F1B's, but it holds all m·v chunk activations at once.
GPIPE_INTERLEAVED = [(
    "    warmup = min(2 * (ranks - rank - 1) + (chunks - 1) * ranks, total)\n",
    "    warmup = total  # all forwards first\n")]


@pytest.mark.timeout(240)
def test_pp_interleaved_shipped_and_cheat_fail_solution_passes(tmp_path):
    entry = get_lab("pp-interleaved")
    result = check_several(entry, tmp_path, [cheat(entry, tmp_path, "gpipe", GPIPE_INTERLEAVED)])

    names, failed = of(result, "shipped")  # one stage per rank: 1F1B's bubble, (p − 1)/m
    assert len(names) == 9, names
    assert "engine bubble_fraction_interleaved = 0.250" in failed[PP_BUBBLE_M2], failed
    assert set(failed) <= {name for name in names if name.startswith("pipeline bubble")}, failed

    _, failed = of(result, "gpipe")
    assert PP_PEAK in failed and "held up to 16 chunk activations" in failed[PP_PEAK], failed

    solution_passes(result, checks=10)
