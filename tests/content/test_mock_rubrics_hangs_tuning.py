"""The hang scenarios' open steps (interview/hangs.yaml), after the fifth labelled batch's tuning misses.

Each fix of a rubric is pinned here with the answer that showed it (the tuning texts grade_dev.py listed
for the mock kind) and with answers written for this file (paraphrases, Chinese, cheats), so a rubric is
not tuned to one wording:

- hang-checkpoint-rank0/why: the phrase "rank == 0" folds to "rank 0", which every answer names, and
  "save_checkpoint" is on rank 0's stack: both credited an answer that only describes the stacks. The
  point is that only rank 0 *calls* the gather. The NaN story ("DDP's all-reduce hangs on NaNs", "the LR
  warm-up ends at 1200") is a stated wrong cause, a contradiction.
- hang-checkpoint-rank0/fix: "让8个rank都调用" says every rank calls it; running the checkpoint path early
  (in CI, in the first steps) is the verification.
- hang-oom-dead-rank/why: "CUDA OOM and the process exited" says rank 5 died.
- hang-uneven-batches/why: "rank 3 is short by one batch" says it has fewer.
- hang-uneven-batches/fix: "use DistributedSampler" names a class, not what evens the shards (its
  padding, drop_last, the same step count); removing evaluate's barrier is a wrong fix, a contradiction.

Each case: (scenario id, step id, answer, right).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade



RIGHT, WRONG = True, False

CASES = [
    # ---------------------------------------------------------------- hang-checkpoint-rank0 / why
    # labelled (tuning): what the stacks show, without why rank 0 is alone in the gather nor why step 1200
    ("hang-checkpoint-rank0", "why", "Rank 0 is stuck in an all_gather inside save_checkpoint while the other ranks are in "
     "backward, so the ranks are waiting on each other.", WRONG),
    # labelled (tuning): the fluent wrong cause
    ("hang-checkpoint-rank0", "why", "Ranks 1-7 are stuck in backward: at step 1200 the learning-rate warm-up ends and the "
     "larger LR produces NaN gradients, and DDP's all-reduce hangs on NaNs. Rank 0 has already moved on to saving, which is "
     "why its stack looks different.", WRONG),
    ("hang-checkpoint-rank0", "why", "Rank 0 is the only one that calls the all_gather, because save_checkpoint sits under the "
     "rank-0 branch; ranks 1-7 never call it and go on to the next step's all-reduce, so they wait on each other forever. "
     "1200 is the checkpoint interval.", RIGHT),
    ("hang-checkpoint-rank0", "why", "save_checkpoint does an all_gather but only rank 0 enters it. The other seven skipped the "
     "gather and are already in the backward all-reduce of step 1201, so the two sides are in different collectives. It's "
     "always 1200 because that's where we checkpoint: a code bug, not hardware.", RIGHT),
    ("hang-checkpoint-rank0", "why", "只有rank 0调用了save_checkpoint里的all_gather（写在if rank == 0里），其他rank跳过了它，已经进了下一步"
     "backward的all-reduce，两边互相等。1200步正好是存checkpoint的那一步，所以每次都一样。", RIGHT),
    ("hang-checkpoint-rank0", "why", "rank0 alone runs the gather in the ckpt code; the rest are in the next step's allreduce -> "
     "mismatched collectives, deadlock. ckpt every 1200 steps, so same step each run.", RIGHT),
    ("hang-checkpoint-rank0", "why", "Rank 0 is the only one calling the all_gather; the others are in the next step's "
     "all-reduce.", RIGHT),
    ("hang-checkpoint-rank0", "why", "Rank 0 is in an all_gather and the others are in backward. It hangs at step 1200.", WRONG),
    ("hang-checkpoint-rank0", "why", "At step 1200 the LR warm-up finishes and the gradients become NaN; DDP's all-reduce hangs "
     "on NaN values, and rank 0 is just saving.", WRONG),
    ("hang-checkpoint-rank0", "why", "第1200步学习率warmup结束，梯度变成nan，all-reduce遇到nan就卡住了。", WRONG),
    ("hang-checkpoint-rank0", "why", "rank 0, all_gather, save_checkpoint, if rank == 0, step 1200, deadlock", WRONG),

    # ---------------------------------------------------------------- hang-checkpoint-rank0 / fix
    # labelled (tuning)
    ("hang-checkpoint-rank0", "fix", "把if rank == 0:只包住写文件那一行，gather_full_state让8个rank都调用；DDP的话其实rank0自己就有完整参数，"
     "不用gather。 为了早发现：CI里用小步数（比如每10步）跑一遍checkpoint逻辑，开TORCH_DISTRIBUTED_DEBUG=DETAIL检查collective"
     "一致性，线上开flight recorder超时自动dump。", RIGHT),
    ("hang-checkpoint-rank0", "fix", "让8个rank都调用gather_full_state，只把写文件留在if rank == 0里面；再在CI里用很小的checkpoint间隔跑一遍"
     "checkpoint逻辑，开TORCH_DISTRIBUTED_DEBUG=DETAIL。", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Have every rank call the gather and only write the file on rank 0. To catch it early, run "
     "the checkpoint path in the first few steps of every job and keep the timeout short with the flight recorder on.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Raise the NCCL timeout so rank 0 can finish writing.", WRONG),
    ("hang-checkpoint-rank0", "fix", "Run the checkpoint code in CI and keep the timeout short.", WRONG),

    # ---------------------------------------------------------------- hang-oom-dead-rank / why
    # labelled (tuning)
    ("hang-oom-dead-rank", "why", "the thing to notice is that rank 5 isnt hung at all, its gone. py-spy cant even attach, no "
     "such process, and its last log lines say it got a batch at step 3072 with four packed sequences, longest one 32k "
     "tokens, and it tried to grab another 12 gib with only about 9.3 free, so cuda oom and the process exited. and because "
     "this was launched with plain srun there's no torchrun agent that notices a worker died and kills the rest, so the "
     "other seven just keep going into the backward of that step and block in the ddp gradient all-reduce waiting for rank "
     "5, forever, or until the watchdog. and why always 3072, the data order is the same every run, so the same huge batch "
     "shows up on rank 5 at the same step every time.", RIGHT),
    ("hang-oom-dead-rank", "why", "Rank 5 isn't hung, it's gone: its log ends with a CUDA OOM on the batch with a 32K-token "
     "sequence and the process exited. Nothing under srun kills the others, so they sit in the all-reduce until the timeout. "
     "Same data order, same batch, same step.", RIGHT),
    ("hang-oom-dead-rank", "why", "5号rank遇到了一个有32K长序列的batch，cuda oom，进程已经退出了；srun没有agent去停掉其他rank，它们一直在"
     "all-reduce里等。数据顺序不变，所以每次同一步。", RIGHT),
    ("hang-oom-dead-rank", "why", "Every rank runs out of memory at step 3072 because the model is too big.", WRONG),
    ("hang-oom-dead-rank", "why", "The process on rank 5's GPU hit an ECC error; it's a bad GPU, hardware.", WRONG),
    ("hang-oom-dead-rank", "why", "The process did not exit and there was no CUDA OOM; rank 5 is only slow.", WRONG),

    # ---------------------------------------------------------------- hang-uneven-batches / why
    # labelled (tuning)
    ("hang-uneven-batches", "why", "look at rank 3, it's the only one not in backward, it's in evaluate, at a barrier. so rank 3 "
     "thinks the epoch is over and the other seven think there's one more step. that happens because the sampler is hand "
     "written and doesnt pad or drop the remainder, so if the dataset size isnt divisible nicely, some ranks get one sample "
     "or one batch less, and here rank 3 is short by one batch. so rank 3 goes off to eval and waits in the barrier for "
     "everyone, while the other seven do their last training step and block in the ddp gradient all-reduce waiting for rank "
     "3, which never comes. the data split is the same every run so its always the last step of epoch one.", RIGHT),
    ("hang-uneven-batches", "why", "Rank 3 is one batch short, since the hand-written sampler neither pads nor drops the "
     "remainder, so it leaves the loop and waits in evaluate's barrier while the other seven wait in the gradient "
     "all-reduce.", RIGHT),
    ("hang-uneven-batches", "why", "rank 3的shard少了一个batch，手写sampler不pad也不drop_last，它提前进了evaluate的barrier，其他rank在"
     "all-reduce里等它。", RIGHT),
    ("hang-uneven-batches", "why", "Rank 3 is slower than the others, so its evaluation takes too long.", WRONG),
    ("hang-uneven-batches", "why", "Rank 3 is not short of data; it has as many batches as the others and just waits in the "
     "barrier.", WRONG),

    # ---------------------------------------------------------------- hang-uneven-batches / fix
    # labelled (tuning): names the sampler, not what evens the shards
    ("hang-uneven-batches", "fix", "Use DistributedSampler instead of the hand-written sampler.", WRONG),
    # labelled (tuning): negated, and the wrong fix
    ("hang-uneven-batches", "fix", "There is no need to equalize the shards: DDP copes with ranks that have different numbers "
     "of batches on its own, so padding or drop_last change nothing. The fix is to remove the barrier from evaluate; once "
     "rank 3 does not wait there, the others finish their last step without it.", WRONG),
    ("hang-uneven-batches", "fix", "Replace the sampler with DistributedSampler(drop_last=True) so every rank gets the same "
     "number of batches, or wrap the loop in DDP's Join.", RIGHT),
    ("hang-uneven-batches", "fix", "Pad the dataset so all ranks have an equal number of steps; TORCH_DISTRIBUTED_DEBUG=DETAIL "
     "would name the mismatch next time.", RIGHT),
    ("hang-uneven-batches", "fix", "Use torch's DistributedSampler so every rank gets the same number of samples.", RIGHT),
    ("hang-uneven-batches", "fix", "用DistributedSampler并设drop_last=True，让每个rank的step数一样。", RIGHT),
    ("hang-uneven-batches", "fix", "Use drop_last.", RIGHT),
    ("hang-uneven-batches", "fix", "Switch to DistributedSampler.", WRONG),
    ("hang-uneven-batches", "fix", "换成DistributedSampler就行。", WRONG),
    ("hang-uneven-batches", "fix", "Remove the barrier in evaluate() so rank 3 does not wait there.", WRONG),
    ("hang-uneven-batches", "fix", "Use drop_last, and remove the barrier from evaluate so nobody waits there.", WRONG),
    ("hang-uneven-batches", "fix", "把evaluate里的barrier去掉就好了。", WRONG),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), CASES,
                         ids=[f"{q}-{s}-{i}" for i, (q, s, _, _) in enumerate(CASES)])
def test_a_hang_step_reads_the_answer_as_an_interviewer_would(qid, step, answer, right):
    verdict = grade(library().question(qid), answer, step)
    assert verdict.correct is right, (verdict.score, verdict.details["covered"], verdict.feedback["en"])


@pytest.mark.parametrize(("qid", "step", "answer", "contradicted"), [
    ("hang-checkpoint-rank0", "why", "Ranks 1-7 are stuck in backward: DDP's all-reduce hangs on NaNs.", "mismatched"),
    ("hang-checkpoint-rank0", "why", "At step 1200 the learning-rate warm-up ends.", "checkpoint-step"),
    ("hang-uneven-batches", "fix", "The fix is to remove the barrier from evaluate.", "join"),
])
def test_a_stated_wrong_cause_or_fix_is_named(qid, step, answer, contradicted):
    verdict = grade(library().question(qid), answer, step)
    assert not verdict.correct and contradicted in verdict.details["contradicted"], verdict.details


# One phrase among a long run of terms ("equal number of batches", with its "of") no longer makes the
# run a statement; a very long run with a statement or two among its terms, and an environment setting in it, is a list
# too (term_lists: `_listing`, `_definition`).
@pytest.mark.parametrize(("qid", "answer"), [
    ("hang-uneven-batches", "DistributedSampler, padding, drop_last, equal number of batches, all_reduce MIN, DDP join, "
     "uneven inputs, assert shard lengths."),
    ("hang-checkpoint-rank0", "all ranks call the collective, rank 0 writes, barrier, torch.distributed.checkpoint, "
     "TORCH_DISTRIBUTED_DEBUG=DETAIL, flight recorder, torchfrtrace, smoke test, short timeout."),
])
def test_a_long_buzz_list_with_one_phrase_among_its_items_earns_nothing(qid, answer):
    verdict = grade(library().question(qid), answer, "fix")
    assert not verdict.correct, (verdict.score, verdict.details["covered"])
