"""FLOPs, MFU, throughput and training time (lesson §running-fast, §trillion-design).

Model FLOPs per token are 6Ψ (forward 2Ψ, backward 4Ψ). With attention, Korthikanti et al.
2022 Eq. 7 gives 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h)) per iteration, i.e. per token
6·(12·L·h² + V·h) + 12·L·h·s: 6Ψ + 12·L·h·s where Ψ counts each matrix a token multiplies by
once — for a model with an untied input embedding (Llama) that is Ψ less the V·h lookup table,
for a tied one (GPT) Ψ less the learned positions (`flop_params_*` in architecture.py); `tutor size`
binds Ψ to that. Attention convention: the full s×s score matrix (K22 Eq. 7, PaLM App. B), no
causal halving; Megatron-LM since 2025 halves it (6·L·h·s), which is the convention when comparing.
Full recompute repeats the forward: 8Ψ + 16·L·h·s per token (Narayanan et al. 2021 Eq. 3).
Measured FLOP/s (`--achieved-tflops`) are what the GPUs execute, recompute included, as in
Narayanan et al. 2021 Eq. 4 (time ≈ 8TP/(nX) with full recompute); MFU counts model FLOPs only
(lesson: MFU = tokens/s × 6Ψ / (GPUs × peak)), so MFU ≤ achieved / peak.
"""

from __future__ import annotations

from sympy import Mul, Pow

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S
from tutor.text import T

Psi, L, h, s, V = S["params"], S["layers"], S["hidden"], S["seq"], S["vocab"]
G, peak, mfu, rate = S["gpus"], S["peak_flops"], S["mfu"], S["tokens_per_s"]
D, B, F = S["tokens"], S["global_batch"], S["achieved_flops"]
LESSON_MFU = "lesson §running-fast (MFU = tokens/s × 6Ψ ÷ (GPUs × 989T))"
K22_EQ7 = "Korthikanti et al. 2022 Eq. 7 (per token); Narayanan et al. 2021 Eq. 3"
SECONDS_PER_DAY = 86400
TRAIN_TIME = 6 * Psi * D / (G * peak * mfu)
# Unevaluated so it reads "…/86400" rather than SymPy's folded "Ψ·D/(14400·…)".
TRAIN_DAYS = Mul(TRAIN_TIME, Pow(SECONDS_PER_DAY, -1, evaluate=False), evaluate=False)

FORMULAS = (
    formula("flops_per_token", 6 * Psi, "FLOPs",
            T("Model FLOPs per training token: 6Ψ (2Ψ forward, 4Ψ backward).",
              "每个训练 token 的 model FLOPs:6Ψ(forward 2Ψ,backward 4Ψ)。"),
            "lesson §trillion-design (6ND); Kaplan et al. 2020 §2.1"),
    formula("flops_per_token_attn", 6 * Psi + 12 * L * h * s, "FLOPs",
            T("Model FLOPs per token with the attention scores: 6Ψ + 12·L·h·s (the full s×s scores, not causal-halved; "
              "Megatron-LM since 2025 counts 6·L·h·s for a causal mask).",
            "算上 attention score 的每 token model FLOPs:6Ψ + 12·L·h·s(按完整 s×s score 算，不按 causal 减半；"
            "Megatron-LM 2025 年起按 causal mask 算 6·L·h·s)。"), K22_EQ7,
            order=("params", "layers", "hidden", "seq")),
    formula("flops_per_token_k22", 72 * L * h**2 * (1 + s / (6 * h) + V / (12 * L * h)), "FLOPs",
            T("Korthikanti Eq. 7 per token: 72·L·h²·(1 + s/(6h) + V/(12·L·h)).",
              "Korthikanti Eq. 7（每 token）：72·L·h²·(1 + s/(6h) + V/(12·L·h))。"), "Korthikanti et al. 2022 Eq. 7",
            order=("layers", "hidden", "seq", "vocab")),
    formula("hardware_flops_per_token_full", 8 * Psi + 16 * L * h * s, "FLOPs",
            T("Hardware FLOPs per token with full recompute: the forward runs twice, 8Ψ + 16·L·h·s.",
              "full recompute 时每 token 的硬件 FLOPs:forward 跑两遍，8Ψ + 16·L·h·s。"),
            "Narayanan et al. 2021 Eq. 3 (per token); DESIGN §4 (8ND)", order=("params", "layers", "hidden", "seq")),
    formula("hardware_flops_per_token_full_8n", 8 * Psi, "FLOPs",
            T("Hardware FLOPs per token with full recompute, attention not counted: 8Ψ (the forward runs twice).",
              "full recompute 时每 token 的硬件 FLOPs（不算 attention）：8Ψ（forward 跑两遍）。"),
            "Narayanan et al. 2021 Eq. 4 (training time ≈ 8TP/(nX))"),
    formula("tokens_per_s_from_hw_flops", F * G / S["hw_flops"], "tokens/s",
            T("Throughput from measured FLOP/s per GPU: achieved × GPUs / FLOPs the GPUs execute per token "
              "(8Ψ + 16·L·h·s with full recompute, else the model FLOPs).",
            "由每卡实测 FLOP/s 算吞吐：实测 × GPU 数 / 每 token GPU 实际执行的 FLOPs"
            "（full recompute 为 8Ψ + 16·L·h·s，否则就是 model FLOPs）。"),
            "Narayanan et al. 2021 Eq. 4 (achieved X counts recompute)", order=("achieved_flops", "gpus", "hw_flops")),
    formula("hw_flops_per_gpu", rate * S["hw_flops"] / G, "FLOP/s",
            T("FLOP/s each GPU executes: tokens/s × FLOPs executed per token (recompute included) / GPUs.",
              "每卡实际执行的 FLOP/s:tokens/s × 每 token 实际执行的 FLOPs（含重算）/ GPU 数。"),
            "Narayanan et al. 2021 Eq. 4", order=("tokens_per_s", "hw_flops", "gpus")),
    formula("train_flops", 6 * Psi * D, "FLOPs", T("Training compute: 6·Ψ·D.", "训练总算力：6·Ψ·D。"),
            "lesson §trillion-design (6ND = 1.2e25)"),
    formula("train_time_s", TRAIN_TIME, "s",
            T("Training time: 6·Ψ·D / (GPUs × peak × MFU).", "训练时长：6·Ψ·D /（GPU 数 × 峰值 × MFU）。"),
              "lesson §trillion-design (≈ 43 days)", steps=("train_flops",)),
    formula("train_days", TRAIN_DAYS, "days",
            T("Training time in days: 6·Ψ·D / (GPUs × peak × MFU) / 86400.",
              "训练天数：6·Ψ·D /（GPU 数 × 峰值 × MFU）/ 86400。"), "lesson §trillion-design (≈ 43 days)",
            steps=("train_flops",)),
    formula("tokens_per_s_at_mfu", mfu * G * peak / (6 * Psi), "tokens/s",
            T("Tokens per second a cluster trains at a given MFU: MFU × GPUs × peak / 6Ψ.",
              "给定 MFU 时每秒训练的 token 数：MFU × GPU 数 × 峰值 / 6Ψ。"),
            LESSON_MFU + "; 8B on 32 H100 at 40% ≈ 260K tokens/s"),
    formula("mfu_from_tokens", rate * 6 * Psi / (G * peak), "fraction",
            T("MFU from measured throughput: tokens/s × 6Ψ / (GPUs × peak).",
              "由实测吞吐算 MFU:tokens/s × 6Ψ /（GPU 数 × 峰值）。"), LESSON_MFU,
            order=("tokens_per_s", "params", "gpus", "peak_flops")),
    formula("mfu_attn_from_tokens", rate * (6 * Psi + 12 * L * h * s) / (G * peak), "fraction",
            T("MFU counting attention FLOPs: tokens/s × (6Ψ + 12·L·h·s) / (GPUs × peak).",
              "算上 attention FLOPs 的 MFU:tokens/s × (6Ψ + 12·L·h·s) /（GPU 数 × 峰值）。"), K22_EQ7,
            order=("tokens_per_s", "params", "layers", "hidden", "seq", "gpus", "peak_flops")),
    formula("achieved_flops_per_gpu", rate * 6 * Psi / G, "FLOP/s",
            T("Model FLOP/s each GPU achieves: tokens/s × 6Ψ / GPUs.",
              "每卡实际达到的 model FLOP/s:tokens/s × 6Ψ / GPU 数。"), LESSON_MFU,
            order=("tokens_per_s", "params", "gpus")),
    formula("mfu_from_achieved", F / peak, "fraction", T("MFU from achieved FLOP/s per GPU: achieved / peak.",
            "由每卡实际 FLOP/s 算 MFU：实际 / 峰值。"), "Llama 3 paper Table 4 (400 / 989 ≈ 41%)"),
    formula("tokens_per_s_from_achieved", F * G / (6 * Psi), "tokens/s",
            T("Throughput from achieved FLOP/s per GPU: achieved × GPUs / 6Ψ.",
              "由每卡实际 FLOP/s 算吞吐：实际 × GPU 数 / 6Ψ。"), LESSON_MFU, order=("achieved_flops", "params", "gpus")),
    formula("step_time_s", B * s / rate, "s", T("Time per step: global batch × seq / tokens per second.",
            "每个 step 的时间：global batch × seq / 每秒 token 数。"), "definition (tokens per step ÷ tokens/s)",
            order=("global_batch", "seq", "tokens_per_s")),
    formula("tokens_per_s_from_step", B * s / S["step_time"], "tokens/s",
            T("Throughput from step time: global batch × seq / step time.",
              "由 step 时间算吞吐：global batch × seq / step 时间。"), "definition (tokens per step ÷ step time)",
            order=("global_batch", "seq", "step_time")),
)
