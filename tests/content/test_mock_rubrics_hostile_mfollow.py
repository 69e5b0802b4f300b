"""Follow-up stages against near misses and right answers written by hand as a hostile candidate
would (2026-12-03; none from the labelled benchmark). Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CP, TP, SMI = "followup-when-cp-pays-off", "followup-why-tp-in-node", "followup-nvidia-smi"
MOVING = "followup-moving-hang"

CASES = [
    # when CP pays off: the condition reversed, CP called free, put on the weights, the growths swapped, TP
    # across nodes or recomputation off before CP
    (CP, None, "CP pays off for short sequences: the K/V exchange is cheap there, and at long sequences the ring "
               "attention traffic grows too fast to hide, so it's a waste at 128K.", WRONG),
    (CP, None, "CP splits the sequence so each rank holds part of the activations; it adds no real cost since ring "
               "attention overlaps perfectly, so turn it on always, even at 4K.", WRONG),
    (CP, None, "Use CP when the model weights don't fit: CP shards the weights across ranks, and the K/V exchange is "
               "the price. For short sequences it's a waste.", WRONG),
    (CP, None, "CP 在序列短的时候最划算，长序列的时候 K/V 通信太大藏不住，不值得开。", WRONG),
    (CP, None, "long sequences, activation memory, ring attention, K/V exchange, DP x CP", WRONG),
    (CP, None, "It could pay off for long sequences or maybe not, depends; the K/V exchange may or may not hide "
               "behind attention.", WRONG),
    (CP, None, "CP pays off when activations don't fit at long sequences: it splits the sequence, each rank holds "
               "s/CP. The K/V exchange is small because it grows with s² while attention compute grows only with s, "
               "so it always hides.", WRONG),
    (CP, None, "For long context where activations don't fit: CP splits the sequence, and the KV communication grows "
               "quadratically with s while attention compute grows linearly, so CP is cheap; at short sequences it's "
               "a waste.", WRONG),
    (CP, None, "Long sequences, activations too big: CP splits the sequence, K/V exchanged via ring attention; but "
               "first turn off recomputation and raise TP to 16 across nodes before CP.", WRONG),
    (CP, None, "长序列 activation 放不下才开 CP，CP 切序列；但先把 TP 开到 16 跨机，放不下再上 CP，K/V 交换靠 ring attention。", WRONG),
    (CP, None, "长序列 activation 放不下时开 CP，把序列切开；CP 不需要交换 K/V，所以没有通信开销。", WRONG),
    (CP, None, "CP 划算是在长序列时，activation 放不下，CP 切序列；CP 的 rank 各自持有不同的 weight 分片，所以 optimizer 只按 DP 切。", WRONG),
    (CP, None, "Long context only (64K+), when activations OOM even at TP8 with full recompute: CP shards s, each rank "
               "s/CP; cost is the ring-attention K/V exchange, hidden by attention compute (s² vs s). At 4K-8K it's "
               "pure overhead.", RIGHT),
    (CP, None, "序列很长、TP 8 加重计算后 activation 还是放不下的时候才值得开 CP。CP 把序列切给各个 rank，代价是 rank 之间交换 K/V"
               "（ring attention），要靠 attention 计算藏住；序列短的时候计算太少藏不住，开了反而变慢。", RIGHT),
    (CP, None, "So basically, the way I think about it, CP is worth it for long sequences, like 128k, because activation "
               "memory grows with sequence length and at some point even TP 8 plus recomputation doesn't fit. CP then "
               "splits the sequence dimension so each rank only keeps its slice of the tokens. The catch is that ranks "
               "have to pass K/V around in a ring, and that traffic needs to hide behind attention compute, which only "
               "works when the sequence is long. For short sequences it's a waste, you just slow things down. Also the "
               "CP ranks have the same weights so the optimizer shards over DP x CP.", RIGHT),
    (CP, None, "长序列 activation 放不下时用 CP，CP 切的是 sequence，each rank 存 s/CP 的 activation；代价是 K/V exchange via "
               "ring attention，short sequence 藏不住，就是 waste。", RIGHT),
    (CP, None, "When the sequence is so long that activations don't fit even after TP 8 and recompute. It splits the "
               "sequence across ranks; the K/V ring exchange hides behind attention at long context but not at short, "
               "where CP just slows the step.", RIGHT),
    (CP, None, "For long sequences when activations don't fit: CP splits the sequence. Attention grows with s² while "
               "the K/V exchange grows with s, so the ring exchange hides; at short sequences it doesn't, CP just slows "
               "the step.", RIGHT),
    (CP, None, "Only at long context, once activations don't fit with TP 8, which can't go across nodes, and recompute "
               "on: CP splits the sequence; the K/V ring exchange hides behind attention, at short sequences it's a "
               "waste.", RIGHT),
    # why TP stays in the node: the links the wrong way round, the gap made small, the reason put on memory, the
    # traffic said to hide across nodes, TP across nodes all the same
    (TP, None, "TP only does one all-reduce at the end of each step, but NVLink is 10x faster than IB, so keeping it in "
               "the node saves time.", WRONG),
    (TP, None, "Because InfiniBand is faster than NVLink for large messages, TP's all-reduces in every layer would "
               "actually prefer IB; it stays in node only for topology reasons.", WRONG),
    (TP, None, "TP communicates every layer, and NVLink is about 2x faster than InfiniBand, so it's a bit better to keep "
               "it in the node; across nodes you just overlap it with compute.", WRONG),
    (TP, None, "TP all-reduces every layer, NVLink ~450 GB/s vs IB 50 GB/s; but you could just put TP 16 across two nodes "
               "and hide the traffic behind the GEMMs, that's fine.", WRONG),
    (TP, None, "TP 每层都要通信，但可以 overlap 藏在计算后面，所以跨机也没问题，只是 NVLink 快一点。", WRONG),
    (TP, None, "NVLink, every layer, all-reduce, critical path, 8 GPUs per node", WRONG),
    (TP, None, "Maybe because TP communicates every layer, or maybe not, I think it's mostly about memory; NVLink is "
               "faster than IB.", WRONG),
    (TP, None, "TP must stay in node because TP shards the optimizer state and needs the node's shared memory; NVLink is "
               "faster, every layer waits.", WRONG),
    (TP, None, "If TP went across nodes, every layer would wait on IB; NVLink is faster than IB. But honestly I'd put TP "
               "across nodes anyway for a 1T model, TP 64.", WRONG),
    (TP, None, "TP 每一层都要 all-reduce，在关键路径上；机内 NVLink 比 IB 慢，所以要用 8 卡以内。", WRONG),
    (TP, None, "TP communicates in every layer, on the critical path, but TP across nodes can be overlapped with the "
               "GEMMs; NVLink is faster than IB, that's all.", WRONG),
    (TP, None, "Per-layer collectives on the critical path; NVLink ~450 GB/s vs ~50 GB/s IB per GPU, so TP ≤ 8 in-node.", RIGHT),
    (TP, None, "TP 每一层 forward、backward 都要做 all-reduce，而且在关键路径上，没法藏在计算后面。机内 8 张卡走 NVLink，比机间 IB "
               "快差不多十倍，所以 TP 最多 8，放在机内。", RIGHT),
    (TP, None, "Well, so the thing with tensor parallel is that every single layer has to do an all-reduce, or "
               "reduce-scatter and all-gather with sequence parallel, in the forward and in the backward, and the next "
               "GEMM has to wait for it, so it's really on the critical path and you can't hide it much. Inside a node "
               "you have 8 GPUs on NVLink, which is roughly an order of magnitude more bandwidth than InfiniBand between "
               "nodes. So if you stretched TP across nodes every layer would stall on IB. That's why TP is at most 8 and "
               "stays in the node.", RIGHT),
    (TP, None, "TP 每层都有 all-reduce，critical path 上；NVLink 比 IB 快 ~9x；跨机就每层 stall，所以 TP ≤ 8 in-node。", RIGHT),
    (TP, None, "Because TP communicates in every layer and that can't be hidden; NVLink is ten times faster than IB, and "
               "across nodes TP stalls every layer. IB is not faster than NVLink for this, whatever the message size.", RIGHT),
    (TP, None, "TP talks every layer, fwd and bwd, and the next GEMM waits on it. It's not about memory, it's bandwidth: "
               "NVLink is ~10x IB. DP across nodes can be hidden behind the backward, TP can't.", RIGHT),
    (TP, None, "NVLink 900 GB/s vs a node's 8 GPUs, every layer, all-reduce", WRONG),
    (TP, None, "Put TP across nodes and every layer's all-reduce crawls over IB, 50 GB/s against NVLink's 450; TP talks "
               "in every layer, on the critical path, so it stays within the node's 8 GPUs.", RIGHT),
    (TP, None, "TP all-reduces in every layer, on the critical path: NVLink gives 450 GB/s vs 50 GB/s between nodes, so "
               "TP ≤ 8.", RIGHT),
    # nvidia-smi at 100% with a low MFU: the column read as the tensor cores' use, the column trusted over MFU, the
    # forward's 2N as the formula, the gap put on throttled GPUs
    (SMI, None, "They can't both be true: if nvidia-smi shows 100% the tensor cores are saturated, so the MFU formula "
                "must be wrong; recompute MFU with 2N per token.", WRONG),
    (SMI, None, "nvidia-smi utilization is the share of time some kernel was running, so 100% means the GPU is fully "
                "used; MFU is low because of the network.", WRONG),
    (SMI, None, "Utilization is the fraction of time a kernel is active. MFU is low because the rest is spent on "
                "communication, so add more GPUs to speed it up.", WRONG),
    (SMI, None, "nvidia-smi 的利用率就是算力利用率，100% 说明 tensor core 跑满了，MFU 低是 MFU 公式算错了。", WRONG),
    (SMI, None, "nvidia-smi utilization measures SM occupancy, the fraction of SMs busy, so 100% means all SMs are "
                "active; MFU counts useful FLOPs against the peak, so maybe the peak is wrong.", WRONG),
    (SMI, None, "Utilization is the share of time a kernel runs, not efficiency. MFU is 6N times tokens/s over peak, but "
                "MFU is unreliable, so trust nvidia-smi's 100% and just increase the batch size.", WRONG),
    (SMI, None, "利用率只是有 kernel 在跑的时间占比；MFU 低是因为 kernel 太大了，tensor core 处理不过来，把 batch 调小就好。", WRONG),
    (SMI, None, "Utilization is the share of time some kernel was running; small kernels show 100% too. MFU is useful "
                "FLOPs over peak, computed as 2 × params × tokens/s over peak.", WRONG),
    (SMI, None, "Utilization is the share of time some kernel was running; small kernels show 100% too. The useful FLOPs "
                "are 2 × params × tokens/s, and MFU is that over the peak.", WRONG),
    (SMI, None, "Utilization is the share of time some kernel was running; small kernels show 100% too. MFU is the "
                "useful FLOPs over peak, I compute it as 2N per token times tokens/s.", WRONG),
    (SMI, None, "利用率只是有 kernel 在跑的时间占比，小 kernel 也显示 100%；MFU 按 2N 乘 tokens/s 除以峰值算，该看 MFU。", WRONG),
    (SMI, None, "utilization 是有 kernel 在跑的时间占比；tiny kernels 也会显示 100%；MFU 低就是 GPU 过热降频了，换卡就行。", WRONG),
    (SMI, None, "smi util = % of sample time with ≥1 kernel resident, says nothing about SM/tensor-core use; tiny or "
                "memory-bound kernels read 100%. MFU = 6N·tok/s over peak is the real number; profile to see why.", RIGHT),
    (SMI, None, "nvidia-smi 的利用率只是采样时间里有没有 kernel 在跑，不代表算力用了多少。一串小 kernel 或者 memory-bound 的 kernel "
                "也会显示 100%，tensor core 其实大部分时间在闲着。MFU 是模型有效 FLOPs 除以峰值，该看它，再用 profiler 看时间花在哪。", RIGHT),
    (SMI, None, "Yeah so that's a classic one. The utilization column in nvidia-smi just tells you what fraction of the "
                "time some kernel was running on the GPU, it doesn't care how big that kernel is or whether it's using "
                "the tensor cores. So if your step is a long stream of tiny elementwise ops or memory-bound kernels, or "
                "you're launch bound, the GPU looks 100% busy while the tensor cores are mostly idle. MFU on the other "
                "hand is the model's useful FLOPs divided by peak, so it tells you the truth. I'd trust MFU and grab a "
                "profiler trace to see where the time goes.", RIGHT),
    (SMI, None, "utilization 只是 time some kernel is running 的占比，not efficiency；small kernels 也能刷到 100%，tensor core "
                "闲着；MFU 是 useful FLOPs over peak，要看它，再看 profiler trace。", RIGHT),
    (SMI, None, "Both are true because nvidia-smi only reports whether a kernel was running during the sample, not how "
                "much of the GPU it used; memory-bound kernels keep it at 100% while the tensor cores wait on HBM. MFU "
                "counts the model's FLOPs against the peak, that's what to trust.", RIGHT),
    (SMI, None, "Utilization only means some kernel was running; don't trust nvidia-smi for efficiency, small kernels "
                "read 100% while tensor cores idle. Rule out throttling, then take a profiler trace; MFU, useful FLOPs "
                "over peak, is the number.", RIGHT),
    (SMI, None, "Utilization is only the share of time some kernel ran; small kernels read 100%. MFU is 6N·tokens/s over "
                "peak — not 2N·tokens/s, that's the forward alone.", RIGHT),
    # a hang that moves: the inference turned round (hardware said to repeat on schedule), "nothing changes", the
    # node kept (a longer timeout, a plain restart on the same nodes), a different rank taken for a different node
    (MOVING, None, "A hang that moves means it's a race condition in our code, probably a bug in the data loader; I'd add "
                   "retries around the collective and restart from checkpoint.", WRONG),
    (MOVING, None, "Since it moves, it's not hardware — a bad node would hang at the same step every run. So it points at "
                   "a nondeterministic code path; I'd py-spy all ranks.", WRONG),
    (MOVING, None, "Nothing really changes: still find the missing rank with the flight recorder and py-spy, and raise "
                   "the NCCL timeout so the job survives the flaky node.", WRONG),
    (MOVING, None, "位置不固定说明是数据问题，某些 batch 特别长；照样用 py-spy 找缺席的 rank。", WRONG),
    (MOVING, None, "hardware, network, flight recorder, py-spy, nccl-tests, Xid, drain the node", WRONG),
    (MOVING, None, "It could be hardware or it could be code, hard to say; find the missing rank with the flight "
                   "recorder, map it to a node, and run nccl-tests.", WRONG),
    (MOVING, None, "Moving hang is more likely the network, so I'd just set NCCL_IB_DISABLE=1 to go over sockets and "
                   "restart from the last checkpoint.", WRONG),
    (MOVING, None, "It's probably hardware, so just restart the job from the last checkpoint on the same nodes and it "
                   "will usually go through; find the missing rank with py-spy.", WRONG),
    (MOVING, None, "Probably a flaky node, not code. Find the missing rank with the flight recorder, map it to its node, "
                   "and restart on the same nodes; it usually goes through the second time.", WRONG),
    (MOVING, None, "多半是硬件或者网络，不是代码。flight recorder 找到缺席的 rank，对应到节点；然后把 NCCL timeout 调到一小时，坏节点"
                   "自己会恢复。", WRONG),
    (MOVING, None, "A moving hang is likely a flaky node. Find the missing rank with the flight recorder and map it to its "
                   "node; a different rank each run means a different node, so blame the switch.", WRONG),
    (MOVING, None, "Non-deterministic position → suspect HW/network, not code. Same drill to find the absent rank (FR "
                   "dump, py-spy), map rank→host across runs, look for the common node; nccl-tests on pairs, check "
                   "Xid/ECC, drain it, resume from ckpt.", RIGHT),
    (MOVING, None, "位置不固定的 hang 更像是硬件或网络问题，代码或数据的 bug 每次都会卡在同一步。还是先用 flight recorder 和 py-spy 找出"
                   "缺席的 rank，对应到机器，看几次是不是同一台；再两两跑 nccl-tests、查 Xid 和 ECC，把坏节点摘掉，从上一个 checkpoint "
                   "恢复。", RIGHT),
    (MOVING, None, "OK so if it hangs at a different step each time, that changes my prior quite a bit. A code bug, like "
                   "a rank-dependent branch or a bad batch, would repeat on schedule, at the same step every run. One that "
                   "moves around is much more typical of hardware or the network, a flaky link, a GPU throwing Xid "
                   "errors, that kind of thing. I'd still do the same first step, find the rank that is missing with the "
                   "flight recorder and py-spy, but then I'd map each run's missing rank to its hostname and see whether "
                   "the same node keeps showing up. Then I test that node directly with nccl-tests between pairs and a "
                   "health check, and if it's bad I cordon it and restart from the last checkpoint.", RIGHT),
    (MOVING, None, "hang 不固定 → 更可能是 hardware 或 network，不是 code。还是用 flight recorder 找 missing rank，map 到 node，看 "
                   "across runs 有没有 same node，然后跑 nccl-tests、看 Xid，drain 掉坏节点。", RIGHT),
    (MOVING, None, "It points at hardware or the network rather than code: a code bug repeats at the same step. Find which "
                   "node the missing rank sits on in each run, even if the rank differs the node can be the same; test it "
                   "with nccl-tests and drain it.", RIGHT),
    (MOVING, None, "More likely hardware or the network than code. A longer timeout won't fix it, the bad node hangs "
                   "again: find the missing rank, map it to its node, run nccl-tests, drain it and restart from the "
                   "checkpoint.", RIGHT),
    (MOVING, None, "多半是硬件或者网络，不是代码。不要调大 timeout，也不能在原来的节点上重启：找出缺席的 rank，对应到机器，跑 nccl-tests，"
                   "把坏节点摘掉再从 checkpoint 恢复。", RIGHT),
    (MOVING, None, "Hardware or network more likely than code. Find the missing rank; a different rank each run can still "
                   "be the same node, so map ranks to hosts and look for the common one, then nccl-tests and drain it.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
