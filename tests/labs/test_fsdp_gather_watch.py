"""fsdp-zero3's GatherWatch against gloo's late release of a gather's output.

A gloo worker thread wakes the caller before it drops its own reference to the finished work
and its output buffer: measured here on torch 2.13, 20-57% of 3,000 gathers' outputs were still
alive just after the caller let go, for up to 4.3 ms on loaded cores, and CI once read the
reference solution as holding 3 gathered layers at once. The stand-in gather below holds each
output for 30 ms on a thread of its own, as that worker does, and needs no process group.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

CHECKER = Path(__file__).parents[2] / "labs" / "19-fsdp-zero3" / "check.py"

PROGRAM = f"""
import importlib.util, threading, time
import torch, torch.distributed as dist
spec = importlib.util.spec_from_file_location("fsdp_check", {str(CHECKER)!r})
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)

def lingering_gather(output, shard, group=None):
    output.copy_(shard.repeat(2))
    holder = threading.Thread(target=lambda buffer=output: time.sleep(0.03), daemon=True)
    holder.start()  # keeps `output` alive 30 ms after this returns, as gloo's worker does

dist.all_gather_into_tensor = lingering_gather
shard = torch.ones(1000)

def gather():
    full = torch.empty(2000)
    dist.all_gather_into_tensor(full, shard)
    return full

with check.GatherWatch(limit=2) as watch:  # one layer at a time: each dropped before the next
    for _ in range(6):
        layer = gather()
        del layer
one_at_a_time = watch.peak

with check.GatherWatch(limit=2) as watch:  # three layers held: the learner's own references
    held = [gather() for _ in range(3)]
    gather()
three_held = watch.peak
print(one_at_a_time, three_held)
"""


@pytest.mark.timeout(120)
def test_a_buffer_gloo_still_holds_is_not_counted_but_one_the_learner_holds_is():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stderr[-2000:]
    one_at_a_time, three_held = map(int, done.stdout.split())
    assert one_at_a_time <= 2  # what the check passes (read 6 before the watch waited for gloo)
    assert three_held == 4
