"""Follow-up stages, second round (2026-12-03): honest partial answers (one or two true things, the stage's question
left unanswered, or one point right and another wrong) and right answers written as real candidates talk (terse,
rambling, Chinese mixed with English, bullets, numbers written differently, synonyms). Written by hand, none from
the labelled benchmark. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CP, TP, SMI = "followup-when-cp-pays-off", "followup-why-tp-in-node", "followup-nvidia-smi"
MOVING, M4P, TIMEOUT = "followup-moving-hang", "followup-why-m-4p", "followup-raise-timeout"

CASES = [
    # when CP pays off
    (CP, None, "CP splits the sequence across GPUs and uses ring attention to pass K/V between them.", WRONG),
    (CP, None, "It pays off for long sequences, and for short sequences it's a waste.", WRONG),
    (CP, None, "Use CP when the global batch is large: it splits the batch across ranks so each one holds fewer "
               "samples.", WRONG),
    (CP, None, "For long sequences, when activations don't fit: CP splits the sequence so each rank holds s/CP. "
               "The K/V exchange is negligible, so there's no real downside.", WRONG),
    (CP, None, "长序列 activation 放不下的时候开 CP；CP 把 weight 也切了，所以显存省得更多。", WRONG),
    (CP, None, "When activations are the bottleneck at long context, CP helps. That's about it.", WRONG),
    (CP, None, "CP is worth it whenever memory is tight, for example when the optimizer states don't fit; it "
               "splits the sequence and exchanges K/V.", WRONG),
    (CP, None, "s ≥ 32K and acts OOM after TP8 + recompute → CP. Cost: ring K/V passes, hidden by O(s²) attn. "
               "Short s: overhead > gain.", RIGHT),
    (CP, None, "Hmm, so, the thing is, CP is really a memory tool. Activation memory grows linearly with the "
               "sequence length, so at like 128K even TP 8 with full recompute runs out of memory, and that's "
               "when you turn it on: it chops the sequence into chunks, one per rank. The price, and this is the "
               "part people forget, is that the ranks have to rotate their keys and values around in a ring, which "
               "you hide behind the attention math. At 4K there's just not enough attention math to hide it, so "
               "you'd only be slowing yourself down.", RIGHT),
    (CP, None, "当 sequence length 很长，比如 128K，activation memory 在 TP=8、full recompute 之后还是 OOM，就上 CP：把 "
               "sequence 维度切成 CP 份，每张卡只存 1/CP 的 activation。代价是 ring attention 里要传 KV，要 overlap 在 "
               "attention 计算后面；短序列算得太快，通信藏不住，反而拖慢。", RIGHT),
    (CP, None, "- when: long context (64K-1M), activations don't fit even with TP 8 + recompute\n"
               "- what: shards the sequence dim, each rank keeps s/CP tokens\n"
               "- cost: K/V ring exchange, must overlap with attention\n"
               "- waste: short sequences (4K), not enough compute to hide it", RIGHT),
    (CP, None, "At 128K the activations are 32 times what they are at 4K, so past TP 8 and recompute they don't "
               "fit; CP cuts the sequence into CP pieces. The K/V exchange grows with s, the attention with s², so "
               "it hides at long context; at 4K it's a net loss.", RIGHT),
    (CP, None, "Worth it for long-context training, when activation memory blows up even with TP 8 and "
               "checkpointing: sequence sharding across ranks, paid for by passing key/value blocks in a ring that "
               "overlaps attention. At short sequences the communication is exposed and CP just costs time.", RIGHT),
    (CP, None, "长 context（比如 128K）下 activation 在 TP8 + 重计算后还是爆显存，这时候 CP 才值：按 sequence 切到各卡，代价是 "
               "ring attention 里 KV 要轮转一圈，靠 attention 的计算 overlap 掉。4K 这种短序列计算量太小，通信藏不住，纯亏。", RIGHT),
    (CP, None, "CP pays off for long sequences, when activations don't fit; CP also shards the optimizer over TP x CP "
               "and the weights over CP.", WRONG),
    (CP, None, "For long sequences when activations don't fit, CP splits the sequence and exchanges K/V via ring "
               "attention; it's better than recomputation, so turn recompute off once CP is on.", WRONG),
    (CP, None, "Long sequences, activations don't fit: CP splits the sequence; the K/V exchange hides behind attention. "
               "CP ranks each hold different weights.", WRONG),
    (CP, None, "Long sequences where activations don't fit even with TP 8 and recompute: CP splits the sequence; the "
               "K/V ring exchange hides behind attention, and at short sequences CP is a waste. CP ranks don't hold "
               "different weights, they hold the same ones.", RIGHT),
    # why TP stays in the node
    (TP, None, "Because NVLink is much faster than InfiniBand.", WRONG),
    (TP, None, "Because a node has 8 GPUs, so TP is at most 8.", WRONG),
    (TP, None, "TP splits each layer's weights across the GPUs, so every GPU holds 1/8 of the model; that's why it "
               "stays in the node.", WRONG),
    (TP, None, "TP communicates in every layer, so it needs NVLink; across nodes InfiniBand has the same bandwidth, "
               "only a bit more latency.", WRONG),
    (TP, None, "TP 每层都要通信，所以放在机内；机间 IB 其实也差不多，只是延迟高一点。", WRONG),
    (TP, None, "TP all-reduces every layer and NVLink is ten times faster than IB, so put PP inside the node and TP "
               "across nodes.", WRONG),
    (TP, None, "TP needs high bandwidth, and the node has NVLink.", WRONG),
    (TP, None, "per-layer AR on the crit path; NVL ~10x IB → TP ≤ 8.", RIGHT),
    (TP, None, "So, hmm, the way I see it, tensor parallel isn't like data parallel where you sync once at the end. "
               "It splits the matmuls inside each layer, so every layer, forward and backward, needs an all-reduce "
               "before the next GEMM can start, which puts it right on the critical path. Inside a node you've got "
               "NVLink at roughly 450 gigabytes a second per GPU; between nodes it's InfiniBand at around 50. That's "
               "close to a 10x gap, so TP across nodes would stall every single layer. Hence TP 8, in the node.",
     RIGHT),
    (TP, None, "因为 TP 每个 layer 的 forward/backward 都要 all-reduce，next GEMM 要等它，没法 overlap。机内 NVLink ~450 "
               "GB/s，机间 IB 只有 ~50 GB/s，差了一个数量级，所以 TP degree 最多 8，不出 node。", RIGHT),
    (TP, None, "TP talks in every layer and the next matmul waits on it; IB between nodes gives about a tenth of "
               "NVLink's bandwidth, so cross-node TP would stall each layer. Keep it to the 8 GPUs in the node.",
     RIGHT),
    (TP, None, "TP 每层都要 all-reduce，在关键路径上；IB 的带宽只有 NVLink 的十分之一左右，跨机每层都会卡，所以 TP 最多 8。",
     RIGHT),
    (TP, None, "Per-layer all-reduces that block the next GEMM need the intra-node NVLink fabric: the inter-node "
               "network has roughly an order of magnitude less bandwidth, so TP is capped at the 8 GPUs of a node.",
     RIGHT),
    (TP, None, "TP 在每个 transformer layer 里都要通信，IB 比 NVLink 慢一个数量级，所以只能在机内。", RIGHT),
    (TP, None, "Every layer needs an all-reduce, yes, but the real reason is the 8 GPUs share one PCIe switch, so TP "
               "stays in the node.", WRONG),
    (TP, None, "TP all-reduces every layer on the critical path; NVLink is 10x IB. Across nodes you could use TP 16 "
               "with SHARP and it's fine.", WRONG),
    (TP, None, "TP 每层都要 all-reduce，NVLink 比 IB 快十倍；所以 TP 可以开到 16，两台机器刚好。", WRONG),
    (TP, None, "TP all-reduces every layer; NVLink ~450 GB/s vs IB ~50 GB/s. DP's gradient all-reduce also can't "
               "overlap, so DP also has to stay in the node.", WRONG),
    (TP, None, "TP all-reduces every layer on the critical path; NVLink is 10x IB, so TP stays at 8. DP doesn't have "
               "to stay in the node: it syncs once per step and hides behind the backward.", RIGHT),
    # nvidia-smi 100% with a low MFU
    (SMI, None, "nvidia-smi is not accurate; MFU is what matters.", WRONG),
    (SMI, None, "Utilization is the share of time a kernel is running.", WRONG),
    (SMI, None, "The GPUs are busy but memory-bound, waiting on HBM, so MFU is low.", WRONG),
    (SMI, None, "Both can be true because MFU only counts the forward pass, so it always reads low.", WRONG),
    (SMI, None, "utilization 是 kernel 在跑的时间占比；MFU 低是因为通信太多，把通信 overlap 掉就好。", WRONG),
    (SMI, None, "The utilization is high because the GPUs are fully used; MFU is low because the MFU formula "
                "counts only the matmuls.", WRONG),
    (SMI, None, "smi util = time ≥1 kernel active, not SM/FLOP usage. Tiny or mem-bound kernels → 100% with idle "
                "TCs. MFU = 6N·tok/s ÷ peak; trust it, profile.", RIGHT),
    (SMI, None, "Yeah, so, hmm, the utilization column is kind of a lie, or not a lie, it just measures something "
                "else: it's the fraction of the sampling period in which at least one kernel was executing, nothing "
                "about how many SMs or tensor cores that kernel used. So if your step is a pile of small elementwise "
                "ops, layer norms, optimizer kernels, all memory-bound, the GPU reads 100% while the tensor cores sit "
                "idle most of the time. MFU, model FLOPs per second over the peak, is the honest number; I'd trust "
                "it and take a profiler trace.", RIGHT),
    (SMI, None, "nvidia-smi 的 utilization 只看 sample 时间里有没有 kernel 在 GPU 上跑，不管这个 kernel 用了多少 SM。"
                "small kernels 或者 memory-bound 的 kernel 一样显示 100%，tensor core 其实在 idle。MFU 是 model FLOPs "
                "除以 peak FLOPs，应该以 MFU 为准，再拿 profiler 看。", RIGHT),
    (SMI, None, "- nvidia-smi util: % of time some kernel was running, not how much of the GPU it used\n"
                "- tiny / memory-bound kernels read 100% while tensor cores idle\n"
                "- MFU: useful FLOPs over peak → trust it, then profile", RIGHT),
    (SMI, None, "At 30% MFU the tensor cores do useful work less than a third of the time, yet utilization reads "
                "100% because it only counts the time any kernel is resident; launch-bound or memory-bound kernels "
                "fill it. MFU, 6N per token times tokens/s over 989 TFLOP/s, is the number to believe.", RIGHT),
    (SMI, None, "The column is kernel-activity time, not FLOP efficiency: a stream of tiny kernels keeps it pinned "
                "at 100% while the tensor cores starve. MFU compares achieved model FLOPs to peak, so go by MFU and "
                "a trace.", RIGHT),
    (SMI, None, "GPU-Util in nvidia-smi = percent of time over the sample period during which one or more kernels was "
                "executing. Says nothing about SM occupancy or tensor-core throughput. So a launch-bound or HBM-bound "
                "workload pegs it at 100% while MFU sits at 20%. Trust MFU; use nsys / torch profiler to see what's "
                "eating the time.", RIGHT),
    (SMI, None, "说白了 nvidia-smi 的 100% 只代表 GPU 上一直有 kernel 在跑，跑的可能全是小 kernel、elementwise 这种 memory-bound "
                "的东西，tensor core 基本闲着。MFU 才是真实的有效算力占比，要以 MFU 为准。", RIGHT),
    (SMI, None, "nvidia-smi's 100% means the SMs are all busy, but they're busy with slow kernels; MFU is useful FLOPs "
                "over peak.", WRONG),
    (SMI, None, "utilization 只是有 kernel 在跑的时间占比，小 kernel 也是 100%；MFU 是有效 FLOPs 除以峰值。所以 MFU 低一定是 "
                "dataloader 慢。", WRONG),
    # a hang that moves
    (MOVING, None, "I'd use the flight recorder and py-spy to find the missing rank.", WRONG),
    (MOVING, None, "It's probably hardware.", WRONG),
    (MOVING, None, "It moves because of data shuffling: a bad sample lands at a different step on every run, so I'd "
                   "look for the bad sample.", WRONG),
    (MOVING, None, "位置不固定说明是随机问题，多半是 NCCL 的 bug，升级 NCCL 版本就好。", WRONG),
    (MOVING, None, "More likely hardware or the network; I'd open a ticket with the cluster team and wait.", WRONG),
    (MOVING, None, "It's more likely hardware, so I'd turn on NCCL_DEBUG=INFO and rerun the job the same way until "
                   "it hangs again.", WRONG),
    (MOVING, None, "More likely hardware or the network. Find the missing rank with the flight recorder, map it to its "
                   "node, and then rewrite the collective code with retries.", WRONG),
    (MOVING, None, "Random step → infra, not model code. FR/py-spy for the absent rank, rank→host per run, find the "
                   "common host; nccl-tests + DCGM diag on it, cordon, resume from ckpt.", RIGHT),
    (MOVING, None, "OK, so, hmm, that's actually a useful clue. If it were our code, say a rank-dependent branch or "
                   "one bad batch, it would hang at the same step every time, it's deterministic. Moving around "
                   "smells like hardware or the network, a flaky link or a GPU going bad. So I'd still grab the flight "
                   "recorder dump and py-spy stacks to see who's missing, but then I'd write down the hostname of the "
                   "missing rank in each run and look for the machine they share. Then run nccl-tests on that node and "
                   "its neighbours, check dmesg for Xid errors, and if it's bad, drain it and restart from the last "
                   "checkpoint.", RIGHT),
    (MOVING, None, "hang 的 step 不固定 → 多半是 hardware/network 问题，code 的 bug 会每次卡在同一步。照样用 flight recorder "
                   "找 missing rank，把每次的 rank 映射到 hostname，看是不是 same node；然后跑 nccl-tests、查 Xid/ECC，"
                   "把 bad node drain 掉，从 checkpoint resume。", RIGHT),
    (MOVING, None, "- suspect changes: hardware/network, not code (code repeats at the same step)\n"
                   "- still find the missing rank (flight recorder, py-spy), map it to its node across runs\n"
                   "- nccl-tests on node pairs, Xid/ECC\n"
                   "- drain the node, restart from checkpoint", RIGHT),
    (MOVING, None, "Nondeterministic hangs point to a flaky GPU or NIC rather than a software bug. Correlate the "
                   "hung rank's host over the last few runs, burn-in test that host with nccl-tests, and take it out "
                   "of the pool before resuming.", RIGHT),
    (MOVING, None, "What changes is the prior: deterministic step = code/data, wandering step = hardware/fabric. I'd "
                   "collect the flight recorder dumps from each of the last three hangs, look up which host the stuck "
                   "rank lives on, and if it's the same box, run DCGM level 3 and nccl-tests on it, then cordon it and "
                   "resume.", RIGHT),
    (MOVING, None, "It moves, so it's probably network congestion from other jobs; I'd ask for a dedicated partition "
                   "and rerun.", WRONG),
    (MOVING, None, "Since the step changes, it must be a straggler rank, so I'd just increase the NCCL timeout to give "
                   "it time.", WRONG),
    (MOVING, None, "More likely hardware or network: find the missing rank with the flight recorder and map it to its "
                   "node, run nccl-tests on it; then set NCCL_IB_DISABLE=1 for the whole job.", WRONG),
    # why m >= 4p
    (M4P, None, "To keep the pipeline full.", WRONG),
    (M4P, None, "More micro-batches means a smaller bubble.", WRONG),
    (M4P, None, "So that all the micro-batches' activations fit in memory at once.", WRONG),
    (M4P, None, "So each stage has enough work to overlap the send/recv between stages.", WRONG),
    (M4P, None, "The bubble is (p − 1)/m; at m = 4p it's about half the step.", WRONG),
    (M4P, None, "m 越大 bubble 越小，所以 m 越大越好，没有上限。", WRONG),
    (M4P, None, "The bubble is (p-1)/m, so at m = 4p it is under a quarter; and more micro-batches also grow the "
                "activation memory linearly with m.", WRONG),
    (M4P, None, "The bubble is (p-1)/m and at m = 4p it's under a quarter, but the global batch doesn't limit m, you "
                "can always add more micro-batches.", WRONG),
    (M4P, None, "Bubble (p-1)/m, m=4p → ~25%. Interleaving multiplies the bubble by v.", WRONG),
    (M4P, None, "bubble 是 (p-1)/m，m = 4p 时不到四分之一；m 越大越好，没有上限。", WRONG),
    (M4P, None, "1F1B bubble (p−1)/m → m = 4p keeps it < 25%; interleave ÷ v; m capped by GBS/(DP·mbs).", RIGHT),
    (M4P, None, "So, hmm, the thing with a pipeline is you fill it and drain it every step, the warm-up and "
                "cool-down, and the idle part is p minus 1 over m of the step. If m is four times p that's a bit "
                "under a quarter, which is roughly where people draw the line. You can go lower with interleaving, "
                "v chunks per GPU divides it by v. And you can't just crank m, because m is the global batch over "
                "DP times the micro-batch size.", RIGHT),
    (M4P, None, "因为 1F1B 的 pipeline bubble 占 (p−1)/m，m = 4p 时不到 1/4；m 再小 bubble 就太大。interleaved 可以再除以 v。"
                "但 m 受 global batch 限制：m = GBS / (DP × micro-batch size)。", RIGHT),
    (M4P, None, "- bubble = (p-1)/m of the step\n- m = 4p → just under 25%\n- interleaved: divided by v\n"
                "- global batch caps m", RIGHT),
    (M4P, None, "The bubble is (p − 1)/m; with p = 8 and m = 32 that's 7/32, about 22%, a bit less than one "
                "quarter. Fewer micro-batches and the idle share climbs fast.", RIGHT),
    (M4P, None, "bubble 是 (p-1)/m，m = 4p 时大约四分之一不到；再少就浪费太多。", RIGHT),
    (M4P, None, "Bubble fraction ≈ (p−1)/m. At m = 4p you're at roughly 1/4 of the ideal step, anything less and a "
                "big chunk of the GPUs idle. Interleaved schedules (v virtual stages) get you (p−1)/(v·m). m itself is "
                "GBS / (DP · micro-batch), so the batch bounds how far you can push it.", RIGHT),
    (M4P, None, "就是为了把 pipeline bubble 压下来：bubble 大概是 (p-1)/m，m 取 4p 的话 bubble 占比差不多 25% 以内。再少的话 GPU "
                "空转太多。用 interleaved 1F1B 还能再除以 v。不过 m 也不能无限大，global batch 固定，DP 越大 m 越小。", RIGHT),
    (M4P, None, "Because fewer micro-batches per stage means more idle time; 4p is just the rule of thumb.", WRONG),
    (M4P, None, "The bubble is (p−1)/m, a quarter at m = 4p; more micro-batches also add more pipeline communication, "
                "so don't go above 4p.", WRONG),
    # raise the timeout
    (TIMEOUT, None, "A longer timeout doesn't fix anything.", WRONG),
    (TIMEOUT, None, "We should find the root cause instead.", WRONG),
    (TIMEOUT, None, "Fine, raise it, but also turn on the flight recorder.", WRONG),
    (TIMEOUT, None, "The timeout isn't the cause, a rank is missing; raising it to two hours is fine as long as we "
                    "also dump the flight recorder.", WRONG),
    (TIMEOUT, None, "调大 timeout 没用，应该直接重启任务。", WRONG),
    (TIMEOUT, None, "Raising the timeout hides the problem; just restart from the last checkpoint each time it "
                    "fails.", WRONG),
    (TIMEOUT, None, "Timeout 不是根因，缺席的 rank 等多久都不会来。调大也行，但要先开 flight recorder 超时 dump。", WRONG),
    (TIMEOUT, None, "The timeout is not the cause: a rank is missing from the collective and a longer timeout only waits "
                    "longer while the cluster idles. Raising it is fine only when a step legitimately takes long, like a "
                    "slow checkpoint save; here keep it short and dump the flight recorder on timeout.", RIGHT),
    (TIMEOUT, None, "Raising it only hides the hang; better to disable the watchdog entirely so the job never gets "
                    "killed, and dump the flight recorder on timeout.", WRONG),
    (TIMEOUT, None, "The timeout is a symptom, a rank is missing. Keep it short and dump the flight recorder on timeout, "
                    "then just restart the job from checkpoint and move on.", WRONG),
    (TIMEOUT, None, "Don't just restart: the timeout is not the cause, a rank is missing. Keep it short, dump the flight "
                    "recorder on timeout, fix that rank, then restart from the checkpoint.", RIGHT),
    (TIMEOUT, None, "Push back. Bumping it just turns a 10-min hang into a 2-hour hang on every GPU. The timeout is what "
                    "tells us a rank never reached the collective — keep it short, enable TORCH_NCCL_DUMP_ON_TIMEOUT "
                    "with the flight recorder, py-spy the stuck rank, fix the actual bug.", RIGHT),
    (TIMEOUT, None, "不行。timeout 本身不是问题，是某个 rank 没有进入 all-reduce，调大了只是让几千张卡一起干等更久。应该保持默认的 "
                    "10 分钟甚至更短，打开 flight recorder 的 dump on timeout，拿到 trace 找出那个 rank 再修。", RIGHT),
    (TIMEOUT, None, "It's fine to raise it a bit, since big all-gathers can be slow; the real issue is a missing rank.",
     WRONG),
    (TIMEOUT, None, "No. Timeout ≠ root cause: some rank never entered the collective; longer = idle cluster longer. "
                    "Keep it short, dump the flight recorder on timeout + py-spy, fix the rank.", RIGHT),
    (TIMEOUT, None, "我会反对。timeout 只是 symptom，真正的问题是某个 rank 没进 collective，调大只会让上千张卡多空转几个"
                    "小时。应该保持 timeout 短，开 flight recorder，超时时自动 dump，再用 py-spy 看那个 rank 卡在哪。", RIGHT),
    (TIMEOUT, None, "Hmm, so, I'd push back on that. The timeout firing isn't the bug, it's the messenger: some rank "
                    "never showed up to the collective, and waiting longer won't make it show up. Meanwhile the whole "
                    "cluster sits idle burning GPU-hours. I'd rather keep the timeout short and make it useful, turn on "
                    "the flight recorder so it dumps when the timeout fires, grab py-spy stacks, and go fix whatever "
                    "that rank is stuck on.", RIGHT),
    (TIMEOUT, None, "- the timeout is a symptom: a rank is missing from the collective\n"
                    "- a longer one just means more idle GPU-hours before we find out\n"
                    "- keep it short, flight recorder dump on timeout, py-spy\n- then fix the rank", RIGHT),
    (TIMEOUT, None, "That's papering over it: a missing rank never arrives, so a 2-hour timeout just means 4,096 "
                    "GPUs idle for two hours. Leave it at 10 minutes with dump-on-timeout for the flight recorder and "
                    "chase the rank.", RIGHT),
    (TIMEOUT, None, "调大超时只是掩盖问题，缺席的 rank 等多久都不会来，整个集群白白空转。timeout 反而要设短，超时时 dump "
                    "flight recorder，再去修那个 rank。", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round2_partial_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
