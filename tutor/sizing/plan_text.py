"""The planner's explanation: one step per decision of the recipe, in en or zh, numbers from the engine."""

from __future__ import annotations

from tutor.sizing.display import format_auto, format_value, gigabytes
from tutor.sizing.specs import Hardware, Model, Train
from tutor.text import T, a_or_an


def _pct(value: float) -> str:
    return format_value(value, "%", 1)


def _coefficient(model: Model) -> str:
    """The bytes per s·b·h the activation row used: 18 + 4f/h when the MLP width counts (31 for
    Llama 3 405B, report.counts_mlp), else Korthikanti's 34."""
    from tutor.sizing.report import counts_mlp

    if not counts_mlp(model) or model.hidden is None or model.ffn is None:
        return "34"
    return f"{18 + 4 * model.ffn / model.hidden:.3g}"


def _saved_coefficient(model: Model, savings: tuple[str, ...]) -> tuple[str, T]:
    """The bytes per s·b·h under DeepSeek-V3's activation savings (formulas/activations.py), and their names."""
    latents = (model.q_rank or 0) + (model.kv_rank or 0) + (model.rope_dim or 0)
    hidden = model.hidden or 1
    names = []
    if "norm_up" in savings:
        names.append(T("RMSNorm and MLA up-projections recomputed (DeepSeek-V3 §3.2.3)",
                       "重算 RMSNorm 和 MLA up-projection（DeepSeek-V3 §3.2.3）"))
    if "fp8" in savings:
        names.append(T("activations cached in FP8 (DeepSeek-V3 §3.3.3)", "FP8 缓存 activation（DeepSeek-V3 §3.3.3）"))
    value = {("norm_up",): 24 + 2 * latents / hidden, ("fp8",): 19.5,
             ("norm_up", "fp8"): 11.5 + latents / hidden}[tuple(name for name in ("norm_up", "fp8") if name in savings)]
    return f"{value:.3g}", T(" and ".join(name.en for name in names), "、".join(name.zh for name in names))


def _why_not_interleaved(model: Model, best) -> T:
    """The reason the plan's pipeline is not interleaved, the one that applies."""
    from tutor.sizing.validate import trimmed_stages

    from tutor.sizing.layout_space import MAX_VPP

    layers = model.layers
    if layers is None:
        chunked = True
    else:
        chunked = any(layers % (best.pp * v) == 0 or trimmed_stages(model, best.pp, v) for v in range(2, MAX_VPP + 1))
    if layers is not None and not chunked and trimmed_stages(model, best.pp):
        return T(f"{layers} layers split as Llama 3 split them ({(layers + 2) // best.pp - 1} on the first and last "
                f"stage) do not split into PP × v chunks for v ≤ {MAX_VPP}, even so trimmed ({layers} + 2 is not a "
                f"multiple of {best.pp}·v)",
                f"按 Llama 3 的切法（首尾 stage 各 {(layers + 2) // best.pp - 1} 层），v ≤ {MAX_VPP} 时也分不成 PP × v 段"
                f"（{layers} + 2 不是 {best.pp}·v 的倍数）")
    if layers is not None and not chunked:
        return T(f"{layers} layers do not split into PP × v equal chunks for v > 1",
                f"{layers} 层分不成 PP × v（v > 1）个相等的段")
    if best.microbatches % best.pp:
        return T(f"m = {best.microbatches} is not a multiple of p = {best.pp}, which interleaving needs",
                f"m = {best.microbatches} 不是 p = {best.pp} 的整数倍，interleaved 需要整数倍")
    tried = _interleaved_total(model, best)
    if tried is not None and tried[1] > best.evaluator.limit:
        v, total, limit = tried[0], tried[1] / 1e9, best.evaluator.limit / 1e9
        return T(f"interleaved with v = {v} keeps more activations in flight: {total:.1f} GB, over the "
                f"{limit:.1f} GB budget",
                f"v = {v} 的 interleaved 在途的 activation 更多：要 {total:.1f} GB，超出 {limit:.1f} GB 的预算")
    return T("the interleaved schedule keeps more activations in flight and does not fit, or does not help here",
            "interleaved 在途的 activation 更多，放不下或没有好处")


def _interleaved_total(model: Model, best) -> tuple[int, float] | None:
    """(v, memory) of the best layout interleaved with the smallest v its layers allow, or None."""
    from tutor.sizing.layout_space import chunk_counts

    chunks = [v for v in chunk_counts(model, best.pp, best.microbatches) if v > 1]
    evaluator = getattr(best, "evaluator", None)
    if not chunks or evaluator is None:
        return None
    found = evaluator(best.tp, best.pp, best.cp, best.ep, best.dp, chunks[0], best.recompute, best.microbatches,
                      float("inf"), best.sharding)
    return None if found is None else (chunks[0], found.total)


# The sharding a plan's steps name, as its sentences write it.
SHARDING_WORDS = {
    "distopt": T("the distributed optimizer", "distributed optimizer"), "none": T("no sharding", "不切分"),
    "zero1": T("ZeRO-1", "ZeRO-1"), "zero2": T("ZeRO-2", "ZeRO-2"), "zero3": T("ZeRO-3 (FSDP)", "ZeRO-3(FSDP)"),
}


def plan_steps(model: Model, train: Train, gpus: int, hardware: Hardware, chosen: list, reports: list,
               counts: tuple[int, int, int], lang: str, reserve: float | None = None,
               sharding: str = "distopt", moments: str = "fp32", savings: tuple[str, ...] = ()) -> list[dict]:
    from tutor.sizing.rules import RESERVE

    RESERVE = RESERVE if reserve is None else reserve  # noqa: N806 - the reserve this plan used
    considered, evaluated, fitting = counts
    shard_en, shard_zh = SHARDING_WORDS[sharding]
    if moments == "bf16":
        shard_en += " and BF16 AdamW moments (8 bytes of optimizer state a parameter, DeepSeek-V3 §3.3.3)"
        shard_zh += " + BF16 的 AdamW m、v（optimizer state 每个参数 8 字节，DeepSeek-V3 §3.3.3）"
    steps = []

    def say(step_id: str, text: T) -> None:
        steps.append({"id": step_id, "text": text.get(lang)})

    cap = gigabytes(hardware.gpu_mem, lang)
    if reports:
        first = reports[0]
        state = next(step["value"] for step in first["steps"] if step["id"] == "model_state_total")
        shown, min_gpus = format_auto(state, "B", 1, lang), first["min_gpus_for_model_state"]
        if moments == "bf16":
            # The 16 bytes are bf16 weight and gradient, fp32 master, m and v: not this recipe's. Its own
            # bytes, unsharded, from the formula its per-GPU memory uses (N = 1), said beside the 16 the
            # report's "GPUs to hold the model state" counts.
            from math import ceil

            from tutor.sizing.engine import evaluate

            own = float(evaluate("distopt_bytes_bf16_moments", params=first["params"], n_shard=1))
            own_shown, own_gpus = format_auto(own, "B", 1, lang), ceil(own / hardware.gpu_mem)
            per = round(own / first["params"])
            say("memory", T(f"Memory first: 16 bytes × Ψ = {shown} of model state at the usual precisions ({min_gpus} "
                f"GPUs of {cap}); this recipe keeps {per} bytes × Ψ = {own_shown} (bf16 weight 2, fp32 gradient 4, "
                f"fp32 master 4, bf16 m and v 2 + 2), so at least {own_gpus} GPUs just to hold it, before activations.",
                f"先算 memory：按常用精度 16 字节 × Ψ = {shown} 的 model state（{min_gpus} 张 {cap} 的卡）；这个方案每个"
                f"参数 {per} 字节 × Ψ = {own_shown}（bf16 weight 2、fp32 gradient 4、fp32 master 4、bf16 m 和 v 各 2），"
                f"光放它就至少要 {own_gpus} 张卡，还没算 activation。"))
        else:
            say("memory", T(f"Memory first: 16 bytes × Ψ = {shown} of model state, so at least {min_gpus} GPUs of {cap} "
                "just to hold it, before activations.",
                f"先算 memory：16 字节 × Ψ = {shown} 的 model state，光放它就至少要 {min_gpus} 张 {cap} 的卡，"
                "还没算 activation。"))
    say("search", T(f"Evaluated {evaluated} configurations over the {considered} divisor layouts of {gpus} GPUs; "
        f"{fitting} fit with {RESERVE:.0%} of memory kept free, TP ≤ {hardware.gpus_per_node} and m ≥ p.",
        f"在 {gpus} 张卡的 {considered} 种因数分解上评估了 {evaluated} 种配置；其中 {fitting} 种在留出 "
        f"{RESERVE:.0%} 显存、TP ≤ {hardware.gpus_per_node}、m ≥ p 的条件下放得下。"))
    if "global_batch" in train.assumed:
        say("assumed", T(f"The global batch was not given: assumed {train.global_batch} sequences.",
            f"没给 global batch：按 {train.global_batch} 条序列假设。"))
    if not reports and evaluated == 0:
        say("none", T(f"No layout could be evaluated: a global batch of {train.global_batch} sequences "
            f"(micro-batch {train.micro_batch}) cannot be split over the data-parallel ranks of {gpus} GPUs with at "
            "least one micro-batch per pipeline stage. Memory was not the reason: use fewer GPUs or a larger global "
            "batch.",
            f"一个配置也评估不了：{train.global_batch} 条序列的 global batch（micro-batch {train.micro_batch}）"
            f"在 {gpus} 张卡上分不到每个 DP rank、每个 pipeline stage 至少一个 micro-batch。不是显存的问题："
            "减少卡数或加大 global batch。"))
        return steps
    if not reports:
        say("none", T(f"No layout of {gpus} GPUs fits {cap} per GPU: add GPUs, shorten the sequence or the micro-batch.",
            f"{gpus} 张卡怎么切都放不进每卡 {cap}:加卡，或缩短序列、减小 micro-batch。"))
        return steps
    best, report = chosen[0], reports[0]
    memory = report["memory"]
    if best.tp == 1:
        say("tp", T(f"TP 1: with {shard_en} over data parallel the model fits without tensor parallelism.",
            f"TP 1：沿 DP 用 {shard_zh} 就放得下，不需要 TP。"))
    else:
        say("tp", T(f"TP {best.tp}: inside one {hardware.gpus_per_node}-GPU node, on NVLink (4 all-reduces per layer); "
            "the smallest TP that fits.",
            f"TP {best.tp}:放在一台 {hardware.gpus_per_node} 卡的机器内走 NVLink（每层 4 次 all-reduce）；放得下的最小 TP。"))
    if best.pp == 1:
        say("pp", T("PP 1: no pipeline needed, so no bubble.", "PP 1：不需要 pipeline，也就没有 bubble。"))
    elif not best.below_4p:
        say("pp", T(f"PP {best.pp}: the smallest pipeline that fits; m = {best.microbatches} micro-batches per pipeline "
            f"≥ 4p = {4 * best.pp}.",
            f"PP {best.pp}:放得下的最小 p；每条 pipeline m = {best.microbatches} 个 micro-batch ≥ 4p = {4 * best.pp}。"))
    else:
        say("pp", T(f"PP {best.pp}: no layout that fits reaches m ≥ 4p with a global batch of {train.global_batch}; "
            f"m = {best.microbatches} < 4p = {4 * best.pp}, so the bubble is large (a larger global batch or fewer "
            "GPUs would fix it).",
            f"PP {best.pp}:global batch 为 {train.global_batch} 时，放得下的配置都达不到 m ≥ 4p;"
            f"m = {best.microbatches} < 4p = {4 * best.pp},bubble 偏大（加大 global batch 或减少卡数可解决）。"))
    if best.pp > 1 and best.vpp > 1:
        say("interleave", T(f"Interleaved 1F1B with v = {best.vpp}: bubble (p−1)/(v·m) = {_pct(best.bubble)}.",
            f"interleaved 1F1B,v = {best.vpp}:bubble (p−1)/(v·m) = {_pct(best.bubble)}。"))
    elif best.pp > 1:
        why_en, why_zh = _why_not_interleaved(model, best)
        say("interleave", T(f"v = 1: {why_en}; bubble (p−1)/m = {_pct(best.bubble)}.",
            f"v = 1:{why_zh};bubble (p−1)/m = {_pct(best.bubble)}。"))
    if best.cp > 1:
        say("cp", T(f"CP {best.cp}: each rank holds {train.seq // best.cp} of the {train.seq} tokens; activations "
            f"{gigabytes(memory['activations'], lang)} per GPU.",
            f"CP {best.cp}:{train.seq} 个 token 切开，每个 rank {train.seq // best.cp} 个；activation 每卡 "
            f"{gigabytes(memory['activations'], lang)}。"))
    else:
        say("cp", T(f"CP 1: {a_or_an(str(train.seq))} {train.seq}-token sequence needs no context parallelism here.",
            f"CP 1:{train.seq} token 的序列这里不需要 CP。"))
    if model.is_moe:
        say("ep", T(f"EP {best.ep}: the {model.experts} experts are split over {best.ep} ranks of the DP × CP group "
            f"({model.experts // best.ep} per GPU); MoE folding, so EP does not multiply the GPU count.",
            f"EP {best.ep}:{model.experts} 个 expert 分到 DP × CP 组里的 {best.ep} 张卡（每卡 {model.experts // best.ep} 个）;"
            "MoE folding,EP 不额外乘卡数。"))
    if best.recompute == "full":
        say("recompute", T("Full recompute: nothing fits without it (or it was asked for); each layer keeps only its "
            "input (2·s·b·h, split over TP with SP) for about a third more compute (8ND instead of 6ND).",
            "Full recompute：不重算就放不下（或指定了）；每层只留输入（2·s·b·h，开 SP 时再按 TP 切），"
            "多花约三分之一的算力（8ND 而不是 6ND）。"))
    elif savings:
        coefficient, (en, zh_text) = _saved_coefficient(model, savings)
        say("recompute", T(f"No full recompute: FlashAttention with {en} keeps {coefficient}·s·b·h/(TP·CP) per layer "
            "instead of K22's 34.", f"不需要 full recompute：FlashAttention 加上{zh_text}，每层 "
            f"{coefficient}·s·b·h/(TP·CP)，不是 K22 的 34。"))
    else:
        coefficient = _coefficient(model)
        say("recompute", T(f"No recompute: FlashAttention and sequence parallelism keep {coefficient}·s·b·h/(TP·CP) "
            "per layer.", f"不需要 recompute:FlashAttention 加 SP 后每层 {coefficient}·s·b·h/(TP·CP)。"))
    if memory["activations"] is None:
        say("dp", T(f"The remaining DP {best.dp} with {shard_en}: {gigabytes(memory['model_state'], lang)} of "
            f"model state per GPU of {cap}; activations are not counted without --layers and --hidden.",
            f"剩下的 DP {best.dp} 用 {shard_zh}：每卡 model state {gigabytes(memory['model_state'], lang)}（共 {cap}）；"
            "没有 --layers 和 --hidden，activation 没算进去。"))
    else:
        say("dp", T(f"The remaining DP {best.dp} with {shard_en}: "
            f"{gigabytes(memory['model_state'], lang)} model state + {gigabytes(memory['activations'], lang)} activations = {gigabytes(memory['total'], lang)} of {cap}.",
            f"剩下的 DP {best.dp} 用 {shard_zh}:model state {gigabytes(memory['model_state'], lang)} + activation "
            f"{gigabytes(memory['activations'], lang)} = {gigabytes(memory['total'], lang)}（共 {cap}）。"))
    if len(reports) > 1:
        say("alternatives", T(f"{len(reports) - 1} other layouts follow in the recipe's order; compare their headroom, "
            "bubble and traffic on slow links.",
            f"后面按配方的顺序列出另外 {len(reports) - 1} 种配置；比较它们的余量、bubble 和跨机通信量。"))
    return steps
