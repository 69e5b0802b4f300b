"""Fast tests of the labs' core pieces (no torch, no launcher)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tutor.content.models.lab import DiagnosisItem
from tutor.errors import UserInputError
from tutor.labs import checks, procs, stacks
from tutor.labs.run_options import RunOptions, resolve
from tutor.labs.catalog import LabEntry, get_lab
from tutor.labs.diagnose import grade
from tutor.labs.events import EventTail, EventWriter
from tutor.labs.evidence import RankState, classify, parse_failures, summary
from tutor.labs.launch import LaunchPlan
from tutor.labs.watch import wait_for_change


def test_event_tail_returns_whole_lines_only_and_skips_torn_ones(tmp_path):
    writer = EventWriter(tmp_path, 0)
    writer.emit("step", step=0)
    path = tmp_path / "rank0.jsonl"
    tail = EventTail(path)
    assert [event["step"] for event in tail.read_new()] == [0]
    with open(path, "a") as handle:
        handle.write('{"ev": "step", "t": 1, "step": 1}\n{"ev": "st')  # a line cut by a kill
    assert [event["step"] for event in tail.read_new()] == [1]
    with open(path, "a") as handle:
        handle.write('ep", "t": 2, "step": 2}\nnot json\n')
    assert [event["step"] for event in tail.read_new()] == [2]
    assert EventWriter(None, 0).enabled is False


REPORT = """
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-11-29_10:16:19
  host      : localhost
  rank      : 1 (local_rank: 1)
  exitcode  : -15 (pid: 6419)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 6419
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-29_10:16:19
  host      : localhost
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 6418)
  error_file: <N/A>
============================================================
"""


def test_torchruns_failure_report_gives_exit_codes_and_the_root_cause():
    failures = parse_failures(REPORT.splitlines())
    assert failures["exit_codes"] == {1: -15, 0: 1}
    assert failures["root_cause"] == 0 and "Root Cause" in failures["report"]
    assert parse_failures(["all fine"]) == {"exit_codes": {}, "root_cause": None, "report": None}


def _ranks(*codes, exception=None, verify_ok=True) -> list[RankState]:
    ranks = []
    for rank, code in enumerate(codes):
        state = RankState(rank, pid=100 + rank, exit_code=code)
        state.verifies.append({"name": "out", "passed": verify_ok or rank, "detail": "max abs error 1"})
        ranks.append(state)
    if exception:
        ranks[-1].exception = {"type": "RuntimeError", "message": exception, "where": "train.py:9 in <module>"}
    return ranks


@pytest.mark.parametrize("ranks, kwargs, outcome", [
    (_ranks(0, 0), {}, "ok"),
    (_ranks(0, 0, verify_ok=False), {}, "wrong"),
    (_ranks(0, 1, exception="boom"), {}, "crash"),
    (_ranks(0, None), {}, "crash"),  # a rank that never reported its exit
    (_ranks(0, 1, exception="[gloo] Timed out waiting 8000ms for recv operation"), {}, "hang"),
    (_ranks(0, 0), {"hang": True}, "hang"),
    (_ranks(0, 0), {"cancelled": True}, "cancelled"),
    (_ranks(0, 0), {"over_time": True}, "slow"),
])
def test_outcome_is_decided_by_behaviour(ranks, kwargs, outcome):
    arguments = {"expected": 2, "launcher_rc": 0, "hang": False, "cancelled": False, "over_time": False, **kwargs}
    assert classify(ranks, **arguments) == outcome


def test_hang_summary_names_where_each_rank_waits():
    ranks = _ranks(None, None, None, None)
    for state in ranks:
        op = "all_gather" if state.rank == 0 else "all_reduce"
        state.feed({"ev": "coll", "t": 0, "seq": 7, "op": op, "site": "train.py:42 in save", "asynchronous": False})
    message = summary("hang", ranks, expected=4, quiet_s=10, failures={})["message"]
    assert message == ("no rank made progress for 10 s: rank 0 in all_gather (train.py:42 in save); "
                       "ranks 1-3 in all_reduce (train.py:42 in save)")


def test_launch_plan_single_node_and_multi_node(tmp_path):
    plan = LaunchPlan(program=tmp_path / "train.py", nproc_per_node=4, run_dir=tmp_path, timeout_s=10)
    command = plan.command()
    assert command[1:3] == ["-m", "tutor.labs.agent"] and "--standalone" in command
    assert command[-3:] == ["--module", "tutor.labs.rank", str(tmp_path / "train.py")]
    env = plan.env({})
    assert env["TUTOR_LAB_PG_TIMEOUT"] == "15" and env["TUTOR_LAB_RUN_DIR"] == str(tmp_path)
    assert env["TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE"] == "[rank${rank}]:"
    nodes = LaunchPlan(program=Path("t.py"), nproc_per_node=8, run_dir=tmp_path, nnodes=2, backend="nccl",
                       rdzv_endpoint="node0:29500")
    assert "--standalone" not in nodes.command() and "GLOO_SOCKET_IFNAME" not in nodes.env({})
    assert nodes.rank_env()["TORCH_NCCL_DUMP_ON_TIMEOUT"] == "1"
    printed = nodes.print_launch()
    assert printed.count("torchrun --nproc-per-node 8") == 2 and "--node-rank 0 " in printed and "--node-rank 1 " in printed


def test_options_are_checked_against_the_lab(tmp_path):
    entry = get_lab("tp-mlp")
    assert resolve(entry, RunOptions(backend="gloo")) == (4, "gloo", entry.lab.timeout_s)
    with pytest.raises(UserInputError, match="between 1 and 64"):
        resolve(entry, RunOptions(world_size=65))
    with pytest.raises(UserInputError, match="--node-rank"):
        resolve(entry, RunOptions(nnodes=2, node_rank=2, rdzv_endpoint="h:1"))
    gpu_lab = LabEntry("gpu", tmp_path, entry.lab.model_copy(update={"gpu_only": True}))
    with pytest.raises(UserInputError, match="needs CUDA GPUs"):
        resolve(gpu_lab, RunOptions(backend="gloo"))
    with pytest.raises(UserInputError, match="did you mean 'tp-mlp'"):
        get_lab("tp-mpl")


def test_lab_measurements_are_compared_with_the_engine():
    pytest.importorskip("sympy")
    inputs = {"seq": 16, "micro_batch": 2, "hidden": 64, "tp": 4, "pp": 4, "microbatches": 8,
              "params": 263168, "n_shard": 4}
    assert checks.engine_value("tp_values_per_layer", inputs) == 8 * 2 * 16 * 64 * 3 / 4
    assert checks.engine_value("bubble_fraction", inputs) == pytest.approx(3 / 8)
    with pytest.raises(checks.UnknownFormula):
        checks.engine_value("no_such_formula", inputs)
    with pytest.raises(checks.UnknownFormula):  # a subtracted formula is checked too
        checks.engine_value("zero1_bytes", inputs, ["no_such_formula"])
    assert checks.engine_value("zero1_bytes", inputs, ["weight_bytes", "grad_bytes"]) == 12 * 263168 / 4


ITEM = DiagnosisItem.model_validate({
    "id": "who", "prompt": {"en": "Which rank?", "zh": "哪个 rank?"}, "model_answer": {"en": "Rank 1.", "zh": "1号。"},
    "points": [{"id": "r", "text": {"en": "rank 1", "zh": "rank 1"}, "phrases": {"en": ["rank 1", "r1"], "zh": ["1号"]}}],
})


@pytest.mark.parametrize("answer, correct", [
    ("It is Rank 1.", True), ("r1 never arrives", True), ("1号没有进 collective", True), ("RANK  1", True),
    ("rank 10 is slow", False), ("r11", False), ("rank 0", False),
])
def test_diagnosis_grader_matches_phrasings_not_substrings(answer, correct):
    assert grade([ITEM], answer)["correct"] is correct


def test_watch_notices_a_saved_file(tmp_path):
    target = tmp_path / "train.py"
    target.write_text("a = 1\n")

    def save():
        time.sleep(0.3)
        target.write_text("a = 2\n")

    threading.Thread(target=save).start()
    assert wait_for_change(lambda: [target], poll_s=0.05) == [target]


SLEEPER = ("import faulthandler, signal, sys, time\n"
           "faulthandler.register(signal.SIGUSR1, file=open(sys.argv[1], 'w'), all_threads=True)\n"
           "def waiting_in_a_collective():\n    print('ready', flush=True)\n    time.sleep(60)\n"
           "waiting_in_a_collective()\n")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("tool", ["py-spy", "faulthandler"])
def test_stacks_of_a_blocked_process(tmp_path, monkeypatch, tool):
    if tool == "py-spy" and stacks.py_spy() is None:
        pytest.skip("py-spy is not installed")
    if tool == "faulthandler":
        monkeypatch.setattr(stacks, "py_spy", lambda: None)
    child = subprocess.Popen([sys.executable, "-c", SLEEPER, str(tmp_path / "rank0.stack.txt")],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        found = stacks.collect({0: child.pid}, tmp_path)
        text, source = found[0]
        assert source == tool and "waiting_in_a_collective" in text
    finally:
        child.kill()
        child.wait()


@pytest.mark.timeout(30)
def test_process_tree_is_found_and_killed_and_a_reused_pid_is_not_hit():
    shell = subprocess.Popen(["sh", "-c", "sleep 30 & sleep 30 & wait"], start_new_session=True)
    try:
        deadline = time.monotonic() + 5
        while len(procs.descendants(shell.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        tree = procs.descendants(shell.pid) | {procs.identify(shell.pid)}
        assert len(tree) == 3
        stale = procs.Proc(next(iter(tree)).pid, -1)  # same pid, another start time: not ours
        assert procs.kill_all({stale}) == 0
        assert procs.kill_all(tree, signal.SIGKILL) == 3
        shell.wait(5)
        deadline = time.monotonic() + 5
        while any(procs.is_alive(proc) for proc in tree) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(procs.is_alive(proc) for proc in tree)
    finally:
        if shell.poll() is None:
            os.killpg(shell.pid, signal.SIGKILL)


def test_every_shipped_lab_loads_with_its_files(tmp_path):
    from tutor.content import load
    from tutor.content.validate import check_labs

    content = load()
    assert {"tp-mlp", "dp-overlap", "pp-1f1b", "zero1-memory"} <= set(content.labs)
    assert list(check_labs(content)) == []
    for name in ("tp-mlp", "dp-overlap", "pp-1f1b", "zero1-memory"):
        entry = get_lab(name)
        assert entry.checker.is_file() and entry.world_sizes == [2, 4]
        shipped, solution = entry.program.read_text(), entry.solution.read_text()
        assert "TODO" in shipped and "TODO" not in solution
        docstring = shipped.split('"""')[1]
        assert "torchrun --nproc-per-node" in docstring and "What to observe" in docstring


@pytest.mark.timeout(60)
def test_a_finished_rank_leaves_without_the_interpreters_teardown(tmp_path):
    """gloo's work objects freed during finalization abort about one exit in ten on torch 2.13
    ("terminate called without an active exception"); a rank whose program finished therefore
    exits at once: atexit handlers do not run, output is flushed, the code is 0. A program that
    exits non-zero still exits the usual way, with its code."""
    program = tmp_path / "prog.py"
    program.write_text("import atexit, sys\natexit.register(lambda: print('TEARDOWN'))\n"
                       "print('body', end='')\nsys.exit(int(sys.argv[1]))\n")
    env = {key: value for key, value in os.environ.items() if key not in ("RANK", "WORLD_SIZE")}
    for code, teardown in ((0, False), (3, True)):
        done = subprocess.run([sys.executable, "-m", "tutor.labs.rank", str(program), str(code)], env=env,
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == code, done.stderr
        assert done.stdout.startswith("body") and ("TEARDOWN" in done.stdout) == teardown
    program.write_text("import atexit\natexit.register(lambda: print('TEARDOWN'))\nprint('end of program')\n")
    done = subprocess.run([sys.executable, "-m", "tutor.labs.rank", str(program)], env=env,
                          capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "end of program\n"), done.stderr


def test_without_torch_a_run_is_refused_in_one_line_not_reported_as_a_crash(monkeypatch, capsys, tmp_path):
    import importlib.util

    from tutor.cli import main
    from tutor.errors import TutorError
    from tutor.labs.runner import LabRun
    from tutor.labs.runspec import RunSpec

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "torch" else real(name, *rest))
    with pytest.raises(TutorError, match="the labs need PyTorch"):
        LabRun(RunSpec(lab="tp-mlp", program=tmp_path / "train.py", world_size=2))
    assert main(["lab", "run", "tp-mlp"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install torch==2.13.0 '.[labs]'" in err


def test_a_crash_under_check_is_placed_at_the_learners_line_not_the_checkers(tmp_path, monkeypatch):
    # Findings D11: "OutOfMemoryError … at check.py:34 in main" instead of train.py's line.
    import importlib.util

    from tutor.labs.rank.boot import _where

    (tmp_path / "home").mkdir()
    (tmp_path / "lab").mkdir()
    learner = tmp_path / "home" / "train.py"
    learner.write_text("def sync():\n    raise RuntimeError('boom')\n")
    checker = tmp_path / "lab" / "check.py"
    checker.write_text(f"import importlib.util\nspec = importlib.util.spec_from_file_location('p', {str(learner)!r})\n"
                       "program = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(program)\n\n\n"
                       "def main():\n    program.sync()\n")
    spec = importlib.util.spec_from_file_location("chk", checker)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("TUTOR_LAB_PROGRAM", str(learner))
    try:
        module.main()
    except RuntimeError as error:
        assert _where(error, str(checker)) == "train.py:2 in sync"
        monkeypatch.delenv("TUTOR_LAB_PROGRAM")
        assert _where(error, str(checker)) == "check.py:8 in main"
