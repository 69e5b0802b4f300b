"""Design and debug rounds, seventh round (2026-12-04): each idea the grader failed to read, said the ways other
candidates say it (terse, spoken, an analogy, a counterfactual, Chinese with and without spaces around English
terms), and the near misses that must still fail (negated, the wrong thing, a symptom, the idea turned round).
Written by hand, none from the labelled benchmark.

The ideas:
- led, reliability: spare capacity kept to replace a failed node ("hot spares", "automatic node swap").
- led, clarify: the setting or the time it implies handed back to the interviewer to settle ("15T is four months, so
  we'd want to talk about that").
- pitch, memory first: the model-parallel size as the least that holds the model ("just enough stages to fit").
- straggler, remeasure: the numbers the fix should show, predicted ("rerun: expect ~12 s steps").
- led, time: "8.6 days per trillion tokens" is no run of six days (the reader rule of
  tests/grading/test_claims_decimal_point.py; the whole answers below).
Each point case: (scenario id, step id, point id, answer, states the point).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade
from tutor.grading.rubric import covers

SAYS, MISSES = True, False
LED, PITCH, STRAGGLER = "led-dense-400b", "pitch-recipe", "debug-straggler"

POINT_CASES = [
    # spare capacity for the failures at this scale
    (LED, "main", "reliability", "Keep hot spares in the cluster.", SAYS),
    (LED, "main", "reliability", "At this size nodes die daily, so we hold a pool of spare nodes and swap one in "
                                 "when a host drops out.", SAYS),
    (LED, "main", "reliability", "Like a pit crew with tyres ready: a few standby nodes waiting, so a dead host costs "
                                 "minutes, not hours.", SAYS),
    (LED, "main", "reliability", "Without spare capacity, every failure would idle 8,000 GPUs until someone found a "
                                 "replacement; so we reserve 2% as warm spares.", SAYS),
    (LED, "main", "reliability", "Failures: automatic node swap and resume from the last save.", SAYS),
    (LED, "main", "reliability", "留几台备用节点，坏一台就自动换上去。", SAYS),
    (LED, "main", "reliability", "这个规模每天都会坏机器，所以要有热备，坏节点自动换掉。", SAYS),
    (LED, "main", "reliability", "可靠性：准备备用机器，出故障就换掉坏节点。", SAYS),
    (LED, "main", "reliability", "We don't need hot spares at this size.", MISSES),
    (LED, "main", "reliability", "No spare nodes; the cluster is fully used for training.", MISSES),
    (LED, "main", "reliability", "不需要备用节点，全部卡都拿来训练。", MISSES),
    (LED, "main", "reliability", "We have spare time in the schedule for evaluation.", MISSES),
    (LED, "main", "reliability", "Spare nodes would not help here.", MISSES),
    # the time or the setting handed back to the interviewer
    (LED, "main", "clarify", "15T is four months, so we'd want to talk about that.", SAYS),
    (LED, "main", "clarify", "That is about 130 days, which is worth discussing with you.", SAYS),
    (LED, "main", "clarify", "Four months is long, I'd check with you whether that deadline works.", SAYS),
    (LED, "main", "clarify", "Roughly 9 days per trillion tokens, so the token budget is a conversation to have "
                             "before anything else.", SAYS),
    (LED, "main", "clarify", "If the deadline is tighter than four months we'd need to agree on fewer tokens.", SAYS),
    (LED, "main", "clarify", "按 15T token 算要四个月，这个工期要和你对一下。", SAYS),
    (LED, "main", "clarify", "四个月左右，截止时间得先和你确认。", SAYS),
    (LED, "main", "clarify", "大概130天，这个时间我们需要讨论一下。", SAYS),
    (LED, "main", "clarify", "It's four months, no need to discuss that.", MISSES),
    (LED, "main", "clarify", "We'd want to talk about the layout next.", MISSES),
    (LED, "main", "clarify", "TP 8 inside the node, PP 16 across nodes, DP 64.", MISSES),
    (LED, "main", "clarify", "不用讨论时间，直接开训。", MISSES),
    # the model-parallel size as the least that holds the model
    (PITCH, "main", "memory-first", "Pipeline across nodes, just enough stages to fit.", SAYS),
    (PITCH, "main", "memory-first", "PP until the model fits, no more.", SAYS),
    (PITCH, "main", "memory-first", "Use as few GPUs as hold one copy, then replicate that.", SAYS),
    (PITCH, "main", "memory-first", "Like packing a suitcase: the fewest bags the weights fit in.", SAYS),
    (PITCH, "main", "memory-first", "Only as many stages as it takes to fit in memory; more just adds bubble.", SAYS),
    (PITCH, "main", "memory-first", "PP 切到刚好放得下为止。", SAYS),
    (PITCH, "main", "memory-first", "pipeline跨机，stage 数最少，够放下就行。", SAYS),
    (PITCH, "main", "memory-first", "用最少的卡装得下一份模型，剩下做 DP。", SAYS),
    (PITCH, "main", "memory-first", "Plenty of micro-batches, just enough to fill the bubble.", MISSES),
    (PITCH, "main", "memory-first", "The model doesn't fit, so it crashes.", MISSES),
    (PITCH, "main", "memory-first", "Pipeline across nodes, plenty of micro-batches.", MISSES),
    (PITCH, "main", "memory-first", "PP 跨机，micro-batch 要够多。", MISSES),
    (PITCH, "main", "memory-first", "Keep the batch as small as fits the deadline.", MISSES),
    # the numbers the fix should show, predicted
    (STRAGGLER, "next", "remeasure", "Swap that node and rerun: expect ~12 s steps.", SAYS),
    (STRAGGLER, "next", "remeasure", "After the swap you should see the reduce-scatter wait near 1% everywhere.", SAYS),
    (STRAGGLER, "next", "remeasure", "Replace it and we'd see MFU around 28% instead of 22%.", SAYS),
    (STRAGGLER, "next", "remeasure", "One slow runner holds the whole relay: swap him and I'd expect the waits to "
                                     "vanish.", SAYS),
    (STRAGGLER, "next", "remeasure", "If the node is really the cause, the new one should bring the step time back "
                                     "to about 12 s.", SAYS),
    (STRAGGLER, "next", "remeasure", "换掉那台机器，预期 MFU 回到 28% 左右。", SAYS),
    (STRAGGLER, "next", "remeasure", "换机后应该看到reduce-scatter里的等待降到1%。", SAYS),
    (STRAGGLER, "next", "remeasure", "换完之后预计 step time 会回到 12 秒左右。", SAYS),
    (STRAGGLER, "next", "remeasure", "I'd expect the next step to be swapping the node.", MISSES),
    (STRAGGLER, "next", "remeasure", "Don't expect MFU to change; swap the node anyway.", MISSES),
    (STRAGGLER, "next", "remeasure", "Swap the node and raise the NCCL timeout.", MISSES),
    (STRAGGLER, "next", "remeasure", "换掉那台机器就行，不用再测。", MISSES),
    (STRAGGLER, "next", "remeasure", "We expected 28% MFU but only got 22%, so swap the node.", MISSES),
    (STRAGGLER, "next", "remeasure", "The others waiting in the reduce-scatter is what you would expect from a "
                                     "straggler; replace that node.", MISSES),
    (STRAGGLER, "next", "remeasure", "You should see rank 213 is slower in the per-rank step time.", MISSES),
]


def _point(qid: str, step_id: str, point_id: str):
    scenario = library().question(qid)
    step = next(step for step in scenario.steps if step.id == step_id)
    return next(point for point in step.points if point.id == point_id)


@pytest.mark.parametrize(("qid", "step", "point", "answer", "says"), POINT_CASES)
def test_each_idea_said_other_ways(qid, step, point, answer, says):
    assert covers(_point(qid, step, point), answer) is says


WHOLE_CASES = [
    (LED, None, "Clarify: tokens, deadline, seq len, fabric. Memory: 16 B/param, 6.4 TB, 80+ GPUs. TP 8 in the node, PP "
                "16 across nodes, DP 64 with a distributed optimizer. Time: 6ND at 40% MFU is about 8.6 days per "
                "trillion tokens. Reliability: async sharded checkpoints, hot spares.", True),
    (LED, None, "Clarify: tokens, deadline, seq len, fabric. Memory: 16 B/param, 6.4 TB, 80+ GPUs. TP 8 in the node, PP "
                "16 across nodes, DP 64 with a distributed optimizer. Time: 6ND at 40% MFU, the whole run in about "
                "6 days. Reliability: async sharded checkpoints, hot spares.", False),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), WHOLE_CASES)
def test_whole_answers(qid, step, answer, right):
    verdict = grade(library().question(qid), answer, step, 0)
    assert verdict.correct is right, (verdict.score, verdict.details)
