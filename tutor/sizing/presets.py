"""Model presets, each with its source. Real models are counted from their released shapes
(Llama 3 with its 128,256-token vocabulary: 8.03B, 70.55B, 405.85B; GPT-3 174.6B; Mixtral 46.7B /
12.9B active; DeepSeek-V3 671B / 37B active); the lesson's round models (lesson-70b, dense-1t)
keep the count the lesson works with."""

from __future__ import annotations

import difflib

from tutor.sizing.errors import SizingError
from tutor.sizing.specs import Model

_LLAMA3 = ("Llama 3 paper (arXiv 2407.21783) Table 3; released config.json (vocabulary 128,256): "
           "counted 8.03B / 70.55B / 405.85B")

MODELS: dict[str, Model] = {
    "llama3-8b": Model("llama3-8b", None, "llama", layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336,
                       vocab=128256, source=_LLAMA3),
    "llama3-70b": Model("llama3-70b", None, "llama", layers=80, hidden=8192, heads=64, kv_heads=8, ffn=28672,
                        vocab=128256, source=_LLAMA3),
    "llama3-405b": Model("llama3-405b", None, "llama", layers=126, hidden=16384, heads=128, kv_heads=8, ffn=53248,
                         vocab=128256, source=_LLAMA3),
    "gpt3-175b": Model("gpt3-175b", None, "gpt", layers=96, hidden=12288, heads=96, kv_heads=96, ffn=49152,
                       vocab=50257, positions=2048, source="Brown et al. 2020 Table 2.1 (175B, 96 layers, d_model 12288, 96 heads, "
                                           "MLP 4·d_model); GPT-2 BPE vocabulary of 50,257 (Radford et al. 2019); "
                                           "counted from the shape: 174.6B"),
    "mixtral-8x7b": Model("mixtral-8x7b", None, "llama", layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336,
                          vocab=32000, experts=8, top_k=2,
                          source="Jiang et al. 2024 (Mixtral of Experts) Table 1; "
                                 "47B parameters, 13B active per token"),
    "deepseek-v3": Model("deepseek-v3", None, "llama", layers=61, hidden=7168, heads=128, kv_heads=128, ffn=18432,
                         vocab=129280, experts=256, top_k=8, expert_ffn=2048, shared_experts=1, dense_layers=3,
                         q_rank=1536, kv_rank=512, rope_dim=64, nope_dim=128, v_dim=128,
                         source="DeepSeek-V3 technical report (arXiv 2412.19437) §2.1, §4.2 and released config.json: "
                                "61 layers (3 dense), h 7168, MLA, 256 routed + 1 shared experts of width 2048, "
                                "top-8; 671B total, 37B active (multi-token prediction module not counted)"),
    "lesson-70b": Model("lesson-70b", 70e9, None, layers=80, hidden=8192, heads=64, kv_heads=8,
                        source="lesson §worked-examples (Megatron guide: 70B, h 8192, 80 layers); "
                               "heads as Llama 3 70B (Table 3)"),
    "dense-1t": Model("dense-1t", 1e12, "gpt", layers=128, hidden=25600, heads=160, kv_heads=160, ffn=102400,
                      vocab=51200, source="lesson §trillion-design (1T dense); shape of the 1T row of Narayanan et al. "
                                          "2021 Table 1 (128 layers, h 25600, 160 heads, 1008B), "
                                          "vocabulary 51,200 (§5)"),
}


# What a preset's model was trained with, as published: `tutor plan --published` plans under it (and fills the
# sequence and global batch when not given). The DeepSeek-V3 savings are off by default everywhere else: they
# are that run's engineering, not a default of the recipe.
RECIPES: dict[str, dict] = {
    "deepseek-v3": {
        "tp": (1,), "ep": (64,), "sharding": "distopt", "moments": "bf16", "savings": ("norm_up", "fp8"),
        "seq": 4096, "global_batch": 15360,
        "source": "DeepSeek-V3 (arXiv 2412.19437) §3.2 (no TP, 16-way PP, 64-way EP over 8 nodes, ZeRO-1 DP), "
                  "§3.2.3 (RMSNorm and MLA up-projections recomputed), §3.3.3 (BF16 AdamW moments, FP8 activation "
                  "caching), §4.2 (sequence 4K, batch 15,360 after the ramp)"},
}


def recipe(name: str) -> dict:
    """The published training settings of preset `name`; SizingError naming the presets that have one."""
    key = str(name).strip().lower()
    if key not in RECIPES:
        raise SizingError(f"no published recipe recorded for {name!r} (recorded: {', '.join(RECIPES)})")
    return RECIPES[key]


def model_preset(name: str) -> Model:
    """A preset by name (case-insensitive); SizingError naming the presets otherwise."""
    key = str(name).strip().lower()
    if key in MODELS:
        return MODELS[key]
    close = difflib.get_close_matches(key, MODELS, n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise SizingError(f"unknown model preset {name!r} (presets: {', '.join(MODELS)}){hint}")
