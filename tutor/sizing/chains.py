"""Which formulas a `tutor size` report chains together, for each way of training (a `Mode`).

The mode fixes the choices that change formulas — sharding, the activation row of Korthikanti
Table 2, interleaving, MoE, what is known of the architecture and throughput — and numbers
stay inputs, so one compiled derivation serves every layout of that mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tutor.sizing.derivation import Derivation, Link, link, ref
from tutor.sizing.symbols import S

N = S["dp"] * S["cp"]  # ranks holding the same weights: CP ranks do too (DESIGN §4)
SHARD_BASIS = S["params"] / (S["tp"] * S["pp"])  # what the sharded parts are split from (MoE too)
ACTIVE = S["active_params"]  # FLOPs count the parameters a token uses (all of them when dense)


@dataclass(frozen=True)
class Mode:
    sharding: str = "none"
    activation_row: str | None = None
    """Registry formula for one layer's activations, None when layers/hidden are unknown."""
    interleaved: bool = False
    moe: bool = False
    first_stage: str | None = None
    """"gpt"/"llama": count the first stage's parameters with its embedding (dense, shape known)."""
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


def activation_row(tp: int, sp: bool, flash: bool, recompute: str) -> str:
    """The Korthikanti Table 2 row for this setting (FlashAttention drops the 5as/h term like selective)."""
    if recompute == "full":
        return "activation_per_layer_full"
    if flash or recompute == "selective":
        return "activation_bytes_per_layer" if tp == 1 or sp else "activation_per_layer_tp_selective"
    if tp == 1:
        return "activation_per_layer_none"
    return "activation_per_layer_tp_sp" if sp else "activation_per_layer_tp"


def _memory(mode: Mode) -> list[Link]:
    held = ref("params_per_gpu")
    sharded = mode.sharding != "none"
    links = [link("weights", "weight_bytes_sharded", params=SHARD_BASIS, n_shard=N) if mode.sharding == "zero3"
             else link("weights", "weight_bytes", params=held)]
    if mode.sharding == "distopt":
        links.append(link("grads", "grad_bytes_fp32", params=held))
    elif mode.sharding in ("zero2", "zero3"):
        links.append(link("grads", "grad_bytes_sharded", params=SHARD_BASIS, n_shard=N))
    else:
        links.append(link("grads", "grad_bytes", params=held))
    links.append(link("optimizer", "optimizer_bytes_sharded", params=SHARD_BASIS, n_shard=N) if sharded
                 else link("optimizer", "optimizer_bytes", params=held))
    if mode.sharding == "none":
        total = link("model_state", "model_state_bytes", params=held) if mode.moe \
            else link("model_state", "model_state_per_gpu")
    elif mode.sharding == "distopt":
        total = link("model_state", "moe_distopt_bytes_per_gpu" if mode.moe else "distopt_bytes_per_gpu")
    else:
        total = link("model_state", f"{mode.sharding}_bytes", params=held, n_shard=N)
    return links + [total]


def _activations(mode: Mode) -> list[Link]:
    if mode.activation_row is None:
        return []
    if mode.activation_row == "activation_bytes_per_layer":  # divides by CP itself
        per_layer = link("activations_per_layer", mode.activation_row)
    else:
        per_layer = link("activations_per_layer", mode.activation_row, seq=S["seq"] / S["cp"])
    first_stage = "first_stage_activations_interleaved" if mode.interleaved else "first_stage_activations"
    return [per_layer, link("activations", first_stage, act_layer=ref("activations_per_layer"))]


def _throughput(mode: Mode) -> list[Link]:
    links = [link("flops_per_token_6n", "flops_per_token", params=ACTIVE)]
    if mode.attention:
        links.append(link("flops_per_token", "flops_per_token_attn", params=ACTIVE))
    if mode.attention and mode.activation_row == "activation_per_layer_full":  # what the GPUs really execute
        links.append(link("hardware_flops_per_token", "hardware_flops_per_token_full", params=ACTIVE))
    rate = {
        "mfu": [link("tokens_per_s", "tokens_per_s_at_mfu", params=ACTIVE), link("step_time_s", "step_time_s")],
        "tokens_per_s": [link("mfu", "mfu_from_tokens", params=ACTIVE), link("step_time_s", "step_time_s")],
        "step_time": [link("tokens_per_s", "tokens_per_s_from_step"), link("mfu", "mfu_from_tokens", params=ACTIVE)],
        "achieved_flops": [link("mfu", "mfu_from_achieved"),
                           link("tokens_per_s", "tokens_per_s_from_achieved", params=ACTIVE),
                           link("step_time_s", "step_time_s")],
    }.get(mode.rate or "", [])
    links += rate
    if rate and mode.rate != "achieved_flops":
        links.append(link("achieved_flops_per_gpu", "achieved_flops_per_gpu", params=ACTIVE))
    if rate and mode.attention:
        links.append(link("mfu_attn", "mfu_attn_from_tokens", params=ACTIVE))
    if mode.tokens:
        links.append(link("train_flops", "train_flops", params=ACTIVE))
        if rate:
            links += [link("train_time_s", "train_time_s", params=ACTIVE),
                      link("train_days", "train_days", params=ACTIVE)]
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
    if mode.first_stage:
        links.append(link("first_stage_params", f"first_stage_params_{mode.first_stage}"))
    links += _memory(mode) + _activations(mode)
    links += [link("microbatches", "microbatches"),
              link("bubble", "bubble_fraction_interleaved" if mode.interleaved else "bubble_fraction"),
              link("bubble_wallclock", "bubble_wallclock")]
    links += _throughput(mode)
    links += [link("checkpoint_bytes", "checkpoint_bytes"),
              link("checkpoint_bytes_per_gpu", "checkpoint_bytes_per_gpu"),
              link("dp_grad_bytes", "dp_grad_bytes", params=ref("params_per_gpu"), dp=N)]
    if mode.attention:  # the per-layer traffic needs the hidden size
        links += [link("tp_bytes_per_layer", "tp_bytes_per_layer"),
                  link("pp_bytes_per_microbatch", "pp_bytes_per_microbatch")]
    if mode.heads:
        links.append(link("cp_bytes_per_layer", "cp_bytes_per_layer"))
    if mode.failures:
        links.append(link("mtbf_hours", "mtbf_hours"))
    if mode.failures and mode.interval:
        mtbf_s = ref("mtbf_hours") * 3600
        links += [link("young_interval_s", "young_interval_s", mtbf_s=mtbf_s),
                  link("daly_interval_s", "daly_interval_s", mtbf_s=mtbf_s)]
    return Derivation(links)


@lru_cache(maxsize=None)
def planner_derivation(mode: Mode) -> tuple[Derivation, tuple[str, ...]]:
    """The planner's figures and their output names. Both schedules in one (`activations`/`bubble`
    for 1F1B, `activations_interleaved`/`bubble_interleaved`), so one compile per activation row."""
    links = [link("params_per_gpu", "moe_params_per_gpu" if mode.moe else "params_per_gpu")]
    if mode.first_stage:
        links.append(link("first_stage_params", f"first_stage_params_{mode.first_stage}"))
    links += _memory(mode)
    if mode.activation_row is not None:
        links += _activations(Mode(activation_row=mode.activation_row))
        links.append(link("activations_interleaved", "first_stage_activations_interleaved",
                          act_layer=ref("activations_per_layer")))
    links += [link("microbatches", "microbatches"), link("bubble", "bubble_fraction"),
              link("bubble_interleaved", "bubble_fraction_interleaved"), link("bubble_wallclock", "bubble_wallclock"),
              link("dp_grad_bytes", "dp_grad_bytes", params=ref("params_per_gpu"), dp=N)]
    if mode.attention:
        links += [link("tp_bytes_per_layer", "tp_bytes_per_layer"),
                  link("pp_bytes_per_microbatch", "pp_bytes_per_microbatch")]
    if mode.heads:
        links.append(link("cp_bytes_per_layer", "cp_bytes_per_layer"))
    return Derivation(links), tuple(item.id for item in links if item.id not in ("weights", "grads", "optimizer"))


@lru_cache(maxsize=None)
def planner_function(mode: Mode) -> tuple[tuple[str, ...], tuple[str, ...], object]:
    """(outputs, input names, compiled function): the planner's fast path for this mode."""
    derivation, outputs = planner_derivation(mode)
    names, function = derivation.fused(outputs)
    return outputs, names, function
