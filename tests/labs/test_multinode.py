"""Several nodes (issue 19): `--node-rank 0` holds rank 0 whatever order the nodes start in,
and a node started alone says what it waits for and gives up within the run's limit.

The two "nodes" are two runners on this machine, on loopback, each launching its own torchrun.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from tests.labs.conftest import leftovers
from tutor.labs.launch import LaunchPlan, rendezvous_failure, rendezvous_waiting
from tutor.labs.runner import LabRun
from tutor.labs.runspec import RunSpec

PROGRAM = '''
import os
import torch
import torch.distributed as dist
from tutor.labs import rank as lab
ctx = lab.init()
total = torch.tensor([float(ctx.rank)])
dist.all_reduce(total)
ctx.report(global_rank=ctx.rank, group_rank=int(os.environ["GROUP_RANK"]), rank_sum=total.item())
ctx.finish()
'''


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def node_spec(tmp_path: Path, node: int, port: int, timeout_s: float) -> RunSpec:
    program = tmp_path / "nodes.py"
    program.write_text(PROGRAM)
    return RunSpec(lab="nodes", program=program, world_size=1, timeout_s=timeout_s, nnodes=2, node_rank=node,
                   rdzv_endpoint=f"127.0.0.1:{port}", env={"GLOO_SOCKET_IFNAME": "lo"},
                   run_root=tmp_path / f"node{node}")


def test_node_rank_is_passed_to_a_static_rendezvous_with_the_runs_limit(tmp_path):
    plan = LaunchPlan(program=Path("t.py"), nproc_per_node=4, run_dir=tmp_path, nnodes=2, node_rank=1,
                      rdzv_endpoint="node0:29500", timeout_s=9.5)
    args = plan.torchrun_args()
    for flag, value in (("--node-rank", "1"), ("--rdzv-backend", "static"), ("--rdzv-conf", "timeout=10"),
                        ("--nnodes", "2"), ("--rdzv-endpoint", "node0:29500")):
        assert args[args.index(flag) + 1] == value
    assert "c10d" not in args and "--standalone" not in args
    assert rendezvous_waiting(plan.command()[3:]) == (
        "tutor: node 1 of 2 (ranks 4-7), joining the rendezvous at node0:29500: waiting for node(s) 0; "
        "gives up after 10 s")
    assert rendezvous_waiting(LaunchPlan(program=Path("t.py"), nproc_per_node=2, run_dir=tmp_path).command()[3:]) is None


def test_a_rendezvous_timeout_reads_as_one_line_naming_the_missing_node(tmp_path):
    host = LaunchPlan(program=Path("t.py"), nproc_per_node=2, run_dir=tmp_path, nnodes=3, node_rank=0,
                      rdzv_endpoint="10.0.0.1:29500", timeout_s=10).torchrun_args()
    message = rendezvous_failure(RuntimeError("Timed out after 11 seconds waiting for clients. 2/3 clients joined."),
                                 host)
    assert message.startswith("tutor: node 0 of 3 gave up after 10 s: 1 node(s) never joined the rendezvous at "
                              "10.0.0.1:29500") and "each of nodes 1-2" in message
    guest = LaunchPlan(program=Path("t.py"), nproc_per_node=2, run_dir=tmp_path, nnodes=2, node_rank=1,
                       rdzv_endpoint="10.0.0.1:29500", timeout_s=10).torchrun_args()
    message = rendezvous_failure(RuntimeError("The client socket has failed to connect to 10.0.0.1:29500"), guest)
    assert "node 0 never answered at 10.0.0.1:29500" in message and "--node-rank 0" in message
    assert rendezvous_failure(ValueError("bad program"), guest) is None
    assert rendezvous_failure(RuntimeError("Timed out"), ["--nproc-per-node", "2", "--standalone"]) is None


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_two_nodes_on_loopback_node_rank_0_holds_rank_0_when_it_starts_last(tmp_path):
    port = free_port()
    evidence: dict[int, dict] = {}

    def run(node: int) -> None:
        evidence[node] = LabRun(node_spec(tmp_path, node, port, timeout_s=60)).run()

    second = threading.Thread(target=run, args=(1,))
    second.start()
    time.sleep(2.0)  # node 1 is waiting at the rendezvous before node 0 exists
    run(0)
    second.join(120)
    for node in (0, 1):
        assert evidence[node]["outcome"] == "ok", evidence[node]["summary"]
        [rank] = evidence[node]["ranks"]
        assert rank["metrics"]["global_rank"] == node and rank["metrics"]["group_rank"] == node
        assert rank["metrics"]["rank_sum"] == 1.0  # both ranks took part in one all-reduce
        assert leftovers(evidence[node]["run_dir"].rsplit("/", 1)[-1]) == []


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_node_started_alone_says_what_it_waits_for_and_gives_up_in_time(tmp_path):
    started = time.monotonic()
    evidence = LabRun(node_spec(tmp_path, 0, free_port(), timeout_s=3)).run()
    elapsed = time.monotonic() - started
    assert evidence["outcome"] == "crash" and evidence["ranks"] == []
    log = (Path(evidence["run_dir"]) / "launcher.log").read_text()
    assert "tutor: node 0 of 2 (rank 0), hosting the rendezvous at 127.0.0.1:" in log
    assert "waiting for node(s) 1; gives up after 3 s" in log
    assert "tutor: node 0 of 2 gave up after 3 s: 1 node(s) never joined the rendezvous" in log
    assert "Traceback" not in log
    # the rendezvous limit, plus the launcher's start (importing torch: ~10 s on a loaded 2-core machine),
    # far from torchrun's own 600 s
    assert elapsed < 60, elapsed
    assert leftovers(evidence["run_dir"].rsplit("/", 1)[-1]) == []
