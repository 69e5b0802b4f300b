"""The runner end to end on a small all-reduce program: each outcome, its evidence, and cleanup."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.labs.conftest import PROGRAMS, leftovers
from tutor.labs import procs
from tutor.labs.runner import Finished, LabRun, LogLine, RankProgress, RunSpec

pytestmark = pytest.mark.slow


def _run(tmp_path, *args, world_size=2, timeout_s=4.0, **kwargs) -> tuple[LabRun, dict]:
    run = LabRun(RunSpec(lab="loop", program=PROGRAMS / "loop.py", args=tuple(args), world_size=world_size,
                         timeout_s=timeout_s, run_root=tmp_path, **kwargs))
    evidence = run.run()
    assert leftovers(run.run_id) == []
    return run, evidence


@pytest.mark.timeout(90)
def test_a_run_reports_steps_metrics_collectives_live_events_and_a_failed_self_check(tmp_path):
    seen = []
    run = LabRun(RunSpec(lab="loop", program=PROGRAMS / "loop.py", args=("6", "--wrong"), world_size=2,
                         run_root=tmp_path), on_event=seen.append)
    evidence = run.run()
    assert evidence["outcome"] == "wrong", evidence["summary"]
    assert "sum is wrong on rank 0" in evidence["summary"]["message"]
    assert [rank["exit_code"] for rank in evidence["ranks"]] == [0, 0]
    assert [rank["last_step"] for rank in evidence["ranks"]] == [5, 5]
    assert evidence["metrics"]["steps"] == 6 and evidence["metrics"]["step_time_s"] > 0
    assert evidence["metrics"]["tokens_per_s"] > 0 and evidence["metrics"]["final"] == 1.0
    collective = evidence["ranks"][0]["collectives"][-1]
    assert collective["op"] == "all_reduce" and collective["state"] == "done" and collective["bytes"] == 32
    assert collective["site"].startswith("loop.py:")
    assert any(isinstance(event, RankProgress) and event.step == 5 for event in seen)
    assert any(isinstance(event, LogLine) and event.rank == 0 and "sum" in event.text for event in seen)
    assert isinstance(seen[-1], Finished) and seen[-1].evidence is evidence
    assert (run.run_dir / "rank0.log").is_file() and (run.run_dir / "evidence.json").is_file()
    assert leftovers(run.run_id) == []


@pytest.mark.timeout(90)
def test_hang_is_declared_within_the_timeout_with_every_ranks_stack_and_pending_collective(tmp_path):
    from tutor.labs.events import read_all

    run, evidence = _run(tmp_path, "50", "--hang-at", "3", timeout_s=3.0)
    finished = time.time()
    assert evidence["outcome"] == "hang"
    # the hang began when the last rank entered its collective; the evidence was complete by
    # the timeout + 5 s (DESIGN §8)
    began = max(event["t"] for rank in (0, 1) for event in read_all(run.run_dir / f"rank{rank}.jsonl")
                if event["ev"] == "coll")
    assert finished - began <= 3.0 + 5.0
    ranks = {rank["rank"]: rank for rank in evidence["ranks"]}
    assert ranks[0]["pending"]["op"] == "all_gather" and ranks[1]["pending"]["op"] == "all_reduce"
    assert ranks[0]["last_step"] == 3 and ranks[1]["last_step"] == 3
    for rank in ranks.values():
        assert "loop.py" in rank["stack"], rank["stack_source"]
    assert "rank 0 in all_gather" in evidence["summary"]["message"]
    assert "rank 1 in all_reduce" in evidence["summary"]["message"]
    flight = ranks[0]["flight_recorder"]
    assert flight and flight[-1]["op"] == "gloo:all_gather"
    assert (run.run_dir / "fr_trace_rank_0").is_file()


@pytest.mark.timeout(90)
def test_crash_names_the_first_failure_and_its_line(tmp_path):
    _, evidence = _run(tmp_path, "50", "--crash-at", "2")
    assert evidence["outcome"] == "crash"
    assert evidence["summary"]["first_failure"] == 1
    assert "simulated out of memory" in evidence["summary"]["message"]
    assert "loop.py:" in evidence["summary"]["message"]
    assert evidence["ranks"][1]["exit_code"] == 1
    assert "Root Cause" in evidence["launcher"]["failure_report"]


@pytest.mark.timeout(90)
def test_a_slower_survivors_stack_is_taken_where_it_waits_not_where_it_still_computes(tmp_path):
    # CI: long-batch's surviving rank was still in its forward pass when its peer's OOM was seen
    _, evidence = _run(tmp_path, "50", "--crash-at", "2", "--lag", "1.5")
    assert evidence["outcome"] == "crash"
    survivor = evidence["ranks"][0]
    assert evidence["at_failure"]["0"]["op"] == "all_reduce", evidence["at_failure"]
    # py-spy names the Python line a rank is on, not the C++ call under it: the line of `work.wait()`,
    # not the line of the lag's sleep
    source = (PROGRAMS / "loop.py").read_text().splitlines()
    waits = next(number for number, line in enumerate(source, 1) if "work.wait()" in line)
    lags = next(number for number, line in enumerate(source, 1) if "time.sleep(args.lag)" in line)
    assert survivor["stack_source"] == "py-spy", survivor
    assert f"loop.py:{waits})" in survivor["stack"] and f"loop.py:{lags})" not in survivor["stack"], survivor["stack"]


@pytest.mark.timeout(90)
def test_cancel_midway_stops_every_process(tmp_path):
    run = LabRun(RunSpec(lab="loop", program=PROGRAMS / "loop.py", args=("100000",), world_size=2, run_root=tmp_path),
                 on_event=lambda event: run.cancel() if isinstance(event, RankProgress) and event.step == 2 else None)
    evidence = run.run()
    assert evidence["outcome"] == "cancelled"
    assert leftovers(run.run_id) == []


PARENT = """
import sys
from pathlib import Path
from tutor.labs.runner import LabRun, RunSpec, RankProgress
run = LabRun(RunSpec(lab="loop", program=Path(sys.argv[1]), args=("100000",), world_size=2, run_root=Path(sys.argv[2])),
             on_event=lambda e: print("STEP", flush=True) if isinstance(e, RankProgress) and e.step == 2 else None)
print("RUN", run.run_id, flush=True)
run.run()
"""


@pytest.mark.timeout(90)
def test_killing_the_parent_leaves_no_process_behind(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(PROGRAMS / "loop.py"), str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    run_id = None
    for line in parent.stdout:
        if line.startswith("RUN"):
            run_id = line.split()[1]
        if line.startswith("STEP"):
            break
    assert run_id and len(procs.pids_with_env("TUTOR_LAB_RUN_ID", run_id)) == 3  # launcher + 2 ranks
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert leftovers(run_id) == []


@pytest.mark.timeout(120)
def test_two_nodes_rendezvous_through_c10d(tmp_path):
    import socket

    with socket.socket() as probe:  # a port for node 0's store; the test's only check-then-use
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runs = [LabRun(RunSpec(lab="loop", program=PROGRAMS / "loop.py", args=("4",), world_size=1, nnodes=2,
                           node_rank=node, rdzv_endpoint=f"127.0.0.1:{port}", rdzv_id="test-two-nodes",
                           run_root=tmp_path / f"node{node}", env={"GLOO_SOCKET_IFNAME": "lo"}))
            for node in (0, 1)]
    for run in runs:
        run.start()
    results = [run.wait() for run in runs]
    assert [result["outcome"] for result in results] == ["ok", "ok"], [r["summary"] for r in results]
    assert sorted(result["ranks"][0]["rank"] for result in results) == [0, 1]
    assert all(result["world_size"] == 2 for result in results)
