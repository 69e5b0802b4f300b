"""A decoding-style loop of small layers: the GPU mostly waits for the CPU. GPU only.

Run it alone:   torchrun --nproc-per-node 1 train.py
In the tutor:   tutor lab run cuda-graphs      (needs a CUDA GPU; on a CPU it is skipped)
                tutor lab check cuda-graphs    your Runner against this one, same process

`Runner(model, example)(x)` applies a small model STEPS times to a batch of BATCH vectors, as
a decoder does one token at a time. Every layer is a kernel of a few microseconds; launching
it from Python costs about as much. The program times a call with CUDA events and records a
few calls with torch.profiler (a chrome trace under the run folder's traces/; open it in
https://ui.perfetto.dev).

What to observe: the time per call against the sum of its kernels' own times, and, in the
trace, the device timeline between kernels. Make the call faster with the same results; the
check builds your Runner and this one on the same model and compares outputs and time.
"""

from __future__ import annotations

import torch
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank.perf import StepProfiler, time_cuda

WIDTH, LAYERS, BATCH, STEPS = 512, 8, 16, 8


def make_model(device: torch.device) -> nn.Module:
    torch.manual_seed(0)
    layers = [module for _ in range(LAYERS) for module in (nn.Linear(WIDTH, WIDTH), nn.LayerNorm(WIDTH), nn.GELU())]
    return nn.Sequential(*layers).to(device).eval()


class Runner:
    """Applies `model` STEPS times to a batch, replayed from a CUDA graph.

    The loop is captured once (after a warm-up on a side stream, as the CUDA Graphs docs ask)
    into static input and output buffers; a call copies its input in, replays every kernel
    with one launch, and returns a copy of the output.
    """

    def __init__(self, model: nn.Module, example: torch.Tensor):
        self.model = model
        self.static_input = example.clone()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side), torch.no_grad():
            for _ in range(3):
                self._loop(self.static_input)
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph), torch.no_grad():
            self.static_output = self._loop(self.static_input)

    def _loop(self, x: torch.Tensor) -> torch.Tensor:
        for _ in range(STEPS):
            x = self.model(x)
        return x

    @torch.no_grad()
    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        self.static_input.copy_(x)
        self.graph.replay()
        return self.static_output.clone()


def main() -> None:
    ctx = lab.init()
    if ctx.device.type != "cuda":
        raise SystemExit("cuda-graphs needs a CUDA GPU (tutor lab run cuda-graphs --backend nccl)")
    model = make_model(ctx.device)
    x = torch.randn(BATCH, WIDTH, device=ctx.device)
    runner = Runner(model, x)
    seconds = time_cuda(lambda: runner(x))
    profiler = StepProfiler(ctx.trace_dir / "rank0.trace.json", ctx.device, warmup=1, active=3)
    profiler.start()
    for step in ctx.steps(4):
        runner(x)
        torch.cuda.synchronize()
        if step < 3:
            profiler.step()
    profiler.stop()
    ctx.log(f"one call ({STEPS} passes of {LAYERS} layers): {seconds * 1e6:.0f} µs")
    ctx.report(call_s=seconds, kernels_per_call=STEPS * LAYERS * 3, device_name=torch.cuda.get_device_name(ctx.device),
               profiled_steps=[1, 2, 3])
    ctx.finish()


if __name__ == "__main__":
    main()
