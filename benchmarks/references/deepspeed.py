"""DeepSpeed's ZeRO-2 model-state estimator, re-implemented (not copied) from microsoft/DeepSpeed
deepspeed/runtime/zero/stage_1_and_2.py, `estimate_zero2_model_states_mem_needs`, at commit
022f223697296f182f1b677d83d41a4abb062b0b: without CPU offload each GPU holds the 16-bit
parameters whole (2 bytes each) and 18 bytes per parameter sharded over all GPUs (16-bit and
32-bit gradients, 32-bit parameters, Adam's two moments: 2 + 4 + 4 + 8, per its comment).
DeepSpeed knows no TP or PP, so it is compared at TP = PP = 1.
"""

from __future__ import annotations

COMMIT = "022f223697296f182f1b677d83d41a4abb062b0b"


def zero2_gpu_bytes(total_params: float, gpus: int) -> float:
    return 2 * total_params + int(18 * total_params / gpus)
