"""What `--reveal` shows for a config step: the rules, and one layout that keeps all of them.

One truth: the example is the first layout of `tutor plan`'s ranked list (same rules, same
reserve) that `config.judge` passes, so the reveal, the plan and the grader agree. When none of
the plan's first layouts passes (a question that pins a size), the recipe-order search below —
CP from 1 up, then the smallest PP, then the largest TP within the node — is the fallback,
capped so revealing stays fast on 16,384 GPUs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.grading.config import ADVISORY, RULE_IDS, Scenario, judge, rule_text, scenario
from tutor.grading.variant import Variant

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import ConfigStep

MAX_TRIALS = 60


PLAN_TRIALS = 8


def expected_config(step: ConfigStep, variant: Variant) -> dict:
    where = scenario(step, variant)
    found = example(where)
    rules = judge(where, found) if found else []
    ids = [rule.id for rule in rules] or [rule_id for rule_id in RULE_IDS if rule_id not in ADVISORY]
    return {"gpus": where.gpus, "rules": [rule_text(rule_id, where) for rule_id in ids], "example": found}


def _passes(where: Scenario, layout: dict) -> bool:
    return all(rule.passed for rule in judge(where, layout) if rule.id not in ADVISORY)


def example(where: Scenario) -> dict | None:
    """A layout passing every counted rule: the plan's first that does, else the capped search."""
    for layout in plan_layouts(where):
        if _passes(where, layout):
            return layout
    for layout in _candidates(where):
        if _passes(where, layout):
            return layout
    return None


def plan_layouts(where: Scenario) -> list[dict]:
    """The first layouts of `tutor plan` for the scenario, in its order (one per shape)."""
    from tutor.sizing.plan_search import candidates

    ranked, _, _ = candidates(where.model, where.train, where.gpus, where.hardware)
    seen, layouts = set(), []
    for item in ranked:
        shape = (item.tp, item.pp, item.cp, item.ep)
        if shape in seen or item.tp > where.max_tp:
            continue
        seen.add(shape)
        layouts.append({"tp": item.tp, "pp": item.pp, "cp": item.cp, "ep": item.ep, "dp": item.dp, "vpp": 1})
        if len(layouts) == PLAN_TRIALS:
            break
    return layouts


def _candidates(where: Scenario):
    from tutor.sizing.layout_space import divisors

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
