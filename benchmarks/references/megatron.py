"""Megatron-LM's theoretical memory estimator, re-implemented (not copied) from
NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py at commit
00caa53af30912914981c86f39db123961678bbd (compute_weight_and_optimizer_memory,
compute_activation_memory), for comparing the tutor's engine beside it.

What it models, read from that code: per-layer parameters 2h·(f·g + n) + attention (GQA:
2h²·(1 + groups/heads); MLA: the low-rank projections), with g = 3/2 for SwiGLU and n = 1 for
RMSNorm, 2 for LayerNorm; no linear biases and no learned positions; embedding h·V (twice when
untied); the most loaded shard (transformer block / PP + one embedding) / TP, plus the output layer
at PP = 1 when untied; 18 bytes per parameter, or 6 + 12/DP with the distributed optimizer;
activations of the first stage (SP form) s·b·h·(18 + 4f/h) per layer × L, the embedding input and
dropout for PP micro-batches, scaled by min(1, m/PP) without interleaving, the logits at PP = 1,
all over TP.
"""

from __future__ import annotations

from dataclasses import dataclass

COMMIT = "00caa53af30912914981c86f39db123961678bbd"


@dataclass(frozen=True)
class Args:
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    swiglu: bool
    rmsnorm: bool
    untied: bool
    tp: int = 1
    pp: int = 1
    dp: int = 1
    seq: int = 4096
    micro_batch: int = 1
    microbatches: int | None = None
    distributed_optimizer: bool = False
    experts: int | None = None
    moe_ffn: int = 0
    shared_ffn: int = 0
    dense_layers: int = 0
    mla: tuple[int, int, int, int, int] | None = None
    """(q_lora_rank, kv_lora_rank, qk_head_dim, qk_pos_emb_head_dim, v_head_dim)."""


def _attention(args: Args, norm: int) -> float:
    if args.mla is not None:
        q_rank, kv_rank, nope, rope, v_dim = args.mla
        heads, h = args.heads, args.hidden
        return (q_rank * (h + heads * (nope + rope) + norm) + kv_rank * (h + heads * (nope + v_dim) + norm)
                + h * rope + heads * v_dim * h)
    # kv_channels · heads = hidden for the models compared here
    return 2 * args.hidden * args.hidden * (1 + args.kv_heads / args.heads)


def parameters(args: Args) -> dict[str, float]:
    norm = 1 if args.rmsnorm else 2
    gate = 1.5 if args.swiglu else 1.0
    attention = _attention(args, norm)
    dense = 2 * args.hidden * (args.ffn * gate + norm) + attention
    experts = args.experts or 0
    moe = 2 * args.hidden * (args.moe_ffn * experts * gate + args.shared_ffn * gate + norm) + attention
    moe_layers = args.layers - args.dense_layers if args.experts else 0
    block = dense * (args.layers - moe_layers) + moe * moe_layers + norm * args.hidden
    embedding = args.hidden * args.vocab
    total = block + (2 if args.untied else 1) * embedding
    shard = (block / args.pp + embedding) / args.tp
    if args.untied and args.pp == 1:
        shard += embedding / args.tp
    return {"total": total, "most_loaded_shard": shard}


def weight_and_optimizer_bytes(args: Args) -> float:
    per_parameter = 6 + 12 / args.dp if args.distributed_optimizer else 18
    return parameters(args)["most_loaded_shard"] * per_parameter


def activation_bytes(args: Args) -> float:
    """First pipeline stage, sequence parallel with selective recompute (the estimator's SP form)."""
    s, b, h, p = args.seq, args.micro_batch, args.hidden, args.pp
    memory = s * b * h * (18 + 4 * args.ffn / h) * args.layers
    memory += 8 * s * b * p + s * b * h * p  # embedding input and dropout, p micro-batches in flight
    if p > 1 and args.microbatches is not None:
        memory *= min(1, args.microbatches / p)
    if p == 1:
        memory += s * b * h * 4 * (1 + args.vocab / h)  # inputs to the output layer and the loss
    return memory / args.tp


FLOPS_COMMIT = "38644dd756c46142787b1bd5dc08ed82ca0e6de1"


def flops_per_token(args: Args) -> float:
    """Model FLOPs per token of megatron/training/training.py `num_floating_point_operations` at
    FLOPS_COMMIT (2024-03, before the causal halving): 12·L·h²·(1 + f/h + groups/heads + s/h +
    V/(2·L·h)), i.e. K22 Eq. 7 for f = 4h; it has no SwiGLU factor yet, so it is compared on GPT."""
    h, layers = args.hidden, args.layers
    return 12 * layers * h * h * (1 + args.ffn / h + args.kv_heads / args.heads + args.seq / h
                                  + args.vocab / (2 * layers * h))
