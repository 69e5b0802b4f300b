"""Follow-ups, seventh round (2026-12-04, session 36): each idea a strong candidate may say in words the rubric did
not hold, written as other candidates would say it (terse, spoken, an analogy, a counterfactual, English and
Chinese, Chinese with and without spaces around English terms), beside the near misses that must still fail (the
idea negated, the wrong cause, the point turned round). Written by hand, none from the labelled benchmark.

Each case: (scenario id, point id, answer, counted): whether the answer states the point and does not contradict
it. The ideas:
- the colleague's raise said as a supposition with its outcome ("raise it to an hour and the job still dies");
- TP stretched across nodes as a supposition ("stretch TP across nodes and every layer stalls");
- FSDP's global batch said through what it cannot give each GPU ("won't let you give each GPU enough tokens");
- FSDP's gathers said by what a GPU does with its shard ("owns 1/N of each layer and pulls the rest");
- CP's long sequences judged in other words ("at 128K it's a clear win"), or the overflow said by the 80 GB;
- CP's short sequences by the traffic that shows ("at 4K the chunks are tiny, the comm shows");
- a doubled PP's bubble by its worked share (31/64 ≈ 48%, "close to half the step").
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

SAID, NOT = True, False
TIMEOUT, NODE, FSDP = "followup-raise-timeout", "followup-why-tp-in-node", "followup-why-not-fsdp"
CP, PP = "followup-when-cp-pays-off", "followup-why-not-more-pp"

CASES = [
    # the raise supposed, with what it brings: the timeout is not the fault
    (TIMEOUT, "not-the-cause", "Raise it to an hour and the job still dies, just an hour later.", SAID),
    (TIMEOUT, "not-the-cause", "Bump it to two hours and you just wait two hours for a rank that never shows up.", SAID),
    (TIMEOUT, "not-the-cause", "Double it and all you get is a longer hang.", SAID),
    (TIMEOUT, "not-the-cause", "Set it to three hours and the stuck rank is still stuck.", SAID),
    (TIMEOUT, "not-the-cause", "Make it 60 minutes and the missing rank still never arrives; we only find out later.",
     SAID),
    (TIMEOUT, "not-the-cause", "So raise it to a day and that's a day of idle GPUs, and a missing rank still never "
                               "shows up.", SAID),
    (TIMEOUT, "not-the-cause", "把 timeout 调到两小时，还是会 hang，只是晚两小时才报错。", SAID),
    (TIMEOUT, "not-the-cause", "把timeout调到两小时，照样hang，只是晚点报错。", SAID),
    (TIMEOUT, "not-the-cause", "It's like turning the smoke alarm's delay up: raise it to an hour and the job still "
                               "fails an hour later.", SAID),
    # ... near misses: the raise advised, or advised beside another imperative
    (TIMEOUT, "not-the-cause", "Just raise it to an hour and the job will get through; a missing rank never shows up "
                               "anyway.", NOT),
    (TIMEOUT, "not-the-cause", "Sure, raise it to an hour. A missing rank never shows up, but it's fine.", NOT),
    (TIMEOUT, "not-the-cause", "Raise it to an hour and dump the flight recorder if it still fails.", NOT),
    (TIMEOUT, "not-the-cause", "Raise it to two hours; the absent rank will arrive eventually.", NOT),
    (TIMEOUT, "not-the-cause", "Raising it is fine as long as we dump the flight recorder; a missing rank never "
                               "shows up.", NOT),
    # TP stretched across nodes, supposed: its traffic cannot hide
    (NODE, "cannot-hide", "Stretch TP across nodes and every layer stalls on InfiniBand.", SAID),
    (NODE, "cannot-hide", "Spread TP across nodes and those per-layer all-reduces are exposed.", SAID),
    (NODE, "cannot-hide", "Put TP across two nodes and you stall every layer on IB.", SAID),
    (NODE, "cannot-hide", "Run the counterfactual: TP 16 across two nodes, every layer stalls on a 50 GB/s link.", SAID),
    (NODE, "cannot-hide", "Counterfactual: TP 16 across two nodes, and the next GEMM waits on IB in every layer.", SAID),
    (NODE, "cannot-hide", "Imagine TP 16 across two nodes: every all-reduce stalls the layer behind it.", SAID),
    (NODE, "cannot-hide", "Take TP to 16 across two nodes and the next GEMM waits on IB every layer.", SAID),
    (NODE, "cannot-hide", "假如 TP 16 跨两台机器，每一层的 all-reduce 都卡在 IB 上。", SAID),
    (NODE, "cannot-hide", "要是把TP开到16跨机，每层通信都藏不住。", SAID),
    # ... near misses: TP put across nodes by the speaker, or its traffic said to hide
    (NODE, "cannot-hide", "I'd stretch TP across nodes anyway; the all-reduces stall a bit but it fits.", NOT),
    (NODE, "cannot-hide", "Just stretch TP across nodes and use SHARP; the stall is small.", NOT),
    (NODE, "cannot-hide", "Stretch TP across nodes, the all-reduces stall a little but hide fully behind the GEMMs.",
     NOT),
    (NODE, "cannot-hide", "We could use TP 16 across two nodes, so the all-reduces stall less per GPU.", NOT),
    (NODE, "cannot-hide", "Stretch TP across nodes and keep PP inside the node; nothing stalls.", NOT),
    # FSDP: what the global batch cannot give each GPU
    (FSDP, "batch-limit", "The fixed global batch won't let you give each GPU enough tokens.", SAID),
    (FSDP, "batch-limit", "Thousands of ranks, and the batch can't feed them all.", SAID),
    (FSDP, "batch-limit", "The batch gets spread too thin: each GPU has a sliver.", SAID),
    (FSDP, "batch-limit", "GBS doesn't give each GPU enough work to hide the gathers.", SAID),
    (FSDP, "batch-limit", "There are not enough tokens to go round thousands of GPUs.", SAID),
    (FSDP, "batch-limit", "The tokens won't feed thousands of FSDP ranks.", SAID),
    (FSDP, "batch-limit", "global batch 不够分，几千张卡每张分到的 token 太少。", SAID),
    (FSDP, "batch-limit", "batch不够分给几千张卡。", SAID),
    (FSDP, "batch-limit", "Like one pizza for a stadium: the batch won't leave each GPU enough tokens.", SAID),
    # ... near misses: the limit denied, the cure by a bigger batch, too many tokens
    (FSDP, "batch-limit", "The batch isn't spread too thin; each GPU gets plenty.", NOT),
    (FSDP, "batch-limit", "The global batch doesn't limit FSDP; the more GPUs the better.", NOT),
    (FSDP, "batch-limit", "Just raise the global batch so every GPU gets enough tokens.", NOT),
    (FSDP, "batch-limit", "Each GPU gets too many tokens per GPU to hide anything.", NOT),
    (FSDP, "batch-limit", "Use gradient accumulation of 64 so the tokens can feed every rank.", NOT),
    # FSDP: each GPU gathers the rest of every layer
    (FSDP, "gather-traffic", "Every GPU owns 1/N of each layer and has to pull the rest from its peers.", SAID),
    (FSDP, "gather-traffic", "Each GPU unshards every layer in forward and again in backward, over IB.", SAID),
    (FSDP, "gather-traffic", "It materializes each layer's full weights from the other ranks, twice per step.", SAID),
    (FSDP, "gather-traffic", "You reassemble every layer's parameters before you can use them.", SAID),
    (FSDP, "gather-traffic", "Each rank must fetch the rest of each layer from thousands of peers.", SAID),
    (FSDP, "gather-traffic", "每一层的参数都要从别的卡拉取，forward 一次、backward 再一次。", SAID),
    (FSDP, "gather-traffic", "每层参数都得先凑齐才能算。", SAID),
    (FSDP, "gather-traffic", "每层的weight都要拼回完整的才能算。", SAID),
    # ... near misses: the gather made once per step, denied, or removed
    (FSDP, "gather-traffic", "It pulls the weights once per step, so every layer is no worse than DDP.", NOT),
    (FSDP, "gather-traffic", "FSDP never pulls any layer's weights across nodes.", NOT),
    (FSDP, "gather-traffic", "reshard_after_forward=False removes the all-gathers entirely, every layer.", NOT),
    (FSDP, "gather-traffic", "FSDP only gathers the weights once at the start of the step.", NOT),
    # FSDP: TP and PP shrink DP
    (FSDP, "when-fsdp-wins", "TP and PP make DP small enough that its sync is cheap.", SAID),
    (FSDP, "when-fsdp-wins", "TP/PP shrink DP, so each rank gets more tokens.", SAID),
    (FSDP, "when-fsdp-wins", "TP 和 PP 让 dp 降下来了。", SAID),
    (FSDP, "when-fsdp-wins", "TP and PP raise the DP degree so each rank gets more tokens.", NOT),
    # CP: long sequences judged in other words
    (CP, "long-sequences", "At 128K it's a clear win.", SAID),
    (CP, "long-sequences", "At 64K CP shines.", SAID),
    (CP, "long-sequences", "CP at 128K is essential.", SAID),
    (CP, "long-sequences", "For 128K sequences CP is a no-brainer.", SAID),
    (CP, "long-sequences", "At 128K CP earns its keep.", SAID),
    (CP, "long-sequences", "128K 上开 CP 稳赚。", SAID),
    (CP, "long-sequences", "128K时CP必开。", SAID),
    (CP, "long-sequences", "64K 以上 CP 很值。", SAID),
    # ... and the overflow said by the GPU's 80 GB
    (CP, "long-sequences", "不开 CP 时 activation 大约 46 GB，再加上 39 GB 的 model state 就超过 80 GB 了。", SAID),
    (CP, "long-sequences", "Activations take 46 GB, plus 39 GB of state is past 80 GB.", SAID),
    (CP, "long-sequences", "The activations alone exceed 80 GB without CP.", SAID),
    (CP, "long-sequences", "不开CP时activation就超过80GB。", SAID),
    (CP, "long-sequences", "Activations exceed the HBM before CP.", SAID),
    # ... near misses: the short side, the waste at length, the overflow denied or someone else's
    (CP, "long-sequences", "At 4K it's a clear win.", NOT),
    (CP, "long-sequences", "At 128K CP is a waste.", NOT),
    (CP, "long-sequences", "At 128K it's not a win.", NOT),
    (CP, "long-sequences", "Activations don't exceed 80 GB even without CP.", NOT),
    (CP, "long-sequences", "The weights take 40 GB, plus the optimizer state is over 80 GB.", NOT),
    (CP, "long-sequences", "activation 没有超过 80 GB。", NOT),
    # CP: at short sequences the traffic shows
    (CP, "short-waste", "At 4K the chunks are tiny, the comm shows.", SAID),
    (CP, "short-waste", "At 2K the communication shows in the profile.", SAID),
    (CP, "short-waste", "At 4K the traffic sticks out.", SAID),
    (CP, "short-waste", "At 8K the chunks are too small to hide anything.", SAID),
    (CP, "short-waste", "4K 的时候通信就露出来了。", SAID),
    (CP, "short-waste", "4K时chunk太小，通信藏不住。", SAID),
    (CP, "short-waste", "4K 的序列切得太碎。", SAID),
    (CP, "short-waste", "With small sequences the comm shows.", SAID),
    # ... near misses: the traffic hidden, the long side, CP called a win when short
    (CP, "short-waste", "At 4K the comm never shows.", NOT),
    (CP, "short-waste", "At 128K the comm shows.", NOT),
    (CP, "short-waste", "At 4K CP is a clear win; the comm shows a little.", NOT),
    (CP, "short-waste", "At 4K the comm doesn't show, it hides fine.", NOT),
    # PP: the doubled pipeline's bubble worked out
    (PP, "bubble-grows", "PP 翻倍、TP 减半：m 还是 64，bubble 变成 31/64 ≈ 48%。", SAID),
    (PP, "bubble-grows", "Double PP and the bubble goes from 15/64 to 31/64.", SAID),
    (PP, "bubble-grows", "At PP 32 the bubble is close to half the step.", SAID),
    (PP, "bubble-grows", "The bubble becomes nearly half of every step.", SAID),
    (PP, "bubble-grows", "With 32 stages and m still 64, the idle fraction is almost half.", SAID),
    (PP, "bubble-grows", "bubble 涨到将近一半。", SAID),
    (PP, "bubble-grows", "PP翻倍后bubble占了将近一半。", SAID),
    (PP, "bubble-grows", "空闲占比接近一半了。", SAID),
    # ... near misses: the bubble shrinking, unchanged, or the halved DP's
    (PP, "bubble-grows", "Interleaving halves the bubble.", NOT),
    (PP, "bubble-grows", "With double PP the bubble falls to 8/64.", NOT),
    (PP, "bubble-grows", "The bubble stays at 15/64, about 23%.", NOT),
    (PP, "bubble-grows", "The bubble is 31/128, the same as before.", NOT),
    (PP, "bubble-grows", "bubble 还是 15/64，没变。", NOT),
]


@pytest.mark.parametrize(("qid", "point", "answer", "counted"), CASES)
def test_an_idea_in_other_words(qid, point, answer, counted):
    verdict = grade(library().question(qid), answer, None, 0)
    assert (point in verdict.details["covered"]) is counted, verdict.details


# Whole answers: a right one in each idea's words, and the same answer turned wrong.
ANSWERS = [
    (TIMEOUT, "Raise it to an hour and that's ten times the idle GPU-hours, and a missing rank still never shows up. "
              "Keep it short and dump the flight recorder on timeout.", True),
    (TIMEOUT, "Sure, raise it to an hour and keep the flight recorder on; the missing rank usually recovers.", False),
    (NODE, "TP talks every layer, on the critical path. Stretch TP across nodes and every layer stalls on IB, about a "
           "ninth of NVLink's bandwidth.", True),
    (NODE, "TP talks every layer, but I'd stretch TP across nodes anyway: NVLink is only a bit faster than IB.", False),
    (FSDP, "Every GPU owns 1/N of each layer and pulls the rest over IB, forward and backward, and the fixed batch "
           "won't let you give each GPU enough tokens to hide that. TP and PP shrink DP.", True),
    (FSDP, "FSDP pulls the weights once per step, and the global batch doesn't limit FSDP, so it is fine.", False),
]


@pytest.mark.parametrize(("qid", "answer", "right"), ANSWERS)
def test_whole_answers(qid, answer, right):
    verdict = grade(library().question(qid), answer, None, 0)
    assert verdict.correct is right, (verdict.score, verdict.details)
