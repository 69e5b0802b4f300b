"""Micro-batches and the pipeline bubble (Narayanan et al. 2021 §2.2; lesson §worked-examples).

m = B/(d·b) micro-batches per pipeline and step (N21 §3.1). The lesson's bubble is the idle time
relative to the ideal compute time, (p−1)/m, divided by v for the interleaved schedule
(N21 §2.2.1–2.2.2). As a share of wall-clock step time it is (p−1)/(v·m + p − 1).
"""

from __future__ import annotations

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S
from tutor.text import T

p, m, v = S["pp"], S["microbatches"], S["vpp"]
N21 = "Narayanan et al. 2021"

FORMULAS = (
    formula("microbatches", S["global_batch"] / (S["dp"] * S["micro_batch"]), "count",
            T("Micro-batches per pipeline per step: m = global batch / (DP × micro-batch).",
              "每条 pipeline 每步的 micro-batch 数：m = global batch /(DP × micro-batch)。"),
            N21 + " §3.1; lesson §worked-examples (512 / 2 = 256)", order=("global_batch", "dp", "micro_batch")),
    formula("bubble_fraction", (p - 1) / m, "fraction",
            T("Pipeline bubble of 1F1B relative to the ideal step: (p−1)/m.",
              "1F1B 的 pipeline bubble（相对理想时间）：(p−1)/m。"),
            N21 + " §2.2.1; lesson §worked-examples (3/256 ≈ 1.2%)", order=("pp", "microbatches")),
    formula("bubble_fraction_interleaved", (p - 1) / (v * m), "fraction",
            T("Interleaved 1F1B with v chunks per GPU: the bubble shrinks v times, (p−1)/(v·m).",
              "interleaved 1F1B，每卡 v 段：bubble 缩小 v 倍，(p−1)/(v·m)。"),
            N21 + " §2.2.2; lesson §trillion-design (v = 4 ≈ 6%)", order=("pp", "microbatches", "vpp")),
    formula("bubble_wallclock", (p - 1) / (v * m + p - 1), "fraction",
            T("Bubble as a share of wall-clock step time: (p−1)/(v·m + p − 1).",
              "bubble 占实际 step 时间的比例：(p−1)/(v·m + p − 1)。"),
            N21 + " §2.2 (idle (p−1) slots over v·m + p − 1)", order=("pp", "microbatches", "vpp")),
    formula("dp_from_gpus", S["gpus"] / (S["tp"] * p * S["cp"]), "count",
            T("Data-parallel size left for the GPUs: GPUs / (TP × PP × CP); EP does not multiply the GPU count.",
              "剩下给 DP 的卡：GPU 数 /(TP × PP × CP);EP 不额外乘卡数。"),
            "lesson §recipe (total GPUs = TP × PP × CP × DP)", order=("gpus", "tp", "pp", "cp")),
)
