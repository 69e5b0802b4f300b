"""Checkpoints and failures (lesson §trillion-design; facts.md §9).

A checkpoint holds the fp32 master weights and Adam m and v, 12 bytes per parameter, each rank
writing its own shard. Mean time between interruptions is the run's hours over its
interruptions (Llama 3: 466 in 54 days ≈ 2.8 h). The checkpoint interval that minimises lost
work is Young's √(2δM) to first order, and Daly's higher-order estimate.
"""

from __future__ import annotations

from sympy import Add, Mul, Piecewise, Pow, Rational

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S
from tutor.text import T

Psi, delta, M = S["params"], S["ckpt_write_s"], S["mtbf_s"]

def _root(expr):
    # Kept unevaluated so it prints as the papers write it, √(2δM), not √2·√δ·√M.
    return Pow(expr, Rational(1, 2), evaluate=False)


YOUNG = _root(2 * delta * M)
_x = delta / (2 * M)
_daly_series = Add(1, Mul(Rational(1, 3), _root(_x), evaluate=False), Mul(Rational(1, 9), _x, evaluate=False),
                   evaluate=False)
DALY = Piecewise((Add(Mul(YOUNG, _daly_series, evaluate=False), -delta, evaluate=False), delta < 2 * M), (M, True))

FORMULAS = (
    formula("checkpoint_bytes", 12 * Psi, "B",
            T("Checkpoint size: fp32 master weights, Adam m and v, 12 bytes per parameter.",
              "checkpoint 大小：fp32 master weight、Adam m 和 v，每个参数 12 字节。"), "lesson §trillion-design (12 TB for 1T)"),
    formula("checkpoint_bytes_per_gpu", 12 * Psi / S["gpus"], "B",
            T("Checkpoint bytes each GPU writes when every rank writes its own shard.",
              "每个 rank 写自己那片时每卡写的 checkpoint 字节数。"), "lesson §trillion-design (≈ 1.5 GB per GPU)",
            steps=("checkpoint_bytes",)),
    formula("mtbf_hours", S["days"] * 24 / S["interruptions"], "h",
            T("Mean time between interruptions: days × 24 / interruptions (hours).",
              "平均中断间隔：天数 × 24 / 中断次数（小时）。"),
            "Llama 3 paper §3.3.4 (466 interruptions in 54 days ≈ 2.8 h)", order=("days", "interruptions")),
    formula("young_interval_s", YOUNG, "s",
            T("Young's checkpoint interval: √(2·δ·M), δ the write time, M the mean time between failures.",
              "Young 的 checkpoint 间隔：√(2·δ·M),δ 是写一次的时间，M 是平均故障间隔。"),
            "Young 1974, CACM 17(9) (first-order optimum)", order=("ckpt_write_s", "mtbf_s")),
    formula("daly_interval_s", DALY, "s",
            T("Daly's higher-order interval: √(2δM)·(1 + √(δ/2M)/3 + (δ/2M)/9) − δ for δ < 2M, else M.",
              "Daly 的高阶间隔：δ < 2M 时 √(2δM)·(1 + √(δ/2M)/3 + (δ/2M)/9) − δ，否则取 M。"),
            "Daly 2006, FGCS 22(3) (reproduces its examples: M = 24 h, δ = 5 min → 117 min)",
            order=("ckpt_write_s", "mtbf_s")),
)
