"""Checker for fp8-matmul: FP8 inputs in the right formats, an FP8-sized error, both GEMMs faster.

The formats are read from the calls themselves: a dispatch mode records the dtypes of the
operands of every `aten._scaled_mm` the learner's functions make. Errors are against an fp32
reference; the times come from CUDA events in alternating rounds against the bf16 functions.
"""

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from tutor.labs import rank as lab
from tutor.labs.rank.perfcheck import cuda_speedup


class ScaledMatmuls(TorchDispatchMode):
    """Records the operand dtypes of each FP8 GEMM (aten._scaled_mm) made under it."""

    def __init__(self):
        super().__init__()
        self.operands: list[tuple[str, str]] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.overloadpacket is torch.ops.aten._scaled_mm:
            self.operands.append((str(args[0].dtype).replace("torch.", ""), str(args[1].dtype).replace("torch.", "")))
        return func(*args, **(kwargs or {}))


def main() -> None:
    ctx = lab.init()
    if ctx.device.type != "cuda":
        raise SystemExit("fp8-matmul needs a CUDA GPU")
    yours, shipped, params = lab.load_program(), lab.load_shipped(), lab.check_params()
    data = shipped.inputs(ctx.device)
    x, w, grad_y = data["x"], data["w"], data["grad_y"]
    gemms = {"forward": ((x, w), x.float() @ w.float().t(), "float8_e4m3fn", "float8_e4m3fn"),
             "input_grad": ((grad_y, w), grad_y.float() @ w.float(), "float8_e5m2", "float8_e4m3fn")}
    needed = float(params.get("min_speedup", 1.2))
    report = {"device_name": torch.cuda.get_device_name(ctx.device)}
    flops = 2 * shipped.M * shipped.K * shipped.N
    for name, (operands, expected, format_a, format_b) in gemms.items():
        mine, theirs = getattr(yours, name), getattr(shipped, name)
        with ScaledMatmuls() as seen:
            result = mine(*operands)
        ctx.check(f"{name}: FP8 operands {format_a} × {format_b}", seen.operands == [(format_a, format_b)],
                  f"FP8 GEMMs seen: {seen.operands or 'none'}")
        error, limit = shipped.relative_error(result, expected), float(params.get(f"{name}_max_error", 0.1))
        ctx.check(f"{name}: error within FP8's", error <= limit, f"relative error {error:.3g} (at most {limit:g}; "
                  f"bf16 gives {shipped.relative_error(theirs(*operands), expected):.2g})")
        speedup, ratios, mine_s, theirs_s = cuda_speedup(lambda: theirs(*operands), lambda: mine(*operands))
        ctx.check(f"{name}: faster than bf16", speedup >= needed,
                  f"{flops / mine_s / 1e12:.0f} TFLOP/s vs {flops / theirs_s / 1e12:.0f} in bf16: {speedup:.2f}× "
                  f"(needs ≥ {needed:g}×; per round {', '.join(f'{ratio:.2f}×' for ratio in ratios)})")
        report.update({f"{name}_tflops": flops / mine_s / 1e12, f"{name}_bf16_tflops": flops / theirs_s / 1e12,
                       f"{name}_speedup": speedup, f"{name}_error": error})
    ctx.report(**report)
    ctx.finish()


if __name__ == "__main__":
    main()
