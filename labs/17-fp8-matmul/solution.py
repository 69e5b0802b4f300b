"""The two GEMMs of a linear layer's training step, in bf16; how fast can FP8 make them? GPU only.

Run it alone:   torchrun --nproc-per-node 1 train.py
In the tutor:   tutor lab run fp8-matmul      (needs a CUDA GPU with FP8 tensor cores: H100, H200, B200)
                tutor lab check fp8-matmul    your functions against these, same process

`forward(x, w)` computes Y = X·Wᵀ and `input_grad(grad_y, w)` computes dX = dY·W, both on
M×K×N = 8192³. The program times each with CUDA events and reports TFLOP/s against the
GPU's published dense BF16 and FP8 peaks (tutor.sizing's catalog), and the error against an
fp32 reference.

What to observe: TFLOP/s of each GEMM against the BF16 and the FP8 peak. Then write both with
FP8 inputs — E4M3 where precision matters (activations and weights), E5M2 where range matters
(the gradient) — each tensor scaled into its format's range; the check needs both GEMMs
faster, with an error FP8 can deliver.
"""

from __future__ import annotations

import torch

from tutor.labs import rank as lab
from tutor.labs.rank.perf import time_cuda

M = K = N = 8192


E4M3, E5M2 = torch.float8_e4m3fn, torch.float8_e5m2


def to_fp8(t: torch.Tensor, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
    """`t` scaled so that its largest magnitude lands on the format's largest value (448 for E4M3,
    57,344 for E5M2: FP8 Formats for Deep Learning, Table 1), cast; and the scale that undoes it.
    Per-tensor current scaling (Transformer Engine's Float8CurrentScaling)."""
    amax = t.abs().amax().float().clamp(min=1e-12)
    scale = torch.finfo(dtype).max / amax
    return (t * scale).to(dtype), scale.reciprocal()


def forward(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """Y = X·Wᵀ with activations and weights in E4M3 (precision), accumulated in fp32, out in bf16."""
    x8, x_scale = to_fp8(x, E4M3)
    w8, w_scale = to_fp8(w, E4M3)
    # cuBLASLt's FP8 GEMM wants its second operand column-major: w8.t() is exactly that view.
    return torch._scaled_mm(x8, w8.t(), scale_a=x_scale, scale_b=w_scale, out_dtype=torch.bfloat16)


def input_grad(grad_y: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """dX = dY·W with the gradient in E5M2 (range: gradients span many orders of magnitude) and the
    weight in E4M3, as Transformer Engine's HYBRID format does."""
    g8, g_scale = to_fp8(grad_y, E5M2)
    wt8, w_scale = to_fp8(w.t().contiguous(), E4M3)  # Wᵀ row-major, so W is its column-major view
    return torch._scaled_mm(g8, wt8.t(), scale_a=g_scale, scale_b=w_scale, out_dtype=torch.bfloat16)


def relative_error(actual: torch.Tensor, expected: torch.Tensor) -> float:
    """‖actual − expected‖ / ‖expected‖ (Frobenius), in fp32."""
    return ((actual.float() - expected).norm() / expected.norm()).item()


def inputs(device: torch.device) -> dict[str, torch.Tensor]:
    generator = torch.Generator(device=device).manual_seed(0)
    x = torch.randn(M, K, device=device, generator=generator, dtype=torch.bfloat16)
    w = (torch.randn(N, K, device=device, generator=generator) / K ** 0.5).to(torch.bfloat16)
    grad_y = (torch.randn(M, N, device=device, generator=generator) * 1e-3).to(torch.bfloat16)  # small, as gradients are
    return {"x": x, "w": w, "grad_y": grad_y}


def main() -> None:
    ctx = lab.init()
    if ctx.device.type != "cuda":
        raise SystemExit("fp8-matmul needs a CUDA GPU (tutor lab run fp8-matmul --backend nccl)")
    data = inputs(ctx.device)
    x, w, grad_y = data["x"], data["w"], data["grad_y"]
    flops = 2 * M * K * N
    report = {"device_name": torch.cuda.get_device_name(ctx.device), "gemm_flops": flops}
    gemms = (("forward", lambda: forward(x, w), x.float() @ w.float().t()),
             ("input_grad", lambda: input_grad(grad_y, w), grad_y.float() @ w.float()))
    for _, (name, call, expected) in zip(ctx.steps(len(gemms)), gemms):
        seconds = time_cuda(call, iters=20, warmup=5)
        error = relative_error(call(), expected)
        report.update({f"{name}_s": seconds, f"{name}_tflops": flops / seconds / 1e12, f"{name}_error": error})
        ctx.log(f"{name}: {seconds * 1e3:.3f} ms, {flops / seconds / 1e12:.0f} TFLOP/s, relative error {error:.2e}")
    ctx.report(**report)
    ctx.finish()


if __name__ == "__main__":
    main()
