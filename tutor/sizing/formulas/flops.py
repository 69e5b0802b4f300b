"""FLOPs, MFU, throughput and training time (lesson §running-fast, §trillion-design).

Model FLOPs per token are 6Ψ (forward 2Ψ, backward 4Ψ). With attention, Korthikanti et al.
2022 Eq. 7 gives 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h)) per iteration, i.e. per token
6·(12·L·h² + V·h) + 12·L·h·s, and 12·L·h² + V·h ≈ Ψ: 6Ψ + 12·L·h·s. Full recompute repeats
the forward: 8Ψ + 16·L·h·s per token (Narayanan et al. 2021 Eq. 3). MFU counts model FLOPs
only (lesson: MFU = tokens/s × 6Ψ / (GPUs × peak)).
"""

from __future__ import annotations

from sympy import Mul, Pow

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S

Psi, L, h, s, V = S["params"], S["layers"], S["hidden"], S["seq"], S["vocab"]
G, peak, mfu, T = S["gpus"], S["peak_flops"], S["mfu"], S["tokens_per_s"]
D, B, F = S["tokens"], S["global_batch"], S["achieved_flops"]
LESSON_MFU = "lesson §running-fast (MFU = tokens/s × 6Ψ ÷ (GPUs × 989T))"
K22_EQ7 = "Korthikanti et al. 2022 Eq. 7 (per token); Narayanan et al. 2021 Eq. 3"
SECONDS_PER_DAY = 86400
TRAIN_TIME = 6 * Psi * D / (G * peak * mfu)
# Unevaluated so it reads "…/86400" rather than SymPy's folded "Ψ·D/(14400·…)".
TRAIN_DAYS = Mul(TRAIN_TIME, Pow(SECONDS_PER_DAY, -1, evaluate=False), evaluate=False)

FORMULAS = (
    formula("flops_per_token", 6 * Psi, "FLOPs",
            "Model FLOPs per training token: 6Ψ (2Ψ forward, 4Ψ backward).",
            "每个训练 token 的 model FLOPs:6Ψ(forward 2Ψ,backward 4Ψ)。",
            "lesson §trillion-design (6ND); Kaplan et al. 2020 §2.1"),
    formula("flops_per_token_attn", 6 * Psi + 12 * L * h * s, "FLOPs",
            "Model FLOPs per token with the attention scores: 6Ψ + 12·L·h·s.",
            "算上 attention score 的每 token model FLOPs:6Ψ + 12·L·h·s。", K22_EQ7,
            order=("params", "layers", "hidden", "seq")),
    formula("flops_per_token_k22", 72 * L * h**2 * (1 + s / (6 * h) + V / (12 * L * h)), "FLOPs",
            "Korthikanti Eq. 7 per token: 72·L·h²·(1 + s/(6h) + V/(12·L·h)).",
            "Korthikanti Eq. 7(每 token):72·L·h²·(1 + s/(6h) + V/(12·L·h))。", "Korthikanti et al. 2022 Eq. 7",
            order=("layers", "hidden", "seq", "vocab")),
    formula("hardware_flops_per_token_full", 8 * Psi + 16 * L * h * s, "FLOPs",
            "Hardware FLOPs per token with full recompute: the forward runs twice, 8Ψ + 16·L·h·s.",
            "full recompute 时每 token 的硬件 FLOPs:forward 跑两遍,8Ψ + 16·L·h·s。",
            "Narayanan et al. 2021 Eq. 3 (per token); DESIGN §4 (8ND)", order=("params", "layers", "hidden", "seq")),
    formula("train_flops", 6 * Psi * D, "FLOPs", "Training compute: 6·Ψ·D.", "训练总算力:6·Ψ·D。",
            "lesson §trillion-design (6ND = 1.2e25)"),
    formula("train_time_s", TRAIN_TIME, "s",
            "Training time: 6·Ψ·D / (GPUs × peak × MFU).", "训练时长:6·Ψ·D /(GPU 数 × 峰值 × MFU)。",
            "lesson §trillion-design (≈ 43 days)", steps=("train_flops",)),
    formula("train_days", TRAIN_DAYS, "days",
            "Training time in days: 6·Ψ·D / (GPUs × peak × MFU) / 86400.",
            "训练天数:6·Ψ·D /(GPU 数 × 峰值 × MFU)/ 86400。", "lesson §trillion-design (≈ 43 days)",
            steps=("train_flops",)),
    formula("tokens_per_s_at_mfu", mfu * G * peak / (6 * Psi), "tokens/s",
            "Tokens per second a cluster trains at a given MFU: MFU × GPUs × peak / 6Ψ.",
            "给定 MFU 时每秒训练的 token 数:MFU × GPU 数 × 峰值 / 6Ψ。",
            LESSON_MFU + "; 8B on 32 H100 at 40% ≈ 260K tokens/s"),
    formula("mfu_from_tokens", T * 6 * Psi / (G * peak), "fraction",
            "MFU from measured throughput: tokens/s × 6Ψ / (GPUs × peak).",
            "由实测吞吐算 MFU:tokens/s × 6Ψ /(GPU 数 × 峰值)。", LESSON_MFU,
            order=("tokens_per_s", "params", "gpus", "peak_flops")),
    formula("mfu_attn_from_tokens", T * (6 * Psi + 12 * L * h * s) / (G * peak), "fraction",
            "MFU counting attention FLOPs: tokens/s × (6Ψ + 12·L·h·s) / (GPUs × peak).",
            "算上 attention FLOPs 的 MFU:tokens/s × (6Ψ + 12·L·h·s) /(GPU 数 × 峰值)。", K22_EQ7,
            order=("tokens_per_s", "params", "layers", "hidden", "seq", "gpus", "peak_flops")),
    formula("achieved_flops_per_gpu", T * 6 * Psi / G, "FLOP/s",
            "Model FLOP/s each GPU achieves: tokens/s × 6Ψ / GPUs.",
            "每卡实际达到的 model FLOP/s:tokens/s × 6Ψ / GPU 数。", LESSON_MFU,
            order=("tokens_per_s", "params", "gpus")),
    formula("mfu_from_achieved", F / peak, "fraction", "MFU from achieved FLOP/s per GPU: achieved / peak.",
            "由每卡实际 FLOP/s 算 MFU:实际 / 峰值。", "Llama 3 paper Table 4 (400 / 989 ≈ 41%)"),
    formula("tokens_per_s_from_achieved", F * G / (6 * Psi), "tokens/s",
            "Throughput from achieved FLOP/s per GPU: achieved × GPUs / 6Ψ.",
            "由每卡实际 FLOP/s 算吞吐:实际 × GPU 数 / 6Ψ。", LESSON_MFU, order=("achieved_flops", "params", "gpus")),
    formula("step_time_s", B * s / T, "s", "Time per step: global batch × seq / tokens per second.",
            "每个 step 的时间:global batch × seq / 每秒 token 数。", "definition (tokens per step ÷ tokens/s)",
            order=("global_batch", "seq", "tokens_per_s")),
    formula("tokens_per_s_from_step", B * s / S["step_time"], "tokens/s",
            "Throughput from step time: global batch × seq / step time.",
            "由 step 时间算吞吐:global batch × seq / step 时间。", "definition (tokens per step ÷ step time)",
            order=("global_batch", "seq", "step_time")),
)
