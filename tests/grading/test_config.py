"""Config steps: the lesson's own layouts pass, each broken rule is named, many answers are right."""

from __future__ import annotations

import pytest

from tutor.content.models.question import Question
from tutor.grading.dispatch import grade
from tutor.grading.config_parse import ConfigError, parse_config


def config_question(model: str, gpus: int, seq: int, global_batch: int, **require) -> Question:
    return Question.model_validate({
        "id": "c", "title": {"en": "c", "zh": "c"}, "prompt": {"en": "c", "zh": "c"}, "section": "a/b",
        "tags": ["c"], "source": "test", "given": {"gpus": gpus}, "vary": {"gpus": {"choices": [gpus]}},
        "steps": [{"kind": "config", "require": require, "inputs": {
            "model": model, "gpus": "gpus", "seq": seq, "micro_batch": 1, "global_batch": global_batch, "gpu": "H100"}}]})


LESSON_70B = config_question("lesson-70b", 64, 8192, 512)       # lesson §worked-examples
TRILLION = config_question("dense-1t", 8192, 4096, 4096)        # lesson §trillion-design


@pytest.mark.parametrize("text", ["TP=4 PP=4 CP=2 DP=2", "tp4 pp4 cp2 dp2", "TP 4, PP 4, CP 2, DP 2",
                                  "TP×PP×CP×DP = 4×4×2×2", "(TP, PP, CP, DP) = (4, 4, 2, 2)", "TP 开 4，PP 4，CP 2"])
def test_layout_spellings(text):
    layout = parse_config(text)
    assert layout["tp"] == 4 and layout["pp"] == 4 and layout["cp"] == 2


@pytest.mark.parametrize("text", ["", "four by four", "TP=4 TP=8", "TP×PP = 4", "TP=0"])
def test_unreadable_layouts(text):
    with pytest.raises(ConfigError):
        parse_config(text)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("question", "answer"), [
    (LESSON_70B, "TP=4 PP=4 CP=2 DP=2"),   # the lesson's answer
    (LESSON_70B, "TP=8 PP=2 DP=4"),        # another right answer: TP fills the node, PP 2 fits
    (TRILLION, "TP=8 PP=16 DP=64"),        # the lesson's answer (fits with recompute)
    (TRILLION, "TP 8 PP 16"),              # DP derived from the GPU count
])
def test_right_layouts(question, answer):
    verdict = grade(question, answer)
    assert verdict.correct, verdict.feedback["en"]
    assert verdict.score == 1.0


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("question", "answer", "rule"), [
    (LESSON_70B, "TP=4 PP=4 CP=2 DP=4", "layout"),       # 128 ≠ 64
    (LESSON_70B, "TP=16 PP=4", "tp-node"),               # KV heads replicated, but TP 16 leaves the node
    (LESSON_70B, "TP=3 PP=4", "layout"),                 # 64 GPUs do not split by 12
    (LESSON_70B, "TP=8 PP=8", "smallest-pp"),            # PP 2 already fits
    (LESSON_70B, "TP=2 PP=4 CP=2 DP=4", "smallest-cp"),  # fits without CP
    (LESSON_70B, "TP=4 PP=1 DP=16", "fits"),             # 17.5B parameters per GPU
    (TRILLION, "TP=8 PP=8 DP=128", "fits"),
    (TRILLION, "TP=8 PP=32 DP=32", "smallest-pp"),       # PP 16 fits with the same recompute
])
def test_broken_rules_are_named(question, answer, rule):
    verdict = grade(question, answer)
    assert not verdict.correct
    broken = [item["id"] for item in verdict.details["rules"] if not item["passed"]]
    assert rule in broken, verdict.feedback["en"]
    assert 0.0 <= verdict.score < 1.0
    assert "✗" in verdict.feedback["en"] and "✗" in verdict.feedback["zh"]


@pytest.mark.timeout(60)
def test_small_bubble_rule():
    question = config_question("lesson-70b", 64, 8192, 16)       # m = 16/DP = 8 < 4p = 16
    verdict = grade(question, "TP=4 PP=4 CP=2 DP=2")
    assert "m-4p" in [item["id"] for item in verdict.details["rules"] if not item["passed"]]


@pytest.mark.timeout(60)
def test_recompute_is_said():
    verdict = grade(LESSON_70B, "TP=8 PP=1 DP=8")        # fits only with full recompute
    assert verdict.correct and "full recompute" in verdict.feedback["en"]


@pytest.mark.timeout(60)
def test_required_sizes():
    question = config_question("lesson-70b", 64, 8192, 512, cp=2)
    assert grade(question, "TP=4 PP=4 CP=2 DP=2").correct
    assert not grade(question, "TP=8 PP=2 DP=4").correct


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("answer", "broken", "said_en", "said_zh"), [
    # 128 ≠ 64 GPUs, and TP 16 leaves the 8-GPU node (walkthrough minor 12)
    ("TP=16 PP=2 CP=1 DP=4", ["layout", "tp-node"], ["= 128, not the 64 GPUs", "TP 16 is above 8"],
     ["= 128，不等于 64 张卡", "TP 16 超过 8"]),
    # no DP divides 64 by 3 × 4, and 64 heads do not split over TP 3
    ("TP=3 PP=4", ["layout"], ["not divisible by 12", "64 heads are not divisible by TP 3"],
     ["不能被 12 整除", "64 个 heads 不能被 TP 3 整除"]),
    # 2,048 ≠ 64 GPUs, PP 128 is more stages than 80 layers, and TP 16 leaves the node
    ("TP=16 PP=128 DP=1", ["layout", "tp-node"], ["= 2048, not the 64 GPUs", "PP 128 is more stages than the 80",
                                                  "TP 16 is above 8"], ["PP 128 比 80 层还多", "TP 16 超过 8"]),
    # 128 ≠ 64 GPUs; TP is inside the node, which is said and not credited
    ("TP=4 PP=4 CP=2 DP=4", ["layout"], ["= 128, not the 64 GPUs", "✓ TP inside one NVLink node (≤ 8)"],
     ["✓ TP 在机内（≤ 8）"]),
])
def test_rules_judged_when_the_product_is_wrong(answer, broken, said_en, said_zh):
    verdict = grade(LESSON_70B, answer)
    assert not verdict.correct and verdict.mistake == "layout"
    assert [item["id"] for item in verdict.details["rules"] if not item["passed"]] == broken
    assert all(text in verdict.feedback["en"] for text in said_en), verdict.feedback["en"]
    assert all(text in verdict.feedback["zh"] for text in said_zh), verdict.feedback["zh"]
    assert verdict.score == 0.0  # the rules are named, not credited: an invalid layout is no plan

