"""Bias + GeLU + dropout, against the memory-bound prediction. GPU only.

Run it alone:   torchrun --nproc-per-node 1 train.py
In the tutor:   tutor lab run kernel-fusion      (needs a CUDA GPU; on a CPU it is skipped)
                tutor lab check kernel-fusion    your function against this one, same process

`bias_gelu_dropout(x, bias, p)` is the elementwise tail of a transformer MLP in training. Each
of its operations is memory-bound: it reads its input from HBM and writes its output back, and
does very little arithmetic per byte. The program counts the bytes each version must move,
measures what this GPU's memory can copy per second (and shows the datasheet's figure), and
divides: that is the memory-bound prediction of the call's time. It then times the call
with CUDA events.

What to observe: the measured time per call against the prediction, and how many kernels one
call launches (the trace under the run folder's traces/ shows them; open it in
https://ui.perfetto.dev). Make the call faster; the check compares your function with this
one: the same values where nothing is dropped, the same share dropped, and the time.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from tutor.labs import rank as lab
from tutor.labs.rank.perf import StepProfiler, measure_copy_bandwidth, time_cuda

TOKENS, HIDDEN, DROPOUT = 16384, 8192, 0.1


def bias_gelu_dropout(x: torch.Tensor, bias: torch.Tensor, p: float = DROPOUT) -> torch.Tensor:
    return F.dropout(F.gelu(x + bias), p=p, training=True)


def bytes_three_kernels(elements: int, element_size: int) -> int:
    """HBM traffic of add, GeLU and dropout as three kernels: each reads its input and writes its
    output (the bias is negligible), and dropout also writes a one-byte mask per element."""
    return 3 * 2 * elements * element_size + elements


def bytes_one_kernel(elements: int, element_size: int) -> int:
    """HBM traffic of one fused kernel: read x once, write the result once."""
    return 2 * elements * element_size


def main() -> None:
    ctx = lab.init()
    if ctx.device.type != "cuda":
        raise SystemExit("kernel-fusion needs a CUDA GPU (tutor lab run kernel-fusion --backend nccl)")
    x = torch.randn(TOKENS, HIDDEN, device=ctx.device, dtype=torch.bfloat16)
    bias = torch.randn(HIDDEN, device=ctx.device, dtype=torch.bfloat16)
    bandwidth = measure_copy_bandwidth(ctx.device)
    seconds = time_cuda(lambda: bias_gelu_dropout(x, bias))
    three, one = bytes_three_kernels(x.numel(), x.element_size()), bytes_one_kernel(x.numel(), x.element_size())
    profiler = StepProfiler(ctx.trace_dir / "rank0.trace.json", ctx.device, warmup=1, active=2)
    profiler.start()
    for index in ctx.steps(3):
        bias_gelu_dropout(x, bias)
        torch.cuda.synchronize()
        if index < 2:
            profiler.step()
    profiler.stop()
    ctx.log(f"one call: {seconds * 1e3:.3f} ms; memory-bound prediction at the measured "
            f"{bandwidth / 1e12:.2f} TB/s: three kernels {three / bandwidth * 1e3:.3f} ms, "
            f"one fused kernel {one / bandwidth * 1e3:.3f} ms")
    ctx.report(call_s=seconds, copy_bandwidth_measured=bandwidth, bytes_three_kernels=three, bytes_one_kernel=one,
               predicted_three_kernels_s=three / bandwidth, predicted_one_kernel_s=one / bandwidth,
               achieved_bandwidth=three / seconds, device_name=torch.cuda.get_device_name(ctx.device))
    ctx.finish()


if __name__ == "__main__":
    main()
