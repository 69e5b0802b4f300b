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
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round2_partial_and_right_answers(scenario, step, answer, right):
    assert grade(library().interview.scenarios[scenario].model, answer, step, 0).correct is right
