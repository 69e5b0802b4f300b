"""Every hang lab both ways on CPU with gloo (issue 8, DESIGN §2.4).

As shipped, the check's run hangs or crashes within the no-progress limit + 5 s, with a stack
for every rank, and nothing is left running; a hang ends with the process-group timeout's
error (gloo's send/recv excepted), the ranks under DDP waiting at the end of `backward`; the reference solution passes every check,
including what the bug sat inside (the checkpoint, the early stop, the tied embedding ...).

The seven solutions run in one job with the hang labs' cheats that are caught in an `ok` run
(test_lab_cheats.py), each through its lab checker's own `main()` (tests/labs/several.py); a
shipped program ends its run, so each has a run of its own: a check run, but collective-order's
is the command-line test's `tutor lab run` (one launch fewer: the same program, ranks and timeout).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.helpers import run_tutor
from tests.labs import several
from tests.labs.conftest import leftovers
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab
from tutor.labs.events import read_all
from tutor.labs.launch import WATCHDOG_MARGIN_S

pytestmark = pytest.mark.slow
TIMEOUT_S = 3.0
CRASH_TIMEOUT_S = 10.0
# lab -> (outcome as shipped, a check only the fixed program passes)
LABS = {
    "checkpoint-rank0": ("hang", "checkpoint holds every rank's data position"),
    "pp-sendrecv": ("hang", "the tied embedding trains from --unfreeze-at"),
    "crashed-rank": ("crash", "rank 0 still reports the token accuracy"),
    "long-batch": ("crash", "the long document is still trained on"),
    "uneven-batches": ("hang", "the epoch still covers the data"),
    "diverging-control-flow": ("hang", "every rank stops at the same step, before its update"),
    "collective-order": ("hang", "the learning rate follows the job's tokens"),
}


# gloo's send and recv wait without the process-group timeout; the watchdog ends that hang
UNTIMED = {"pp-sendrecv"}
# labs where, as shipped at 2 ranks, a rank waits for DDP's gradient all-reduce
DDP_WAITS = {"checkpoint-rank0", "diverging-control-flow", "long-batch", "uneven-batches"}


def _last_activity(run_dir: Path) -> float:
    """When the last rank last did something (entered a collective, stepped, or raised)."""
    times = [event["t"] for path in run_dir.glob("rank*.jsonl") for event in read_all(path)
             if event["ev"] in ("coll", "step", "exception")]
    return max(times)


assert set(LABS) == set(several.HANG_LABS)


# collective-order's shipped run is test_run_evidence_diagnose_and_a_detail_rerun_from_the_command_line's
BY_THE_CLI = "collective-order"


def assert_shipped_run(name: str, evidence: dict, timeout_s: float, finished: float, lab_jobs) -> None:
    """The shipped program's run hung or crashed as the lab says, with every rank's stack, within
    the limit, leaving nothing running; the solution passed in the shared job."""
    outcome, kept = LABS[name]
    assert evidence["outcome"] == outcome, evidence["summary"]
    # the timeout (or the watchdog, margin later) fires within timeout_s of the last activity, then
    # the ranks leave through torchrun's failure path: seconds on two loaded cores
    assert finished - _last_activity(Path(evidence["run_dir"])) <= timeout_s + WATCHDOG_MARGIN_S + 8.0
    assert all(rank["stack"] for rank in evidence["ranks"]), [r["stack_source"] for r in evidence["ranks"]]
    assert len(evidence["ranks"]) == 2
    if outcome == "hang" and name not in UNTIMED:  # the first sign, as on a cluster: the timeout's error
        message = evidence["summary"]["message"]
        assert message.startswith("the process-group timeout fired (rank ") and "Timed out" in message, message
    if name in DDP_WAITS:  # DDP's all-reduce is waited for at the end of backward, not in a Python all_reduce:
        # torch's autograd frames under the learner's line (py-spy's and a traceback's both name the file)
        waiting = [rank for rank in evidence["ranks"] if "torch/autograd/" in (rank["stack"] or "")]
        assert waiting and all("_average_gradients" not in (rank["stack"] or "") for rank in evidence["ranks"])
    assert all("tutor/labs/" not in (rank["stack"] or "") for rank in evidence["ranks"])  # docs/labs.md, "Code the labs share"

    assert leftovers(evidence["run_dir"].rsplit("/", 1)[-1]) == []

    names, failed = several.of(lab_jobs.get(several.HANG_JOB), name)  # outcome ok, nothing left running
    assert not failed, failed
    assert kept in names and "weights equal a one-process replay of every rank's batches" in names


@pytest.mark.timeout(600)  # the first test also runs the solutions' shared job (~2-4 min on two loaded cores)
@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.xdist_group(several.xdist_group(several.HANG_JOB)))
                                  for name in sorted(set(LABS) - {BY_THE_CLI})])
def test_shipped_hangs_or_crashes_with_every_ranks_stack_and_the_solution_passes(name, tmp_path, lab_jobs):
    entry = get_lab(name)
    # A crash needs no watchdog: a longer limit there keeps a slow step on a loaded machine from
    # reading as a hang (crashed-rank did, at 3 s, with three workers on two cores).
    timeout_s = TIMEOUT_S if LABS[name][0] == "hang" else CRASH_TIMEOUT_S
    shipped = check_lab(entry, program=entry.program, world_size=2, timeout_s=timeout_s, run_root=tmp_path / "shipped")
    assert not shipped["passed"]
    assert_shipped_run(name, shipped["evidence"], timeout_s, time.time(), lab_jobs)


@pytest.mark.timeout(600)  # two lab runs and six CLI calls: ~50 s on two idle cores (and the shared job if first)
@pytest.mark.xdist_group(several.xdist_group(several.HANG_JOB))
def test_run_evidence_diagnose_and_a_detail_rerun_from_the_command_line(tutor_home, lab_jobs):
    run = run_tutor("lab", "run", BY_THE_CLI, "--world-size", "2", "--timeout", str(TIMEOUT_S), "--json", timeout=120)
    assert_shipped_run(BY_THE_CLI, json.loads(run.stdout), TIMEOUT_S, time.time(), lab_jobs)
    assert run.returncode == 1  # the job hung: a script can tell
    before = run_tutor("lab", "evidence", "collective-order", "--json")
    shown = json.loads(before.stdout)
    assert shown["first_divergence"] is None
    assert [stack["waiting_in"] for stack in shown["stacks"]] == ["broadcast", "all_gather"]
    assert "sync_schedule (train.py:" in shown["stacks"][0]["frames"][0]
    assert all("train.py:" in frame for stack in shown["stacks"] for frame in stack["frames"]), shown["stacks"]
    wrong = json.loads(run_tutor("lab", "diagnose", "collective-order", "rank 1 waits in broadcast", "--json").stdout)
    assert wrong["correct"] is False
    right = run_tutor("lab", "diagnose", "collective-order", "r0 卡在 broadcast,1号卡在 all_gather;两个分支的调用顺序不一样,"
                      "改成同样的顺序:先 gather 再 broadcast", "--json")
    assert json.loads(right.stdout)["correct"] is True
    after = json.loads(run_tutor("lab", "evidence", "collective-order", "--json", "--fr").stdout)
    assert "rank 0 calls broadcast[1] root 0" in after["first_divergence"]["text"]["en"]
    assert "COLLECTIVE_TYPE_MISMATCH" in after["flight_recorder"]["output"]
    detail = run_tutor("lab", "run", "collective-order", "--world-size", "2", "--timeout", "3", "--debug", "detail",
                       "--json", timeout=120)
    evidence = json.loads(detail.stdout)
    assert evidence["outcome"] == "crash" and "Detected mismatch between collectives" in evidence["summary"]["message"]
    again = json.loads(run_tutor("lab", "diagnose", "collective-order", "rank 0 in broadcast, rank 1 in all_gather: the "
                                 "order differs; use the same order", "--json").stdout)
    assert again["correct"] is True  # graded against the run as it is, not the debug rerun


@pytest.mark.timeout(120)
def test_a_mystery_runs_unnamed_then_is_graded_and_revealed(tutor_home):
    from tutor.labs import mystery

    # The first draw of 2 ranks whose hang the process-group timeout ends, at a first divergence of the
    # collectives (seed 5 drew pp-sendrecv at 4 ranks: twice the ranks, and the watchdog waited for:
    # 33 s); the draws themselves are tested in test_hang_units.
    diverging = {"busy-rank", "collective-order", "diverging-control-flow", "uneven-batches", "checkpoint-rank0"}
    seed = next(seed for seed in range(100) if mystery.draw(seed).world_size == 2 and mystery.draw(seed).lab in diverging)
    first = run_tutor("lab", "mystery", "--seed", str(seed), "--timeout", "3", "--json", timeout=110)
    shown = json.loads(first.stdout)

    case = mystery.draw(seed)
    assert shown["mystery"]["world_size"] == case.world_size and case.lab not in first.stdout
    assert shown["evidence"]["outcome"] in ("hang", "crash") and shown["evidence"]["first_divergence"] is None
    early = run_tutor("lab", "mystery", "--reveal")
    assert early.returncode == 2 and "answer first" in early.stderr
    graded = json.loads(run_tutor("lab", "mystery", "--answer", "the network is slow", "--reveal", "--json").stdout)
    assert graded["verdict"]["correct"] is False and graded["reveal"]["lab"] == case.lab
    assert graded["evidence"]["first_divergence"] is not None
