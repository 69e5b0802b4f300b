"""Follow-up stages, round 5 (2026-12-03): the ideas behind the tuning misses of the fresh blind batches, pinned
down in answers of my own, none from the labelled benchmark. Each fix has right answers in other words and a
wrong guard beside it: the environment named as the moving hang's suspect (not its variables), the column's
counter, a denial of "utilization is efficiency" that says nothing of what it is, the timeout kept for the error
and dump it makes, the link "outside" the node, the activations divided by the CP degree, TP bounded by the
NVLink domain, InfiniBand said to be like NVLink, FSDP's gathers, batch and GPU count made harmless; then near
misses strengthened (a longer timeout as a longer hang, the other kernels that keep the column up, TP past 8 on
the network, the idle share). Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
MOVING, SMI, TIMEOUT = "followup-moving-hang", "followup-nvidia-smi", "followup-raise-timeout"
TP_NODE, CP, TP16, FSDP = ("followup-why-tp-in-node", "followup-when-cp-pays-off", "followup-why-not-bigger-tp",
                           "followup-why-not-fsdp")
MORE_PP = "followup-why-not-more-pp"

CASES = [
    # a moving hang: the environment as the suspect, set against the code
    (MOVING, None, "A moving step means I stop reading code and think environment. Per run I note the absent rank "
                   "from the flight recorder dump and its host; the host that repeats gets nccl-tests and a dmesg "
                   "check for Xid, then I cordon it.", RIGHT),
    (MOVING, None, "step 每次都变，更像是环境问题而不是代码：每次用 flight recorder 找出缺席的 rank 和它所在的机器，重复"
                   "出现的那台跑 nccl-tests、查 Xid，然后把它下线，从 checkpoint 恢复。", RIGHT),
    (MOVING, None, "It moves, so it's probably the environment variables in the launch script: I'd diff them across "
                   "runs, fix the config and rerun.", WRONG),
    # nvidia-smi: the counter; a denial of "utilization is efficiency" is not what the column is
    (SMI, None, "The counter only says a kernel was on the GPU in each sample, not how hard it worked. Tiny "
                "launch-bound kernels keep it at 100% while the tensor cores idle. MFU counts the useful FLOPs "
                "against the peak, so trust MFU and take a profiler trace.", RIGHT),
    (SMI, None, "nvidia-smi is not an efficiency metric: it is the fraction of time a kernel was running. Small "
                "memory-bound kernels keep it at 100%. MFU, useful FLOPs over peak, is the one to trust.", RIGHT),
    (SMI, None, "nvidia-smi doesn't really measure efficiency. MFU is what you should trust; I'd check MFU and "
                "the step time and profile.", WRONG),
    (SMI, None, "利用率不能衡量效率，MFU 才可信，看 MFU 就行。", WRONG),
    (SMI, None, "The util number just means the GPU wasn't idle, some kernel was running. It could be NCCL spinning "
                "or elementwise ops. MFU only counts useful matmul FLOPs against the peak, so it's the honest one.",
     RIGHT),
    (SMI, None, "nvidia-smi shows 100% because the NCCL kernels are fast, so the GPUs are fully used; MFU is just "
                "computed wrong.", WRONG),
    # raising the timeout: the timeout kept for the error and the dump it makes
    (TIMEOUT, None, "I'd push back. The timeout is what turns an endless wait into an error with a flight recorder "
                    "dump; raising it only hides the missing rank for longer. Compare the dumps, find which rank is "
                    "absent, and fix that.", RIGHT),
    (TIMEOUT, None, "不同意。timeout 的作用是把无限等待变成报错、顺便 dump flight recorder；调大只是掩盖症状。对比 dump "
                    "找出缺席的 rank 再修。", RIGHT),
    (TIMEOUT, None, "Raising it is fine as long as we also dump the flight recorder, then we compare the dumps and "
                    "find which rank is absent.", WRONG),
    (TIMEOUT, None, "Pushback: a longer timeout = a longer hang. The missing rank won't show up. Keep 10 min, dump "
                    "the flight recorder on timeout, read which rank is missing, fix it.", RIGHT),
    (TIMEOUT, None, "No, the timeout is the alarm, not the fire. Raising it means the whole job sits idle longer; "
                    "keep it short and have the flight recorder dump when it fires.", RIGHT),
    (TIMEOUT, None, "A longer timeout is fine, the missing rank will show up eventually, so I agree with the "
                    "colleague.", WRONG),
    (TIMEOUT, None, "I agree: a longer timeout gives the slow rank time to catch up; compare the dumps if it still "
                    "fails.", WRONG),
    (TIMEOUT, None, "Raising it hides the bug: the timeout is what turns the hang into an error, and the flight "
                    "recorder dumps then show which rank is absent. Fix that rank.", RIGHT),
    # TP in the node: the link between nodes as "outside"
    (TP_NODE, None, "TP all-reduces inside every layer, on the critical path. Inside the node that's NVLink at "
                    "about 450 GB/s; outside the node it's roughly 50 GB/s per GPU. So TP stays at 8.", RIGHT),
    (TP_NODE, None, "TP all-reduces once per step at the end of backward; outside the node it's about 50 GB/s, "
                    "which is plenty for that.", WRONG),
    # CP: the activations divided by the CP degree
    (CP, None, "Long context, when activations no longer fit with TP 8 and recompute: CP 2 halves the "
               "activations. It costs a K/V exchange around the ring that must hide behind the attention "
               "compute.", RIGHT),
    (CP, None, "CP 2 halves the activations, so it's always worth it, even for short sequences.", WRONG),
    # TP 16: bounded by the NVLink domain; its traffic dominating across IB; IB said to be like NVLink
    (TP16, None, "TP is bounded by the NVLink domain, and an H100 node's domain is 8 GPUs. TP's collectives run "
                 "several times per layer on the critical path, and InfiniBand is about nine times slower per "
                 "GPU.", RIGHT),
    (TP16, None, "TP 16 is fine: with the NVLink switch the NVLink domain covers 16 GPUs, so a smaller PP is the "
                 "better deal.", WRONG),
    (TP16, None, "TP 16 spans two nodes, and IB is nowhere near NVLink: about 50 GB/s per GPU against 450, so "
                 "every layer's all-reduce would run nine times slower.", RIGHT),
    (TP16, None, "TP 16 会跨两台机器，IB 每卡约 50 GB/s，与 NVLink 的 450 GB/s 相比慢九倍，每层的 all-reduce 都在关键路径上。",
     RIGHT),
    (TP16, None, "TP 16 crosses nodes, but NDR gives about 400 GB/s per GPU, comparable to NVLink, so the "
                 "bandwidth is fine; PP is just simpler.", WRONG),
    (TP16, None, "TP 16 要跨机，不过 IB 每卡带宽跟 NVLink 差不多，所以没关系，PP 可以小一点。", WRONG),
    (TP16, None, "An H100 box only has 8 GPUs on NVLink. Past 8, TP's collectives hit the network, about nine "
                 "times slower, in every layer.", RIGHT),
    (TP16, None, "TP should never leave the NVLink domain; beyond it every layer's all-reduce waits on "
                 "InfiniBand, about a ninth of NVLink's bandwidth.", RIGHT),
    # FSDP: the gathers once per step, the batch no limit, more GPUs always better
    (FSDP, None, "Spread over thousands of GPUs the global batch leaves too few tokens per GPU. The all-gathers of "
                 "the weights are cheap, since FSDP only gathers them once per step.", WRONG),
    (FSDP, None, "FSDP all-gathers every layer's weights across nodes, and the global batch doesn't limit FSDP, so "
                 "more GPUs just work.", WRONG),
    (FSDP, None, "FSDP 每层都要跨机 all-gather weight，但 global batch 不限制 FSDP 的规模，卡越多越好。", WRONG),
    (FSDP, None, "The global batch doesn't limit TP or PP, they split the model, but it limits FSDP: over 4,096 GPUs "
                 "each one gets too few tokens, and the weight all-gathers cross nodes in every layer.", RIGHT),
    (FSDP, None, "FSDP's all-gathers of each layer go across nodes, about 1.5x DDP's bytes, and with thousands of "
                 "ranks each one gets a sliver of the batch.", RIGHT),
    (FSDP, None, "FSDP's all-gathers go across nodes and each rank gets a sliver of the batch, but that's fine: the "
                 "more GPUs the better.", WRONG),
    # more PP: the bubble as the idle share
    (MORE_PP, None, "Bubble ~ p/m, and m is fixed by the global batch, so 2x PP = ~2x idle. Stage 0 also stashes p "
                    "micro-batches of activations.", RIGHT),
    (MORE_PP, None, "Double PP is fine, the GPUs are idle anyway during the all-reduce.", WRONG),
    (FSDP, None, "TP and PP aren't a habit: spread over thousands of GPUs the global batch leaves too few tokens per "
                 "GPU, and FSDP's all-gathers of every layer's weights cross nodes.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round5_followup_ideas(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
