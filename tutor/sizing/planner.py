"""`plan()`: the lesson's recipe (§recipe) as a search over every divisor layout of the GPUs.

Recipe: size memory first; TP inside the node (≤ 8); the smallest PP that fits, with m ≥ 4p and
the interleaved schedule; CP for long sequences, across nodes only as far as the memory needs it;
EP for MoE; the rest to DP with the distributed optimizer, or gradients sharded too (ZeRO-2, as
Llama 3's FSDP) where the distributed optimizer does not fit; full recompute only when nothing fits
without it. Every layout is evaluated on the
compiled fast path (`chains.planner_function`); the recipe is the ranking key, so the best
layout is the one the recipe picks and the alternatives follow in the recipe's order, each
with its headroom, bubble and traffic on slow links.
"""

from __future__ import annotations

from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.layout_memory import MEMORY, LayoutEvaluator, picker
from tutor.sizing.layout_space import SHARDINGS, Options, check_asked_sizes, divisors
from tutor.sizing.plan_candidate import Candidate
from tutor.sizing.plan_reasons import why_after
from tutor.sizing.plan_search import candidates
from tutor.sizing.plan_text import plan_steps
from tutor.sizing.report import size
from tutor.sizing.rules import RESERVE
from tutor.sizing.specs import Hardware, Model, Parallel, Throughput, Train, check_number
from tutor.sizing.validate import validate_config
from tutor.text import T

# The modules of the plan: layout_space (options, divisors, hard rules), plan_search (the search),
# layout_memory (the compiled fast path), plan_candidate (the result and its ranking key),
# plan_reasons (why each alternative ranks after the best). These names stay importable from here,
# where callers and tests/sizing import them; the two private ones are the evaluator and picker
# tests/sizing/test_specialised.py checks against the full derivation.
__all__ = ["MEMORY", "RESERVE", "Candidate", "Options", "candidates", "divisors", "plan", "why_after"]
_Evaluator, _picker = LayoutEvaluator, picker


def plan(model: Model, train: Train | None = None, gpus: int = 8, hardware: Hardware | None = None,
         throughput: Throughput | None = None, alternatives: int = 10, lang: str = "en",
         options: Options | None = None) -> dict:
    """The `tutor plan --json` report: best layout, ranked alternatives (each with `why` it ranks
    after the best), the recipe's steps."""
    train, hardware = train or Train(), hardware or gpu("h100-80gb")
    options = options or Options()
    if options.sharding is not None and options.sharding not in SHARDINGS:
        raise SizingError(f"sharding must be one of {', '.join(SHARDINGS)}, got {options.sharding!r}")
    if not 0 <= options.reserve < 1:
        raise SizingError(f"the reserve is a fraction of memory in [0, 1), got {options.reserve:g}")
    if model.is_moe and (options.sharding or "").startswith("zero"):
        stage = (options.sharding or "")[-1:]
        raise SizingError(
            T(f"--zero {stage}{' (FSDP)' if stage == '3' else ''} is not modelled for MoE models: their memory is the distributed optimizer's "
            "(Megatron's ZeRO-1-style sharding of the optimizer state, fp32 gradients; DeepSeek-V3's \"ZeRO-1 DP\"); "
            "leave out --zero to plan with it",
               f"MoE 模型不支持 --zero {stage}：它们的 memory 按 distributed optimizer 算（Megatron 的 "
               "ZeRO-1 式 optimizer state 切分，fp32 gradient；即 DeepSeek-V3 的 “ZeRO-1 DP”）；去掉 --zero 即按它规划"))
    if options.moments != "fp32" and options.sharding not in (None, "distopt"):
        raise SizingError("BF16 AdamW moments (--moments bf16) are modelled with the distributed optimizer only")
    if "norm_up" in options.savings and not model.mla:
        raise SizingError("recomputing the MLA up-projections needs multi-head latent attention (DeepSeek-V3's)")
    Parallel(moments=options.moments, savings=options.savings)  # checks their values, one clear line
    gpus = int(check_number("gpus", gpus))
    check_asked_sizes(model, hardware, gpus, options)
    ranked, considered, evaluated = candidates(model, train, gpus, hardware, options=options)
    best_per_shape: dict[tuple, Candidate] = {}
    for candidate in ranked:
        best_per_shape.setdefault((candidate.tp, candidate.pp, candidate.cp, candidate.ep, candidate.recompute),
                                  candidate)
    chosen = [c for c in best_per_shape.values()
              if validate_config(model, train, _parallel(c, gpus, options), hardware, throughput).ok][:alternatives + 1]
    reports = [_report(model, train, c, gpus, hardware, throughput, lang, options) for c in chosen]
    for candidate, report in zip(chosen[1:], reports[1:]):
        report["why"] = why_after(chosen[0], candidate, lang)
    return {"best": reports[0] if reports else None, "alternatives": reports[1:],
            "steps": plan_steps(model, train, gpus, hardware, chosen, reports, (considered, evaluated, len(ranked)),
                                lang, options.reserve, chosen[0].sharding if chosen else "distopt", options.moments,
                                options.savings)}



def _parallel(candidate: Candidate, gpus: int, options: Options) -> Parallel:
    return Parallel(gpus=gpus, tp=candidate.tp, pp=candidate.pp, cp=candidate.cp, ep=candidate.ep, dp=candidate.dp,
                    vpp=candidate.vpp, sharding=candidate.sharding, sp=options.sp, recompute=candidate.recompute,
                    flash=options.flash, moments=options.moments, savings=options.savings)


def _report(model: Model, train: Train, candidate: Candidate, gpus: int, hardware: Hardware,
            throughput: Throughput | None, lang: str, options: Options) -> dict:
    report = size(model, train, _parallel(candidate, gpus, options), hardware, throughput, lang)
    layout = {"tp": candidate.tp, "pp": candidate.pp, "cp": candidate.cp, "ep": candidate.ep, "dp": candidate.dp,
              "vpp": candidate.vpp, "recompute": candidate.recompute, "sharding": candidate.sharding,
              "headroom": candidate.headroom,
              "slow_link_bytes": candidate.slow_link_bytes}
    return {**layout, **report}
