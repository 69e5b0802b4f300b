"""The mock interview's follow-up rubrics (interview/followups.yaml, interview/followups-tradeoffs.yaml)
against the tuning misses of the fifth labelled batch (tests/grading/labelled/free_text_mock.yaml, as
`grade_dev.py mock --show` lists them), and answers of our own around each fix: paraphrases, Chinese,
terse shorthand, and the cheats each fix must still refuse (lists of terms, negated and wrong answers).

Each fix is a rule of the rubric, not of one wording:
- followup-raise-timeout: the colleague's premise stated ("the timeout is the cause", "the absent rank
  eventually joins", "a larger timeout lets the job recover", "a short timeout only makes false failures")
  is a contradiction; a rank that "never joins" is missing.
- followup-when-cp-pays-off: "CP pays off for short sequences", "CP adds no communication", "activations do
  not grow with the sequence length" and "CP splits the weights" are contradictions (denied, the last one
  states that CP ranks hold the same weights); activations that are "the bottleneck" (瓶颈) do not fit.
- followup-why-not-bigger-tp: crossing nodes is fine for PP ("PP 跨机没问题"), so the contradiction needs TP
  as its subject; "across nodes" alone ("PP and DP go across nodes") does not say TP leaves the node.
- followup-why-tp-in-node: NVL is NVLink, "9x" a multiple; NVLink's figure alone ("NVLink 900 GB/s" in a
  list) is no comparison, only against IB or as what TP needs.
- followup-nvidia-smi: ">= 1 kernel resident", "% of sample time" say what the column samples.
- followup-why-not-fsdp: GBS is the global batch.
- followup-why-not-more-pp: the formula named ("(p-1)/m" in a list) is not the bubble growing; "bubble ~2x" is.
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade



RIGHT, WRONG = True, False

# (question id, answer, right): the labelled tuning texts first in each group, then our own.
CASES = [
    # ---------------------------------------------------------------- followup-raise-timeout
    ("followup-raise-timeout", "That is reasonable: the timeout is the cause of the failure, because the collective would "
     "finish if it were given enough time. A rank that is absent eventually joins, so a larger timeout lets the job "
     "recover on its own. Keeping the timeout short only creates false failures, and there is no need to look for a "
     "missing rank with the flight recorder.", WRONG),
    ("followup-raise-timeout", "No, the timeout isn't the problem: a rank never joined the collective. Raising it just "
     "keeps every GPU idle longer. Keep it short and have the flight recorder dump on timeout so we see which rank is "
     "missing.", RIGHT),
    ("followup-raise-timeout", "不同意。超时不是原因，是有个rank挂了没进collective，调大只会让所有卡空等更久；应该把timeout设短，"
     "超时自动dump flight recorder，找到缺席的rank。", RIGHT),
    ("followup-raise-timeout", "Sure, the timeout is the problem here: the missing rank eventually joins, so a bigger "
     "timeout fixes it.", WRONG),
    ("followup-raise-timeout", "One rank never joins the collective, so more time changes nothing and every GPU sits "
     "idle; keep the timeout short and dump the flight recorder on timeout.", RIGHT),
    # a slow rank that would arrive is the contrast, not the claim that the missing one will
    ("followup-raise-timeout", "A slow rank would eventually arrive, but a missing rank never does, so a longer timeout "
     "only keeps the cluster idle; keep it short and dump the flight recorder on timeout.", RIGHT),
    ("followup-raise-timeout", "同意，timeout太短导致任务失败，缺席的rank迟早会来，多给点时间就行。", WRONG),
    ("followup-raise-timeout", "Short timeouts only produce false alarms. The slow rank catches up if you wait, so a "
     "longer timeout lets the job finish.", WRONG),
    ("followup-raise-timeout", "timeout, missing rank, flight recorder, dump on timeout, idle GPUs, short timeout", WRONG),

    # ---------------------------------------------------------------- followup-when-cp-pays-off
    ("followup-when-cp-pays-off", "判断标准是activation是不是瓶颈。比如70B、seq 8K、TP 4，不开CP每卡activation约46 GB，"
     "加上约39 GB的model state超过80 GB，开CP 2就放得下，这时候值。序列只有2K-4K、activation很小的时候开CP只是多了K/V通信，"
     "还把每卡的token切少了，不划算；CP也不分weight，想省model state要靠TP/PP/distributed optimizer。", RIGHT),
    ("followup-when-cp-pays-off", "CP pays off for short sequences, because it adds no communication and splits the "
     "weights, so it is the cheapest way to fit a large model. For long sequences it is a waste: the activations do not "
     "grow with sequence length, and the K/V exchange gets more expensive than attention itself as the sequence gets "
     "longer.", WRONG),
    ("followup-when-cp-pays-off", "CP is worth it only for very long context, e.g. 128K, where activations blow up even "
     "with TP 8 and recompute; it splits the sequence across ranks. At 4K the K/V exchange can't be hidden behind so "
     "little attention, so it's a waste.", RIGHT),
    ("followup-when-cp-pays-off", "序列很长、activation放不下的时候才开CP，它把序列切给几个rank；代价是ring attention要交换K/V，"
     "序列短的时候藏不住，不划算。", RIGHT),
    ("followup-when-cp-pays-off", "activation是瓶颈的时候才值得开CP，比如128k的序列；CP不切权重，只切序列，序列短时K/V通信盖不住，"
     "得不偿失。", RIGHT),
    ("followup-when-cp-pays-off", "Context parallel is worth it when the activations don't fit, which happens for long "
     "sequences; CP slices the tokens, and its K/V exchange costs something that only hides at long lengths.", RIGHT),
    # the other layouts named the cheapest at short lengths is no claim that CP pays off there
    ("followup-when-cp-pays-off", "With short sequences, plain TP and DP are the cheapest. CP is for long context where "
     "activations overflow; the ring attention K/V traffic hides behind the big attention.", RIGHT),
    ("followup-when-cp-pays-off", "CP makes sense for short sequences, since it adds no communication at all.", WRONG),
    ("followup-when-cp-pays-off", "Use CP to fit big models: it splits the weights across ranks, and activations don't "
     "grow with sequence length, so long sequences are not the point.", WRONG),
    ("followup-when-cp-pays-off", "序列短的时候开CP最划算，因为CP不增加通信，激活也不随序列长度增长。", WRONG),
    ("followup-when-cp-pays-off", "long sequences, activations, ring attention, K/V, short sequences, waste, DP x CP", WRONG),

    # ---------------------------------------------------------------- followup-why-not-bigger-tp
    ("followup-why-not-bigger-tp", "因为TP的通信最重最频繁，每层4次同步all-reduce，只能走NVLink。机器是8卡，TP 16就得让这些"
     "all-reduce走IB，带宽差约9倍，step time会被通信拖垮；PP的通信量小得多，跨机没问题，多几个stage的代价只是bubble，可以控制。",
     RIGHT),
    # the answer to another follow-up (why TP stays in the node): it never says that TP 16 leaves the node
    ("followup-why-not-bigger-tp", "Because TP's communication is the heaviest and sits on the critical path. TP splits "
     "every layer's GEMMs, so each layer needs two all-reduces in forward and two in backward (reduce-scatter/all-gather "
     "with SP), and the next op waits for each one. The volume is a full activation per all-reduce, every layer, every "
     "micro-batch. For a 70B layer (h 8192) at seq 4096 that is 4096 x 8192 x 2 bytes = 67 MB; an 8-way ring moves "
     "about 1.75 x that, ~117 MB per GPU: ~0.26 ms at NVLink's ~450 GB/s per direction but ~2.3 ms over a 50 GB/s NDR "
     "NIC. Times 4 per layer and 80 layers, that is ~85 ms versus ~0.75 s per micro-batch, comparable to the compute "
     "itself. NVLink is about 9x the per-GPU IB bandwidth, and a node has 8 GPUs, so TP ≤ 8, inside the node; PP and DP, "
     "which communicate far less often, go across nodes.", WRONG),
    ("followup-why-not-bigger-tp", "TP 16 would have to reach into a second node, so every layer's all-reduce goes over "
     "IB, roughly 9x slower than NVLink. PP across nodes is fine since it only passes activations.", RIGHT),
    ("followup-why-not-bigger-tp", "一台机器只有8张卡，TP 16就要跨机，每层的all-reduce走IB，比NVLink慢九倍左右；PP跨机没问题，"
     "只在stage边界传activation。", RIGHT),
    ("followup-why-not-bigger-tp", "TP needs fast links, so it stays at 8 inside the node, while PP and DP go across "
     "nodes.", WRONG),
    ("followup-why-not-bigger-tp", "TP 16 across two nodes is fine: IB is as fast as NVLink these days.", WRONG),
    ("followup-why-not-bigger-tp", "TP 16, two nodes, InfiniBand, NVLink, 9x, all-reduce per layer, PP, activations",
     WRONG),

    # ---------------------------------------------------------------- followup-why-tp-in-node
    ("followup-why-tp-in-node", "TP = 2 AR fwd + 2 AR bwd per layer (RS/AG w/ SP), blocking, full activation each, every "
     "layer x every mb. e.g. 70B, s4096, h8192 -> 67 MB/AR, ring x1.75 -> ~117 MB/GPU: ~0.26 ms on NVL (~450 GB/s/dir) "
     "vs ~2.3 ms on NDR (~50 GB/s/GPU); x320 per mb -> ~85 ms vs ~0.75 s. NVL ~9x IB, node = 8 GPUs -> TP <= 8. PP/DP "
     "(rare, overlappable) go inter-node.", RIGHT),
    ("followup-why-tp-in-node", "tensor parallel, all-reduce per layer, critical path, NVLink 900 GB/s, InfiniBand 400 "
     "Gb/s, 8 GPUs per node, sequence parallel, reduce-scatter, all-gather.", WRONG),
    ("followup-why-tp-in-node", "TP syncs with all-reduces inside every layer, fwd and bwd, on the critical path; NVL is "
     "~9x faster than IB, and a node has only 8 GPUs on NVLink, so TP <= 8.", RIGHT),
    ("followup-why-tp-in-node", "TP每层前向反向都要all-reduce，在关键路径上；NVLink比IB快九倍左右，一台机器就8张卡，所以TP最多8。", RIGHT),
    ("followup-why-tp-in-node", "TP: 4 all-reduces per layer, blocking -> needs NVLink (900 GB/s) not IB (50); 8 GPUs per "
     "node -> TP <= 8.", RIGHT),
    ("followup-why-tp-in-node", "tensor parallel, all-reduce per layer, critical path, NVLink 450 GB/s, IB 400 Gb/s, 8 GPUs "
     "per node, SP", WRONG),
    ("followup-why-tp-in-node", "TP only does one all-reduce at the end of each step, and NVLink 900 GB/s is just nicer "
     "to have.", WRONG),

    # ---------------------------------------------------------------- followup-nvidia-smi
    ("followup-nvidia-smi", "nvidia-smi util = % of sample time w/ >=1 kernel resident; says nothing about SM/TC usage. "
     "100% w/ tiny launch-bound kernels, memory-bound elementwise, NCCL kernels spinning on a late peer. MFU = tok/s x "
     "6N / (GPUs x 989T BF16 dense) -> only useful matmul FLOPs count. use profiler, not nvidia-smi.", RIGHT),
    ("followup-nvidia-smi", "nvidia-smi util is only the fraction of sample time with at least one kernel resident, not "
     "SM or tensor-core usage; tiny memory-bound kernels show 100%. MFU, useful model FLOPs over peak, is what to "
     "trust.", RIGHT),
    ("followup-nvidia-smi", "nvidia-smi的利用率只是采样时间里有没有kernel在跑，一个小kernel也算100%，不代表tensor core在忙；要看MFU，"
     "也就是有效FLOPs对比峰值。", RIGHT),
    ("followup-nvidia-smi", "nvidia-smi at 100% means the tensor cores are fully used, so the MFU formula must be "
     "wrong.", WRONG),
    ("followup-nvidia-smi", "nvidia-smi, utilization, sample time, kernel, tensor cores, MFU, peak FLOPs, profiler", WRONG),

    # ---------------------------------------------------------------- followup-why-not-fsdp
    ("followup-why-not-fsdp", "fits != fast. pure FSDP: DP = #GPUs -> GBS >= #GPUs x 1 seq (8K GPUs x 8K = 64M tok, way "
     "past target); at 16M tok GBS you'd have <1 seq/GPU. per-layer AG fwd+bwd + RS grads (~1.5x DDP) over IB, hides "
     "only w/ >~2.5K tok/GPU on H100. no activation sharding -> long seq still whole per GPU. TP8 on NVL + PP across "
     "nodes shrink per-GPU weights/acts, DP -> ~64, many seqs per DP rank. small model / few nodes -> FSDP alone is "
     "fine.", RIGHT),
    ("followup-why-not-fsdp", "pure FSDP -> DP = all GPUs; GBS / 8K ranks = too few tok per GPU to hide the per-layer AG "
     "over IB (~1.5x DDP). TP+PP cut DP. small model -> FSDP fine.", RIGHT),
    ("followup-why-not-fsdp", "纯FSDP的话每张卡都是DP rank，GBS分到几千张卡上每卡token太少，藏不住每层跨机all-gather权重的通信；"
     "TP和PP把DP降下来。", RIGHT),
    ("followup-why-not-fsdp", "FSDP, GBS, tokens per GPU, all-gather, IB, 1.5x DDP, HSDP", WRONG),

    # ---------------------------------------------------------------- followup-why-not-more-pp
    ("followup-why-not-more-pp", "pipeline bubble, (p-1)/m, m ≥ 4p, smallest p that fits, global batch, micro-batches, "
     "send/recv, stage balance, TP on NVLink, DP.", WRONG),
    ("followup-why-not-more-pp", "smallest p that fits; more p buys only unneeded memory. bubble = (p-1)/m: 2x PP + 1/2 "
     "TP -> DP same -> m same -> bubble ~2x (p8->16 @ m32: 22%->47%), m>=4p broken unless GBS 2x; also loses cheap NVL "
     "TP, 2x per-GPU weights/acts per layer. 2x PP + 1/2 DP -> m 2x, bubble ratio ~same, but half the layers/stage -> "
     "fixed p2p + schedule overhead 2x share, harder stage balance (emb/LM head). no upside.", RIGHT),
    ("followup-why-not-more-pp", "Doubling p at a fixed GBS keeps m the same, so (p-1)/m roughly doubles; stage 1 still "
     "holds p micro-batches of activations, so memory barely improves.", RIGHT),
    ("followup-why-not-more-pp", "PP翻倍而GBS不变，m不变，bubble就翻倍了；第一个stage还是要存p个micro-batch的activation。", RIGHT),
    ("followup-why-not-more-pp", "2x PP at fixed GBS: m same, bubble ~2x; halving DP only gets m back.", RIGHT),
    ("followup-why-not-more-pp", "bubble, (p-1)/m, GBS, m, stages, p2p, balance, interleaving", WRONG),
    ("followup-why-not-more-pp", "(p-1)/m shrinks when you double PP, so more stages are free.", WRONG),
]


@pytest.mark.parametrize(("qid", "answer", "right"), CASES,
                         ids=[f"{qid}-{index}" for index, (qid, _, _) in enumerate(CASES)])
def test_a_followup_reads_the_answer_as_an_interviewer_would(qid, answer, right):
    verdict = grade(library().question(qid), answer, None)
    assert verdict.correct is right, (verdict.score, verdict.details["covered"], verdict.details["contradicted"])


# A stated wrong claim is refused as the claim it is: its point is named contradicted, not just left uncovered.
@pytest.mark.parametrize(("qid", "answer", "contradicted"), [
    ("followup-raise-timeout", "The timeout is the cause of the failure; just raise it.", "not-the-cause"),
    ("followup-raise-timeout", "The absent rank eventually joins, so waiting longer is enough.", "not-the-cause"),
    ("followup-raise-timeout", "A larger timeout lets the job recover on its own.", "not-the-cause"),
    ("followup-raise-timeout", "I think that keeping the timeout short only creates false failures.", "shorter-and-dump"),
    ("followup-when-cp-pays-off", "CP pays off for short sequences.", "short-waste"),
    ("followup-when-cp-pays-off", "CP adds no communication.", "kv-exchange"),
    ("followup-when-cp-pays-off", "The activations do not grow with sequence length.", "long-sequences"),
    ("followup-when-cp-pays-off", "CP splits the weights across the ranks.", "same-weights"),
    ("followup-when-cp-pays-off", "序列短的时候开CP最划算。", "short-waste"),
    ("followup-why-not-bigger-tp", "TP 16 across nodes is no problem.", "leaves-nvlink"),
    ("followup-why-not-bigger-tp", "InfiniBand is as fast as NVLink.", "leaves-nvlink"),
])
def test_a_stated_wrong_claim_is_named(qid, answer, contradicted):
    verdict = grade(library().question(qid), answer, None)
    assert not verdict.correct and contradicted in verdict.details["contradicted"], verdict.details


# The other way round the same words state the point: a denied contradiction, or PP's crossing of nodes.
@pytest.mark.parametrize(("qid", "answer", "point"), [
    ("followup-when-cp-pays-off", "CP也不分weight。", "same-weights"),
    ("followup-when-cp-pays-off", "CP does not pay off for short sequences.", "short-waste"),
    ("followup-raise-timeout", "The timeout is not the cause: one rank never joins the collective.", "not-the-cause"),
])
def test_a_denied_contradiction_states_the_point(qid, answer, point):
    verdict = grade(library().question(qid), answer, None)
    assert point in verdict.details["covered"] and not verdict.details["contradicted"], verdict.details


def test_pp_crossing_nodes_is_no_contradiction_of_tp():
    verdict = grade(library().question("followup-why-not-bigger-tp"), "PP的通信量小得多，跨机没问题。", None)
    assert not verdict.details["contradicted"], verdict.details
