"""The follow-ups (interview/followups.yaml, interview/followups-tradeoffs.yaml) after the ninth
labelled batch's tuning misses: fluent wrong answers with the right words and a wrong number, cause
or fix, refused for that reason (a contradiction) or because a point credited a word, not the claim;
and strong answers the rubric refused. Each fix with the answer that showed it and answers written for
this file (paraphrases, Chinese, shorthand, and a right answer that names the wrong claim to deny it):

- followup-when-cp-pays-off: "CP is cheapest at short sequences" and "a waste at 128K" say the
  condition the wrong way round.
- followup-moving-hang: "a different rank each time means a race" is a branch of the method, not the
  verdict; "the NCCL watchdog default timeout is 30 minutes", "the heartbeat kicks in after 10 s" are
  wrong figures (10 minutes, 480 s; 30 minutes is gloo's).
- followup-raise-timeout: the same defaults swapped.
- followup-nvidia-smi: MFU counted with 2 x params (the forward pass alone); the gap all put on
  communication.
- followup-why-m-4p: "interleaved 1F1B v = 4", "< 25%" in a run of terms are names and numbers, not
  claims.
- followup-why-tp-in-node: "跨机走IB，每卡50GB/s，慢约9倍" states the gap; "下一个GEMM要等它做完" the
  stall.
- followup-why-not-bigger-tp: "NVLink and InfiniBand are both around 450 GB/s", "--tp-comm-overlap
  hides it completely, so TP 16 costs nothing".
- followup-why-not-fsdp: "run TP 8 across nodes on IB" is the cure the wrong way round.
- followup-why-not-more-pp: "with the same number of micro-batches" is the premise, not what fixes m.

Each case: (question id, answer, right).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade



RIGHT, WRONG = True, False
CP, HANG, TIMEOUT, SMI = "followup-when-cp-pays-off", "followup-moving-hang", "followup-raise-timeout", "followup-nvidia-smi"
M4P, TP_NODE, TP16 = "followup-why-m-4p", "followup-why-tp-in-node", "followup-why-not-bigger-tp"
FSDP, MORE_PP = "followup-why-not-fsdp", "followup-why-not-more-pp"

CASES = [
    # labelled (tuning)
    (CP, "CP splits activations along the sequence, so it helps with long context. But the K/V exchange grows with s² "
     "while attention compute grows with s, so CP is cheapest at short sequences like 2K-4K and becomes a waste at "
     "128K, where the communication can't be hidden; for long context use a bigger TP instead.", WRONG),
    # written here
    (CP, "CP splits the sequence across ranks, so it is most efficient at short sequences, where there is little to "
     "exchange.", WRONG),
    (CP, "CP 把序列切开，长序列的时候开 CP 反而不划算，浪费。", WRONG),
    (CP, "CP pays off for long sequences, when activations don't fit even with TP 8 and recompute: it splits the "
     "sequence, each rank keeps s/CP. The price is the K/V exchange (ring attention), which hides behind attention at "
     "128K; it is not a waste there, only at short sequences, where it can't hide.", RIGHT),
    (CP, "CP is a waste for short sequences and pays off for long context, when activations don't fit: it splits the "
     "sequence, and the K/V exchange must hide behind attention.", RIGHT),
    # labelled (tuning)
    (HANG, "I wouldn't start by bisecting the code around one step, because a code bug like a collective inside `if rank "
     "== 0` or a long batch that OOMs would hit the same step every run with the same data order. A moving hang points "
     "to something intermittent. I'd keep the flight recorder on (TORCH_NCCL_TRACE_BUFFER_SIZE=2000, DUMP_ON_TIMEOUT) "
     "and compare the missing rank across several hangs: the same host again and again means a flaky GPU, NIC or "
     "cable, confirmed with Xid logs, IB error counters and nccl-tests, then cordoned; a different rank each time "
     "means a race or a data-dependent collective, found with TORCH_DISTRIBUTED_DEBUG=DETAIL.", RIGHT),
    (HANG, "A moving hang is more likely hardware or network than code, so I'd use the flight recorder and "
     "NCCL_DEBUG=INFO. Note the NCCL watchdog default timeout is 30 minutes and the heartbeat monitor kicks in after 10 "
     "seconds, so I'd lower the timeout to 1 minute to catch it before the hardware recovers, and read which rank is "
     "missing.", WRONG),
    # written here
    (HANG, "多半是硬件或网络，不是代码。NCCL 默认超时是 30 分钟，所以先用 flight recorder 找缺席的 rank，对应到机器，看是不是同一台。", WRONG),
    (HANG, "A moving hang probably means a flaky node or link, not code. PyTorch's NCCL default timeout is 10 minutes, "
     "not 30 minutes; with the flight recorder dumping on timeout I find the missing rank, map it to its node and look "
     "for the same node across runs, run nccl-tests on node pairs, then drain it.", RIGHT),
    (HANG, "It's probably a bug in our code, a race between ranks.", WRONG),
    # labelled (tuning)
    (TIMEOUT, "I'd say no: the timeout is our detector. Raising it also delays the flight recorder, which dumps every "
     "rank's recent collectives on timeout. The NCCL default is 30 minutes already and the gloo default 10 minutes, so "
     "we should keep NCCL's 30 and find the missing rank with py-spy dump.", WRONG),
    # written here
    (TIMEOUT, "No: the timeout is not the cause, a rank is missing and a longer timeout only waits longer. Keep it "
     "short: NCCL's default is 10 minutes (gloo's is 30), and dump the flight recorder on timeout, then fix the rank.",
     RIGHT),
    (TIMEOUT, "No, the timeout is not the cause: a rank is missing, and a longer timeout only waits longer. Keep it short, "
     "NCCL at 10 minutes and gloo at 30 minutes by default, and dump the flight recorder on timeout.", RIGHT),
    (TIMEOUT, "不行，timeout 不是病因，调大只会等更久。gloo 默认 10 分钟，超时时 dump flight recorder 就够了。", WRONG),
    # labelled (tuning)
    (SMI, "nvidia-smi only reports that some kernel is running, so small kernels or NCCL waiting show 100%. MFU is "
     "tokens/s x 2 x params divided by the GPUs' peak, so a training job at 100% utilization and, say, 30% MFU is "
     "wasting the rest on communication. The fix is to look at a profiler trace.", WRONG),
    # written here
    (SMI, "Utilization is the share of time some kernel ran, so tiny kernels read 100%. MFU counts 2N FLOPs per token "
     "against the peak.", WRONG),
    (SMI, "Utilization is the share of time some kernel was running, not how much of the GPU it used: tiny or "
     "memory-bound kernels show 100% while the tensor cores idle. MFU counts model FLOPs, 6N per token (2N forward, "
     "4N backward), against the peak; trust that and read a trace.", RIGHT),
    (SMI, "利用率只是有 kernel 在跑的时间占比，小 kernel 也显示 100%。MFU 拿模型 flops 对比峰值，剩下的都浪费在通信上。", WRONG),
    # labelled (tuning)
    (M4P, "pipeline bubble (p−1)/m, m ≥ 4p, < 25%, p = 16 m = 64 → 23%, interleaved 1F1B v = 4 → 6%, fill and drain, "
     "at most p micro-batches in flight, m = B/(b·d).", WRONG),
    # written here
    (M4P, "The 1F1B bubble is (p − 1)/m, so it shrinks as m grows; at m = 4p it is under a quarter of the step. "
     "Interleaving with v chunks divides it by v, and the global batch caps m.", RIGHT),
    (M4P, "bubble 是 (p-1)/m，m 越大越小；m = 4p 时 bubble 不到四分之一。interleave 以后再除以 v。", RIGHT),
    # labelled (tuning)
    (TP_NODE, "TP把每一层的矩阵乘切开，每层forward两次、backward两次all-reduce，都是同步的，下一个GEMM要等它做完，通信量大约每层每个"
     "micro-batch 8bsh(t-1)/t字节。机内走NVLink，H100每卡双向900GB/s；跨机走IB，每卡400Gb/s即50GB/s，慢约9倍。一台机器8张卡，"
     "所以TP≤8。PP只在段边界传一次activation，DP每个step同步一次gradient还能藏在backward后面，它们走IB也来得及，所以放跨机。",
     RIGHT),
    # written here
    (TP_NODE, "TP all-reduces inside every layer, forward and backward, and the next GEMM has to wait for each one. "
     "Between nodes the link is about 9 times slower than NVLink, and a node has 8 GPUs, so TP is at most 8.", RIGHT),
    # labelled (tuning)
    (TP16, "TP 16 would cross the node boundary, but that's fine bandwidth-wise since NVLink and InfiniBand NDR are both "
     "around 400-450 GB/s per GPU. The real reason not to is memory: TP 16 replicates the optimizer state 16 times, so "
     "per-GPU memory would go up, not down.", WRONG),
    (TP16, "TP has to stay on NVLink, 900 GB/s per GPU, versus 50 GB/s per GPU on IB, so TP 16 across two nodes would "
     "be ~9x slower for the 4 all-reduces per layer. To make PP smaller anyway, I'd use TP 16 with --tp-comm-overlap, "
     "which hides the inter-node TP traffic behind the GEMMs completely, so TP 16 costs nothing extra.", WRONG),
    # written here
    (TP16, "NVLink 和 IB 带宽差不多，所以 TP 16 跨两台机器、每层的 all-reduce 走 IB 也行。", WRONG),
    (TP16, "TP 16 spans two nodes, so its per-layer all-reduces leave NVLink for InfiniBand, about nine times slower "
     "per GPU. NVLink and InfiniBand are not about the same, and even --tp-comm-overlap cannot hide that completely: "
     "the GEMMs are shorter than the all-reduce.", RIGHT),
    # labelled (tuning)
    (FSDP, "FSDP at thousands of GPUs all-gathers every layer twice a step over IB and runs short of tokens per GPU, "
     "so it goes communication-bound. The answer is to keep FSDP but put its shards inside a node and run TP 8 across "
     "nodes on IB, since TP's all-reduces are smaller than FSDP's all-gathers.", WRONG),
    (FSDP, "fits != fast. pure FSDP: DP = #GPUs -> GBS >= #GPUs x 1 seq (8K GPUs x 8K = 64M tok, way past target); at "
     "16M tok GBS you'd have <1 seq/GPU. per-layer AG fwd+bwd + RS grads (~1.5x DDP) over IB, hides only w/ >~2.5K "
     "tok/GPU on H100. no activation sharding -> long seq still whole per GPU. TP8 on NVL + PP across nodes shrink "
     "per-GPU weights/acts, DP -> ~64, many seqs per DP rank. small model / few nodes -> FSDP alone is fine.", RIGHT),
    # written here
    (FSDP, "所有卡都做FSDP，global batch分到每卡的token太少；每层weight都要跨机all-gather。办法是FSDP放机内，把TP放到跨机走IB。", WRONG),
    (FSDP, "FSDP over every GPU makes each a DP rank, so the global batch leaves too few tokens per GPU, and it "
     "all-gathers every layer's weights across nodes over IB. TP 8 stays inside the node and PP goes across nodes, "
     "which cuts the DP degree; I would not run TP across nodes. For a small model FSDP or HSDP is fine.", RIGHT),
    # labelled (tuning)
    (MORE_PP, "Doubling PP with the same number of micro-batches roughly doubles the pipeline bubble, since it's about "
     "(p−1)/m; to keep m ≥ 4p you'd need twice as many micro-batches, which means a bigger global batch.", WRONG),
    (MORE_PP, "smallest p that fits; more p buys only unneeded memory. bubble = (p-1)/m: 2x PP + 1/2 TP -> DP same -> m "
     "same -> bubble ~2x (p8->16 @ m32: 22%->47%), m>=4p broken unless GBS 2x; also loses cheap NVL TP, 2x per-GPU "
     "weights/acts per layer. 2x PP + 1/2 DP -> m 2x, bubble ratio ~same, but half the layers/stage -> fixed p2p + "
     "schedule overhead 2x share, harder stage balance (emb/LM head). no upside.", RIGHT),
]


@pytest.mark.parametrize(("qid", "answer", "right"), CASES)
def test_followups_are_graded_as_an_interviewer_would(qid, answer, right):
    verdict = grade(library().question(qid), answer, None)
    assert verdict.correct is right, (verdict.score, verdict.details["covered"], verdict.details.get("contradicted"))


@pytest.mark.parametrize(("qid", "answer", "point"), [
    (TIMEOUT, "Keep it short and dump the flight recorder on timeout; the NCCL default is 30 minutes already.",
     "shorter-and-dump"),
    (TP16, "TP 16 spans two nodes over IB, nine times slower; --tp-comm-overlap hides that completely.", "slower-link"),
    (FSDP, "Keep FSDP inside the node and run TP 8 across nodes on IB.", "when-fsdp-wins"),
])
def test_the_wrong_claim_is_named(qid, answer, point):
    verdict = grade(library().question(qid), answer, None)
    assert point in verdict.details["contradicted"], verdict.details
