"""Parameter counts from an architecture: GPT-style, Llama-style and mixture-of-experts.

GPT-style (learned positions, biases, multi-head attention, GeLU MLP of width f): per layer
4h² + 4h (QKV and output projections with biases) + 2hf + f + h (MLP) + 4h (two LayerNorms),
plus (V + s)·h for token and position embeddings (tied output). With f = 4h this is Narayanan
et al. 2021 Eq. 2, 12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h)).
Llama-style (RoPE, GQA, SwiGLU, RMSNorm, no biases, untied embeddings): per layer 2h² + 2h·h·a_kv/a
(Q and output h×h, K and V h × a_kv·h/a) + 3hf (gate, up, down) + 2h, plus 2·V·h + h.
MoE replaces the MLP by E experts and a router (h·E); a token runs k of them.
MoE as built now (DeepSeek-V3, arXiv 2412.19437 §2.1 and §4.2): the first L_dense layers stay dense
(MLP width f), the others run k of E routed experts of width f_E plus E_s shared experts, and the
attention may be multi-head latent attention (MLA: queries and keys/values compressed to ranks
r_q and r_kv, a decoupled RoPE key of d_R per head). The per-layer attention count Ψ_attn is its
own formula (GQA or MLA), so one set of MoE formulas serves both.
Pipeline stages: the first stage holds ⌈L/p⌉ layers and the input embedding, the last its layers,
the final norm and the output layer; memory is that of the most loaded stage (Megatron-LM
theoretical_memory_usage.py, "most loaded model shard").
"""

from __future__ import annotations

from sympy import ceiling

from tutor.sizing.formula import Max, Min, formula
from tutor.sizing.symbols import S
from tutor.text import T

L, h, a, a_kv, f, V, s = S["layers"], S["hidden"], S["heads"], S["kv_heads"], S["ffn"], S["vocab"], S["seq"]
E, k, t, p = S["experts"], S["top_k"], S["tp"], S["pp"]
ep, fE, Es, Ld, Pa = S["ep"], S["expert_ffn"], S["shared_experts"], S["dense_layers"], S["attn_params"]
rq, rkv, dR, dn, dv = S["q_rank"], S["kv_rank"], S["rope_dim"], S["nope_dim"], S["v_dim"]

GPT_ATTENTION = 4 * h**2 + 4 * h
GPT_MLP = 2 * h * f + f + h
GPT_NORMS = 4 * h
GPT_EMBEDDING = (V + s) * h
LLAMA_ATTENTION = 2 * h**2 + 2 * h * h * a_kv / a
LLAMA_MLP = 3 * h * f
LLAMA_NORMS = 2 * h
LLAMA_EMBEDDING = V * h  # input embedding; the untied output layer is another V·h on the last stage
ROUTER = h * E

# MLA (DeepSeek-V2 §2.1, V3 config): W_DQ h×r_q + norm r_q, W_UQ r_q × a(d_nope + d_R), W_DKV and W_KR
# h × (r_kv + d_R) + norm r_kv, W_UK/W_UV r_kv × a(d_nope + d_v), W_O a·d_v × h.
MLA_ATTENTION = (h * rq + rq + rq * a * (dn + dR) + h * (rkv + dR) + rkv + rkv * a * (dn + dv) + a * dv * h)
EXPERT = 3 * h * fE  # one SwiGLU expert of width f_E
DENSE_LAYER = Pa + LLAMA_MLP + LLAMA_NORMS
MOE_SHARED_PART = Pa + Es * EXPERT + ROUTER + LLAMA_NORMS  # what every rank of the EP group holds
MOE_LAYERS = L - Ld
GPT_LAYER = GPT_ATTENTION + GPT_MLP + GPT_NORMS
LLAMA_LAYER = LLAMA_ATTENTION + LLAMA_MLP + LLAMA_NORMS
N21 = "Narayanan et al. 2021 Eq. 2 (GPT: learned positions, biases, MHA, GeLU)"
LLAMA = ("Llama 3 paper (arXiv 2407.21783) Table 3; Touvron et al. 2023 §2.2 (SwiGLU, RoPE, RMSNorm); "
         "GQA (Ainslie et al. 2023)")
MOE = "Jiang et al. 2024 (Mixtral) §2; Megatron-LM moe/README.md"
DEEPSEEK = "DeepSeek-AI 2024, DeepSeek-V3 technical report (arXiv 2412.19437) §2.1, §4.2; released config.json"
MOE_ORDER = ("layers", "dense_layers", "hidden", "ffn", "expert_ffn", "experts", "shared_experts", "vocab",
             "attn_params")
GPT_ORDER = ("layers", "hidden", "ffn", "vocab", "seq")
N_STAGE = ceiling(L / p)  # layers of the fullest stage
# Unevaluated: SymPy would otherwise try to order the arguments symbolically (slow, and no use).
N_DENSE_FIRST = Min(Ld, N_STAGE, evaluate=False)  # leading dense layers that land on the first stage
N_MOE_LAST = Min(N_STAGE, MOE_LAYERS, evaluate=False)  # the last stage's layers are MoE unless the dense ones reach it


def _stage_moe(expert_split):
    """Per-GPU parameters of the most loaded stage of a MoE: the first (embedding, dense layers first)
    or the last (output layer, final norm); routed experts divided by `expert_split`."""
    first = (V * h + N_DENSE_FIRST * DENSE_LAYER + (N_STAGE - N_DENSE_FIRST) * MOE_SHARED_PART) / t \
        + (N_STAGE - N_DENSE_FIRST) * E * EXPERT / (t * expert_split)
    last = (V * h + h + (N_STAGE - N_MOE_LAST) * DENSE_LAYER + N_MOE_LAST * MOE_SHARED_PART) / t \
        + N_MOE_LAST * E * EXPERT / (t * expert_split)
    return Max(first, last, evaluate=False)


def _stage_moe_gpt(expert_split):
    return ((V + s) * h + N_STAGE * (GPT_ATTENTION + ROUTER + GPT_NORMS)) / t \
        + N_STAGE * E * GPT_MLP / (t * expert_split)

LLAMA_ORDER = ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab")
# Llama 3's trimmed stages (arXiv 2407.21783 §3.3.2: one layer removed from the first and last stage):
# n = (L + 2)/p layers on a middle stage, n − 1 and the input embedding on the first, n − 1, the
# final norm and the output layer on the last (which outweighs the first). Which of a middle stage
# and the last is fuller depends on the model only (a layer against V·h + h), so the stage formula
# is picked per model (report.stage_formula) rather than written as a Max, which SymPy is slow to
# compile into the planner's functions.
N_TRIMMED = (L + 2) / p

FORMULAS = (
    formula("params_gpt", L * GPT_LAYER + GPT_EMBEDDING, "params",
            T("GPT-style parameters: L·(4h² + 2hf + 9h + f) + (V + s)·h.",
              "GPT 式结构的参数量：L·(4h² + 2hf + 9h + f) + (V + s)·h。"), N21, order=GPT_ORDER),
    formula("params_gpt_n21", 12 * L * h**2 * (1 + 13 / (12 * h) + (V + s) / (12 * L * h)), "params",
            T("Narayanan Eq. 2 (MLP width 4h): 12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h)).",
              "Narayanan Eq. 2（MLP 宽 4h）：12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h))。"), N21,
            order=("layers", "hidden", "vocab", "seq")),
    formula("params_llama", L * LLAMA_LAYER + 2 * V * h + h, "params",
            T("Llama-style parameters: L·(2h² + 2h²·a_kv/a + 3hf + 2h) + 2·V·h + h.",
              "Llama 式结构的参数量：L·(2h² + 2h²·a_kv/a + 3hf + 2h) + 2·V·h + h。"), LLAMA, order=LLAMA_ORDER),
    formula("layer_params_gpt", GPT_LAYER, "params", T("Parameters of one GPT-style layer.", "GPT 式结构一层的参数量。"),
            N21, order=("hidden", "ffn")),
    formula("layer_params_llama", LLAMA_LAYER, "params", T("Parameters of one Llama-style layer.",
            "Llama 式结构一层的参数量。"), LLAMA, order=("hidden", "heads", "kv_heads", "ffn")),
    formula("first_stage_params_gpt", (ceiling(L / p) * GPT_LAYER + GPT_EMBEDDING) / t, "params",
            T("Parameters per GPU of the first pipeline stage: ⌈L/p⌉ layers plus the embeddings, split by TP.",
              "第一个 pipeline stage 每卡的参数：⌈L/p⌉ 层加 embedding，再按 TP 切。"), N21 + "; lesson §memory",
            order=GPT_ORDER + ("tp", "pp")),
    formula("first_stage_params_llama", (ceiling(L / p) * LLAMA_LAYER + LLAMA_EMBEDDING) / t, "params",
            T("Parameters per GPU of the first pipeline stage: ⌈L/p⌉ layers plus the input embedding, split by TP.",
              "第一个 pipeline stage 每卡的参数：⌈L/p⌉ 层加输入 embedding，再按 TP 切。"), LLAMA + "; lesson §memory",
            order=LLAMA_ORDER + ("tp", "pp")),
    formula("stage_params_llama_trimmed", N_TRIMMED * LLAMA_LAYER / t, "params",
            T("Stages trimmed as in Llama 3 (n = (L + 2)/p): parameters per GPU of a middle stage, the most loaded "
              "when a layer outweighs the output layer: n layers, split by TP.",
            "像 Llama 3 那样首尾 stage 各少一层（n = (L + 2)/p）：中间 stage 每卡的参数（一层比输出层大时它最满）："
            "n 层，再按 TP 切。"),
            "Llama 3 paper (arXiv 2407.21783) §3.3.2; " + LLAMA,
            order=("layers", "hidden", "heads", "kv_heads", "ffn", "tp", "pp")),
    formula("stage_params_llama_trimmed_last", ((N_TRIMMED - 1) * LLAMA_LAYER + LLAMA_EMBEDDING + h) / t, "params",
            T("Stages trimmed as in Llama 3 (n = (L + 2)/p): parameters per GPU of the last stage, the most loaded "
              "when the output layer outweighs a layer: n − 1 layers, the output layer and the final norm, split by TP.",
            "像 Llama 3 那样首尾 stage 各少一层（n = (L + 2)/p）：最后一个 stage 每卡的参数（输出层比一层大时它最满）："
            "n − 1 层加输出层和最后的 norm，再按 TP 切。"),
            "Llama 3 paper (arXiv 2407.21783) §3.3.2; " + LLAMA, order=LLAMA_ORDER + ("tp", "pp")),
    formula("attention_params_gqa", LLAMA_ATTENTION, "params",
            T("Attention parameters of one layer with grouped-query attention: 2h² + 2h²·a_kv/a (Q and output h×h, "
              "K and V h × a_kv·h/a).",
            "一层 grouped-query attention 的参数量：2h² + 2h²·a_kv/a（Q 和输出 h×h,K、V 各 h × a_kv·h/a）。"),
            LLAMA, order=("hidden", "heads", "kv_heads")),
    formula("attention_params_mla", MLA_ATTENTION, "params",
            T("Attention parameters of one layer with multi-head latent attention: query down/up projections "
              "h·r_q + r_q·a·(d_nope + d_R), key/value down projection with the RoPE key h·(r_kv + d_R), "
            "their up projections r_kv·a·(d_nope + d_v), the output a·d_v·h, and two norms r_q + r_kv.",
            "一层 multi-head latent attention 的参数量：query 的降维/升维 h·r_q + r_q·a·(d_nope + d_R)，"
            "key/value 降维连同 RoPE key h·(r_kv + d_R)，升维 r_kv·a·(d_nope + d_v)，输出 a·d_v·h，"
            "再加两个 norm r_q + r_kv。"), DEEPSEEK + " (MLA)",
            order=("hidden", "heads", "q_rank", "kv_rank", "rope_dim", "nope_dim", "v_dim")),
    formula("params_moe", Ld * DENSE_LAYER + MOE_LAYERS * (MOE_SHARED_PART + E * EXPERT) + 2 * V * h + h, "params",
            T("MoE parameters: L_dense dense layers (MLP 3hf), then L − L_dense layers of E routed and E_s shared "
              "experts (3h·f_E each) and a router h·E; Ψ_attn per layer; untied embedding and output 2·V·h.",
            "MoE 的参数量：前 L_dense 层是 dense(MLP 3hf)，其余 L − L_dense 层各有 E 个路由 expert、E_s 个 "
            "shared expert（每个 3h·f_E）和 router h·E；每层 attention Ψ_attn;embedding 和输出层不共享，2·V·h。"),
            DEEPSEEK + "; " + MOE, order=MOE_ORDER),
    formula("active_params_moe", Ld * DENSE_LAYER + MOE_LAYERS * (MOE_SHARED_PART + k * EXPERT) + 2 * V * h + h,
            "params", T("Parameters a token uses in a MoE: k routed experts and the E_s shared ones per MoE layer.",
            "MoE 中每个 token 用到的参数：每个 MoE 层 k 个路由 expert 加 E_s 个 shared expert。"),
            DEEPSEEK + "; " + MOE, order=MOE_ORDER + ("top_k",)),
    formula("expert_params_moe", MOE_LAYERS * E * EXPERT, "params",
            T("Routed-expert parameters, the part EP splits: (L − L_dense)·E·3h·f_E (shared experts stay whole).",
              "EP 切分的路由 expert 参数：(L − L_dense)·E·3h·f_E（shared expert 不切）。"), DEEPSEEK,
            order=("layers", "dense_layers", "hidden", "expert_ffn", "experts")),
    formula("stage_params_moe", _stage_moe(ep), "params",
            T("MoE: parameters per GPU of the most loaded pipeline stage, the first (⌈L/p⌉ layers, dense ones first, "
              "and the input embedding) or the last (its layers, the output layer); routed experts split by TP·EP.",
            "MoE：最满的 pipeline stage 每卡的参数，取第一个 stage（⌈L/p⌉ 层，dense 层在前，加输入 embedding）"
            "和最后一个 stage（它的层加输出层）中较大者；路由 expert 按 TP·EP 切。"),
            "Megatron-LM theoretical_memory_usage.py (most loaded shard); " + DEEPSEEK,
            order=MOE_ORDER + ("tp", "pp", "ep")),
    formula("stage_shard_params_moe", _stage_moe(1), "params",
            T("MoE: the same stage counted with every routed expert, what the optimizer state is sharded from "
              "(expert state over DP·CP/EP ranks, the rest over DP·CP: 12·Ψ_shard/(DP·CP) in all).",
            "MoE：同一个 stage 按全部路由 expert 计的参数，optimizer state 从它切分（expert 沿 DP·CP/EP，"
            "其余沿 DP·CP，合起来 12·Ψ_shard/(DP·CP)）。"),
            "Megatron-LM moe/README.md (expert data parallel = DP·CP/EP)", order=MOE_ORDER + ("tp", "pp")),
    formula("stage_params_moe_gpt", _stage_moe_gpt(ep), "params",
            T("GPT-style MoE: parameters per GPU of the first stage, ⌈L/p⌉ layers and the embeddings; experts by TP·EP.",
              "GPT 式 MoE：第一个 stage 每卡的参数，⌈L/p⌉ 层加 embedding;expert 按 TP·EP 切。"), MOE,
            order=GPT_ORDER + ("experts", "tp", "pp", "ep")),
    formula("stage_shard_params_moe_gpt", _stage_moe_gpt(1), "params",
            T("GPT-style MoE: the first stage counted with every expert (what the optimizer state is sharded from).",
              "GPT 式 MoE：按全部 expert 计的第一个 stage 参数（optimizer state 从它切分）。"), MOE,
            order=GPT_ORDER + ("experts", "tp", "pp")),
    formula("flop_params_untied", S["active_params"] - V * h, "params",
            T("Parameters a token multiplies by: Ψ less the untied input embedding, a table lookup with no FLOPs "
              "(Kaplan et al. 2020 §2.1; Megatron-LM counts only the output layer's 2·h·V).",
            "每个 token 参与矩阵乘的参数：Ψ 减去不共享的输入 embedding(查表，没有 FLOPs;Kaplan 等 2020 §2.1;"
            "Megatron-LM 只算输出层的 2·h·V)。"), "Kaplan et al. 2020 §2.1; Megatron-LM training.py "
            "num_floating_point_operations", order=("active_params", "vocab", "hidden")),
    formula("flop_params_tied", S["active_params"] - s * h, "params",
            T("Parameters a token multiplies by: Ψ less the learned positions (a lookup); the tied V·h matrix "
              "computes the logits, so it counts once.",
            "每个 token 参与矩阵乘的参数：Ψ 减去 learned position（查表）；共享的 V·h 矩阵用来算 logits，算一次。"),
            "Kaplan et al. 2020 §2.1; Narayanan et al. 2021 Eq. 3", order=("active_params", "seq", "hidden")),
    formula("params_moe_llama", L * (LLAMA_ATTENTION + E * LLAMA_MLP + ROUTER + LLAMA_NORMS) + 2 * V * h + h, "params",
            T("Llama-style MoE parameters: each layer has E SwiGLU experts and a router.",
              "Llama 式 MoE 的参数量：每层 E 个 SwiGLU expert 加一个 router。"), MOE, order=LLAMA_ORDER + ("experts",)),
    formula("active_params_moe_llama", L * (LLAMA_ATTENTION + k * LLAMA_MLP + ROUTER + LLAMA_NORMS) + 2 * V * h + h,
            "params", T("Parameters a token uses in a Llama-style MoE: k of the E experts.",
            "Llama 式 MoE 中每个 token 用到的参数：E 个 expert 中的 k 个。"), MOE,
            order=LLAMA_ORDER + ("experts", "top_k")),
    formula("expert_params_llama", L * E * LLAMA_MLP, "params", T("Expert parameters of a Llama-style MoE: L·E·3hf.",
            "Llama 式 MoE 的 expert 参数：L·E·3hf。"), MOE, order=("layers", "hidden", "ffn", "experts")),
    formula("params_moe_gpt", L * (GPT_ATTENTION + E * GPT_MLP + ROUTER + GPT_NORMS) + GPT_EMBEDDING, "params",
            T("GPT-style MoE parameters: each layer has E GeLU experts and a router.",
              "GPT 式 MoE 的参数量：每层 E 个 GeLU expert 加一个 router。"), MOE, order=GPT_ORDER + ("experts",)),
    formula("active_params_moe_gpt", L * (GPT_ATTENTION + k * GPT_MLP + ROUTER + GPT_NORMS) + GPT_EMBEDDING, "params",
            T("Parameters a token uses in a GPT-style MoE: k of the E experts.",
              "GPT 式 MoE 中每个 token 用到的参数：E 个 expert 中的 k 个。"), MOE, order=GPT_ORDER + ("experts", "top_k")),
    formula("expert_params_gpt", L * E * GPT_MLP, "params", T("Expert parameters of a GPT-style MoE: L·E·(2hf + f + h).",
            "GPT 式 MoE 的 expert 参数：L·E·(2hf + f + h)。"), MOE, order=("layers", "hidden", "ffn", "experts")),
)
