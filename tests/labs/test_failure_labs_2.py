"""The hang labs 30 and 31 of issue 19 both ways on CPU with gloo at 2 ranks: stalled-loader (a
DataLoader worker deadlocked on a lock it inherited held across the fork, so its rank stops in
the loader while the others wait in the collective) and busy-rank (a rank that never leaves a
pure-Python loop while the others wait in the collective), the cheats a hostile learner would
try, and the diagnosis graded against the shipped program's own run.

One job per lab, to keep the file cheap: the lab's checker's own `main()` (tests/labs/several.py's
harness) on the solution, then each cheat, then the shipped program, which ends the job with the
process-group timeout and gives the evidence the diagnoses are graded against. Every check is
named `LABEL: name`. The job's process-group timeout is short (JOB_TIMEOUT_S), so the shipped
hang ends in seconds; a job's cost is mostly starting torchrun and importing torch in every rank.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.labs import cheats
from tests.labs.results import assert_no_leftovers
from tests.labs.several import HARNESS, of
from tutor.labs.catalog import LabEntry, get_lab
from tutor.labs.checks import check_lab
from tutor.labs.diagnose import grade_lab

pytestmark = pytest.mark.slow
JOB_TIMEOUT_S = 6.0
"""The jobs' process-group timeout: the correct programs' collectives wait far less, the shipped
hang ends after it."""


def job(tmp_path: Path, lab: str, programs: dict[str, Path]) -> dict:
    """One 2-rank job of `lab`'s checker on each program in turn (the shipped one last: it hangs)."""
    entry = get_lab(lab)
    entries = [{"label": label, "checker": str(entry.checker), "program": str(path), "shipped": str(entry.program),
                "params": entry.lab.check, "perf": False} for label, path in programs.items()]
    harness = tmp_path / "harness.py"
    harness.write_text(HARNESS.replace("json.loads(ENTRIES)", f"json.loads({json.dumps(entries)!r})"))
    with_harness = LabEntry(entry.name, entry.folder, entry.lab.model_copy(update={"checker": str(harness)}))
    result = check_lab(with_harness, program=entry.program, world_size=2, timeout_s=JOB_TIMEOUT_S,
                       run_root=tmp_path / "runs")
    assert_no_leftovers(result)
    return result


def diagnosed(entry: LabEntry, evidence: dict, answers: dict[str, str]) -> dict[str, bool]:
    """{answer's name: graded correct} against this run's evidence; a name ending in _zh is Chinese."""
    return {name: grade_lab(entry.lab.diagnosis, text, evidence, "zh" if name.endswith("_zh") else "en")["correct"]
            for name, text in answers.items()}


# --- busy-rank ----------------------------------------------------------------------------------

BR_WHOLE = "every page is trained on whole, in order"
BR_CUT = "pieces end at the last sentence end that fits (a longer sentence at the context)"

BR_DROP_REST = [("        if end > start:\n            out.append(doc[start:end])\n        start = end\n",
                 "        if end == start:\n            break  # no sentence end fits: drop the rest of the page\n"
                 "        out.append(doc[start:end])\n        start = end\n")]
BR_HARD_CUT = [("    out, start = [], 0\n    while start < len(doc):\n",
                "    return [doc[i:i + max_len] for i in range(0, len(doc), max_len)]  # cut at the context everywhere\n"
                "    out, start = [], 0\n    while start < len(doc):\n")]
BR_TRUNCATE = [("    out, start = [], 0\n    while start < len(doc):\n",
                "    return [doc[:max_len]]  # a page longer than the context is cut to it\n"
                "    out, start = [], 0\n    while start < len(doc):\n")]
BR_NO_TABLE = [("    pages = Pages(cfg, args.steps * ctx.world_size * cfg.batch, args.table_doc)\n",
                "    pages = Pages(cfg, args.steps * ctx.world_size * cfg.batch, -1)  # no page has a table\n")]


def busy_answers(busy: int, waiting: int) -> dict[str, str]:
    return {
        "right": f"Rank {busy} is busy in Python in pieces(), called from make_batch, outside any collective (py-spy: active); "
                 f"rank {waiting} waits in the gradient all-reduce at the end of backward until the timeout. The table is a "
                 "sentence longer than the context, so no sentence end fits, end falls back to start and start never "
                 "moves: an infinite loop. Fix: when no sentence end fits, cut at the context (start + max_len).",
        "right_zh": f"{busy}号在 Python 里忙着跑 pieces()，不在任何 collective 里；{waiting}号停在 backward 结尾的梯度 all-reduce 里，"
                    "直到超时。表格是一个比上下文还长的句子，没有句子结尾放得进窗口，end 退回到 start，start 永远不动，死循环。"
                    "修法：放不下句子结尾时在上下文长度处切开（start + max_len）。",
        "wrong_rank": f"Rank {waiting} is busy in Python in pieces(); rank {busy} waits in the gradient all-reduce. The table is "
                      "longer than the context so start never moves: an infinite loop. Fix: cut at the context.",
        "drop_page": f"Rank {busy} is busy in pieces(), rank {waiting} waits in the all-reduce. No sentence end fits so it is "
                     "an infinite loop. Fix: skip the page with the table.",
        "longer_timeout": f"Rank {busy} is busy in pieces(), rank {waiting} waits in the all-reduce. The table has no sentence "
                          "end, an infinite loop. Fix: increase the timeout.",
        "buzzwords": "rank pieces all reduce backward infinite loop sentence end context cut at the context max len",
    }


def learner_reads_own_frames_and_torchs(evidence: dict, waiting: int, program: Path) -> None:
    """docs/labs.md, "Code the labs share": what the learner reads after the run (the summary, every
    rank's stack and traceback, the hang view, the failed collective's site) names the learner's
    file and line and torch's, never the tutor's plumbing (tutor/labs/rank/training.py ...)."""
    from tutor.labs import hangview
    from tutor.labs.report import run_text

    line = next(number for number, text in enumerate(program.read_text().splitlines(), 1) if "trainer.train_step(" in text)
    summary = "\n".join(run_text(evidence))
    assert "tutor/labs" not in summary and "training.py" not in summary and f"train.py:{line}" in summary, summary
    for rank in evidence["ranks"]:
        for text in (rank["stack"], (rank["exception"] or {}).get("traceback")):
            assert "tutor/labs/" not in (text or ""), text
    (stack,) = [stack for stack in hangview.stacks(evidence) if stack.rank == waiting]
    assert str(stack.frames[0]) == f"main (train.py:{line})", stack.frames  # the line they would edit
    assert stack.waiting_in["op"] == "all_reduce" and stack.waiting_in["site"] == f"train.py:{line} in main"
    assert "site-packages/torch/" in ranks_stack(evidence, waiting)  # then torch's own frames


def ranks_stack(evidence: dict, rank: int) -> str:
    return next(item["stack"] for item in evidence["ranks"] if item["rank"] == rank)


@pytest.mark.timeout(300)
def test_busy_rank_solution_passes_cheats_fail_shipped_times_out_with_the_busy_rank_active(tmp_path):
    entry = get_lab("busy-rank")

    def cheat(name, base, replacements):
        return cheats.make(tmp_path, entry.name, "", base=base, replace=dict(replacements), name=f"{name}.py")

    result = job(tmp_path, "busy-rank", {
        "solution": entry.solution,
        "drop_rest": cheat("drop_rest", "program", BR_DROP_REST),
        "hard_cut": cheat("hard_cut", "program", BR_HARD_CUT),
        "truncate": cheat("truncate", "program", BR_TRUNCATE),
        "no_table": cheat("no_table", "solution", BR_NO_TABLE),
        "shipped": entry.program})
    names, failed = of(result, "solution")
    assert failed == {} and len(names) == 5, (names, failed)  # the replay, same steps, every step, whole, cut
    for label in ("drop_rest", "truncate", "no_table", "hard_cut"):  # hard_cut: a 1-token last piece trains nothing, too
        _, failed = of(result, label)
        assert {name.split(": ", 1)[1] for name in failed} == ({BR_CUT} if label == "hard_cut" and len(failed) == 1
                                                               else {BR_WHOLE, BR_CUT}), (label, failed)

    evidence = result["evidence"]  # the shipped program: one rank spins in pieces(), the other times out
    assert evidence["outcome"] == "hang" and not result["passed"], evidence["summary"]
    message = evidence["summary"]["message"]
    assert message.startswith("the process-group timeout fired (rank ") and "Timed out" in message, message
    ranks = {rank["rank"]: rank for rank in evidence["ranks"]}
    (busy,) = [r for r, rank in ranks.items() if not rank["exception"]]
    (waiting,) = set(ranks) - {busy}
    assert "(active" in ranks[busy]["stack"] and "pieces (train.py:" in ranks[busy]["stack"], ranks[busy]["stack"]
    assert "in backward" in ranks[waiting]["stack"], ranks[waiting]["stack"]
    learner_reads_own_frames_and_torchs(evidence, waiting, entry.program)
    assert diagnosed(entry, evidence, busy_answers(busy, waiting)) == {
        "right": True, "right_zh": True, "wrong_rank": False, "drop_page": False, "longer_timeout": False,
        "buzzwords": False}


# --- stalled-loader -----------------------------------------------------------------------------

SL_WORKERS = "the loader reads in worker processes"
SL_FILE = "the writer's cache file holds every document it tokenized"

SL_NO_WORKERS = [("num_workers=WORKERS, collate_fn=collate)", "num_workers=0, collate_fn=collate)  # no fork, no deadlock")]
SL_NO_FILE = [("            writer = cache.save_in_background(path)\n",
               "            writer = None  # no cache file, no lock\n")]
SL_PERSISTENT = [("num_workers=WORKERS, collate_fn=collate)",
                  "num_workers=WORKERS, collate_fn=collate,\n                        persistent_workers=True)  # forked once")]


def loader_answers(writer: int, other: int) -> dict[str, str]:
    return {
        "right": f"Rank {writer} waits in its DataLoader for the next batch, outside any collective; its workers wait in "
                 f"TokenCache.encode for the lock. Rank {other} waits in the gradient all-reduce at the end of backward. "
                 "The background write holds the cache lock while the next epoch's workers are forked, so each worker "
                 "inherits the lock held. Fix: copy the cache under the lock and write the copy without it.",
        "right_zh": f"{writer}号停在 DataLoader 里等 batch，不在任何 collective 里；{other}号停在 backward 结尾的梯度 all-reduce 里。"
                    "后台写缓存时持有锁，这时 fork 出新的 worker，worker 继承了被持有的锁。修法：在锁里复制缓存，复制后不持锁地写。",
        "persistent": f"Rank {writer} is stuck in the data loader; rank {other} waits in the all-reduce. The workers inherited "
                      "the cache lock held by the writer thread during the fork. Fix: use persistent workers.",
        "wrong_rank": f"Rank {other} waits in its DataLoader; rank {writer} waits in the gradient all-reduce. The workers were "
                      "forked while the lock was held. Fix: copy under the lock.",
        "no_workers": f"Rank {writer} waits in its DataLoader; rank {other} waits in the gradient all-reduce. The workers were "
                      "forked while the lock was held. Fix: set num_workers=0.",
        "longer_timeout": f"Rank {writer} waits in its DataLoader; rank {other} waits in the gradient all-reduce. The workers "
                          "were forked while the lock was held. Fix: increase the timeout.",
        "buzzwords": "rank dataloader all reduce fork lock copy under the lock persistent workers",
    }


@pytest.mark.timeout(300)
def test_stalled_loader_solution_passes_cheats_fail_shipped_times_out_with_its_workers_on_the_lock(tmp_path):
    entry = get_lab("stalled-loader")

    def program(name, base, replacements):
        return cheats.make(tmp_path, entry.name, "", base=base, replace=dict(replacements), name=f"{name}.py")

    result = job(tmp_path, "stalled-loader", {
        "no_file": program("no_file", "solution", SL_NO_FILE),  # first: no cache file of an earlier program to find
        "solution": entry.solution,
        "persistent": program("persistent", "program", SL_PERSISTENT),  # another right fix: workers forked once
        "no_workers": program("no_workers", "solution", SL_NO_WORKERS),
        "shipped": entry.program})
    for label in ("solution", "persistent"):
        names, failed = of(result, label)
        assert failed == {} and len(names) == 7, (label, names, failed)  # replay, steps x2, data, workers x2, file
    _, failed = of(result, "no_workers")
    assert {name.split(": ", 1)[1].split(" (rank")[0] for name in failed} == {SL_WORKERS}, failed
    _, failed = of(result, "no_file")
    assert [name.split(": ", 1)[1] for name in failed] == [SL_FILE], failed

    evidence = result["evidence"]  # the shipped program: the writer rank's workers wait on the lock
    assert evidence["outcome"] == "hang" and not result["passed"], evidence["summary"]
    message = evidence["summary"]["message"]
    assert message.startswith("the process-group timeout fired (rank ") and "Timed out" in message, message
    ranks = {rank["rank"]: rank for rank in evidence["ranks"]}
    (writer,) = [r for r, rank in ranks.items() if not rank["exception"]]
    (other,) = set(ranks) - {writer}
    from tutor.labs.hangview import child_stacks

    children = child_stacks(ranks[writer]["stack"])
    assert children and all(frames and frames[0].func.endswith("encode") for _, frames in children), children
    assert diagnosed(entry, evidence, loader_answers(writer, other)) == {
        "right": True, "right_zh": True, "persistent": True, "wrong_rank": False, "no_workers": False,
        "longer_timeout": False, "buzzwords": False}
