"""Pipeline parallelism: the 1F1B schedule, over send and recv.

Run it alone:   torchrun --nproc-per-node 4 train.py      (2 to 4 ranks, one stage each)
In the tutor:   tutor lab run pp-1f1b --world-size 4, then tutor lab check pp-1f1b

The model's layers are cut into one stage per rank. A batch is cut into m micro-batches; a
stage receives each micro-batch's activations from the stage before, runs its layers, and
sends the result on; backward runs the same way in reverse, with gradients. Which pass of
which micro-batch a stage runs next is its schedule: a list of ("F", i) and ("B", i).

Each pass also sleeps to a fixed duration (KERNEL_S), standing in for a GPU kernel: on a
laptop the ranks share a few CPU cores, and fixed pass times make the schedule's own idle
time measurable instead of the CPU's contention.

What to observe: per stage, the loss (last stage), the most micro-batches whose activations
the stage held at once, and the measured bubble, the stage's idle time relative to its busy
time (Narayanan et al. 2021, §2.2).
"""

from __future__ import annotations

import time

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab

HIDDEN, LAYERS_PER_STAGE, MICRO_BATCH, MICROBATCHES = 32, 2, 4, 8
KERNEL_S = {"F": 0.020, "B": 0.040}  # backward costs about twice the forward


def synchronize() -> None:
    """Wait for this rank's queued GPU compute before reading a clock (a no-op on CPU).

    Only the compute stream: NCCL runs on a stream of its own, and waiting for it here would
    hide the very communication being measured.
    """
    if torch.cuda.is_initialized():
        torch.cuda.current_stream().synchronize()


def schedule(stage: int, stages: int, microbatches: int) -> list[tuple[str, int]]:
    """The order in which this stage runs the forward (F) and backward (B) passes."""
    warmup = min(stages - stage - 1, microbatches)
    ops = [("F", index) for index in range(warmup)]
    forward, backward = warmup, 0
    while forward < microbatches:
        ops += [("F", forward), ("B", backward)]
        forward, backward = forward + 1, backward + 1
    return ops + [("B", index) for index in range(backward, microbatches)]


def build_full_model(stages: int) -> nn.Sequential:
    return nn.Sequential(*[layer for _ in range(stages * LAYERS_PER_STAGE)
                           for layer in (nn.Linear(HIDDEN, HIDDEN), nn.Tanh())])


def stage_layers(full: nn.Sequential, stage: int, stages: int) -> nn.Sequential:
    """This stage's consecutive slice of the full model's layers (sharing their weights)."""
    per_stage = len(full) // stages
    return full[stage * per_stage:(stage + 1) * per_stage]


def _timed(kind: str, work):
    """Run `work`, then sleep to the fixed pass duration; returns (result, seconds busy)."""
    begin = time.perf_counter()
    result = work()
    synchronize()
    remaining = KERNEL_S[kind] - (time.perf_counter() - begin)
    if remaining > 0:
        time.sleep(remaining)
    return result, time.perf_counter() - begin


def run_pipeline(stage: int, stages: int, layers: nn.Module, ops: list[tuple[str, int]],
                 inputs: list[torch.Tensor], targets: list[torch.Tensor]) -> dict:
    """Run one step of `ops` on this stage; returns its loss, peak in-flight count and timing."""
    first, last = stage == 0, stage == stages - 1
    saved_inputs, saved_outputs, sends = {}, {}, []
    loss_total, busy, peak = 0.0, 0.0, 0
    dist.barrier()
    begin = time.perf_counter()
    for kind, index in ops:
        if kind == "F":
            x = inputs[index] if first else _recv(stage - 1)
            x.requires_grad_(not first)
            y, seconds = _timed("F", lambda: layers(x))
            if last:
                y = nn.functional.mse_loss(y, targets[index]) / len(inputs)
                loss_total += y.item()
            else:
                sends.append(dist.isend(y.detach().contiguous(), dst=stage + 1))
            saved_inputs[index], saved_outputs[index] = x, y
            peak = max(peak, len(saved_outputs))
        else:
            output, x = saved_outputs.pop(index), saved_inputs.pop(index)
            grad = None if last else _recv(stage + 1)
            _, seconds = _timed("B", lambda: output.backward(grad))
            if not first:
                sends.append(dist.isend(x.grad.contiguous(), dst=stage - 1))
        busy += seconds
    for work in sends:
        work.wait()
    dist.barrier()
    return {"loss": loss_total, "peak_in_flight": peak, "busy_s": busy, "step_s": time.perf_counter() - begin}


def _recv(source: int) -> torch.Tensor:
    tensor = torch.empty(MICRO_BATCH, HIDDEN)
    dist.recv(tensor, src=source)
    synchronize()  # on GPUs, waiting for the data is idle time, not the next pass's busy time
    return tensor


def main() -> None:
    ctx = lab.init()
    stage, stages = ctx.rank, ctx.world_size
    torch.manual_seed(0)  # the same full model and batch on every rank; each keeps its slice
    layers = stage_layers(build_full_model(stages), stage, stages)
    inputs = [torch.randn(MICRO_BATCH, HIDDEN) for _ in range(MICROBATCHES)]
    targets = [torch.randn(MICRO_BATCH, HIDDEN) for _ in range(MICROBATCHES)]
    ops = schedule(stage, stages, MICROBATCHES)
    ctx.log("schedule:", " ".join(f"{kind}{index}" for kind, index in ops))
    for step in ctx.steps(3):
        layers.zero_grad()
        result = run_pipeline(stage, stages, layers, ops, inputs, targets)
        bubble = (result["step_s"] - result["busy_s"]) / result["busy_s"]
        loss = f"loss {result['loss']:.5f}, " if stage == stages - 1 else ""
        ctx.log(f"step {step}: {loss}peak in flight {result['peak_in_flight']} micro-batches, "
                f"measured bubble {bubble:.3f} (p={stages}, m={MICROBATCHES})")
    ctx.report(peak_in_flight=result["peak_in_flight"], bubble=bubble)
    ctx.finish()


if __name__ == "__main__":
    main()
