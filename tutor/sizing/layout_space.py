"""The layouts a plan searches: what it may use (`Options`), the divisors of the GPU count, and the
hard rules that exclude a TP, CP, EP or interleaving before a configuration is evaluated.

The reserve and the hard rules are shared with the layout grader (tutor.sizing.rules). CP splits a
sequence only down to MIN_TOKENS_PER_CP_RANK tokens per rank (validate.py warns below it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tutor.sizing.errors import SizingError
from tutor.sizing.rules import RESERVE
from tutor.sizing.specs import Hardware, Model, Train
from tutor.sizing.validate import MIN_TOKENS_PER_CP_RANK, trimmed_stages
from tutor.text import T

# Interleave at most 4 ways (the lesson's v = 4): beyond that the bubble is already small and the
# pipeline's point-to-point traffic keeps growing v-fold (Narayanan et al. 2021 §2.2.2).
MAX_VPP = 4
SHARDINGS = ("distopt", "none", "zero1", "zero2", "zero3")
# Sharding a plan may choose when none is asked for, in order of preference. Megatron-LM's
# distributed optimizer keeps a full fp32 gradient buffer (6 + 12/d bytes per parameter,
# docs/user-guide/features/dist_optimizer.md); sharding the gradients too (ZeRO-2: 2 + 14/d,
# Rajbhandari et al. 2020 Fig. 1) is what Llama 3 ran ("FSDP" that shards optimizer state and
# gradients and keeps the weights after forward, arXiv 2407.21783 §3.3.2) and what Megatron-FSDP's
# `optim_grads` strategy does. It ranks second: with m micro-batches the sharded gradients are
# reduce-scattered after each of them, not once per step (see layout_memory._slow_link_bytes).
AUTO_SHARDINGS = ("distopt", "zero2")


@dataclass(frozen=True)
class Options:
    """What a plan may use (`tutor plan` switches): sharding over DP × CP (None: the distributed
    optimizer, or ZeRO-2 for a dense model where it does not fit), recompute (None: the lightest that fits), FlashAttention, sequence parallelism, memory kept free, and the EP and TP
    sizes to try (None: all; DeepSeek-V3 trained without TP, arXiv 2412.19437 §3.2)."""

    sharding: str | None = None
    recompute: str | None = None
    flash: bool = True
    sp: bool = True
    reserve: float = RESERVE
    ep: tuple[int, ...] | None = None
    tp: tuple[int, ...] | None = None
    moments: str = "fp32"
    """"bf16": DeepSeek-V3's BF16 AdamW moments (specs.Parallel.moments); only layouts with DP × CP > 1."""
    savings: tuple[str, ...] = ()
    """DeepSeek-V3's activation savings (specs.Parallel.savings), off by default."""


def divisors(number: int) -> list[int]:
    return list(divisors_of(number))


@lru_cache(maxsize=4096)
def divisors_of(number: int) -> tuple[int, ...]:
    """Computed once per number: the search asks for the same few thousand times."""
    small = [d for d in range(1, int(number**0.5) + 1) if number % d == 0]
    return tuple(sorted(set(small + [number // d for d in small])))


def sharding_choices(model: Model, options: Options) -> tuple[str, ...]:
    """The shardings a search tries, in order: the one asked for, else AUTO_SHARDINGS (the distributed
    optimizer only for MoE, whose ZeRO stages the engine does not model)."""
    if options.sharding is not None:
        return (options.sharding,)
    return AUTO_SHARDINGS[:1] if model.is_moe or options.moments != "fp32" else AUTO_SHARDINGS


def check_asked_sizes(model: Model, hardware: Hardware, gpus: int, options: Options) -> None:
    """`--tp` / `--ep` sizes none of which can be used: one line saying why, before a search that would
    evaluate nothing and blame the global batch (`--tp 3` on 64 GPUs, `--ep 3` for 8 experts)."""
    if options.tp is not None and not any(gpus % tp == 0 and tp_allowed(model, hardware, tp) for tp in options.tp):
        asked = ", ".join(map(str, options.tp))
        heads = f", divide the {model.heads} heads" if model.heads is not None else ""
        raise SizingError(
            T(f"--tp {asked}: no TP size asked for can be used on {gpus:,} GPUs (TP must divide the GPU count{heads} and "
            f"stay within one {hardware.gpus_per_node}-GPU node)",
               f"--tp {asked}：给出的 TP 在 {gpus:,} 张卡上都用不了（TP 要整除卡数"
               f"{f'、整除 {model.heads} 个 head' if model.heads is not None else ''}，并且不超出一个 "
               f"{hardware.gpus_per_node} 卡的节点）"))
    if options.ep is not None:
        asked = ", ".join(map(str, options.ep))
        if not model.is_moe:
            if set(options.ep) != {1}:
                raise SizingError(T(f"--ep {asked}: expert parallelism needs a mixture-of-experts model",
                                     f"--ep {asked}：expert parallel 只用于 MoE 模型"))
        elif not any(model.experts % ep == 0 and gpus % ep == 0 for ep in options.ep):
            raise SizingError(T(f"--ep {asked}: EP must divide the {model.experts} experts and the {gpus:,} GPUs",
                                 f"--ep {asked}：EP 要整除 {model.experts} 个 expert 和 {gpus:,} 张卡"))


def tp_allowed(model: Model, hardware: Hardware, tp: int) -> bool:
    if tp > hardware.gpus_per_node:
        return False
    if model.heads is not None and model.heads % tp:
        return False
    kv = model.kv_heads
    # TP above the KV heads replicates them (validate: kv-replicated)
    return kv is None or not (kv % tp and tp % kv)


def cp_allowed(train: Train, cp: int) -> bool:
    return cp == 1 or not (train.seq % (2 * cp) or train.seq // cp < MIN_TOKENS_PER_CP_RANK)


@lru_cache(maxsize=1024)
def triples(number: int) -> int:
    """How many (CP, PP) pairs divide `number`: the layouts one excluded TP stands for."""
    return sum(len(divisors_of(number // cp)) for cp in divisors_of(number))


def expert_sizes(model: Model, dp_cp: int, allowed: tuple[int, ...] | None = None) -> list[int]:
    if not model.is_moe:
        return [1]
    return [ep for ep in divisors_of(model.experts) if dp_cp % ep == 0 and (allowed is None or ep in allowed)]


def chunk_counts(model: Model, pp: int, m: int) -> list[int]:
    """1, and the v ≤ MAX_VPP whose p·v chunks split the layers evenly or as Llama 3 trims them."""
    layers = model.layers
    if pp == 1 or layers is None or m % pp:
        return [1]
    return [1] + [v for v in range(2, MAX_VPP + 1) if layers % (pp * v) == 0 or trimmed_stages(model, pp, v)]
