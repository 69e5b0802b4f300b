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
    # followup-why-not-bigger-tp: partial answers (TP leaving the node, the required point, left out) and half-wrong
    (TP16, None, "TP 16 would make the GEMMs thinner, so there's less compute per byte.", WRONG),
    (TP16, None, "With 8 KV heads TP 16 would have to replicate the KV heads.", WRONG),
    (TP16, None, "TP 16 means more communication.", WRONG),
    (TP16, None, "PP is cheaper across nodes because it only sends activations at stage boundaries.", WRONG),
    (TP16, None, "TP 16 crosses into a second node, which is fine since TP's all-reduces are small; the real issue is "
                 "the KV heads.", WRONG),
    (TP16, None, "TP 16 is bad because it uses more memory per GPU.", WRONG),
    (TP16, None, "TP 16 的话 GEMM 变窄，KV head 也不够分。", WRONG),
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
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_partial_and_spoken_answers(scenario, step, answer, right):
    assert grade(library().interview.scenarios[scenario].model, answer, step, 0).correct is right
