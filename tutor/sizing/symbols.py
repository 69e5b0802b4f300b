"""Every input symbol of the sizing engine, declared once (STYLE.md "declare once").

A symbol is the SymPy `Symbol` (with its assumptions), the name content files and
`evaluate(**inputs)` use, how formulas display it (Ψ, TP, s, …), what a learner may type for it,
what values it accepts, and its base unit. All values are in base units: bytes, seconds, FLOPs,
FLOP/s, fractions and plain counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

# What a symbol accepts: a whole number >= 1, a whole number >= 0 (a part that may be absent, such
# as shared experts), a real > 0, or a fraction in (0, 1].
COUNT, COUNT0, POSITIVE, FRACTION = "count", "count0", "positive", "fraction"


@dataclass(frozen=True)
class SymbolInfo:
    """One input of the engine's formulas."""

    name: str
    symbol: sympy.Symbol
    display: str
    kind: str
    unit: str
    limit: float
    """Largest sensible value; anything above is rejected as absurd (1e30 parameters)."""
    en: str
    zh: str
    aliases: tuple[str, ...] = ()


def _declare(name: str, display: str, kind: str, unit: str, limit: float, en: str, zh: str,
             aliases: tuple[str, ...] = ()) -> SymbolInfo:
    assumptions = {"nonnegative": True} if kind == COUNT0 else {"positive": True}
    if kind in (COUNT, COUNT0):
        assumptions["integer"] = True
    return SymbolInfo(name, sympy.Symbol(name, **assumptions), display, kind, unit, limit, en, zh, aliases)


_ALL = (
    # model
    _declare("params", "Ψ", POSITIVE, "params", 1e15, "parameters (Ψ)", "参数量 Ψ", ("Psi", "psi")),
    _declare("expert_params", "Ψ_E", POSITIVE, "params", 1e15, "parameters in expert MLPs", "expert MLP 的参数量",
             ("Psi_E",)),
    _declare("active_params", "Ψ_act", POSITIVE, "params", 1e15, "parameters active per token (MoE)",
             "每个 token 激活的参数量（MoE）", ("Psi_act",)),
    _declare("layers", "L", COUNT, "count", 1e5, "transformer layers", "层数", ("l",)),
    _declare("hidden", "h", COUNT, "count", 1e6, "hidden size", "hidden size h", ("d_model",)),
    _declare("heads", "a", COUNT, "count", 1e5, "attention heads", "attention head 数"),
    _declare("kv_heads", "a_kv", COUNT, "count", 1e5, "key/value heads (GQA)", "KV head 数（GQA）"),
    _declare("ffn", "f", COUNT, "count", 1e7, "MLP (FFN) hidden size", "MLP（FFN）中间维度", ("d_ff",)),
    _declare("vocab", "V", COUNT, "count", 1e8, "vocabulary size", "词表大小"),
    _declare("experts", "E", COUNT, "count", 1e5, "experts per MoE layer", "每个 MoE 层的 expert 数"),
    _declare("top_k", "k", COUNT, "count", 1e3, "experts each token is routed to", "每个 token 路由到的 expert 数"),
    _declare("expert_ffn", "f_E", COUNT, "count", 1e7, "hidden size of one expert's MLP", "单个 expert MLP 的中间维度"),
    _declare("shared_experts", "E_s", COUNT0, "count", 1e3, "shared experts every token runs (DeepSeek)",
             "每个 token 都会经过的 shared expert 数（DeepSeek）"),
    _declare("dense_layers", "L_dense", COUNT0, "count", 1e5, "leading dense layers of a MoE (DeepSeek-V3: 3)",
             "MoE 开头的 dense 层数（DeepSeek-V3:3）"),
    _declare("attn_params", "Ψ_attn", POSITIVE, "params", 1e13, "parameters of one layer's attention",
             "一层 attention 的参数量"),
    _declare("q_rank", "r_q", COUNT, "count", 1e6, "MLA query compression rank", "MLA 的 query 压缩维度"),
    _declare("kv_rank", "r_kv", COUNT, "count", 1e6, "MLA key/value compression rank", "MLA 的 key/value 压缩维度"),
    _declare("rope_dim", "d_R", COUNT, "count", 1e5, "MLA decoupled RoPE dimension per head",
             "MLA 每个 head 单独的 RoPE 维度"),
    _declare("nope_dim", "d_nope", COUNT, "count", 1e5, "MLA query/key dimension per head without RoPE",
             "MLA 每个 head 不带 RoPE 的 query/key 维度"),
    _declare("v_dim", "d_v", COUNT, "count", 1e5, "MLA value dimension per head", "MLA 每个 head 的 value 维度"),
    _declare("flop_params", "Ψ_mm", POSITIVE, "params", 1e15,
             "parameters a token multiplies by (without embedding lookups)", "每个 token 参与矩阵乘的参数量（不含 embedding 查表）"),
    _declare("stage_params", "Ψ_stage", POSITIVE, "params", 1e15,
             "parameters per GPU of the most loaded pipeline stage", "最满的 pipeline stage 每卡的参数量"),
    _declare("stage_shard_params", "Ψ_shard", POSITIVE, "params", 1e15,
             "per-GPU parameters the optimizer state is sharded from (experts counted before EP)",
             "optimizer state 切分前每卡对应的参数量（expert 按未切 EP 计）"),
    _declare("hw_flops", "C_hw", POSITIVE, "FLOPs", 1e18, "FLOPs the GPUs execute per token (with recompute)",
             "每个 token GPU 实际执行的 FLOPs（含重算）"),
    # training
    _declare("seq", "s", COUNT, "count", 1e8, "sequence length (tokens)", "序列长度（token）"),
    _declare("micro_batch", "b", COUNT, "count", 1e6, "micro-batch size (sequences)", "micro-batch 大小（条）"),
    _declare("global_batch", "B", COUNT, "count", 1e9, "global batch size (sequences)", "global batch 大小（条）"),
    _declare("tokens", "D", POSITIVE, "count", 1e17, "training tokens", "训练 token 数"),
    _declare("microbatches", "m", POSITIVE, "count", 1e9, "micro-batches per pipeline per step",
             "每条 pipeline 每步的 micro-batch 数"),
    # parallelism
    _declare("gpus", "GPUs", COUNT, "count", 1e7, "GPUs", "GPU 数", ("G", "n_gpus")),
    _declare("tp", "TP", COUNT, "count", 1e7, "tensor-parallel size", "TP 大小", ("t",)),
    _declare("pp", "PP", COUNT, "count", 1e7, "pipeline-parallel size", "PP 大小", ("p",)),
    _declare("cp", "CP", COUNT, "count", 1e7, "context-parallel size", "CP 大小"),
    _declare("ep", "EP", COUNT, "count", 1e7, "expert-parallel size", "EP 大小"),
    _declare("dp", "DP", COUNT, "count", 1e7, "data-parallel size", "DP 大小", ("d",)),
    _declare("vpp", "v", COUNT, "count", 1e4, "virtual pipeline stages per GPU (interleaving)",
             "每卡的 virtual pipeline stage 数（interleaved）", ("V_pp",)),
    _declare("n_shard", "N", POSITIVE, "count", 1e7, "ranks the optimizer state is sharded over",
             "optimizer state 切分的卡数 N"),
    _declare("act_layer", "A_layer", POSITIVE, "B", 1e15, "activation bytes of one layer",
             "一层的 activation 字节数"),
    # hardware and throughput
    _declare("gpu_mem", "mem", POSITIVE, "B", 1e13, "memory per GPU (bytes)", "每卡显存（字节）"),
    _declare("peak_flops", "peak", POSITIVE, "FLOP/s", 1e17, "peak FLOP/s per GPU (dense)", "每卡峰值 FLOP/s(dense)"),
    _declare("mfu", "MFU", FRACTION, "fraction", 1.0, "model FLOPs utilization", "MFU"),
    _declare("tokens_per_s", "T", POSITIVE, "tokens/s", 1e13, "training throughput (tokens/s)",
             "训练吞吐（tokens/s）", ("tps",)),
    _declare("step_time", "t_step", POSITIVE, "s", 1e7, "time per optimizer step (s)", "每个 step 的时间（秒）"),
    _declare("achieved_flops", "F_gpu", POSITIVE, "FLOP/s", 1e17, "achieved model FLOP/s per GPU",
             "每卡实际达到的 model FLOP/s"),
    # collectives (nccl-tests' S, t and n)
    _declare("message_bytes", "S_coll", POSITIVE, "B", 1e15, "bytes in a collective's buffer", "collective 缓冲区的字节数"),
    _declare("coll_time", "t_coll", POSITIVE, "s", 1e6, "time of one collective (s)", "一次 collective 的耗时（秒）"),
    _declare("ranks", "n_coll", COUNT, "count", 1e7, "ranks taking part in a collective", "参与 collective 的 rank 数"),
    # reliability
    _declare("days", "days", POSITIVE, "days", 1e5, "days of training", "训练天数"),
    _declare("interruptions", "n_int", POSITIVE, "count", 1e9, "interruptions", "中断次数"),
    _declare("ckpt_write_s", "δ", POSITIVE, "s", 1e7, "time to write one checkpoint (s)", "写一次 checkpoint 的时间（秒）",
             ("delta",)),
    _declare("mtbf_s", "M", POSITIVE, "s", 1e10, "mean time between failures (s)", "平均故障间隔（秒）", ("MTBF",)),
)

SYMBOLS: dict[str, SymbolInfo] = {info.name: info for info in _ALL}
S = {info.name: info.symbol for info in _ALL}
"""name -> sympy Symbol, for writing formulas: `S["params"] / (S["tp"] * S["pp"])`."""


def lookup(typed: str) -> SymbolInfo | None:
    """The symbol a learner or author means by `typed`: its name, display form or an alias."""
    for info in _ALL:
        if typed == info.name or typed == info.display or typed in info.aliases:
            return info
    lowered = typed.lower()
    for info in _ALL:
        if lowered == info.name or lowered == info.display.lower():
            return info
    return None
