"""Measuring a training loop from inside a rank: step times, throughput, a profiler trace.

    meter = Meter(ctx, params=count_params(model), tokens_per_step=batch * seq)
    for step in meter.steps(12):     # heartbeat, step timing and the profiler, one call
        train_step()
    meter.finish()                   # gathers every rank's times; rank 0 reports for the evidence

What it reports (`ctx.report`, then `metrics` of `tutor lab run --json`): the median step time
of the steps the profiler did not touch, per rank and for the job; tokens per step; Ψ; the
machine's measured peak — the best of a few timed n×n×n matmuls at the start (fp32 on CPU,
bf16 on a GPU, where CUDA events time it) — and the device's name, from which the core adds
the published peak (tutor.sizing's catalog) and computes MFU with the engine's formula.
A window of steps is recorded by torch.profiler as a chrome trace per rank under the run's
`traces/` folder (opens in Perfetto); the core summarises it (tutor/labs/trace_summary.py).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import torch
import torch.distributed as dist

CPU_PEAK_N, GPU_PEAK_N = 1024, 8192
PEAK_REPEATS = 3


def synchronize(device: torch.device) -> None:
    """Wait for this rank's queued compute before reading a clock (only the current stream:
    NCCL's own stream must not be waited for, or communication would be hidden)."""
    if device.type == "cuda":
        torch.cuda.current_stream(device).synchronize()


def measure_peak(device: torch.device, n: int | None = None, repeats: int = PEAK_REPEATS) -> dict:
    """FLOP/s of the best of `repeats` timed n×n×n matmuls, after one untimed warm-up."""
    cuda = device.type == "cuda"
    n = n or (GPU_PEAK_N if cuda else CPU_PEAK_N)
    dtype = torch.bfloat16 if cuda else torch.float32
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    a @ b
    times = []
    for _ in range(repeats):
        if cuda:  # CUDA events time the kernel itself, not the launch
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            begin.record()
            a @ b
            end.record()
            end.synchronize()
            times.append(begin.elapsed_time(end) / 1e3)
        else:
            start = time.perf_counter()
            a @ b
            times.append(time.perf_counter() - start)
    flops = 2 * n ** 3 / min(times)
    return {"peak_flops_measured": flops, "peak_matmul": f"{n}x{n}x{n} {str(dtype).replace('torch.', '')}",
            "device_name": torch.cuda.get_device_name(device) if cuda else "cpu"}


def time_cuda(fn, iters: int = 50, warmup: int = 10) -> float:
    """Seconds per call of `fn` on the current CUDA stream: CUDA events around `iters` calls after
    `warmup` untimed ones. The events sit on the stream, so time the GPU spends waiting for the
    host to launch the next kernel counts too (what a launch-bound loop loses)."""
    for _ in range(warmup):
        fn()
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    begin.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return begin.elapsed_time(end) / 1e3 / iters


def measure_copy_bandwidth(device: torch.device, megabytes: int = 1024) -> float:
    """Bytes per second of a large device-to-device copy (each byte read once and written once):
    the memory bandwidth a memory-bound kernel can hope for on this GPU."""
    source = torch.empty(megabytes << 20, dtype=torch.uint8, device=device)
    target = torch.empty_like(source)
    seconds = time_cuda(lambda: target.copy_(source), iters=20, warmup=3)
    return 2 * source.numel() / seconds


def gather_json(value: object) -> list:
    """Every rank's `value` (JSON-able), in rank order.

    Hand-written instead of `dist.all_gather_object`, which needs numpy (not a dependency of
    the labs): the JSON text travels as a byte tensor, padded to the longest rank's.
    """
    payload = torch.tensor(list(json.dumps(value).encode("utf-8")), dtype=torch.uint8)
    device = torch.device("cuda", torch.cuda.current_device()) if dist.get_backend() == "nccl" else torch.device("cpu")
    size = torch.tensor([payload.numel()], device=device)
    sizes = [torch.zeros_like(size) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, size)
    longest = max(int(item.item()) for item in sizes)
    padded = torch.zeros(longest, dtype=torch.uint8, device=device)
    padded[: payload.numel()] = payload.to(device)
    buffers = [torch.zeros_like(padded) for _ in sizes]
    dist.all_gather(buffers, padded)
    return [json.loads(bytes(buffer[: int(n.item())].tolist()).decode("utf-8")) for buffer, n in zip(buffers, sizes)]


def count_params(model: torch.nn.Module) -> int:
    return sum(param.numel() for param in model.parameters())


class StepProfiler:
    """torch.profiler over a window of steps: `warmup` untraced steps, then `active` traced ones.

    The chrome trace goes to `path` when the window closes; `step()` marks a step boundary
    (the trace's `ProfilerStep#N` spans are the steps).
    """

    def __init__(self, path: Path, device: torch.device, warmup: int = 1, active: int = 3, skip: int = 0):
        from torch.profiler import ProfilerActivity, profile, schedule

        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
        self.path = Path(path)
        self.span = skip + warmup + active
        self._profile = profile(activities=activities,
                                schedule=schedule(skip_first=skip, wait=0, warmup=warmup, active=active, repeat=1),
                                on_trace_ready=lambda prof: prof.export_chrome_trace(str(self.path)))
        self._open = False

    def start(self) -> None:
        self._profile.start()
        self._open = True

    def step(self) -> None:
        if self._open:
            self._profile.step()

    def stop(self) -> None:
        if self._open:
            self._profile.stop()
            self._open = False


class Meter:
    """Step timing, tokens/s inputs and a profiled window for one rank of a training loop."""

    def __init__(self, ctx, *, params: int, tokens_per_step: int, profile: bool = True,
                 profile_from: int = 2, profile_steps: int = 3):
        self.ctx = ctx
        self.params = int(params)
        self.tokens_per_step = int(tokens_per_step)
        self.profile = profile
        self.profile_from, self.profile_steps = profile_from, profile_steps
        self.peak = measure_peak(ctx.device)
        self.step_times: list[float] = []
        self.profiled: set[int] = set()
        self.trace_file: Path | None = None

    def steps(self, count: int) -> Iterator[int]:
        """Step numbers; each is a heartbeat, a timed step, and (in the window) a profiled one."""
        profiler = None
        if self.profile and count > self.profile_from + self.profile_steps and self.profile_from >= 1:
            self.trace_file = self.ctx.trace_dir / f"rank{self.ctx.rank}.trace.json"
            # The profiler's first step (its warm-up) is not traced; neither it nor the traced
            # steps count for the step time, since the profiler slows every op down.
            profiler = StepProfiler(self.trace_file, self.ctx.device, warmup=1, active=self.profile_steps)
            self.profiled = set(range(self.profile_from - 1, self.profile_from + self.profile_steps))
        try:
            last = None
            for step in self.ctx.steps(count, tokens_per_step=self.tokens_per_step):
                synchronize(self.ctx.device)
                # The profiler moves on before the clock is read: exporting a trace is no step's time.
                if profiler is not None and step == self.profile_from - 1:
                    profiler.start()
                elif profiler is not None:
                    profiler.step()
                now = time.perf_counter()
                if last is not None:
                    self.step_times.append(now - last)
                last = now
                yield step
            synchronize(self.ctx.device)
            self.step_times.append(time.perf_counter() - last)
        finally:
            if profiler is not None:
                profiler.stop()

    def timed_step_times(self) -> list[float]:
        """Step times outside the profiled window, without the first step (its warm-up)."""
        kept = [t for index, t in enumerate(self.step_times) if index not in self.profiled and index > 0]
        return kept or self.step_times[1:] or self.step_times

    def finish(self, **extra: object) -> dict:
        """Gather every rank's numbers (one collective: all ranks must call it); rank 0 reports them."""
        mine = {"rank": self.ctx.rank, "step_time_s": statistics.median(self.timed_step_times()),
                "step_times_s": [round(t, 6) for t in self.step_times], "tokens_per_step": self.tokens_per_step,
                "peak_flops_measured": self.peak["peak_flops_measured"],
                "trace_file": str(self.trace_file) if self.trace_file and self.trace_file.exists() else None}
        gathered = gather_json(mine)
        per_rank = {item["rank"]: item["step_time_s"] for item in gathered}
        # Every rank waits for the slowest at the gradient all-reduce, so the job's step is its slowest rank's.
        report = {
            "step_time_s": max(per_rank.values()),
            "per_rank_step_time_s": per_rank,
            "per_rank_step_times_s": {item["rank"]: item["step_times_s"] for item in gathered},
            "tokens_per_step": sum(item["tokens_per_step"] for item in gathered),
            "params": self.params,
            "peak_flops_measured": statistics.median(item["peak_flops_measured"] for item in gathered),
            "peak_matmul": self.peak["peak_matmul"], "device_name": self.peak["device_name"],
            "profiled_steps": sorted(self.profiled), **extra,
        }
        if self.ctx.rank == 0:
            self.ctx.report(**report)
        return report
