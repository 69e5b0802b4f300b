"""What `--reveal` shows for a config step: the rules, and one layout that keeps all of them.

The example comes from the engine's planner (its best layout and ranked alternatives), taking
the first that `config.judge` passes; the planner keeps a 10% memory reserve, so its layouts are
a little more conservative than the lesson's, and any of several layouts may be right.
"""

from __future__ import annotations

from tutor.content.models import ConfigStep
from tutor.grading.config import RULE_IDS, judge, rule_text, scenario
from tutor.grading.variant import Variant

LAYOUT_KEYS = ("tp", "pp", "cp", "ep", "dp", "vpp")


def expected_config(step: ConfigStep, variant: Variant) -> dict:
    from tutor.sizing import plan

    where = scenario(step, variant)
    report = plan(where.model, where.train, where.gpus, where.hardware, alternatives=10)
    example = None
    for layout in ([report["best"]] if report["best"] else []) + report["alternatives"]:
        chosen = {key: int(layout[key]) for key in LAYOUT_KEYS}
        if all(rule.passed for rule in judge(where, chosen)):
            example = {**chosen, "recompute": layout.get("recompute", "none")}
            break
    return {"gpus": where.gpus, "rules": [rule_text(rule_id) for rule_id in RULE_IDS], "example": example}
