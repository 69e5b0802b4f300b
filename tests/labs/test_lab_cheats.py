"""Every cheat of the findings (labs-as-a-learner.md) runs against its lab's check and must fail it.

Each cheat passed the check before the fix it is named after (seen, and said in the commit that
made it fail). A cheat is the lab's own program with a few lines changed (tests/labs/cheats.py);
each test names the property that must catch it, so a cheat that fails for an unrelated reason
(a crash, another check) does not count as caught. One check run per cheat, at 2 ranks (4 where
2 cannot show it).
"""

from __future__ import annotations

import pytest

from tests.labs import cheats
from tests.labs.conftest import leftovers
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab

pytestmark = pytest.mark.slow

# id -> (lab, appendix or replacements, base program, the check that must fail)
CHEATS = {
    # D1: step() counts, result() trains.
    "perf-lazy-result": ("exposed-comm", cheats.LAZY_RESULT, "program", "the step does the model's work"),
    # D1, the next try: train ahead in build(), untimed; step() hands out stored results.
    "perf-trained-in-build": ("launch-bound", cheats.TRAINED_IN_BUILD, "program", "the step does the model's work"),
    # D7: patch the baseline through sys.modules["lab_shipped"] (300 extra all-reduces per step).
    "perf-sabotage-baseline": ("exposed-comm", cheats.SABOTAGE_BASELINE, "program", "faster than the shipped program"),
    # A thread that burns CPU while the shipped program is being timed.
    "perf-busy-while-baseline-runs": ("exposed-comm", cheats.BUSY_WHILE_BASELINE_RUNS, "solution",
                                      "your program is idle while the shipped one is timed"),
    # D8: keep the imbalance, burn CPU on the fast rank until the CPU times match.
    "straggler-spin-fast-rank": ("straggler", cheats.STRAGGLER_SPIN, "program", "time lost to straggler is gone"),
    # D13: fp16-compressed gradients, lossy, passed as "results unchanged" at rtol 1e-3.
    "exposed-comm-fp16-compressed": ("exposed-comm", cheats.FP16_COMPRESSED_GRADIENTS, "solution", "results unchanged"),
    # D3: a blocking all-reduce inside the gradient hook.
    "dp-overlap-blocking-hook": ("dp-overlap", cheats.BLOCKING_HOOK, "solution",
                                 "all-reduces start during backward and are waited for after it"),
    "dp-overlap-async-waited-in-hook": ("dp-overlap", cheats.ASYNC_BUT_WAITED_IN_THE_HOOK, "solution",
                                        "all-reduces start during backward and are waited for after it"),
    # D4: GPipe reporting 1F1B's peak.
    "pp-1f1b-gpipe-false-peak": ("pp-1f1b", cheats.GPIPE_CLAMPED_PEAK, "solution",
                                 "activations in flight stay within 1F1B's bound"),
    # Within the memory bound, but serial: every micro-batch crosses the whole pipeline alone.
    "pp-1f1b-no-warm-up": ("pp-1f1b", cheats.SERIAL_ONE_FORWARD_ONE_BACKWARD, "solution",
                           "idle time per micro-batch stays small beside a forward and backward pass"),
    # D5: the OOM labs on a bigger device, on none, or with clones the simulator does not count.
    "crashed-rank-bigger-device": ("crashed-rank", cheats.BIGGER_DEVICE, "program", "every step runs on the brief's device"),
    "crashed-rank-no-device": ("crashed-rank", cheats.NO_DEVICE, "program", "every step runs on the brief's device"),
    "crashed-rank-detached-clones": ("crashed-rank", cheats.KEEP_DETACHED_CLONES, "program",
                                     "memory held does not grow from step to step"),
    "long-batch-bigger-device": ("long-batch", cheats.BIGGER_DEVICE, "program", "every step runs on the brief's device"),
    "long-batch-no-device": ("long-batch", cheats.NO_DEVICE_LONG_BATCH, "program", "every step runs on the brief's device"),
    # Item 6: a full Adam hidden in an nn.Module attribute, a decoy of 12Ψ/N bytes on show.
    "zero1-full-adam-hidden-in-a-module": ("zero1-memory", cheats.FULL_ADAM_HIDDEN_IN_A_MODULE, "solution",
                                           "optimizer state per rank"),
    # Item 6: a full copy of the block kept out of the module tree (what replicated compute needs).
    "tp-mlp-hidden-full-copy": ("tp-mlp", cheats.HIDDEN_FULL_COPY, "solution", "each rank holds its slice, not the block"),
    # D6: faults in the same place on every run.
    "checkpoint-rank0-gather-dropped": ("checkpoint-rank0", cheats.GATHER_DROPPED, "solution",
                                        "checkpoint holds every rank's data position"),
    "checkpoint-rank0-every-rank-writes": ("checkpoint-rank0", cheats.EVERY_RANK_WRITES, "solution",
                                           "checkpoint holds every rank's data position"),
    # Rank 0's batch is fine now, so nobody stops: the drawn rank trains on its NaN loss and the
    # run's own replay check makes the outcome `wrong`.
    # At 4 ranks: at 2 the check must put the fault on rank 0 (see its checker), where rank 0's flag is right.
    "diverging-broadcast-rank0-flag": ("diverging-control-flow", cheats.BROADCAST_RANK0_FLAG, "solution",
                                       "runs to completion", 4),
    # At two ranks the fault is on rank 0, which then trains on its NaN loss: the replay makes it `wrong`.
    "diverging-break-at-filter-step": ("diverging-control-flow", cheats.BREAK_AT_FILTER_STEP, "solution",
                                       "runs to completion"),
    # At 4 ranks: at 2, the longer shard can only be rank 0's (the first shards take the extra).
    "uneven-rank0-skips-tail": ("uneven-batches", cheats.RANK0_SKIPS_TAIL, "program", "runs to completion", 4),
}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_the_cheat_fails_its_check(cheat, tmp_path):
    lab, change, base, must_fail, *world = CHEATS[cheat]
    if isinstance(change, dict):
        program = cheats.make(tmp_path, lab, "", base=base, replace=change)
    else:
        program = cheats.make(tmp_path, lab, change, base=base)
    result = check_lab(get_lab(lab), program=program, world_size=(world or [2])[0], run_root=tmp_path / "runs")
    by_name = {check["name"]: check for check in result["checks"]}
    if must_fail != "runs to completion":  # caught by the property, not by a crash or a hang
        assert result["evidence"]["outcome"] == "ok", result["evidence"]["summary"]
    assert not result["passed"], by_name
    assert must_fail in by_name and not by_name[must_fail]["passed"], by_name
    assert leftovers(result["evidence"]["run_dir"].rsplit("/", 1)[-1]) == []
