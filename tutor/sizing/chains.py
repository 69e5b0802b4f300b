"""Which formulas a `tutor size` report chains together, for each way of training (a `Mode`).

The mode fixes the choices that change formulas — sharding, the activation row of Korthikanti
Table 2, interleaving, MoE, what is known of the architecture and throughput — and numbers
stay inputs, so one compiled derivation serves every layout of that mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tutor.sizing.derivation import Derivation, Link, constant, link, ref, symbol
from tutor.sizing.errors import SizingError

N = symbol("dp") * symbol("cp")  # ranks holding the same weights: CP ranks do too (DESIGN §4)
EVEN_SPLIT = symbol("params") / (symbol("tp") * symbol("pp"))  # what the sharded parts are split from without a stage count
ACTIVE = symbol("active_params")  # FLOPs count the parameters a token uses (all of them when dense)
SEQ_PER_CP = symbol("seq") / symbol("cp")  # the tokens a TP group, or a layer's activations, work on
MTBF_S = ref("mtbf_hours") * 3600
BOUND = (N, EVEN_SPLIT, SEQ_PER_CP, MTBF_S)
"""Every bound term of more than one name: `python -m tutor.sizing.generate` prints each ahead of time
(printed_formulas.BOUND), so the derivation's notes (`N ← CP·DP = 256`) need no SymPy."""
FULL_ROWS = ("activation_per_layer_full", "activation_per_layer_full_sp")


@dataclass(frozen=True)
class Mode:
    sharding: str = "none"
    activation_row: str | None = None
    """Registry formula for one layer's activations, None when layers/hidden are unknown."""
    interleaved: bool = False
    moe: bool = False
    first_stage: str | None = None
    """With PP > 1 and the shape known, the formula of the most loaded stage's parameters per GPU
    (first_stage_params_gpt/_llama, stage_params_moe/_moe_gpt): memory is that stage's."""
    stage_memory: bool = True
    """Memory counts that stage. False when Ψ is stated rather than counted (the lesson's round 1T):
    the stated Ψ's even split is used, and the stage count only feeds the first-stage note."""
    trimmed: bool = False
    """Pipeline stages (or, interleaved, chunks) trimmed as in Llama 3 (one layer fewer on the first and
    last): the activation formula of that split (first_stage_activations_trimmed, or
    first_stage_activations_interleaved_trimmed); `first_stage` names its stage count."""
    positions: int | None = None
    """GPT's learned position rows when the model fixes them (GPT-3: 2048), else the sequence length."""
    lookup: str | None = None
    """"untied"/"tied": FLOPs count Ψ less the embedding lookups (flop_params_*); None: Ψ as given."""
    hardware: str | None = None
    """Formula of the FLOPs the GPUs execute per token when it differs from the model FLOPs (recompute)."""
    rate: str | None = None
    """Which of mfu, tokens_per_s, step_time, achieved_flops is given."""
    tokens: bool = False
    attention: bool = False
    """Layers and hidden known: FLOPs with attention."""
    heads: bool = False
    """Heads known: context-parallel traffic."""
    failures: bool = False
    """Days and interruptions known: mean time between interruptions."""
    interval: bool = False
    """Also the checkpoint write time: Young's and Daly's intervals."""
    moments: str = "fp32"
    """"bf16": AdamW's m and v in BF16 (DeepSeek-V3 §3.3.3), 8 bytes of optimizer state a parameter; with
    the distributed optimizer only."""


SAVINGS = ("norm_up", "fp8")
"""DeepSeek-V3's activation savings (formulas/activations.py): RMSNorm and MLA up-projections recomputed,
activations cached in FP8."""


def activation_row(tp: int, sp: bool, flash: bool, recompute: str, mlp: bool = False,
                   savings: tuple[str, ...] = ()) -> str:
    """The Korthikanti Table 2 row for this setting (FlashAttention drops the 5as/h term like selective).
    `mlp`: a dense model whose MLP width is known, so the SP row counts it (18 + 4f/h, Megatron-LM).
    `savings`: DeepSeek-V3's (SAVINGS), which change K22's 34 row; full recompute keeps only each layer's
    input and ignores them."""
    if recompute == "full":
        return "activation_per_layer_full_sp" if sp and tp > 1 else "activation_per_layer_full"
    if savings:
        if mlp or not (flash and (tp == 1 or sp)):
            raise SizingError("the DeepSeek-V3 activation savings are modelled on K22's 34·s·b·h row: a mixture of "
                              "experts with FlashAttention, and sequence parallelism when TP > 1")
        return "activation_bytes_per_layer_" + "_".join(name for name in SAVINGS if name in savings)
    if flash or recompute == "selective":
        if tp == 1 or sp:
            return "activation_bytes_per_layer_mlp" if mlp else "activation_bytes_per_layer"
        return "activation_per_layer_tp_selective"
    if tp == 1:
        return "activation_per_layer_none"
    return "activation_per_layer_tp_sp" if sp else "activation_per_layer_tp"


def _memory(mode: Mode) -> list[Link]:
    """Weights, gradients and optimizer state of the most loaded stage when its count is known
    (first_stage_params), else of the even split Ψ/(TP·PP)."""
    staged = mode.first_stage is not None and mode.stage_memory
    held = ref("first_stage_params") if staged else ref("params_per_gpu")
    if staged:
        basis = ref("first_stage_shard_params") if mode.moe else held
    else:
        basis = EVEN_SPLIT
    sharded = mode.sharding != "none"
    bf16 = mode.moments == "bf16"
    if bf16 and mode.sharding != "distopt":
        raise SizingError("BF16 AdamW moments (--moments bf16) are modelled with the distributed optimizer over "
                          "DP × CP > 1 (DeepSeek-V3's ZeRO-1)")
    tail = "_bf16_moments" if bf16 else ""
    links = [link("weights", "weight_bytes_sharded", params=basis, n_shard=N) if mode.sharding == "zero3"
             else link("weights", "weight_bytes", params=held)]
    if mode.sharding == "distopt":
        links.append(link("grads", "grad_bytes_fp32", params=held))
    elif mode.sharding in ("zero2", "zero3"):
        links.append(link("grads", "grad_bytes_sharded", params=basis, n_shard=N))
    else:
        links.append(link("grads", "grad_bytes", params=held))
    links.append(link("optimizer", "optimizer_bytes_sharded" + tail, params=basis, n_shard=N) if sharded
                 else link("optimizer", "optimizer_bytes", params=held))
    if mode.sharding == "none":
        total = link("model_state", "model_state_bytes", params=held) if mode.moe or staged \
            else link("model_state", "model_state_per_gpu")
    elif mode.sharding == "distopt" and mode.moe and staged:
        total = link("model_state", "moe_stage_distopt_bytes" + tail, stage_params=held, stage_shard_params=basis,
                     n_shard=N)
    elif mode.sharding == "distopt" and staged:
        total = link("model_state", "distopt_bytes" + tail, params=held, n_shard=N)
    elif mode.sharding == "distopt":
        total = link("model_state", ("moe_distopt_bytes_per_gpu" if mode.moe else "distopt_bytes_per_gpu") + tail)
    else:
        total = link("model_state", f"{mode.sharding}_bytes", params=held, n_shard=N)
    return links + [total]


def _stage_links(mode: Mode) -> list[Link]:
    if mode.first_stage is None:
        return []
    rows = {"seq": constant(mode.positions)} if mode.positions and "gpt" in mode.first_stage else {}
    links = [link("first_stage_params", mode.first_stage, **rows)]
    if mode.moe and mode.stage_memory:
        links.append(link("first_stage_shard_params", mode.first_stage.replace("stage_params", "stage_shard_params"),
                          **rows))
    return links


def _activations(mode: Mode) -> list[Link]:
    if mode.activation_row is None:
        return []
    if mode.activation_row.startswith("activation_bytes_per_layer"):  # these divide by CP themselves
        per_layer = link("activations_per_layer", mode.activation_row)
    else:
        per_layer = link("activations_per_layer", mode.activation_row, seq=SEQ_PER_CP)
    first_stage = (("first_stage_activations_interleaved_trimmed" if mode.trimmed else
                    "first_stage_activations_interleaved") if mode.interleaved else
                   "first_stage_activations_trimmed" if mode.trimmed else "first_stage_activations")
    return [per_layer, link("activations", first_stage, act_layer=ref("activations_per_layer"))]


def _throughput(mode: Mode) -> list[Link]:
    flop_params = ref("flop_params") if mode.lookup else ACTIVE
    rows = {"seq": constant(mode.positions)} if mode.positions and mode.lookup == "tied" else {}
    links = [link("flop_params", f"flop_params_{mode.lookup}", **rows)] if mode.lookup else []
    links.append(link("flops_per_token_6n", "flops_per_token", params=flop_params))
    if mode.attention:
        links.append(link("flops_per_token", "flops_per_token_attn", params=flop_params))
    model_flops = ref("flops_per_token") if mode.attention else ref("flops_per_token_6n")
    if mode.hardware:  # what the GPUs really execute: the forward again under full recompute
        links.append(link("hardware_flops_per_token", mode.hardware, params=flop_params))
    executed = ref("hardware_flops_per_token") if mode.hardware else model_flops
    rate = {
        "mfu": [link("tokens_per_s", "tokens_per_s_at_mfu", params=flop_params), link("step_time_s", "step_time_s")],
        "tokens_per_s": [link("mfu", "mfu_from_tokens", params=flop_params), link("step_time_s", "step_time_s")],
        "step_time": [link("tokens_per_s", "tokens_per_s_from_step"),
                      link("mfu", "mfu_from_tokens", params=flop_params)],
        "achieved_flops": [link("tokens_per_s", "tokens_per_s_from_hw_flops", hw_flops=executed),
                           link("mfu", "mfu_from_tokens", params=flop_params),
                           link("step_time_s", "step_time_s")],
    }.get(mode.rate or "", [])
    links += rate
    if rate and mode.rate != "achieved_flops":
        links.append(link("achieved_flops_per_gpu", "hw_flops_per_gpu", hw_flops=executed))
    if rate and mode.attention:
        links.append(link("mfu_attn", "mfu_attn_from_tokens", params=flop_params))
    if mode.tokens:
        links.append(link("train_flops", "train_flops", params=flop_params))
        if rate:
            links += [link("train_time_s", "train_time_s", params=flop_params),
                      link("train_days", "train_days", params=flop_params)]
    return links


@lru_cache(maxsize=None)
def size_derivation(mode: Mode) -> Derivation:
    """Every figure of a `tutor size` report for this mode, in the order the learner reads them."""
    links = [link("model_state_total", "model_state_bytes"),
             link("min_gpus_for_model_state", "min_gpus_model_state"),
             link("gpus_per_replica", "gpus_per_replica"),
             link("params_per_gpu", "moe_params_per_gpu" if mode.moe else "params_per_gpu")]
    if mode.moe:
        links.append(link("expert_data_parallel", "expert_data_parallel"))
    links += _stage_links(mode) + _memory(mode) + [link("microbatches", "microbatches")] + _activations(mode)
    links += [link("bubble", "bubble_fraction_interleaved" if mode.interleaved else "bubble_fraction"),
              link("bubble_wallclock", "bubble_wallclock")]
    links += _throughput(mode)
    links += [link("checkpoint_bytes", "checkpoint_bytes"),
              link("checkpoint_bytes_per_gpu", "checkpoint_bytes_per_gpu"),
              link("dp_grad_bytes", "dp_grad_bytes", params=ref("params_per_gpu"), dp=N)]
    if mode.attention:  # the per-layer traffic needs the hidden size; a TP group works on s/CP tokens
        links += [link("tp_bytes_per_layer", "tp_bytes_per_layer", seq=SEQ_PER_CP),
                  link("pp_bytes_per_microbatch", "pp_bytes_per_microbatch")]
    if mode.heads:
        links.append(link("cp_bytes_per_layer", "cp_bytes_per_layer"))
    if mode.failures:
        links.append(link("mtbf_hours", "mtbf_hours"))
    if mode.failures and mode.interval:
        links += [link("young_interval_s", "young_interval_s", mtbf_s=MTBF_S),
                  link("daly_interval_s", "daly_interval_s", mtbf_s=MTBF_S)]
    return Derivation(links)


@lru_cache(maxsize=None)
def planner_derivation(mode: Mode) -> tuple[Derivation, tuple[str, ...]]:
    """The planner's figures and their output names. Both schedules in one (`activations`/`bubble`
    for 1F1B, `activations_interleaved`/`bubble_interleaved`), so one compile per activation row."""
    links = [link("params_per_gpu", "moe_params_per_gpu" if mode.moe else "params_per_gpu")]
    links += _stage_links(mode) + _memory(mode) + [link("microbatches", "microbatches")]
    if mode.activation_row is not None:
        # `trimmed` is the split of the mode's own schedule (report.mode_for: trimmed_stages(model, p, v)); the
        # planner reads the output of that schedule only.
        links += _activations(Mode(activation_row=mode.activation_row, trimmed=mode.trimmed))
        links.append(link("activations_interleaved", "first_stage_activations_interleaved_trimmed" if mode.trimmed
                          else "first_stage_activations_interleaved", act_layer=ref("activations_per_layer")))
    links += [link("bubble", "bubble_fraction"),
              link("bubble_interleaved", "bubble_fraction_interleaved"), link("bubble_wallclock", "bubble_wallclock"),
              link("dp_grad_bytes", "dp_grad_bytes", params=ref("params_per_gpu"), dp=N)]
    if mode.attention:
        links += [link("tp_bytes_per_layer", "tp_bytes_per_layer", seq=SEQ_PER_CP),
                  link("pp_bytes_per_microbatch", "pp_bytes_per_microbatch")]
    if mode.heads:
        links.append(link("cp_bytes_per_layer", "cp_bytes_per_layer"))
    # The gradients stay an output: the planner bounds ZeRO-2's memory by the distributed optimizer's less them.
    return Derivation(links), tuple(item.id for item in links if item.id not in ("weights", "optimizer"))


@lru_cache(maxsize=None)
def planner_function(mode: Mode, only: tuple[str, ...] | None = None) -> tuple[tuple[str, ...], tuple[str, ...], object]:
    """(outputs, input names, compiled function): the planner's fast path for this mode; with `only`,
    just those of its outputs (the ones this mode has), so nothing the caller ignores is computed."""
    derivation, outputs = planner_derivation(mode)
    if only is not None:
        outputs = tuple(name for name in only if name in outputs)
    names, function = derivation.fused(outputs)
    return outputs, names, function


LAYOUT_INPUTS = ("tp", "pp", "cp", "ep", "dp", "vpp")


@lru_cache(maxsize=None)
def planner_factory(mode: Mode, only: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], object]:
    """(outputs, constant input names, make): `planner_function`'s values, specialised per search
    (Derivation.specialised): `make(*constants)(tp, pp, cp, ep, dp, vpp)` -> the outputs."""
    derivation, outputs = planner_derivation(mode)
    outputs = tuple(name for name in only if name in outputs)
    constants, make = derivation.specialised(outputs, LAYOUT_INPUTS)
    return outputs, constants, make
