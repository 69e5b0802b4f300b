"""Pipeline schedules simulated op by op: GPipe, 1F1B and interleaved 1F1B.

The engine's bubble formulas ((p−1)/m, (p−1)/(v·m), wall-clock (p−1)/(v·m + p − 1)) are
closed forms; this module builds the actual timeline — which micro-batch each stage runs in each
time slot — so the playground can draw it and tests can check the closed forms against it.

Time unit: one slot is a forward pass of one model chunk; a backward pass takes two
(the usual t_b ≈ 2·t_f assumption). Orders follow Narayanan et al. 2021 §2.2 and Megatron-LM's
`schedules.py` (interleaved: micro-batches advance in groups of p, chunk by chunk).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

FORWARD_SLOTS, BACKWARD_SLOTS = 1, 2
KINDS = ("gpipe", "1f1b", "interleaved")


@dataclass(frozen=True)
class Op:
    """One pass of one micro-batch through one model chunk on one stage."""

    stage: int
    microbatch: int
    chunk: int
    backward: bool
    start: int
    end: int


@dataclass(frozen=True)
class Timeline:
    kind: str
    stages: int
    microbatches: int
    chunks: int
    ops: tuple[Op, ...]

    @cached_property
    def makespan(self) -> int:
        return max(op.end for op in self.ops)

    @property
    def bubble_wallclock(self) -> float:
        """Share of stage-time spent idle: the measured counterpart of (p−1)/(v·m + p − 1)."""
        busy = sum(op.end - op.start for op in self.ops)
        return 1 - busy / (self.stages * self.makespan)

    @property
    def bubble_vs_ideal(self) -> float:
        """Idle time relative to the ideal (bubble-free) step: the counterpart of (p−1)/(v·m)."""
        ideal = self.microbatches * self.chunks * (FORWARD_SLOTS + BACKWARD_SLOTS)
        return (self.makespan - ideal) / ideal

    @cached_property
    def grid(self) -> list[list[tuple[int, int, bool] | None]]:
        """Per stage, per slot: (micro-batch, chunk, backward) or None when idle."""
        rows: list[list] = [[None] * self.makespan for _ in range(self.stages)]
        for op in self.ops:
            for slot in range(op.start, op.end):
                rows[op.stage][slot] = (op.microbatch, op.chunk, op.backward)
        return rows


def _stage_order(kind: str, stage: int, p: int, m: int, v: int) -> list[tuple[int, int, bool]]:
    """The order in which one stage runs its (micro-batch, chunk, backward) passes."""
    if kind == "gpipe":
        return [(mb, 0, False) for mb in range(m)] + [(mb, 0, True) for mb in range(m)]
    if kind == "1f1b":
        forwards = [(mb, 0, False) for mb in range(m)]
        backwards = [(mb, 0, True) for mb in range(m)]
        warmup = min(p - stage - 1, m)
        order = forwards[:warmup]
        for index in range(m - warmup):
            order += [forwards[warmup + index], backwards[index]]
        return order + backwards[m - warmup:]
    total = m * v

    def forward_at(k: int) -> tuple[int, int, bool]:
        return ((k // (p * v)) * p + k % p, (k // p) % v, False)

    def backward_at(k: int) -> tuple[int, int, bool]:
        return ((k // (p * v)) * p + k % p, v - 1 - (k // p) % v, True)

    warmup = min((p - stage - 1) * 2 + (v - 1) * p, total)
    order = [forward_at(k) for k in range(warmup)]
    for index in range(total - warmup):
        order += [forward_at(warmup + index), backward_at(index)]
    return order + [backward_at(k) for k in range(total - warmup, total)]


@lru_cache(maxsize=64)  # pure; the playground redraws the same schedule on unrelated edits
def simulate(kind: str, stages: int, microbatches: int, chunks: int = 1) -> Timeline:
    """Run every stage's pass order against the data dependencies, earliest start first."""
    if kind not in KINDS:
        raise ValueError(f"unknown schedule {kind!r}; one of {', '.join(KINDS)}")
    p, m, v = stages, microbatches, (chunks if kind == "interleaved" else 1)
    if p < 1 or m < 1 or v < 1:
        raise ValueError("stages, micro-batches and chunks must be at least 1")
    if kind == "interleaved" and m % p:
        raise ValueError(f"the interleaved schedule needs micro-batches ({m}) to be a multiple of stages ({p})")
    orders = [_stage_order(kind, stage, p, m, v) for stage in range(p)]
    position = [0] * p
    stage_free = [0] * p
    done: dict[tuple[int, int, bool], int] = {}  # (virtual stage, micro-batch, backward) -> end
    ops: list[Op] = []
    last_virtual = p * v - 1
    while any(position[stage] < len(orders[stage]) for stage in range(p)):
        progressed = False
        for stage in range(p):
            if position[stage] == len(orders[stage]):
                continue
            microbatch, chunk, backward = orders[stage][position[stage]]
            virtual = chunk * p + stage  # chunk c of stage s is virtual stage c·p + s
            needed: tuple[int, int, bool] | None
            if backward:
                needed = (virtual + 1, microbatch, True) if virtual < last_virtual else (virtual, microbatch, False)
            else:
                needed = (virtual - 1, microbatch, False) if virtual > 0 else None
            if needed is not None and needed not in done:
                continue
            start = max(stage_free[stage], done[needed] if needed is not None else 0)
            end = start + (BACKWARD_SLOTS if backward else FORWARD_SLOTS)
            ops.append(Op(stage, microbatch, chunk, backward, start, end))
            done[(virtual, microbatch, backward)] = end
            stage_free[stage] = end
            position[stage] += 1
            progressed = True
        if not progressed:  # cannot happen for the orders above; guards against a wrong order
            raise RuntimeError(f"{kind} schedule deadlocked at positions {position}")
    return Timeline(kind, p, m, v, tuple(ops))
