"""Follow-ups on the layout, sixth round (2026-12-03): why not more PP, why not FSDP, why not TP 16, when CP pays
off, why TP stays in the node, why m >= 4p, and nvidia-smi's 100%. Each key point said in the ways a strong
candidate says it, written by hand without the labelled benchmark: the subject in a clause before ("if they don't,
because seq is long"), a restatement after "i.e.", the gap as a share lost ("a ninth", "lose ~90%"), the layer by
its parts ("after every matmul"), the metric as time-based, MFU as the number that moved, the quarter as 7/32, and
Chinese as engineers type it (序列一长, 填充和排空, 并不比). Beside them the near misses the widened reading must still
refuse: the point negated, the wrong value, the doubling of PP read as the bubble's. Each case: (scenario id,
answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
PP, FSDP, TP16 = "followup-why-not-more-pp", "followup-why-not-fsdp", "followup-why-not-bigger-tp"
CP, NODE, M4P, SMI = "followup-when-cp-pays-off", "followup-why-tp-in-node", "followup-why-m-4p", "followup-nvidia-smi"

CASES = [
    # nvidia-smi: the column as time, a waiting kernel counted, MFU against the chip's peak or as the number that moved
    (SMI, "Utilization in nvidia-smi is time-based: it says the GPU was never idle, not that the SMs did math. A "
          "stream of tiny kernels keeps it at 100% while the tensor cores idle. MFU, model FLOPs over peak, is the "
          "one to trust.", RIGHT),
    (SMI, "Saw this on a 64-GPU run: 99% in nvidia-smi, MFU at 18%. The trace showed long NCCL kernels waiting for "
          "data; an NCCL kernel that waits is still a kernel, so it counts as utilized. The smi number only means a "
          "kernel was resident. We fixed the overlap, MFU went up a lot, and the smi number never moved.", RIGHT),
    (SMI, "nvidia-smi的利用率是按时间算的，不是按算力算的：一串很小的 kernel 也显示 100%，tensor core 却闲着。要看 MFU，"
          "它算的是有效计算占理论峰值的比例。", RIGHT),
    (SMI, "Utilization here is coarse: it's the percent of the sample period where one or more kernels ran, so a "
          "single small kernel that keeps one SM busy reports 100%. MFU is what counts.", RIGHT),
    (SMI, "Utilization is not time-based; it is the share of SMs doing math, so 100% means the tensor cores are "
          "saturated. The low MFU is just the formula being off.", WRONG),
    (SMI, "nvidia-smi only says some kernel was running. MFU is not reliable though, nvidia-smi is the real number "
          "to go by.", WRONG),
    # CP: the length as a clause of its own, K and V named apart
    (CP, "My rule: first see if activations fit with TP+SP and selective recompute. If they don't, because seq is "
         "long, CP is cheaper than full recompute. The price is that every attention layer ships K and V blocks "
         "around the CP ring, which has to overlap with the attention math; at short sequences it can't hide, so "
         "CP only slows you down.", RIGHT),
    (CP, "序列一长，activation 就爆显存了，TP 8 加 recompute 都顶不住，这时候开 CP，每个 rank 只算自己那段序列。代价是 KV "
         "要在 CP rank 之间转一圈，得和 attention 计算 overlap 起来；序列短的时候藏不住，开了只会变慢。", RIGHT),
    (CP, "长上下文 activation 放不下时开 CP，每个 rank 只存自己那段序列。CP 的开销在于 K、V 的点对点传输，长序列时 attention "
         "计算量够大，能藏住；序列短时藏不住，纯亏。", RIGHT),
    (CP, "If activations fit after TP 8 and recompute, CP is overhead; it pays off at 64K+ where they don't. Ring "
         "attention passes K/V between ranks, hidden behind attention at long seq.", RIGHT),
    (CP, "If activations don't fit, CP is overhead; it pays off at 4K. Ring attention passes K/V between ranks, "
         "hidden behind attention.", WRONG),
    # "K/V" is not in "8K vs 128K" (a symbol takes no ending)
    (CP, "CP pays off for long sequences when activations don't fit; each rank keeps its slice of the sequence. "
         "Compare 8K vs 128K: the overhead differs a lot.", WRONG),
    (CP, "When the seq is long CP is a waste, the K/V traffic grows with s² there. It pays off for short sequences, "
         "where the exchange is cheap.", WRONG),
    # TP in the node: the restatement after "i.e.", the gap as a share, the fast side as subject, the layer's parts
    (NODE, "Numbers first: NVLink4 gives an H100 450 GB/s each way; NDR IB is 400 Gb/s, i.e. 50 GB/s per GPU. TP moves "
           "hundreds of MB per layer per micro-batch, on the critical path, so TP stays in the NVLink domain.", RIGHT),
    (NODE, "TP syncs activations after every matmul pair, hundreds of collectives per iteration, and the next GEMM "
           "waits on each. Leave the node and you lose ~90% of your bandwidth.", RIGHT),
    (NODE, "Intra-node bandwidth is roughly an order of magnitude above inter-node, and tensor parallelism has "
           "all-reduces in each transformer layer, forward and backward, that can't hide behind compute.", RIGHT),
    (NODE, "张量并行在每个 transformer layer 里都要同步激活，forward、backward 都有；跨机带宽差一个数量级，每层都会卡住。", RIGHT),
    (NODE, "TP 每一层都要 all-reduce，都在关键路径上，藏不住；机内带宽并不比机间快。", WRONG),
    (NODE, "TP 每一层都要 all-reduce，都在关键路径上，藏不住；机内带宽比机间快十倍。", RIGHT),
    (NODE, "TP only syncs once per step, at the end of backward, so it could go across nodes; it's about memory "
           "capacity.", WRONG),
    (NODE, "TP all-reduces in every layer. Leave the node and you lose maybe 10% of bandwidth, so TP 16 is fine.",
     WRONG),
    # TP 16: a story, the share kept, the scale-out network; the gap made small
    (TP16, "We actually tried TP 16 once across two H100 nodes to drop a pipeline stage. Step time got much worse: "
           "the profile showed the TP all-reduces, four per layer, sitting alone on the timeline, because they now "
           "crossed IB at about 50 GB/s per GPU. Back to TP 8; PP only ships activations at stage boundaries.", RIGHT),
    (TP16, "An H100 box has 8 GPUs on NVLink, so TP 16 puts TP traffic on the scale-out network, and that link is a "
           "tenth of the bandwidth, on every layer. PP crosses nodes far more cheaply.", RIGHT),
    (TP16, "TP 16 要跨两台机，每层 all-reduce 都得走 IB，带宽从 450 掉到 50 GB/s；跨机用 PP 便宜得多。", RIGHT),
    (TP16, "Because 16 > 8 GPUs per node. The moment TP spans nodes, per-layer collectives run on the slow network, "
           "~9x less bandwidth. PP is cheap across nodes: only activations at boundaries.", RIGHT),
    (TP16, "一台 H100 就 8 张卡，TP16 一半的 rank 在另一台机器上，all-reduce 得走网卡，带宽掉到九分之一。", RIGHT),
    (TP16, "IB NDR is 400 GB/s per port versus 450 GB/s for NVLink, nearly the same, so TP 16 across two nodes costs "
           "little. I'd do it to cut PP.", WRONG),
    (TP16, "TP 16 spans two nodes, so its all-reduces go over InfiniBand. It's not a tenth of NVLink, it's nearly "
           "the same bandwidth, so I'd take it.", WRONG),
    # FSDP: the batch that does not scale, the DP degree too large, the gathers as fetches
    (FSDP, "Under FSDP the DP degree is the GPU count, and the global batch doesn't scale with it: at 8K GPUs each "
           "rank gets a sliver. And every forward and backward re-fetches each layer's shards over IB, about 1.5x "
           "DDP's bytes, with too little compute to hide it.", RIGHT),
    (FSDP, "纯 FSDP 的话 DP 度太大了，global batch 是收敛定死的，每卡分不到几个 token；每一层的 weight 都要从别的卡拉过来，"
           "跨机走 IB，通信量很大。", RIGHT),
    (FSDP, "The global batch scales with the GPU count, so FSDP has no batch problem; it all-gathers every layer's "
           "weights across nodes, about 1.5x DDP, which is fine.", WRONG),
    (FSDP, "With FSDP on all 8192 GPUs each GPU gets too few tokens, but the weights are fetched once and kept, so "
           "the traffic is small.", WRONG),
    # more PP: fill and drain in Chinese, the share rising; the doubling of PP is not the bubble's
    (PP, "stage 多了，流水线填充和排空的时间也多了，m 又不变，因为 global batch 定了 m。", RIGHT),
    (PP, "多切 stage 空转比例会上升：global batch 定死了每条 pipeline 的 m，DP 减半也只是把 m 拉回原样。", RIGHT),
    (PP, "Double PP and the bubble doubles too, since the global batch fixes m and m stays the same.", RIGHT),
    (PP, "更多 stage 意味着更长的 fill/drain，m 不能跟着涨（batch 固定），所以空闲占比变大。", RIGHT),
    (PP, "Doubling PP makes a smaller fraction of the step idle, and the global batch fixes m, so it's the better "
         "layout.", WRONG),
    (PP, "Doubling PP: the bubble falls from half to about a quarter, since m is fixed.", WRONG),
    (PP, "If you double PP the bubble does not rise, each stage is shorter; m stays the same.", WRONG),
    (PP, "PP 翻倍以后 bubble 不会上升，因为每个 stage 更短，m 不变。", WRONG),
    # m >= 4p: the fill and drain as fixed slots, the quarter as 0.25 or 7/32; the share said to rise, the fill said to grow
    (M4P, "Pipeline fill/drain costs p-1 micro-batch slots no matter what m is, so you want m large relative to p. "
          "Plug m = 4p in: (p-1)/4p, just below 0.25.", RIGHT),
    (M4P, "流水线的填充和排空时间是固定的 p-1 个 micro-batch，m 越多占比越低。p=8, m=32 时空泡 7/32，大约 22%。", RIGHT),
    (M4P, "More micro-batches dilute the ramp-up/ramp-down of the pipeline. With p = 8 and m = 32 that's 7/32 ≈ 22%.",
     RIGHT),
    (M4P, "m 越多，bubble 占比越低；m = 4p 时 bubble 约 (p-1)/4p，不到 25%。", RIGHT),
    (M4P, "More micro-batches make the fill and drain longer, so the bubble grows; at m = 4p it's under a quarter.",
     WRONG),
    (M4P, "m 越多 bubble 占比越高，m = 4p 时 bubble 超过 25%。", WRONG),
    (M4P, "The bubble is (p-1)/m, so it shrinks as m grows. At m = 4p the bubble is above 0.25.", WRONG),
]


@pytest.mark.parametrize(("scenario", "answer", "right"), CASES)
def test_round6_layout_followups_and_guards(scenario, answer, right):
    assert grade(library().question(scenario), answer, None).correct is right


# The reader's rules of this round, by the point they give or keep back: a restatement after "i.e." is read with the
# fragment before unless it has a subject of its own; "并不比" denies.
COVERAGE = [
    (NODE, "NDR IB is 400 Gb/s, i.e. 50 GB/s per GPU, against 450 GB/s on NVLink.", "nvlink-bandwidth", True),
    (TP16, "TP stays at 8, i.e. PP goes across nodes.", "leaves-nvlink", False),
    (NODE, "机内带宽并不比机间快。", "nvlink-bandwidth", False),
]


@pytest.mark.parametrize(("scenario", "answer", "point", "stated"), COVERAGE)
def test_round6_reader_rules_by_point(scenario, answer, point, stated):
    assert (point in grade(library().question(scenario), answer, None).details["covered"]) is stated
