"""What `tutor size` sizes: Model, Train, Parallel, Hardware and Throughput, as plain frozen data.

Each spec checks its own fields when built (a number, positive, whole where it must be, not
absurd) and raises SizingError with one clear line; combinations (TP × PP × CP × DP = GPUs,
heads divisible by TP, ...) are the validator's job (`tutor.sizing.validate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from tutor.sizing.errors import SizingError, field_error
from tutor.text import T

ARCHS = ("gpt", "llama")
SHARDINGS = ("none", "distopt", "zero1", "zero2", "zero3")
RECOMPUTE = ("none", "selective", "full")
MOMENTS = ("fp32", "bf16")
ACTIVATION_SAVINGS = ("norm_up", "fp8")
# Largest sensible value per field name; above it the input is absurd (`--params 1e30`).
LIMITS = {
    "params": 1e15, "layers": 1e5, "hidden": 1e6, "heads": 1e5, "kv_heads": 1e5, "ffn": 1e7, "vocab": 1e8, "positions": 1e8,
    "experts": 1e5, "top_k": 1e3, "expert_ffn": 1e7, "shared_experts": 1e3, "dense_layers": 1e5,
    "q_rank": 1e6, "kv_rank": 1e6, "rope_dim": 1e5, "nope_dim": 1e5, "v_dim": 1e5, "seq": 1e8, "micro_batch": 1e6, "global_batch": 1e9, "tokens": 1e17,
    "gpus": 1e7, "tp": 1e7, "pp": 1e7, "cp": 1e7, "ep": 1e7, "dp": 1e7, "vpp": 1e4,
    "gpu_mem": 1e13, "peak_flops": 1e17, "gpus_per_node": 1e4, "mfu": 1.0, "tokens_per_s": 1e13,
    "step_time": 1e7, "achieved_flops": 1e17, "days": 1e5, "interruptions": 1e9, "ckpt_write_s": 1e7,
}
# Parts a model may lack: zero is a value, not a missing one.
MAY_BE_ZERO = {"shared_experts", "dense_layers"}
MLA_FIELDS = ("q_rank", "kv_rank", "rope_dim", "nope_dim", "v_dim")
WHOLE = {"positions", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "experts", "top_k", "seq", "micro_batch",
         "expert_ffn", "shared_experts", "dense_layers", *MLA_FIELDS,
         "global_batch", "gpus", "tp", "pp", "cp", "ep", "dp", "vpp", "gpus_per_node"}


def check_number(name: str, value: object) -> float | int:
    """`value` as a number fit for field `name`, or SizingError saying what is wrong."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise field_error(name, T(f"must be a number, got {value!r}", f"要填数字，而不是 {value!r}"))
    if not math.isfinite(value):
        raise field_error(name, T(f"must be a finite number, got {value!r}", f"要填有限的数，而不是 {value!r}"))
    if value == 0 and name in MAY_BE_ZERO:
        return 0
    if value <= 0:
        raise field_error(name, T(f"must be positive, got {value:g}", f"必须大于 0，这里是 {value:g}"))
    if name in WHOLE and not float(value).is_integer():
        raise field_error(name, T(f"must be a whole number, got {value:g}", f"必须是整数，这里是 {value:g}"))
    limit = LIMITS.get(name)
    if limit is not None and value > limit:
        from tutor.sizing.errors import too_large

        raise too_large(name, value, limit)
    return int(value) if name in WHOLE else value


class _Checked:
    """Check every numeric field on construction; None means "not given"."""

    def __post_init__(self) -> None:
        for item in fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if item.name in LIMITS and value is not None:
                object.__setattr__(self, item.name, check_number(item.name, value))


@dataclass(frozen=True)
class Model(_Checked):
    """A model: its parameter count as its source states it, and what is known of its architecture."""

    name: str = "custom"
    params: float | None = None
    """Ψ as the source names it; None: counted from the architecture."""
    arch: str | None = None
    """"gpt" or "llama" when the layer structure is known (parameter counts, first-stage embedding)."""
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    ffn: int | None = None
    vocab: int | None = None
    experts: int = 1
    """Experts per MoE layer; 1 for a dense model."""
    top_k: int = 1
    source: str = ""
    expert_ffn: int | None = None
    """MLP width of one expert (DeepSeek-V3: 2048 beside a dense 18432); None: `ffn`."""
    shared_experts: int = 0
    """Experts every token runs besides its top-k (DeepSeek: 1)."""
    dense_layers: int = 0
    """Leading layers with a dense MLP in a MoE (DeepSeek-V3: 3)."""
    q_rank: int | None = None
    """Multi-head latent attention (MLA) when these five are given: query and KV compression ranks,"""
    kv_rank: int | None = None
    rope_dim: int | None = None
    """the decoupled RoPE dimension, and the per-head query/key and value dimensions."""
    nope_dim: int | None = None
    v_dim: int | None = None
    positions: int | None = None
    """GPT: rows of the learned position table (GPT-3: 2048); None: the training sequence length."""
    assumed: tuple[str, ...] = ()
    """Fields not given and assumed (e.g. "ffn" = 4h for GPT), so the report can say so."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.arch is not None and self.arch not in ARCHS:
            raise SizingError(f"arch must be one of {', '.join(ARCHS)}, got {self.arch!r}")
        if self.top_k > self.experts:
            raise SizingError(f"top_k {self.top_k} is larger than the {self.experts} experts")
        given = [name for name in MLA_FIELDS if getattr(self, name) is not None]
        if given and len(given) < len(MLA_FIELDS):
            missing = [name for name in MLA_FIELDS if getattr(self, name) is None]
            raise SizingError(f"multi-head latent attention needs {', '.join(MLA_FIELDS)}; missing {', '.join(missing)}")
        if given and (self.arch != "llama" or not self.is_moe):
            raise SizingError("multi-head latent attention is modelled for Llama-style mixtures of experts "
                              "(arch llama with experts, as DeepSeek-V3)")
        if (self.dense_layers or self.shared_experts or self.expert_ffn is not None) and not self.is_moe:
            raise SizingError("dense layers, shared experts and an expert width describe a mixture of experts "
                              "(give --experts)")
        if self.dense_layers and (self.layers is None or self.dense_layers >= self.layers):
            raise SizingError(f"dense_layers {self.dense_layers} must be fewer than the layers ({self.layers})")
        if (self.dense_layers or self.shared_experts or self.expert_ffn is not None) and self.arch == "gpt":
            raise SizingError("dense layers, shared experts and an expert width are modelled for arch llama")

    @property
    def mla(self) -> bool:
        return self.kv_rank is not None

    @property
    def modern_moe(self) -> bool:
        """A Llama-style MoE, counted by the general MoE formulas (dense layers, shared experts, MLA)."""
        return self.is_moe and self.arch == "llama"

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def kv(self) -> int | None:
        """KV heads; without GQA they equal the heads."""
        return self.kv_heads if self.kv_heads is not None else self.heads

    def architecture_inputs(self, seq: int | None = None) -> dict[str, int] | None:
        """The inputs of this arch's parameter formulas, or None while any is unknown."""
        names = {"gpt": ("layers", "hidden", "ffn", "vocab"),
                 "llama": ("layers", "hidden", "heads", "ffn", "vocab")}.get(self.arch or "")
        if names is None or any(getattr(self, name) is None for name in names):
            return None
        values = {name: getattr(self, name) for name in names}
        if self.arch == "llama":
            values["kv_heads"] = self.kv
        elif self.positions is not None or seq is not None:
            values["seq"] = self.positions or seq
        return values


@dataclass(frozen=True)
class Train(_Checked):
    """Batch and sequence. Defaults: Llama 3 405B's first stage, 4M-token batches of 4,096-token
    sequences (Llama 3 paper §3.4.1), one sequence per micro-batch."""

    seq: int = 4096
    micro_batch: int = 1
    global_batch: int = 1024
    tokens: float | None = None
    """Training tokens D, for 6ND and training time."""
    assumed: tuple[str, ...] = ()
    """Fields left at their default without being given (e.g. "global_batch"), so the report says so."""


@dataclass(frozen=True)
class Parallel(_Checked):
    """The layout. DP None: derived as GPUs / (TP·PP·CP); GPUs None: TP·PP·CP·DP."""

    gpus: int | None = None
    tp: int = 1
    pp: int = 1
    cp: int = 1
    ep: int = 1
    dp: int | None = None
    vpp: int = 1
    sharding: str = "none"
    """none, distopt (Megatron distributed optimizer), zero1, zero2 or zero3."""
    sp: bool = True
    """Sequence parallelism (only matters with TP > 1)."""
    recompute: str = "none"
    flash: bool = True
    moments: str = "fp32"
    """AdamW's m and v: "fp32" (12 bytes of optimizer state a parameter) or "bf16" (8, DeepSeek-V3 §3.3.3)."""
    savings: tuple[str, ...] = ()
    """DeepSeek-V3's activation savings (chains.SAVINGS): "norm_up" (RMSNorm and MLA up-projections recomputed,
    §3.2.3), "fp8" (activations cached in FP8, §3.3.3). Off by default."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.moments not in MOMENTS:
            raise SizingError(f"moments must be one of {', '.join(MOMENTS)}, got {self.moments!r}")
        unknown = [name for name in self.savings if name not in ACTIVATION_SAVINGS]
        if unknown:
            raise SizingError(f"activation savings must be among {', '.join(ACTIVATION_SAVINGS)}, got {unknown[0]!r}")
        if self.sharding not in SHARDINGS:
            raise SizingError(f"sharding must be one of {', '.join(SHARDINGS)}, got {self.sharding!r}")
        if self.recompute not in RECOMPUTE:
            raise SizingError(f"recompute must be one of {', '.join(RECOMPUTE)}, got {self.recompute!r}")


@dataclass(frozen=True)
class Hardware(_Checked):
    """One GPU model: memory, dense peaks, GPUs per NVLink node, and where the figures come from."""

    name: str
    gpu_mem: float
    peak_flops: float
    """Dense BF16 FLOP/s."""
    peak_fp8: float | None = None
    gpus_per_node: int = 8
    source: str = ""


@dataclass(frozen=True)
class Throughput(_Checked):
    """At most one measured or assumed rate; the others are derived from it."""

    mfu: float | None = None
    tokens_per_s: float | None = None
    step_time: float | None = None
    achieved_flops: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        given = [item.name for item in fields(self) if getattr(self, item.name) is not None]
        if len(given) > 1:
            raise SizingError(f"give one of mfu, tokens_per_s, step_time, achieved_flops (got {', '.join(given)})")

    @property
    def kind(self) -> str | None:
        return next((item.name for item in fields(self) if getattr(self, item.name) is not None), None)


@dataclass(frozen=True)
class Reliability(_Checked):
    """Failures over a run (Llama 3: 466 interruptions in 54 days) and the checkpoint write time."""

    days: float | None = None
    interruptions: float | None = None
    ckpt_write_s: float | None = None
