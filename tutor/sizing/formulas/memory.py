"""Model state: weights, gradients and optimizer state per GPU (lesson §"memory"; DESIGN §4).

Mixed-precision Adam holds 16 bytes per parameter: bf16 weight 2 + bf16 gradient 2 + fp32
master weight, Adam m and v 12 (Rajbhandari et al. 2020, "ZeRO", §3.1, K = 12). Megatron's
distributed optimizer keeps fp32 gradients (4 bytes) and shards the 12 bytes of optimizer state
over the N ranks that hold identical weights, N = DP × CP (Megatron-LM
docs/user-guide/features/dist_optimizer.md).
"""

from __future__ import annotations

from sympy import ceiling

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S
from tutor.text import T

Psi, N = S["params"], S["n_shard"]
tp, pp, dp, cp, ep = S["tp"], S["pp"], S["dp"], S["cp"], S["ep"]
ZERO = "Rajbhandari et al. 2020 (ZeRO), Figure 1 and §5 (K = 12)"
# MoE: non-expert weights split by TP·PP, expert weights also by EP (expert TP = TP).
MOE_HELD = (Psi - S["expert_params"]) / (tp * pp) + S["expert_params"] / (tp * pp * ep)
DEEPSEEK_MOMENTS = ('DeepSeek-V3 (arXiv 2412.19437) §3.3.3 "Low-Precision Optimizer States" (BF16 AdamW moments, '
                    'fp32 master weights and gradients)')
BF16_EN = "BF16 AdamW moments (DeepSeek-V3, arXiv 2412.19437 §3.3.3)"
BF16_ZH = "DeepSeek-V3，arXiv 2412.19437 §3.3.3"
DISTOPT = "Megatron-LM docs/user-guide/features/dist_optimizer.md (bf16 params, fp32 grads); lesson §memory"

FORMULAS = (
    formula("model_state_bytes", 16 * Psi, "B",
            T("Model state without sharding: 16 bytes per parameter (bf16 weight and gradient, fp32 master, m, v; "
              "the ZeRO paper's accounting, Megatron-LM's estimator counts 18 with fp32 main gradients).",
            "不切分时的 model state：每个参数 16 字节（bf16 weight 和 gradient，fp32 master、m、v；"
            "按 ZeRO 论文的算法，Megatron-LM 的估算器用 fp32 main gradient 算 18 字节）。"),
            "lesson §memory; " + ZERO),
    formula("params_per_gpu", Psi / (tp * pp), "params",
            T("Parameters one GPU holds: TP and PP split the weights, DP and CP replicate them.",
              "每卡持有的参数：TP 和 PP 切 weight,DP 和 CP 各存一份。"),
            "lesson §worked-examples; Narayanan et al. 2021 §2", order=("params", "tp", "pp")),
    formula("model_state_per_gpu", 16 * Psi / (tp * pp), "B",
            T("Model state per GPU before sharding over data parallel: 16 bytes × Ψ/(TP·PP).",
              "沿 DP 切分之前每卡的 model state:16 字节 × Ψ/(TP·PP)。"),
            "lesson §worked-examples", steps=("params_per_gpu",), order=("params", "tp", "pp")),
    formula("distopt_bytes", 6 * Psi + 12 * Psi / N, "B",
            T("Distributed optimizer: bf16 weight 2 + fp32 gradient 4 bytes stay, the 12 bytes of optimizer state are "
              "sharded over the N ranks holding the same weights (Ψ is the GPU's own parameters).",
            "Distributed optimizer:bf16 weight 2 字节和 fp32 gradient 4 字节留在本卡，12 字节的 optimizer state "
            "沿持有同一份 weight 的 N 张卡切分（Ψ 是本卡持有的参数）。"),
            DISTOPT),
    formula("distopt_bytes_per_gpu", (6 + 12 / (dp * cp)) * Psi / (tp * pp), "B",
            T("Distributed optimizer per GPU: the GPU's Ψ/(TP·PP) parameters, optimizer state sharded over DP × CP "
              "(the CP ranks hold the same weights).",
            "每卡的 distributed optimizer 显存：本卡 Ψ/(TP·PP) 个参数，optimizer state 沿 DP × CP 切分"
            "（CP 的卡持有同一份 weight）。"),
            DISTOPT + "; lesson §worked-examples (70B: 4.4B × (6 + 12/4) ≈ 39 GB)",
            steps=("params_per_gpu",), order=("params", "tp", "pp", "dp", "cp")),
    formula("zero1_bytes", 4 * Psi + 12 * Psi / N, "B",
            T("ZeRO stage 1: optimizer state (12 bytes) sharded over N; fp16 weights and gradients (2 + 2) replicated.",
              "ZeRO stage 1:optimizer state（12 字节）沿 N 切分；fp16 weight 和 gradient（2 + 2）每卡一份。"), ZERO),
    formula("zero2_bytes", 2 * Psi + 14 * Psi / N, "B",
            T("ZeRO stage 2: gradients sharded too; only the fp16 weights (2 bytes) stay replicated (the paper's "
              "2 + 14/N; DeepSpeed's estimator counts a 32-bit gradient copy too, 2 + 18/N).",
            "ZeRO stage 2：gradient 也切分，只有 fp16 weight（2 字节）每卡一份（论文的 2 + 14/N；"
            "DeepSpeed 的估算器另算一份 32 位 gradient，2 + 18/N）。"), ZERO),
    formula("zero3_bytes", 16 * Psi / N, "B",
            T("ZeRO stage 3: weights, gradients and optimizer state all sharded over N.",
              "ZeRO stage 3:weight、gradient、optimizer state 全部沿 N 切分。"), ZERO),
    formula("weight_bytes", 2 * Psi, "B", T("bf16 weights: 2 bytes per parameter.", "bf16 weight：每个参数 2 字节。"), ZERO),
    formula("weight_bytes_sharded", 2 * Psi / N, "B", T("bf16 weights sharded over N (ZeRO-3).",
            "bf16 weight 沿 N 切分（ZeRO-3）。"), ZERO),
    formula("grad_bytes", 2 * Psi, "B", T("bf16 gradients: 2 bytes per parameter.", "bf16 gradient：每个参数 2 字节。"), ZERO),
    formula("grad_bytes_fp32", 4 * Psi, "B",
            T("fp32 gradients (Megatron's distributed optimizer): 4 bytes per parameter.",
              "fp32 gradient(Megatron distributed optimizer):每个参数 4 字节。"), DISTOPT),
    formula("grad_bytes_sharded", 2 * Psi / N, "B", T("bf16 gradients sharded over N (ZeRO-2 and -3).",
            "bf16 gradient 沿 N 切分（ZeRO-2、ZeRO-3）。"), ZERO),
    formula("optimizer_bytes", 12 * Psi, "B", T("fp32 master weight, Adam m and v: 12 bytes per parameter.",
            "fp32 master weight、Adam m 和 v：每个参数 12 字节。"), ZERO),
    formula("optimizer_bytes_sharded", 12 * Psi / N, "B", T("Optimizer state sharded over N ranks.",
            "optimizer state 沿 N 张卡切分。"), ZERO),
    # `--moments bf16` (off by default): DeepSeek-V3 tracks AdamW's m and v in BF16 and keeps the fp32 master
    # weights and gradients, 4 + 2 + 2 = 8 bytes of optimizer state a parameter instead of 12. Modelled with the
    # distributed optimizer only (DeepSeek-V3's ZeRO-1 over DP).
    formula("optimizer_bytes_sharded_bf16_moments", 8 * Psi / N, "B",
            T(f"Optimizer state with {BF16_EN}, sharded over N ranks: fp32 master 4 + bf16 m 2 + bf16 v 2 = 8 bytes "
              "per parameter.",
            f"AdamW 的 m、v 用 BF16（{BF16_ZH}），optimizer state 沿 N 张卡切分：fp32 master 4 + bf16 m 2 + "
            "bf16 v 2 = 每个参数 8 字节。"), DEEPSEEK_MOMENTS),
    formula("distopt_bytes_bf16_moments", 6 * Psi + 8 * Psi / N, "B",
            T(f"Distributed optimizer with {BF16_EN}: bf16 weight 2 + fp32 gradient 4 bytes stay, the 8 bytes of "
              "optimizer state (fp32 master, bf16 m and v) are sharded over N ranks.",
            f"Distributed optimizer + BF16 的 AdamW m、v（{BF16_ZH}）：bf16 weight 2 + fp32 gradient 4 字节留在本卡，"
            "8 字节的 optimizer state（fp32 master、bf16 m 和 v）沿 N 张卡切分。"), DEEPSEEK_MOMENTS + "; " + DISTOPT),
    formula("distopt_bytes_per_gpu_bf16_moments", (6 + 8 / (dp * cp)) * Psi / (tp * pp), "B",
            T(f"Distributed optimizer per GPU with {BF16_EN}: (6 + 8/(DP·CP)) bytes × Ψ/(TP·PP).",
              f"每卡 distributed optimizer + BF16 的 m、v（{BF16_ZH}）：(6 + 8/(DP·CP)) 字节 × Ψ/(TP·PP)。"),
            DEEPSEEK_MOMENTS + "; " + DISTOPT, steps=("params_per_gpu",), order=("params", "tp", "pp", "dp", "cp")),
    formula("moe_distopt_bytes_per_gpu_bf16_moments", 6 * MOE_HELD + 8 * Psi / (tp * pp * dp * cp), "B",
            T(f"MoE with the distributed optimizer and {BF16_EN}: 6 bytes per held parameter and 8·Ψ/(TP·PP·DP·CP) of "
              "optimizer state.",
            f"MoE + distributed optimizer + BF16 的 m、v（{BF16_ZH}）：每个持有的参数 6 字节，optimizer state "
            "8·Ψ/(TP·PP·DP·CP)。"),
            DEEPSEEK_MOMENTS + "; " + DISTOPT, order=("params", "expert_params", "tp", "pp", "dp", "cp", "ep")),
    formula("moe_stage_distopt_bytes_bf16_moments", 6 * S["stage_params"] + 8 * S["stage_shard_params"] / N, "B",
            T(f"MoE with the distributed optimizer and {BF16_EN} on the most loaded stage: 6 bytes per held parameter, "
              "8 bytes of optimizer state per stage parameter (every expert counted) sharded over N = DP·CP.",
            f"MoE + distributed optimizer + BF16 的 m、v（{BF16_ZH}），最满的 stage：每个持有的参数 6 字节，本 stage "
            "每个参数（expert 全部计入）8 字节 optimizer state，沿 N = DP·CP 切分。"),
            DEEPSEEK_MOMENTS + "; " + DISTOPT, order=("stage_params", "stage_shard_params", "n_shard")),
    formula("min_gpus_model_state", ceiling(16 * Psi / S["gpu_mem"]), "count",
            T("Fewest GPUs whose memory holds the model state at 16 bytes per parameter (before activations).",
              "只放 16 字节/参数的 model state 至少要几张卡（还没算 activation）。"),
            "lesson §recipe and §trillion-design (16 TB ÷ 80 GB = 200)"),
    formula("gpus_per_replica", tp * pp, "count",
            T("GPUs that together hold one copy of the weights: TP × PP.",
              "合起来存一份 weight 的卡数：TP × PP。"), "lesson §worked-examples (405B: 8 × 16 = 128)"),
    formula("moe_dense_params_per_gpu", (Psi - S["expert_params"]) / (tp * pp), "params",
            T("MoE: the non-expert parameters (attention, embeddings, norms, routers) one GPU holds.",
              "MoE：每卡持有的非 expert 参数（attention、embedding、norm、router）。"),
            "Megatron-LM megatron/core/transformer/moe/README.md (MoE Parallel Folding)",
            order=("params", "expert_params", "tp", "pp")),
    formula("moe_expert_params_per_gpu", S["expert_params"] / (tp * pp * ep), "params",
            T("MoE: expert parameters one GPU holds; EP splits the experts, expert TP defaults to TP.",
              "MoE：每卡持有的 expert 参数；EP 切分 expert,expert TP 默认等于 TP。"),
            "Megatron-LM moe/README.md (--expert-tensor-parallel-size defaults to TP)",
            order=("expert_params", "tp", "pp", "ep")),
    formula("moe_params_per_gpu", MOE_HELD, "params",
            T("MoE: parameters one GPU holds, non-expert weights split by TP·PP and expert weights by TP·PP·EP.",
              "MoE：每卡持有的参数，非 expert 部分按 TP·PP 切，expert 部分按 TP·PP·EP 切。"),
            "Megatron-LM moe/README.md (MoE Parallel Folding)", order=("params", "expert_params", "tp", "pp", "ep")),
    formula("moe_distopt_bytes_per_gpu",
            6 * MOE_HELD + 12 * Psi / (tp * pp * dp * cp),
            "B",
            T("MoE with the distributed optimizer: 6 bytes per held parameter; expert optimizer state is sharded over "
              "DP·CP/EP ranks holding the same experts, which again gives 12·Ψ/(TP·PP·DP·CP) in all.",
            "MoE + distributed optimizer：每个持有的参数 6 字节；expert 的 optimizer state 沿持有相同 expert 的 "
            "DP·CP/EP 张卡切分，合起来仍是 12·Ψ/(TP·PP·DP·CP)。"),
            DISTOPT + "; Megatron-LM moe/README.md (expert data parallel = DP·CP/EP)",
            order=("params", "expert_params", "tp", "pp", "dp", "cp", "ep")),
    formula("moe_stage_distopt_bytes", 6 * S["stage_params"] + 12 * S["stage_shard_params"] / N, "B",
            T("MoE with the distributed optimizer on the most loaded stage: 6 bytes per held parameter, and the "
              "optimizer state of the stage's parameters (every expert counted) sharded over N = DP·CP ranks.",
            "MoE + distributed optimizer，最满的 stage：每个持有的参数 6 字节，本 stage 参数（expert 全部计入）"
            "的 optimizer state 沿 N = DP·CP 张卡切分。"),
            DISTOPT + "; Megatron-LM moe/README.md (expert data parallel = DP·CP/EP)",
            order=("stage_params", "stage_shard_params", "n_shard")),
    formula("expert_data_parallel", dp * cp / ep, "count",
            T("MoE folding: ranks holding the same experts = DP × CP / EP (EP reuses the DP × CP ranks, "
              "so it does not multiply the GPU count).",
            "MoE folding：持有同一组 expert 的卡数 = DP × CP / EP（EP 复用 DP × CP 的卡，不额外乘卡数）。"),
            "Megatron-LM moe/README.md (MoE Parallel Folding, arXiv 2504.14960); lesson §ep-folding"),
)
