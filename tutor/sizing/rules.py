"""The rules a layout is held to, declared once for `tutor plan`, the layout grader and the lessons.

Hard rules (a layout that breaks one is not a plan): the validator finds no error; TP stays in
one NVLink node; the global batch splits over DP × micro-batch with at least one micro-batch per
stage (m ≥ p); model state plus first-stage activations fit in memory less the reserve, with the
lightest recompute that makes them fit. Advice (named, never a failure): m ≥ 4p for a small
bubble, even pipeline stages. The recipe's preferences (no recompute, smallest PP, then TP, CP)
order the planner's list and are what the grader's "smallest PP" and "smallest CP" rules check.
"""

from __future__ import annotations

# Planning margin (policy, not a published figure): keep 10% of memory for the CUDA context, NCCL
# buffers, fragmentation and the logits; `tutor plan --reserve` changes it.
RESERVE = 0.10
# m ≥ MIN_M_OVER_P · p keeps the 1F1B bubble (p − 1)/m under about a quarter (lesson §recipe).
MIN_M_OVER_P = 4


def budget(gpu_mem: float, reserve: float = RESERVE) -> float:
    """Bytes per GPU a plan may use."""
    return (1 - reserve) * gpu_mem


def recompute_levels(flash: bool = True, forced: str | None = None) -> tuple[str, ...]:
    """Recompute levels to try, lightest first. With FlashAttention, selective recompute saves
    nothing more (the s×s scores are never stored), so it is only tried without it."""
    if forced is not None:
        return (forced,)
    return ("none", "full") if flash else ("none", "selective", "full")


def microbatches(global_batch: int, dp: int, micro_batch: int) -> int | None:
    """m = B/(DP·b), or None when the global batch does not split."""
    per_step = dp * micro_batch
    return None if global_batch % per_step else global_batch // per_step


def pipeline_ok(global_batch: int, dp: int, micro_batch: int, pp: int) -> bool:
    """The batch splits and every stage gets at least one micro-batch (hard rule m ≥ p)."""
    m = microbatches(global_batch, dp, micro_batch)
    return m is not None and m >= pp
