"""Debug and design rounds, eighth round (2026-12-04, mf8c): each idea the grader failed to read, said other ways,
and near misses that must still fail. Written by hand, none from the labelled benchmark.

The ideas:
- debug remeasure (all four stages): the check said as the value the fix should bring ("should reach ~35% MFU",
  "修好后 step time 应该接近 10 秒"), or the idle said gone in the new trace, its negation in the phrase.
- led time: a Chinese phrase's number is the whole number ("5 天" is not in "85 天"; the reader rule in
  tutor/grading/claims/matching.py).
Each point case: (scenario id, step id, point id, answer, states the point).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade
from tutor.grading.rubric import covers

SAYS, MISSES = True, False
LOADER, LAUNCH, LED = "debug-data-loading", "debug-launch-bound", "led-dense-400b"

POINT_CASES = [
    (LOADER, "next", "remeasure", "Pre-tokenize offline; the step should reach about 10 s.", SAYS),
    (LOADER, "next", "remeasure", "Once the loader keeps up, throughput should climb to roughly 420K tokens/s.", SAYS),
    (LOADER, "next", "remeasure", "Like a chef waiting for groceries: stock the pantry and MFU should land at ~35%.", SAYS),
    (LOADER, "next", "remeasure", "If the loader were the whole story, fixing it should get to 10 s per step, so "
                                  "that's what I'd check.", SAYS),
    (LOADER, "next", "remeasure", "It worked if the trace shows no idle before the first forward.", SAYS),
    pytest.param(LOADER, "next", "remeasure", "修好后 step time 应该接近 10 秒。", SAYS,
                 marks=pytest.mark.xfail(reason="not yet read: the zh prediction alone, round 8 left it", strict=True)),
    (LOADER, "next", "remeasure", "离线tokenize之后吞吐应该能到42万tokens/s。", SAYS),
    (LOADER, "next", "remeasure", "trace 上第一个 forward 之前不再有空白就算确认。", SAYS),
    (LOADER, "next", "remeasure", "Pre-tokenize offline and add workers.", MISSES),
    (LOADER, "next", "remeasure", "The GPU should not be idle; add workers.", MISSES),
    (LOADER, "next", "remeasure", "加 worker 就行，不用再测。", MISSES),
    (LOADER, "next", "remeasure", "The 41% idle is the loader, so tokenizing is the cause.", MISSES),
    (LAUNCH, "next", "remeasure", "Check: rerun 50 steps; removing the gaps should give ~0.44 s/step.", SAYS),
    (LAUNCH, "next", "remeasure", "With CUDA Graphs the step should fall to about 0.45 s.", SAYS),
    (LAUNCH, "next", "remeasure", "It worked if the profiler shows no inter-kernel gaps.", SAYS),
    pytest.param(LAUNCH, "next", "remeasure", "CUDA Graphs 之后 step time 应该降到 0.45 秒。", SAYS,
                 marks=pytest.mark.xfail(reason="not yet read: the zh prediction alone, round 8 left it", strict=True)),
    (LAUNCH, "next", "remeasure", "Use CUDA Graphs and a micro-batch of 8.", MISSES),
    (LAUNCH, "next", "remeasure", "nvidia-smi already says 100%, so there is nothing to check.", MISSES),
]


def _point(qid: str, step_id: str, point_id: str):
    scenario = library().question(qid)
    step = next(step for step in scenario.steps if step.id == step_id)
    return next(point for point in step.points if point.id == point_id)


@pytest.mark.parametrize(("qid", "step", "point", "answer", "says"), POINT_CASES)
def test_each_idea_said_other_ways(qid, step, point, answer, says):
    assert covers(_point(qid, step, point), answer) is says


# a plan of 85 days is months, not "5 days"; one of 5 days stays contradicted
CONTRADICTED_CASES = [
    ("时长：6ND ÷（8192 × 989T × 40%）≈ 85 天。", False),
    ("大概 95 天训完。", False),
    ("算下来 8.5 天。", False),
    ("大概 5 天训完。", True),
    ("按 5 天算。", True),
]


@pytest.mark.parametrize(("answer", "contradicted"), CONTRADICTED_CASES)
def test_days_are_whole_numbers(answer, contradicted):
    verdict = grade(library().question(LED), answer, None, 0)
    assert ("time" in verdict.details["contradicted"]) is contradicted
