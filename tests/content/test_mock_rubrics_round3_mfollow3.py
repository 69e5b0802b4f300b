"""Follow-up stages, third round (2026-12-03): wrong answers an interviewer would refuse, written by hand as real
candidates type them (an honest partial answer that leaves the stage's question open, the right words with one
confident wrong claim, the right diagnosis with a harmful fix, a whole-sentence negation of the right answer, an answer
to a neighbouring question, long generic advice with the keywords sprinkled in, Chinese with English terms), and right
answers in voices the earlier rounds did not try. None from the labelled benchmark. Each case: (scenario id, step id,
answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
MOREPP, FSDP, BIGTP = "followup-why-not-more-pp", "followup-why-not-fsdp", "followup-why-not-bigger-tp"
CP, TP, M4P = "followup-when-cp-pays-off", "followup-why-tp-in-node", "followup-why-m-4p"
SMI, MOVING, TIMEOUT = "followup-nvidia-smi", "followup-moving-hang", "followup-raise-timeout"

CASES = [
    # why not double PP
    (MOREPP, None, "Doubling PP halves the weights per GPU, so each GPU has more headroom for activations.", WRONG),
    (MOREPP, None, "Because pipeline parallelism needs point-to-point sends between the stages.", WRONG),
    (MOREPP, None, "The bubble is (p-1)/m, and if we halve DP then m doubles, so the bubble stays exactly the same; "
                   "doubling PP is basically neutral.", WRONG),
    (MOREPP, None, "I don't think the bubble grows with more stages; with a fixed m the bubble stays the same, it's "
                   "just spread over more GPUs.", WRONG),
    (MOREPP, None, "More stages make the bubble bigger, so the fix is to raise the global batch until m is 4p again.",
     WRONG),
    (MOREPP, None, "We'd double PP only if the model didn't fit; it fits, so I'd rather double TP to 16 and keep PP.",
     WRONG),
    (MOREPP, None, "There are trade-offs everywhere. I'd profile both layouts, monitor throughput, look at the bubble "
                   "and memory and communication, and follow best practices from Megatron; whichever gives the best "
                   "MFU wins.", WRONG),
    (MOREPP, None, "PP 翻倍以后每个 stage 的层数减半，bubble 也会跟着减半，所以其实更好，只是 p2p 多一点。", WRONG),
    (MOREPP, None, "More stages do mean a bigger bubble, but interleaving fixes that completely at no extra cost, so "
                   "more PP is fine.", WRONG),
    (MOREPP, None, "Halving TP would put the TP all-reduces across nodes, which is slow.", WRONG),
    (MOREPP, None, "With m ≥ 4p the bubble is under 25%, and interleaving divides it by v.", WRONG),
    (MOREPP, None, "The first stage has to hold the activations of p micro-batches in 1F1B, so its memory doesn't "
                   "drop much.", WRONG),
    (MOREPP, None, "It's not that the bubble gets bigger; the real reason is just that the LM head stage gets "
                   "unbalanced.", WRONG),
    (MOREPP, None, "Bubble 是 (p-1)/m，p 翻倍 bubble 确实会大一点，不过 m 会自动变多，所以影响不大，PP 翻倍是可以的。", WRONG),
    (MOREPP, None, "bubble (p-1)/m gets ~2x at same GBS; m can't grow; 1st stage still holds p mb of acts; more p2p.",
     RIGHT),
    (MOREPP, None, "Well, okay, so the global batch is what it is, convergence sets it. If I double p and keep DP, m "
                   "per pipeline is the same, so the idle fraction (p-1)/m roughly doubles. If I halve DP instead, m "
                   "doubles but that only brings us back, the bubble's no better than now. Plus the first stage is "
                   "still holding p micro-batches' worth of activations, and balancing the embedding and LM head "
                   "stages gets harder.", RIGHT),
    (MOREPP, None, "因为 global batch 是固定的：PP 翻倍，bubble (p-1)/m 就跟着变大；DP 减半也只是把 m 翻倍拉回原来的样子。"
                   "而且 1F1B 里第一个 stage 还要存 p 个 micro-batch 的 activation，stage 多了也更难均衡，p2p 更多。", RIGHT),
    (MOREPP, None, "- bubble grows: (p-1)/m with m pinned by the global batch\n- halving DP just gives m back\n"
                   "- stage 0 keeps p micro-batches in flight\n- more p2p hops, harder balance", RIGHT),
    (MOREPP, None, "Going from 8 stages to 16 at the same m takes the bubble from 7/m to 15/m, which roughly doubles "
                   "it, since the global batch can't grow to compensate.", RIGHT),
    (MOREPP, None, "The pipeline fill and drain scale with the number of stages and the batch is fixed, so the bubble "
                   "goes up; I keep PP at the smallest degree that fits.", RIGHT),
    # why not FSDP alone
    (FSDP, None, "FSDP shards the parameters, gradients and optimizer states across all ranks, so it does fit.",
     WRONG),
    (FSDP, None, "FSDP all-gathers the weights of every layer in forward and backward, about 1.5x DDP's traffic.",
     WRONG),
    (FSDP, None, "FSDP would be fine, but it only moves the same bytes as DDP, so the communication is a wash; TP "
                 "and PP are just tradition at this scale.", WRONG),
    (FSDP, None, "With FSDP on every GPU the global batch per GPU is too small, so I'd raise the global batch to give "
                 "each GPU more tokens and then FSDP wins.", WRONG),
    (FSDP, None, "I don't think the global batch matters here; the only problem with FSDP is the all-gather traffic "
                 "across nodes.", WRONG),
    (FSDP, None, "Because FSDP needs NVLink for its all-gathers, so it only works inside a node; across nodes you need "
                 "TP.", WRONG),
    (FSDP, None, "At this scale you want to be careful. I'd benchmark FSDP against TP and PP, monitor the all-gather "
                 "traffic and tokens per GPU, use best practices and pick what gives the best MFU.", WRONG),
    (FSDP, None, "单用 FSDP 的话，每张卡都是 DP rank，global batch 分下去每卡 token 太多了，显存放不下。", WRONG),
    (FSDP, None, "Because TP 8 keeps the per-layer all-reduces on NVLink, and PP crosses nodes with one activation "
                 "per micro-batch.", WRONG),
    (FSDP, None, "FSDP's all-gathers go across nodes every layer, so it's communication-bound; that's why.", WRONG),
    (FSDP, None, "FSDP 每层都要 all-gather weight，通信量大概是 DDP 的 3 倍，所以不用它。", WRONG),
    (FSDP, None, "FSDP works, but TP and PP let us fit a bigger model, and the tokens per GPU don't matter because "
                 "FSDP overlaps everything anyway.", WRONG),
    (FSDP, None, "It's not that each GPU gets too few tokens; FSDP just has more bugs than Megatron's TP and PP.",
     WRONG),
    (FSDP, None, "FSDP over thousands of GPUs makes every GPU a DP rank, so FSDP is always the better choice at the "
                 "largest scales.", WRONG),
    (FSDP, None, "tokens/GPU = GBS / N: at 16M tokens over 16K GPUs that's ~1K tokens each, too few to hide the "
                 "per-layer weight all-gathers across IB (1.5x DDP bytes). TP×PP cut DP. Small model + big batch → "
                 "FSDP/HSDP fine.", RIGHT),
    (FSDP, None, "So the thing with FSDP on every GPU is that every GPU becomes a data-parallel rank, and the global "
                 "batch is set by convergence, you can't just inflate it. Divided over that many ranks, each one gets "
                 "a sliver of a sequence, and that's not enough compute to hide the all-gathers of every layer's "
                 "weights, which go across nodes in forward and backward, about one and a half times DDP's bytes. "
                 "TP and PP shrink the DP degree so each rank gets more tokens.", RIGHT),
    (FSDP, None, "全用 FSDP 的话每张卡都是一个 DP rank，global batch 分到几千个 rank 上，每卡 token 太少；而 FSDP 每层 "
                 "forward/backward 都要跨机 all-gather weight，字节数约 DDP 的 1.5 倍，token 少了就藏不住。模型小、batch "
                 "大的时候 FSDP/HSDP 才是更简单的选择。", RIGHT),
    (FSDP, None, "- too many DP ranks: the global batch leaves too few tokens per GPU\n- weight all-gathers every layer, "
                 "fwd+bwd, across nodes, ~1.5x DDP\n- can't hide them with that little compute\n- FSDP wins for "
                 "smaller models", RIGHT),
    (FSDP, None, "Global batch is fixed; spread across every GPU as DP ranks it's less than one sequence per GPU, and "
                 "the per-layer all-gathers across nodes (one and a half times DDP's traffic) won't hide.", RIGHT),
    (FSDP, None, "FSDP alone turns all 8,192 GPUs into DP ranks, so the batch per GPU shrinks to a fraction of a "
                 "sequence, and its weight all-gathers, 1.5× what DDP moves, go over IB each layer with too little "
                 "compute to hide behind.", RIGHT),
    # why not TP 16
    (BIGTP, None, "TP 16 halves the weights per GPU again, so PP could be smaller.", WRONG),
    (BIGTP, None, "With TP 16 the GEMMs get thinner, so there's less compute per byte.", WRONG),
    (BIGTP, None, "TP 16 would span two nodes, but that's fine because InfiniBand NDR is 400 GB/s per GPU, about the "
                  "same as NVLink.", WRONG),
    (BIGTP, None, "I don't think crossing nodes matters for TP; TP's communication is small compared with DP's.",
     WRONG),
    (BIGTP, None, "TP 16 puts its all-reduces on InfiniBand, which is slower, so I'd enable SHARP and tp-comm-overlap "
                  "and then TP 16 is the better trade.", WRONG),
    (BIGTP, None, "TP communicates every layer and the node has 8 GPUs on NVLink, so TP stays at 8.", WRONG),
    (BIGTP, None, "It's a balance. I'd profile TP 16 against TP 8, monitor the all-reduce time and the pipeline bubble, "
                  "follow the Megatron best practices, and choose whatever gives the best throughput on our cluster.",
     WRONG),
    (BIGTP, None, "TP 16 要跨两台机器，走 IB；不过 IB 只比 NVLink 慢一倍左右，影响不大。", WRONG),
    (BIGTP, None, "TP 16 leaves NVLink and its all-reduces go over InfiniBand, about 9x slower, so I'd raise the NCCL "
                  "timeout and add more NCCL channels to keep it from stalling.", WRONG),
    (BIGTP, None, "Because PP across nodes is more expensive than TP: the activations sent between stages are huge.",
     WRONG),
    (BIGTP, None, "TP 16 leaves the node, which is slow. Also with GQA's 8 KV heads TP 16 just splits each head in "
                  "half, no problem.", WRONG),
    (BIGTP, None, "A smaller PP means a smaller bubble, which is good; TP 16 would give us that.", WRONG),
    (BIGTP, None, "It's not that the link is slower; the issue with TP 16 is only the KV heads.", WRONG),
    (BIGTP, None, "TP 16 跨机以后 all reduce 走 IB，每层都在 critical path 上；但是 GEMM 会变大，算术强度更高，所以也不算太亏。",
     WRONG),
    (BIGTP, None, "TP16 = 2 nodes → per-layer ARs on IB (~50 vs ~450 GB/s/GPU), crit path. Thinner GEMMs, 8 KV heads "
                  "get replicated. PP crosses nodes cheaper.", RIGHT),
    (BIGTP, None, "Right, so an H100 box has eight GPUs on NVLink. TP sixteen means the group straddles two boxes, "
                  "and TP does several all-reduces in every layer, on the critical path, so they'd run over "
                  "InfiniBand, something like a ninth of NVLink's bandwidth per GPU. You also get skinnier GEMMs. "
                  "If you need to cross nodes, PP does it with one activation per micro-batch at a stage boundary, "
                  "far cheaper.", RIGHT),
    (BIGTP, None, "TP 16 要跨两台机器，每层好几次 all-reduce 都得走 InfiniBand，单卡带宽只有 NVLink 的九分之一左右，还在关键路径上；"
                  "GEMM 也更窄。跨机用 PP 更便宜，stage 边界每个 micro-batch 只传一份 activation。", RIGHT),
    (BIGTP, None, "- TP 16 crosses the node boundary\n- its all-reduces go onto IB, ~9x slower per GPU\n- several per "
                  "layer, critical path\n- PP is the cheap way across nodes", RIGHT),
    (BIGTP, None, "Because TP 16 is two nodes: every layer's all-reduces drop from NVLink at 450 GB/s to IB at about "
                  "50 GB/s, and PP's stage-boundary activations are far less traffic.", RIGHT),
    (BIGTP, None, "TP sixteen would put half the group in another node, so the per-layer collectives go inter-node, "
                  "nine times slower than NVLink, right on the critical path. Not worth it.", RIGHT),
    # when CP pays off
    (CP, None, "CP pays off when the sequence is long; I'm not sure when it would be a waste.", WRONG),
    (CP, None, "For long sequences when activations don't fit; CP splits the sequence. At short sequences it is also "
               "worth it, because the K/V exchange is tiny there.", WRONG),
    (CP, None, "I don't think sequence length is what decides it; CP pays off whenever the model's weights don't fit "
               "on one node.", WRONG),
    (CP, None, "When activations at 128K don't fit, I'd first push TP to 16 across two nodes, and only then think about "
               "CP.", WRONG),
    (CP, None, "CP pays off at long context because activation memory grows quadratically with the sequence length, "
               "and it costs nothing since the ranks never communicate.", WRONG),
    (CP, None, "Long context training is hard. I'd monitor memory, profile the attention kernels, try CP, sequence "
               "parallel and recompute, follow best practices, and keep whatever gives the best MFU; it depends on "
               "the workload.", WRONG),
    (CP, None, "长序列的时候 activation 放不下就开 CP，CP 会把 sequence 切开；短序列也一样划算，因为通信量跟着变小。", WRONG),
    (CP, None, "CP is a waste at long context: the K/V exchange grows with the sequence, so at 128K you'd spend all "
               "your time communicating.", WRONG),
    (CP, None, "Because TP has to stay inside the node: its all-reduces run every layer on NVLink.", WRONG),
    (CP, None, "CP pays off for long sequences where the activations don't fit even with TP 8 and recompute; the K/V "
               "ring exchange hides behind attention. The CP ranks each keep a different shard of the weights.",
     WRONG),
    (CP, None, "It's not that long sequences need it; CP is really about cutting the pipeline bubble.", WRONG),
    (CP, None, "CP pays off at long context; at short context it's a waste. Why exactly, I'd have to look up.", WRONG),
    (CP, None, "CP pays off when activations don't fit at long sequences; at short sequences CP is also fine since the "
               "K/V exchange is just a little slower.", WRONG),
    (CP, None, "Activation memory is 34·s·b·h per layer, so it grows with the sequence length.", WRONG),
    (CP, None, "CP 适合长序列，activation 放不下的时候用；代价是要交换 K/V。其实 activation 不随序列长度增长，主要是 "
               "attention 的 score 矩阵大。", WRONG),
    (CP, None, "long ctx, acts OOM past TP8+recompute → CP shards s. KV ring, hidden by attn. short ctx: exposed "
               "comm, net loss.", RIGHT),
    (CP, None, "The way I'd put it: the activations scale with s, so at something like 256K tokens they won't fit even "
               "with TP at 8 and full recomputation, and CP is how you get past that, each rank takes a slice of the "
               "sequence. What you pay is the key/value exchange around the ring; at that length attention is heavy "
               "enough to hide it. At 2K or 4K there's nothing to hide it behind, so it's just overhead.", RIGHT),
    (CP, None, "序列很长、比如 128K 时，activation 在 TP=8 加 recompute 后还是放不下，这时开 CP，按 sequence 维度切，每卡只存 "
               "1/CP；代价是 ring attention 里 KV 要交换，靠 attention 计算藏住。序列短了计算太少藏不住，开 CP 得不偿失。", RIGHT),
    (CP, None, "- pays off: long sequences, activations don't fit after TP 8 + recompute\n- splits the sequence\n"
               "- cost: K/V exchange, hidden behind attention\n- waste: short sequences, overhead > savings", RIGHT),
    (CP, None, "When the context is long enough that activation memory is the bottleneck: CP splits the sequence dim, "
               "and the ring K/V passes cost little next to s² attention; at short sequences CP costs more than it "
               "saves.", RIGHT),
    (CP, None, "Long sequences whose activations don't fit. CP divides the sequence; K/V traffic hides behind "
               "attention. Short sequences: a waste, can't hide it. CP ranks hold the same weights, so the optimizer "
               "shards over DP × CP.", RIGHT),
    # why TP stays in the node
    (TP, None, "Because TP splits each weight matrix across GPUs and they need to be close together.", WRONG),
    (TP, None, "TP all-reduces in every layer, and NVLink is about twice as fast as InfiniBand, so it's better to keep "
               "it inside.", WRONG),
    (TP, None, "TP only communicates once per step, at the gradient sync, but that sync is large, so it needs NVLink.",
     WRONG),
    (TP, None, "I don't think TP really has to stay in the node; with tp-comm-overlap the all-reduces hide behind the "
               "GEMMs even across nodes.", WRONG),
    (TP, None, "TP communicates every layer, so put TP across nodes and DP inside the node, where NVLink carries the "
               "gradient all-reduce.", WRONG),
    (TP, None, "Because a node has 8 GPUs and TP degree has to divide the number of attention heads.", WRONG),
    (TP, None, "TP is latency sensitive. I'd keep an eye on the communication, profile with Nsight, make sure NCCL is "
               "tuned, use best practices for NVLink and InfiniBand, and monitor the job closely.", WRONG),
    (TP, None, "TP 每层都要 all-reduce，所以放机内；NVLink 和 IB 带宽其实差不多，主要是 IB 延迟高。", WRONG),
    (TP, None, "Because PP's point-to-point sends are cheap enough to cross nodes.", WRONG),
    (TP, None, "TP all-reduces each layer on the critical path; InfiniBand between nodes is around 400 GB/s per GPU, "
               "close to NVLink, but the latency is worse.", WRONG),
    (TP, None, "It's mostly about memory: TP shards the weights, and a node has enough memory for 8 shards.", WRONG),
    (TP, None, "TP traffic is every layer, yes, but the fix for a slow inter-node TP is just to raise NCCL_BUFFSIZE "
               "and add more channels, then TP 16 across nodes is fine.", WRONG),
    (TP, None, "It's not that TP communicates every layer; it's simply that Megatron only supports TP up to 8.",
     WRONG),
    (TP, None, "TP 放机内是因为 TP 的通信量小，只在每个 step 结束时同步一次，机内就够了。", WRONG),
    (TP, None, "every layer, fwd+bwd: AR before next GEMM, can't overlap. NVLink ~9x IB per GPU. 8 GPUs/node.", RIGHT),
    (TP, None, "Okay so TP's collectives are inside each layer, forward and backward both, and the next matmul waits "
               "on them, so you can't really overlap them away. Within a box you've got NVLink, which is on the "
               "order of ten times what InfiniBand gives each GPU between boxes, so the moment TP leaves the node "
               "every layer stalls. Eight GPUs per node, so TP tops out at eight.", RIGHT),
    (TP, None, "TP 在每一层的 forward 和 backward 里都要做 all-reduce，在关键路径上藏不住；机内 NVLink 大约 450 GB/s，机间 "
               "InfiniBand 只有 50 GB/s 左右，慢一个数量级。一台机器 8 张卡，所以 TP ≤ 8。", RIGHT),
    (TP, None, "- collectives in every layer, on the critical path\n- NVLink ≈ 10× IB per GPU\n- 8 GPUs on NVLink per "
               "node → TP ≤ 8\n- across nodes it would stall each layer", RIGHT),
    (TP, None, "Because TP does an all-reduce per layer in both passes and NVLink inside a node is about nine times "
               "InfiniBand's per-GPU bandwidth; across nodes every layer would wait on the slow link.", RIGHT),
    (TP, None, "TP's all-reduces happen in every layer, so they need NVLink: about 450 GB/s per GPU versus 50 on IB. "
               "Eight GPUs share NVLink in a node, so TP is capped at eight.", RIGHT),

    # why m ≥ 4p
    (M4P, None, "Because more micro-batches keep every stage busy.", WRONG),
    (M4P, None, "The bubble is (p-1)/m, so with m = 4p it is about 4%, which is negligible.", WRONG),
    (M4P, None, "The bubble is (p-1)/m; with m = 4p it is under a quarter. Since more m is always better, I'd push m "
                "to 64p regardless of the global batch.", WRONG),
    (M4P, None, "I don't think the bubble depends on m; it's (p-1)/p, fixed by the number of stages, and m ≥ 4p is "
                "about memory.", WRONG),
    (M4P, None, "m ≥ 4p keeps the bubble small, and if we're below it we should cut DP in half so each pipeline gets "
                "more micro-batches, no downside.", WRONG),
    (M4P, None, "Because with fewer micro-batches the first stage holds too many activations; in 1F1B each stage "
                "stores m micro-batches.", WRONG),
    (M4P, None, "Pipeline efficiency matters a lot. I'd profile the pipeline, monitor the bubble, tune the micro-batch "
                "size, use interleaving and best practices, and keep m high; it's a rule of thumb from Megatron.",
     WRONG),
    (M4P, None, "bubble 是 (p-1)/m，m = 4p 的时候 bubble 大约是一半，所以至少要 4p，不然浪费更多。", WRONG),
    (M4P, None, "The bubble is (p-1)/m, so more micro-batches shrink it; interleaving with v chunks multiplies the "
                "bubble by v, so avoid it.", WRONG),
    (M4P, None, "More stages make the bubble bigger, so we keep PP as small as fits.", WRONG),
    (M4P, None, "m = global batch / (DP × micro-batch), so the global batch caps how many micro-batches a pipeline "
                "gets.", WRONG),
    (M4P, None, "It's not that the bubble shrinks with m; m ≥ 4p is only there so the micro-batch fits in memory.",
     WRONG),
    (M4P, None, "With m = 4p the bubble is under a quarter of the step, and raising m further also raises the "
                "activation memory of every stage proportionally, so 4p is the memory cap.", WRONG),
    (M4P, None, "m ≥ 4p 是为了让 p2p 通信能 overlap 计算，和 bubble 没关系。", WRONG),
    (M4P, None, "bubble = (p-1)/m → m=4p gives (p-1)/4p < 25%. Interleave v: /v. m = GBS/(DP·mbs) caps it.", RIGHT),
    (M4P, None, "So the pipeline has to fill and drain once per step, and that idle time, as a share of the step, is "
                "(p minus 1) over m. Pick m equal to 4p and you're a little under a quarter; go lower and it gets "
                "worse fast, at m = p it's nearly half. If that's still too much you interleave, which divides it by "
                "the number of virtual chunks. And you can't just crank m, because m is the global batch over DP "
                "times the micro-batch size.", RIGHT),
    (M4P, None, "1F1B 的 bubble 占比是 (p-1)/m，m 越大越小；m = 4p 时不到 1/4，少于这个浪费更多。interleaving 用 v 个 chunk "
                "能再除以 v。不过 m = global batch /(DP × micro batch)，global batch 限制了 m。", RIGHT),
    (M4P, None, "- bubble fraction (p-1)/m\n- m = 4p → just under 25%\n- fewer micro-batches → bigger waste\n"
                "- interleaving divides it by v", RIGHT),
    (M4P, None, "Because the bubble is (p − 1)/m of the step: with 8 stages and 32 micro-batches that's 7/32, about "
                "22%, just under a quarter; with 8 micro-batches it'd be 7/8.", RIGHT),
    (M4P, None, "It keeps the 1F1B bubble, (p-1)/m, below one quarter. The catch is m is bounded by the global batch "
                "divided by DP and the micro-batch size, so more DP leaves fewer micro-batches.", RIGHT),
    # nvidia-smi near 100%, MFU low
    (SMI, None, "Because MFU is computed wrong; nvidia-smi is the real measure of how busy the GPU is.", WRONG),
    (SMI, None, "The GPUs are busy, but with communication: the 40% left over from MFU is all NCCL time.", WRONG),
    (SMI, None, "nvidia-smi utilization is the fraction of SMs that are busy, so 100% means every SM is working, but "
                "each at a low clock.", WRONG),
    (SMI, None, "I don't think nvidia-smi's utilization is just kernel time; 100% does mean the tensor cores are "
                "saturated, so MFU must be miscounted.", WRONG),
    (SMI, None, "Utilization only says some kernel is running; to raise MFU I'd increase the micro-batch until the "
                "GPUs OOM.", WRONG),
    (SMI, None, "The GPU is thermally throttling, so the 100% is at a lower clock; that's the whole gap.", WRONG),
    (SMI, None, "Both can be true because measuring is hard. I'd monitor everything, use DCGM, profile with Nsight, "
                "look at utilization and MFU over time, and follow best practices to raise efficiency.", WRONG),
    (SMI, None, "nvidia-smi 的 utilization 是 SM 占用率，100% 说明所有 SM 都满了，MFU 低是因为 MFU 公式算错了。", WRONG),
    (SMI, None, "Utilization is the share of time a kernel was running, not how much of the GPU it used. MFU is "
                "2N FLOPs per token over peak.", WRONG),
    (SMI, None, "A hang that moves is usually hardware; I'd check the nodes with nccl-tests.", WRONG),
    (SMI, None, "Lots of tiny kernels keep the GPU looking busy.", WRONG),
    (SMI, None, "It's not that nvidia-smi counts kernel time; it's that MFU ignores the attention FLOPs, so it's "
                "always low.", WRONG),
    (SMI, None, "Utilization counts time with any kernel resident. The low MFU is definitely the data loader, so I'd "
                "add workers and call it done.", WRONG),
    (SMI, None, "nvidia-smi 的 100% 只是说一直有 kernel 在跑；MFU 低肯定是因为 GPU 降频了，不用看 profiler。", WRONG),
    (SMI, None, "util% = time any kernel is resident, not SM/TC usage. Tiny or mem-bound kernels → 100% with idle "
                "tensor cores. MFU = 6N·tok/s ÷ peak: trust that + a profiler trace.", RIGHT),
    (SMI, None, "So nvidia-smi's utilization number is really coarse: it's the fraction of the sampling window during "
                "which at least one kernel was running, nothing about how much of the chip that kernel used. You can "
                "have a stream of little elementwise or memory-bound kernels back to back and it'll happily say 100% "
                "while the tensor cores do almost nothing. MFU instead counts the model's useful FLOPs against the "
                "peak, so that's the number I believe, and then I'd pull a profiler trace to see where the time goes.",
     RIGHT),
    (SMI, None, "nvidia-smi 的 utilization 只是采样时间里有 kernel 在跑的时间占比，不代表 GPU 用了多少算力。一堆小 kernel 或者 "
                "memory-bound 的 kernel 也能显示 100%，tensor core 其实大部分时间闲着。MFU 是有用的 FLOPs 除以峰值，信这个，"
                "再用 profiler 看时间花在哪。", RIGHT),
    (SMI, None, "- util = % of time some kernel runs\n- not how much of the GPU\n- small / memory-bound kernels → "
                "100%\n- MFU = useful FLOPs / peak; profile", RIGHT),
    (SMI, None, "Utilization is a time fraction: any kernel on the GPU counts. A launch-bound stream of tiny kernels "
                "reads 100% while the tensor cores idle. MFU divides the model FLOPs, 6 per parameter per token, by "
                "peak, so it shows the truth.", RIGHT),
    (SMI, None, "100% util just means a kernel was always resident; it says nothing about SM occupancy or tensor-core "
                "use. MFU measures useful model FLOPs against peak, which is what matters; a trace shows the rest.",
     RIGHT),

    # a hang that moves from run to run
    (MOVING, None, "If it moves, it's probably hardware or the network rather than our code.", WRONG),
    (MOVING, None, "A moving hang points at a bad node. I'd just lower the batch size and restart on the same nodes; "
                   "it usually goes through.", WRONG),
    (MOVING, None, "I don't think it changes much; a hang that moves is still most likely a rank-dependent branch in "
                   "the code, so I'd bisect the code.", WRONG),
    (MOVING, None, "A hang at a different step each run is the sign of a data bug: a bad sample shows up at a "
                   "different step because the data is shuffled.", WRONG),
    (MOVING, None, "It points at hardware. I'd find the missing rank with the flight recorder, map it to its node, and "
                   "then set NCCL_P2P_DISABLE=1 for the whole job so the bad link is avoided.", WRONG),
    (MOVING, None, "Hangs are tricky. I'd monitor all the nodes, collect logs, use the flight recorder and py-spy, "
                   "check hardware and network, follow the runbook and best practices, and escalate to the infra "
                   "team if needed.", WRONG),
    (MOVING, None, "每次 hang 的 step 不一样，说明是代码里有 race condition，我会加 barrier 把各个 rank 同步一下。", WRONG),
    (MOVING, None, "I'd find the missing rank with the flight recorder and py-spy, and see which node it's on.", WRONG),
    (MOVING, None, "It's hardware, probably a flaky link. So I'd raise the NCCL timeout to an hour so the job rides "
                   "through the slow link.", WRONG),
    (MOVING, None, "It's not that hardware is more likely; a moving hang just means the watchdog fires at random "
                   "times, so the step number means nothing.", WRONG),
    (MOVING, None, "I'd tell the colleague not to raise the timeout: it only waits longer for the missing rank; keep "
                   "it short and dump the flight recorder.", WRONG),
    (MOVING, None, "The hang moves, so the bad node is different every run; there's no point looking for a common "
                   "node, I'd run nccl-tests on everything.", WRONG),
    (MOVING, None, "多半是硬件或者网络问题。我会先用 flight recorder 找出缺席的 rank；找到以后把 NCCL_IB_DISABLE 设成 1，"
                   "让通信走 socket 就稳定了。", WRONG),
    (MOVING, None, "More likely hardware or network. The missing rank is always rank 0, because rank 0 does the "
                   "logging, so I'd check rank 0's node.", WRONG),
    (MOVING, None, "random step → HW/net, not model code. FR + py-spy → missing rank → host; same host across runs? nccl-tests on "
                   "pairs, Xid/ECC in dmesg. Drain it, resume from ckpt.", RIGHT),
    (MOVING, None, "Okay, so if it were our code or a bad batch it'd hang at the same step every time, and it doesn't, "
                   "so now I'm suspecting a node or a link. I'd still get the flight recorder dump and py-spy to see "
                   "which rank is missing, then look up which host that rank was on, and compare over the last few "
                   "runs, if it's the same box, that's our culprit. Then nccl-tests between pairs of nodes and check "
                   "dmesg for Xid errors, and once it's confirmed, cordon it and restart from the checkpoint.", RIGHT),
    (MOVING, None, "位置不固定的 hang 多半是硬件或网络，不是代码。照样先用 flight recorder、py-spy 找缺席的 rank，对应到机器，"
                   "看几次是不是同一台；再两两节点跑 nccl-tests、查 Xid 和 ECC，最后把坏节点摘掉，从 checkpoint 恢复。", RIGHT),
    (MOVING, None, "- moving step → hardware/network, not code or data\n- still find the missing rank (flight "
                   "recorder, py-spy)\n- map rank → node, look for the common node\n- nccl-tests, Xid, ECC\n"
                   "- drain it, restart from checkpoint", RIGHT),
    (MOVING, None, "A code bug would repeat at the same step, so this points at infrastructure. I'd map each run's "
                   "hung rank to its node and find the common one, test it with nccl-tests and a DCGM health check, "
                   "and exclude it.", RIGHT),
    (MOVING, None, "Now I suspect hardware: correlate the missing rank's hostname across runs, run NCCL_DEBUG=INFO and "
                   "nccl-tests on the suspects, then replace the node and restart from the last checkpoint.", RIGHT),
    # a colleague wants a longer NCCL timeout
    (TIMEOUT, None, "I'd ask what the timeout is set to now.", WRONG),
    (TIMEOUT, None, "The timeout isn't the root cause, but raising it to an hour is harmless and buys us time, so "
                    "sure, let's do it while we investigate.", WRONG),
    (TIMEOUT, None, "I don't think the timeout is a symptom; the job fails because the timeout is too short for our "
                    "big all-reduces, so raising it fixes it.", WRONG),
    (TIMEOUT, None, "It's a symptom: a rank is missing. So I'd just restart the job whenever it fails and move on.",
     WRONG),
    (TIMEOUT, None, "A rank is missing from the collective, so instead of raising the timeout I'd set "
                    "TORCH_NCCL_ASYNC_ERROR_HANDLING=0 and disable the watchdog so the job never gets killed.", WRONG),
    (TIMEOUT, None, "Timeouts are a common issue. I'd look at the logs, monitor the cluster, check NCCL settings, "
                    "talk to the colleague, follow best practices for timeouts and make a decision based on data.",
     WRONG),
    (TIMEOUT, None, "timeout 不是根本原因，不过调大也没问题，先让任务跑起来再说。", WRONG),
    (TIMEOUT, None, "The default NCCL timeout is only 30 seconds, which is why big jobs fail; raising it to 10 "
                    "minutes is what everyone does.", WRONG),
    (TIMEOUT, None, "A moving hang points at hardware; I'd map the missing rank to its node and drain it.", WRONG),
    (TIMEOUT, None, "The timeout is a symptom; a rank never entered the collective.", WRONG),
    (TIMEOUT, None, "It's not that a rank is missing; big clusters are just slow, so a longer timeout is reasonable.",
     WRONG),
    (TIMEOUT, None, "Raising the timeout wastes GPU-hours, so I'd rather lower it a lot, to 10 seconds, so we find out "
                    "fast.", WRONG),
    (TIMEOUT, None, "同事说得对，timeout 调大以后任务就不会报错了，慢一点的 rank 也能跟上。", WRONG),
    (TIMEOUT, None, "The missing rank will eventually show up if we wait long enough, so a longer timeout helps, but "
                    "we should also dump the flight recorder.", WRONG),
    (TIMEOUT, None, "No: the rank that's missing never comes, so longer = more idle GPU-hours. Short timeout + "
                    "dump-on-timeout, then fix that rank.", RIGHT),
    (TIMEOUT, None, "I'd say, look, the timeout isn't what's broken, it's just the alarm going off. Somewhere a rank "
                    "didn't make it into the collective, and it's not going to show up if we wait two hours instead "
                    "of ten minutes, we'd only have the whole cluster burning GPU-hours doing nothing. So I'd keep it "
                    "short, turn on the flight recorder so we get a dump when it fires, grab py-spy stacks on the "
                    "stuck ranks, and go fix that.", RIGHT),
    (TIMEOUT, None, "不同意。timeout 不是病因，是有个 rank 没进 collective，调大只是等得更久，整个集群在空转。应该把 timeout "
                    "设短，超时时自动 dump flight recorder，再修那个 rank。", RIGHT),
    (TIMEOUT, None, "- timeout = symptom, a rank never entered the collective\n- longer wait = idle cluster\n"
                    "- keep it short, dump the flight recorder on timeout\n- fix the missing rank", RIGHT),
    (TIMEOUT, None, "That masks it. The timeout isn't the problem; one rank is missing and will never arrive. Keep the "
                    "10-minute default, enable dump on timeout and py-spy, then fix it.", RIGHT),
    (TIMEOUT, None, "A longer timeout doesn't fix anything: the missing rank never joins, and 4,096 GPUs just sit idle "
                    "longer. Keep it short and make the flight recorder dump when it fires.", RIGHT),

    # the right words with one confident wrong claim added, and right answers that deny those claims
    (MOREPP, None, "The bubble is (p-1)/m, so doubling PP at the same global batch roughly doubles "
                   "it, and halving DP only gives m back. On top of that, the first stage's "
                   "activations drop by p, so memory isn't the reason.", WRONG),
    (MOREPP, None, "More stages grow the bubble, (p-1)/m, since the global batch fixes m. The "
                   "remedy is easy though: interleaving with v chunks removes the bubble entirely "
                   "with no extra traffic.", WRONG),
    (MOREPP, None, "Doubling PP grows the bubble because m is fixed by the global batch; and "
                   "halving TP would be even better since TP is the expensive one, so I'd halve TP "
                   "and double PP.", WRONG),
    (MOREPP, None, "global batch 固定，PP 翻倍 bubble (p-1)/m 变大。不过 1F1B 里第一个 stage 只存 1 个 micro-batch 的"
                   " activation，所以显存不是问题。", WRONG),
    (MOREPP, None, "Bigger bubble, (p-1)/m, because m is fixed. Also each extra stage needs an "
                   "all-reduce across the pipeline at every micro-batch, which is the real killer.", WRONG),
    (MOREPP, None, "With the global batch fixed, doubling PP grows the bubble, (p-1)/m, and halving"
                   " DP only gives m back. Interleaving can cut the bubble but it doesn't come "
                   "free, it multiplies the p2p traffic; and the first stage still holds p "
                   "micro-batches of activations.", RIGHT),
    (FSDP, None, "FSDP over all GPUs leaves too few tokens per GPU because the global batch is "
                 "fixed, and its all-gathers cross nodes every layer. But those all-gathers are "
                 "only 0.5x DDP's bytes, so the traffic itself is cheap.", WRONG),
    (FSDP, None, "Because the global batch divided over thousands of DP ranks leaves each GPU under"
                 " one sequence, and FSDP all-gathers every layer's weights across nodes. So I'd "
                 "fix it by setting the micro-batch to 1 and using gradient accumulation of 64 on "
                 "each GPU.", WRONG),
    (FSDP, None, "FSDP's all-gathers happen once per step, at the start, so the traffic is fine; "
                 "the only issue is the global batch spread too thin over the ranks.", WRONG),
    (FSDP, None, "The global batch is fixed, so with every GPU a DP rank each gets too few tokens "
                 "to hide FSDP's all-gathers, which go across nodes. HSDP doesn't help at all here "
                 "either, it has the same problem at any model size.", WRONG),
    (FSDP, None, "FSDP 每层都要跨机 all-gather weight，约 DDP 的 1.5 倍；global batch 固定的话每卡 token "
                 "太少藏不住。所以模型再小也不该用 FSDP。", WRONG),
    (FSDP, None, "Every GPU becomes a DP rank, so the fixed global batch leaves too few tokens per "
                 "GPU, and gradient accumulation can't fix that because it grows the global batch. "
                 "Meanwhile the weight all-gathers cross nodes every layer, about 1.5x DDP's "
                 "traffic, with too little compute to hide them.", RIGHT),
    (BIGTP, None, "TP 16 spans two nodes, so the per-layer all-reduces go over InfiniBand, about "
                  "nine times slower per GPU. That's still better than PP, because PP across nodes "
                  "has to send all the weights at each stage boundary.", WRONG),
    (BIGTP, None, "TP 16 would cross onto InfiniBand, roughly 9x slower than NVLink per GPU, on the"
                  " critical path. The KV heads are no problem though: with 8 KV heads TP 16 gives "
                  "each rank half a head.", WRONG),
    (BIGTP, None, "TP 16 leaves NVLink for IB, which is about 9x slower per GPU. The workaround is "
                  "to use NVLink across the two nodes with an NVLink bridge cable.", WRONG),
    (BIGTP, None, "TP 16 跨机以后 all reduce 走 IB，单卡慢 9 倍左右，在关键路径上；但 PP 跨机更贵，因为每个 micro-batch 要传整份 "
                  "weight。", WRONG),
    (BIGTP, None, "TP 16 means the all-reduces leave NVLink for InfiniBand, which is only about 30%"
                  " slower per GPU, so it's a small loss but the smaller PP makes up for it.", WRONG),
    (BIGTP, None, "TP 16 spans two nodes: its per-layer all-reduces leave NVLink for InfiniBand, "
                  "about 9x slower per GPU on the critical path. PP is far cheaper across nodes, it"
                  " only sends one activation per micro-batch, not the weights. And with 8 KV heads"
                  " they'd have to be replicated.", RIGHT),
    (CP, None, "CP pays off at long sequences when activations don't fit with TP 8 and recompute; "
               "it splits the sequence and the K/V ring exchange hides behind attention, while at "
               "short sequences it's a waste. CP also cuts the weight memory per GPU by CP, which "
               "is a bonus.", WRONG),
    (CP, None, "Long sequences where activations don't fit even with TP 8 and recomputation; CP "
               "splits the sequence. The K/V exchange is an all-reduce of the gradients once per "
               "step, so it's cheap. At 4K it's a waste.", WRONG),
    (CP, None, "When sequences are long and activations don't fit, CP splits the sequence; K/V goes"
               " around a ring behind attention. At short sequences the fix is just to make CP "
               "bigger so the exchange gets smaller.", WRONG),
    (CP, None, "长序列 activation 放不下时开 CP，切 sequence，KV 在 ring 里交换藏在 attention 后面；短序列藏不住不划算。CP 的 rank"
               " 之间 weight 各不相同。", WRONG),
    (CP, None, "For long sequences whose activations don't fit even with TP 8 and recompute: CP "
               "splits the sequence, and the K/V ring exchange, in every attention layer, hides "
               "behind attention. At short sequences it's a waste, and making CP bigger there only "
               "makes it worse.", RIGHT),
    (TP, None, "TP all-reduces in every layer on the critical path, and NVLink is about ten times "
               "InfiniBand per GPU, so TP stays at 8. Though honestly with CUDA graphs the "
               "all-reduce hides fully behind the GEMM even across nodes.", WRONG),
    (TP, None, "TP communicates every layer, on the critical path. InfiniBand between nodes is "
               "actually about 450 GB/s per GPU, the same as NVLink, so the reason is really the "
               "latency.", WRONG),
    (TP, None, "TP does an all-reduce per layer, and NVLink's ten times faster than IB. A node has "
               "4 GPUs on NVLink, so TP is at most 4.", WRONG),
    (TP, None, "TP 每层 forward/backward 都要 all-reduce，关键路径上；NVLink 比 IB 快 10 倍左右。所以 DP 放在机内，TP 跨机。", WRONG),
    (TP, None, "TP all-reduces in every layer, forward and backward, and the next GEMM waits on "
               "them, so they can't be hidden fully; NVLink is about ten times InfiniBand per GPU, "
               "and a node has 8 GPUs, so TP stops at 8.", RIGHT),
    (M4P, None, "The bubble is (p-1)/m, so with m = 4p it's just under a quarter; with interleaving"
                " it's multiplied by v, which is why we avoid interleaving.", WRONG),
    (M4P, None, "With m = 4p the bubble (p-1)/m is under a quarter of the step. And m doesn't "
                "depend on DP at all; you can have as many micro-batches as you want.", WRONG),
    (M4P, None, "The bubble is (p-1)/m, under a quarter at m = 4p. The 4p also comes from 1F1B "
                "needing 4 micro-batches in flight per stage, so the memory grows with m.", WRONG),
    (M4P, None, "bubble 是 (p-1)/m，m = 4p 时不到四分之一。DP 越大每条 pipeline 的 micro-batch 越多，所以 DP 大了就更容易满足。", WRONG),
    (M4P, None, "The bubble is (p-1)/m, so m = 4p keeps it just under a quarter. Adding DP doesn't "
                "give more micro-batches per pipeline, it gives fewer, since m = global batch / (DP"
                " × micro-batch).", RIGHT),
    (SMI, None, "Utilization is the share of time some kernel was running, not how much of the GPU "
                "it used; tiny kernels read 100%. The fix is to trust nvidia-smi and ignore MFU, "
                "which is only a theoretical number.", WRONG),
    (SMI, None, "nvidia-smi's utilization is time with any kernel running, so small or memory-bound"
                " kernels show 100%. MFU counts useful FLOPs against peak. The gap is always "
                "communication, so I'd just turn on overlap.", WRONG),
    (SMI, None, "Utilization counts kernel time, not SM use; a stream of tiny kernels shows 100% "
                "while the tensor cores idle. MFU should be computed with 2N FLOPs per token "
                "against peak.", WRONG),
    (SMI, None, "nvidia-smi 的 utilization 是有 kernel 在跑的时间占比，小 kernel 也能 100%。MFU 低不用管，nvidia-smi "
                "100% 说明卡已经用满了。", WRONG),
    (SMI, None, "Utilization is just the share of time some kernel was running, so tiny or "
                "memory-bound kernels read 100% while tensor cores idle. MFU counts useful FLOPs "
                "against peak; the gap isn't necessarily communication, a profiler trace tells you "
                "where the time goes.", RIGHT),
    (MOVING, None, "A moving hang points at hardware or the network. I'd find the missing rank with"
                   " the flight recorder, map it to its node across runs, and then reboot all the "
                   "nodes in the cluster and restart.", WRONG),
    (MOVING, None, "Hardware or network is more likely than code. I'd find the missing rank with "
                   "py-spy, map it to a node, run nccl-tests on it, and if it passes, raise the "
                   "timeout to an hour and continue on the same nodes.", WRONG),
    (MOVING, None, "It's more likely hardware. A different missing rank each run means a different "
                   "node each run, so there's no single bad node; I'd upgrade the NCCL version.", WRONG),
    (MOVING, None, "多半是硬件或网络问题。用 flight recorder 找到缺席的 rank，对应到机器；然后直接在原来的节点上重跑，一般就能过。", WRONG),
    (MOVING, None, "A moving hang points at hardware or the network, not code. Rebooting the whole "
                   "cluster won't help; I'd find the missing rank with the flight recorder, map it "
                   "to its node across runs, run nccl-tests and check Xid errors, then drain that "
                   "node and restart from the checkpoint.", RIGHT),
    (TIMEOUT, None, "The timeout isn't the cause; a rank is missing from the collective. But "
                    "raising it to two hours is fine as a stop-gap, and we'll look at the flight "
                    "recorder later.", WRONG),
    (TIMEOUT, None, "A rank never entered the collective, so a longer timeout only waits longer "
                    "with the cluster idle. I'd keep the timeout short, and to find the rank I'd "
                    "just read the loss curve.", WRONG),
    (TIMEOUT, None, "The timeout is a symptom, a rank is missing. Keep it short and dump the flight"
                    " recorder on timeout. The default NCCL timeout is 30 minutes, so lower it to "
                    "10.", WRONG),
    (TIMEOUT, None, "timeout 只是症状，有个 rank 没进 collective。但是调大 timeout 可以让那个 rank 有时间赶上来，所以可以先调大。", WRONG),
    (TIMEOUT, None, "No: the timeout is a symptom, a rank is missing and will never arrive, so a "
                    "longer one only idles the cluster. The loss curve won't tell you which rank; "
                    "keep the timeout short, dump the flight recorder on timeout, take py-spy "
                    "stacks, and fix that rank.", RIGHT),
    # whole-sentence negations in Chinese, long generic answers with every keyword listed, answers to a neighbouring
    # follow-up; right answers that name ring attention in a statement
    (MOREPP, None, "我不认为 stage 多了 bubble 会变大；global batch 固定的话 m 也固定，bubble 不变，PP 翻倍主要是 p2p 多一点。", WRONG),
    (MOREPP, None, "In practice you'd look at the bubble, the global batch, the first stage memory,"
                   " p2p, balance across embedding and LM head, and interleaving; all of these "
                   "matter, so I'd benchmark both layouts and choose the faster one.", WRONG),
    (MOREPP, None, "Because with m ≥ 4p the bubble (p-1)/m is under a quarter, and interleaving "
                   "divides it by v; that's why the recipe wants enough micro-batches.", WRONG),
    (FSDP, None, "并不是每卡 token 太少的问题；FSDP 的 all-gather 其实能完全 overlap，只是 TP 和 PP 更成熟。", WRONG),
    (FSDP, None, "FSDP vs TP/PP is a classic trade-off: global batch, tokens per GPU, all-gathers, "
                 "DDP traffic, HSDP, model size. I'd weigh them all carefully, run experiments, and"
                 " go with what the team knows best.", WRONG),
    (FSDP, None, "Why not TP 16? Because TP 16 leaves the node and its all-reduces would go over "
                 "InfiniBand, nine times slower.", WRONG),
    (BIGTP, None, "我不认为 TP 16 跨机会慢多少；IB 和 NVLink 带宽差不多，主要是 KV head 要复制。", WRONG),
    (BIGTP, None, "TP 16 has pros and cons: NVLink, InfiniBand, GEMM sizes, KV heads, PP. I'd run a"
                  " sweep over TP 8 and TP 16, measure MFU on our cluster, and follow whatever the "
                  "benchmarks say.", WRONG),
    (BIGTP, None, "Why must TP stay in the node? Because a node has 8 GPUs on NVLink.", WRONG),
    (CP, None, "并不是长序列才需要 CP；CP 什么长度都划算，因为它切的是 batch，通信很少。", WRONG),
    (CP, None, "CP has trade-offs around long sequences, activations, ring attention, K/V, short "
               "sequences and DP × CP. I'd measure memory and throughput at different sequence "
               "lengths and pick the best CP degree empirically.", WRONG),
    (CP, None, "CP is like TP: it has to stay inside the node because its all-gathers run every "
               "layer over NVLink.", WRONG),
    (CP, None, "At long context, once activations don't fit with TP 8 and recompute, CP pays off: "
               "it splits the sequence, and ring attention passes the K/V blocks between ranks "
               "while attention computes. At short sequences there's too little compute to cover "
               "that, so it's a waste.", RIGHT),
    (CP, None, "长 context 下 activation 放不下时才开 CP，按序列切；ring attention 里 KV 交换藏在 attention "
               "后面。序列短时藏不住，白费。CP 的 rank weight 相同，optimizer 按 DP × CP 切。", RIGHT),
    (TP, None, "我不认为 TP 必须留在机内；TP 的通信只在 step 末尾做一次，跨机也能 overlap。", WRONG),
    (TP, None, "TP placement matters: every layer, NVLink, InfiniBand, eight GPUs per node, "
               "critical path. I'd profile it with Nsight, check NCCL settings, and make sure we "
               "follow the vendor's recommended topology.", WRONG),
    (TP, None, "Why not TP 16? The GEMMs get thinner and the 8 KV heads would be replicated.", WRONG),
    (M4P, None, "并不是为了 bubble；m ≥ 4p 是为了让每个 micro-batch 的显存够小，和 (p-1)/m 没关系。", WRONG),
    (M4P, None, "m ≥ 4p is one of those recipe numbers: bubble, (p-1)/m, a quarter, interleaving, "
                "global batch, DP. I'd tune m empirically for our model and monitor throughput to "
                "decide.", WRONG),
    (M4P, None, "Why not double PP? Because doubling the stages grows the bubble at a fixed global "
                "batch.", WRONG),
    (SMI, None, "我不认为 nvidia-smi 会骗人；utilization 100% 就是 tensor core 满载，MFU 低是公式里 FLOPs 算少了。", WRONG),
    (SMI, None, "This comes up a lot: utilization, kernels, tensor cores, MFU, profiler. I'd set up"
                " dashboards for both metrics, monitor them over time, and use best practices like "
                "bigger batches and fused kernels.", WRONG),
    (SMI, None, "Low MFU with high utilization means the job is communication-bound; I'd move TP "
                "inside the node.", WRONG),
    (MOVING, None, "我不认为 hang 的位置不固定就是硬件问题；多半还是数据里有坏样本，shuffle 之后出现在不同的 step。", WRONG),
    (MOVING, None, "Moving hangs need a systematic approach: hardware, network, flight recorder, "
                   "py-spy, nccl-tests, Xid, ECC, drain. I'd document everything, loop in the infra"
                   " team, and follow our incident runbook.", WRONG),
    (MOVING, None, "I'd push back on raising the timeout: the timeout is a symptom and a longer one"
                   " just idles the cluster.", WRONG),
    (TIMEOUT, None, "我不认为调大 timeout 有什么问题；缺席的 rank 等久一点就会进来，任务就不会报错了。", WRONG),
    (TIMEOUT, None, "Timeouts are a trade-off: the cause, the GPU-hours, the flight recorder, "
                    "py-spy. I'd discuss it with the colleague, look at the data, and agree on a "
                    "sensible value together.", WRONG),
    (TIMEOUT, None, "If the hang moves between runs it's probably a bad node; I'd map the missing "
                    "rank to its host and drain it.", WRONG),
    # the right diagnosis with a harmful fix or one wrong number, and right answers that deny those fixes
    (MOREPP, None, "Doubling PP makes the bubble bigger since the global batch pins m, and the "
                   "first stage keeps p micro-batches of activations. To fix the bubble I'd just "
                   "shrink the micro-batch size to 1 token so m gets huge.", WRONG),
    (MOREPP, None, "The bubble grows with p because m is fixed by the global batch. Halving DP "
                   "instead is free though: it doubles m and so halves the bubble below what we "
                   "have now.", WRONG),
    (FSDP, None, "FSDP alone spreads the fixed global batch over every GPU, too few tokens each, "
                 "and its all-gathers cross nodes. The fix is to turn on FSDP's "
                 "reshard_after_forward=False everywhere, which removes the all-gathers entirely.", WRONG),
    (FSDP, None, "With every GPU a DP rank the global batch leaves too few tokens per GPU, and the "
                 "weight all-gathers cross nodes every layer, about 1.5x DDP. TP and PP raise the "
                 "DP degree so each rank gets more tokens.", WRONG),
    (FSDP, None, "Every GPU a DP rank means the fixed global batch leaves too few tokens per GPU to"
                 " hide FSDP's per-layer weight all-gathers across nodes, about 1.5x DDP's bytes. "
                 "TP and PP cut the DP degree, so each rank gets more tokens.", RIGHT),
    (BIGTP, None, "TP 16 crosses onto InfiniBand, about nine times slower per GPU, for all-reduces "
                  "on the critical path. So I'd go TP 16 but compress the all-reduces to FP8, which"
                  " closes the gap.", WRONG),
    (BIGTP, None, "TP 16 would put the all-reduces on IB at about a ninth of NVLink's bandwidth, on"
                  " the critical path; the GEMMs also get wider with TP 16, which helps efficiency.", WRONG),
    (CP, None, "At long sequences where activations don't fit with TP 8 and recompute, CP splits "
               "the sequence and the K/V exchange hides behind attention; at short ones it's a "
               "waste. CP has to stay inside one node like TP, though.", WRONG),
    (CP, None, "CP pays off when activations don't fit at long sequences: it splits the sequence, "
               "and the K/V traffic hides behind attention; at short sequences it's a waste. The "
               "attention compute grows linearly and the K/V exchange quadratically.", WRONG),
    (TP, None, "TP all-reduces every layer on the critical path, and NVLink is about ten times IB "
               "per GPU, so TP ≤ 8. For TP across nodes, just set NCCL_ALGO=Tree and it's fine.", WRONG),
    (TP, None, "TP has an all-reduce in every layer, forward and backward, and NVLink gives roughly"
               " 10x the per-GPU bandwidth of IB; PP has the same per-layer all-reduce, so PP also "
               "has to stay in the node.", WRONG),
    (M4P, None, "The 1F1B bubble is (p-1)/m, so m = 4p keeps it under a quarter. Fewer "
                "micro-batches are better for memory though, so I'd rather go to m = p and accept "
                "the bubble.", WRONG),
    (M4P, None, "The bubble is (p-1)/m, under a quarter at m = 4p; interleaving divides it by v. "
                "Since the global batch caps m, the fix when m is too small is to raise the global "
                "batch.", WRONG),
    (M4P, None, "The bubble is (p-1)/m, so m = 4p keeps it just under a quarter, and interleaving "
                "divides it by v. You can't just raise the global batch to get more micro-batches, "
                "convergence sets it; m = global batch / (DP × micro-batch).", RIGHT),
    (SMI, None, "Utilization is the share of time some kernel was running, not how much of the GPU "
                "it used, and tiny kernels read 100%. MFU is useful FLOPs over peak. To fix it I'd "
                "lower the clocks to save power, since the GPU is busy anyway.", WRONG),
    (SMI, None, "nvidia-smi utilization is the time a kernel was resident, not the FLOPs; "
                "memory-bound kernels show 100% with idle tensor cores. MFU counts useful FLOPs "
                "against peak, and 80% MFU is normal for LLM training.", WRONG),
    (SMI, None, "Utilization is only the share of time some kernel ran, so tiny or memory-bound "
                "kernels read 100% with the tensor cores idle. MFU is useful FLOPs over peak, "
                "typically 35-55% on H100 for big runs; trust it and read a profiler trace.", RIGHT),
    (MOVING, None, "A hang that moves points at hardware or the network. I'd find the missing rank "
                   "with the flight recorder, map it to its node, and then set "
                   "CUDA_LAUNCH_BLOCKING=1 on every rank to catch it.", WRONG),
    (MOVING, None, "It points at hardware rather than code. Find the missing rank with py-spy and "
                   "the flight recorder, map it to its node; then add a dist.barrier() before every"
                   " collective so the ranks stay in step.", WRONG),
    (MOVING, None, "A moving hang points at hardware or the network, not the code, so adding "
                   "barriers won't help. Find the missing rank with the flight recorder, map it to "
                   "its node across runs, run nccl-tests on it and check Xid errors, then drain it "
                   "and resume from the checkpoint.", RIGHT),
    (TIMEOUT, None, "The timeout isn't the cause, a rank never joined the collective, and a longer "
                    "timeout only idles the cluster. So I'd keep it short and wrap the training "
                    "loop in try/except to skip the step that timed out.", WRONG),
    (TIMEOUT, None, "It's a symptom: a rank is missing, and waiting longer won't bring it. Keep the"
                    " timeout short and dump on timeout. The flight recorder is off by default and "
                    "costs 20% throughput, so only enable it after a hang.", WRONG),
    (TIMEOUT, None, "No. The timeout is a symptom, a rank is missing and won't arrive however long "
                    "we wait, so the cluster just idles. Keep it short, and have the flight "
                    "recorder on from the start with dump on timeout, then fix that rank.", RIGHT),
    # a last check: the right answer with one new wrong claim appended (all nine accepted before their fixes)
    (MOREPP, None, "More stages grow the bubble, (p-1)/m, because the global batch fixes m, and the"
                   " first stage still holds p micro-batches. Also PP adds a full weight copy per "
                   "stage, so memory actually goes up.", WRONG),
    (FSDP, None, "FSDP leaves too few tokens per GPU because the global batch is fixed, and its "
                 "weight all-gathers cross nodes every layer. TP is cheaper because TP's "
                 "all-reduces go over InfiniBand at NVLink speed.", WRONG),
    (BIGTP, None, "TP 16 spans two nodes, so its per-layer all-reduces go over InfiniBand, about 9x"
                  " slower per GPU. Instead I'd use TP 16 with sequence parallel, which removes the"
                  " all-reduces.", WRONG),
    (CP, None, "CP pays off at long sequences when activations don't fit even with TP 8 and "
               "recompute; CP splits the sequence, the K/V exchange hides behind attention, and at "
               "short sequences it's a waste. A good rule is CP = sequence length / 1K.", WRONG),
    (TP, None, "TP communicates every layer, on the critical path, and NVLink is about ten times IB"
               " per GPU, so TP stays in the node. The all-reduce volume per layer is tiny, a few "
               "KB, so it's latency that matters.", WRONG),
    (M4P, None, "The bubble is (p-1)/m, so m = 4p keeps it under a quarter; the global batch caps "
                "m. 4p also guarantees zero p2p stalls, since each stage always has 4 micro-batches"
                " queued.", WRONG),
    (SMI, None, "Utilization is the share of time some kernel ran, not how much of the GPU it used;"
                " tiny kernels read 100%. MFU is useful FLOPs over peak. The fix is to disable NCCL"
                " overlap so the kernels run one at a time.", WRONG),
    (MOVING, None, "A hang that moves points at hardware or the network. I'd find the missing rank "
                   "with the flight recorder, map it to its node across runs, and then downgrade "
                   "the driver on all nodes.", WRONG),
    (TIMEOUT, None, "The timeout is a symptom, a rank never entered the collective, and a longer "
                    "timeout only idles the cluster. Keep it short and dump the flight recorder on "
                    "timeout; then restart on the same nodes and the rank usually recovers.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round3_wrong_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
