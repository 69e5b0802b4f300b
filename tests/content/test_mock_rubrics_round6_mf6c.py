"""Hang stages and their follow-ups, sixth round (2026-12-03): each required or heavy point said the ways a strong
candidate says it (the suspect ruled out instead of the culprit named, the raise as when-not-whether, the gather
hoisted, the exit made fatal, MIN as code, Chinese typed with English terms), and the near misses each widening must
not credit (the point turned round, the wrong value, the same words about another thing). Written by hand, none
from the labelled benchmark. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
MOVING, TIMEOUT = "followup-moving-hang", "followup-raise-timeout"
CKPT, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"

CASES = [
    # a hang that moves: the code ruled out, the node found across runs
    (MOVING, None, "Random steps, so I'd mostly stop suspecting the training code. Collect the flight-recorder dumps "
                   "from each hang: which rank didn't enter the collective, and which node is it on? If it's the same "
                   "node every time, run nccl-tests against a neighbour, check Xid/ECC, and drain it.", RIGHT),
    (MOVING, None, "A code bug would hang at the same step every time; this one moves, so my money is on a GPU or a "
                   "link. I'd map each run's missing rank to its host, look for the overlap, test that node with "
                   "nccl-tests and exclude it.", RIGHT),
    (MOVING, None, "step不固定，基本可以排除代码问题。每次都用flight recorder找出缺席的rank，映射到节点看有没有重合，"
                   "再对那台机器跑nccl-tests、查Xid，把它踢掉从checkpoint恢复。", RIGHT),
    (MOVING, None, "位置会变的 hang 一般不是代码，代码 bug 是可复现的。每次卡的位置都不一样 → 硬件/网络的嫌疑大。把几次 hang 的"
                   "缺席 rank 换算成 hostname，看是否落在同一个节点上，再跑 nccl-tests，把坏节点摘掉。", RIGHT),
    (MOVING, None, "It's less likely hardware and more likely our code. I'd find the missing rank with py-spy, map it "
                   "to its node, run nccl-tests and drain the node.", WRONG),
    (MOVING, None, "I wouldn't rule out the code: I'd keep reading the training loop, then find the missing rank with "
                   "py-spy and run nccl-tests.", WRONG),
    (MOVING, None, "硬件的可能性不大，还是代码问题。用 py-spy 找出缺席的 rank，再跑 nccl-tests。", WRONG),
    (MOVING, None, "It moved from step 800 to 2300 to 1500, so it isn't something in the data or the loop; it's "
                   "something physical. If three hangs all trace back to node-07, that's the one: nccl-tests on it, "
                   "then drain it.", RIGHT),
    (MOVING, None, "The machines are probably fine, it's a race in our code. I'd still map the missing rank to its "
                   "node and run nccl-tests there.", WRONG),
    # raising the timeout: when, not whether; keep it short and make it dump
    (TIMEOUT, None, "I'd tell them what happened to us: someone bumped it to two hours and the next hang failed two "
                    "hours later, same root cause. Raising the timeout changes when you find out, not whether. Keep "
                    "the 10-minute default and make the flight recorder dump on timeout.", RIGHT),
    (TIMEOUT, None, "I'd push back. The job isn't failing because ten minutes is too short; healthy collectives finish "
                    "in milliseconds. A bigger timeout only delays detection and idles the whole cluster longer. The "
                    "one fair exception is a known long one-off like a first compile; then fix that step or scope a "
                    "longer timeout to it. Otherwise flight recorder plus py-spy, find who's missing.", RIGHT),
    (TIMEOUT, None, "The timeout is the smoke detector, not the fire. Shorter, not longer: fail fast and capture the "
                    "flight recorder.", RIGHT),
    (TIMEOUT, None, "timeout只是报警，根因是某个rank挂了或者卡住了，调大只会晚点报错。保持默认10分钟，开启"
                    "TORCH_NCCL_DUMP_ON_TIMEOUT，用dump找缺席的rank。", RIGHT),
    (TIMEOUT, None, "把 timeout 调到两小时，hang 还是 hang，只是晚两小时才报错，整个集群都在空转。应该把 timeout 调短，"
                    "并且超时时让 flight recorder 自动 dump。", RIGHT),
    (TIMEOUT, None, 'The colleague thinks "the timeout is the problem", but it isn\'t: a rank is missing from the '
                    "collective, and a longer timeout only waits longer while the cluster idles. Keep it short and dump "
                    "the flight recorder on timeout.", RIGHT),
    (TIMEOUT, None, "Sure, raise it to an hour, the ranks will sync eventually, and dump the flight recorder if it "
                    "still fails.", WRONG),
    (TIMEOUT, None, "Raising the timeout is fine as long as we also dump the flight recorder on timeout.", WRONG),
    (TIMEOUT, None, "Raising it fixes the failure, since ten minutes is too short for our collectives; keep the "
                    "flight recorder on to be safe.", WRONG),
    # the checkpoint gather that only rank 0 calls
    (CKPT, "why", "Nobody but rank 0 calls the all_gather in the checkpoint save, and ranks 1-7 have already moved on "
                  "to the next step's gradient all-reduce: two different collectives, so each waits forever.", RIGHT),
    (CKPT, "why", "Only rank 0 saves the checkpoint, and saving does an all_gather of the full state, which the other "
                  "ranks never issue; they continued into the next iteration and blocked on the gradient sync. It "
                  "happens at 1200 because that's the checkpoint interval.", RIGHT),
    (CKPT, "why", "只有rank0会执行save_checkpoint，里面有个all_gather，别的rank不进这个分支，已经跑到下一步的"
                  "all_reduce了，两边等的不是同一个collective。1200 正好是存 checkpoint 的步数。", RIGHT),
    (CKPT, "why", "All ranks call the all_gather in save_checkpoint, but rank 0 is slow to write the file to disk, "
                  "so the others wait in the all-reduce.", WRONG),
    (CKPT, "why", "Rank 0 skips the all_gather that the other ranks are in, so they wait at step 1200.", WRONG),
    (CKPT, "why", "The all_gather only runs on the rank that saves. The rest are one step ahead, in the all-reduce "
                  "of step 1201, so the collectives never match. 1200 is the checkpoint interval.", RIGHT),
    (CKPT, "fix", "Hoist the gather so all 8 ranks hit it, then guard just the file write with rank == 0. Keep the "
                  "NCCL timeout short and set TORCH_DISTRIBUTED_DEBUG=DETAIL.", RIGHT),
    (CKPT, "fix", "改成用DCP，每个rank存自己的shard；timeout 设短一点，打开 TORCH_DISTRIBUTED_DEBUG=DETAIL。", RIGHT),
    (CKPT, "fix", "Keep the all_gather on rank 0 and add a matching all_reduce in the else branch for ranks 1-7.",
     WRONG),
    (CKPT, "fix", "Move the file write out of the if so every rank writes the full checkpoint, but keep the gather on "
                  "rank 0.", WRONG),
    # the rank that ran out of memory under srun
    (OOM, "why", "GPU 5 blew its memory on a long document (longer seq means more activation memory) and the python "
                 "process is gone. The sampler is seeded and the sample order never changes, so it's the same batch "
                 "at the same step. Under srun nothing tears the job down: the survivors don't know rank 5 is gone "
                 "and keep waiting in the collective.", RIGHT),
    (OOM, "why", "rank 5 爆显存了，进程直接退出：第3072步的batch里有一条32K的长序列，activation跟序列长度成正比。seed固定，"
                 "数据顺序一样，同一个batch每次都落在这一步。没有torchrun的agent，srun不会因为一个rank退出就杀掉整个job，"
                 "其他rank就一直卡在all_reduce里等到超时。", RIGHT),
    (OOM, "why", "Rank 5 is just slow on the long 32K batch, and the others keep waiting in the all-reduce; srun has "
                 "no agent to stop them.", WRONG),
    (OOM, "why", "Rank 5 ran out of memory on the 32K batch, and the same step repeats because GPU 5 has a hardware "
                 "fault; srun has no agent, so the others wait in the all-reduce.", WRONG),
    (OOM, "fix", "Split or drop documents longer than 8K before packing. Make a rank's exit fatal to the whole job: "
                 "torchrun, or srun --kill-on-bad-exit=1. And have every rank log its own file.", RIGHT),
    (OOM, "fix", "Turn on activation checkpointing, sized for the worst-case 32K sequence, and keep the NCCL timeout "
                 "at a few minutes with TORCH_NCCL_ASYNC_ERROR_HANDLING so the survivors abort.", RIGHT),
    (OOM, "fix", "packing 时限制每个 micro batch 的 token 数，最长不超过 8K；让任何一个rank退出都直接结束整个job。", RIGHT),
    (OOM, "fix", "Cap the sequence length at 32K and launch with torchrun so the agent kills every worker.", WRONG),
    (OOM, "fix", "Make the packer respect a max of 32K tokens per sample, and use torchrun so one dead worker "
                 "takes the whole job down.", WRONG),
    (OOM, "fix", "Put a ceiling on tokens per micro-batch when packing, below what fits in 80 GB, and add "
                 "--kill-on-bad-exit=1 to srun so one rank's death ends the job.", RIGHT),
    (OOM, "fix", "Split or drop documents longer than 8K, and raise the NCCL timeout to a few hours so rank 5 can "
                 "come back.", WRONG),
    # the rank with one batch fewer
    (UNEVEN, "why", "The hand-written sampler gives rank 3 a shorter shard, so it leaves the loop early and waits in "
                    "evaluate()'s barrier while the rest are in the gradient all-reduce: different collectives.", RIGHT),
    (UNEVEN, "why", "rank 3 的 dataloader 先耗尽了，进了 evaluate 的 barrier；其他 rank 还在最后一步的 all_reduce 里等，两个 "
                    "collective 对不上。sampler 没有 pad 也没有 drop_last。", RIGHT),
    (UNEVEN, "why", "Rank 3 reaches the barrier before the others because its GPU is faster, and the rest wait in "
                    "the all-reduce.", WRONG),
    (UNEVEN, "why", "The other ranks have one batch fewer than rank 3, so they wait in the barrier.", WRONG),
    (UNEVEN, "fix", "all_reduce(MIN) the local batch counts and run that many steps on every rank; set "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL to catch the next mismatch.", RIGHT),
    (UNEVEN, "fix", "把数据集裁成 world_size 的整数倍，每个 rank 步数相同；再开 TORCH_DISTRIBUTED_DEBUG=DETAIL。", RIGHT),
    (UNEVEN, "fix", "all_reduce the loss with MIN across ranks before logging, and set TORCH_DISTRIBUTED_DEBUG=DETAIL.",
     WRONG),
    (UNEVEN, "fix", "all_reduce the batch count with MAX and loop that many times on every rank.", WRONG),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), CASES)
def test_hand_written_answers(qid, step, answer, right):
    question = library().question(qid)
    verdict = grade(question, answer, step, 0)
    assert verdict.correct is right, (verdict.score, verdict.details)
