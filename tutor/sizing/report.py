"""`size()`: the `tutor size --json` report (DESIGN §5) for one model, batch, layout and GPU.

Numbers are in base units (bytes, seconds, fractions); `steps` is the derivation the learner can
follow. Memory per GPU is the model state of the most loaded pipeline stage plus the first stage's
activations: with PP > 1 and the architecture known, the stage's own parameters (⌈L/p⌉ layers
and the embedding or output layer, Megatron's "most loaded shard"), else the lesson's even split
Ψ/(TP·PP); a note says how far the stage is above the even split.
"""

from __future__ import annotations

from functools import lru_cache

from tutor.sizing.chains import Mode, activation_row, size_derivation
from tutor.sizing.display import format_value, gigabytes
from tutor.sizing.engine import evaluate, model_values
from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.specs import Hardware, Model, Parallel, Reliability, Throughput, Train
from tutor.sizing.validate import HIGH_MFU, Findings, resolve, resolved, trimmed_stages, validate_config
from tutor.text import T, a_or_an

# The first stage's embedding is worth a warning once it adds this much to the even split.
FIRST_STAGE_MARGIN = 0.05
TRAFFIC_STEPS = ("tp_bytes_per_layer", "dp_grad_bytes", "pp_bytes_per_microbatch", "cp_bytes_per_layer")


@lru_cache(maxsize=1024)  # the planner asks once per PP of every search; a pure function of its inputs
def stage_formula(model: Model, pp: int, seq: int | None = None) -> str | None:
    """The formula of the most loaded stage's parameters per GPU, when PP > 1 and the shape is known."""
    shape = model.architecture_inputs(seq)
    if pp == 1 or shape is None:
        return None
    if trimmed_stages(model, pp):
        layer = evaluate("layer_params_llama", hidden=shape["hidden"], heads=shape["heads"],
                         kv_heads=shape["kv_heads"], ffn=shape["ffn"])
        output = shape["vocab"] * shape["hidden"] + shape["hidden"]  # the last stage's output layer and final norm
        return "stage_params_llama_trimmed" if layer >= output else "stage_params_llama_trimmed_last"
    if model.modern_moe:
        return "stage_params_moe"
    if model.is_moe:
        return "stage_params_moe_gpt" if model.arch == "gpt" else None
    return f"first_stage_params_{model.arch}"


def counts_mlp(model: Model) -> bool:
    """Activations count the MLP width (18 + 4f/h) for a dense model whose f is known; a MoE keeps
    K22's 34 (its routed tokens are not one MLP of width f)."""
    return model.ffn is not None and not model.is_moe


def lookup_kind(model: Model, seq: int | None = None) -> str | None:
    """Which embedding is a lookup without FLOPs: the untied input table (Llama) or GPT's positions.
    Only for a Ψ counted from the shape; a stated Ψ (the lesson's round 1T) is used as stated."""
    if model.architecture_inputs(seq) is None:
        return None
    return "tied" if model.arch == "gpt" else "untied"


def effective_sharding(par: Parallel) -> str:
    """Sharding over DP × CP = 1 rank saves nothing: counted as none (16 B/param), never more."""
    return par.sharding if resolved(par.dp) * par.cp > 1 else "none"


def mode_for(model: Model, train: Train, par: Parallel, throughput: Throughput,
             reliability: Reliability | None = None) -> Mode:
    """The formulas this configuration needs (see tutor.sizing.chains)."""
    shape_known = model.layers is not None and model.hidden is not None
    if "norm_up" in par.savings and not model.mla:
        raise SizingError("recomputing the MLA up-projections needs multi-head latent attention (DeepSeek-V3's)")
    row = activation_row(par.tp, par.sp, par.flash, par.recompute, counts_mlp(model), par.savings) \
        if shape_known else None
    if row in ("activation_per_layer_none", "activation_per_layer_tp", "activation_per_layer_tp_sp") \
            and model.heads is None:
        raise SizingError("activations without FlashAttention or selective recompute need the number of heads "
                          "(--heads)")
    hardware = None
    if par.recompute == "full":
        hardware = "hardware_flops_per_token_full" if shape_known else "hardware_flops_per_token_full_8n"
    return Mode(sharding=effective_sharding(par), activation_row=row, interleaved=par.vpp > 1, moe=model.is_moe,
                first_stage=stage_formula(model, par.pp, train.seq), stage_memory=model.params is None,
                trimmed=trimmed_stages(model, par.pp, par.vpp),
                positions=model.positions,
                lookup=lookup_kind(model, train.seq) if model.params is None else None,
                hardware=hardware, rate=throughput.kind,
                tokens=train.tokens is not None, attention=shape_known,
                heads=shape_known and model.heads is not None,
                failures=reliability is not None and None not in (reliability.days, reliability.interruptions),
                interval=reliability is not None and reliability.ckpt_write_s is not None, moments=par.moments)


def inputs_for(model: Model, train: Train, par: Parallel, hardware: Hardware, throughput: Throughput,
               reliability: Reliability | None = None) -> dict:
    values = dict(model_values(model, train.seq))
    values.update(seq=train.seq, micro_batch=train.micro_batch, global_batch=train.global_batch,
                  gpus=resolved(par.gpus), tp=par.tp, pp=par.pp, cp=par.cp, ep=par.ep, dp=resolved(par.dp),
                  vpp=par.vpp,
                  gpu_mem=hardware.gpu_mem, peak_flops=hardware.peak_flops)
    if train.tokens is not None:
        values["tokens"] = train.tokens
    if throughput.kind:
        values[throughput.kind] = getattr(throughput, throughput.kind)
    for name in ("days", "interruptions", "ckpt_write_s"):
        if reliability is not None and getattr(reliability, name) is not None:
            values[name] = getattr(reliability, name)
    return values


def size(model: Model, train: Train | None = None, parallel: Parallel | None = None,
         hardware: Hardware | None = None, throughput: Throughput | None = None, lang: str = "en",
         reliability: Reliability | None = None) -> dict:
    """The full report; SizingError when the inputs cannot be computed at all.

    With `reliability` (days and interruptions, optionally the checkpoint write time) the steps
    also give the mean time between interruptions and the Young/Daly checkpoint intervals."""
    train, hardware = train or Train(), hardware or gpu("h100-80gb")
    throughput = throughput or Throughput()
    par = resolve(parallel or Parallel())
    found = validate_config(model, train, par, hardware, throughput)
    out, steps = size_derivation(mode_for(model, train, par, throughput, reliability)).run(
        inputs_for(model, train, par, hardware, throughput, reliability), lang)
    _memory_findings(found, out, model, hardware, lang)
    _rate_findings(found, out, throughput)
    activations = out.get("activations")
    total = out["model_state"] + (activations or 0.0)
    params = model_values(model, train.seq)["params"]
    return {
        "params": params,
        "params_per_gpu": out["params_per_gpu"],
        "memory": {"weights": out["weights"], "grads": out["grads"], "optimizer": out["optimizer"],
                   "model_state": out["model_state"], "activations": activations,
                   "activations_per_layer": out.get("activations_per_layer"), "total": total,
                   "capacity": hardware.gpu_mem, "fits": total <= hardware.gpu_mem},
        "min_gpus_for_model_state": int(out["min_gpus_for_model_state"]),
        "pipeline": {"microbatches": _count(out["microbatches"]), "bubble": out["bubble"],
                     "bubble_wallclock": out["bubble_wallclock"]},
        "flops": {"per_token_6n": out["flops_per_token_6n"], "per_token": out.get("flops_per_token")},
        "throughput": {"tokens_per_s": out.get("tokens_per_s", throughput.tokens_per_s),
                       "step_time_s": out.get("step_time_s", throughput.step_time),
                       "mfu": out.get("mfu", throughput.mfu), "mfu_attn": out.get("mfu_attn")},
        "train_time_s": out.get("train_time_s"),
        "train_days": out.get("train_days"),
        "checkpoint": {"bytes_total": out["checkpoint_bytes"], "bytes_per_gpu": out["checkpoint_bytes_per_gpu"]},
        "warnings": [finding.text(lang) for finding in found.warnings],
        "errors": [finding.text(lang) for finding in found.errors],
        "steps": [step for step in steps if not (step["id"] in TRAFFIC_STEPS and step["value"] == 0)],
    }


def _count(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _memory_findings(found: Findings, out: dict, model: Model, hardware: Hardware, lang: str) -> None:
    activations = out.get("activations")
    total = out["model_state"] + (activations or 0.0)
    if activations is None:
        found.warn("no-activations", T("activations not counted: give the layers and hidden size (--layers, --hidden)",
                   "没算 activation：请给出层数和 hidden size(--layers、--hidden)"))
    if total > hardware.gpu_mem:
        over = total - hardware.gpu_mem
        memory = gigabytes(hardware.gpu_mem, 'en')
        found.warn("memory", T(f"does not fit: {gigabytes(total, 'en')} per GPU on {a_or_an(memory)} {memory} "
                   f"{hardware.name}, {gigabytes(over, 'en')} over",
                   f"放不下：每卡需要 {gigabytes(total, 'zh')}，{hardware.name} 只有 {gigabytes(hardware.gpu_mem, 'zh')}，"
                   f"超出 {gigabytes(over, 'zh')}"))
    first, even = out.get("first_stage_params"), out["params_per_gpu"]
    if first is not None and first > even * (1 + FIRST_STAGE_MARGIN):
        share = first / even - 1
        found.warn("first-stage", T(f"the most loaded pipeline stage holds an embedding too: "
                   f"{format_value(first, 'params', 2)} parameters per GPU, {share:.0%} more than Ψ/(TP·PP) = "
                   f"{format_value(even, 'params', 2)}; memory counts that stage",
                   f"最满的 pipeline stage 还要放 embedding：每卡 {format_value(first, 'params', 2, 'zh')} 参数，"
                   f"比 Ψ/(TP·PP) = {format_value(even, 'params', 2, 'zh')} 多 {share:.0%}；显存按这个 stage 算"))


def _rate_findings(found: Findings, out: dict, throughput: Throughput) -> None:
    mfu = out.get("mfu")
    if mfu is None:
        return
    if mfu > 1:
        found.error("mfu-over-1", T(f"that throughput means MFU {mfu:.0%}, above the hardware's peak: check the numbers",
                    f"这个吞吐对应 MFU {mfu:.0%}，超过硬件峰值：请检查输入"))
    elif max(mfu, out.get("mfu_attn") or 0.0) > HIGH_MFU and throughput.mfu is None:
        mfu = max(mfu, out.get("mfu_attn") or 0.0)
        found.warn("high-mfu", T(f"that throughput means MFU {mfu:.0%}, above any published large run "
                   "(Llama 3 405B: 38–43%)", f"这个吞吐对应 MFU {mfu:.0%}，高于所有公开的大规模训练（Llama 3 405B:38–43%）"))
