"""Checker for cuda-graphs: the same outputs as the eager loop, and a faster call.

Both Runners are built on the same model in this process; outputs are compared on fresh
inputs (a graph that ignores its input fails here), and the time of a call is measured with
CUDA events in alternating rounds.
"""

import torch

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare
from tutor.labs.rank.perfcheck import cuda_speedup


def main() -> None:
    ctx = lab.init()
    if ctx.device.type != "cuda":
        raise SystemExit("cuda-graphs needs a CUDA GPU")
    yours, shipped, params = lab.load_program(), lab.load_shipped(), lab.check_params()
    model = shipped.make_model(ctx.device)
    example = torch.randn(shipped.BATCH, shipped.WIDTH, device=ctx.device)
    mine, theirs = yours.Runner(model, example), shipped.Runner(model, example)
    for attempt in range(3):
        x = torch.randn(shipped.BATCH, shipped.WIDTH, device=ctx.device)
        passed, detail = compare(mine(x), theirs(x), rtol=1e-4, atol=1e-5)
        if not passed:
            break
    ctx.check("same outputs as the eager loop", passed, f"input {attempt + 1}: {detail}")
    x = torch.randn(shipped.BATCH, shipped.WIDTH, device=ctx.device)
    speedup, ratios, mine_s, theirs_s = cuda_speedup(lambda: theirs(x), lambda: mine(x), iters=50)
    needed = float(params.get("min_speedup", 1.5))
    ctx.check("faster than the eager loop", speedup >= needed,
              f"{mine_s * 1e6:.0f} µs vs {theirs_s * 1e6:.0f} µs per call: {speedup:.2f}× (needs ≥ {needed:g}×; "
              f"per round {', '.join(f'{ratio:.2f}×' for ratio in ratios)})", speedup=speedup)
    ctx.report(speedup=speedup, call_s=mine_s, shipped_call_s=theirs_s,
               device_name=torch.cuda.get_device_name(ctx.device))
    ctx.finish()


if __name__ == "__main__":
    main()
