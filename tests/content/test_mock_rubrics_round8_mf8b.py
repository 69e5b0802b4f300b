"""Follow-ups, eighth round (2026-12-04, session 36): each idea a strong candidate may say in words the rubric did
not hold, written as other candidates would say it (terse, spoken, an analogy, a counterfactual, English and
Chinese, Chinese with and without spaces around English terms), beside the near misses that must still fail (the
idea negated, the wrong cause, the point turned round). Written by hand, none from the labelled benchmark.

Each case: (scenario id, point id, answer, counted): whether the answer states the point and does not contradict
it. The ideas:
- CP's split said by what it does to "that", the activations just named ("CP 2 halves that");
- CP at a short sequence: the activations fit without it, or its traffic is paid for nothing (白买);
- FSDP's global batch said by what each GPU only gets ("a GPU only gets ~2K tokens");
- FSDP's backward re-gather said "再 gather 一次", which is the point, not a gather once per step;
- FSDP's per-GPU traffic said to shrink with the GPU count, or its batch to put no limit on the DP ranks: wrong;
- m ≥ 4p's cap said as what more micro-batches would need ("past 4p you'd need a bigger global batch");
- the quarter at m = 4p worked out for a p other than 8 (15/64 ≈ 23%), and interleaving by where it brings the bubble;
- a doubled pipeline named with the share its bubble reaches ("32 stages ... it's 31/64").
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

SAID, NOT = True, False
CP, FSDP = "followup-when-cp-pays-off", "followup-why-not-fsdp"
M4P, PP = "followup-why-m-4p", "followup-why-not-more-pp"

CASES = [
    # CP's split said of the activations by a pronoun
    (CP, "divides-sequence", "Activations are 46 GB at 8K; CP 2 halves that.", SAID),
    (CP, "divides-sequence", "That's 46 GB of activations, and CP 4 quarters it.", SAID),
    (CP, "divides-sequence", "46 GB won't fit, so CP 2 brings that down to 23.", SAID),
    (CP, "divides-sequence", "Activations blow past HBM; CP cuts them to a half per rank.", SAID),
    (CP, "divides-sequence", "The activations were the problem, and CP divides them by the CP degree.", SAID),
    (CP, "divides-sequence", "Think of it like splitting a long scroll between readers: CP halves it per GPU.", SAID),
    (CP, "divides-sequence", "Activations were 46 GB; with CP 2 it halves that to about 23 GB.", SAID),
    (CP, "divides-sequence", "Activations are about 46 GB. Context parallel cuts that to 23 GB.", SAID),
    # ... near misses: the split undone, or the weights split instead
    (CP, "divides-sequence", "Activations are 46 GB, and CP doesn't halve that.", NOT),
    (CP, "divides-sequence", "CP splits the weights, so each GPU holds half of them.", NOT),
    (CP, "divides-sequence", "Activations are 46 GB; recomputation halves that.", NOT),
    (CP, "divides-sequence", "CP 2 doubles that.", NOT),
    # CP at a short sequence: it fits without CP, or CP is bought for nothing
    (CP, "short-waste", "At 4K it already fits, CP is pure overhead.", SAID),
    (CP, "short-waste", "At 4K the layout fits without CP.", SAID),
    (CP, "short-waste", "At 4K it fits anyway, so CP is pointless.", SAID),
    (CP, "short-waste", "For short sequences it already fits; CP there buys nothing.", SAID),
    (CP, "short-waste", "4K 的任务开 CP 就是白买通信。", SAID),
    (CP, "short-waste", "4K的任务开CP就是白买。", SAID),
    (CP, "short-waste", "序列短的时候，不开 CP 也放得下。", SAID),
    (CP, "short-waste", "序列短，不开cp也放得下。", SAID),
    # ... near misses: CP said to pay off when short, or bought for nothing when long
    (CP, "short-waste", "At 4K CP pays off.", NOT),
    (CP, "short-waste", "At 4K it doesn't fit without CP.", NOT),
    (CP, "short-waste", "短序列开 CP 最划算。", NOT),
    (CP, "long-sequences", "128K 的任务开 CP 就是白买。", NOT),
    # FSDP: each GPU only gets a sliver of the fixed batch
    (FSDP, "batch-limit", "At 8K GPUs with a 16M-token batch a GPU only gets ~2K tokens.", SAID),
    (FSDP, "batch-limit", "Spread the batch over 8K GPUs and each one only gets 2K tokens.", SAID),
    (FSDP, "batch-limit", "With that batch each GPU gets only a couple thousand tokens.", SAID),
    (FSDP, "batch-limit", "Divide a 16M batch by 8K ranks: each rank only gets 2K tokens, far too little.", SAID),
    (FSDP, "batch-limit", "It's like slicing one pizza for a stadium: the batch leaves each GPU with just a crumb.", SAID),
    (FSDP, "batch-limit", "global batch 是定的，卡一多每卡只分到 2K 个 token。", SAID),
    (FSDP, "batch-limit", "global batch固定，8K张卡每卡只分到2K token。", SAID),
    (FSDP, "batch-limit", "batch 分到 8K 张卡上，每张卡就剩两千个 token。", SAID),
    # ... near misses: the batch said to leave too many, or not to limit FSDP
    (FSDP, "batch-limit", "Each GPU gets too many tokens per step.", NOT),
    (FSDP, "batch-limit", "The global batch puts no limit on how many DP ranks you can use.", NOT),
    (FSDP, "batch-limit", "The global batch does not limit the number of FSDP ranks.", NOT),
    (FSDP, "batch-limit", "global batch 不限制 dp 数，卡越多越好。", NOT),
    (FSDP, "batch-limit", "The batch scales with the GPU count, so FSDP has no batch problem.", NOT),
    # FSDP's backward re-gather, said with 一次 (the gather in the forward, then again)
    (FSDP, "gather-traffic", "它每一层 forward 前 all-gather 一次参数，backward 再 gather 一次。", SAID),
    (FSDP, "gather-traffic", "每一层的参数 forward 要 all gather 一次，backward 还得再 gather 一次，全走 IB。", SAID),
    (FSDP, "gather-traffic", "每一层forward先all gather一次参数，backward再gather一次。", SAID),
    (FSDP, "gather-traffic", "FSDP re-gathers every layer's weights in backward, after gathering them once in forward.",
     SAID),
    (FSDP, "gather-traffic", "Every layer's weights get all-gathered in forward and again in backward, across nodes.",
     SAID),
    (FSDP, "gather-traffic", "FSDP's all-gathers cross nodes in every layer, forward and backward.", SAID),
    (FSDP, "gather-traffic", "Each GPU pulls the rest of every layer's params over IB, twice a step.", SAID),
    (FSDP, "gather-traffic", "That volume doesn't shrink as you add GPUs: FSDP gathers every layer's weights.", SAID),
    # ... near misses: the gather made once per step, or the per-GPU traffic said to fall with the GPU count
    (FSDP, "gather-traffic", "参数只在 step 开始 gather 一次。", NOT),
    (FSDP, "gather-traffic", "FSDP 一共 gather 一次参数就够了。", NOT),
    (FSDP, "gather-traffic", "FSDP gathers the weights once per step.", NOT),
    (FSDP, "gather-traffic", "FSDP gathers every layer's weights, but each GPU only moves its own 1/N shard.", NOT),
    (FSDP, "gather-traffic", "FSDP gathers every layer's weights, and per-GPU traffic shrinks as you add GPUs.", NOT),
    (FSDP, "gather-traffic", "FSDP 每层都要 all gather 参数，但卡越多每卡通信越少。", NOT),
    # m's cap said as what more micro-batches would need
    (M4P, "batch-limit", "Going past 4p keeps helping, but it needs a bigger global batch.", SAID),
    (M4P, "batch-limit", "Past 4p you'd need a bigger batch.", SAID),
    (M4P, "batch-limit", "More micro-batches would need a larger global batch, which convergence fixes.", SAID),
    (M4P, "batch-limit", "Sure, m = 8p is nicer, but that requires a bigger global batch.", SAID),
    (M4P, "batch-limit", "Counterfactual: m = 16p, and the step would need a larger batch than convergence allows.", SAID),
    (M4P, "batch-limit", "Like adding carriages to a train: each one needs a bigger batch behind it.", SAID),
    (M4P, "batch-limit", "m 再大就得加大 global batch。", SAID),
    (M4P, "batch-limit", "m再多就得加大global batch。", SAID),
    # ... near misses: the bigger batch advised, or m said to be free of it
    (M4P, "batch-limit", "When m is too small, just use a bigger global batch.", NOT),
    (M4P, "batch-limit", "The fix is to raise the global batch.", NOT),
    (M4P, "batch-limit", "The global batch doesn't limit m, add as many micro-batches as you like.", NOT),
    (M4P, "batch-limit", "m 越大越好，没有上限。", NOT),
    (M4P, "batch-limit", "m 太小就加大 global batch。", NOT),
    # the quarter at m = 4p worked for another p; interleaving by where it brings the bubble
    (M4P, "quarter", "With m = 64 (4p) it's 15/64 ≈ 23%.", SAID),
    (M4P, "quarter", "p = 16, m = 64: the bubble is 15/64, just under a quarter.", SAID),
    (M4P, "quarter", "For p = 32 at 4p that's 31/128, about 24%.", SAID),
    (M4P, "quarter", "p = 4 and m = 16 gives 3/16 or about 19% idle.", SAID),
    (M4P, "quarter", "Take p = 16 and m = 64: 15/64 of the step is about 23%.", SAID),
    (M4P, "quarter", "p = 16 时 m = 64，bubble 是 15/64 ≈ 23%。", SAID),
    (M4P, "quarter", "p=16，m=64，bubble就是15/64≈23%。", SAID),
    (M4P, "interleave", "Interleaved 1F1B with v = 4 brings it down to ~6%.", SAID),
    (M4P, "interleave", "Interleaving with v = 2 brings it down to about 12%.", SAID),
    (M4P, "interleave", "Virtual stages shrink it by v.", SAID),
    (M4P, "interleave", "交错把 bubble 降到 6%。", SAID),
    # ... near misses: interleaving said to grow it, or the quarter's share wrong
    (M4P, "interleave", "Interleaving brings the bubble to twice its size.", NOT),
    (M4P, "interleave", "Interleaving doubles the bubble.", NOT),
    (M4P, "interleave", "交错会让 bubble 翻倍。", NOT),
    (M4P, "quarter", "With m = 4p the bubble is above a quarter.", NOT),
    (M4P, "quarter", "With p = 16 and m = 64 the bubble is 15/64, only about 4%.", NOT),
    (M4P, "quarter", "p = 16、m = 64 时 bubble 是 15/64，也就 3% 左右。", NOT),
    # a doubled pipeline with the share its bubble reaches
    (PP, "bubble-grows", "Go to 32 stages with the same m and it's 31/64.", SAID),
    (PP, "bubble-grows", "PP 32 with m = 64 is 31/64, nearly half.", SAID),
    (PP, "bubble-grows", "Double the stages and you're at 31/64.", SAID),
    (PP, "bubble-grows", "Doubling PP at m = 64: 31/64, about 48%.", SAID),
    (PP, "bubble-grows", "Every extra station adds fill and drain time where stations stand idle.", SAID),
    (PP, "bubble-grows", "Each added stage makes the fill and drain longer.", SAID),
    (PP, "bubble-grows", "PP 翻到 32，就是 31/64，快一半了。", SAID),
    (PP, "bubble-grows", "pp翻倍到32个stage，就是31/64。", SAID),
    # ... near misses: the bubble said to stay, or to shrink
    (PP, "bubble-grows", "Every extra stage doesn't add any idle time.", NOT),
    (PP, "bubble-grows", "The bubble stays at 15/64, about 23%.", NOT),
    (PP, "bubble-grows", "bubble 还是 15/64，没变。", NOT),
    (PP, "bubble-grows", "With 32 stages the bubble is still 15/64.", NOT),
]


@pytest.mark.parametrize(("qid", "point", "answer", "counted"), CASES)
def test_an_idea_in_other_words(qid, point, answer, counted):
    verdict = grade(library().question(qid), answer, None, 0)
    assert (point in verdict.details["covered"]) is counted, verdict.details


# Whole answers: a right one in each idea's words, and the same answer turned wrong.
ANSWERS = [
    (CP, "Activations grow with the sequence; at 128K they don't fit even with TP 8, and CP 4 quarters that. The K/V "
         "exchange has to hide behind attention; at 4K it fits without CP, so CP is pure overhead.", True),
    (CP, "Activations don't grow with the sequence; CP splits the weights, and at 4K CP pays off.", False),
    (FSDP, "FSDP re-gathers every layer's weights in forward and backward over IB, and with a 16M batch over 8K GPUs "
           "each GPU only gets 2K tokens, too little to hide it. TP and PP shrink DP.", True),
    (FSDP, "Each GPU only moves its own 1/N shard, so per-GPU traffic shrinks as you add GPUs, and the global batch "
           "puts no limit on how many DP ranks you can use.", False),
    (M4P, "The bubble is (p-1)/m. With p = 16 and m = 64 it's 15/64 ≈ 23%, interleaving brings it down by v, and "
          "going past 4p needs a bigger global batch.", True),
    (M4P, "The bubble is (p-1)/m, but at m = 4p it is above a quarter, and when m is too small just use a bigger "
          "global batch.", False),
]


@pytest.mark.parametrize(("qid", "answer", "right"), ANSWERS)
def test_whole_answers(qid, answer, right):
    verdict = grade(library().question(qid), answer, None, 0)
    assert verdict.correct is right, (verdict.score, verdict.details)
