"""Checker for kernel-fusion: the same values, the same share dropped, and a faster call.

Both functions run in this process on the same inputs. Dropout is random, so the values are
compared where the learner's result keeps an element (it must equal GeLU(x + bias) / (1 − p)),
the dropped share must be p, and with p = 0 the result must equal GeLU(x + bias) everywhere.
The time is measured with CUDA events in alternating rounds and reported against the
memory-bound prediction for one fused kernel.
"""

import torch
import torch.nn.functional as F

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare
from tutor.labs.rank.perf import measure_copy_bandwidth
from tutor.labs.rank.perfcheck import cuda_speedup


def main() -> None:
    ctx = lab.init()
    if ctx.device.type != "cuda":
        raise SystemExit("kernel-fusion needs a CUDA GPU")
    yours, shipped, params = lab.load_program(), lab.load_shipped(), lab.check_params()
    p = float(getattr(shipped, "DROPOUT", 0.1))
    torch.manual_seed(0)
    x = torch.randn(shipped.TOKENS, shipped.HIDDEN, device=ctx.device, dtype=torch.bfloat16)
    bias = torch.randn(shipped.HIDDEN, device=ctx.device, dtype=torch.bfloat16)
    reference = F.gelu(x.float() + bias.float())

    passed, detail = compare(yours.bias_gelu_dropout(x, bias, 0.0).float(), reference, rtol=2e-2, atol=2e-2)
    ctx.check("without dropout, GeLU(x + bias)", passed, detail)
    out = yours.bias_gelu_dropout(x, bias, p).float()
    nonzero = reference != 0
    kept = (out != 0) & nonzero
    dropped = 1 - kept.sum().item() / nonzero.sum().item()
    ctx.check("the share dropped is p", abs(dropped - p) < 0.01, f"{dropped:.4f} dropped, p = {p}")
    passed, detail = compare(out[kept], (reference / (1 - p))[kept], rtol=2e-2, atol=2e-2)
    ctx.check("kept elements are GeLU(x + bias) / (1 − p)", passed, detail)

    speedup, ratios, mine, theirs = cuda_speedup(lambda: shipped.bias_gelu_dropout(x, bias, p),
                                                 lambda: yours.bias_gelu_dropout(x, bias, p))
    needed = float(params.get("min_speedup", 2.0))
    bandwidth = measure_copy_bandwidth(ctx.device)
    predicted = shipped.bytes_one_kernel(x.numel(), x.element_size()) / bandwidth
    ctx.check("faster than the three kernels", speedup >= needed,
              f"{mine * 1e3:.3f} ms vs {theirs * 1e3:.3f} ms: {speedup:.2f}× (needs ≥ {needed:g}×; per round "
              f"{', '.join(f'{ratio:.2f}×' for ratio in ratios)}); one fused kernel at the measured "
              f"{bandwidth / 1e12:.2f} TB/s would take {predicted * 1e3:.3f} ms", speedup=speedup)
    ctx.report(speedup=speedup, call_s=mine, shipped_call_s=theirs, predicted_one_kernel_s=predicted,
               copy_bandwidth_measured=bandwidth, device_name=torch.cuda.get_device_name(ctx.device))
    ctx.finish()


if __name__ == "__main__":
    main()
