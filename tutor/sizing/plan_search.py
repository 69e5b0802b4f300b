"""`candidates()`: the plan's search over every divisor layout of the GPUs, ranked by the recipe."""

from __future__ import annotations

from tutor.sizing.engine import model_values
from tutor.sizing.layout_memory import LayoutEvaluator
from tutor.sizing.layout_space import (Options, chunk_counts, cp_allowed, divisors_of, expert_sizes, sharding_choices,
                                       tp_allowed, triples)
from tutor.sizing.plan_candidate import Candidate
from tutor.sizing.rules import budget, recompute_levels
from tutor.sizing.specs import Hardware, Model, Train

def candidates(model: Model, train: Train, gpus: int, hardware: Hardware, flash: bool = True,
               options: Options | None = None) -> tuple[list, int, int]:
    """Every configuration that fits with the reserve and keeps the hard rules (TP in a node, m ≥ p), ranked;
    how many divisor layouts were considered; how many configurations were evaluated."""
    options = options or Options(flash=flash)
    shardings = sharding_choices(model, options)
    values = dict(model_values(model, train.seq))
    values.update(seq=train.seq, micro_batch=train.micro_batch, global_batch=train.global_batch, gpus=gpus)
    recomputes = recompute_levels(options.flash, options.recompute)
    found: list[Candidate] = []
    considered = evaluated = 0
    limit = budget(hardware.gpu_mem, options.reserve)
    evaluate = LayoutEvaluator(model, values, hardware, options, limit)
    # The rules are checked where they apply (TP's in the TP loop, CP's in the CP loop), so a layout a
    # rule excludes costs a count, not a check; every divisor triple is still counted as considered.
    batch, micro = train.global_batch, train.micro_batch
    layers = model.layers if model.layers is not None else gpus
    experts: dict[int, list[int]] = {}  # DP × CP -> EP sizes (the same few per search)
    sharded_only = options.moments != "fp32"  # BF16 moments are modelled with the distributed optimizer only
    chunks: dict[tuple, list[int]] = {}  # (PP, p divides m) -> interleaving choices
    for tp in divisors_of(gpus):
        if options.tp is not None and tp not in options.tp:
            continue
        if not tp_allowed(model, hardware, tp):
            considered += triples(gpus // tp)
            continue
        for cp in divisors_of(gpus // tp):
            pps = divisors_of(gpus // (tp * cp))
            considered += len(pps)
            # m = B·TP·CP·PP/(G·b), so m ≥ p holds for every PP of this (TP, CP) or for none (rules.pipeline_ok)
            if batch * tp * cp < gpus * micro or not cp_allowed(train, cp):
                continue
            for pp in pps:
                if pp > layers:
                    break  # divisors ascend
                dp = gpus // (tp * cp * pp)
                if batch % (dp * micro) or (sharded_only and dp * cp == 1):
                    continue
                m = batch // (dp * micro)
                eps = experts.get(dp * cp)
                if eps is None:
                    eps = experts[dp * cp] = expert_sizes(model, dp * cp, options.ep)
                vpps = chunks.get((pp, m % pp == 0))  # chunk_counts reads m only through m mod p
                if vpps is None:
                    vpps = chunks[(pp, m % pp == 0)] = chunk_counts(model, pp, m)
                for ep in eps:
                    for vpp in vpps:
                        evaluated += evaluate.layout(tp, pp, cp, ep, dp, vpp, m, recomputes, shardings, limit, found)
    found.sort(key=Candidate.key)
    return found, considered, evaluated
