"""The labs of issue 19 (labs/19-… on), each both ways on CPU with gloo, and the obvious
cheats, each of which must fail the check that names it.

As shipped a program runs to the end and fails a named check; the reference solution passes
every check; a cheat is the solution with one change a learner might try instead of the real
fix, written into a temporary file (so that it stays next to the code it bends).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.labs.conftest import leftovers
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab

pytestmark = pytest.mark.slow


def failed_checks(result: dict) -> dict[str, str]:
    return {check["name"]: check["detail"] for check in result["checks"] if not check["passed"]}


def no_leftovers(result: dict) -> None:
    assert leftovers(result["evidence"]["run_dir"].rsplit("/", 1)[-1]) == []


def cheat(entry, tmp_path: Path, name: str, replacements: list[tuple[str, str]]) -> Path:
    """The lab's solution with `replacements` applied, each of which must match once."""
    source = entry.solution.read_text()
    for old, new in replacements:
        assert source.count(old) == 1, f"cheat {name}: {old!r} is not in the solution once"
        source = source.replace(old, new)
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return path


# --- fsdp-zero3 -------------------------------------------------------------------------------

GATHER_ALL_UP_FRONT = [(
    '''        for index, shard in enumerate(self.shards):
            x = GatheredLinear.apply(x, shard, self.hidden, self.group)''',
    '''        whole = [gather_layer(shard.detach(), self.group) for shard in self.shards]  # all layers at once
        for index, shard in enumerate(self.shards):
            x = GatheredLinear.apply(x, shard, self.hidden, self.group)''')]

FULL_COPY_IN_A_GLOBAL = [(
    '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for index''',
    '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # keep every layer whole in a global, out of the module's sight
        CACHE[:] = [gather_layer(shard.detach(), self.group) for shard in self.shards]
        for index'''), (
    "DTYPE = torch.bfloat16\n", "DTYPE = torch.bfloat16\nCACHE: list = []\n")]

ALL_REDUCE_THEN_SLICE = [(
    '''        grad_shard = torch.empty_like(shard)
        dist.reduce_scatter_tensor(grad_shard, grad_flat, group=ctx.group)''',
    '''        dist.all_reduce(grad_flat, group=ctx.group)
        grad_shard = grad_flat.chunk(world_size)[dist.get_rank(ctx.group)].clone()''')]


@pytest.mark.timeout(240)
def test_fsdp_zero3_both_ways(tmp_path):
    entry = get_lab("fsdp-zero3")
    shipped = check_lab(entry, program=entry.program, world_size=2, run_root=tmp_path / "shipped")
    assert shipped["evidence"]["outcome"] == "ok", shipped["evidence"]["summary"]
    failed = failed_checks(shipped)
    assert "also all_reduce, which ZeRO-3 does not need" in failed[
        "parameters gathered per layer, forward and backward; gradients reduce-scattered"]
    held = failed["bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)"]
    assert "measured 1,579,008 B" in held and "zero3_bytes − optimizer_bytes_sharded = 789,504 B" in held, held

    solution = check_lab(entry, solution=True, world_size=2, run_root=tmp_path / "solution")
    assert solution["passed"], failed_checks(solution)
    assert len(solution["checks"]) == 6
    for result in (shipped, solution):
        no_leftovers(result)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name, replacements, check_name, words", [
    ("gather_all_up_front", GATHER_ALL_UP_FRONT, "full parameters live one layer at a time", "gathered layer(s) alive at once"),
    ("full_copy_in_a_global", FULL_COPY_IN_A_GLOBAL,
     "bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)", "measured 1,579,008 B"),
    ("all_reduce_then_slice", ALL_REDUCE_THEN_SLICE,
     "parameters gathered per layer, forward and backward; gradients reduce-scattered", "0 reduce-scatter(s)"),
])
def test_fsdp_zero3_cheats_fail(name, replacements, check_name, words, tmp_path):
    entry = get_lab("fsdp-zero3")
    result = check_lab(entry, program=cheat(entry, tmp_path, name, replacements), world_size=2,
                       run_root=tmp_path / name)
    assert not result["passed"]
    failed = failed_checks(result)
    assert check_name in failed and words in failed[check_name], failed
    no_leftovers(result)


# --- no-sync-accumulation ---------------------------------------------------------------------

SYNC_EVERY_MICRO_STEP = [("            sync = micro == ACCUM - 1\n", "            sync = True\n")]

BROADCAST_RANK0_AT_THE_END = [(
    "        optimizer.step()\n",
    "        optimizer.step()\n"
    "        for param in model.module.parameters():  # make the replicas agree, whatever they learned\n"
    "            torch.distributed.broadcast(param.data, 0)\n"), (
    "            sync = micro == ACCUM - 1\n", "            sync = micro == 0\n")]


@pytest.mark.timeout(240)
def test_no_sync_accumulation_both_ways(tmp_path):
    entry = get_lab("no-sync-accumulation")
    shipped = check_lab(entry, program=entry.program, world_size=2, run_root=tmp_path / "shipped")
    assert shipped["evidence"]["outcome"] == "ok", shipped["evidence"]["summary"]
    failed = failed_checks(shipped)
    assert "the replicas have drifted apart" in failed["every replica holds the same weights"], failed
    assert "weights equal one process on the whole global batch" in failed

    solution = check_lab(entry, solution=True, world_size=2, run_root=tmp_path / "solution")
    assert solution["passed"], failed_checks(solution)
    assert len(solution["checks"]) == 4
    for result in (shipped, solution):
        no_leftovers(result)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name, replacements, check_name, words", [
    ("sync_every_micro_step", SYNC_EVERY_MICRO_STEP, "gradients all-reduced once per optimizer step",
     "16 gradient all-reduce(s)"),
    ("broadcast_rank0_at_the_end", BROADCAST_RANK0_AT_THE_END, "weights equal one process on the whole global batch",
     "max abs error"),
])
def test_no_sync_accumulation_cheats_fail(name, replacements, check_name, words, tmp_path):
    entry = get_lab("no-sync-accumulation")
    result = check_lab(entry, program=cheat(entry, tmp_path, name, replacements), world_size=2,
                       run_root=tmp_path / name)
    assert not result["passed"]
    failed = failed_checks(result)
    assert check_name in failed and words in failed[check_name], failed
    no_leftovers(result)


# --- ring-attention ---------------------------------------------------------------------------

NO_RESCALE_OF_EARLIER_CHUNKS = [
    ("            total = total * torch.exp(running_max - new_max) + part * torch.exp(part_max - new_max)\n",
     "            total = total + part * torch.exp(part_max - new_max)\n"),
    ("            denominator = denominator * torch.exp(running_max - new_max) + weight * torch.exp(part_max - new_max)\n",
     "            denominator = denominator + weight * torch.exp(part_max - new_max)\n")]


@pytest.mark.timeout(240)
def test_ring_attention_both_ways(tmp_path):
    entry = get_lab("ring-attention")
    shipped = check_lab(entry, program=entry.program, world_size=2, run_root=tmp_path / "shipped")
    assert shipped["evidence"]["outcome"] == "ok", shipped["evidence"]["summary"]
    failed = failed_checks(shipped)
    assert "output equals causal attention over the whole sequence" not in failed  # exact, but not a ring
    assert "also all_gather_into_tensor, which the ring does not need" in failed[
        "K/V pass around the ring, neighbour to neighbour"], failed
    assert "measured 0 B, engine cp_bytes_per_layer = 24,576 B" in failed[
        "K/V bytes each rank sends, forward, × 3 (the engine counts forward and backward)"]

    solution = check_lab(entry, solution=True, world_size=2, run_root=tmp_path / "solution")
    assert solution["passed"], failed_checks(solution)
    assert len(solution["checks"]) == 4
    broken = check_lab(entry, program=cheat(entry, tmp_path, "no_rescale", NO_RESCALE_OF_EARLIER_CHUNKS),
                       world_size=2, run_root=tmp_path / "no_rescale")
    assert "max abs error" in failed_checks(broken)["output equals causal attention over the whole sequence"]
    for result in (shipped, solution, broken):
        no_leftovers(result)
