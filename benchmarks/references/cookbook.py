"""The EleutherAI cookbook's training-memory calculator, re-implemented (not copied) from
EleutherAI/cookbook calc/calc_transformer_mem.py, `calc_mem`, at commit
c2af7dbe3940708f82ad4d5906644779b848435c, for the parts compared at TP = PP = 1 (where its
per-GPU split applies to all of the model state).

What it models, read from that code, with its defaults (mixed precision, 2-byte parameters,
4-byte gradients, Adam's 12 bytes): parameters 2 B each, divided by all GPUs at ZeRO-3;
gradients 4 B each, divided by all GPUs from ZeRO-2; optimizer state 12 B each, divided by all
GPUs from ZeRO-1; communication buffers from ZeRO-1 on more than one GPU, the all-gather bucket
(5e8 elements × 2 B), and at ZeRO-3 the live parameters (1e9 × 2 B). Activations (Korthikanti
Table 2 per layer, all layers, TP = 1): s·b·h·L·(34 + 5·a·s/h) without checkpointing, and
s·b·h·L·34 with its `--checkpoint-activations` (the row without the s×s attention scores).
"""

from __future__ import annotations

COMMIT = "c2af7dbe3940708f82ad4d5906644779b848435c"
ALLGATHER_BUCKET = 5e8
ZERO3_LIVE_PARAMS = 1e9


def model_state_bytes(total_params: float, gpus: int, zero: int) -> float:
    """Weights + gradients + optimizer state + communication buffers per GPU, TP = PP = 1."""
    weights = 2 * total_params / (gpus if zero == 3 else 1)
    grads = 4 * total_params / (gpus if zero >= 2 else 1)
    optimizer = 12 * total_params / (gpus if zero >= 1 else 1)
    buffers = 0.0
    if zero >= 1 and gpus > 1:
        buffers += ALLGATHER_BUCKET * 2
    if zero == 3 and gpus > 1:
        buffers += ZERO3_LIVE_PARAMS * 2
    return weights + grads + optimizer + buffers


def activation_bytes(seq: int, micro_batch: int, hidden: int, layers: int, heads: int,
                     checkpoint: bool) -> float:
    per_token_layer = 34 if checkpoint else 34 + 5 * heads * seq / hidden
    return seq * micro_batch * hidden * layers * per_token_layer
