"""`plan()`: the lesson's recipe (§recipe) as a search over every divisor layout of the GPUs.

Recipe: size memory first; TP inside the node (≤ 8); the smallest PP that fits, with m ≥ 4p and
the interleaved schedule; CP for long sequences; EP for MoE; the rest to DP with the distributed
optimizer; full recompute only when nothing fits without it. Every layout is evaluated on the
compiled fast path (`chains.planner_function`); the recipe is the ranking key, so the best
layout is the one the recipe picks and the alternatives follow in the recipe's order, each
with its headroom, bubble and traffic on slow links.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.sizing.chains import Mode, activation_row, planner_function
from tutor.sizing.engine import model_values
from tutor.sizing.hardware import gpu
from tutor.sizing.plan_text import plan_steps
from tutor.sizing.report import size, stage_formula
from tutor.sizing.specs import Hardware, Model, Parallel, Throughput, Train, check_number
from tutor.sizing.validate import MIN_TOKENS_PER_CP_RANK, validate_config

# Planning margin (policy, not a published figure): keep 10% of memory for the CUDA context,
# NCCL buffers, fragmentation and logits. CP splits a sequence only down to
# MIN_TOKENS_PER_CP_RANK tokens per rank (validate.py, where a given layout below it is warned about).
RESERVE = 0.10
# Interleave at most 4 ways (the lesson's v = 4): beyond that the bubble is already small and the
# pipeline's point-to-point traffic keeps growing v-fold (Narayanan et al. 2021 §2.2.2).
MAX_VPP = 4
RECOMPUTE_RANK = {"none": 0, "selective": 1, "full": 2}


@dataclass(frozen=True)
class Candidate:
    tp: int
    pp: int
    cp: int
    ep: int
    dp: int
    vpp: int
    recompute: str
    microbatches: int
    below_4p: bool
    total: float
    headroom: float
    bubble: float
    slow_link_bytes: float
    uneven: bool

    def key(self) -> tuple:
        """The recipe as an order: m ≥ 4p, no recompute, even stages, smallest PP, then TP, CP, EP, bubble, headroom."""
        return (self.below_4p, RECOMPUTE_RANK[self.recompute], self.uneven, self.pp, self.tp, self.cp, self.ep,
                self.bubble, -self.headroom)


def divisors(number: int) -> list[int]:
    small = [d for d in range(1, int(number**0.5) + 1) if number % d == 0]
    return sorted(set(small + [number // d for d in small]))


def candidates(model: Model, train: Train, gpus: int, hardware: Hardware, flash: bool = True) -> tuple[list, int, int]:
    """Every configuration that fits with the reserve and keeps the hard rules (TP in a node, m ≥ p), ranked;
    how many divisor layouts were considered; how many configurations were evaluated."""
    values = dict(model_values(model, train.seq))
    values.update(seq=train.seq, micro_batch=train.micro_batch, global_batch=train.global_batch, gpus=gpus)
    recomputes = ("none", "selective", "full") if not flash else ("none", "full")
    found, considered, evaluated = [], 0, 0
    budget = (1 - RESERVE) * hardware.gpu_mem
    for tp in divisors(gpus):
        for cp in divisors(gpus // tp):
            for pp in divisors(gpus // (tp * cp)):
                considered += 1
                if not _allowed(model, train, hardware, tp, cp, pp):
                    continue
                dp = gpus // (tp * cp * pp)
                if train.global_batch % (dp * train.micro_batch):
                    continue
                m = train.global_batch // (dp * train.micro_batch)
                if m < pp:
                    continue
                for ep in _expert_sizes(model, dp * cp):
                    for vpp in _chunk_counts(model, pp, m):
                        for recompute in recomputes:
                            layout = dict(tp=tp, pp=pp, cp=cp, ep=ep, dp=dp, vpp=vpp)
                            candidate = _evaluate(model, values, layout, recompute, m, hardware, flash)
                            evaluated += 1
                            if candidate.total <= budget:
                                found.append(candidate)
    return sorted(found, key=Candidate.key), considered, evaluated


def _allowed(model: Model, train: Train, hardware: Hardware, tp: int, cp: int, pp: int) -> bool:
    if tp > hardware.gpus_per_node:
        return False
    if model.heads is not None and model.heads % tp:
        return False
    kv = model.kv_heads
    if kv is not None and kv % tp and tp % kv:  # TP above the KV heads replicates them (validate: kv-replicated)
        return False
    if cp > 1 and (train.seq % (2 * cp) or train.seq // cp < MIN_TOKENS_PER_CP_RANK):
        return False
    return model.layers is None or pp <= model.layers


def _expert_sizes(model: Model, dp_cp: int) -> list[int]:
    if not model.is_moe:
        return [1]
    return [ep for ep in divisors(model.experts) if dp_cp % ep == 0]


def _chunk_counts(model: Model, pp: int, m: int) -> list[int]:
    if pp == 1 or model.layers is None or model.layers % pp or m % pp:
        return [1]
    return [v for v in divisors(model.layers // pp) if v <= MAX_VPP]


def _evaluate(model: Model, values: dict, layout: dict, recompute: str, m: int, hardware: Hardware,
              flash: bool) -> Candidate:
    tp, pp, cp, dp, vpp = layout["tp"], layout["pp"], layout["cp"], layout["dp"], layout["vpp"]
    shape_known = model.layers is not None and model.hidden is not None
    mode = Mode(sharding="distopt" if dp * cp > 1 else "none",
                activation_row=activation_row(tp, True, flash, recompute) if shape_known else None,
                moe=model.is_moe, attention=shape_known, heads=shape_known and model.heads is not None,
                first_stage=stage_formula(model, pp, values["seq"]), stage_memory=model.params is None,
                positions=model.positions)
    outputs, names, function = planner_function(mode)
    args = {**values, **layout}
    out = dict(zip(outputs, function(*(args[name] for name in names))))
    schedule = "_interleaved" if vpp > 1 else ""
    total = out["model_state"] + out.get("activations" + schedule, 0.0)
    return Candidate(tp, pp, cp, layout["ep"], dp, vpp, recompute, m, pp > 1 and m < 4 * pp, total,
                     1 - total / hardware.gpu_mem,
                     out["bubble" + schedule], _slow_link_bytes(out, layout, model, m, hardware.gpus_per_node),
                     model.layers is not None and model.layers % pp != 0)


def _slow_link_bytes(out: dict, layout: dict, model: Model, m: int, node: int) -> float:
    """Bytes per GPU per step on links between nodes (ranks ordered TP, CP, DP, PP as in Megatron)."""
    tp, pp, cp, dp, vpp = layout["tp"], layout["pp"], layout["cp"], layout["dp"], layout["vpp"]
    layers_per_stage = (model.layers or pp) / pp
    total = 0.0
    if tp > node and "tp_bytes_per_layer" in out:
        total += out["tp_bytes_per_layer"] * layers_per_stage * m
    if tp * cp > node and "cp_bytes_per_layer" in out:
        total += out["cp_bytes_per_layer"] * layers_per_stage * m
    if tp * cp * dp > node:
        total += out["dp_grad_bytes"]
    if pp > 1 and tp * cp * dp >= node and "pp_bytes_per_microbatch" in out:
        total += out["pp_bytes_per_microbatch"] * m * vpp  # interleaving multiplies P2P traffic by v
    return total


def plan(model: Model, train: Train | None = None, gpus: int = 8, hardware: Hardware | None = None,
         throughput: Throughput | None = None, alternatives: int = 10, lang: str = "en") -> dict:
    """The `tutor plan --json` report: best layout, ranked alternatives, the recipe's steps."""
    train, hardware = train or Train(), hardware or gpu("h100-80gb")
    gpus = int(check_number("gpus", gpus))
    ranked, considered, evaluated = candidates(model, train, gpus, hardware)
    best_per_shape: dict[tuple, Candidate] = {}
    for candidate in ranked:
        best_per_shape.setdefault((candidate.tp, candidate.pp, candidate.cp, candidate.ep, candidate.recompute),
                                  candidate)
    chosen = [c for c in best_per_shape.values()
              if validate_config(model, train, _parallel(c, gpus), hardware, throughput).ok][:alternatives + 1]
    reports = [_report(model, train, c, gpus, hardware, throughput, lang) for c in chosen]
    return {"best": reports[0] if reports else None, "alternatives": reports[1:],
            "steps": plan_steps(model, train, gpus, hardware, chosen, reports, (considered, evaluated, len(ranked)),
                                lang)}


def _parallel(candidate: Candidate, gpus: int) -> Parallel:
    return Parallel(gpus=gpus, tp=candidate.tp, pp=candidate.pp, cp=candidate.cp, ep=candidate.ep, dp=candidate.dp,
                    vpp=candidate.vpp, sharding="distopt", sp=True, recompute=candidate.recompute)


def _report(model: Model, train: Train, candidate: Candidate, gpus: int, hardware: Hardware,
            throughput: Throughput | None, lang: str) -> dict:
    report = size(model, train, _parallel(candidate, gpus), hardware, throughput, lang)
    layout = {"tp": candidate.tp, "pp": candidate.pp, "cp": candidate.cp, "ep": candidate.ep, "dp": candidate.dp,
              "vpp": candidate.vpp, "recompute": candidate.recompute, "headroom": candidate.headroom,
              "slow_link_bytes": candidate.slow_link_bytes}
    return {**layout, **report}

