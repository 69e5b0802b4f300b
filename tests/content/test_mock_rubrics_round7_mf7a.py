"""Hangs and the hang story, seventh round (2026-12-04). Each idea the grader failed to read, said the ways other
candidates say it, written by hand without the labelled benchmark, beside near misses that must still fail:

- only rank 0 calls the checkpoint's all_gather, said from the others' side ("the other seven never join it",
  "其他 rank 根本没进这个函数"), or as a collective hidden in rank-0-only code ("the save is rank-0-only but has a
  collective inside it": a predicate after "but" with no subject is said of the clause before);
- rank 3's shard is the short one, said as "came up short" or as the others' extra batch; the longer shard put on
  rank 3 is the opposite (rank3-more, others-ran-out);
- the OOM step repeats because it follows the data: said as the hang tracking the data, a reshuffle moving it, or a
  hardware fault that would wander;
- a hang story's situation with the watchdog's report as Chinese says it ("报 timeout") and the hang as an event
  ("一开始就 hang"); its cause as a send/recv pair that never matched; its result as the hangs gone;
- a Chinese "if" said first joins its clause as the English one does ("如果是硬件，卡住的步数会随机");
- the reader rule: a speaker who stopped doing something denies it ("we stopped fixing it with a longer timeout"),
  while an event that stopped does not, and the stop reaches only its own gerund.
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.claims.negation import _negations
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CKPT, OOM, UNEVEN, STORY = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches", "behavioural-hang-story"

# the rest of a right answer to hang-checkpoint-rank0/why, so each case turns on the only-rank0 point
_CKPT_REST = " They are in different collectives, so each side waits for the other. 1200 is the checkpoint step."
_CKPT_REST_ZH = "大家进的不是同一个 collective，互相等。1200 正好是存 checkpoint 的那一步。"

CASES = [
    # A. only rank 0 calls the all_gather, said of the others
    (CKPT, "why", "Rank 0 calls all_gather inside save_checkpoint; the other seven never join it." + _CKPT_REST, RIGHT),
    (CKPT, "why", "The rest never enter that function: rank 0 is in the all_gather alone." + _CKPT_REST, RIGHT),
    (CKPT, "why", "Ranks 1-7 never show up for the gather, they went straight to backward." + _CKPT_REST, RIGHT),
    (CKPT, "why", "The other ranks are not in save_checkpoint at all." + _CKPT_REST, RIGHT),
    (CKPT, "why", "Think of a meeting only one person was invited to: the others never get to the all_gather."
     + _CKPT_REST, RIGHT),
    (CKPT, "why", "rank 0 在 save_checkpoint 里调了 all_gather，其他 rank 根本没进这个函数。" + _CKPT_REST_ZH, RIGHT),
    (CKPT, "why", "其他rank没走到这个gather，直接去跑下一步了。" + _CKPT_REST_ZH, RIGHT),
    (CKPT, "why", "其余 7 个 rank 不参与这个 collective，只有它自己在 all_gather 里。" + _CKPT_REST_ZH, RIGHT),
    (CKPT, "why", "If ranks 1-7 had called save_checkpoint too it would not hang, but the other ranks never call it."
     + _CKPT_REST, RIGHT),
    # A'. ... or as a collective hidden in rank-0-only code, the predicate after "but" said of it
    (CKPT, "why", "It's a conference call one person dialed into alone: the save is rank-0-only but has a collective "
     "hidden inside it." + _CKPT_REST, RIGHT),
    (CKPT, "why", "save_checkpoint is rank-0-only but contains an all_gather." + _CKPT_REST, RIGHT),
    (CKPT, "why", "The gather lives in a rank-0-only code path." + _CKPT_REST, RIGHT),
    (CKPT, "why", "The checkpoint path runs only on rank 0 but calls a collective inside." + _CKPT_REST, RIGHT),
    # near misses: the others said to enter it, the roles reversed, a slow write, the others said to have exited
    (CKPT, "why", "其他 rank 也进了这个函数，都在 all_gather 里。" + _CKPT_REST_ZH, WRONG),
    (CKPT, "why", "Rank 0 never joins the all_gather; the others call it in save_checkpoint and rank 0 went on to the "
     "all-reduce." + _CKPT_REST, WRONG),
    (CKPT, "why", "The other seven never join it because rank 0 is too slow writing the checkpoint to disk."
     + _CKPT_REST, WRONG),
    (CKPT, "why", "The other seven have already exited, so they never enter the gather." + _CKPT_REST, WRONG),
    (CKPT, "why", "The save is rank-0-only but rank 0 is just slow writing it to disk." + _CKPT_REST, WRONG),
    (CKPT, "why", "The save is rank-0-only, which is fine, but every rank calls the all_gather." + _CKPT_REST, WRONG),
    # B. rank 3's shard is the short one, or the others have the extra batch
    (UNEVEN, "why", "With no padding the per-rank counts differ by one, and rank 3 is the one that came up short. It "
     "waits in evaluate's barrier while the others wait in the all-reduce.", RIGHT),
    (UNEVEN, "why", "Rank 3's shard is short, so it reaches evaluate's barrier while the others sit in the gradient "
     "all-reduce: different collectives.", RIGHT),
    (UNEVEN, "why", "The seven ranks with an extra batch block on an all-reduce that rank 3, already at the barrier, "
     "never joins: different collectives.", RIGHT),
    (UNEVEN, "why", "The other seven have one more batch than rank 3, so they run one more backward and wait in its "
     "all-reduce, while rank 3 waits in evaluate's barrier.", RIGHT),
    (UNEVEN, "why", "Musical chairs: rank 3 runs dry first and sits down at the barrier, the other seven are still in "
     "the gradient all-reduce.", RIGHT),
    (UNEVEN, "why", "rank 3 的数据先跑完，进了 evaluate 的 barrier；其他 rank 还在 all-reduce 里等它。", RIGHT),
    (UNEVEN, "why", "其他 7 个 rank 多一个 batch，还在最后一步的 all-reduce 里等；rank 3 已经在 barrier 里了。", RIGHT),
    (UNEVEN, "why", "rank3的shard少一个batch，先结束循环进了barrier，其他rank在all reduce里等。", RIGHT),
    # near misses: the long shard put on rank 3, the others said to run out first, rank 3 slow, the short side negated
    (UNEVEN, "why", "Rank 3 has one more batch than everyone else: it is still doing its extra backward while the "
     "others wait in evaluate's barrier.", WRONG),
    (UNEVEN, "why", "The other seven ran out of data first and are waiting in evaluate's barrier; rank 3 is still in "
     "the all-reduce.", WRONG),
    (UNEVEN, "why", "rank 3 多一个 batch，其他 rank 先跑完，在 barrier 里等它。", WRONG),
    (UNEVEN, "why", "Rank 3 is not the one that came up short; it is slower, so the others wait in the all-reduce.",
     WRONG),
    # D. the OOM step follows the data
    (OOM, "why", "Rank 5 ran out of memory on the batch with the 32K-token sequence and died. It follows the data: "
     "change the shuffle and the hang moves. Under srun no agent kills the others, so they wait in the all-reduce.",
     RIGHT),
    (OOM, "why", "If this were hardware the step would wander between runs. Rank 5 OOMs on the 32K-token batch and "
     "exits; under srun nothing tears the job down, the other seven wait in the all-reduce.", RIGHT),
    (OOM, "why", "A bad GPU would hang at a different step each run; this one tracks the batch. Rank 5 hit CUDA OOM on "
     "the 32K-token sequence, and with no torchrun agent the survivors wait in the all-reduce forever.", RIGHT),
    (OOM, "why", "Reshuffle the data and it moves to another step. Rank 5 OOMed on its long 32K batch; with plain srun "
     "the others block in the all-reduce until the timeout.", RIGHT),
    (OOM, "why", "rank 5 在 32K token 的那个 batch 上 OOM 退出了；问题跟着数据走，换个 seed 就换一步。用的是 srun，"
     "没有 agent，其他 rank 在 all reduce 里一直等。", RIGHT),
    (OOM, "why", "如果是硬件，卡住的步数会随机；这里每次都一样。rank 5 碰到 32K 的长序列 OOM 了，srun 下没人停掉任务，"
     "其他 rank 在 all reduce 里一直等。", RIGHT),
    (OOM, "why", "rank5在32K的长batch上OOM，跟着数据，不是卡的问题。srun没有agent，其他rank在all reduce里一直等到超时。",
     RIGHT),
    (OOM, "why", "Rank 5's 32K-token batch OOMs it. Change the seed and the hang goes somewhere else. Under srun the "
     "survivors wait in the all-reduce forever.", RIGHT),
    # near misses: the step put on hardware, on a creeping leak, the data denied, no word on the step
    (OOM, "why", "Rank 5 OOMs on the 32K batch; it's a bad GPU on that node, so under srun the others wait in the "
     "all-reduce.", WRONG),
    (OOM, "why", "Rank 5 OOMs; the same step because memory builds up until 3072. Under srun the others wait in the "
     "all-reduce.", WRONG),
    (OOM, "why", "It doesn't follow the data: rank 5 OOMs, and under srun the others wait in the all-reduce.", WRONG),
    (OOM, "why", "Rank 5 OOMs on the 32K batch, and under srun the others wait in the all-reduce forever.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round7_hang_rubrics_and_guards(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right


# The hang story's points, one at a time (a story passes only whole): the situation's symptom, the cause as a
# send/recv pair that never matched, the result as the hangs gone; and the near misses each must refuse.
STORY_POINTS = [
    ("当时是一个 256 卡的预训练，跑了大概六个小时，NCCL watchdog 报 timeout。", "situation", True),
    ("64 卡的 SFT，每次到 epoch 末尾就报了超时。", "situation", True),
    ("4 个 stage 的 pipeline，我改了 schedule 之后，训练一开始就 hang。", "situation", True),
    ("一个 512 卡的训练任务，跑到第 3 万步就卡死了。", "situation", True),
    ("A 128-GPU pre-train hit the watchdog after ten minutes at step 9000.", "situation", True),
    ("Our 1,024-GPU run locked up at the first checkpoint, every time.", "situation", True),
    ("我们的训练跑了两天，watchdog 报错把任务杀了。", "situation", True),
    ("On a 64-GPU job the watchdog kicked in at the last step of every epoch.", "situation", True),
    ("I usually look at every rank's stack when a job hangs.", "situation", False),
    ("训练从来没 hang 过。", "situation", False),
    ("stage 2 停在 recv，stage 3 也停在 recv，send/recv 没配对，死锁了。", "cause", True),
    ("Stage 2 and stage 3 both posted recv first, so the send and recv never paired.", "cause", True),
    ("The p2p calls were out of order after my schedule change: both stages waiting for each other in recv.", "cause",
     True),
    ("isend/irecv 顺序反了，两个 stage 都在等对方先发。", "cause", True),
    ("The send and recv didn't match after the reorder.", "cause", True),
    ("点对点的 send 和 recv 对不上，两边都在等。", "cause", True),
    ("Like two people on a phone each waiting for the other to talk first: stage 3's send and recv were in the "
     "wrong order.", "cause", True),
    ("send/recv 顺序不对，stage 3 先 recv 了。", "cause", True),
    ("The send and recv were paired correctly; the stage was just slow.", "cause", False),
    ("send/recv 都配对了，没问题。", "cause", False),
    ("I looked at the recv on every stage.", "cause", False),
    ("We raised the timeout and the send went through.", "cause", False),
    ("After equal batches per rank, the end-of-epoch hangs were gone.", "result", True),
    ("The hang disappeared once every rank called the gather.", "result", True),
    ("把 stage 3 改成先 send 后 recv，马上就通。", "result", True),
    ("改完之后再也没卡过。", "result", True),
    ("The hangs never came back after the fix.", "result", True),
    ("Moving the gather out of the branch and the hang was gone.", "result", True),
    ("改完以后跑通了。", "result", True),
    ("Once the sampler dropped the remainder, the hangs vanished.", "result", True),
    ("py-spy put rank 0 alone in all_gather inside save_checkpoint; I concluded rank 0's GPU was faulty.", "cause", False),
    ("栈显示 rank 0 停在 all_gather，我判断是卡坏了，换了机器。", "cause", False),
    ("dmesg on that node showed Xid 79: the GPU had fallen off the bus and the process was gone.", "cause", True),
    ("The hangs were not gone after the restart.", "result", False),
    ("hang 还是没通。", "result", False),
]


@pytest.mark.parametrize(("answer", "point", "stated"), STORY_POINTS)
def test_round7_story_points(answer, point, stated):
    assert (point in grade(library().question(STORY), answer, None).details["covered"]) is stated


# Whole stories: the STAR answer whose pushback on the timeout raise was read as the raise, and a story that does raise it.
_STAR = ("- S: 64-GPU run, NCCL timeout at the last step of every epoch. - A: py-spy on each rank: 63 ranks in the grad "
         "all-reduce, one already out of the training loop. Its data shard had one batch fewer (uneven split, no "
         "drop_last). - R: equal batches per rank via DistributedSampler(drop_last=True); end-of-epoch hangs gone, ")
STORIES = [
    (_STAR + "and we stopped fixing it with a longer timeout.", RIGHT),
    (_STAR + "and I quit bumping the timeout for hangs like this.", RIGHT),
    (_STAR + "and we gave up on raising the timeout.", RIGHT),
    (_STAR + "and then we stopped debugging and raised the timeout to an hour.", WRONG),
    (_STAR + "and we raised the timeout to an hour.", WRONG),
]


@pytest.mark.parametrize(("answer", "right"), STORIES)
def test_round7_story_whole(answer, right):
    assert grade(library().question(STORY), answer, None).correct is right


# The reader rule: a person who stopped doing something denies it; an event that stopped is no denial.
STOPPED = [
    ("we stopped fixing it with a longer timeout", True),
    ("i quit bumping the timeout", True),
    ("they gave up on restarting the job", True),
    ("the job stopped responding", False),
    ("the hangs stopped", False),
    ("we stopped at step 1200", False),
]


@pytest.mark.parametrize(("folded", "negated"), STOPPED)
def test_round7_stopped_doing_denies(folded, negated):
    assert bool(_negations(folded)) is negated


# The reader rule: a predicate after "but" with no subject of its own is said of the clause before (as after "so"); a
# "but" before a subject of its own starts a statement of its own, and a contradiction is not read from the join.
BUT_PREDICATE = [
    ("The save is rank-0-only but has a collective hidden inside it.", "only-rank0", True),
    ("The checkpoint code runs only on rank 0 but calls all_gather.", "only-rank0", True),
    ("The save is rank-0-only but the gather is called by every rank.", "only-rank0", False),
    ("The save is rank-0-only but is just slow.", "only-rank0", False),
]


@pytest.mark.parametrize(("answer", "point", "stated"), BUT_PREDICATE)
def test_round7_predicate_after_but_keeps_its_subject(answer, point, stated):
    assert (point in grade(library().question(CKPT), answer, "why").details["covered"]) is stated


# The reader rule: a Chinese "if" said first (如果, 要是 …, or …的话 at its end) joins the clause it conditions, as "if"
# does in English; a counterfactual then reads whole, and a negation inside it stays in it.
ZH_CONDITIONS = [
    ("如果是硬件，卡住的步数会随机。", "data-deterministic", True),
    ("要是硬件问题的话，卡住的步数会随机。", "data-deterministic", True),
    ("是硬件的话，每次不一样。", "data-deterministic", True),
    ("如果是硬件。卡住的步数会随机。", "data-deterministic", False),
    ("如果是硬件，卡住的步数也会固定在同一步。", "data-deterministic", False),
]


@pytest.mark.parametrize(("answer", "point", "stated"), ZH_CONDITIONS)
def test_round7_zh_condition_joins_its_clause(answer, point, stated):
    assert (point in grade(library().question(OOM), answer, "why").details["covered"]) is stated
