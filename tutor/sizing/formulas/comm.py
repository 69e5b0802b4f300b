"""Bytes moved by each kind of parallelism (used to rank layouts by traffic on slow links).

All counts are bytes one GPU sends, in bf16. TP: two all-reduces forward and two backward per
layer over the s tokens the rank holds (s/CP under context parallelism), 8·b·s·h·(t−1)/t values (Narayanan et al. 2021 §3.2), 16·b·s·h·(t−1)/t bytes. DP: a ring all-reduce sends 2(n−1)/n of the
buffer per GPU (nccl-tests doc/PERFORMANCE.md), here the 2Ψ bytes of bf16 gradients. PP: one
activation forward and one gradient backward per micro-batch at a stage boundary, split over TP
by the scatter/gather optimisation (N21 §4.1). CP: ring attention passes each rank's K/V chunk
(CP−1) times forward, and K/V plus their gradients backward.
"""

from __future__ import annotations

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S
from tutor.text import T

s, b, h, t, cp = S["seq"], S["micro_batch"], S["hidden"], S["tp"], S["cp"]
d = S["dp"]
ORDER = ("seq", "micro_batch", "hidden")

FORMULAS = (
    formula("tokens_per_cp_rank", s / cp, "count",
            T("Tokens of each sequence one context-parallel rank holds: s/CP (its TP group all-reduces only these).",
              "每个 context-parallel rank 持有的 token 数：s/CP（它的 TP 组只对这些 token 做 all-reduce）。"),
            "Megatron-LM docs context_parallel.md; lesson §placement (8192 / 2 = 4096)", order=("seq", "cp")),
    formula("tp_values_per_layer", b * s * h * 8 * (t - 1) / t, "count",
            T("Tensor-parallel traffic per layer and micro-batch, in values: 8·b·s·h·(t−1)/t per GPU (2 all-reduces "
              "forward and 2 backward of b·s·h values, each a ring all-reduce sending 2(t−1)/t of it).",
            "每层每个 micro-batch 的 TP 通信量（按元素个数）：每卡 8·b·s·h·(t−1)/t 个值（forward、backward 各 2 次 "
            "b·s·h 个值的 all-reduce，ring all-reduce 每次发送其中的 2(t−1)/t）。"),
            "Narayanan et al. 2021 §3.2 (8bsh(t−1)/t per layer per device per micro-batch)", order=ORDER),
    formula("tp_bytes_per_layer", b * s * h * 16 * (t - 1) / t, "B",
            T("Tensor-parallel traffic per layer and micro-batch in bytes: the 8·b·s·h·(t−1)/t values of Narayanan et "
              "al. at 2 bytes each (bf16 activations), 16·b·s·h·(t−1)/t per GPU.",
            "每层每个 micro-batch 的 TP 通信字节数：Narayanan 等人的 8·b·s·h·(t−1)/t 个值，每个 2 字节（bf16 "
            "activation），即每卡 16·b·s·h·(t−1)/t 字节。"),
            "Narayanan et al. 2021 §3.2, at 2 bytes per bf16 value", order=ORDER),
    formula("dp_grad_bytes", S["params"] * 4 * (d - 1) / d, "B",
            T("Data-parallel gradient sync per step: a ring all-reduce of the 2Ψ bytes of bf16 gradients sends "
              "2(d−1)/d × 2Ψ bytes per GPU (Ψ = the GPU's own parameters).",
            "每步 DP 的 gradient 同步：对 2Ψ 字节的 bf16 gradient 做 ring all-reduce，每卡发送 2(d−1)/d × 2Ψ 字节"
            "（Ψ 是本卡持有的参数）。"),
            "nccl-tests doc/PERFORMANCE.md (all-reduce busbw factor 2(n−1)/n)", order=("params", "dp")),
    formula("pp_bytes_per_microbatch", 4 * s * b * h / (t * cp), "B",
            T("Pipeline traffic per micro-batch at a stage boundary: activation forward + gradient backward, "
              "2·s·b·h bytes each, split over TP and CP.",
            "每个 micro-batch 在 stage 边界的 PP 通信量：forward 的 activation 加 backward 的 gradient，"
            "各 2·s·b·h 字节，再按 TP 和 CP 切。"),
            "Narayanan et al. 2021 §2.2 and §4.1 (scatter/gather)", order=ORDER),
    formula("cp_bytes_per_layer", s * b * h * S["kv_heads"] * 12 * (cp - 1) / (S["heads"] * cp * t), "B",
            T("Context-parallel traffic per layer and micro-batch: each rank's K/V chunk travels the ring CP−1 times "
              "forward, and K/V plus their gradients backward (estimate).",
            "每层每个 micro-batch 的 CP 通信量：每个 rank 的 K/V 块在 ring 上 forward 传 CP−1 次，"
            "backward 再传 K/V 和它们的 gradient（估算）。"),
            "derived from ring attention (Liu et al. 2023) and Megatron-LM docs context_parallel.md (p2p ring)",
            order=ORDER),
)
