"""Trade-off follow-ups, the hang story, the pitch and the dense-400B lead against near misses and right
answers written by hand as a hostile candidate would (2026-12-03; none from the labelled benchmark).
Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
HANG, PITCH, LED = "behavioural-hang-story", "pitch-recipe", "led-dense-400b"
MORE_PP, FSDP, TP16 = "followup-why-not-more-pp", "followup-why-not-fsdp", "followup-why-not-bigger-tp"

CASES = [
    # followup-why-not-more-pp
    (MORE_PP, None, "Doubling PP actually shrinks the bubble, since (p-1)/m gets smaller when each stage has less "
                    "work; the real cost is only memory.", WRONG),
    (MORE_PP, None, "More stages means a smaller bubble because every stage is shorter, so I'd double PP.", WRONG),
    (MORE_PP, None, "More stages means a smaller bubble since each stage is shorter. The global batch is fixed so m "
                    "stays the same, and the first stage holds p micro-batches in 1F1B.", WRONG),
    (MORE_PP, None, "The bubble is (p-1)/m, so doubling p just halves the bubble relative to the stage time; it's fine "
                    "as long as we keep 1F1B.", WRONG),
    (MORE_PP, None, "Halving DP would double m so the bubble stays the same; more PP is fine then, basically free.",
     WRONG),
    (MORE_PP, None, "Doubling PP is fine: the global batch is fixed so m stays the same, and the bubble grows a bit but "
                    "1F1B handles it.", WRONG),
    (MORE_PP, None, "PP翻倍没问题，global batch 固定，m 不变，bubble 会变大一点但无所谓。", WRONG),
    (MORE_PP, None, "pipeline bubble, (p-1)/m, 1F1B, interleaving, load balance, p2p.", WRONG),
    (MORE_PP, None, "Could be a bigger bubble or not, depends; maybe the bubble grows if m is small.", WRONG),
    (MORE_PP, None, "If m is small the bubble might grow, otherwise more PP is better since each stage holds fewer "
                    "weights and activations scale down by p.", WRONG),
    (MORE_PP, None, "PP翻倍bubble反而变小，因为每个stage更短了，所以可以翻倍。", WRONG),
    (MORE_PP, None, "You're right, doubling PP is better: activations per GPU drop by half and the p2p traffic is tiny, "
                    "bubble doesn't matter with interleaving.", WRONG),
    (MORE_PP, None, "The bubble grows with p, so just raise the global batch to get more micro-batches and it's free.",
     WRONG),
    (MORE_PP, None, "With fixed global batch, the bubble (p−1)/m doubles roughly since p doubles and m stays; halving "
                    "DP just gives m back. Also first stage still holds p micro-batches in 1F1B.", RIGHT),
    (MORE_PP, None, "global batch 固定，p 翻倍 m 不变，bubble (p-1)/m 差不多翻倍；DP 减半只是把 m 拉回来。", RIGHT),
    (MORE_PP, None, "Bubble ~ (p-1)/m grows with p at fixed GBS.", RIGHT),
    (MORE_PP, None, "PP 翻倍的话 stage 越多 bubble 越大，而且 1F1B 下第一个 stage 还是要存 p 个 micro-batch 的 "
                    "activation，省不了多少显存。", RIGHT),
    (MORE_PP, None, "Doubling PP with fixed global batch: bubble grows, (p-1)/m roughly doubles, halving DP just gives m "
                    "back; more stages are harder to balance and add p2p hops, so keep PP minimal.", RIGHT),
    (MORE_PP, None, "I'd not double PP. Global batch is fixed by convergence, so each pipeline keeps the same m and more "
                    "stages make the bubble bigger. And the first stage still stores p micro-batches of activations "
                    "under 1F1B, so memory doesn't really drop. Plus extra stages are harder to balance with the "
                    "embedding and LM head. So PP stays as small as fits.", RIGHT),
    # followup-why-not-fsdp
    (FSDP, None, "FSDP's all-gathers of the weights are cheaper than DDP's all-reduce, but the global batch gets too "
                 "small per GPU, so we add TP and PP.", WRONG),
    (FSDP, None, "The global batch is too large for FSDP, since every GPU gets too many tokens; and it all-gathers "
                 "weights across nodes which is heavy.", WRONG),
    (FSDP, None, "FSDP moves about half of DDP's bytes since it only all-gathers the weights once; the problem is the "
                 "global batch divided over thousands of ranks leaves too few tokens per GPU.", WRONG),
    (FSDP, None, "Honestly FSDP would be fine here; TP and PP are just tradition. Maybe the batch per GPU is a limit, "
                 "and maybe the all-gather traffic across nodes, not sure.", WRONG),
    (FSDP, None, "I agree FSDP alone fits, and we'd just increase the global batch so each GPU has enough tokens; the "
                 "all-gather of each layer's weights over IB is then hidden.", WRONG),
    (FSDP, None, "Just increase the batch: with FSDP the weight all-gathers across nodes are 1.5x DDP, so more tokens "
                 "per GPU hide them.", WRONG),
    (FSDP, None, "FSDP 的 all-gather 通信和 DDP 一样，没有额外通信；问题是 global batch 分到每卡太少。", WRONG),
    (FSDP, None, "单用 FSDP 这里就够了，TP 和 PP 只是惯例；global batch 分下来每卡少一点，weight all-gather 跨机多一点，无所谓。",
     WRONG),
    (FSDP, None, "FSDP fails because it runs out of memory: each GPU has to hold the whole model during the "
                 "all-gather, so we need TP to split the weights.", WRONG),
    (FSDP, None, "global batch, tokens per GPU, all-gather, 1.5x DDP, HSDP.", WRONG),
    (FSDP, None, "Because FSDP all-gathers every layer's weights across nodes, about 1.5x DDP traffic, and the global "
                 "batch divided by thousands of ranks leaves too few tokens per GPU to hide it; TP and PP cut the DP "
                 "degree.", RIGHT),
    (FSDP, None, "GBS / #GPUs is <1 seq per GPU at this scale, and ZeRO-3 weight all-gathers (~1.5x DDP bytes) over IB "
                 "can't be hidden; TP+PP shrink DP.", RIGHT),
    (FSDP, None, "At 16M tok GBS you'd have <1 seq/GPU with pure FSDP, and the per-layer weight all-gathers cross IB.",
     RIGHT),
    (FSDP, None, "全用 FSDP 的话每张卡都是一个 DP rank，global batch 分给几千个 rank 每卡 token 太少；而且每层 weight 都要跨机 "
                 "all-gather，通信约是 DDP 的 1.5 倍，藏不住。", RIGHT),
    (FSDP, None, "With FSDP everywhere each GPU gets too few tokens to hide the weight all-gathers across nodes, 1.5x "
                 "DDP bytes.", RIGHT),
    (FSDP, None, "You can't just raise the global batch, convergence caps it; so with FSDP everywhere each GPU gets too "
                 "few tokens to hide the weight all-gathers across nodes, 1.5x DDP bytes.", RIGHT),
    (FSDP, None, "Well, so, you could do FSDP, it would fit, but then think about what it means: every GPU is now a "
                 "data-parallel rank, right, and the global batch is fixed by convergence, something like 16M tokens, "
                 "so across, like, 16k GPUs you get about one sequence each, which is too few tokens per GPU. And FSDP "
                 "all-gathers every layer's weights in forward and backward, across nodes, which is more traffic than "
                 "DDP, and with so little compute per GPU you can't hide it. With TP and PP the DP degree drops.", RIGHT),
    # followup-why-not-bigger-tp
    (TP16, None, "TP 16 spans two nodes, but InfiniBand is only about 2x slower than NVLink, so it's a small hit; the "
                 "real issue is the KV heads.", WRONG),
    (TP16, None, "TP 16 puts the all-reduces across nodes on IB, which is a bit slower than NVLink; with SHARP "
                 "in-network reduction that gap closes, so TP 16 is fine.", WRONG),
    (TP16, None, "TP 16 would cross nodes, so the all-reduces go over IB; we can just overlap them with the GEMMs, so "
                 "it's fine.", WRONG),
    (TP16, None, "Sure, TP 16 is fine: NVLink spans the whole rack, so 16 GPUs are still on NVLink.", WRONG),
    (TP16, None, "TP 16 crosses nodes onto IB, which is fine because TP only communicates once per step, unlike PP "
                 "which sends activations every micro-batch.", WRONG),
    (TP16, None, "PP across nodes is expensive because it sends all the activations, so TP 16 over IB is the cheaper "
                 "way to cross nodes.", WRONG),
    (TP16, None, "TP 16 crosses two nodes and IB bandwidth per GPU is ~50 GB/s vs ~450 for NVLink, but PP across nodes "
                 "is worse since the p2p activations are huge, so TP 16 is the better trade.", WRONG),
    (TP16, None, "TP 16 跨两台机器，走 IB，不过 IB 和 NVLink 带宽差不多，问题不大。", WRONG),
    (TP16, None, "TP 16 跨机走 IB，只慢一点点，而且 GEMM 变大了，效率更高。", WRONG),
    (TP16, None, "TP, NVLink, InfiniBand, all-reduce, KV heads, GEMM.", WRONG),
    (TP16, None, "Maybe TP 16 crosses nodes, or maybe not, depends on the cluster; it could be slower.", WRONG),
    (TP16, None, "TP 16 crosses nodes, IB is 9x slower, so we'd bump the NCCL buffer size and use more channels to make "
                 "it fast enough.", WRONG),
    (TP16, None, "TP 16 would span two nodes and IB is slower, so we'd add retries and raise NCCL_TIMEOUT to keep it "
                 "stable.", WRONG),
    (TP16, None, "TP 16 spans two nodes so the all-reduces cross IB, slightly slower but the GEMMs get bigger so it "
                 "evens out.", WRONG),
    (TP16, None, "TP 16 crosses nodes over IB, about 9x slower, but the GEMMs get bigger which raises arithmetic "
                 "intensity, so it's roughly a wash.", WRONG),
    (TP16, None, "TP 16 leaves the 8-GPU NVLink node, so its per-layer all-reduces go over IB at ~1/9 the bandwidth; PP "
                 "across nodes only sends one activation per micro-batch.", RIGHT),
    (TP16, None, "TP16 = 2 nodes → per-layer AR on IB, ~9x slower, critical path.", RIGHT),
    (TP16, None, "TP 16 要跨两台机器，每层的 all-reduce 从 NVLink 落到 IB，单卡慢 9 倍左右，而且在关键路径上；跨机用 PP 更便宜。", RIGHT),
    (TP16, None, "TP 8 is fine inside the node; TP 16 spans two nodes and puts every layer's all-reduces on IB, nine "
                 "times slower per GPU. A bigger PP only adds a little bubble, far cheaper.", RIGHT),
    (TP16, None, "OK so the node has eight GPUs connected by NVLink, and TP wants to live inside that, because tensor "
                 "parallel does an all-reduce, actually a couple of them, in every layer, forward and backward, right on "
                 "the critical path. If you go to 16 you span two nodes, and now those all-reduces run over InfiniBand, "
                 "which per GPU is around 50 GB/s versus 450 for NVLink, so like nine times slower. Also the GEMMs get "
                 "thinner. PP is the cheaper way across.", RIGHT),
    # behavioural-hang-story
    (HANG, None, "Our 512-GPU pretraining run hung at step 20k with an NCCL timeout. I looked at the logs of every rank, "
                 "saw nothing obvious, so I raised NCCL_TIMEOUT to two hours and restarted; it ran fine after that for "
                 "days, and we added an alert on step time.", WRONG),
    (HANG, None, "A 128-GPU run froze at step 9,000. I dumped every rank's stacks with py-spy; we just restarted from "
                 "the last checkpoint and it ran again within an hour, and we added auto-restart in the launcher so it "
                 "never bothered us again.", WRONG),
    (HANG, None, "A 64-node job hung with a watchdog timeout. I read the NCCL_DEBUG logs on every rank; the root cause "
                 "was that NCCL is flaky at scale, so we added retries around the all-reduce. It ran again in 2 hours "
                 "and we added a retry wrapper to the default config.", WRONG),
    (HANG, None, "Our 256-GPU run hung at step 41k. I dumped all ranks' stacks: all 256 ranks were in the same "
                 "all-reduce, so the cause was that the network was just slow and the timeout too short; raising it "
                 "fixed it the same day, and we added a test for it.", WRONG),
    (HANG, None, "A job on 32 nodes got stuck with an NCCL timeout. I compared every rank's stack with py-spy; maybe it "
                 "was a bad link, or maybe uneven batches, we never really found out. It ran again after a restart in a "
                 "few hours and we wrote a runbook.", WRONG),
    (HANG, None, "NCCL timeout, py-spy, flight recorder, every rank, uneven batches, fixed in hours, added a test.", WRONG),
    (HANG, None, "256卡的预训练在第3万步卡住，报NCCL超时。我用py-spy把每个rank的调用栈dump下来对比，结论是超时时间太短，把timeout调大到1小时"
                 "就好了，当天恢复，之后加了告警。", WRONG),
    (HANG, None, "A 1k-GPU run hung at step 5,000 with an NCCL timeout. I set NCCL_P2P_DISABLE=1 and NCCL_IB_DISABLE=1 "
                 "on every rank and it ran again; it took us about 6 hours, and we made those env vars the default.",
     WRONG),
    (HANG, None, "A 1k-GPU run hung at step 5,000 with an NCCL timeout. I dumped every rank's stacks with py-spy, all in "
                 "the all-reduce, then set NCCL_IB_DISABLE=1 on every rank and it ran again; fixed in 6 hours, and we "
                 "added it to the default config.", WRONG),
    (HANG, None, "Our 64-GPU job hung at step 800. I used py-spy on every rank and found rank 3 was slower than the "
                 "others because its GPU was throttling, so the others timed out; we raised the timeout to 1 hour, it "
                 "ran again in minutes, and added an alert.", WRONG),
    (HANG, None, "64卡任务在第2000步卡住，报watchdog超时。我看了每个rank的日志，发现是NCCL不稳定，加了重试就跑起来了，之后两周没再hang，"
                 "写进了值班手册。", WRONG),
    (HANG, None, "Situation: a 256-GPU pre-training run froze at step 41,000 and died with an NCCL watchdog timeout. "
                 "Action: py-spy dump on every rank — 255 in the gradient all-reduce, rank 0 in an all_gather in "
                 "checkpoint code. Cause: the gather sat under if rank == 0, so only rank 0 called it. Result: fixed the "
                 "same day after losing ~14 hours; we turned on dump-on-timeout by default and added a two-rank test of "
                 "the save path.", RIGHT),
    (HANG, None, "64 GPUs, hung at end of epoch 3 with a watchdog timeout. Flight recorder on every rank showed rank 5 "
                 "one all-reduce short: uneven batches, its shard had one batch fewer. Added drop_last, ran clean in 2 "
                 "hours, and a test that asserts equal len(loader) per rank.", RIGHT),
    (HANG, None, "我们一个 512 卡的任务在第 12000 步卡住，十分钟后 NCCL watchdog 超时。我用 py-spy dump 了每个 rank 的调用栈，发现 rank 37 "
                 "停在 eval 里的 all_gather，其他 rank 在梯度 all-reduce：只有部分 rank 调用了那个 collective。把 eval 的 gather 改成所有 "
                 "rank 都走，当天修好，之前损失了大概 10 小时；之后默认打开了超时自动 dump。", RIGHT),
    (HANG, None, "So this was at my last job, we had a fine-tune on like 128 GPUs, 16 nodes, and it would just hang, "
                 "usually around step 3000, and then the NCCL watchdog would kill it after ten minutes. At first people "
                 "wanted to bump the timeout but I said no, let's see where each rank is. I ran py-spy dump on every "
                 "rank, and one node's ranks were sitting in a different collective, a barrier in the logging code, "
                 "while everyone else was in the all-reduce. Turned out only some ranks called that barrier, behind a "
                 "condition on local rank. We moved it out, the job ran again that afternoon after losing maybe a day, "
                 "and I added a lint check for collectives under rank conditions.", RIGHT),
    (HANG, None, "A 2k-GPU run hung at step 60k, NCCL timeout. py-spy on all ranks: everyone in the same all-reduce. "
                 "NCCL_DEBUG logs and the IB counters pointed to node 117, whose link had errors; we drained the node, "
                 "the job ran again in 40 minutes, and we added a link-error alert.", RIGHT),
    # pitch-recipe
    (PITCH, None, "Memory first: 16 bytes per param plus activations. PP inside the node on NVLink, TP across nodes; m ≥ "
                  "4p, interleaved; CP for long sequences, EP for MoE; rest is DP with ZeRO-1. Overlap comms, FP8 GEMMs, "
                  "40% MFU. Slow: profile into data, comms, compute, stragglers; hung: find the rank not in the same "
                  "collective.", WRONG),
    (PITCH, None, "Memory first: about 2 bytes per parameter in bf16 tells you the GPUs. TP inside the node, up to 8; PP "
                  "across nodes, m ≥ 4p, interleaved; rest is DP with the distributed optimizer. Overlap, FP8, 40% MFU. "
                  "If slow, profile; if it hangs, find the missing rank.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP in the node, PP across nodes with m = p micro-batches, rest DP "
                  "with ZeRO-1. Overlap comms, FP8, 40% MFU. When slow, profile the four buckets; when hung, find the "
                  "rank not in the same collective.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP in the node, PP across nodes, m ≥ 4p, rest DP with ZeRO-1. "
                  "Overlap comms, FP8, aim for 90% MFU. When slow, profile the four buckets; when hung, find the rank not "
                  "in the same collective.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP up to 64 over NVLink and IB, PP across nodes, m ≥ 4p; rest DP "
                  "with ZeRO-1; overlap, FP8, 40% MFU; slow: profile; hang: find which rank is missing.", WRONG),
    (PITCH, None, "Start with memory, 16 bytes a parameter. TP 8 inside the node, PP across nodes, interleaved; rest is "
                  "DP with distributed optimizer; FP8 and overlap for ~40% MFU. Slow: add more GPUs. Hangs: raise the "
                  "NCCL timeout and restart from the checkpoint.", WRONG),
    (PITCH, None, "先算显存，每参数 16 字节。TP 放机内，PP 跨机，interleaved；剩下给 DP 配 distributed optimizer；overlap，FP8，MFU "
                  "40%。慢了就加卡；hang 了就把 NCCL timeout 调大再重启。", WRONG),
    (PITCH, None, "先算显存，每参数 2 字节。TP 放机内最多 8 卡，PP 跨机，m ≥ 4p；剩下给 DP 配 ZeRO-1；通信 overlap，FP8，MFU 90%；慢了 "
                  "profile；hang 了找缺席的 rank。", WRONG),
    (PITCH, None, "先算显存，每参数 16 字节。PP 放机内走 NVLink，TP 跨机；m ≥ 4p，interleaved；剩下给 DP 配 ZeRO-1；通信 overlap，FP8，"
                  "MFU 40%；慢了 profile 四类；hang 了找缺席的 rank。", WRONG),
    (PITCH, None, "memory, 16 bytes, TP, NVLink, PP, interleaved, CP, EP, DP, ZeRO-1, overlap, FP8, 40% MFU, profile, "
                  "stragglers, missing rank.", WRONG),
    (PITCH, None, "Start with DP everywhere, add FSDP when memory runs out; TP in the node maybe, PP maybe across nodes "
                  "if needed; overlap, FP8, 40% MFU; if slow profile, if hung check which rank.", WRONG),
    (PITCH, None, "Memory first: 16 bytes a parameter plus activations gives the GPUs per copy. TP inside the node, at "
                  "most 8; PP across nodes, m ≥ 4p, interleaved; CP for long context, EP for MoE; rest DP with "
                  "distributed optimizer. Overlap comms, FP8 GEMMs, ~40% MFU. Slow: profile into compute, data, "
                  "stragglers, exposed comms. Hung: find the rank not in the same collective.", RIGHT),
    (PITCH, None, "Memory → GPUs per copy (16 B/param + acts). TP≤8 in node, PP across nodes m≥4p interleaved, CP/EP if "
                  "needed, rest DP + ZeRO-1. Overlap, FP8, ~40% MFU. Slow → profile 4 buckets. Hang → rank missing from "
                  "the collective.", RIGHT),
    (PITCH, None, "先算显存，每参数约 16 字节加 activation，得出一份模型几张卡。TP 放机内最多 8 卡，PP 跨机，m ≥ 4p，interleaved；长序列开 "
                  "CP，MoE 开 EP；剩下给 DP 配 distributed optimizer。通信 overlap，FP8，MFU 40% 左右。慢了 profile 拆四类，hang 了找没进同"
                  "一个 collective 的 rank。", RIGHT),
    (PITCH, None, "Memory first: 16 bytes a param, 2 for bf16 weights, 2 for grads, 12 for fp32 master and Adam. TP 8 in "
                  "the node, not TP 16; PP across nodes, m ≥ 4p; rest DP with ZeRO-1. Overlap, FP8, 40% MFU, not 90%. "
                  "Slow: profile; hung: find the missing rank.", RIGHT),
    (PITCH, None, "Memory first, 16 B/param. TP ≤ 8 in node, PP across nodes, m ≥ 4p, rest DP + ZeRO-1, overlap, FP8, "
                  "40% MFU. Slow: profile. Hang: don't raise the timeout, find the rank missing from the collective.",
     RIGHT),
    (PITCH, None, "So, um, first I'd work out memory, like sixteen bytes per parameter for weights, grads and Adam, plus "
                  "activations, which tells me how many GPUs one copy needs; then tensor parallel inside the node, up to "
                  "eight GPUs, pipeline across nodes with at least four micro-batches per stage, and whatever's left is "
                  "data parallel with a sharded optimizer. Overlap comms, FP8, around 40% MFU. If slow, profile; if hung, "
                  "find the missing rank.", RIGHT),
    # led-dense-400b
    (LED, None, "First I'd ask tokens, deadline, sequence length and interconnect. Memory: 16 bytes per parameter, so "
                "6.4 TB of model state. Layout: TP 8 inside the node, PP 16 across nodes, rest DP with distributed "
                "optimizer. Time: 2·N·D FLOPs over 8,000 × 989 TFLOP/s at 100% MFU, about 2 days for 15T tokens. "
                "Checkpoints once a week are enough since H100s rarely fail.", WRONG),
    (LED, None, "I'd ask about tokens, deadline and the interconnect first. Memory: 16 bytes per param, 6.4 TB. Layout: "
                "TP 64 across 8 nodes to split the weights, DP for the rest. Time: 6ND over GPUs × peak × 40% MFU, "
                "around 70 days. Reliability: sharded async checkpoints every 30 minutes with automatic restart. "
                "Monitor loss spikes and per-rank step time.", WRONG),
    (LED, None, "Questions first: tokens, deadline, seq len. Memory: 16 bytes per parameter is 6.4 GB, so the model "
                "fits on one H100 and plain DDP works. Time: 6ND at 40% MFU, ~70 days. Checkpoint async every hour, "
                "monitor MFU and loss.", WRONG),
    (LED, None, "First I'd ask tokens and deadline. Memory: 16 B/param → 6.4 TB, so FSDP over all 8,000 GPUs gives "
                "under 1 GB each, that's the layout, no TP or PP needed. Time: 6ND / (8000 × 989T × 40%) ≈ 70 days for "
                "15T. Checkpoints sharded async every 30 min, auto restart; monitor loss, grad norm, step time.", WRONG),
    (LED, None, "I'd ask the token count and deadline. Memory is 16 bytes per parameter, about 6.4 TB. TP 8 in the "
                "node, PP across nodes, DP rest. Time: 6ND at 40% MFU, about 70 days. At this scale failures are rare, "
                "so we checkpoint once a day synchronously and restart by hand. Monitor loss.", WRONG),
    (LED, None, "先问 token 数、截止时间和互联。显存：每参数 16 字节，400B 就是 6.4 TB。并行：TP 8 机内，PP 跨机，剩下 DP。时间：MFU 按 90% "
                "算，6ND 除以卡数乘峰值，大概 20 天。可靠性：分片异步 checkpoint、自动重启。监控 loss 和 step time。", WRONG),
    (LED, None, "Maybe I'd ask about tokens, or maybe just assume. Memory could be 16 bytes per parameter or maybe 2. TP "
                "in the node probably, PP maybe. Time depends on MFU, days or months. Checkpoints sometime, monitor "
                "loss.", WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq len and network. Memory: 16 bytes per param, 6.4 TB. Layout: TP 8 "
                "in node, PP across nodes, DP rest. Time: 6ND at 40% MFU, ~70 days. Reliability: checkpoints every day, "
                "restart from the last one. Monitor loss and MFU.", WRONG),
    (LED, None, "tokens, deadline, 16 bytes per parameter, 6.4 TB, TP 8, PP 16, DP, 6ND, 40% MFU, async checkpoints, "
                "MTBF, loss spikes, stragglers.", WRONG),
    (LED, None, "Assume 15T tokens at 8K on IB, no need to ask. Memory: 16 bytes per param, 6.4 TB. TP 8 in node, PP 16 "
                "across nodes, DP 64 with ZeRO-1. Time: 6ND/(8k×989T×0.4) ≈ 70 days. Reliability: sharded async "
                "checkpoints at an MTBF interval, auto restart. Monitor MFU, loss spikes and per-rank step time.", WRONG),
    (LED, None, "First I'd ask how many tokens, the deadline, sequence length and interconnect. Memory: 16 B/param, 6.4 "
                "TB of state plus activations, so dozens of GPUs per copy. Layout: TP 8 in each node, PP 16 across "
                "nodes, DP the rest with the distributed optimizer, like Llama 3 405B. Time: 6·N·D = 6 × 400B × 15T ≈ "
                "3.6e25 FLOPs over 8,000 × 989 TFLOP/s × 40% MFU ≈ 130 days, check the deadline. Reliability: a failure "
                "every few hours, sharded async checkpoints at an MTBF-based interval, auto restart. Monitoring: MFU, "
                "loss and grad-norm spikes, per-rank step time.", RIGHT),
    (LED, None, "Qs first: tokens? deadline? seq len? network? Memory: 16 B/param → 6.4 TB + acts. TP8 intra-node, PP16 "
                "inter-node, DP rest + ZeRO-1. Time: 6ND/(N_gpu·989T·0.4). Reliability: async sharded ckpt every ~30 "
                "min, auto-restart. Monitor MFU, loss/grad-norm spikes, per-rank step time.", RIGHT),
    (LED, None, "我会先问清楚：训多少 token、什么时候要训完、序列长度、什么互联。显存：每参数约 16 字节，6.4 TB 的 model state 再加 activation，"
                "一份模型要几十张卡。并行：机内 TP 8，跨机 PP 16，剩下给 DP 配 distributed optimizer。时间：6ND 除以 8000 × 989 TFLOP/s × "
                "40% MFU，15T token 大约 4 个月。可靠性：几小时一次故障，按 MTBF 定间隔做分片异步 checkpoint，自动重启。监控 MFU、loss 尖峰、"
                "每个 rank 的 step time。", RIGHT),
    (LED, None, "先问 token 数、截止时间和互联。显存：每参数 16 字节，400B 就是 6.4 TB。并行：TP 8 机内，PP 跨机，剩下 DP。时间：6ND 除以 "
                "8000 × 989T × 40% MFU，大概 70 天。可靠性：分片异步 checkpoint、自动重启。监控 loss 和 step time。", RIGHT),
    (LED, None, "Okay, so before any math I'd want to know how many tokens we're training on, when it has to be done, "
                "the sequence length, and what the network looks like. Then memory, which is like 16 bytes a parameter "
                "with Adam, so 6.4 terabytes for the states, and activations on top, meaning one copy is dozens of "
                "GPUs. Then layout, TP 8 inside each node on NVLink, pipeline across nodes, not TP 16 since that would "
                "cross IB, and the rest data parallel with a sharded optimizer. Then time with 6ND over the GPUs times "
                "peak times maybe 40% MFU, so a few months, and check that against the deadline. And then reliability, "
                "because something will fail every few hours, so async sharded checkpoints and auto restart, and "
                "monitoring for loss spikes and per-rank step time.", RIGHT),
    # right answers that say the near misses' words to deny them, or in a narrower claim: the contradictions above must
    # not catch them
    (MORE_PP, None, "Doubling PP is not free: with the global batch fixed m stays the same, so the bubble (p-1)/m "
                    "roughly doubles. Interleaving shrinks the bubble but multiplies the p2p traffic.", RIGHT),
    (MORE_PP, None, "More PP is only fine if m grows with it; at a fixed global batch the bubble gets bigger, and the "
                    "first stage still holds p micro-batches.", RIGHT),
    (FSDP, None, "FSDP is fine for smaller models; here the global batch over 8k ranks leaves too few tokens per GPU, "
                 "and FSDP moves 1.5x DDP's bytes, not less than DDP, in weight all-gathers across nodes.", RIGHT),
    (FSDP, None, "Pure FSDP would make every GPU a DP rank: too few tokens per GPU to hide per-layer weight all-gathers "
                 "over IB, about 1.5x DDP.", RIGHT),
    (FSDP, None, "Sure, FSDP alone works here for memory, but every GPU becomes a DP rank, so the global batch leaves "
                 "too few tokens per GPU to hide the weight all-gathers across nodes, about 1.5x DDP.", RIGHT),
    (FSDP, None, "Memory-wise FSDP is fine here, but at 8k ranks each GPU gets too few tokens, and the per-layer weight "
                 "all-gathers over IB, 1.5x DDP, can't hide.", RIGHT),
    (TP16, None, "TP 8 is fine; TP 16 isn't, because it spans two nodes and its per-layer all-reduces go over IB, nine "
                 "times slower per GPU than NVLink.", RIGHT),
    (TP16, None, "On GB200 NVL72 TP 16 is fine since NVLink spans the rack; on 8-GPU H100 nodes TP 16 spans two nodes "
                 "and its per-layer all-reduces go over IB, ~9x slower. PP crosses nodes cheaper.", RIGHT),
    (HANG, None, "A 256-GPU run hung at step 30k with an NCCL timeout. Everyone said NCCL is flaky, but I dumped every "
                 "rank's stack with py-spy: rank 12 was in a barrier in eval, the others in all-reduce; only some ranks "
                 "called it. We fixed it the same day after losing 8 hours, and added a test.", RIGHT),
    (HANG, None, "128 GPUs froze at step 2k, watchdog timeout. We didn't just restart: py-spy on every rank showed rank "
                 "7 died with an OOM and the rest waited in the all-reduce. Fixed the packing in 3 hours, added an alert "
                 "on rank exits.", RIGHT),
    (HANG, None, "A 64-node job hung with a watchdog timeout. I read the NCCL_DEBUG logs on every rank; the root cause "
                 "was that NCCL is flaky at scale. It ran again in 2 hours and we added an alert.", WRONG),
    (PITCH, None, "Memory first: 16 bytes a param. TP ≤ 8 in the node, PP across nodes, m ≥ 4p, rest DP with ZeRO-1. "
                  "Overlap, FP8, ~40% MFU. Slow: profile, don't just add GPUs. Hang: find the rank missing from the "
                  "collective.", RIGHT),
    (PITCH, None, "Memory first, 16 B/param. TP ≤ 8 on NVLink and PP over IB, m ≥ 4p, rest DP + ZeRO-1, overlap, FP8, "
                  "40% MFU. Slow: profile. Hang: find the rank missing from the collective.", RIGHT),
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 B/param, 6.4 TB, not 6.4 GB, plus "
                "activations. Layout: not pure FSDP; TP 8 in node, PP 16 across nodes, DP rest with ZeRO-1. Time: 6ND "
                "at 40% MFU, about 130 days for 15T. Reliability: failures every few hours, so sharded async "
                "checkpoints every 30 minutes, not once a day, with automatic restart. Monitor MFU, loss spikes, "
                "per-rank step time.", RIGHT),
    # a second round on the lead and the pitch
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 bytes per param, 6.4 TB, so 80 GPUs hold "
                "one copy. Layout: TP 8 in node, PP 16 across nodes, DP rest. Time: 6ND at 40% MFU, roughly 5 days for "
                "15T tokens. Reliability: sharded async checkpoints, auto restart. Monitor loss and step time.", WRONG),
    (LED, None, "First I'd ask tokens and deadline. Memory: 16 bytes per parameter, so 6.4 TB. TP 8 in node, PP across "
                "nodes, DP rest. Time: 6ND at 40% MFU, ~130 days. Checkpoint async and sharded, restart automatically. "
                "Monitor loss and MFU. Failures at this scale are once a month.", WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 bytes per param, 6.4 TB. Layout: PP 8 "
                "inside the node, TP across nodes, DP rest. Time: 6ND at 40% MFU, about 130 days. Reliability: sharded "
                "async checkpoints at MTBF interval, auto restart. Monitor MFU, loss spikes.", WRONG),
    (LED, None, "我会先问 token 和截止时间。显存每参数 16 字节，6.4 TB。TP 16 跨两台机器，PP 8，剩下 DP。时间 6ND，MFU 40%，大约 130 天。可靠性："
                "分片异步 checkpoint，自动重启。监控 loss 尖峰、step time。", WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 B/param, 6.4 TB plus activations. TP 8 in "
                "node, PP 16 across nodes, DP rest with ZeRO-1. Time: 6ND at 40% MFU is about 130 days, so for a 90-day "
                "deadline we'd need more GPUs or fewer tokens. Reliability: failures every few hours, sharded async "
                "checkpoints, auto restart. Monitor MFU, loss spikes, step time.", RIGHT),
    (PITCH, None, "Memory first, 16 bytes per param. TP in the node up to 8, PP across nodes, m ≥ 4p, rest DP with "
                  "ZeRO-3 everywhere. No overlap needed, FP8, 40% MFU. Slow: profile; hang: find the missing rank.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. DP first inside the node, TP across nodes, PP wherever fits, m ≥ "
                  "4p; ZeRO-1; overlap, FP8, 40% MFU. Slow: profile; hang: find the missing rank.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP in the node up to 8, PP across nodes, m ≥ 4p, rest DP with "
                  "ZeRO-1. Overlap comms, FP8, 40% MFU. Slow: profile; hang: find the missing rank.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
