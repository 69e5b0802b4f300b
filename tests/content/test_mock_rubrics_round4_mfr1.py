"""Follow-up stages, fourth round (2026-12-03, mfr1): right answers written by hand in voices the earlier rounds did
not try, chiefly ones that brush against the contradictions added earlier today without making them (the wrong idea
named and rejected, conceded then corrected, said of another setting, numbers written differently, the right answer
plus a harmless extra, shorthand, rambling speech, Chinese with English terms, bullets, evidence first), and four wrong
answers per stage as guards. None from the labelled benchmark. Each case: (scenario id, step id, answer, right)."""

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
    (MOREPP, None, "People often think more stages shrink the bubble, but it's the opposite: with the global batch "
                   "fixed, m doesn't grow, so (p-1)/m roughly doubles when p doubles.", RIGHT),
    (MOREPP, None, "Not for memory reasons: the first stage still holds p micro-batches of activations. And the bubble "
                   "(p-1)/m goes up ~2x because m is pinned by the global batch.", RIGHT),
    (MOREPP, None, "Sure, halving DP gives each pipeline twice the micro-batches, but that only brings the bubble back "
                   "to where it is now; it doesn't make it smaller. Doubling p at a fixed global batch grows the bubble.",
     RIGHT),
    (MOREPP, None, "Evidence first: p=8, m=32 gives 7/32 ≈ 22%; p=16 with the same m gives 15/32 ≈ 47%. The global "
                   "batch fixes m, so more stages just add idle time.", RIGHT),
    (MOREPP, None, "bubble ∝ (p−1)/m; m fixed by GBS → 2x p ≈ 2x bubble. stage 0 still stores p micro-batches. more "
                   "p2p hops.", RIGHT),
    (MOREPP, None, "PP 翻倍以后 bubble (p-1)/m 差不多翻倍，因为 global batch 定死了，m 没法跟着变大。而且第一个 stage 还是要存 p 个 "
                   "micro-batch 的 activation，省不了多少显存。", RIGHT),
    (MOREPP, None, "不是因为放不下，而是 bubble 会变大：m 由 global batch 决定，p 变大 (p-1)/m 就变大。", RIGHT),
    (MOREPP, None, "In a hypothetical where the global batch could double too, more PP might be okay, but here the "
                   "batch is fixed by convergence, so m stays put and the fill-and-drain bubble grows with p.", RIGHT),
    (MOREPP, None, "- bubble: (p-1)/m, and m can't go up because the global batch is fixed\n- so 2x stages ≈ 2x bubble"
                   "\n- first stage memory barely drops (p micro-batches in flight)\n- also harder to balance the LM "
                   "head", RIGHT),
    (MOREPP, None, "Um, so, the thing is the pipeline bubble. It's (p minus 1) over m, right, and m is global batch over "
                   "DP times micro-batch, which we can't really change, so doubling p means the bubble is about twice "
                   "as big. That's the main reason. I'd also watch the extra point-to-point sends.", RIGHT),
    (MOREPP, None, "Doubling PP doesn't help: the idle time grows with the number of stages while m is capped by the "
                   "global batch, and stage 1 keeps p micro-batches' activations anyway.", RIGHT),
    (MOREPP, None, "I'd keep PP at the smallest degree that fits. More stages means a bigger bubble, (p-1)/m with m "
                   "fixed, plus more p2p and harder balancing; halving TP instead wouldn't help either.", RIGHT),
    (MOREPP, None, "The bubble fraction rises from about 1/4 to about 1/2 if we go from p=8 to p=16 at m=32, since the "
                   "batch fixes m.", RIGHT),
    (MOREPP, None, "Rather than shrinking anything, doubling PP adds to the p−1 term of the bubble while the global "
                   "batch keeps m where it is.", RIGHT),
    (MOREPP, None, "因为 bubble 跟 stage 数成正比：(p-1)/m，global batch 固定 m 不变。另外 stage 多了 p2p 也更多，"
                   "embedding 和 LM head 更难平衡。", RIGHT),
    (MOREPP, None, "The bubble would grow: (p-1)/m with m fixed by the global batch. Halving DP only restores m, so "
                   "there's no gain, just more p2p traffic.", RIGHT),
    (MOREPP, None, "Doubling PP is fine: the bubble is (p-1)/m and halving DP doubles m, so the bubble shrinks.", WRONG),
    (MOREPP, None, "More PP halves the activation memory on every stage including the first, so we'd have room for "
                   "bigger micro-batches.", WRONG),
    (MOREPP, None, "PP 翻倍没问题，bubble 不会变大，因为 m 会跟着变多。", WRONG),
    (MOREPP, None, "Because PP needs an all-reduce between stages every layer, which is slow.", WRONG),
    # why not FSDP alone
    (FSDP, None, "FSDP would fit, sure, but at this scale DP would be the whole cluster, so each rank gets too few "
                 "tokens for the fixed global batch; and it all-gathers the full weights every layer across nodes, "
                 "over IB at ~50 GB/s, not NVLink.", RIGHT),
    (FSDP, None, "It's not that FSDP has no communication; it's the reverse: it all-gathers the parameters in the "
                 "forward and backward and reduce-scatters the gradients, across nodes. TP and PP cut the DP degree, "
                 "so the global batch still divides into enough tokens per rank.", RIGHT),
    (FSDP, None, "Evidence first: 4096 GPUs with FSDP alone means DP 4096, and a 4M-token batch is ~1K tokens per "
                 "GPU, too small to keep the GEMMs busy. TP 8 × PP 8 brings DP to 64. Also the weight all-gathers go "
                 "across nodes on InfiniBand.", RIGHT),
    (FSDP, None, "FSDP 单独也放得下，但 DP 度会变成整个集群，global batch 分到每张卡的 token 太少；而且每层都要跨机 all-gather "
                 "参数，走 IB 带宽只有 NVLink 的 1/9 左右。", RIGHT),
    (FSDP, None, "- global batch caps DP: pure FSDP = DP over every GPU → too few tokens/GPU\n- all-gathers of weights "
                 "each layer cross nodes (IB)\n- TP/PP lower the DP degree", RIGHT),
    (FSDP, None, "On a small cluster, say 64 GPUs, I'd happily use FSDP alone. At thousands of GPUs the batch limit "
                 "bites: the DP degree would exceed what the global batch can feed, and the parameter all-gathers "
                 "cross nodes every layer.", RIGHT),
    (FSDP, None, "People often say FSDP is cheaper than DDP, but that's not the point here: the problem is the "
                 "global batch. Pure FSDP means DP equals the GPU count, and the batch per GPU gets too small. Plus "
                 "the all-gathers go over InfiniBand.", RIGHT),
    (FSDP, None, "Mainly the batch. FSDP is data parallel, so with only FSDP every GPU is a DP rank, and a fixed "
                 "global batch can't give thousands of ranks enough tokens. TP and PP shrink DP. The gather traffic "
                 "across nodes is the second reason.", RIGHT),
    (FSDP, None, "Well, so, FSDP would fit, memory isn't the issue. The issue is, uh, the global batch is fixed by "
                 "convergence, and if everything is DP then each GPU gets a tiny slice of it. And FSDP has to "
                 "all-gather the weights layer by layer across nodes, which is slow on IB.", RIGHT),
    (FSDP, None, "因为 FSDP 本质上还是 DP：全用 FSDP，DP 度就等于卡数，global batch 不够分，每卡 token 太少。TP 和 PP "
                 "能降低 DP 度。另外 FSDP 的 all-gather 要跨机走 InfiniBand。", RIGHT),
    (FSDP, None, "Too many DP ranks for the global batch, and the per-layer weight all-gathers run across nodes at "
                 "InfiniBand speed, roughly 9x slower than NVLink. FSDP alone wins when the cluster is small.", RIGHT),
    (FSDP, None, "It would fit, but raising the global batch to feed that many DP ranks is not an option, it hurts "
                 "convergence; so we cut the DP degree with TP and PP. And FSDP's all-gathers cross nodes.", RIGHT),
    (FSDP, None, "FSDP alone = DP across the whole cluster: tokens per GPU too few for the fixed GBS, plus "
                 "all-gather/reduce-scatter of params across nodes every layer.", RIGHT),
    (FSDP, None, "Rather than 'FSDP never works', I'd say it stops scaling: past a few hundred GPUs the global "
                 "batch per rank gets too small, and its gathers over IB get expensive. TP and PP keep DP lower.",
     RIGHT),
    (FSDP, None, "FSDP 放得下没错，但 global batch 是固定的，DP 太大的话每个 rank 分到的 batch 太小；FSDP 每层还要跨节点 "
                 "all-gather 权重。所以用 TP 和 PP 把 DP 降下来。", RIGHT),
    (FSDP, None, "Two things: the batch limit, since pure FSDP makes DP the full GPU count and the global batch "
                 "can't feed that many ranks, and gather traffic, since every layer's weights are all-gathered across "
                 "nodes over InfiniBand.", RIGHT),
    (FSDP, None, "FSDP has no communication beyond DDP, it's just a memory trick, so TP and PP are only tradition.",
     WRONG),
    (FSDP, None, "FSDP would be fine; just raise the global batch so every DP rank has enough tokens.", WRONG),
    (FSDP, None, "TP and PP raise the DP degree, which gives more tokens per rank.", WRONG),
    (FSDP, None, "FSDP 不需要通信，所以跨机也没问题，用 TP 和 PP 只是习惯。", WRONG),
    # why not TP 16
    (BIGTP, None, "TP 16 would leave the node: a node has 8 GPUs on NVLink, so half of every TP all-reduce would go "
                  "over InfiniBand, ~50 GB/s vs ~450 GB/s, roughly 9x slower, on the critical path of every layer.",
     RIGHT),
    (BIGTP, None, "Not because IB is as fast as NVLink, it isn't: it's about a tenth. TP 16 crosses two nodes, so "
                  "each layer's all-reduces run on the slower link and stall the GEMMs.", RIGHT),
    (BIGTP, None, "TP 16 跨两台机器，一台只有 8 张卡在 NVLink 上，TP 的 all-reduce 就要走 IB，带宽差了差不多 10 倍，每层都卡。"
                  "而且 GEMM 切得更小，效率更低。", RIGHT),
    (BIGTP, None, "- node = 8 GPUs, TP 16 leaves NVLink\n- per-layer all-reduce over IB: ~10× slower\n- GEMMs get "
                  "thinner\n- KV heads may not divide by 16", RIGHT),
    (BIGTP, None, "On a hypothetical NVL72 rack with 72 GPUs in one NVLink domain, TP 16 could be fine. On our H100 "
                  "nodes with 8 GPUs each, TP 16 spans two nodes and its all-reduces go on InfiniBand, 450 vs 50 GB/s.",
     RIGHT),
    (BIGTP, None, "People sometimes say overlap will hide it, but TP's collectives are on the critical path; at TP 16 "
                  "they leave the node and run on IB, an order of magnitude slower, every layer.", RIGHT),
    (BIGTP, None, "Evidence first: NVLink ~900 GB/s bidirectional per GPU, IB ~400 Gb/s = 50 GB/s per GPU. TP 16 "
                  "needs two 8-GPU nodes, so the TP all-reduces cross that gap every layer.", RIGHT),
    (BIGTP, None, "Because 16 doesn't fit in one node; we have eight GPUs per box. Going to TP 16 puts TP traffic "
                  "across nodes on the much slower InfiniBand, and the per-GPU matmuls get too small to be efficient.",
     RIGHT),
    (BIGTP, None, "So, um, the node has eight GPUs. TP 16 means the group spans two nodes, and TP does all-reduces "
                  "in every layer, forward and backward, so now those go across the network, which is like ten times "
                  "slower than NVLink. Smaller PP isn't worth that.", RIGHT),
    (BIGTP, None, "TP 16 会出机器：TP 每层的 all-reduce 要走 InfiniBand，速度只有 NVLink 的 1/9；PP 跨机只是点对点传 "
                  "activation，便宜得多。", RIGHT),
    (BIGTP, None, "The TP group would span two nodes, so its all-reduces leave NVLink for IB, ~9x less bandwidth. PP "
                  "across nodes only sends activations point to point, which is far cheaper; so keep TP 8.", RIGHT),
    (BIGTP, None, "TP 16 > 8 GPUs per node → all-reduces over IB (~50 GB/s, not ~450), every layer, blocking. Also "
                  "GEMMs shrink.", RIGHT),
    (BIGTP, None, "I'd keep TP at 8 and, if anything, tune the micro-batch. TP 16 crosses the node boundary, and the "
                  "slower link, InfiniBand, then carries TP's per-layer collectives.", RIGHT),
    (BIGTP, None, "Even with SHARP or NCCL tuning, IB stays several times slower than NVLink; TP 16 spans two nodes "
                  "and puts every layer's all-reduce on it.", RIGHT),
    (BIGTP, None, "It leaves NVLink. A TP 16 group needs two nodes, and the inter-node link is roughly 10x slower; TP "
                  "communicates in every layer so that cost is not hidden.", RIGHT),
    (BIGTP, None, "TP 16 不划算：一台机只有 8 卡，TP 16 就跨机了，TP 的 collective 在关键路径上，走 IB 比 NVLink 慢一个数量级。",
     RIGHT),
    (BIGTP, None, "TP 16 is fine: InfiniBand is about as fast as NVLink nowadays, so crossing nodes costs nothing.",
     WRONG),
    (BIGTP, None, "TP 16 would be better, since the overlap hides all of the all-reduce traffic anyway.", WRONG),
    (BIGTP, None, "NVLink is only about 2x faster than IB, so TP 16 is a small cost.", WRONG),
    (BIGTP, None, "TP 16 就行，跨机用 IB 和 NVLink 一样快。", WRONG),
    # when CP pays off
    (CP, None, "CP pays off at long context, 64K to 128K, when the activations don't fit even with TP, SP and "
               "selective recompute. It splits the sequence across ranks, at the cost of a K/V exchange that hides "
               "behind attention. At 4K or 8K it's a waste.", RIGHT),
    (CP, None, "长序列、activation 放不下的时候才划算：CP 把序列切开，每个 rank 一段，代价是 ring attention 的 K/V 交换，要藏在 "
               "attention 计算后面。序列短的时候藏不住，就是白费。", RIGHT),
    (CP, None, "- pays off: 128K-ish, activations overflow even with recompute\n- splits the sequence, each rank a "
               "chunk\n- cost: K/V exchange around the ring, hidden behind attention\n- short seqs: waste", RIGHT),
    (CP, None, "Evidence first: at 8K the attention per rank is tiny, so the ring's K/V transfers sit exposed; at 128K "
               "attention compute dominates and hides them. CP is worth it when activations no longer fit at long "
               "sequences, and a waste at short ones.", RIGHT),
    (CP, None, "People often reach for a bigger CP at short sequences, but that makes it worse. CP only pays off for "
               "long sequences where the activations don't fit; it shards the sequence and exchanges K/V, which hides "
               "behind attention only when s is large.", RIGHT),
    (CP, None, "When the context is very long and activation memory is the bottleneck. CP slices the tokens across "
               "ranks; the ranks exchange K/V, and that traffic is hidden behind the attention compute at long "
               "lengths. For 4K it's a waste.", RIGHT),
    (CP, None, "Okay so, CP, context parallel, it, um, chops the sequence into chunks per rank. You'd use it when the "
               "sequence is so long that activations won't fit, like 128K. The catch is the K/V has to go around "
               "the ring, and that only hides behind attention when there's lots of attention work, which is long "
               "sequences. Short sequences, it's a waste.", RIGHT),
    (CP, None, "It's a waste at short sequences: not enough attention compute to hide the K/V exchange. It pays off at "
               "long ones, where the activations don't fit otherwise; CP divides the sequence across ranks.", RIGHT),
    (CP, None, "用不用 CP 看 activation 是不是瓶颈：长上下文（比如 128K）activation 放不下才开；CP 按序列切，rank 之间要交换 "
               "K/V，长序列时能藏在 attention 后面；短序列开 CP 是白费。", RIGHT),
    (CP, None, "CP makes sense for long sequences once activations won't fit; it splits the sequence dimension. The "
               "cost is K/V traffic between CP ranks, which must overlap with attention; at short sequences it "
               "can't, so CP stays at 1.", RIGHT),
    (CP, None, "Long context only. CP shards s across ranks so activations per GPU drop by the CP degree; the K/V "
               "ring exchange has to hide behind attention, which works at 64K+, not at 2K.", RIGHT),
    (CP, None, "In a different setting, say a 7B model at 4K on one node, CP would be pure waste. It pays off when "
               "sequences are long enough that activations don't fit even with TP and recompute; it splits the "
               "sequence, and the K/V exchange hides behind attention.", RIGHT),
    (CP, None, "CP pays off when activations overflow at long sequence lengths; it splits the sequence across ranks, "
               "and the K/V exchange is hidden behind attention. For short sequences, rather than CP, just keep CP = "
               "1.", RIGHT),
    (CP, None, "The K/V exchange isn't a once-per-step thing, it happens every attention layer; it hides behind the "
               "attention compute only at long sequences. So CP pays off for long context where the activations "
               "don't fit, splitting the sequence, and is a waste when short.", RIGHT),
    (CP, None, "长序列时才值得开 CP：activation 装不下，CP 把 sequence 切成段分到各个 rank；K/V 交换要藏在 attention 后面，短序列藏不住，"
               "所以短序列是白费。", RIGHT),
    (CP, None, "CP pays off at short sequences, since the K/V exchange is tiny there; at long ones it's a waste.", WRONG),
    (CP, None, "CP splits the weights across ranks, so it pays off whenever the model doesn't fit.", WRONG),
    (CP, None, "CP is always worth it: it has no communication cost and splits the sequence.", WRONG),
    (CP, None, "序列短的时候开 CP 最划算，因为通信少。", WRONG),
    # why TP stays in the node
    (TP, None, "TP communicates inside every layer, forward and backward, and the next GEMM waits on those "
               "all-reduces: they're on the critical path. NVLink is ~450 GB/s per GPU vs ~50 GB/s on IB, about "
               "9x, so across nodes every layer would stall.", RIGHT),
    (TP, None, "Not because DP has to stay in the node too: DP syncs once per step and hides behind the backward. "
               "TP's collectives are per layer, blocking, so TP needs NVLink, roughly ten times IB's bandwidth.",
     RIGHT),
    (TP, None, "TP 每一层 forward 和 backward 都有 all-reduce，而且在关键路径上，下一个 GEMM 要等它。NVLink 大约是 IB 的 9 倍带宽，"
               "所以 TP 必须留在机内，跨机每层都会卡住。", RIGHT),
    (TP, None, "- per-layer all-reduces (fwd+bwd)\n- on the critical path, can't overlap\n- NVLink ≈ 10× IB per "
               "GPU\n- so TP ≤ 8, inside the node", RIGHT),
    (TP, None, "Some people assume the all-reduce hides fully behind the GEMM, but it doesn't: the next layer needs "
               "its result. TP runs collectives every layer, and NVLink gives about 9x the bandwidth of InfiniBand, "
               "so TP stays in the node.", RIGHT),
    (TP, None, "Evidence first: 450 vs 50 GB/s per GPU, NVLink vs IB. TP does several all-reduces per layer, each "
               "blocking the next matmul, so putting TP across nodes would make every layer wait on the slow link.",
     RIGHT),
    (TP, None, "On an NVL72 rack you could stretch TP beyond 8 GPUs because NVLink spans the rack. On standard 8-GPU "
               "nodes, TP's per-layer all-reduces, on the critical path, need NVLink, which is about ten times "
               "InfiniBand.", RIGHT),
    (TP, None, "Because TP talks every layer and nothing else can run meanwhile: those all-reduces are on the "
               "critical path. Inside the node they go on NVLink, roughly 9x faster than the inter-node network.",
     RIGHT),
    (TP, None, "Uh, so TP splits the matrices, right, so every layer you need an all-reduce, or reduce-scatter and "
               "all-gather with SP, in forward and backward. The compute can't continue until it's done. NVLink "
               "is way faster than IB, like 450 versus 50 gigabytes a second, so you keep TP inside the node.", RIGHT),
    (TP, None, "TP 的通信是每层都有的，不像 DP 每步一次可以藏在 backward 后面；TP 的 collective 在关键路径上，机内 NVLink "
               "带宽是 IB 的十倍左右，所以要留在机内。", RIGHT),
    (TP, None, "TP does all-reduces in every layer, twice forward and twice backward, blocking. NVLink has about "
               "an order of magnitude more bandwidth than IB, so across nodes those would stall each layer.", RIGHT),
    (TP, None, "Each layer's output needs an all-reduce before the next GEMM, so TP's communication is on the "
               "critical path; NVLink (~450 GB/s) vs IB (~50 GB/s) is ~9x. That's why TP takes the node and PP/DP "
               "cross nodes.", RIGHT),
    (TP, None, "per-layer TP collectives sit on the critical path; NVLink ~9x IB → TP in node, DP/PP across.",
     RIGHT),
    (TP, None, "TP needs NVLink: its all-reduces happen every layer, in the forward and backward, and the next "
               "layer waits. Between nodes you get about a ninth of the bandwidth. I'd also set TP to 8, the node "
               "size.", RIGHT),
    (TP, None, "Rather than overlap, TP relies on raw bandwidth: the all-reduce in each layer blocks the next GEMM. "
               "NVLink is roughly 10x IB, so TP stays within the node.", RIGHT),
    (TP, None, "因为 TP 的 all-reduce 每层都要做，下一个 GEMM 得等它，藏不住；NVLink 450 GB/s，IB 只有 50 GB/s，差 9 倍。", RIGHT),
    (TP, None, "TP only syncs once per step, so it could go across nodes; it's kept in the node by habit.", WRONG),
    (TP, None, "TP's all-reduces hide fully behind the GEMMs, so it's fine across nodes with CUDA graphs.", WRONG),
    (TP, None, "IB is about as fast as NVLink, so TP could go across nodes; it's just tradition.", WRONG),
    (TP, None, "TP 每步只通信一次，跨机也没问题。", WRONG),
    # why m >= 4p
    (M4P, None, "The 1F1B bubble is (p-1)/m of the step. With m = 4p it's just under a quarter; fewer micro-batches "
                "waste more. The global batch caps m, so 4p is a practical floor.", RIGHT),
    (M4P, None, "Not because more micro-batches cost memory, they don't under 1F1B: a stage holds at most p in "
                "flight. The bubble is (p-1)/m, so at m = 4p it's under 25%; interleaving with v chunks divides it by "
                "v.", RIGHT),
    (M4P, None, "bubble 是 (p-1)/m，m = 4p 的时候 bubble 不到四分之一；m 再小浪费更多。global batch 限制了 m，所以 4p 是个折中。",
     RIGHT),
    (M4P, None, "- bubble = (p-1)/m\n- m=4p → (p-1)/4p < 1/4\n- fewer mbs → more idle\n- GBS caps m", RIGHT),
    (M4P, None, "Evidence first: p = 8, m = 32 gives 7/32 ≈ 22%, a bit less than one quarter. The bubble is "
                "(p-1)/m, so 4p keeps it just under a quarter; with m = p it'd be almost 90%.", RIGHT),
    (M4P, None, "It's not that the bubble goes to zero at 4p: it's (p-1)/m, just under a quarter at m = 4p, and it "
                "keeps shrinking as m grows. The global batch limits how far you can go.", RIGHT),
    (M4P, None, "Because the bubble is (p − 1)/m: at 4p that's ~25% or a bit less, which is tolerable; at 2p it's "
                "near 50%. Going beyond 4p costs no extra activation memory in 1F1B, but the global batch caps m.",
     RIGHT),
    (M4P, None, "So the pipeline has to fill and drain once per step, right, and that idle time is (p minus 1) over m "
                "of the ideal step. If m is 4p you get a bit under a quarter, which people accept. Fewer "
                "micro-batches and the bubble gets worse. You can't make m huge since the global batch caps it.",
     RIGHT),
    (M4P, None, "The bubble fraction is (p-1)/m; m ≥ 4p keeps it below 1/4. Interleaving (v chunks) cuts it by v "
                "more.", RIGHT),
    (M4P, None, "With m = 4p the bubble is under a quarter of the step; with fewer micro-batches the fill and drain "
                "waste more. (p-1)/m is the formula.", RIGHT),
    (M4P, None, "因为 1F1B 的 bubble 是 (p-1)/m，m ≥ 4p 时低于 25%。micro-batch 多并不多占激活显存，一个 stage 最多存 p 个；"
                "m 的上限是 global batch。", RIGHT),
    (M4P, None, "On a hypothetical cluster with a huge global batch you'd push m to 8p or more; here 4p is what the "
                "batch allows, and (p-1)/m at 4p is just under a quarter.", RIGHT),
    (M4P, None, "The bubble is (p−1)/m. 4p micro-batches keep that below 25%; it's a rule of thumb, and m is bounded "
                "by global batch / (DP × micro-batch size).", RIGHT),
    (M4P, None, "m ≥ 4p → bubble (p-1)/m < 25%. Fewer micro-batches, more waste.", RIGHT),
    (M4P, None, "Pipeline idle is (p−1)/m; at m = 4p that's under a quarter, good enough. More DP means fewer "
                "micro-batches per pipeline, which is why m is hard to raise.", RIGHT),
    (M4P, None, "Rather than to save memory, it's about the bubble: (p-1)/m, which at m = 4p is under a quarter.",
     RIGHT),
    (M4P, None, "At m = 4p the bubble is 1/(4p), basically negligible.", WRONG),
    (M4P, None, "More micro-batches grow the activation memory, so 4p is the most that fits; the bubble is (p-1)/m.",
     WRONG),
    (M4P, None, "m 4p 时 bubble 几乎为零，所以要求 4p。", WRONG),
    (M4P, None, "Because NCCL needs at least 4 micro-batches per stage to overlap the p2p sends.", WRONG),
    # nvidia-smi 100% but low MFU
    (SMI, None, "nvidia-smi's utilization is the fraction of time at least one kernel was running, not how much of "
                "the GPU it used. A stream of tiny or memory-bound kernels reads 100% while the tensor cores idle. "
                "MFU is useful FLOPs over peak, so it catches that. A profiler trace shows which kernels.", RIGHT),
    (SMI, None, "Not because MFU is wrong: trust MFU. The 100% only says some kernel was resident each sample; small "
                "kernels, launch-bound gaps or memory-bound ops keep it at 100% with the tensor cores mostly idle.",
     RIGHT),
    (SMI, None, "utilization 只表示采样时有 kernel 在跑，不代表 SM 或 tensor core 用满了；一堆很小的 kernel 或 memory-bound 的 kernel "
                "也是 100%。MFU 是实际有效 FLOPs 除以峰值，所以会低。要看 profiler trace。", RIGHT),
    (SMI, None, "- util = % of time any kernel ran\n- says nothing about SM occupancy or tensor cores\n- tiny / "
                "memory-bound kernels → 100% util, low FLOPs\n- MFU = achieved FLOPs / peak\n- check with Nsight",
     RIGHT),
    (SMI, None, "People often think 100% means the GPU is saturated, but it doesn't: nvidia-smi counts time with any "
                "kernel running. MFU counts useful FLOPs against peak. Lots of small kernels give both at once.",
     RIGHT),
    (SMI, None, "Evidence first: a trace of such a run typically shows thousands of short kernels, elementwise ops "
                "and NCCL kernels, back to back. nvidia-smi reports 100% because a kernel is always running; MFU is "
                "low because few of them are big matmuls.", RIGHT),
    (SMI, None, "The gap isn't always communication; it could be, but it could also be small kernels or memory-bound "
                "work. The utilization column only measures time busy with some kernel, while MFU measures FLOPs "
                "achieved versus peak. A profile tells which.", RIGHT),
    (SMI, None, "Both are true because they measure different things: utilization is 'was a kernel running', MFU is "
                "'how many useful FLOPs did we get out of the peak'. A GPU can run a kernel all the time and still "
                "leave the tensor cores idle, e.g. with tiny kernels.", RIGHT),
    (SMI, None, "So, uh, nvidia-smi utilization is kind of misleading, it's just the share of sample time where some "
                "kernel was on the GPU, any kernel, even one using a single SM. And MFU is model FLOPs divided by "
                "peak FLOPs. So if you have lots of small kernels you'd see 100% and low MFU. I'd grab a torch "
                "profiler trace.", RIGHT),
    (SMI, None, "nvidia-smi 的 100% 不是说算力用满了，只说明时间上一直有 kernel 在跑；MFU 算的是有效 FLOPs 占峰值的比例。"
                "小 kernel、launch-bound 都会造成 100% 加低 MFU。", RIGHT),
    (SMI, None, "util% = time with ≥1 kernel active, not SM or tensor-core usage; MFU = useful FLOPs/peak. Tiny "
                "kernels → both. Trace it.", RIGHT),
    (SMI, None, "Rather than trusting the utilization column, I'd go by MFU: utilization is just the fraction of time "
                "a kernel was running, even a tiny one, while MFU is useful FLOPs over peak.", RIGHT),
    (SMI, None, "On a different job, a well-tuned dense run, 100% and 50% MFU might both be fine. Here the low MFU "
                "with 100% means the kernels running are small or memory-bound: nvidia-smi only measures that "
                "something ran, MFU measures FLOPs against peak.", RIGHT),
    (SMI, None, "The utilization metric is time-based: any kernel running counts as 100%. It doesn't measure SM "
                "occupancy or tensor-core work. MFU is achieved model FLOPs divided by peak, so many small, "
                "launch-bound kernels give high util and low MFU.", RIGHT),
    (SMI, None, "Because GPU-Util is the percentage of time one or more kernels were executing; a tiny elementwise "
                "kernel counts the same as a big GEMM. MFU divides useful FLOPs by peak. I'd also check the "
                "dataloader, but a profiler trace comes first.", RIGHT),
    (SMI, None, "这两个指标量的东西不一样：nvidia-smi 的 utilization 是有 kernel 在跑的时间占比，MFU 是有效 FLOPs 对峰值。kernel "
                "很小的话 GPU 一直忙但 tensor core 闲着。", RIGHT),
    (SMI, None, "100% utilization means the tensor cores are fully used, so the MFU formula must be wrong.", WRONG),
    (SMI, None, "It must be the dataloader; the GPU waits on data, which nvidia-smi counts as busy.", WRONG),
    (SMI, None, "Trust nvidia-smi; MFU is unreliable on big clusters.", WRONG),
    (SMI, None, "nvidia-smi 100% 说明 GPU 已经用满了，MFU 低是公式算错了。", WRONG),
    # a hang that moves from step to step
    (MOVING, None, "A hang at a different step every run points away from a code path that diverges at a fixed "
                   "step and toward hardware or the network: a flaky link, a bad GPU, a node. I'd find the rank "
                   "that never joined with the flight recorder each time and see if it maps to the same node.",
     RIGHT),
    (MOVING, None, "Not a deterministic code bug, most likely: those hang at the same step. A moving hang suggests "
                   "a flaky node or link. I'd dump the NCCL flight recorder on each hang, find the missing rank, and "
                   "map it to a host across runs; then check that node's dmesg for Xid errors.", RIGHT),
    (MOVING, None, "每次 hang 在不同 step，说明不太像代码里固定的分支问题，更像硬件或网络：某个节点、某块卡或者 IB 链路不稳定。"
                   "我会用 flight recorder 找出没进 collective 的 rank，看它是不是每次都在同一台机器上，再查 dmesg 的 Xid。",
     RIGHT),
    (MOVING, None, "- fixed step → code path; moving step → hardware/network\n- flight recorder: which rank never "
                   "entered\n- map rank → node across runs\n- same node each time → drain it, check Xid/NCCL logs",
     RIGHT),
    (MOVING, None, "Evidence first: if the stuck rank is on node 17 in three different runs at three different "
                   "steps, it's the node, not the code. So I'd collect the flight recorder dump each time, find the "
                   "rank that didn't join, map it to its host, and look at that host's GPU and NIC health.", RIGHT),
    (MOVING, None, "Some people would raise the timeout, but that won't help. The moving step says it's probably "
                   "hardware or a flaky network rather than a code path; I'd find the missing rank per run with the "
                   "flight recorder and see if it's always the same node.", RIGHT),
    (MOVING, None, "It shifts my suspicion from the code to the infrastructure. A code bug would hang at the same "
                   "step; this is more like an intermittent link or GPU. For each hang I'd get the rank that never "
                   "arrived, from torch's flight recorder, and correlate the nodes.", RIGHT),
    (MOVING, None, "So, hmm, if it's a different step each time, it's, like, not deterministic, so probably not the "
                   "code. I'd think hardware, maybe a NIC flapping or a GPU with ECC errors. Each time it hangs I'd "
                   "dump the flight recorder, see which rank didn't enter the collective, and check whether that's "
                   "the same machine every time.", RIGHT),
    (MOVING, None, "Moving step → likely a bad node/link, not code. Per hang: flight recorder → missing rank → "
                   "host. Same host repeatedly → cordon it.", RIGHT),
    (MOVING, None, "With a hang at varying steps I'd stop looking for a rank-0-only branch and look at the machines: "
                   "find which rank was missing in each hang via the flight recorder and whether those ranks share a "
                   "node; then check dmesg for Xid errors and the IB counters.", RIGHT),
    (MOVING, None, "On a single-node job I'd suspect a data-dependent code path too, but on this cluster a hang that "
                   "moves around points to hardware or the network. I'd find the missing rank with the flight "
                   "recorder each run and map it to its node to see whether one node keeps showing up.", RIGHT),
    (MOVING, None, "The investigation goes from 'which line' to 'which machine': a moving hang is usually a flaky "
                   "node or link. I'd record which rank never entered the collective each time (flight recorder) "
                   "and map ranks to nodes; a repeat node gets drained and tested.", RIGHT),
    (MOVING, None, "It's less likely a code bug and more likely hardware or the network, since code bugs are "
                   "deterministic. I'd look at the flight recorder per hang for the missing rank, map to nodes, and "
                   "run NCCL tests on the suspect node. I'd also keep checkpoints frequent meanwhile.", RIGHT),
    (MOVING, None, "Rather than a fixed code path, a hang that moves suggests hardware or the fabric. Find the rank "
                   "that never joined each time, via the flight recorder, and check whether it lands on the same "
                   "node.", RIGHT),
    (MOVING, None, "换成了排查机器：hang 的 step 不固定，大概率是某台机器或者网络有问题，不是代码。每次用 flight recorder "
                   "找没进 collective 的 rank，对到节点上，看是否总是同一个节点。", RIGHT),
    (MOVING, None, "A moving hang is a code bug in the data loader; I'd add print statements and rerun.", WRONG),
    (MOVING, None, "Nothing really changes; I'd raise the NCCL timeout so it stops failing.", WRONG),
    (MOVING, None, "It points to hardware. I'd downgrade the driver on all nodes and restart.", WRONG),
    (MOVING, None, "每次 step 不同说明是随机的，重启一下就好了，不用查。", WRONG),
    # raise the NCCL timeout?
    (TIMEOUT, None, "I'd say no: the timeout isn't the problem, it's the symptom. A rank never entered the "
                    "collective, so the others wait forever; a longer timeout only makes the job hang longer before "
                    "failing. Keep it short and dump the flight recorder on timeout to find that rank.", RIGHT),
    (TIMEOUT, None, "Raising it won't fix anything: the collective is waiting for a rank that isn't coming. If we "
                    "raise it to an hour, the job still fails, just an hour later, with the cluster idle meanwhile. "
                    "Find the missing rank instead.", RIGHT),
    (TIMEOUT, None, "调大 timeout 解决不了问题，只是推迟报错：有个 rank 没进 collective，其他 rank 会一直等。应该保持较短的 "
                    "timeout，开 flight recorder 找到那个没来的 rank。", RIGHT),
    (TIMEOUT, None, "- timeout = symptom, not cause\n- some rank never joined the collective\n- longer timeout → "
                    "longer hang, same failure\n- keep it short, dump flight recorder, find that rank", RIGHT),
    (TIMEOUT, None, "People often suggest a bigger timeout, but it just delays the failure. The others are waiting "
                    "on a rank that never called the collective; I'd keep the timeout short and use the flight "
                    "recorder to see which rank is missing.", RIGHT),
    (TIMEOUT, None, "Evidence first: the flight recorder would show every rank in all-reduce #N except one. That "
                    "rank is stuck elsewhere or dead, so waiting longer changes nothing; raising the timeout only "
                    "hides it longer. Find that rank and why it didn't arrive.", RIGHT),
    (TIMEOUT, None, "In a different case, a slow but healthy collective, say a huge checkpoint barrier, raising the "
                    "timeout can be legit. Here a rank never arrives, so a longer timeout just wastes GPU hours; "
                    "keep it short and find the missing rank.", RIGHT),
    (TIMEOUT, None, "Hmm, I'd push back, politely. The timeout firing means one rank didn't show up to the "
                    "collective. Bumping the timeout just turns a ten-minute hang into a two-hour hang. What we want "
                    "is to know which rank and why, so the flight recorder dump, and keep the timeout short.", RIGHT),
    (TIMEOUT, None, "No. It masks the bug: a rank is missing from the collective. Short timeout + flight recorder "
                    "dump, then fix whatever stopped that rank.", RIGHT),
    (TIMEOUT, None, "That treats the symptom. The watchdog fires because one rank never entered the collective; "
                    "with a longer timeout the job doesn't stop failing, it fails later and burns the cluster in the "
                    "meantime. I'd rather find the rank.", RIGHT),
    (TIMEOUT, None, "不行，timeout 只是表象。真正的问题是某个 rank 没有进入 collective，调大了只会等更久，照样失败。"
                    "应该用 flight recorder 找出是哪个 rank。", RIGHT),
    (TIMEOUT, None, "A longer timeout would not help: the hang isn't slowness, a rank is absent from the collective. "
                    "I'd keep it at a few minutes and have the flight recorder dump so we can see which rank.", RIGHT),
    (TIMEOUT, None, "Rather than raising it, keep it short: the timeout only says a rank never joined. Dump the "
                    "flight recorder, find that rank, fix it. Raising it just delays the same failure.", RIGHT),
    (TIMEOUT, None, "raising timeout = same hang, later error. root cause: a rank never reached the collective. "
                    "keep timeout short, use flight recorder.", RIGHT),
    (TIMEOUT, None, "I'd tell them the timeout is doing its job. Some rank never made it into the collective, so no "
                    "amount of waiting completes it; a bigger timeout only delays the error. Also I'd enable "
                    "TORCH_NCCL_ASYNC_ERROR_HANDLING and the flight recorder.", RIGHT),
    (TIMEOUT, None, "同事的建议只是掩盖问题：timeout 说明有一个 rank 没来，调大只是多等，不会好。timeout 保持短，用 flight recorder "
                    "定位那个 rank。", RIGHT),
    (TIMEOUT, None, "Sure, raise it to an hour; the collective is just slow and will finish eventually.", WRONG),
    (TIMEOUT, None, "Raising the timeout is fine if we also restart on the same nodes; the rank usually recovers.",
     WRONG),
    (TIMEOUT, None, "Good idea, the network is just slow under load, so more time lets the all-reduce finish.", WRONG),
    (TIMEOUT, None, "可以调大，collective 只是慢，多等一会就好了。", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round4_mfr1_right_and_guard_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
