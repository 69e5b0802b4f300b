"""What `--reveal` shows for a config step: the rules, and one layout that keeps all of them.

The example is searched the recipe's way — CP from 1 up, then the smallest PP, then the largest
TP within the node — and the first layout `config.judge` passes wins. The search is capped, so
revealing stays fast on 16,384 GPUs; the engine planner's layouts are the fallback.
"""

from __future__ import annotations

from tutor.content.models import ConfigStep
from tutor.grading.config import RULE_IDS, Scenario, judge, rule_text, scenario
from tutor.grading.variant import Variant

MAX_TRIALS = 60


def expected_config(step: ConfigStep, variant: Variant) -> dict:
    where = scenario(step, variant)
    return {"gpus": where.gpus, "rules": [rule_text(rule_id) for rule_id in RULE_IDS], "example": example(where)}


def example(where: Scenario) -> dict | None:
    """A layout passing every rule, or None when none is found within the cap."""
    for layout in _candidates(where):
        if all(rule.passed for rule in judge(where, layout)):
            return layout
    return None


def _candidates(where: Scenario):
    from tutor.sizing.planner import divisors

    trials = 0
    ep_sizes = [size for size in (2, 4, 8, 16, 32, 64) if where.model.is_moe and where.model.experts % size == 0] or [1]
    for cp in divisors(where.gpus):
        for pp in divisors(where.gpus // cp):
            for tp in sorted((d for d in divisors(where.gpus // (cp * pp)) if d <= where.max_tp), reverse=True):
                for ep in ep_sizes:
                    trials += 1
                    if trials > MAX_TRIALS:
                        return
                    yield {"tp": tp, "pp": pp, "cp": cp, "ep": ep, "dp": where.gpus // (tp * pp * cp), "vpp": 1}
