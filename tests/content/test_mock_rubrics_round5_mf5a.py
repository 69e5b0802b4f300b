"""Round 5 (2026-12-03), hang story and the debug stages' next steps: right answers in the voices of the fresh blind
batches (a story that names the team's wrong idea to push back on it, a result said as the run getting past the hang,
the change as a review checklist or a CI check; terse and Chinese next steps: "it's the input pipeline", packed
sequences, the overlap flags said absent, the fabric verified, the CPU saturated, "micro-batch 1 -> 8", logging every
few dozen steps), each with a wrong answer beside it that uses the same words. Written by hand, none from the
labelled benchmark. Each case: (scenario id, step id, answer, right); each coverage case: (scenario id, step id,
answer, the points it must state)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
HANG, DATA, COMM, LAUNCH = "behavioural-hang-story", "debug-data-loading", "debug-exposed-communication", "debug-launch-bound"

CASES = [
    # hang story: the team's idea (raise the timeout) pushed back on is not the candidate's action
    (HANG, None, "A 512-GPU pre-train hung at step 31,000 and the watchdog killed it. My lead wanted to raise the NCCL "
                 "timeout to two hours; I said no, a longer timeout just lets the ranks wait longer. I dumped every rank's "
                 "stack with py-spy: rank 88 was missing from the all-reduce, its node showed Xid 79 in dmesg. We cordoned "
                 "the node, and the run made it past step 31,000 the same afternoon; we had lost about 6 hours. Afterwards "
                 "we added a pre-flight health check on every node.", RIGHT),
    (HANG, None, "一个 128 卡的 SFT 每次在第 7000 步左右卡住，报 NCCL timeout。团队第一反应是调大 timeout，我觉得调大超时只会让大家等更久。"
                 "我用 py-spy 把每个 rank 的调用栈都 dump 下来对比，发现 rank 5 少了一次 all_reduce：它的 shard 提前跑完了。加了 "
                 "drop_last 之后当天就跑过去了。之后在 CI 里用两个 rank 跑 100 步做检查。", RIGHT),
    (HANG, None, "Our 256-GPU run hung at step 12,000 with an NCCL timeout. The team's first instinct was to bump the timeout "
                 "to an hour, and I agreed: I raised the NCCL timeout to an hour and it ran again.", WRONG),
    (HANG, None, "A 64-GPU job hung at step 4000. Someone suggested raising the timeout, so I raised the NCCL timeout to "
                 "three hours, and the job got past step 4000.", WRONG),
    # hang story: the result said as the run getting past the hang; the change as a review checklist or a CI check
    (HANG, None, "A 1,024-GPU pre-train froze at step 80,000 and the watchdog fired after ten minutes. I enabled the flight "
                 "recorder and compared the dumps with torchfrtrace: rank 412 had issued one fewer all-gather, because the "
                 "eval hook called it under if rank % 8 == 0. After we moved the gather out of the branch the run got past "
                 "80,000. Since then 'no collective inside a rank condition' is on our code review checklist.", RIGHT),
    (HANG, None, "A 1,024-GPU pre-train froze at step 80,000 and the watchdog fired. We restarted it a few times and after "
                 "that it got past 80,000. Since then it's on our code review checklist to restart early.", WRONG),
    # data loading: "it's the input pipeline" after what it is not; packed sequences
    (DATA, "next", "Every rank looks the same, so it's not a straggler, it's the input pipeline. Tokenize the corpus offline "
                   "once and store packed sequences as memory-mapped shards, so the workers only slice. Then profile again: "
                   "the idle stretch before forward should drop to near zero and tokens/s go up by about 1.6x.", RIGHT),
    (DATA, "next", "数据这块不是 straggler，是 dataloader 的问题。离线把数据 tokenize 好，存成打包好的 token 序列；然后重新 profile，"
                   "第一个 forward 前的空等应该降到接近 0。", RIGHT),
    (DATA, "next", "It's the input pipeline. I'd store packed sequences, then call it done.", WRONG),
    (DATA, "next", "It's the input pipeline, so I'd cut num_workers from 8 to 4 to reduce CPU contention and store packed "
                   "sequences; then re-profile.", WRONG),
    # exposed communication: the flags said absent, the fabric verified
    (COMM, "next", "The launch has the distributed optimizer without either overlap flag, and the fabric checks out with "
                   "nccl-tests. Add --overlap-grad-reduce and --overlap-param-gather, re-profile: the 27% of bare DP "
                   "collectives should shrink to a few percent.", RIGHT),
    (COMM, "next", "两个 overlap 参数都没加，网络不用动，nccl-tests 已经跑到标称带宽。把 --overlap-grad-reduce 和 --overlap-param-gather "
                   "加上，再 profile 一次，backward 后面那 27% 裸露的 NCCL 应该降到几个百分点。", RIGHT),
    (COMM, "next", "The fabric is verified but the network is too slow for DP 32, so upgrade to faster InfiniBand and "
                   "re-profile.", WRONG),
    (COMM, "next", "The distributed optimizer runs without either overlap flag, and the fabric checks out. I'd turn on "
                   "--tp-comm-overlap and re-profile.", WRONG),
    # launch-bound: the CPU saturated, micro-batch 1 -> 8, log every few dozen steps
    (LAUNCH, "next", "The CPU is saturated issuing cudaLaunchKernel for tiny kernels. Capture the step in CUDA Graphs, "
                     "micro-batch 1 -> 8, and log the loss every few dozen steps instead of .item() each step. Re-profile: "
                     "the 31% gaps should mostly close and MFU go up.", RIGHT),
    (LAUNCH, "next", "CPU 一直打满在 cudaLaunchKernel 上。用 torch.compile 加 CUDA Graphs，micro-batch 1→8，loss 每几十步才打一次；"
                     "重新测 MFU，kernel 之间的空隙应该基本消失。", RIGHT),
    (LAUNCH, "next", "The CPU is saturated, so micro-batch 1 -> 8 and log every few dozen steps.", WRONG),
    (LAUNCH, "next", "The CPU is saturated because the data loader can't keep up, so add more DataLoader workers, micro-batch "
                     "1 -> 8 and CUDA Graphs; re-measure MFU.", WRONG),
]

# The near misses strengthened: each point below was missed by such a wording, the answer passing on the others.
COVERS = [
    (CASES[6][0], "next", CASES[6][2], {"input-bound", "offline"}),
    (CASES[7][0], "next", CASES[7][2], {"input-bound", "offline"}),
    (CASES[10][0], "next", CASES[10][2], {"dp-exposed", "fabric-ok"}),
    (CASES[11][0], "next", CASES[11][2], {"dp-exposed", "fabric-ok"}),
    (CASES[14][0], "next", CASES[14][2], {"launch-bound", "bigger-micro-batch", "no-host-sync"}),
    (CASES[15][0], "next", CASES[15][2], {"launch-bound", "bigger-micro-batch", "no-host-sync"}),
    (HANG, None, CASES[4][2], {"result", "changed"}),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round5_right_and_wrong_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right


@pytest.mark.parametrize(("scenario", "step", "answer", "points"), COVERS)
def test_round5_points_stated(scenario, step, answer, points):
    assert points <= set(grade(library().question(scenario), answer, step).details["covered"])
