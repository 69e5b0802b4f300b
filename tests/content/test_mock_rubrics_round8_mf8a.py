"""Hangs, eighth round (2026-12-04). Each idea the grader failed to read, said the ways other candidates say it,
written by hand without the labelled benchmark, beside near misses that must still fail:

- only rank 0 calls the checkpoint's gather, said as a path: rank 0 went down a branch the others did not take
  ("a branch the others didn't", "a code path nobody else takes", "其他 rank 不走的分支"); the same said of ranks 1-7,
  or the branch said to be taken by all, is not it;
- the OOM step repeats because of the data, said as an adjective or a dependence ("data-driven", "data-dependent",
  "取决于数据"), as that batch coming back every run, or as a swapped order moving it; the data loader said to be
  slow every time is not it;
- rank 3's shard is the short one, said by its length ("one batch shorter") or by its epoch's end ("finishes the
  epoch a step early", "早一步结束"), or the batch counts said to differ; the longer shard on rank 3, or the others
  said to end first, is the opposite; and the short epoch put on crashed workers or on shards said to be even is a
  wrong cause (shards-equal, loader-crashed widened to workers plural).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CKPT, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"

# the rest of a right answer to each why step, so each case turns on the point of its idea
_CKPT = " They are in different collectives, so each side waits for the other. 1200 is the checkpoint step."
_CKPT_ZH = "大家进的不是同一个 collective，互相等。1200 正好是存 checkpoint 的那一步。"
_OOM = " Rank 5 OOMs on the 32K-token batch; under srun nothing kills the others, so they wait in the all-reduce."
_OOM_ZH = "rank 5 在 32K token 的 batch 上 OOM 退出，srun 下没人停掉任务，其他 rank 在 all reduce 里一直等。"
_UNEVEN = (" It goes into evaluate() and waits in dist.barrier() while the others wait in the gradient all-reduce: "
           "different collectives.")
_UNEVEN_ZH = "它进了 evaluate 的 barrier，其他 rank 还在 all reduce 里等：不是同一个 collective。"

CASES = [
    # A. rank 0 took a path the others did not
    (CKPT, "Rank 0 went into a branch the others didn't, and that branch has a collective in it." + _CKPT, RIGHT),
    (CKPT, "Rank 0 took a code path the other ranks never take, and there's an all_gather on it." + _CKPT, RIGHT),
    (CKPT, "rank 0: a branch the others don't take, collective inside." + _CKPT, RIGHT),
    (CKPT, "Like a conference call one person dialed alone: rank 0 took a path nobody else took, with a gather on it."
     + _CKPT, RIGHT),
    (CKPT, "Had the other ranks taken the same branch it would not hang; rank 0 takes a branch the others don't."
     + _CKPT, RIGHT),
    (CKPT, "The save branch is taken by rank 0 and by none of the others." + _CKPT, RIGHT),
    (CKPT, "rank 0 走进了一个其他 rank 不走的分支，分支里有 collective。" + _CKPT_ZH, RIGHT),
    (CKPT, "rank0走了别的rank没走的分支，里面有all_gather。" + _CKPT_ZH, RIGHT),
    (CKPT, "0号进了 save 的分支，其他卡都没走这条路径，里面却调了 all_gather。" + _CKPT_ZH, RIGHT),
    # near misses: the branch taken by all, the ranks reversed, a slow write, zh said of all
    (CKPT, "The other ranks went into the same branch as rank 0 and are all in the all_gather." + _CKPT, WRONG),
    (CKPT, "Ranks 1-7 went into a branch rank 0 didn't, and that branch has a collective in it." + _CKPT, WRONG),
    (CKPT, "Every rank takes the same branch; rank 0 is just slow writing the file." + _CKPT, WRONG),
    (CKPT, "其他 rank 也走了这个分支，都在 all_gather 里。" + _CKPT_ZH, WRONG),
    (CKPT, "rank 0 进了只有它会进的分支，里面有个 all_gather。" + _CKPT_ZH, RIGHT),
    (CKPT, "Rank 0 diverged into a branch no one else took." + _CKPT, RIGHT),
    (CKPT, "rank 0 只有它没进这个分支，其他 rank 都进了。" + _CKPT_ZH, WRONG),
    (CKPT, "Only rank 0 skips the branch; the others take it." + _CKPT, WRONG),
    # B. the OOM step follows the data
    (OOM, "It's data-driven." + _OOM, RIGHT),
    (OOM, "Data-driven OOM, fixed order, same step." + _OOM, RIGHT),
    (OOM, "The hang is data-dependent, not the GPU." + _OOM, RIGHT),
    (OOM, "It depends on the data: the long batch always comes up at 3072." + _OOM, RIGHT),
    (OOM, "Swap the data order and it would die at a different step." + _OOM, RIGHT),
    (OOM, "Like a pothole at the same mile of the same road: the data puts that batch there every run." + _OOM, RIGHT),
    (OOM, "这是数据驱动的，不是卡的问题。" + _OOM_ZH, RIGHT),
    (OOM, "取决于数据：那个长 batch 每次都在 3072 出现。" + _OOM_ZH, RIGHT),
    (OOM, "是数据相关的OOM，顺序固定。" + _OOM_ZH, RIGHT),
    # near misses: the data denied, a creeping leak, a bad card, no word on the step
    (OOM, "It is not data-driven; the GPU on that node is flaky." + _OOM, WRONG),
    (OOM, "Rank 5 OOMs because memory leaks until 3072." + _OOM, WRONG),
    (OOM, "不是数据驱动的，是那张卡坏了。" + _OOM_ZH, WRONG),
    (OOM, _OOM.strip(), WRONG),
    (OOM, "Because the loader replays the same sequence of batches every run." + _OOM, RIGHT),
    (OOM, "跟 batch 内容有关，和卡无关。" + _OOM_ZH, RIGHT),
    # the data named with "every time" is not the batch coming back: a slow loader; the return denied
    (OOM, "The data loader is slow every time at that step." + _OOM, WRONG),
    (OOM, "The long batch is not there every run; it moves around." + _OOM, WRONG),
    # C. rank 3's shard is the short one, by its length or its epoch's end
    (UNEVEN, "Rank 3's shard is one batch shorter than the others." + _UNEVEN, RIGHT),
    (UNEVEN, "Rank 3 finishes the epoch a step early." + _UNEVEN, RIGHT),
    (UNEVEN, "With no padding, the per-rank batch counts differ." + _UNEVEN, RIGHT),
    (UNEVEN, "Rank 3 reaches the end of its epoch one step before everyone else." + _UNEVEN, RIGHT),
    (UNEVEN, "Like a relay runner with a shorter lap, rank 3 is done a step ahead." + _UNEVEN, RIGHT),
    (UNEVEN, "If rank 3 had as many batches as the others it would not hang; rank 3 runs dry a step early." + _UNEVEN,
     RIGHT),
    (UNEVEN, "rank 3 的 shard 短一个 batch，提前一步结束 epoch。" + _UNEVEN_ZH, RIGHT),
    (UNEVEN, "rank3的epoch早一步结束。" + _UNEVEN_ZH, RIGHT),
    (UNEVEN, "各 rank 的 batch 数不一样，rank 3 最少。" + _UNEVEN_ZH, RIGHT),
    # near misses: the longer shard on rank 3, the others said to end first, rank 3 slow, zh reversed
    (UNEVEN, "Rank 3's shard is one batch longer than the others." + _UNEVEN, WRONG),
    (UNEVEN, "The other ranks finish the epoch a step early, rank 3 is still in the all-reduce." + _UNEVEN, WRONG),
    (UNEVEN, "Rank 3 does not finish early; its GPU is just slower." + _UNEVEN, WRONG),
    (UNEVEN, "rank 3 的 shard 长一个 batch，其他 rank 早一步结束。" + _UNEVEN_ZH, WRONG),
    (UNEVEN, "Rank 3 finishes its epoch first." + _UNEVEN, RIGHT),
    (UNEVEN, "rank 3 的 epoch 比别的 rank 早结束一步。" + _UNEVEN_ZH, RIGHT),
    # the short epoch put on something else: crashed workers, the shards said to be even
    (UNEVEN, "Rank 3's loader lost its last batches because two of its workers crashed mid-epoch, so it left the loop "
     "early." + _UNEVEN, WRONG),
    (UNEVEN, "Rank 3 leaves the loop a step early, but the shards are the same size: the sampler is fine, something "
     "else cut it short." + _UNEVEN, WRONG),
    (UNEVEN, "rank 3 提前跳出循环，但 shard 一样大，sampler 没问题。" + _UNEVEN_ZH, WRONG),
    (UNEVEN, "The sampler is not fine: rank 3's shard is one batch shorter." + _UNEVEN, RIGHT),
    # the others said to be ahead of rank 3: "a step before" takes an object, so it is not in the concept
    (UNEVEN, "The others are a step ahead of rank 3." + _UNEVEN, WRONG),
    (UNEVEN, "The other seven finish a step before rank 3." + _UNEVEN, WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), [(c[0], "why", c[1], c[2]) for c in CASES])
def test_round8_hang_rubrics_and_guards(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
