"""The hang tools without processes: views of evidence, the run-aware diagnosis grader, mystery draws."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutor.labs import hangtools, hangview, mystery
from tutor.labs.catalog import get_lab
from tutor.labs.hangfacts import facts
from tutor.labs.run_diagnosis import clauses, grade_run
from tutor.labs.hangreport import text, view

ROOT = Path(__file__).resolve().parents[2]
PY_SPY = """Process 101: python -m tutor.labs.rank train.py
Thread 101 (idle): "MainThread"
    all_gather (torch/distributed/distributed_c10d.py:4287)
    recorded (tutor/labs/rank/recorder.py:84)
    data_positions (train.py:42)
    save_checkpoint (train.py:48)
    main (train.py:69)
    <module> (train.py:77)
Thread 105 (idle): "tutor-lab-dumps"
    _wait_for_request (tutor/labs/rank/dumps.py:43)
"""
BACKWARD = """Thread 102 (idle): "MainThread"
    all_reduce (torch/distributed/distributed_c10d.py:3252)
    _average_gradients (tutor/labs/rank/training.py:235)
    Trainer.backward (tutor/labs/rank/training.py:313)
    Trainer.train_step (tutor/labs/rank/training.py:331)
    main (train.py:65)
"""
TRACEBACK = """Traceback (most recent call last):
  File "/home/u/labs/07-crashed-rank/train.py", line 56, in main
    loss = trainer.train_step(step, batch)
  File "/x/tutor/labs/rank/memory.py", line 53, in allocate
    raise torch.OutOfMemoryError(
torch.OutOfMemoryError: CUDA out of memory (simulated).
"""


def _coll(seq, op, site, shape=(4,), peer=None, done=True):
    events = [{"ev": "coll", "t": seq, "seq": seq, "op": op, "shape": list(shape), "group": None, "peer": peer,
               "site": site, "asynchronous": False}]
    return events + ([{"ev": "coll_end", "t": seq + 0.5, "seq": seq, "dt": 0.1, "error": None}] if done else [])


def _run_dir(tmp_path, per_rank: dict[int, list[dict]]) -> Path:
    for rank, events in per_rank.items():
        (tmp_path / f"rank{rank}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return tmp_path


def _evidence(run_dir, outcome="hang", stacks=None, pending=None, exceptions=None, first_failure=None,
              at_failure=None, world=4):
    ranks = []
    for rank in range(world):
        ranks.append({"rank": rank, "pid": 100 + rank, "exit_code": None, "last_step": 5,
                      "stack": (stacks or {}).get(rank), "stack_source": "py-spy", "collectives": [],
                      "pending": (pending or {}).get(rank), "exception": (exceptions or {}).get(rank)})
    return {"lab": "demo", "outcome": outcome, "world_size": world, "run_dir": str(run_dir), "ranks": ranks,
            "summary": {"message": "stuck", "first_failure": first_failure}, "at_failure": at_failure or {},
            "launcher": {}}


@pytest.fixture
def checkpoint_hang(tmp_path):
    step = [_coll(i, "all_reduce", "train.py:65 in main", (12544,)) for i in range(1, 5)]
    done = [event for events in step for event in events]
    run_dir = _run_dir(tmp_path, {
        0: done + _coll(5, "all_gather", "train.py:42 in data_positions", (1,), done=False),
        **{rank: done + _coll(5, "all_reduce", "train.py:65 in main", (12544,), done=False) for rank in (1, 2, 3)}})
    pending = {0: {"op": "all_gather", "site": "train.py:42 in data_positions"},
               **{rank: {"op": "all_reduce", "site": "train.py:65 in main"} for rank in (1, 2, 3)}}
    return _evidence(run_dir, stacks={0: PY_SPY, 1: BACKWARD, 2: BACKWARD, 3: BACKWARD}, pending=pending)


def test_stack_frames_are_the_programs_own_innermost_first():
    frames = [str(frame) for frame in hangview.program_frames(PY_SPY)]
    assert frames == ["data_positions (train.py:42)", "save_checkpoint (train.py:48)", "main (train.py:69)",
                      "<module> (train.py:77)"]
    # the tutor's plumbing (tutor/labs/rank: the hang labs' Trainer, the replay check, the simulated
    # GPU memory) is not the learner's: the innermost frame shown is the learner's line that called it
    assert [str(f) for f in hangview.program_frames(BACKWARD)] == ["main (train.py:65)"]
    assert [str(f) for f in hangview.program_frames(TRACEBACK)] == ["main (train.py:56)"]


LEARNER_PY_SPY = """Process 102: python -m tutor.labs.rank train.py
Thread 102 (idle): "MainThread"
    _engine_run_backward (/v/site-packages/torch/autograd/graph.py:979)
    backward (/v/site-packages/torch/_tensor.py:623)
    Trainer.backward (/w/tutor/labs/rank/training.py:319)
    Trainer.train_step (/w/tutor/labs/rank/training.py:337)
    main (/ws/busy-rank/train.py:93)
    <module> (/ws/busy-rank/train.py:102)
    _run_code (<frozen runpy>:88)
    run_path (<frozen runpy>:291)
    main (/w/tutor/labs/rank/boot.py:38)
    <module> (/w/tutor/labs/rank/__main__.py:7)
Thread 105 (idle): "tutor-lab-dumps"
    _wait_for_request (/w/tutor/labs/rank/dumps.py:43)
    run (/usr/lib/python3.11/threading.py:975)
"""
FAULTHANDLER = """Current thread 0x00007f (most recent call first):
  File "/v/site-packages/torch/_tensor.py", line 623 in backward
  File "/w/tutor/labs/rank/training.py", line 319 in backward
  File "/ws/busy-rank/train.py", line 93 in main
"""
TUTOR_TRACEBACK = """Traceback (most recent call last):
  File "/w/tutor/labs/rank/boot.py", line 38, in main
    runpy.run_path(program, run_name="__main__")
  File "/ws/crashed-rank/train.py", line 56, in main
    loss = trainer.train_step(step, batch)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/w/tutor/labs/rank/training.py", line 337, in train_step
    self.backward(loss)
  File "/v/site-packages/torch/_tensor.py", line 623, in backward
    torch.autograd.backward(
RuntimeError: Timed out
"""


def test_stacks_the_learner_reads_hold_their_own_frames_and_torchs_not_the_tutors():
    """docs/labs.md, "Code the labs share": every stack kept for a run (py-spy, faulthandler, a
    traceback) loses the tutor's frames; the learner's line is the innermost non-torch frame."""
    py_spy = hangview.learner_stack(LEARNER_PY_SPY)
    assert "tutor/labs/" not in py_spy and "backward (/v/site-packages/torch/_tensor.py:623)" in py_spy
    assert "main (/ws/busy-rank/train.py:93)" in py_spy and 'Thread 105 (idle): "tutor-lab-dumps"' in py_spy
    assert [str(f) for f in hangview.program_frames(py_spy)] == ["main (train.py:93)", "<module> (train.py:102)"]
    assert hangview.thread_state(py_spy) == "idle"
    assert hangview.learner_stack(FAULTHANDLER).splitlines() == [
        "Current thread 0x00007f (most recent call first):", '  File "/v/site-packages/torch/_tensor.py", line 623 in backward',
        '  File "/ws/busy-rank/train.py", line 93 in main']
    traceback = hangview.learner_stack(TUTOR_TRACEBACK)
    assert traceback.splitlines() == [
        "Traceback (most recent call last):", '  File "/ws/crashed-rank/train.py", line 56, in main',
        "    loss = trainer.train_step(step, batch)", "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "/v/site-packages/torch/_tensor.py", line 623, in backward', "    torch.autograd.backward(",
        "RuntimeError: Timed out"]
    assert [str(f) for f in hangview.program_frames(traceback)] == ["main (train.py:56)"]
    assert hangview.learner_stack(None) is None and hangview.learner_stack(PY_SPY.replace("tutor/", "")) == \
        PY_SPY.replace("tutor/", "")


def test_collectives_line_up_by_position_and_the_first_divergence_is_found(checkpoint_hang):
    timeline = hangview.timeline(checkpoint_hang)
    divergence = hangview.first_divergence(timeline)
    assert divergence.kind == "collective" and divergence.position == 4
    assert divergence.by_rank[0].op == "all_gather" and {divergence.by_rank[r].op for r in (1, 2, 3)} == {"all_reduce"}
    assert divergence.text.en == ("rank 0 calls all_gather[1] (train.py:42 in data_positions); "
                                     "ranks 1-3 call all_reduce[12544] (train.py:65 in main)")


def test_the_divergence_is_shown_only_once_answered(checkpoint_hang):
    hidden = view(checkpoint_hang, reveal=False)
    assert hidden["first_divergence"] is None and not any(row["diverges"] for row in hidden["collectives"])
    assert "marked once you have answered" in "\n".join(text(hidden, "demo"))
    shown = view(checkpoint_hang, reveal=True)
    assert shown["collectives"][-1]["diverges"] and shown["collectives"][-1]["position"] == 4
    lines = "\n".join(text(shown, "demo", "zh"))
    assert "← 第一个分歧" in lines and "data_positions (train.py:42)" in lines


def test_receives_that_no_send_meets_are_the_pipelines_divergence(tmp_path):
    pairs = [event for i in range(1, 4) for event in _coll(i, "send", "train.py:80 in step", peer=1)]
    answers = [event for i in range(1, 4) for event in _coll(i, "recv", "train.py:70 in step", peer=0)]
    run_dir = _run_dir(tmp_path, {0: pairs + _coll(4, "recv", "train.py:109 in sync", peer=1, done=False),
                                  1: answers + _coll(4, "recv", "train.py:109 in sync", peer=0, done=False)})
    divergence = hangview.first_divergence(hangview.timeline(_evidence(run_dir, world=2)))
    assert divergence.kind == "p2p"
    assert "rank 0 waits in recv[4]←1" in divergence.text.en and "rank 1 waits in recv[4]←0" in divergence.text.en


@pytest.mark.parametrize("answer, correct", [
    ("Rank 0 is stuck in all_gather inside save_checkpoint under if rank == 0: only rank 0 calls it. "
     "The other ranks wait in the gradient all-reduce.", True),
    ("r0 waits in an allgather (data_positions, called under `if ctx.rank == 0`), only rank 0 ever calls it; "
     "ranks 1-3 sit in all_reduce", True),
    ("0号卡在 save_checkpoint 的 all_gather 里,只有 rank 0 调用;其他 rank 停在 all_reduce。", True),
    ("rank 0 waits in all_reduce, ranks 1-3 in all_gather: only rank 0 calls it in save_checkpoint", False),
    ("rank 1 is stuck in all_gather in save_checkpoint; only rank 1 calls it", False),
    ("rank 10 waits in all_gather in save_checkpoint, only rank 0 calls it", False),
    ("the network is slow", False),
])
def test_diagnosis_of_a_run_accepts_phrasings_and_rejects_wrong_ones(checkpoint_hang, answer, correct):
    items = list(get_lab("checkpoint-rank0").lab.diagnosis)
    verdict = grade_run(items, answer, checkpoint_hang)
    assert verdict["correct"] is correct, verdict["feedback"]


def test_a_crash_is_diagnosed_by_its_first_failure(tmp_path):
    evidence = _evidence(tmp_path, outcome="crash", world=4, first_failure=2,
                         stacks={2: TRACEBACK, 0: BACKWARD, 1: BACKWARD, 3: BACKWARD},
                         exceptions={2: {"type": "OutOfMemoryError", "message": "CUDA out of memory (simulated)"}},
                         at_failure={str(r): {"op": "all_reduce", "site": "train.py:56 in main"} for r in (0, 1, 3)})
    found = facts(evidence)
    assert found.failed == 2 and [g.ranks for g in found.groups] == [[0, 1, 3]]
    assert grade_run([], "Rank 2 ran out of memory; the others waited in all_reduce.", evidence)["correct"]
    assert grade_run([], "2号 OOM 挂了,其余 rank 在 all_reduce 里等", evidence)["correct"]
    assert not grade_run([], "Rank 0 ran out of memory; rank 2 waited in all_reduce.", evidence)["correct"]


def test_the_places_in_the_shared_loop_are_still_named_from_a_stack_without_the_tutors_frames(tmp_path):
    """A run's stacks no longer show Trainer.backward / Trainer.finish / the rank runner's exit
    (docs/labs.md, "Code the labs share"); the grader names those places from torch's autograd
    frames, the recorder's `via` and a main thread joining at exit, as it did from the old frames."""
    finishing = {"op": "all_gather", "site": "train.py:60 in main",
                 "via": ["gather_to_first", "check_weights", "check_run", "Trainer.finish"]}
    at_exit = ('Thread 300 (idle): "MainThread"\n    _wait_for_tstate_lock (/usr/lib/python3.11/threading.py:1119)\n'
               "    join (/usr/lib/python3.11/threading.py:1112)\n    _run_code (<frozen runpy>:88)\n"
               'Thread 301 (idle): "checkpoint-uploader"\n    get (/usr/lib/python3.11/queue.py:171)\n'
               "    Uploader._run (/ws/exit-hang/train.py:44)\n")
    stacks = {0: hangview.learner_stack(LEARNER_PY_SPY), 1: "Thread 1 (idle): \"MainThread\"\n"
              "    all_gather (/v/site-packages/torch/distributed/distributed_c10d.py:4287)\n    main (/ws/train.py:60)\n",
              2: at_exit}
    evidence = _evidence(tmp_path, stacks=stacks, world=3,
                         pending={0: {"op": "all_reduce", "site": "train.py:93 in main", "via": ["Trainer.train_step"]},
                                  1: finishing})
    places = {tuple(group.ranks): set(group.funcs) for group in facts(evidence).groups}
    assert places == {(0,): {"backward"}, (1,): {"finish", "end of training"}, (2,): {"waits for a thread at exit"}}
    for stack in stacks.values():
        assert "tutor/labs" not in stack


def test_clauses_carry_the_rank_to_the_clause_that_says_where_it_is():
    assert clauses("rank 0, which is in save_checkpoint, waits in all_gather") == [
        "rank 0 which is in save_checkpoint waits in all_gather"]
    assert clauses("rank 0 waits in all_reduce, ranks 1-3 in all_gather") == [
        "rank 0 waits in all_reduce", "ranks 1-3 in all_gather"]


def test_torchruns_error_files_are_read_first_failure_first(tmp_path):
    for local, (stamp, message) in enumerate([(20, "RuntimeError: Connection closed by peer"),
                                              (10, "OutOfMemoryError: CUDA out of memory")]):
        folder = tmp_path / "torchrun" / "abc_1" / "attempt_0" / str(local)
        folder.mkdir(parents=True)
        (folder / "error.json").write_text(json.dumps(
            {"message": {"message": message + "\nmore", "extraInfo": {"timestamp": str(stamp)}}}))
    found = hangtools.error_files({"run_dir": str(tmp_path), "ranks": [{"pid": 1}, {"pid": 2}]})
    assert [(item["rank"], item["message"]) for item in found] == [
        (1, "OutOfMemoryError: CUDA out of memory"), (0, "RuntimeError: Connection closed by peer")]


def test_debug_reruns_set_torchs_switches_and_the_labs_barrier():
    assert hangtools.debug_env("detail", 10) == {"TORCH_DISTRIBUTED_DEBUG": "DETAIL", "TORCH_CPP_LOG_LEVEL": "INFO"}
    assert hangtools.debug_env("barrier", 10) == {hangtools.MONITORED_BARRIER_ENV: "5"}
    training = (ROOT / "tutor" / "labs" / "rank" / "training.py").read_text()
    assert re.search(rf'MONITORED_BARRIER_ENV = "{hangtools.MONITORED_BARRIER_ENV}"', training)


def test_mystery_draws_every_scenario_unnamed_with_its_knob_varied(tutor_home):
    cases = [mystery.draw(seed) for seed in range(60)]
    assert {case.lab for case in cases} == set(mystery.scenarios())
    assert len(mystery.scenarios()) >= 7 and {case.world_size for case in cases} == {2, 3, 4}
    assert mystery.draw(7) == mystery.draw(7)
    for case in cases:
        entry = get_lab(case.lab)
        for key, (low, high) in ((k, v) for k, v in entry.lab.check.items() if k.startswith("vary ")):
            flag = key.split(" ", 1)[1]
            assert low <= int(case.args[case.args.index(flag) + 1]) <= high
        assert case.lab not in json.dumps(case.public())
        # Issue 19: each lab's flags (--save-every, --filter-step…) named the scenario.
        assert "--" not in json.dumps(case.public())
    spec = mystery.spec(cases[0])
    assert spec.lab == "mystery" and cases[0].lab not in str(spec.program)
    assert spec.program.read_text() == mystery.neutral_program(cases[0]).source
    assert all(arg == "--steps" or not arg.startswith("--") for arg in spec.args)


def test_a_hang_lab_times_out_before_the_watchdog_and_other_labs_the_other_way_round(tmp_path):
    from tutor.labs.launch import PG_TIMEOUT_MARGIN_S, WATCHDOG_MARGIN_S, LaunchPlan

    hang = LaunchPlan(program=tmp_path / "train.py", nproc_per_node=2, run_dir=tmp_path, timeout_s=3, timeout_first=True)
    assert hang.pg_timeout_s == 3 and hang.watchdog_s == 3 + WATCHDOG_MARGIN_S
    assert hang.env({})["TUTOR_LAB_PG_TIMEOUT"] == "3"
    other = LaunchPlan(program=tmp_path / "train.py", nproc_per_node=2, run_dir=tmp_path, timeout_s=3)
    assert other.pg_timeout_s == 3 + PG_TIMEOUT_MARGIN_S and other.watchdog_s == 3


def test_a_hang_the_timeout_ended_says_where_each_rank_raised():
    from tutor.labs.evidence import RankState, summary

    ranks = [RankState(0), RankState(1)]
    for state, op, site in ((ranks[0], "all_gather", "train.py:42 in data_positions"), (ranks[1], "all_reduce", "train.py:65 in main")):
        state.feed({"ev": "coll", "seq": 1, "op": op, "site": site, "asynchronous": op == "all_reduce"})
        state.feed({"ev": "coll_end", "seq": 1, "error": "RuntimeError: Timed out waiting 3000ms"})
    ranks[1].feed({"ev": "exception", "type": "RuntimeError", "where": "train.py:65 in main",
                   "message": "Timed out waiting 3000ms for recv operation to complete"})
    message = summary("hang", ranks, expected=2, quiet_s=None, failures={})["message"]
    assert message == ("the process-group timeout fired (rank 1: Timed out waiting 3000ms for recv operation to complete "
                       "at train.py:65 in main): rank 0 in all_gather (train.py:42 in data_positions); "
                       "rank 1 in all_reduce (train.py:65 in main)")


def test_the_timeout_leads_even_when_the_watchdog_ended_the_run_after_it():
    """A rank busy outside any collective outlives its peers' timeouts; the watchdog then ends the run."""
    from tutor.labs.evidence import RankState, summary

    waiting, busy = RankState(0), RankState(1)
    waiting.feed({"ev": "coll", "seq": 6, "op": "all_reduce", "site": "train.py:93 in main", "asynchronous": True})
    waiting.feed({"ev": "coll_end", "seq": 6, "error": "RuntimeError: Timed out"})
    waiting.feed({"ev": "exception", "type": "RuntimeError", "where": "train.py:93 in main",
                  "message": "Timed out waiting 3000ms for recv operation to complete"})
    message = summary("hang", [waiting, busy], expected=2, quiet_s=5.0, failures={})["message"]
    assert message.startswith("the process-group timeout fired (rank 0: Timed out waiting 3000ms"), message
    assert message.endswith("rank 0 in all_reduce (train.py:93 in main); rank 1 outside any collective"), message


def test_an_async_all_reduce_is_done_when_its_future_completes_as_ddp_waits_for_it():
    """DDP's comm hook chains on `work.get_future()` and never calls `wait()`: the recorder must
    close the entry from the future, or every gradient all-reduce would read as pending for ever."""
    torch = pytest.importorskip("torch")
    from tutor.labs.rank.recorder import Recorder, _RecordedWork

    class Session:
        events: list = []

        def emit(self, kind, **fields):
            self.events.append((kind, fields))

    class Work:
        def __init__(self):
            self.future = torch.futures.Future()

        def get_future(self):
            return self.future

    recorder = Recorder(Session())
    works = []
    for seq in (1, 2):
        entry = {"seq": seq, "t0": 0.0, "state": "issued"}
        works.append(_RecordedWork(Work(), recorder, entry))
    futures = [work.get_future() for work in works]
    assert recorder.session.events == []  # issued, not done
    futures[0].set_result([torch.zeros(1)])
    futures[1].set_exception(RuntimeError("Timed out waiting 3000ms for recv operation to complete"))
    ends = [(fields["seq"], fields["error"]) for kind, fields in recorder.session.events if kind == "coll_end"]
    assert ends == [(1, None), (2, "RuntimeError: Timed out waiting 3000ms for recv operation to complete")]


def test_a_ranks_child_processes_are_split_off_its_py_spy_dump():
    dump = ("Process 100: python -m tutor.labs.rank train.py\nPython v3.11.7\n\n"
            'Thread 100 (idle): "MainThread"\n'
            "    Queue.get (multiprocessing/queues.py:113)\n"
            "    _MultiProcessingDataLoaderIter._next_data (torch/utils/data/dataloader.py:1505)\n"
            "    main (train.py:127)\n\n"
            "Process 200: python -m tutor.labs.rank train.py\nPython v3.11.7\nParent Process 100: python\n\n"
            'Thread 200 (idle): "MainThread"\n'
            "    TokenCache.encode (train.py:54)\n"
            "    Documents.__getitem__ (train.py:89)\n"
            "    _worker_loop (torch/utils/data/_utils/worker.py:351)\n")
    assert [str(frame) for frame in hangview.program_frames(dump)] == ["main (train.py:127)"]
    assert hangview.thread_state(dump) == "idle" and hangview.thread_state(dump.replace("(idle)", "(active+gil)", 1)) == "active+gil"
    assert [(pid, [str(f) for f in frames]) for pid, frames in hangview.child_stacks(dump)] == [
        (200, ["TokenCache.encode (train.py:54)", "Documents.__getitem__ (train.py:89)"])]
    evidence = {"outcome": "hang", "world_size": 2, "summary": {}, "ranks": [
        {"rank": 0, "stack": dump, "collectives": [], "pending": None},
        {"rank": 1, "stack": "", "collectives": [{"seq": 1, "op": "all_reduce", "site": "train.py:127 in main",
                                                  "state": "failed"}], "pending": None}]}
    found = facts(evidence)
    loader = next(group for group in found.groups if group.ranks == [0])
    assert loader.op is None and "data loader" in loader.funcs  # placed in its DataLoader, outside any collective


def test_a_rank_that_only_lost_its_peer_is_not_the_first_failure_of_an_abort():
    """gather-sizes on a loaded machine: rank 1 aborts in C++ (no traceback), rank 0 then raises gloo's
    "remote worker" error, and torchrun, stamping the raise first, names rank 0 as the root cause."""
    from tutor.labs.evidence import RankState, summary

    lost, aborted = RankState(0), RankState(1)
    lost.feed({"ev": "exception", "type": "RuntimeError", "where": "train.py:62 in gather_losses",
               "message": "[pair.cc:534] Connection closed by peer [127.0.0.1]:4242. This is typically caused by a "
                          "remote worker crashing. Check the logs of the remote worker before reporting an error."})
    failures = {"root_cause": 0, "exit_codes": {0: 1, 1: -6}}
    found = summary("crash", [lost, aborted], expected=2, quiet_s=None, failures=failures)
    assert found["first_failure"] == 1 and found["message"].startswith("rank 1 died of SIGABRT (exit code -6); then rank 0"), found
    # a rank that raised an error of its own stays the root cause, whatever the others died of
    lost.exception = None
    lost.feed({"ev": "exception", "type": "ValueError", "where": "train.py:40 in main", "message": "bad shape"})
    assert summary("crash", [lost, aborted], expected=2, quiet_s=None, failures=failures)["first_failure"] == 0
    # and a rank torchrun ended with SIGTERM after the raise did not abort
    lost.exception = None
    lost.feed({"ev": "exception", "type": "RuntimeError", "where": "train.py:62", "message": "Connection reset by peer"})
    failures["exit_codes"][1] = -15
    assert summary("crash", [lost, aborted], expected=2, quiet_s=None, failures=failures)["first_failure"] == 0
