"""Activation memory per layer and for the first pipeline stage (Korthikanti et al. 2022).

Bytes per transformer layer in 16-bit training, Table 2 of K22 (s sequence, b micro-batch,
h hidden, a heads, t TP). FlashAttention never stores the s×s attention scores, which removes
the 5·a·s/h term exactly as selective recompute does; context parallelism gives each rank s/CP
tokens. The lesson's case (FlashAttention + SP + CP) is therefore 34·s·b·h/(TP·CP).
The first stage of non-interleaved 1F1B holds min(m, p) micro-batches of ⌈L/p⌉ layers, L layers'
worth when the layers split evenly and m ≥ p (K22 §4.2.3); interleaving with v chunks multiplies
that by 1 + (p−1)/(p·v). Full recompute keeps each layer's input, split over TP under sequence
parallelism (Megatron-core scatters the embedding output to the sequence-parallel region, so the
checkpointed input is s·b·h/t per rank; transformer_config.py forbids distributing it further).
"""

from __future__ import annotations

from sympy import Rational, ceiling

from tutor.sizing.formula import Min, formula
from tutor.sizing.symbols import S
from tutor.text import T

s, b, h, a, t = S["seq"], S["micro_batch"], S["hidden"], S["heads"], S["tp"]
L, cp, p, v, A, m = S["layers"], S["cp"], S["pp"], S["vpp"], S["act_layer"], S["microbatches"]
f = S["ffn"]
K22 = "Korthikanti et al. 2022, Table 2"
ORDER = ("seq", "micro_batch", "hidden")

# Megatron-LM's estimator writes K22's 34 as 18 + 4·f/h: the two f-wide MLP tensors (the activation's
# input and output, 2 bytes each) scale with the MLP width, the other 18·s·b·h do not. It is 34 for
# GPT's f = 4h and 31 for Llama 3 405B (f = 3.25h). Megatron-LM megatron/training/
# theoretical_memory_usage.py, compute_activation_memory, at 00caa53af30912914981c86f39db123961678bbd.
MEGATRON = ("Megatron-LM theoretical_memory_usage.py compute_activation_memory (18 + 4f/h), "
            "commit 00caa53af309; " + K22)
# Llama 3 (arXiv 2407.21783 §3.3.2) removes one layer from the first and the last pipeline stage, so
# that the embedding and the output layer take a layer's place: L + 2 slots over p stages, n each.
# Under 1F1B stage i holds p − i micro-batches in flight (Narayanan et al. 2021 §2.2.1), so the
# fullest is stage 0 (min(m, p) × (n − 1) layers) or stage 1 (min(m, p − 1) × n layers). The larger
# of the two is written as min(m·n, p·n − min(p, n)): for m ≥ p it is max(p(n − 1), (p − 1)n) =
# p·n − min(p, n), for m < p it is m·n (stage 1, m micro-batches of n layers); a Max of Mins is
# the same number but SymPy is slow to compile it into the planner's functions.
N_TRIMMED = (L + 2) / p

# 1 + (p-1)/(p·v): in-flight micro-batches of the interleaved schedule, relative to 1F1B (K22 §4.2.3).
INTERLEAVED_FACTOR = 1 + (p - 1) / (p * v)
# Interleaved 1F1B over trimmed chunks (Llama 3 405B: 126 layers, PP 16, v = 2): L + 2 = n·p·v, so
# every chunk holds n layers except the first (the embedding in a layer's place) and the last (the
# output layer). In Megatron-LM's interleaved schedule (schedules.py,
# forward_backward_pipelining_with_interleaving) rank r runs 2(p − r − 1) + (v − 1)p warm-up forwards,
# so (v + 1)p − 2r − 1 chunk-micro-batches are in flight, and the k-th forward on a rank is its chunk
# (k // p) mod v: on stage 0, 2p − 1 of them are the first, trimmed chunk, the rest hold n layers; on
# stage 1 all (v + 1)p − 3 hold n. The fullest is n((v + 1)p − 1) − min(2p − 1, 2n) layers' worth
# for m ≥ 2p; untrimmed (L = n·p·v) the same count, n((v + 1)p − 1), is K22's L·(1 + (p − 1)/(p·v)).
# At m = p the warm-up covers all m·v chunk-micro-batches (stage 1: m·v·n), hence the outer min.
# Checked against a step-by-step replay of the schedule in tests/sizing/test_engine_defects.py.
N_CHUNK_TRIMMED = (L + 2) / (p * v)

# DeepSeek-V3 (arXiv 2412.19437) trains without TP by saving activations; the engine counts each saving as
# a change to K22's 34·s·b·h (FlashAttention, no s×s term), term by term in bytes per s·b·h:
#   attention: norm output = QKV input 2, Q and K 4, V 2, output-projection input 2, dropout mask 1;
#   MLP: norm output = first projection input 2, activation input 8, its output = second projection input 8,
#   dropout mask 1; the two norms' inputs 2 + 2.
# §3.2.3 "Recomputation of RMSNorm and MLA Up-Projection": the norm outputs (4) and the up-projections'
# outputs Q, K, V (6) are recomputed in backward, so not stored; the latents they come from (c_Q, c_KV and
# the RoPE key, r_q + r_kv + d_R values a token) are: 34 − 10 → 24·h + 2(r_q + r_kv + d_R).
# §3.3.3 "Low-Precision Activation": Linear inputs cached in FP8 (QKV and first projection 2 → 1), the
# output projection's input in E5M6 (2 → 1.5), "the inputs of the SwiGLU operator in MoE" cached in FP8 and
# its output recomputed (8 → 4, 8 → 0): 34 − 14.5 = 19.5. Both: 24 − 0.5 − 12 = 11.5, latents at 1 byte.
# Kept as K22 counts them: the dropout masks and the MLP at K22's 4h (the engine's MoE row, see
# report.counts_mlp), so the savings are relative to that row, not a recount of MLA's wider Q and K.
DEEPSEEK_RECOMPUTE = 'DeepSeek-V3 (arXiv 2412.19437) §3.2.3 "Recomputation of RMSNorm and MLA Up-Projection"'
DEEPSEEK_FP8 = 'DeepSeek-V3 (arXiv 2412.19437) §3.3.3 "Low-Precision Activation" (FP8, E5M6)'
LATENTS = S["q_rank"] + S["kv_rank"] + S["rope_dim"]

FORMULAS = (
    formula("activation_per_layer_none", s * b * h * (34 + 5 * a * s / h), "B",
            T("Activations of one layer, no parallelism, no recompute: s·b·h·(34 + 5·a·s/h) bytes.",
              "一层的 activation，不并行、不 recompute:s·b·h·(34 + 5·a·s/h) 字节。"),
            K22 + " (no parallelism); K22 §4.1 Eq. 1", order=ORDER),
    formula("activation_per_layer_tp", s * b * h * (10 + 24 / t + 5 * a * s / (h * t)), "B",
            T("With tensor parallelism t: LayerNorm and dropout inputs (10·s·b·h) stay replicated.",
              "开 TP(t):LayerNorm 和 dropout 的输入（10·s·b·h）每卡一份。"),
            K22 + " (tensor parallel); Eq. 2", order=ORDER),
    formula("activation_per_layer_tp_sp", s * b * h / t * (34 + 5 * a * s / h), "B",
            T("Tensor + sequence parallelism: every activation is split t ways.",
              "TP + sequence parallel：所有 activation 都切成 t 份。"),
            K22 + " (tensor + sequence parallel); Eq. 4", order=ORDER),
    formula("activation_per_layer_tp_selective", s * b * h * (10 + 24 / t), "B",
            T("Tensor parallel with selective recompute (or FlashAttention), without SP.",
              "TP + selective recompute（或 FlashAttention），不开 SP。"),
            K22 + " (tensor parallel + selective recompute)", order=ORDER),
    formula("activation_per_layer_selective", 34 * s * b * h / t, "B",
            T("Tensor + sequence parallel with selective recompute (or FlashAttention): 34·s·b·h/t.",
              "TP + SP + selective recompute（或 FlashAttention）：34·s·b·h/t。"),
            K22 + " (tensor + sequence parallel + selective recompute); Eq. 6", order=ORDER),
    formula("activation_per_layer_full", 2 * s * b * h, "B",
            T("Full recompute: only the layer's 16-bit input (2·s·b·h bytes) is kept.",
              "Full recompute：只留每层的 16 位输入（2·s·b·h 字节）。"), K22 + " (full recompute)", order=ORDER),
    formula("activation_per_layer_full_sp", 2 * s * b * h / t, "B",
            T("Full recompute with sequence parallelism: the kept 16-bit input is split over TP, 2·s·b·h/t.",
              "Full recompute + sequence parallel：留下的 16 位输入沿 TP 切分，2·s·b·h/t。"),
            K22 + " (full recompute, t-way sequence parallel); Megatron-LM language_model_embedding.py "
            "(scatter_to_sequence_parallel_region)", order=ORDER),
    formula("activation_bytes_per_layer", 34 * s * b * h / (t * cp), "B",
            T("The lesson's case, FlashAttention + SP + CP: 34·s·b·h/(TP·CP) bytes per layer (K22's coefficient, "
              "for an MLP of 4h; Megatron-LM's estimator uses 18 + 4f/h, 31 for Llama 3 405B).",
            "本课的情形，FlashAttention + SP + CP：每层 34·s·b·h/(TP·CP) 字节（K22 的系数，对应 4h 宽的 MLP；"
            "Megatron-LM 的估算器用 18 + 4f/h，Llama 3 405B 是 31）。"),
            K22 + " (selective row) with CP dividing s; lesson §worked-examples (≈ 285 MB)", order=ORDER),
    formula("activation_bytes_per_layer_mlp", s * b * h * (18 + 4 * f / h) / (t * cp), "B",
            T("FlashAttention + SP + CP with the MLP width counted: s·b·h·(18 + 4f/h)/(TP·CP) bytes per layer "
              "(34 for an MLP of 4h, 31 for Llama 3 405B).",
            "FlashAttention + SP + CP，按 MLP 宽度算：每层 s·b·h·(18 + 4f/h)/(TP·CP) 字节"
            "（MLP 宽 4h 时是 34,Llama 3 405B 是 31）。"), MEGATRON, order=ORDER),
    # DeepSeek-V3's activation savings (arXiv 2412.19437), off by default (`--recompute-norm-up`,
    # `--fp8-activations`), counted as changes to K22's 34 terms (see DEEPSEEK_TERMS above).
    formula("activation_bytes_per_layer_norm_up", s * b * (24 * h + 2 * LATENTS) / (t * cp), "B",
            T("RMSNorm and the MLA up-projections recomputed in backward (DeepSeek-V3, arXiv 2412.19437 §3.2.3): K22's 34 less the two norm "
              "outputs (2 + 2) and Q, K, V (4 + 2), plus the stored MLA latents 2·(r_q + r_kv + d_R) bytes a token: "
            "s·b·(24h + 2(r_q + r_kv + d_R))/(TP·CP).",
            "backward 里重算 RMSNorm 和 MLA 的 up-projection（DeepSeek-V3，arXiv 2412.19437 §3.2.3）：K22 的 34 减去两个 norm 的输出"
            "（2 + 2）和 Q、K、V（4 + 2），加上要存的 MLA latent，每个 token 2·(r_q + r_kv + d_R) 字节："
            "s·b·(24h + 2(r_q + r_kv + d_R))/(TP·CP)。"), DEEPSEEK_RECOMPUTE + "; " + K22, order=ORDER),
    formula("activation_bytes_per_layer_fp8", s * b * h * Rational(39, 2) / (t * cp), "B",
            T("Activations cached in FP8 for the Linear backward (DeepSeek-V3, arXiv 2412.19437 §3.3.3): K22's 34 with the inputs of the QKV, "
              "output (E5M6, 1.5 bytes) and first MLP projections at 1 byte, the SwiGLU input in FP8 (8 → 4) and its "
            "output recomputed (8 → 0): 19.5·s·b·h/(TP·CP).",
            "Linear 的 backward 用 FP8 缓存 activation（DeepSeek-V3，arXiv 2412.19437 §3.3.3）：K22 的 34 里 QKV、输出投影（E5M6，1.5 字节）"
            "和 MLP 第一个投影的输入各存 1 字节，SwiGLU 的输入存 FP8（8 → 4）、输出重算（8 → 0）："
            "19.5·s·b·h/(TP·CP)。"), DEEPSEEK_FP8 + "; " + K22, order=ORDER),
    formula("activation_bytes_per_layer_norm_up_fp8", s * b * (Rational(23, 2) * h + LATENTS) / (t * cp), "B",
            T("Both DeepSeek-V3 savings (arXiv 2412.19437 §3.2.3, §3.3.3): norms and up-projections recomputed, the remaining Linear inputs in FP8 "
              "(output projection 1.5, SwiGLU input 4, its output recomputed) and the MLA latents at 1 byte: "
            "s·b·(11.5h + r_q + r_kv + d_R)/(TP·CP).",
            "DeepSeek-V3 的两项一起（arXiv 2412.19437 §3.2.3、§3.3.3）：重算 norm 和 up-projection，其余 Linear 输入存 FP8（输出投影 1.5，SwiGLU 输入 4，"
            "输出重算），MLA latent 每个 1 字节：s·b·(11.5h + r_q + r_kv + d_R)/(TP·CP)。"),
            DEEPSEEK_RECOMPUTE + "; " + DEEPSEEK_FP8 + "; " + K22, order=ORDER),
    formula("activation_bytes_first_stage", 34 * s * b * h * L / (t * cp), "B",
            T("First pipeline stage under 1F1B: p micro-batches in flight × L/p layers = all L layers' worth.",
              "1F1B 下第一个 stage:p 个 micro-batch 在途 × L/p 层 = 整整 L 层的量。"),
            K22 + " and §4.2.3; lesson §worked-examples (≈ 23 GB for 80 layers)",
            steps=("activation_bytes_per_layer",), order=ORDER),
    formula("activation_bytes_first_stage_interleaved", 34 * s * b * h * L / (t * cp) * INTERLEAVED_FACTOR, "B",
            T("First stage under interleaved 1F1B with v chunks per GPU: × (1 + (p−1)/(p·v)).",
              "interleaved 1F1B（每卡 v 段）下第一个 stage：再乘 (1 + (p−1)/(p·v))。"),
            "Korthikanti et al. 2022 §4.2.3", steps=("activation_bytes_per_layer",), order=ORDER),
    formula("first_stage_activations", A * Min(m, p) * ceiling(L / p), "B",
            T("First pipeline stage under 1F1B: min(m, p) micro-batches in flight, each with the stage's ⌈L/p⌉ "
              "layers (L layers' worth when the layers split evenly and m ≥ p).",
            "1F1B 下第一个 stage：同时在途 min(m, p) 个 micro-batch，每个存本 stage 的 ⌈L/p⌉ 层"
            "（层数均分且 m ≥ p 时就是 L 层的量）。"), "Korthikanti et al. 2022 §4.2.3",
            order=("act_layer", "microbatches", "pp", "layers")),
    formula("first_stage_activations_trimmed",
            A * Min(m * N_TRIMMED, p * N_TRIMMED - Min(p, N_TRIMMED), evaluate=False), "B",
            T("Stages trimmed as in Llama 3 (one layer fewer on the first and last stage, n = (L + 2)/p): the fullest "
              "of stage 0, min(m, p) micro-batches of n − 1 layers, and stage 1, min(m, p − 1) of n layers.",
            "像 Llama 3 那样首尾 stage 各少一层（n = (L + 2)/p）：取 stage 0（min(m, p) 个 micro-batch × n − 1 层）"
            "和 stage 1（min(m, p − 1) 个 × n 层）中较大者。"),
            "Llama 3 paper (arXiv 2407.21783) §3.3.2; Narayanan et al. 2021 §2.2.1 (1F1B in-flight micro-batches)",
            order=("act_layer", "microbatches", "pp", "layers")),
    formula("first_stage_activations_interleaved_trimmed",
            A * Min(m * v * N_CHUNK_TRIMMED,
                    N_CHUNK_TRIMMED * ((v + 1) * p - 1) - Min(2 * p - 1, 2 * N_CHUNK_TRIMMED, evaluate=False),
                    evaluate=False), "B",
            T("Interleaved 1F1B over chunks trimmed as in Llama 3 (n = (L + 2)/(p·v) layers a chunk, one fewer in the "
              "first and the last): the fullest stage holds n((v + 1)p − 1) − min(2p − 1, 2n) layers' worth "
            "(stage 0 with 2p − 1 micro-batches of its trimmed chunk, or stage 1), at most all m·v of a stage's "
            "chunk-micro-batches (m = p: every forward runs before the first backward).",
            "按 Llama 3 那样首尾各少一层切段的 interleaved 1F1B（每段 n = (L + 2)/(p·v) 层，第一段和最后一段少一层）："
            "最满的 stage 存 n((v + 1)p − 1) − min(2p − 1, 2n) 层的量（stage 0 有 2p − 1 个 micro-batch 在它少一层的"
            "那段上，或者 stage 1），最多是一个 stage 全部 m·v 个段 × micro-batch(m = p 时第一个 backward 之前"
            "所有 forward 都跑完）。"),
            "Megatron-LM schedules.py (forward_backward_pipelining_with_interleaving: warm-up 2(p − r − 1) + (v − 1)p, "
            "chunk (k // p) mod v); Llama 3 paper (arXiv 2407.21783) §3.3.2; Korthikanti et al. 2022 §4.2.3",
            order=("act_layer", "microbatches", "pp", "vpp", "layers")),
    formula("first_stage_activations_interleaved", A * L * INTERLEAVED_FACTOR, "B",
            T("First stage under interleaved 1F1B: L layers' worth × (1 + (p−1)/(p·v)).",
              "interleaved 1F1B 下第一个 stage:L 层的量 × (1 + (p−1)/(p·v))。"), "Korthikanti et al. 2022 §4.2.3"),
)
