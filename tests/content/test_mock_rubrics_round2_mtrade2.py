"""Trade-off follow-ups, the hang story, the pitch and the dense-400B lead, second round (2026-12-03): honest
partial answers (one or two true things, the stage's question left unanswered) and right answers in the ways real
candidates talk (terse, rambling, bullets, Chinese with English terms, numbers written otherwise). Written by hand;
none from the labelled benchmark. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
HANG, PITCH, LED = "behavioural-hang-story", "pitch-recipe", "led-dense-400b"
MORE_PP, FSDP, TP16 = "followup-why-not-more-pp", "followup-why-not-fsdp", "followup-why-not-bigger-tp"

CASES = [
    # followup-why-not-more-pp: partial answers (the bubble's growth, the required point, left out) and half-wrong ones
    (MORE_PP, None, "More stages means more point-to-point hops, and they get harder to balance around the embedding "
                    "and the LM head.", WRONG),
    (MORE_PP, None, "The first stage still holds p micro-batches of activations in 1F1B, so memory barely drops.",
     WRONG),
    (MORE_PP, None, "Because PP is slower than TP and DP in general.", WRONG),
    (MORE_PP, None, "Doubling PP doubles the number of stages, which changes the pipeline schedule.", WRONG),
    (MORE_PP, None, "Halving TP would put twice the weights on each GPU, and TP 8 matches the node anyway.", WRONG),
    (MORE_PP, None, "PP 翻倍的话 p2p 通信多了，stage 也更难切均匀。", WRONG),
    (MORE_PP, None, "The bubble grows with more stages, but activation memory per GPU halves with each doubling since "
                    "every stage only holds 1/p of the activations.", WRONG),
    (MORE_PP, None, "The bubble gets bigger, yes, but interleaving removes it entirely at no extra cost, so doubling PP "
                    "is free in practice.", WRONG),
    (MORE_PP, None, "The bubble grows with more stages, yes, but the first stage memory drops by half so it's worth it.",
     WRONG),
    (MORE_PP, None, "Bubble grows with p; also PP is just harder to debug.", WRONG),
    (MORE_PP, None, "The bubble is (p-1)/m, and more stages add p2p hops and make balancing harder.", WRONG),
    # right answers
    (MORE_PP, None, "Bubble ∝ (p−1)/m; 2x p at fixed m ≈ 2x bubble.", RIGHT),
    (MORE_PP, None, "The bubble fraction goes from (p-1)/m to (2p-1)/m, about double, since the GBS pins m.", RIGHT),
    (MORE_PP, None, "Hmm, so, the thing is, the global batch is set by convergence, right, so if I double the stages "
                    "each pipeline still only gets the same number of micro-batches, and the idle time at the start "
                    "and end of each step, the fill and drain, basically doubles. Halving DP gives you more "
                    "micro-batches per pipeline but that just gets you back to where you were. And the first stage "
                    "still holds p micro-batches anyway.", RIGHT),
    (MORE_PP, None, "- bubble (p-1)/m: p doubles, m fixed by GBS -> bubble ~2x\n- 1F1B: stage 0 still stores p "
                    "micro-batches\n- more p2p hops, harder to balance", RIGHT),
    (MORE_PP, None, "因为 global batch 是定的，m 不变，p 翻倍以后 pipeline 的空转时间（fill/drain）大概翻一倍；DP 减半也只是把 m 拉回来。",
     RIGHT),
    (MORE_PP, None, "PP 翻倍，bubble 从 (p-1)/m 变成 (2p-1)/m，差不多是两倍，因为 global batch 定了 m。", RIGHT),
    (MORE_PP, None, "Fixed GBS → m fixed → bubble (p−1)/m roughly doubles when p doubles. Not worth it.", RIGHT),
    (MORE_PP, None, "Pipeline fill and drain scale with the number of stages, and at a fixed global batch you don't get "
                    "more micro-batches to amortize them.", RIGHT),
    # followup-why-not-fsdp: partial answers (one of the two required halves) and half-wrong ones
    (FSDP, None, "FSDP all-gathers every layer's weights across nodes, about 1.5x DDP's bytes.", WRONG),
    (FSDP, None, "With FSDP every GPU is a DP rank, so the global batch spread over 8k GPUs leaves too few tokens per "
                 "GPU.", WRONG),
    (FSDP, None, "TP and PP are more efficient at scale, and FSDP has more communication.", WRONG),
    (FSDP, None, "FSDP would fit, but TP and PP are what Megatron uses, and they scale better.", WRONG),
    (FSDP, None, "Each GPU gets too few tokens with FSDP, and the all-gathers are cheap anyway since they happen only "
                 "once per step.", WRONG),
    (FSDP, None, "FSDP can't fit the activations; TP and PP split the activations, FSDP only shards weights.", WRONG),
    (FSDP, None, "FSDP 通信量太大，每层 weight 都要跨机 all-gather。", WRONG),
    # right answers
    (FSDP, None, "DP = #GPUs → <1 seq/rank; per-layer param AG over IB exposed.", RIGHT),
    (FSDP, None, "嗯，主要是两点：第一，纯 FSDP 的话 DP degree 等于卡数，global batch 被收敛卡住，分下来每张卡连一条 sequence 都不到；第二，"
                 "FSDP 每层都要 all-gather 参数，forward backward 各一次，跨机走 IB，通信量大概是 DDP 的 1.5 倍，计算太少藏不住。", RIGHT),
    (FSDP, None, "- DP degree = 8k, GBS fixed → too little work per GPU\n- FSDP all-gathers every layer's weights in fwd "
                 "and bwd, across nodes, ~1.5x DDP\n- compute per GPU too small to hide it\n- TP/PP cut DP to ~64", RIGHT),
    (FSDP, None, "Pure sharding means the batch per rank shrinks to a fraction of a sequence, and the parameter "
                 "gathers, three passes instead of DDP's two, run over the inter-node fabric with nothing to overlap "
                 "them with.", RIGHT),
    (FSDP, None, "A 16M-token batch over 16,384 GPUs is 1k tokens per GPU, a quarter of a 4K sequence; and every "
                 "layer's weights are all-gathered across nodes, 50% more bytes than DDP.", RIGHT),
    (FSDP, None, "Communication: FSDP gathers the full params for every layer, fwd and bwd, across nodes. Batch: DP = "
                 "world size, and the critical batch size caps the GBS, so the per-GPU micro-batch is tiny and can't "
                 "hide those gathers.", RIGHT),
    (FSDP, None, "Two reasons. One: every GPU becomes a DP rank, so with a fixed global batch each gets a quarter of a "
                 "sequence. Two: ZeRO-3 all-gathers each layer's weights over IB, 50% more traffic than DDP, and with that "
                 "little compute it's exposed.", RIGHT),
    # followup-why-not-bigger-tp: partial answers (TP leaving the node, the required point, left out) and half-wrong
    (TP16, None, "TP 16 would make the GEMMs thinner, so there's less compute per byte.", WRONG),
    (TP16, None, "With 8 KV heads TP 16 would have to replicate the KV heads.", WRONG),
    (TP16, None, "TP 16 means more communication.", WRONG),
    (TP16, None, "PP is cheaper across nodes because it only sends activations at stage boundaries.", WRONG),
    (TP16, None, "TP 16 crosses into a second node, which is fine since TP's all-reduces are small; the real issue is "
                 "the KV heads.", WRONG),
    (TP16, None, "TP 16 is bad because it uses more memory per GPU.", WRONG),
    (TP16, None, "TP 16 的话 GEMM 变窄，KV head 也不够分。", WRONG),
    (TP16, None, "TP 16 spans two nodes so its all-reduces go over IB, about 9x slower, but SHARP fixes that, so TP 16 "
                 "works.", WRONG),
    (TP16, None, "TP 16 spans two nodes and its all-reduces go over IB, about 9x slower; with in-network reduction that's "
                 "solved.", WRONG),
    (TP16, None, "TP 16 spans two nodes, so all-reduces go over IB.", WRONG),
    # right answers
    (TP16, None, "8 GPUs/node. TP16 → TP ARs over IB (~50 vs 450 GB/s).", RIGHT),
    (TP16, None, "A DGX has 8 GPUs on NVSwitch; TP 16 puts half the group in another box, so every layer's all-reduce "
                 "goes over the NICs at a ninth of the bandwidth.", RIGHT),
    (TP16, None, "嗯，一台机器就 8 张卡走 NVLink，TP 16 就得跨机了，TP 每层 forward backward 都有 all-reduce，放到 IB 上带宽只有 NVLink 的 "
                 "1/9 左右，整个 step 会被拖慢很多；PP 跨机只传 activation，便宜得多。", RIGHT),
    (TP16, None, "- node = 8 GPUs on NVLink\n- TP 16 → 2 nodes → all-reduces on IB\n- IB ~50 GB/s/GPU vs NVLink ~450\n"
                 "- PP across nodes: p2p only", RIGHT),
    (TP16, None, "TP 16 is two nodes; its collectives would drop from 450 GB/s to about 50 GB/s per GPU, roughly 11% of "
                 "the bandwidth, on every layer.", RIGHT),
    (TP16, None, "Because the TP group would straddle the node boundary, and TP's per-layer all-reduces are on the "
                 "critical path; the scale-out network is an order of magnitude slower than the NVLink domain.", RIGHT),
    (TP16, None, "TP 16 spans two nodes, so the per-layer all-reduces go over IB at ~50 GB/s per GPU instead of ~450; "
                 "SHARP doesn't fix that, it only offloads the reduction.", RIGHT),
    (TP16, None, "TP 16 = two nodes. IB per GPU is about an eighth to a ninth of NVLink, and TP all-reduces every layer, "
                 "so that's the step time.", RIGHT),
    (TP16, None, "跨机了：TP 16 要两台机器，每层 all-reduce 走 IB，带宽大概只有 NVLink 的九分之一。PP 跨机便宜。", RIGHT),
    (MORE_PP, None, "Doubling PP halves the weights per GPU, but the bubble (p-1)/m grows at a fixed global batch, and the "
                    "first stage's activations don't halve since it still holds p micro-batches.", RIGHT),
    # behavioural-hang-story: partial stories (how one would debug, not a hang that happened; no cause; the cause
    # guessed) and half-wrong ones
    (HANG, None, "Usually when a job hangs I dump every rank's stack with py-spy and look for the rank that's in a "
                 "different collective, often one only some ranks call; then I fix it and add a test.", WRONG),
    (HANG, None, "A 256-GPU job hung at step 10k. We guessed it was the eval barrier that only rank 0 called, moved it, "
                 "and it ran again in 2 hours; we added a test.", WRONG),
    (HANG, None, "有一次 128 卡训练卡住了，我用 py-spy 看了每个 rank 的调用栈，然后重启了一下就好了。", WRONG),
    (HANG, None, "A 512-GPU run hung at step 7k with a watchdog timeout. py-spy on every rank showed rank 5 stuck in "
                 "the data loader while the others waited in the all-reduce, so we raised the timeout to 30 minutes and "
                 "it ran again.", WRONG),
    (HANG, None, "My team once had a 512-GPU job hang at step 40k. I wasn't on it, but I heard they found a rank that "
                 "skipped a barrier, and it was fixed in a day.", WRONG),
    (HANG, None, "Hangs are usually a collective mismatch: some rank calls a collective the others don't. The fix is "
                 "to make every rank call the same collectives in the same order.", WRONG),
    (HANG, None, "A 64-GPU job hung at step 3k. I looked at py-spy dumps on every rank: all in the same all-reduce. We "
                 "rebooted the cluster and it ran again in an hour, and it never came back.", WRONG),
    # right stories
    (HANG, None, "512 GPUs, hang @ step 80k, watchdog. py-spy all ranks → rank 301 in all_gather (eval), rest in AR. "
                 "Eval gather was behind if rank % 8 == 0. Fixed same day, lost 9h. Added a 2-rank CI test.", RIGHT),
    (HANG, None, "去年我们 1024 卡的 pretrain job 在 step 52k 左右 hang 住，NCCL watchdog 报 timeout。我先用 py-spy 对每个 rank dump "
                 "stack，发现 rank 17 卡在 dataloader 的 barrier，其他都在 all-reduce——那个 barrier 只有 local_rank==0 才会调用。改掉之后"
                 "当天就恢复了，一共丢了大概 6 个小时，后来我们在 CI 里加了一个多 rank 的 smoke test。", RIGHT),
    (HANG, None, "- Situation: 256 H100s, SFT run, froze at step 1,200, NCCL timeout after 30 min.\n- Action: flight "
                 "recorder dumps from every rank, compared with torchfrtrace.\n- Cause: rank 131 had issued one fewer "
                 "all-reduce: its shard ran out a batch early.\n- Result: padded the shards, ran clean, about 5 hours "
                 "lost.\n- After: an assert on equal batches per rank.", RIGHT),
    (HANG, None, "So, hmm, the one I remember best: we had this 64-node run, and it would freeze, not crash, just "
                 "freeze, around step 15,000, and after ten minutes the watchdog killed it. People kept saying it's the "
                 "network, the network, you know how it is. I went and dumped the stacks on every rank with py-spy, and "
                 "one rank, rank 211, wasn't there at all; the process was gone, the OOM killer had taken it out, and "
                 "the rest were sitting in the all-reduce waiting for it. We fixed the memory leak in the data workers, "
                 "and the run was back in about three hours; we also added an alert when any rank exits.", RIGHT),
    (HANG, None, "A 2,048-GPU run hung twice at random steps, NCCL timeout. I dumped every rank's stack: all in the same "
                 "all-reduce. NCCL_DEBUG=INFO and ibstat on each node showed one IB cable on node 43 flapping. We "
                 "drained the node, swapped the cable, and the job ran again within the hour; we added link-flap "
                 "monitoring.", RIGHT),
    (HANG, None, "我们 256 卡的任务在第 9000 步卡住，watchdog timeout。用 py-spy dump 了所有 rank：rank 0 在 checkpoint 里的 "
                 "all_gather，其他 255 个在梯度 all-reduce，原因是 gather 写在 if rank == 0 里面。挪出来后两小时就跑起来了，之后默认打开了 "
                 "flight recorder。", RIGHT),
    (HANG, None, "Short version: 96 GPUs, DPO run, hung at step 2,400, NCCL timeout. py-spy on all 96 ranks; rank 40 stuck "
                 "in a broadcast the others never called, because the reward model's load only ran on rank 40's node. "
                 "Fixed the same evening, lost ~6 h of the cluster. Now every collective in that path has a test.", RIGHT),
    (HANG, None, "那次是 64 卡的 SFT，跑到第 7000 步左右就 hang 了，NCCL watchdog 十分钟后把它杀掉。我用 flight recorder 对比了每个 rank "
                 "最后的 collective，发现 rank 12 少了一次 all-reduce，原因是它那份数据少了一个 batch。加了 drop_last，半天就恢复了，后来加了"
                 "一个检查每个 rank batch 数一致的 assert。", RIGHT),
    # pitch-recipe: partial pitches and half-wrong ones
    (PITCH, None, "TP in the node, PP across nodes, DP for the rest, overlap and FP8.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. Then just use FSDP across everything and tune the batch size.",
     WRONG),
    (PITCH, None, "Start from memory, pick a good parallel layout, make it efficient, and debug when things go wrong.",
     WRONG),
    (PITCH, None, "Memory first, 16 B/param. TP 8 in node, PP across nodes, m ≥ 4p; DP the rest with ZeRO-1; overlap, "
                  "FP8, 40% MFU. Slow: profile. Hang: the network is flaky, so just restart from the last checkpoint.",
     WRONG),
    (PITCH, None, "先算显存，每参数 16 字节，然后 TP、PP、DP 都开上，能跑起来就行。", WRONG),
    (PITCH, None, "For serving a large model I'd use TP inside the node, batch requests continuously, use paged KV "
                  "cache and FP8 weights.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP 8 inside the node, PP across nodes with m ≥ 4p, DP the rest "
                  "with ZeRO-1, overlap, FP8, 40% MFU. Slow: it's always the network, so add bandwidth. Hang: find the "
                  "missing rank.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. PP 8 inside the node, TP 8 across, DP rest; overlap; FP8; 40% MFU; "
                  "slow: profile; hang: find the missing rank.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP 8 in the node, PP across nodes with a single micro-batch, DP rest "
                  "with ZeRO-1; overlap, FP8, 40% MFU; slow: profile; hang: find the missing rank.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param; TP 8 in the node, PP across nodes, m ≥ 4p, DP with ZeRO-1; overlap, "
                  "FP8; 10% MFU is fine; slow: profile; hang: find the missing rank.", WRONG),
    (PITCH, None, "Memory first: 16 bytes per param. TP inside the node, PP across nodes, DP the rest with ZeRO-1. That's "
                  "it.", WRONG),
    # right pitches
    (PITCH, None, "Memory first, 16 B/param. TP 8 in the node, not PP in the node; PP across nodes, m ≥ 4p; DP rest with "
                  "ZeRO-1; overlap, FP8 buys maybe 10% more MFU, so ~40% MFU; slow: profile; hang: find the missing "
                  "rank.", RIGHT),
    (PITCH, None, "- mem: 16B/param + acts → #GPUs per replica\n- TP≤8 on NVLink, PP inter-node (m≥4p, interleaved), "
                  "CP/EP as needed, DP + ZeRO-1 outermost\n- overlap, FP8, ~40% MFU\n- slow → profile into buckets; "
                  "hang → find the odd rank out", RIGHT),
    (PITCH, None, "先从显存算起，每个参数 16 bytes 加 activation，知道一份 model 要几张卡；TP 放 node 内 NVLink 上，最多 8；PP 跨 node，"
                  "micro-batch 至少 4p，interleaved；DP 在最外层加 ZeRO-1。通信 overlap，FP8，MFU 40% 左右。慢了先 profile，hang 了找哪个 "
                  "rank 没进 collective。", RIGHT),
    (PITCH, None, "Okay so, first memory, roughly sixteen bytes a parameter with Adam plus activations, that gives "
                  "GPUs per copy. Tensor parallel within the NVLink domain, eight max; pipeline over InfiniBand with "
                  "four-plus micro-batches per stage; data-parallel outermost with sharded optimizer states. Overlap "
                  "comms, FP8, MFU around 0.4. Slow? Profile. Hung? Find the rank that isn't in the collective.", RIGHT),
    (PITCH, None, "Memory first: 16 B/param. TP ≤ 8 in node, PP across nodes, m ≥ 4p, DP rest with distributed "
                  "optimizer; overlap, FP8, 40–45% MFU; slow: profile, split compute, data, comms, stragglers; hang: "
                  "find the rank missing from the collective.", RIGHT),
    (PITCH, None, "Memory decides the GPUs per copy, about 16 bytes a param. Then TP 8 in each node, PP between nodes, "
                  "interleaved with m ≥ 4p, EP only for MoE, DP outside with ZeRO-1. Overlap everything, FP8, ~40% MFU. "
                  "When slow, profile; when hung, look for the rank not in the same collective.", RIGHT),
    (PITCH, None, "显存先行：每参数 16 字节。TP 8 放机内，PP 跨机，m ≥ 4p，剩下 DP + ZeRO-1；overlap、FP8，MFU 四成左右；慢了 profile "
                  "分四类，卡住了找哪个 rank 缺席。", RIGHT),
    (PITCH, None, "Memory first, 16 B/param. TP 8 in node, PP across nodes, m ≥ 4p, DP rest with ZeRO-1; overlap, FP8, "
                  "40% MFU. Slow: profile, don't assume it's always the network. Hang: don't just restart, find the "
                  "rank missing from the collective.", RIGHT),
    (PITCH, None, "Sizing first — sixteen bytes per parameter. Tensor parallel stays on NVLink, eight wide; pipeline spans "
                  "nodes with plenty of micro-batches; data parallel wraps it with a sharded optimizer. Hide comms behind "
                  "compute, FP8 matmuls, expect two-fifths MFU. Slow means profile; a hang means hunting the rank that "
                  "never joined the collective.", RIGHT),
    (PITCH, None, "先看 memory：每个参数 16 字节加 activation。TP 在 node 里面，最多 8 张；PP 跨 node，micro-batch 数 ≥ 4 倍 stage 数；外面 "
                  "DP 加 distributed optimizer。overlap、FP8、MFU 四成。慢就 profile，hang 就找哪个 rank 没进 collective。", RIGHT),
    # led-dense-400b: partial leads (no time, no reliability) and half-wrong ones
    (LED, None, "First I'd ask tokens, deadline, seq len and interconnect. Memory: 16 B/param, 6.4 TB. Layout: TP 8 in "
                "the node, PP 16 across nodes, DP the rest with ZeRO-1. Monitor loss spikes and MFU.", WRONG),
    (LED, None, "I'd ask how many tokens, the deadline, the sequence length, the interconnect and the budget, and then "
                "decide the layout from there.", WRONG),
    (LED, None, "First I'd ask tokens and deadline. Memory: 16 B/param → 6.4 TB, so 8 GPUs hold one copy. TP 8 in "
                "the node, DP for the rest. Time: 6ND at 40% MFU, ~130 days. Sharded async checkpoints, auto restart. "
                "Monitor loss.", WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 B/param, 6.4 TB. TP 8 in node, PP 16 "
                "across nodes, DP rest. Time: 6ND/(8000 × 989T × 0.4) for 15T tokens is about 1300 days. Sharded async "
                "checkpoints, auto restart. Monitor MFU and loss.", WRONG),
    (LED, None, "先问 token 数和截止时间；显存每参数 16 字节，6.4 TB；TP 8 机内、PP 跨机、剩下 DP；监控 loss 和 MFU。", WRONG),
    (LED, None, "I'd copy Llama 3 405B: TP 8, PP 16, DP 64, their learning rate and batch schedule, and 15T tokens.",
     WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 B/param, 6.4 TB. TP 8 in node, PP 16 "
                "across nodes, DP rest. Time: 6ND at 40% MFU, about 130 days. Checkpoints every 10 hours are plenty, "
                "async and sharded, auto restart. Monitor loss.", WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq len, network. Memory: 16 B/param, 6.4 TB. TP 8 in node, PP 16 "
                "across nodes, DP rest with ZeRO-1. Time: 6ND at 40% MFU, about 130 days, but the deadline doesn't "
                "matter. Async sharded checkpoints, auto restart. Monitor MFU.", WRONG),
    # right leads
    (LED, None, "- Scope: tokens? deadline? seq len? fabric?\n- Mem: 16 B/param × 400B = 6.4 TB + acts → ~80+ GPUs "
                "per copy\n- Layout: TP8 (NVLink) × PP16 (IB) × DP rest, ZeRO-1\n- Time: 6ND = 3.6e25 FLOPs ÷ (8k × "
                "989T × 0.4) ≈ 1.1e7 s ≈ 130 days\n- Reliability: failure every few hours → async sharded ckpt, "
                "auto-restart\n- Monitoring: MFU, loss/grad-norm spikes, per-rank step time", RIGHT),
    (LED, None, "嗯，我会先问几个问题：要训多少 token、deadline 是什么时候、sequence length 多长、互联是 IB 还是什么。然后算显存，每参数大概 16 "
                "bytes，400B 就是 6.4 TB，加上 activation 一份模型要几十张卡。并行的话机内 TP 8，跨机 PP 16，剩下 DP 配 distributed "
                "optimizer。时间用 6ND 除以 8000 × 989 TFLOPS × 40% MFU，15T token 大概四个多月，要和 deadline 对一下。可靠性：这个规模几个"
                "小时就挂一次，所以分片异步 checkpoint，按 MTBF 定间隔，自动重启。监控 MFU、loss spike 和每个 rank 的 step time。", RIGHT),
    (LED, None, "Scoping first: how much data, what timeline, what context length, what fabric. Memory: 6.4 TB of "
                "weights, grads and Adam at 16 bytes a parameter, activations extra. Layout: tensor parallel 8 inside "
                "each node, pipeline across nodes, data-parallel outside with ZeRO-1. Time: 6·N·D over GPUs × peak × "
                "0.4 MFU, around four months for 15T tokens. Reliability: interruptions every few hours, so async "
                "sharded checkpoints on an MTBF-derived interval and automatic restart. Monitoring: MFU, loss and grad-"
                "norm spikes, per-rank step times.", RIGHT),
    (LED, None, "So the first thing, before I touch any numbers, is I'd want to know how many tokens, when it's due, "
                "the sequence length and the network, because all of it changes the plan. Then memory: 16 bytes per "
                "parameter, so 6.4 TB, plus activations. Layout, TP 8 in the node, PP across, DP outside with a sharded "
                "optimizer. Time, hmm, 6ND is about 3.6e25 FLOPs for 15T tokens, and at 40% MFU on 8k H100s that's "
                "roughly 130 days, so probably longer than anyone wants. And failures, at this scale you get one every "
                "few hours, so checkpoints are async and sharded and restarts are automatic. Plus I'd watch loss "
                "spikes and per-rank step time.", RIGHT),
    (LED, None, "Let me scope it first: token budget, deadline, context length, interconnect? Assuming 15T tokens, 8K, IB "
                "NDR. Memory: 400B × 16 bytes = 6.4 TB of state plus activations. Layout: TP 8 × PP 16 × DP 62, "
                "distributed optimizer. Time: 6 × 400e9 × 15e12 = 3.6e25 FLOPs; 8k × 989e12 × 0.4 ≈ 3.2e18 FLOP/s, so "
                "~1.1e7 s, about four months. Failures: every few hours, so sharded async checkpoints every ~30 min and "
                "auto-restart. Watch MFU, loss spikes, per-rank step time.", RIGHT),
    (LED, None, "Qs: tokens, deadline, seq, network. 16 B/param → 6.4 TB. TP8 × PP16 × DP, ZeRO-1. 6ND @ 40% MFU ≈ "
                "130 d. Ckpt async + sharded, MTBF interval, auto-restart. Watch MFU, loss spikes, step time/rank.",
     RIGHT),
    (LED, None, "我先确认 token 数、截止时间、序列长度和网络。显存：每参数 16 字节，6.4 TB。机内 TP 8，跨机 PP，剩下 DP。6ND 按 40% MFU，"
                "大约 130 天。checkpoint 分片异步，自动重启；监控 MFU、loss 尖峰和 step time。", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_partial_and_spoken_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
