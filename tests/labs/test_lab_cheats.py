"""Every cheat of the findings (labs-as-a-learner.md) runs against its lab's check and must fail it.

Each cheat of the findings passed the check before the fix it is named after (seen, and said in
the commit that made it fail); the cheats of issue 19's labs were written with their checkers. A cheat is the lab's own program with a few lines changed (tests/labs/cheats.py);
each test names the property that must catch it, so a cheat that fails for an unrelated reason
(a crash, another check) does not count as caught. One check run per cheat, at 2 ranks (4 where
2 cannot show it); the labs of issue 19 included.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from tests.labs import cheats
from tests.labs.conftest import leftovers
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab

pytestmark = pytest.mark.slow

class Cheat(NamedTuple):
    lab: str
    change: str | dict[str, str]  # code appended to the base program, or {old: new} replacements in it
    must_fail: str | tuple[str, ...]  # the check that must catch it (one of these, where the draw decides)
    base: str = "solution"  # "program" (as shipped) or "solution"
    words: str = ""  # words the failed check's message must contain
    world_size: int = 2


CHEATS = {
    # D1: step() counts, result() trains.
    "perf-lazy-result": Cheat("exposed-comm", cheats.LAZY_RESULT, "the step does the model's work", "program"),
    # D1, the next try: train ahead in build(), untimed; step() hands out stored results.
    "perf-trained-in-build": Cheat("launch-bound", cheats.TRAINED_IN_BUILD, "the step does the model's work", "program"),
    # D7: patch the baseline through sys.modules["lab_shipped"] (300 extra all-reduces per step).
    "perf-sabotage-baseline": Cheat("exposed-comm", cheats.SABOTAGE_BASELINE, "faster than the shipped program", "program"),
    # A thread that burns CPU while the shipped program is being timed.
    "perf-busy-while-baseline-runs": Cheat("exposed-comm", cheats.BUSY_WHILE_BASELINE_RUNS,
                                           "your program is idle while the shipped one is timed"),
    # D8: keep the imbalance, burn CPU on the fast rank until the CPU times match.
    "straggler-spin-fast-rank": Cheat("straggler", cheats.STRAGGLER_SPIN, "time lost to straggler is gone", "program"),
    # D13: fp16-compressed gradients, lossy, passed as "results unchanged" at rtol 1e-3.
    "exposed-comm-fp16-compressed": Cheat("exposed-comm", cheats.FP16_COMPRESSED_GRADIENTS, "results unchanged"),
    # D3: a blocking all-reduce inside the gradient hook.
    "dp-overlap-blocking-hook": Cheat("dp-overlap", cheats.BLOCKING_HOOK,
                                      "all-reduces start during backward and are waited for after it"),
    "dp-overlap-async-waited-in-hook": Cheat("dp-overlap", cheats.ASYNC_BUT_WAITED_IN_THE_HOOK,
                                             "all-reduces start during backward and are waited for after it"),
    # D4: GPipe reporting 1F1B's peak.
    "pp-1f1b-gpipe-false-peak": Cheat("pp-1f1b", cheats.GPIPE_CLAMPED_PEAK, "activations in flight stay within 1F1B's bound"),
    # Within the memory bound, but serial: every micro-batch crosses the whole pipeline alone.
    "pp-1f1b-no-warm-up": Cheat("pp-1f1b", cheats.SERIAL_ONE_FORWARD_ONE_BACKWARD,
                                "idle time per micro-batch stays small beside a forward and backward pass"),
    # D5: the OOM labs on a bigger device, on none, or with clones the simulator does not count.
    "crashed-rank-bigger-device": Cheat("crashed-rank", cheats.BIGGER_DEVICE, "every step runs on the brief's device",
                                        "program"),
    "crashed-rank-no-device": Cheat("crashed-rank", cheats.NO_DEVICE, "every step runs on the brief's device", "program"),
    "crashed-rank-detached-clones": Cheat("crashed-rank", cheats.KEEP_DETACHED_CLONES,
                                          "memory held does not grow from step to step", "program"),
    "long-batch-bigger-device": Cheat("long-batch", cheats.BIGGER_DEVICE, "every step runs on the brief's device", "program"),
    "long-batch-no-device": Cheat("long-batch", cheats.NO_DEVICE_LONG_BATCH, "every step runs on the brief's device",
                                  "program"),
    # Item 6: a full Adam hidden in an nn.Module attribute, a decoy of 12Ψ/N bytes on show.
    "zero1-full-adam-hidden-in-a-module": Cheat("zero1-memory", cheats.FULL_ADAM_HIDDEN_IN_A_MODULE,
                                                "optimizer state per rank"),
    # Item 6: a full copy of the block kept out of the module tree (what replicated compute needs).
    "tp-mlp-hidden-full-copy": Cheat("tp-mlp", cheats.HIDDEN_FULL_COPY, "each rank holds its slice, not the block"),
    # D6: faults in the same place on every run.
    "checkpoint-rank0-gather-dropped": Cheat("checkpoint-rank0", cheats.GATHER_DROPPED,
                                             "checkpoint holds every rank's data position"),
    "checkpoint-rank0-every-rank-writes": Cheat("checkpoint-rank0", cheats.EVERY_RANK_WRITES,
                                                "checkpoint holds every rank's data position"),
    # Rank 0's batch is fine now, so nobody stops: the drawn rank trains on its NaN loss and the
    # run's own replay check makes the outcome `wrong`.
    # At 4 ranks: at 2 the check must put the fault on rank 0 (see its checker), where rank 0's flag is right.
    "diverging-broadcast-rank0-flag": Cheat("diverging-control-flow", cheats.BROADCAST_RANK0_FLAG, "runs to completion",
                                            world_size=4),
    # The check draws the bad step, never the program's default --filter-step, where this cheat
    # stops. Drawn before it, rank 0 trains on its NaN loss and the run's replay makes it `wrong`;
    # drawn after it, every rank stops cleanly but early, which the guard's own check names.
    "diverging-break-at-filter-step": Cheat("diverging-control-flow", cheats.BREAK_AT_FILTER_STEP,
                                            ("runs to completion", "the guard still stops the run")),
    # At 4 ranks: at 2, the longer shard can only be rank 0's (the first shards take the extra).
    "uneven-rank0-skips-tail": Cheat("uneven-batches", cheats.RANK0_SKIPS_TAIL, "runs to completion", "program",
                                     world_size=4),
    # Issue 19's labs. ZeRO-3 that gathers every layer before the first, or keeps them whole out of sight.
    "fsdp-gather-all-up-front": Cheat("fsdp-zero3", cheats.FSDP_GATHER_ALL_UP_FRONT,
                                      "full parameters live one layer at a time", words="gathered layer(s) alive at once"),
    "fsdp-full-copy-in-a-global": Cheat(
        "fsdp-zero3", cheats.FSDP_FULL_COPY_IN_A_GLOBAL,
        "bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)",
        words="measured 1,579,008 B"),
    # Right gradients by all-reduce, then a slice: twice ZeRO-3's traffic.
    "fsdp-all-reduce-then-slice": Cheat("fsdp-zero3", cheats.FSDP_ALL_REDUCE_THEN_SLICE,
                                        "parameters gathered per layer, forward and backward; gradients reduce-scattered",
                                        words="0 reduce-scatter(s)"),
    "no-sync-every-micro-step": Cheat("no-sync-accumulation", cheats.SYNC_EVERY_MICRO_STEP,
                                      "gradients all-reduced once per optimizer step", words="16 gradient all-reduce(s)"),
    # Replicas made to agree by a broadcast instead of by the one all-reduce per step.
    "no-sync-broadcast-rank0-at-the-end": Cheat("no-sync-accumulation", cheats.BROADCAST_RANK0_AT_THE_END,
                                                "weights equal one process on the whole global batch",
                                                words="max abs error"),
    # Online softmax without rescaling the chunks already summed.
    "ring-no-rescale": Cheat("ring-attention", cheats.RING_NO_RESCALE_OF_EARLIER_CHUNKS,
                             "output equals causal attention over the whole sequence", words="max abs error"),
}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", sorted(CHEATS))
def test_the_cheat_fails_its_check(name, tmp_path):
    cheat = CHEATS[name]
    if isinstance(cheat.change, dict):
        program = cheats.make(tmp_path, cheat.lab, "", base=cheat.base, replace=cheat.change)
    else:
        program = cheats.make(tmp_path, cheat.lab, cheat.change, base=cheat.base)
    result = check_lab(get_lab(cheat.lab), program=program, world_size=cheat.world_size, run_root=tmp_path / "runs")
    by_name = {check["name"]: check for check in result["checks"]}
    catchers = cheat.must_fail if isinstance(cheat.must_fail, tuple) else (cheat.must_fail,)
    if "runs to completion" not in catchers:  # caught by the property, not by a crash or a hang
        assert result["evidence"]["outcome"] == "ok", result["evidence"]["summary"]
    assert not result["passed"], by_name
    caught = [name for name in catchers if name in by_name and not by_name[name]["passed"]]
    assert caught, by_name
    assert cheat.words in by_name[caught[0]]["detail"], by_name[caught[0]]
    assert leftovers(result["evidence"]["run_dir"].rsplit("/", 1)[-1]) == []
