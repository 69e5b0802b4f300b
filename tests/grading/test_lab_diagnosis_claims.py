"""Lab diagnosis rubrics as claims (issue 14 item 2: "then the why, graded by claims"): the why of
crashed-rank and long-batch is stated, not brushed by a word. Hostile first: the negated why ("its
memory stays flat"), a list of the words and a wrong reason fail, while the ranks are right in
every case, so only the why decides; strong answers pass in both languages. One grading each."""

from __future__ import annotations

import pytest

from tests.grading.labelled.cases import evidence
from tutor.content import load
from tutor.labs.diagnose import grade_lab


def _diagnose(lab, answer):
    lang = "zh" if any("\u4e00" <= char <= "\u9fff" for char in answer) else "en"
    return grade_lab(list(load().labs[lab].model.diagnosis), answer, evidence(lab), lang)


CRASH_RANKS = "Rank 0 failed first; ranks 1-3 waited in the gradient all-reduce. "
LONG_RANKS = "Rank 1 failed at step 4; ranks 0, 2 and 3 waited in the gradient all-reduce. "

STRONG = [
    ("crashed-rank", CRASH_RANKS + "Rank 0 ran out of memory in the forward pass because it keeps every step's logits "
                                   "in a list for the accuracy, so its memory grows each step."),
    ("crashed-rank", CRASH_RANKS + "OOM: rank 0 appends the logits of every step to predictions, and GPU memory "
                                   "climbs until the forward can't allocate."),
    ("crashed-rank", "0号最先失败，1~3号在梯度 all-reduce 里等。0号 forward 里显存爆了：它为了算准确率把每一步的 logits 都存进 "
                     "list，显存每步都在涨。"),
    ("long-batch", LONG_RANKS + "It ran out of memory: its batch holds a very long document and make_batch pads the "
                                "whole batch to it. Fix: truncate documents to max_len."),
    ("long-batch", LONG_RANKS + "OOM, because one document is far longer than the rest and the batch is padded to the "
                                "longest. Split documents into chunks of the context length."),
    ("long-batch", "1号在第 4 步 OOM 了，0、2、3号在梯度 all-reduce 里等。它的 batch 里有一篇超长文档，整个 batch 被 pad 到最长，"
                   "显存不够。修法：把文档截到 max_len。"),
    # more loader workers is a fix, as the model answer says (typed in tmux at 80x24: 58% ✗)
    ("slow-dataloader", "data loading: 57% of each step is before the first op, the GPU waits for the loader; fix "
                        "with more workers and prefetch"),
    ("slow-dataloader", "数据加载：每个step开头57%的时间都在等，第一个算子之前空等；多开worker并且prefetch"),
    # a clean exit said as "以0退出" (exit code 0), not only "退出了"
    ("exit-hang", "rank 1还在：rank 0以0退出，rank 1的主线程已经返回，在解释器退出时join非daemon线程checkpoint-uploader，"
                  "这个线程在queue.get()里永远等下一个任务。Uploader.close()只在except BaseException里调用，正常结束时"
                  "没人放stop标记。修法：在finally里close。"),
    # the others named once across Chinese commas, the culprit only as the one they wait for ("等rank0");
    # "skipped evaluation" where they are, not a fix that drops the all-reduce
    ("eval-rank0", "rank0卡在evaluate()里held-out loss的all_reduce，在eval group上，6秒超时先在这里触发；rank1~3根本没进"
                   "evaluate，已经到了下一步，在backward的梯度all-reduce里等rank0。evaluate要每个rank都调用，但程序写在if "
                   "ctx.rank == 0下面，所以rank0的all_reduce没有伙伴。修法：所有rank都调用evaluate，只让rank0打印日志。"),
    ("eval-rank0", "Rank 0 is the one inside evaluate(): it waits in the all_reduce of the held-out sums on the eval "
                   "group, whose 6 s timeout fires first. Ranks 1, 2 and 3 skipped evaluation and are in the following "
                   "step's gradient all-reduce during backward. Because evaluate() is only called on rank 0, its "
                   "collective never gets the other ranks and theirs never gets rank 0. The fix is to run evaluate() "
                   "on every rank and keep only the print on rank 0."),
    # the lock named once, then "it": "the workers are forked while it's held"
    ("stalled-loader", "rank 1: main thread waits in the DataLoader for the new epoch's first batch; its 2 workers block in "
                       "TokenCache.encode on the cache lock. rank 0 waits in DDP's gradient all-reduce at the end of "
                       "backward. The lock was taken by save_in_background in the main thread and is released by the "
                       "writer thread; the workers are forked while it's held, so their copy is never released. Fix: "
                       "hold the lock only to copy the cache (write the copy unlocked) or persistent_workers=True."),
]

WRONG = [
    # negated why: the ranks right, the cause said the other way round
    ("crashed-rank", CRASH_RANKS + "Its memory stays flat the whole run; it did not leak anything and the logits are "
                                   "dropped each step."),
    ("crashed-rank", "Rank 0 failed first and the others waited in the all-reduce. Its memory stays flat the whole run; "
                     "it did not leak anything, the logits are dropped each step."),  # passed at 1.0 before
    ("crashed-rank", CRASH_RANKS + "It crashed on a network timeout; memory is fine."),
    ("crashed-rank", "0号最先挂，其他rank在梯度all-reduce里等。0号显存一直是平的，没有泄漏。"),
    # a list of the words
    ("crashed-rank", CRASH_RANKS + "memory logits predictions accuracy keeps grows leak"),
    ("long-batch", LONG_RANKS + "long document padding sequence length truncate max_len context window"),
    # negated or wrong why
    ("long-batch", LONG_RANKS + "Memory is fine and every batch is the same length; it is a NCCL timeout."),
    ("long-batch", LONG_RANKS + "Its batches are all the same length as everyone else's, so it must be a bad GPU."),
]


@pytest.mark.parametrize(("lab", "answer"), STRONG)
def test_strong_diagnoses_pass(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]


@pytest.mark.parametrize(("lab", "answer"), WRONG)
def test_negated_listed_and_wrong_whys_fail(lab, answer):
    verdict = _diagnose(lab, answer)
    assert not verdict["correct"], verdict["feedback"]
    why = [entry for entry in verdict["feedback"] if entry["item"] == "why"]
    assert why and not why[0]["ok"], why


def test_a_contradicted_why_is_named():
    verdict = _diagnose("crashed-rank", CRASH_RANKS + "Its memory stays flat the whole run.")
    why = [entry for entry in verdict["feedback"] if entry["item"] == "why"][0]
    assert any("flat" in text for text in why["missing"]), why


@pytest.mark.parametrize("answer", [
    "data loading: 57% of each step is before the first op, the GPU waits for the loader.",
    "data loading: 57% of each step is before the first op; fix: fewer workers",
])
def test_the_category_and_its_evidence_without_a_fix_are_not_a_diagnosis(answer):
    verdict = _diagnose("slow-dataloader", answer)
    items = {entry["item"]: entry["ok"] for entry in verdict["feedback"]}
    assert not verdict["correct"] and items["category"] and not items["fix"], items


def test_a_fork_said_not_to_happen_while_the_lock_is_held_is_not_the_cause():
    verdict = _diagnose("stalled-loader", "rank 1 waits in its DataLoader; rank 0 waits in the gradient all-reduce. The "
                                          "workers are never forked while it's held, so the lock is fine. Fix: hold the "
                                          "lock only to copy the cache.")
    assert not verdict["correct"], verdict["feedback"]


def test_dropping_the_all_reduce_as_the_fix_is_still_named():
    verdict = _diagnose("eval-rank0", "Rank 0 waits in the all_reduce inside evaluate(); ranks 1-3 wait in the gradient "
                                      "all-reduce in backward. Fix: remove the all-reduce from evaluate so rank 0 "
                                      "does not wait.")
    assert not verdict["correct"], verdict["feedback"]


# Written by a helper for the seven newest labs (dev, not the labelled set), each refused before this session's
# reader changes: "still there" / "returned 0" place the ranks at exit; a rank placed in its own call that
# passes the other's line; every rank placed a few at a time (group-order's process groups).
NEWEST_LABS = [
    ('exit-hang', 'still there: rank 1 (owns the store). rank 0 exit 0. keeps it alive: non-daemon uploader thread waiting in Queue.get @ train.py:64; main thread joins it at exit. why: close() (sends None + join) only in except branch, not on normal return. fix: try/finally, close() in finally. no daemon, no os._exit.'),
    ('exit-hang', 'The hang is at exit, not in training. Only rank 1 is left: rank 0 returned 0. py-spy on rank 1 shows two threads, the main thread joining threads at shutdown and the non-daemon checkpoint-uploader thread idle in Queue.get (train.py:64). The uploader ends only when it reads None, which Uploader.close() sends; main calls close() only when an exception is raised, so after a normal run the sentinel never arrives and the interpreter can never finish joining. Fix: move the close into a finally block so it runs after success too; close() drains the queue (every checkpoint written and renamed into place) and joins the thread before main returns.'),
    ('busy-rank', "Rank 1 is the one that is not where the others are, and it is working, not waiting: py-spy shows its main thread active with the GIL in pieces() at train.py line 62, called from make_batch (line 72) in main (line 93), while it builds its batch for step 5. Rank 0 is idle at the end of loss.backward() inside trainer.train_step on line 93, waiting in DDP's gradient all-reduce on gloo for rank 1, which never comes, so its 3-second timeout fires. Rank 1 never leaves pieces() because its batch holds the page with the table (--table-doc 45): the table is one 40-token sentence plus its EOS, longer than the context. For that window there is no sentence end that fits, so the inner loop walks end back down to start, nothing is appended, and `start = end` leaves start where it was; the outer loop goes round on the same place forever. The fix is to cut a sentence that is longer than the context at the context: when end falls back to start, set end = min(start + max_len, len(doc)), so start always advances, and keep cutting after the last sentence end that fits otherwise."),
    ("group-order", "Ranks 0, 2 and 3 wait in the gradient all_reduce in average_gradients on process group 1; rank 1 "
                    "waits in the same all_reduce on process group 2, so they never meet. On rank 1 MetricsWriter() "
                    "calls new_group for the metrics group before make_groups creates the grads group, so the names are "
                    "numbered in a different order. Fix: create both groups in the same order on every rank before the "
                    "writer."),
]


@pytest.mark.parametrize(("lab", "answer"), NEWEST_LABS)
def test_the_newest_labs_read_as_candidates_write(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]


def test_a_part_of_the_ranks_alone_is_not_every_rank():
    verdict = _diagnose("group-order", "Ranks 0, 2 and 3 wait in the gradient all_reduce in average_gradients on "
                                       "process group 1. Fix: create both groups in the same order on every rank.")
    assert not verdict["correct"] and not verdict["feedback"][0]["ok"], verdict["feedback"]
