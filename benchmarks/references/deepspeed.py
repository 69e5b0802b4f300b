"""DeepSpeed's ZeRO-2 model-state estimator, re-implemented (not copied) from microsoft/DeepSpeed
deepspeed/runtime/zero/stage_1_and_2.py, `estimate_zero2_model_states_mem_needs`, at commit
022f223697296f182f1b677d83d41a4abb062b0b: without CPU offload each GPU holds the 16-bit
parameters whole (2 bytes each) and 18 bytes per parameter sharded over all GPUs (16-bit and
32-bit gradients, 32-bit parameters, Adam's two moments: 2 + 4 + 4 + 8, per its comment).
DeepSpeed knows no TP or PP, so it is compared at TP = PP = 1.

ZeRO-3, re-implemented from deepspeed/runtime/zero/stage3.py, `estimate_zero3_model_states_mem_needs`,
at commit 0003660dc804f11976ecbc725585d43774952fab (the version read for this suite): without any
offload each GPU holds 18 bytes per parameter sharded over all GPUs, plus the largest layer gathered
whole, 4 bytes per parameter of it (its 16-bit weights and gradients while it computes). Its
"layer" is one module's own parameters (`model_to_params`): for a transformer the embedding table
or the widest linear layer.
"""

from __future__ import annotations

COMMIT = "022f223697296f182f1b677d83d41a4abb062b0b"
ZERO3_COMMIT = "0003660dc804f11976ecbc725585d43774952fab"


def zero2_gpu_bytes(total_params: float, gpus: int) -> float:
    return 2 * total_params + int(18 * total_params / gpus)


def zero3_gpu_bytes(total_params: float, largest_layer_params: float, gpus: int) -> float:
    """Per-GPU bytes of ZeRO-3 model states with nothing offloaded (cpu_offload=False)."""
    return 4 * largest_layer_params + int(18 * total_params / gpus)
