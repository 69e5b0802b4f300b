"""Parameter counts from an architecture: GPT-style, Llama-style and mixture-of-experts.

GPT-style (learned positions, biases, multi-head attention, GeLU MLP of width f): per layer
4h² + 4h (QKV and output projections with biases) + 2hf + f + h (MLP) + 4h (two LayerNorms),
plus (V + s)·h for token and position embeddings (tied output). With f = 4h this is Narayanan
et al. 2021 Eq. 2, 12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h)).
Llama-style (RoPE, GQA, SwiGLU, RMSNorm, no biases, untied embeddings): per layer 2h² + 2h·h·a_kv/a
(Q and output h×h, K and V h × a_kv·h/a) + 3hf (gate, up, down) + 2h, plus 2·V·h + h.
MoE replaces the MLP by E experts and a router (h·E); a token runs k of them.
"""

from __future__ import annotations

from sympy import ceiling

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S

L, h, a, a_kv, f, V, s = S["layers"], S["hidden"], S["heads"], S["kv_heads"], S["ffn"], S["vocab"], S["seq"]
E, k, t, p = S["experts"], S["top_k"], S["tp"], S["pp"]

GPT_ATTENTION = 4 * h**2 + 4 * h
GPT_MLP = 2 * h * f + f + h
GPT_NORMS = 4 * h
GPT_EMBEDDING = (V + s) * h
LLAMA_ATTENTION = 2 * h**2 + 2 * h * h * a_kv / a
LLAMA_MLP = 3 * h * f
LLAMA_NORMS = 2 * h
LLAMA_EMBEDDING = V * h  # input embedding; the untied output layer is another V·h on the last stage
ROUTER = h * E

GPT_LAYER = GPT_ATTENTION + GPT_MLP + GPT_NORMS
LLAMA_LAYER = LLAMA_ATTENTION + LLAMA_MLP + LLAMA_NORMS
N21 = "Narayanan et al. 2021 Eq. 2 (GPT: learned positions, biases, MHA, GeLU)"
LLAMA = ("Llama 3 paper (arXiv 2407.21783) Table 3; Touvron et al. 2023 §2.2 (SwiGLU, RoPE, RMSNorm); "
         "GQA (Ainslie et al. 2023)")
MOE = "Jiang et al. 2024 (Mixtral) §2; Megatron-LM moe/README.md"
GPT_ORDER = ("layers", "hidden", "ffn", "vocab", "seq")
LLAMA_ORDER = ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab")

FORMULAS = (
    formula("params_gpt", L * GPT_LAYER + GPT_EMBEDDING, "params",
            "GPT-style parameters: L·(4h² + 2hf + 9h + f) + (V + s)·h.",
            "GPT 式结构的参数量:L·(4h² + 2hf + 9h + f) + (V + s)·h。", N21, order=GPT_ORDER),
    formula("params_gpt_n21", 12 * L * h**2 * (1 + 13 / (12 * h) + (V + s) / (12 * L * h)), "params",
            "Narayanan Eq. 2 (MLP width 4h): 12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h)).",
            "Narayanan Eq. 2(MLP 宽 4h):12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h))。", N21,
            order=("layers", "hidden", "vocab", "seq")),
    formula("params_llama", L * LLAMA_LAYER + 2 * V * h + h, "params",
            "Llama-style parameters: L·(2h² + 2h²·a_kv/a + 3hf + 2h) + 2·V·h + h.",
            "Llama 式结构的参数量:L·(2h² + 2h²·a_kv/a + 3hf + 2h) + 2·V·h + h。", LLAMA, order=LLAMA_ORDER),
    formula("layer_params_gpt", GPT_LAYER, "params", "Parameters of one GPT-style layer.", "GPT 式结构一层的参数量。",
            N21, order=("hidden", "ffn")),
    formula("layer_params_llama", LLAMA_LAYER, "params", "Parameters of one Llama-style layer.",
            "Llama 式结构一层的参数量。", LLAMA, order=("hidden", "heads", "kv_heads", "ffn")),
    formula("first_stage_params_gpt", (ceiling(L / p) * GPT_LAYER + GPT_EMBEDDING) / t, "params",
            "Parameters per GPU of the first pipeline stage: ⌈L/p⌉ layers plus the embeddings, split by TP.",
            "第一个 pipeline stage 每卡的参数:⌈L/p⌉ 层加 embedding,再按 TP 切。", N21 + "; lesson §memory",
            order=GPT_ORDER + ("tp", "pp")),
    formula("first_stage_params_llama", (ceiling(L / p) * LLAMA_LAYER + LLAMA_EMBEDDING) / t, "params",
            "Parameters per GPU of the first pipeline stage: ⌈L/p⌉ layers plus the input embedding, split by TP.",
            "第一个 pipeline stage 每卡的参数:⌈L/p⌉ 层加输入 embedding,再按 TP 切。", LLAMA + "; lesson §memory",
            order=LLAMA_ORDER + ("tp", "pp")),
    formula("params_moe_llama", L * (LLAMA_ATTENTION + E * LLAMA_MLP + ROUTER + LLAMA_NORMS) + 2 * V * h + h, "params",
            "Llama-style MoE parameters: each layer has E SwiGLU experts and a router.",
            "Llama 式 MoE 的参数量:每层 E 个 SwiGLU expert 加一个 router。", MOE, order=LLAMA_ORDER + ("experts",)),
    formula("active_params_moe_llama", L * (LLAMA_ATTENTION + k * LLAMA_MLP + ROUTER + LLAMA_NORMS) + 2 * V * h + h,
            "params", "Parameters a token uses in a Llama-style MoE: k of the E experts.",
            "Llama 式 MoE 中每个 token 用到的参数:E 个 expert 中的 k 个。", MOE,
            order=LLAMA_ORDER + ("experts", "top_k")),
    formula("expert_params_llama", L * E * LLAMA_MLP, "params", "Expert parameters of a Llama-style MoE: L·E·3hf.",
            "Llama 式 MoE 的 expert 参数:L·E·3hf。", MOE, order=("layers", "hidden", "ffn", "experts")),
    formula("params_moe_gpt", L * (GPT_ATTENTION + E * GPT_MLP + ROUTER + GPT_NORMS) + GPT_EMBEDDING, "params",
            "GPT-style MoE parameters: each layer has E GeLU experts and a router.",
            "GPT 式 MoE 的参数量:每层 E 个 GeLU expert 加一个 router。", MOE, order=GPT_ORDER + ("experts",)),
    formula("active_params_moe_gpt", L * (GPT_ATTENTION + k * GPT_MLP + ROUTER + GPT_NORMS) + GPT_EMBEDDING, "params",
            "Parameters a token uses in a GPT-style MoE: k of the E experts.",
            "GPT 式 MoE 中每个 token 用到的参数:E 个 expert 中的 k 个。", MOE, order=GPT_ORDER + ("experts", "top_k")),
    formula("expert_params_gpt", L * E * GPT_MLP, "params", "Expert parameters of a GPT-style MoE: L·E·(2hf + f + h).",
            "GPT 式 MoE 的 expert 参数:L·E·(2hf + f + h)。", MOE, order=("layers", "hidden", "ffn", "experts")),
)
