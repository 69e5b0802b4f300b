"""Hang stages, fifth round (2026-12-03), after the fresh blind batches free_text_mock5/6: the why and fix steps of
the checkpoint, dead-rank and uneven-batch hangs. Right answers in the wordings those batches showed the reader
missing (the collective "called only by rank 0", OutOfMemoryError read from the log, "without a torchrun agent",
activation checkpointing as the memory bound, a MAX/MIN check of the batch counts), each beside a wrong guard that
the widened reading must still refuse. Written by hand, none from the labelled benchmark. Each case: (scenario id,
step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CK, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"

CASES = [
    # the gather's caller named after the verb
    (CK, "why", "Rank 0 sits in an all_gather from gather_full_state; that collective is issued only by rank 0, while "
                "ranks 1-7 went on into the next step's all-reduce. Different collectives, so nobody finishes. 1200 is "
                "our save interval.", RIGHT),
    (CK, "why", "rank 0 卡在 save_checkpoint 的 all_gather，这个 gather 只由 rank 0 调用；其他 rank 已经进了下一步的 backward，"
                "两边各等一个对方不会调用的 collective。1200 正好是 checkpoint 间隔。", RIGHT),
    (CK, "why", "The checkpoint is written only by rank 0, and writing 21 GB to disk is slow, so the others time out "
                "in the all-reduce at the checkpoint step.", WRONG),
    (CK, "why", "The save path has a collective hidden in it and it only executes on rank zero, so rank 0 waits in the "
                "all_gather for peers who moved on to the next step's gradient all-reduce. 1200 is when we checkpoint.",
     RIGHT),
    (CK, "why", "The gather is called only by rank 0; the others are in a different collective. Step 1200 is where "
                "rank 0's GPU overheats.", WRONG),
    # the dead rank: the exception's name, the process py-spy cannot find, the agent's absence said with "without"
    (OOM, "why", "Seven stacks sit in backward and the eighth can't be dumped at all: no such process. Rank 5's log "
                 "ends in OutOfMemoryError on the batch with the 32,768-token sequence. Under srun nothing tears the "
                 "job down, so the seven block in the all-reduce. The data order is fixed, so that batch comes at "
                 "3072 every run.", RIGHT),
    (OOM, "why", "Rank 5 OOMed on the 32K batch and exited; without a torchrun agent the other seven just block in the "
                 "gradient all-reduce until the NCCL timeout. Same data order, same batch, same step.", RIGHT),
    (OOM, "why", "rank 5 在 32K token 的长 batch 上 OOM 退出了；没有 torchrun 的 agent，其他 7 个 rank 就一直卡在 all-reduce "
                 "里等。数据顺序固定，所以每次都是同一步。", RIGHT),
    (OOM, "why", "Rank 5 died of OOM on the 32K-token batch, the same batch every run because the data order is fixed. "
                 "Without torchrun the others would be torn down at once.", WRONG),
    (OOM, "why", "Every rank hit OutOfMemoryError on the 32K batch at step 3072, and under srun nobody kills the job; "
                 "the fixed data order brings it back every run.", WRONG),
    # the bound on the longest batch, by other names
    (OOM, "fix", "- Memory: gradient checkpointing on the long sequences\n- Launch: torchrun, so one dead worker "
                 "stops them all", RIGHT),
    (OOM, "fix", "Pack micro-batches to a 16K token budget, and launch with srun --kill-on-bad-exit=1 so a dead rank "
                 "ends the job.", RIGHT),
    (OOM, "fix", "打包时每个 micro-batch 不超过 16K token；用 torchrun 启动，一个 rank 挂了就全停。", RIGHT),
    (OOM, "fix", "Turn off activation checkpointing for the long sequences and launch with torchrun.", WRONG),
    # a budget of 32K tokens is below this batch (four sequences, the longest 32,768): a bound, unlike a 32K length cap
    (OOM, "fix", "Keep the packer at 32K tokens per micro-batch at most, and launch with torchrun.", RIGHT),
    (OOM, "fix", "Cap tokens per micro-batch at 32K and launch with torchrun.", RIGHT),
    (OOM, "fix", "Cap the sequence length at 32K and launch with torchrun.", WRONG),
    (OOM, "fix", "At most four sequences per micro-batch, as now, and launch with torchrun.", WRONG),
    (OOM, "fix", "每个 micro-batch 最多 4 条序列，用 torchrun 启动。", WRONG),
    (CK, "fix", "Hoist gather_full_state out of the rank-0 branch so all eight ranks enter the all_gather, and keep "
                "only the file write under if rank == 0. Short NCCL timeout, and a two-step test with save_every=1 "
                "before launching.", RIGHT),
    (CK, "fix", "Raise the NCCL timeout to an hour and run a test with save_every=1.", WRONG),
    # the step counts evened: a MAX/MIN check is not the maximum taken, trimming by what it gives
    (UNEVEN, "fix", "Pad the short shard so every rank has the same number of batches, DistributedSampler does it. "
                    "At startup I'd all-reduce len(loader) with MAX and MIN and fail if they differ.", RIGHT),
    (UNEVEN, "fix", "All-reduce the batch count with MAX up front so every rank runs the same number of steps.", WRONG),
    (UNEVEN, "fix", "Equal batch counts per rank: trim the tail so every shard has the same length.", RIGHT),
    (UNEVEN, "fix", "Repeat a few samples on rank 3 by hand so its shard has the same length.", WRONG),
    # the wrong fixes of the negated voice: the counts said to be even already, rank 3 let past evaluate
    (UNEVEN, "fix", "Use DistributedSampler with padding. The counts are already equal on ranks 0-2 and 4-7, only "
                    "rank 3 is short.", RIGHT),
    (UNEVEN, "fix", "Padding won't matter: every rank already has the same number of batches. Use DistributedSampler "
                    "with drop_last anyway.", WRONG),
    (UNEVEN, "fix", "用 DistributedSampler 加 padding，让每个 rank 的 batch 数一样；只让 rank 3 跳过 evaluate 是没用的。", RIGHT),
    (UNEVEN, "fix", "Pad every rank's shard to the same length with DistributedSampler, then have rank 3 skip "
                    "evaluate.", WRONG),
    (UNEVEN, "fix", "每个 rank 的 batch 数本来就一样，pad 没用；让 rank 3 跳过 evaluate 就不会卡在 barrier 上。", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round5_hang_answers_and_guards(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
