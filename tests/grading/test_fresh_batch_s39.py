"""What session 39 found: round 15's fresh batches (free_text_mock15 / free_text_labs14, written blind
to the rubrics on 2026-12-06) graded against their labels on their tuning parts, and the feedback a
refused diagnosis gives. Each `right` case below was refused before its fix (or, for a `wrong`
one, passed), and each comes with the near miss that must still fail."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose, item
from tests.grading.labelled.cases import interview_verdict


def test_a_culprit_put_where_the_others_are_is_a_wrong_set_not_right_ranks_in_the_wrong_call():
    # exit-hang: rank 1 is the one left running, rank 0 exited. Swapping them names rank 1, but only
    # where rank 0 is; "right ranks, but not the call" would tell the learner the swap was right.
    swapped = diagnose("exit-hang", "Rank 0 is the one still alive: its main thread sits in Thread.join for the "
                                    "uploader. Rank 1 exited 0.")
    ranks = item(swapped, "ranks")
    assert not swapped["correct"]
    assert "the ranks you name as the odd ones out are not the right set" in ranks["missing"]
    assert not any("right ranks" in line for line in ranks["missing"])
    unplaced = diagnose("exit-hang", "rank 1 is stuck, rank 0 exited")  # named, its place not said: that is true
    assert "right ranks, but not the call they wait in" in item(unplaced, "ranks")["missing"]


def _contradiction(lab: str, answer: str) -> set[str]:
    from tutor.content import load
    from tutor.grading.claims.clauses import read
    from tutor.grading.claims.points import judge
    from tutor.grading.rubric import stating

    reading = stating(read(answer))
    return {verdict.contradiction.id for item in load().labs[lab].model.diagnosis for point in item.points
            if (verdict := judge(point, reading, describing=True)).contradiction is not None}


@pytest.mark.parametrize("answer", ["A longer timeout changes nothing.", "A longer timeout is the same hang.",
                                    "a longer timeout does nothing", "with a longer timeout it hangs anyway"])
def test_a_fix_said_after_it_to_make_no_difference_is_not_proposed(answer):
    # round 14 (labs13, tuning part): two right group-order post-mortems ended so, and lost the point
    assert "longer-timeout" not in _contradiction("group-order", answer)


@pytest.mark.parametrize("answer", ["Fix: a longer timeout, that solves it", "raise the timeout so the gather finishes"])
def test_a_longer_timeout_proposed_is_still_the_contradiction(answer):
    assert "longer-timeout" in _contradiction("group-order", answer)


def test_not_counted_as_a_fix_in_chinese_dismisses_the_fix():
    # exit-hang: "改成 daemon=True 不算修,会丢 checkpoint" ends a right answer (round 14, labs13 tuning part)
    assert _contradiction("exit-hang", "改成 daemon=True 不算修,会丢 checkpoint") == set()
    assert _contradiction("exit-hang", "改成 daemon=True 就修好了") != set()


UNEVEN_CHAT = ("still training: rank 0, step 9 (its 10th batch), stuck in bwd grad allreduce\n"
               "the other three: done with the loop, in trainer.finish() -> check_weights all_gather\n"
               "why: 145 docs, rank0's shard = 37 docs = 10 batches, everyone else 36 = 9\n"
               "fix: same # of batches per rank, drop the last partial one (drop_last)")


def test_a_line_opening_with_a_label_ends_the_statement_before_it():
    from tutor.grading.normalize import LONG_LIMIT, clean

    assert clean("still training: rank 0\nthe other three: done\nfix (rank 0): x\n\nnext", LONG_LIMIT) == (
        "still training: rank 0; the other three: done; fix (rank 0): x; next")
    assert clean("the gradients of\nrank 0 wait", LONG_LIMIT) == "the gradients of rank 0 wait"  # a wrapped line
    assert diagnose("uneven-batches", UNEVEN_CHAT)["correct"]
    swapped = UNEVEN_CHAT.replace("in trainer.finish() -> check_weights all_gather", "in the bwd grad allreduce too")
    assert not diagnose("uneven-batches", swapped)["correct"]
    same = UNEVEN_CHAT.replace("37 docs = 10 batches, everyone else 36 = 9", "36 docs = 9 batches, same as everyone")
    assert not diagnose("uneven-batches", same)["correct"]


@pytest.mark.parametrize("answer", ["all 4: all_reduce @ train.py:70, step 0", "all at train.py:70 all_reduce, grads."])
def test_every_rank_said_as_all_four_or_all_before_where_they_wait(answer):
    # group-order: every rank waits in the one all-reduce, told apart only by process group
    assert item(diagnose("group-order", answer), "ranks")["ok"]
    assert not item(diagnose("group-order", answer.replace("all 4", "rank 1").replace("all at", "rank 1 at")),
                    "ranks")["ok"]


def test_making_a_group_numbers_it_it_does_not_put_the_rank_in_it():
    from tests.grading.labelled.cases import evidence
    from tutor.labs.process_groups import misplaced_in_group

    run = evidence("group-order")  # the logging rank, rank 1, waits in pg 2
    assert not misplaced_in_group(['因为 rank 1 是 log rank, MetricsWriter 先 new_group("metrics") 拿了 pg 1'], run, 4)
    assert not misplaced_in_group(["on rank 1 the writer creates the metrics group first, pg 1"], run, 4)
    assert misplaced_in_group(["rank 1 waits in pg 1"], run, 4)


RULED_OUT_FIRST = ("First thing I checked was whether it's the allreduce, but --vary ranks gives roughly the same step "
                   "at one rank. The synthetic-data experiment confirms it: swap the loader for random tokens and the "
                   "step gets several times faster. So: data loading.")


def test_the_category_concluded_after_ruling_others_out_is_the_answer():
    assert item(diagnose("slow-dataloader", RULED_OUT_FIRST), "category")["ok"]
    assert item(diagnose("launch-bound", "Thought about data first, but synthetic data doesn't move the step time. "
                                         "Comm: one rank vs two look the same. So compute, launch-bound: tiny ops, "
                                         "gaps between them."), "category")["ok"]
    # the conclusion still decides: another category, or two, drawn as it
    assert not item(diagnose("slow-dataloader", RULED_OUT_FIRST.replace("So: data loading.", "So: communication.")),
                    "category")["ok"]
    assert not item(diagnose("slow-dataloader", RULED_OUT_FIRST.replace("So: data loading.",
                                                                         "So it's data loading or communication.")),
                    "category")["ok"]


def test_a_few_chinese_words_about_computing_are_no_category_verdict():
    # straggler (round 14's batch): "模型逐 token 计算" after the fix read as the verdict "compute"
    answer = ("straggler：rank 1 每步都算得久，rank 0 在 DDP all-reduce 里等。修法：每篇给当前 token 最少的 rank；"
              "模型逐 token 计算，logits 一样")
    assert item(diagnose("straggler", answer), "category")["ok"]


def test_a_longer_timeout_that_would_just_make_it_hang_longer_is_dismissed():
    assert _contradiction("eval-rank0", "Raising the 6 s timeout would just make it hang longer.") == set()
    assert "longer-timeout" in _contradiction("eval-rank0", "Raising the 6 s timeout makes it finish.")


EXIT_BACK_REFERENCE = ("the uploader thread only ends when it gets None, and close() is only in the except block. the "
                       "thread sits in queue.get forever, its not daemon so the interpreter waits on it at exit (main "
                       "thread in thread.join). thats rank 1, the upload rank; the rest already exited with 0. fix: "
                       "call uploader.close() in a finally")


def test_a_rank_named_after_its_sentence_is_that_sentences_subject():
    from tutor.grading.claims.rank_words import named_after

    assert named_after("it waits at exit. that is rank 1, the upload rank") == (
        "rank 1: it waits at exit. that is rank 1, the upload rank")
    assert named_after("rank 0 is fine. That is rank 2.") == "rank 0 is fine. That is rank 2."  # its own rank said
    assert item(diagnose("exit-hang", EXIT_BACK_REFERENCE), "ranks")["ok"]
    swapped = EXIT_BACK_REFERENCE.replace("thats rank 1, the upload rank; the rest", "thats rank 0; rank 1")
    assert not item(diagnose("exit-hang", swapped), "ranks")["ok"]


def test_the_one_left_is_the_rank_still_running():
    answer = "the upload rank (rank 1) is the one left, rank 0 exit code 0. its main thread is in Thread.join at exit"
    assert item(diagnose("exit-hang", answer), "ranks")["ok"]
    assert not item(diagnose("exit-hang", answer.replace("is the one left", "left")), "ranks")["ok"]


def test_a_mock_answer_reads_ranks_said_in_words_as_a_diagnosis_does():
    answer = ("rank 0在ckpt的all_gather,rank 1-7在backward(grad allreduce)。collective要求所有rank都调用,这里只有零号"
              "进了all_gather -> 它等其他人,其他人在allreduce里等它,卡死。固定1200是因为第1200步触发保存checkpoint。")
    assert interview_verdict("i:hang-checkpoint-rank0/why", answer).correct
    assert not interview_verdict("i:hang-checkpoint-rank0/why", answer.replace("只有零号进了", "只有三号进了")).correct


def test_a_rank_glossed_in_brackets_is_the_rank_it_follows():
    from tutor.grading.claims.rank_words import numbers_as_digits

    assert numbers_as_digits("那个 rank (5号) 已经不在了").split() == ["那个", "rank", "5", "已经不在了"]
    assert numbers_as_digits("the rank (r5) died").split() == ["the", "rank", "5", "died"]
    answer = ("那个 rank (5号) 已经不在了: step 3072 的 batch 里有条 32768 tokens 的 packed sequence, OOM, exit code 1. "
              "其他七个 in backward -> grad all-reduce, waiting for a peer that's dead; srun without an agent doesn't "
              "kill them. same step every run = deterministic data order.")
    assert interview_verdict("i:hang-oom-dead-rank/why", answer).correct


def test_a_data_order_that_does_not_change_is_the_same_order():
    answer = ("rank 5 OOMed on the 32K-token batch and exited; srun has no agent, so the other seven wait in the "
              "all-reduce. It's 3072 every time since the data order doesn't change.")
    assert interview_verdict("i:hang-oom-dead-rank/why", answer).correct
    assert not interview_verdict("i:hang-oom-dead-rank/why", answer.replace(
        "since the data order doesn't change", "by chance: the data order changes every run")).correct


def test_a_longer_timeout_that_cures_neither_symptom_nor_cause_in_chinese():
    answer = ("不建议。调大timeout治标不治本:缺的那个rank(挂了、卡住了、或者走了别的分支)永远不会进来,job照样卡着,"
              "只是报错更晚、烧更多GPU小时。应该保留甚至调小timeout,配合TORCH_NCCL_DUMP_ON_TIMEOUT和flight recorder看谁没到,"
              "再去修它。")
    assert interview_verdict("i:followup-raise-timeout/main", answer).correct
    assert not interview_verdict("i:followup-raise-timeout/main", "调大timeout就能解决,缺的那个rank最后会进来的。").correct


def test_notes_typed_a_line_each_are_read_a_line_at_a_time():
    from tutor.grading.normalize import LONG_LIMIT, clean

    notes = ("rank3 -> evaluate -> barrier\neveryone else -> backward -> ddp grad allreduce\n"
             "=> rank3 had fewer batches (uneven shard, no pad/drop_last), finished the epoch early\n"
             "the other 7 need it in the allreduce for their last step, it waits for them in the barier\n"
             "mismatched collectives -> hang at the last step of epoch 1")
    assert clean(notes, LONG_LIMIT).startswith("rank3 -> evaluate -> barrier; everyone else -> backward")
    assert clean("it waits while\nrank 3 is in the barrier", LONG_LIMIT) == "it waits while rank 3 is in the barrier"
    assert interview_verdict("i:hang-uneven-batches/why", notes).correct
    swapped = ("rank3 -> backward -> ddp grad allreduce\neveryone else -> evaluate -> barrier\n"
               "=> rank3 had more batches (uneven shard, no pad/drop_last), the others finished the epoch early\n"
               "rank 3 needs them in the allreduce for its last step, they wait for it in the barier")
    assert not interview_verdict("i:hang-uneven-batches/why", swapped).correct
