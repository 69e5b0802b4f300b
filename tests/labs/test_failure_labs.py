"""The failure labs of issue 19: gather-sizes (an all_gather of per-rank sizes aborts one rank),
timeout-at-item (a process-group timeout raised at `.item()`, the hang begun by an earlier
asynchronous collective), eval-rank0 (a metric all-reduce inside rank-0-only evaluation),
group-order (process groups created in different orders) and exit-hang (a non-daemon thread keeps
a finished rank alive), both ways on CPU with gloo at 2 ranks, the cheats a hostile learner would
try, and the diagnosis graded against the shipped program's own run.

One job per lab, to keep the file cheap: it runs the lab's own checks (`run` in its check.py) on
the solution, then on each cheat, then on the shipped program, which ends the job the way the
lab says (a crash, a hang) and gives the evidence the diagnoses are graded against; every check
is named `LABEL: name`. The three newer labs' shipped programs run last as `tutor lab run` runs
them (`run_shipped`: `main` with the lab's arguments), so the evidence graded is the learner's
first run's. A job's cost is mostly starting torchrun and importing torch in every rank; a
program's checks cost little. Two cheats that end a job themselves were shown to fail
once, each in a job of its own, and are not rerun here (docs/labs.md): a try/except around
gather-sizes' all_gather (gloo still aborts the receiving rank) and a longer metrics timeout in
timeout-at-item (the job still hangs, until the no-progress limit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.labs import cheats
from tests.labs.results import assert_no_leftovers
from tests.labs.several import of
from tutor.labs import hangview
from tutor.labs.catalog import LabEntry, get_lab
from tutor.labs.checks import check_lab
from tutor.labs.diagnose import grade_lab

pytestmark = pytest.mark.slow

HARNESS = '''"""Test harness: {checker}'s own checks on several programs in one job, then one program's own run."""
import importlib.util
import sys
import threading

from tutor.labs import rank as lab
from tutor.labs.rank import context


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Labelled:
    """The rank context, with every check named 'LABEL: name' (the checker's and the program's own)."""

    def __init__(self, ctx, label):
        self._ctx, self._label = ctx, label

    def check(self, name, *args, **kwargs):
        self._ctx.check(self._label + ": " + name, *args, **kwargs)

    def report(self, **metrics):
        self._ctx.report(**{{self._label + ": " + key: value for key, value in metrics.items()}})

    def __getattr__(self, name):
        return getattr(self._ctx, name)


checker = load({checker!r}, "lab_checker")  # its imports (torch._dynamo) before the watchdog starts
ctx = lab.init()
for label, path in {programs!r}.items():
    context._context = Labelled(ctx, label)  # what the program's own lab.init() returns meanwhile
    before = set(threading.enumerate())
    try:
        checker.run(context._context, load(path, "program_" + label), None, lab.check_params())
    finally:
        context._context = ctx
    for thread in set(threading.enumerate()) - before:
        # A thread a program left (exit-hang's cheats) would keep this shared job from exiting
        # (the rank runner joins non-daemon threads, as the interpreter does); its check has
        # reported it. A running thread's daemon flag cannot be set, hence the private attribute.
        thread._daemonic = True
if {raw!r}:  # the program as `tutor lab run` runs it, with the lab's arguments: it ends the job
    label, path, args = {raw!r}
    context._context = Labelled(ctx, label)
    load(path, "program_" + label).main(list(args))
ctx.finish()
'''


def several(entry: LabEntry, tmp_path: Path, programs: dict[str, Path], timeout_s: float,
            run_shipped: bool = False, world_size: int = 2) -> dict:
    """One job running the lab's checks on each of `programs`, in order, labelled by their keys;
    then, with `run_shipped`, the shipped program's own run with the lab's arguments (`tutor lab
    run`, its checks labelled "shipped"), which ends the job as the lab says."""
    harness = tmp_path / "harness.py"
    raw = ("shipped", str(entry.program), tuple(entry.lab.args)) if run_shipped else None
    harness.write_text(HARNESS.format(checker=str(entry.checker), programs={k: str(v) for k, v in programs.items()},
                                      raw=raw))
    with_harness = LabEntry(entry.name, entry.folder, entry.lab.model_copy(update={"checker": str(harness)}))
    result = check_lab(with_harness, program=entry.program, world_size=world_size, timeout_s=timeout_s,
                       run_root=tmp_path / "several")
    assert_no_leftovers(result)
    return result


def diagnosed(entry: LabEntry, evidence: dict, answers: dict[str, str]) -> dict[str, bool]:
    """{answer's name: graded correct} against this run's evidence; a name ending in _zh is Chinese."""
    return {name: grade_lab(entry.lab.diagnosis, text, evidence, "zh" if name.endswith("_zh") else "en")["correct"]
            for name, text in answers.items()}


# --- gather-sizes -----------------------------------------------------------------------------

GS_SHARE = "each rank scores only its own documents"
GS_ALL = "rank 0 has every document's loss"
GS_QUANTILES = "median and p90 are the whole set's"

NO_GATHER = [("    count = torch.tensor([mine.numel()])\n",
              "    return mine  # rank 0 reports the documents it scored\n    count = torch.tensor([mine.numel()])\n")]
TO_SMALLEST = [("    padded = torch.zeros(max(counts), dtype=mine.dtype)\n    padded[:mine.numel()] = mine\n",
                "    padded = mine[:min(counts)].clone()  # every rank cut to the smallest count\n")]
RANK0_ALONE = [("    ids = my_documents(corpus, ctx.rank, ctx.world_size, args.min_tokens)\n",
                "    ids = my_documents(corpus, 0, 1, args.min_tokens) if ctx.rank == 0 else []\n"),
               ("    losses = gather_losses(ctx, mine)\n",
                "    losses = mine if ctx.rank == 0 else torch.zeros(1)  # rank 0 scored everything itself\n")]

GS_ANSWERS = {
    "right": "Rank 1 died first: it aborted with SIGABRT inside gloo; rank 0 was in the all_gather with it. The ranks scored a different number of documents because the short ones are "
             "skipped, so the tensors they pass to all_gather have different sizes; DETAIL shows the shapes. Fix: "
             "gather the counts first, pad to the largest count, all_gather, then trim.",
    "right_zh": "1号最先死，在gloo里被SIGABRT中止；0号当时和它一起在all_gather里。各rank跳过了短文档，"
                "文档数不一样，所以传给all_gather的tensor大小不一样。修法：先交换数量，补齐到最大，再gather，最后截取。",
    "negated": "Rank 1 died first with SIGABRT; rank 0 failed in all_gather. The ranks did not score a different "
               "number of documents and the sizes do not differ. Fix: pad to the largest count.",
    "buzzwords": "rank 1 rank 0 sigabrt all_gather different sizes different number of documents pad to the largest count",
    "wrong_rank": "Rank 0 died first with SIGABRT; rank 1 failed in all_gather. The ranks scored a different number "
                  "of documents, so the tensors have different sizes. Fix: gather the counts first, pad to the largest.",
    "truncate": "Rank 1 aborted with SIGABRT; rank 0 failed in all_gather. Each rank scored a different number of "
                "documents so the sizes differ. Fix: truncate every rank to the smallest count of documents.",
}


@pytest.mark.timeout(300)
def test_gather_sizes_solution_passes_cheats_fail_shipped_aborts(tmp_path):
    entry = get_lab("gather-sizes")

    def cheat(name, base, replacements):
        return cheats.make(tmp_path, entry.name, "", base=base, replace=dict(replacements), name=f"{name}.py")

    result = several(entry, tmp_path, {
        "solution": entry.solution,
        "no_gather": cheat("no_gather", "solution", NO_GATHER),
        "to_smallest": cheat("to_smallest", "solution", TO_SMALLEST),
        "rank0_alone": cheat("rank0_alone", "program", RANK0_ALONE),
        "shipped": entry.program}, timeout_s=10)
    names, failed = of(result, "solution")
    assert len(names) == 6 and failed == {}, failed  # two data sets, three checks each
    for label in ("no_gather", "to_smallest"):
        _, failed = of(result, label)
        assert {name.split(": ", 1)[1] for name in failed} == {GS_ALL, GS_QUANTILES}, (label, failed)
    _, failed = of(result, "rank0_alone")
    assert f"set 5: {GS_SHARE}" in failed and "rank 0 scored 36 documents, its share is 20" in failed[f"set 5: {GS_SHARE}"]

    evidence = result["evidence"]  # the shipped program, on set 5: ranks 0 and 1 score 20 and 16 documents
    assert evidence["outcome"] == "crash" and not result["passed"], evidence["summary"]
    # rank 1 receives the longer message and aborts in C++, with no Python exception
    assert evidence["summary"]["first_failure"] == 1, evidence["summary"]
    assert evidence["summary"]["message"].startswith("rank 1 died of SIGABRT (exit code -6)"), evidence["summary"]
    assert "Received data size doesn't match expected size" in "\n".join(evidence["ranks"][1]["log_tail"])
    assert diagnosed(entry, evidence, GS_ANSWERS) == {
        "right": True, "right_zh": True, "negated": False, "buzzwords": False, "wrong_rank": False, "truncate": False}


# --- timeout-at-item --------------------------------------------------------------------------

TI_CUTS = "the log counts the tokens cut on every rank"

LOCAL_CUT = [("            self.cut = funcol.all_reduce(torch.tensor([float(cut)]), \"sum\", self.group)\n",
              "            self.cut = torch.tensor([float(cut)])  # this rank's own count: no collective\n")]

TI_ANSWERS = {
    "right": "Both ranks wait at .item() in log, but .item() only waits for an earlier asynchronous collective: "
             "rank 1, whose batch had the long document, issued an extra all_reduce of its cut tokens in "
             "Metrics.add, and only that rank issued it, so the other ranks never send a matching collective. "
             "Fix: keep local sums and have every rank issue the same all_reduce of loss, tokens and cut tokens at every log.",
    "right_zh": "两个rank都停在log里的.item()上，但.item()只是在等更早发起的异步collective：batch里有长文档的1号在"
                "Metrics.add里对截掉的token数多发了一个all_reduce，只有这个rank发了，其他rank没有发。修法：先本地累加，"
                "所有rank每次记录都发起同一个all_reduce，把loss、token数和截断数合并成一个。",
    "item_is_the_bug": "Both ranks wait at .item() in log: the item is slow. The cut tokens all_reduce is fine. "
                       "Fix: increase the timeout.",
    "buzzwords": "item async earlier collective metrics.add cut tokens all_reduce only one rank every rank same collective",
    "longer_timeout": "Both ranks wait at .item() in log, an earlier asynchronous collective: the cut tokens all_reduce "
                      "in Metrics.add is issued only by rank 1. Fix: increase the timeout of the metrics group.",
}


@pytest.mark.timeout(300)
def test_timeout_at_item_solution_passes_cheat_fails_shipped_times_out(tmp_path):
    entry = get_lab("timeout-at-item")
    local_cut = cheats.make(tmp_path, entry.name, "", base="program", replace=dict(LOCAL_CUT), name="local_cut.py")
    # the metrics group's 8 s timeout ends the shipped run; the no-progress limit stays above it
    result = several(entry, tmp_path, {"solution": entry.solution, "local_cut": local_cut, "shipped": entry.program},
                     timeout_s=20)
    names, failed = of(result, "solution")
    assert len(names) == 6 and failed == {}, failed  # two placements of the long document, three checks each
    _, failed = of(result, "local_cut")  # right weights, but the log counts only rank 0's cut tokens
    assert set(failed) == {f"long document on rank 1: {TI_CUTS}"}, failed

    evidence = result["evidence"]  # the shipped program, the long document on rank 1
    assert evidence["outcome"] == "hang" and not result["passed"], evidence["summary"]
    message = evidence["summary"]["message"]
    assert message.startswith("the process-group timeout fired (rank "), message
    assert "timeout" in message and " in log)" in message, message
    assert all(".item()" in (rank["stack"] or "") for rank in evidence["ranks"]), [r["stack"] for r in evidence["ranks"]]
    # the real site is only in the flight recorder: rank 1's extra all_reduce of 1 value, then the
    # stats of 2 that rank 0 sent alone
    sizes = {rank["rank"]: [entry["sizes"] for entry in rank["flight_recorder"] or [] if entry.get("group") != "default_pg"]
             for rank in evidence["ranks"]}
    assert sizes[1][-2:] == [[[1]], [[2]]] and sizes[0][-1:] == [[[2]]] and sizes[0][-2:-1] != [[[1]]], sizes
    assert diagnosed(entry, evidence, TI_ANSWERS) == {
        "right": True, "right_zh": True, "item_is_the_bug": False, "buzzwords": False, "longer_timeout": False}


# --- eval-rank0 -------------------------------------------------------------------------------

ER_SHARE = "each rank scores only its own share of the held-out set"
ER_SCORED = "every held-out document is scored"
ER_LOGGED = "rank 0 logs the whole held-out set's loss at every evaluation"

ER_NO_ALLREDUCE = [("    dist.all_reduce(sums, group=group)\n", "    # no all-reduce: rank 0 reports what it scored\n")]
ER_RANK0_ALONE = ER_NO_ALLREDUCE + [("    ids = list(range(ctx.rank, len(corpus), ctx.world_size))\n",
                                     "    ids = list(range(len(corpus)))  # rank 0 scores every document itself\n")]
ER_ZEROS = [("            if ctx.rank == 0:\n                held = evaluate(",
             "            if ctx.rank != 0:  # the others answer rank 0's all-reduce with nothing of theirs\n"
             "                dist.all_reduce(torch.zeros(2, dtype=torch.float64), group=eval_group)\n"
             "            if ctx.rank == 0:\n                held = evaluate(")]

ER_ANSWERS = {
    "right": "Rank 0 timed out in the all_reduce inside evaluate, on the eval group; rank 1 went on to the next step "
             "and waits in the gradient all_reduce in backward. evaluate holds a collective but is called only on "
             "rank 0 (if ctx.rank == 0), so the others never issue it. Fix: every rank calls evaluate, each scoring "
             "its share, and only the logging stays on rank 0.",
    "right_zh": "0号在evaluate里的all_reduce上超时；1号已经进了下一步，停在backward的梯度all_reduce里。evaluate里面有"
                "collective，却只在rank 0上调用，其他rank从来不发。修法：所有rank都调用evaluate，各自给自己那一份打分，"
                "只有写日志留在rank 0。",
    "swapped": "Rank 0 waits in the gradient all_reduce in backward; rank 1 waits in the all_reduce inside evaluate. "
               "evaluate is called only on rank 0. Fix: every rank calls evaluate, only the logging on rank 0.",
    "longer_timeout": "Rank 0 waits in the all_reduce inside evaluate; rank 1 waits in the gradient all_reduce in "
                      "backward of the next step. evaluate is called only on rank 0. Fix: increase the timeout of the eval group.",
    "drop_allreduce": "Rank 0 waits in the all_reduce inside evaluate; rank 1 waits in the gradient all_reduce in "
                      "backward of the next step. evaluate is called only on rank 0. Fix: remove the all_reduce from "
                      "evaluate so that rank 0 evaluates alone.",
    "slow_eval": "Rank 0 is slow: the evaluation takes too long, so the timeout fires in evaluate. Fix: increase the timeout.",
    "buzzwords": "rank 0 evaluate all_reduce rank 1 backward next step only rank 0 every rank calls evaluate",
}


def _unlabelled(failed: dict[str, str]) -> set[str]:
    """Check names without the drawn run's prefix ("every 3 steps, 18 held-out documents: ")."""
    return {name.split(": ", 1)[-1] for name in failed}


@pytest.mark.timeout(300)
def test_eval_rank0_solution_passes_cheats_fail_shipped_times_out_in_evaluate(tmp_path):
    """One 2-rank job (~45 s on 2 loaded cores): the solution, three cheats, then the shipped run."""
    entry = get_lab("eval-rank0")

    def cheat(name, replacements):
        return cheats.make(tmp_path, entry.name, "", base="program", replace=dict(replacements), name=f"{name}.py")

    result = several(entry, tmp_path, {
        "solution": entry.solution,
        "no_allreduce": cheat("no_allreduce", ER_NO_ALLREDUCE),
        "rank0_alone": cheat("rank0_alone", ER_RANK0_ALONE),
        "zeros_from_others": cheat("zeros_from_others", ER_ZEROS)}, timeout_s=entry.lab.timeout_s, run_shipped=True)
    names, failed = of(result, "solution")
    assert len(names) == 6 and failed == {}, (names, failed)  # 4 of the checker's, 2 of the training's replay
    for label, caught in (("no_allreduce", {ER_SCORED, ER_LOGGED}), ("rank0_alone", {ER_SHARE}),
                          ("zeros_from_others", {ER_SCORED, ER_LOGGED})):
        _, failed = of(result, label)
        assert _unlabelled(failed) == caught, (label, failed)
    _, failed = of(result, "rank0_alone")
    assert any("rank 0 scored" in detail and "its share is at most" in detail for detail in failed.values()), failed

    evidence = result["evidence"]  # the shipped program at 2 ranks: rank 0 alone in evaluate's all-reduce
    assert evidence["outcome"] == "hang" and not result["passed"], evidence["summary"]
    message = evidence["summary"]["message"]
    assert message.startswith("the process-group timeout fired (rank 0: ") and "in evaluate)" in message, message
    last = {rank["rank"]: rank["collectives"][-1] for rank in evidence["ranks"]}
    assert last[0]["op"] == "all_reduce" and last[0]["site"].endswith("in evaluate"), last
    assert last[1]["op"] == "all_reduce" and not last[1]["site"].endswith("in evaluate"), last  # the gradient one
    steps = {rank["rank"]: rank["last_step"] for rank in evidence["ranks"]}
    assert steps[1] == steps[0] + 1, steps  # rank 1 went on to the next step
    assert diagnosed(entry, evidence, ER_ANSWERS) == {
        "right": True, "right_zh": True, "swapped": False, "longer_timeout": False, "drop_allreduce": False,
        "slow_eval": False, "buzzwords": False}


# --- group-order ------------------------------------------------------------------------------

GO_WEIGHTS = "weights equal one process training on every rank's batches"
GO_GROUPS = "gradients on the gradient group, metrics on the metrics group"
GO_LOGGED = "the logging rank logs each interval's loss over all ranks"

GO_DEFAULT_GROUP = [("    dist.all_reduce(flat, group=group)\n", "    dist.all_reduce(flat)  # the default group: nothing to order\n"),
                    ("    dist.reduce(sums, dst=args.log_rank, group=metrics)\n", "    dist.reduce(sums, dst=args.log_rank)\n")]
GO_SWAP_ON_LOGGER = [("    grads, metrics, writer = make_groups(ctx, args.log_rank)\n",
                      "    grads, metrics, writer = make_groups(ctx, args.log_rank)\n"
                      "    if writer is not None:  # the writer made them the other way round: swap them back\n"
                      "        grads, metrics = metrics, grads\n")]
GO_ONE_GROUP = [('    metrics = job_group("metrics")\n', "    metrics = grads  # one group for both\n")]
GO_SWAP_ON_RANK_1 = [("    grads, metrics, writer = make_groups(ctx, args.log_rank)\n",
                      "    grads, metrics, writer = make_groups(ctx, args.log_rank)\n"
                      "    if ctx.rank == 1:  # the default logging rank made them the other way round\n"
                      "        grads, metrics = metrics, grads\n")]

GO_ANSWERS = {
    "right": "Both ranks wait in the gradient all_reduce in average_gradients, but on different process groups: the "
             "flight recorder shows rank 1's grads group is pg 2 and rank 0's is pg 1. On the logging rank the "
             "MetricsWriter creates the metrics group first, so new_group is called in a different order there. "
             "Fix: create both groups in the same order on every rank before the writer and pass the metrics group to the writer.",
    "right_zh": "两个rank都停在average_gradients的梯度all_reduce上，但不是同一个process group：flight recorder里1号的grads是"
                "pg 2，0号的是pg 1。负责日志的rank上MetricsWriter先创建了metrics group，new_group的调用顺序不一样。"
                "修法：每个rank按同一个顺序先创建两个group，再把metrics group交给writer。",
    "longer_timeout": "Both ranks wait in the gradient all_reduce in average_gradients, on different process groups: pg 2 "
                      "on rank 1, pg 1 on rank 0. new_group is called in a different order on the logging rank. Fix: "
                      "increase the timeout of the groups.",
    "swap": "Both ranks wait in the gradient all_reduce in average_gradients, on different process groups: pg 2 on "
            "rank 1, pg 1 on rank 0. new_group is called in a different order on the logging rank. Fix: swap the two "
            "groups back on rank 1.",
    "same_group": "Both ranks wait in the gradient all_reduce in average_gradients on the same group. The network is "
                  "slow. Fix: increase the timeout.",
    "buzzwords": "all_reduce average_gradients different process group pg 1 pg 2 different order new_group same order every rank",
}


@pytest.mark.timeout(300)
def test_group_order_solution_passes_cheats_fail_shipped_times_out_on_two_groups(tmp_path):
    """One 2-rank job (~60 s on 2 loaded cores): the solution, four cheats, then the shipped run."""
    entry = get_lab("group-order")

    def cheat(name, base, replacements):
        return cheats.make(tmp_path, entry.name, "", base=base, replace=dict(replacements), name=f"{name}.py")

    result = several(entry, tmp_path, {
        "solution": entry.solution,
        "default_group": cheat("default_group", "program", GO_DEFAULT_GROUP),
        "swap_on_logger": cheat("swap_on_logger", "program", GO_SWAP_ON_LOGGER),
        "one_group": cheat("one_group", "solution", GO_ONE_GROUP),
        # at 2 ranks the swap on rank 1 pairs the names whichever rank logs (at 4 it hangs when rank 1 does not log)
        "swap_on_rank_1": cheat("swap_on_rank_1", "program", GO_SWAP_ON_RANK_1)}, timeout_s=entry.lab.timeout_s,
        run_shipped=True)
    names, failed = of(result, "solution")
    assert len(names) == 6 and failed == {}, (names, failed)  # two logging ranks: 3 checks each
    assert {name.split(": ")[0] for name in names} == {"rank 0 logging", "rank 1 logging"}, names
    for label in ("default_group", "swap_on_logger", "one_group", "swap_on_rank_1"):
        _, failed = of(result, label)
        assert _unlabelled(failed) == {GO_GROUPS}, (label, failed)  # right weights and log, wrong groups

    evidence = result["evidence"]  # the shipped program, rank 1 logging: its grads is the second group
    assert evidence["outcome"] == "hang" and not result["passed"], evidence["summary"]
    message = evidence["summary"]["message"]
    assert message.startswith("the process-group timeout fired (rank ") and "in average_gradients)" in message, message
    last = {rank["rank"]: rank["collectives"][-1] for rank in evidence["ranks"]}
    assert {call["site"].split(":")[0] + " " + call["site"].split(" in ")[1] for call in last.values()} == {
        "train.py average_gradients"}, last  # the same line on every rank
    pgs = {rank: call["pg"] for rank, call in last.items()}
    assert pgs[0].endswith("(grads)") and pgs[1].endswith("(grads)") and pgs[0] != pgs[1], pgs
    recorded = {rank["rank"]: (rank["flight_recorder"] or [])[-1] for rank in evidence["ranks"]}
    assert recorded[0]["group"] == recorded[1]["group"] == "grads" and recorded[0]["pg"] != recorded[1]["pg"], recorded
    assert diagnosed(entry, evidence, GO_ANSWERS) == {
        "right": True, "right_zh": True, "longer_timeout": False, "swap": False, "same_group": False, "buzzwords": False}


# --- exit-hang --------------------------------------------------------------------------------

EH_THREADS = "no thread of the program is left running when main returns"
EH_NO_PROGRESS_S = 6.0
"""The job's no-progress limit, what ends the shipped run (the lab's is 10 s): a step, a check or the
replay between two programs takes about a second on two loaded cores, the rank that never exits
is idle for ever."""

EH_DAEMON = [('        self.thread = threading.Thread(target=self._run, name="checkpoint-uploader")\n',
              '        self.thread = threading.Thread(target=self._run, name="checkpoint-uploader", daemon=True)\n')]
EH_CLOSE_ON_RANK_1 = [("    report = trainer.finish()\n",
                       "    if ctx.rank == 1 and uploader is not None:  # the default uploading rank\n        uploader.close()\n"
                       "    report = trainer.finish()\n")]

EH_ANSWERS = {
    "right": "Rank 0 exited; rank 1 is still alive: its main thread finished and waits in join for the "
             "checkpoint-uploader thread, a non-daemon thread that waits in queue.get for ever. close is only called "
             "on the error path (except), never after a normal end. Fix: close the uploader in a finally so the thread "
             "is joined and every checkpoint is written before main returns.",
    "right_zh": "0号已经退出了；1号还活着：主线程跑完了，在join里等checkpoint-uploader线程，这个非daemon线程停在queue.get上"
                "一直等。close只在出错的路径(except)里调用，正常结束时从来不关。修法：在finally里关闭uploader，main返回前"
                "join线程、写完每个checkpoint。",
    "daemon": "Rank 0 exited; rank 1 is still alive: its main thread waits in join for the checkpoint-uploader thread, "
              "a non-daemon thread that waits in queue.get. close is only called on the error path. Fix: make the "
              "uploader thread a daemon.",
    "kill": "Rank 0 exited; rank 1 is still alive: its main thread waits in join for the checkpoint-uploader thread, "
            "which waits in queue.get. close is only called on the error path. Fix: call os._exit at the end of main.",
    "wrong_rank": "Rank 1 exited; rank 0 is still alive: its main thread waits in join for the checkpoint-uploader "
                  "thread, which waits in queue.get. close is only called on the error path. Fix: close the uploader in a finally.",
    "collective": "Rank 1 waits in a barrier in destroy_process_group that rank 0 never reached. Fix: call a barrier on every rank.",
    "buzzwords": "rank 1 uploader thread non daemon queue get close only error path finally join",
}


@pytest.mark.timeout(300)
def test_exit_hang_solution_passes_cheats_fail_shipped_never_exits(tmp_path):
    """One 2-rank job (~60 s on 2 loaded cores): the solution, two cheats, then the shipped run,
    whose uploading rank never exits (the no-progress limit, EH_NO_PROGRESS_S, ends it)."""
    entry = get_lab("exit-hang")

    def cheat(name, replacements):
        return cheats.make(tmp_path, entry.name, "", base="program", replace=dict(replacements), name=f"{name}.py")

    result = several(entry, tmp_path, {
        "solution": entry.solution,
        "daemon": cheat("daemon", EH_DAEMON),
        "close_on_rank_1": cheat("close_on_rank_1", EH_CLOSE_ON_RANK_1)}, timeout_s=EH_NO_PROGRESS_S, run_shipped=True)
    names, failed = of(result, "solution")
    assert failed == {} and len(names) == 3 + 2 * 3, (names, failed)  # 3 of the training (merged), 3 per uploading rank
    for label in ("daemon", "close_on_rank_1"):
        _, failed = of(result, label)
        assert EH_THREADS in _unlabelled(failed), (label, failed)
    _, failed = of(result, "daemon")
    assert any("'checkpoint-uploader' (daemon)" in detail for detail in failed.values()), failed
    _, failed = of(result, "close_on_rank_1")  # passes with rank 1 uploading, fails with rank 0
    assert {name.split(": ")[0] for name in failed} == {"rank 0 uploading every " + name.split(" every ")[1].split(":")[0]
                                                        for name in failed}, failed

    evidence = result["evidence"]  # the shipped program: rank 1's uploader thread keeps its process alive
    assert evidence["outcome"] == "hang" and not result["passed"], evidence["summary"]
    ranks = {rank["rank"]: rank for rank in evidence["ranks"]}
    assert ranks[0]["exit_code"] == 0 and ranks[1]["exit_code"] is None, {r: v["exit_code"] for r, v in ranks.items()}
    stack = ranks[1]["stack"] or ""
    # its main thread joins the uploader at exit, as the interpreter's would: threading's frames, not the tutor's
    assert '"checkpoint-uploader"' in stack and "Queue.get" in stack and "join (" in stack, stack
    assert "tutor/labs/" not in stack and hangview.program_frames(stack) == [], stack
    assert diagnosed(entry, evidence, EH_ANSWERS) == {
        "right": True, "right_zh": True, "daemon": False, "kill": False, "wrong_rank": False, "collective": False,
        "buzzwords": False}
