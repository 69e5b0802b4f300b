"""Pipeline parallelism with virtual stages: the interleaved 1F1B schedule.

Run it alone:   torchrun --nproc-per-node 2 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run pp-interleaved, then tutor lab check pp-interleaved

The model's layers are cut into p·v chunks (virtual stages), v per rank. Which rank and
which of its chunks run virtual stage k is the placement; a micro-batch's activations go
from virtual stage k to k + 1 (over send/recv when the next stage lives on another rank,
in memory when on the same one), and its gradients come back the same way. A rank's
schedule is the order in which it runs the forward (F) and backward (B) pass of each of its
chunks for each micro-batch: a list of (kind, chunk, micro-batch).

Each pass of a chunk sleeps to a fixed duration (KERNEL_S), a stand-in for a GPU kernel, so
that on a laptop the schedule's own idle time is what is measured.

What to observe: per rank, the most chunk activations held at once and the measured bubble,
idle time over busy time, against (p − 1)/m for one stage per rank and (p − 1)/(v·m) with v
virtual stages interleaved (Narayanan et al. 2021, "Efficient Large-Scale Language Model
Training on GPU Clusters Using Megatron-LM", §2.2.2).
"""

from __future__ import annotations

import time

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab

HIDDEN, LAYERS_PER_CHUNK, CHUNKS, MICRO_BATCH, MICROBATCHES = 32, 1, 2, 4, 8
KERNEL_S = {"F": 0.020, "B": 0.040}  # one chunk's pass; backward costs about twice the forward


def placement(rank: int, chunk: int, ranks: int, chunks: int) -> int:
    """The virtual stage that `chunk` of `rank` runs: round-robin, so that stage k + 1 is on
    the next rank and every rank holds every p-th slice of the model."""
    return chunk * ranks + rank


def schedule(rank: int, ranks: int, chunks: int, microbatches: int) -> list[tuple[str, int, int]]:
    """Interleaved 1F1B (Megatron-LM's `forward_backward_pipelining_with_interleaving`).

    Passes go in groups of p micro-batches per chunk: the k-th forward of this rank runs
    chunk (k mod p·v) // p on micro-batch (k // p·v)·p + k mod p; backwards go through the
    chunks in reverse. A warm-up of 2(p − rank − 1) + (v − 1)·p forwards fills the pipeline
    (every chunk must have started before the first backward can come back), then one
    forward and one backward alternate, and a cool-down finishes the backwards.
    """
    if microbatches % ranks:
        raise ValueError(f"interleaved 1F1B needs the micro-batches ({microbatches}) to be a multiple of p ({ranks})")
    total = microbatches * chunks
    group = ranks * chunks

    def forward(k: int) -> tuple[str, int, int]:
        return "F", (k % group) // ranks, (k // group) * ranks + k % ranks

    def backward(k: int) -> tuple[str, int, int]:
        return "B", chunks - 1 - (k % group) // ranks, (k // group) * ranks + k % ranks

    warmup = min(2 * (ranks - rank - 1) + (chunks - 1) * ranks, total)
    ops = [forward(k) for k in range(warmup)]
    for k in range(total - warmup):
        ops += [forward(warmup + k), backward(k)]
    return ops + [backward(k) for k in range(total - warmup, total)]


def synchronize() -> None:
    """Wait for this rank's queued GPU compute before reading a clock (a no-op on CPU)."""
    if torch.cuda.is_initialized():
        torch.cuda.current_stream().synchronize()


def build_full_model(stages: int) -> nn.Sequential:
    return nn.Sequential(*[layer for _ in range(stages * LAYERS_PER_CHUNK)
                           for layer in (nn.Linear(HIDDEN, HIDDEN), nn.Tanh())])


def stage_layers(full: nn.Sequential, stage: int) -> nn.Sequential:
    """Virtual stage `stage`'s consecutive slice of the full model (sharing its weights)."""
    per_stage = 2 * LAYERS_PER_CHUNK
    return full[stage * per_stage:(stage + 1) * per_stage]


def _timed(kind: str, work):
    begin = time.perf_counter()
    result = work()
    synchronize()
    remaining = KERNEL_S[kind] - (time.perf_counter() - begin)
    if remaining > 0:
        time.sleep(remaining)
    return result, time.perf_counter() - begin


def run_pipeline(rank: int, ranks: int, chunks: list[nn.Module], stages_of: list[int],
                 ops: list[tuple[str, int, int]], inputs: list[torch.Tensor], targets: list[torch.Tensor]) -> dict:
    """Run one step of `ops` on this rank; `stages_of[c]` is the virtual stage chunk c runs and
    `owners[k]` (built from every rank's placement) the rank that runs stage k."""
    owners = _owners(ranks, len(chunks))
    last_stage = ranks * len(chunks) - 1
    m = len(inputs)
    saved, sends, local = {}, [], {}
    loss_total, busy, held, peak = 0.0, 0.0, 0, 0
    dist.barrier()
    begin = time.perf_counter()
    for kind, chunk, index in ops:
        stage = stages_of[chunk]
        if kind == "F":
            x = inputs[index] if stage == 0 else _take(local, owners, rank, stage - 1, index, m, "F")
            x.requires_grad_(stage != 0)
            y, seconds = _timed("F", lambda: chunks[chunk](x))
            if stage == last_stage:
                y = nn.functional.mse_loss(y, targets[index]) / m
                loss_total += y.item()
            else:
                sends += _give(local, owners, rank, stage + 1, index, m, "F", y.detach())
            saved[chunk, index] = (x, y)
            held += 1
            peak = max(peak, held)
        else:
            x, y = saved.pop((chunk, index))
            grad = None if stage == last_stage else _take(local, owners, rank, stage + 1, index, m, "B")
            _, seconds = _timed("B", lambda: y.backward(grad))
            held -= 1
            if stage != 0:
                sends += _give(local, owners, rank, stage - 1, index, m, "B", x.grad)
        busy += seconds
    for work in sends:
        work.wait()
    dist.barrier()
    return {"loss": loss_total, "peak_in_flight": peak, "busy_s": busy, "step_s": time.perf_counter() - begin}


def _owners(ranks: int, chunks: int) -> list[int]:
    owners = [-1] * (ranks * chunks)
    for other in range(ranks):
        for chunk in range(chunks):
            owners[placement(other, chunk, ranks, chunks)] = other
    return owners


def _tag(kind: str, stage: int, index: int, m: int) -> int:
    """A tag per (direction, receiving stage, micro-batch): messages between two ranks are
    matched by tag, not by the order they were posted in."""
    return 2 * (stage * m + index) + (kind == "B")


def _give(local: dict, owners: list[int], rank: int, stage: int, index: int, m: int, kind: str, tensor):
    if owners[stage] == rank:
        local[kind, stage, index] = tensor.detach().clone()
        return []
    return [dist.isend(tensor.contiguous(), dst=owners[stage], tag=_tag(kind, stage, index, m))]


def _take(local: dict, owners: list[int], rank: int, source_stage: int, index: int, m: int, kind: str):
    """The activation (F) or gradient (B) that `source_stage` sent for micro-batch `index`."""
    here = source_stage + 1 if kind == "F" else source_stage - 1
    if owners[source_stage] == rank:
        return local.pop((kind, here, index))
    tensor = torch.empty(MICRO_BATCH, HIDDEN)
    dist.recv(tensor, src=owners[source_stage], tag=_tag(kind, here, index, m))
    synchronize()
    return tensor


def main() -> None:
    ctx = lab.init()
    rank, ranks = ctx.rank, ctx.world_size
    torch.manual_seed(0)  # the same full model and batch on every rank; each keeps its chunks
    full = build_full_model(ranks * CHUNKS)
    stages_of = [placement(rank, chunk, ranks, CHUNKS) for chunk in range(CHUNKS)]
    chunks = [stage_layers(full, stage) for stage in stages_of]
    inputs = [torch.randn(MICRO_BATCH, HIDDEN) for _ in range(MICROBATCHES)]
    targets = [torch.randn(MICRO_BATCH, HIDDEN) for _ in range(MICROBATCHES)]
    ops = schedule(rank, ranks, CHUNKS, MICROBATCHES)
    ctx.log(f"virtual stages {stages_of}; schedule:", " ".join(f"{k}{c}.{i}" for k, c, i in ops))
    for step in ctx.steps(3):
        full.zero_grad()
        result = run_pipeline(rank, ranks, chunks, stages_of, ops, inputs, targets)
        bubble = (result["step_s"] - result["busy_s"]) / result["busy_s"]
        ctx.log(f"step {step}: peak in flight {result['peak_in_flight']} chunk activations, measured bubble "
                f"{bubble:.3f} (p={ranks}, v={CHUNKS}, m={MICROBATCHES}: (p−1)/m = {(ranks - 1) / MICROBATCHES:.3f}, "
                f"(p−1)/(v·m) = {(ranks - 1) / (CHUNKS * MICROBATCHES):.3f})")
    ctx.report(peak_in_flight=result["peak_in_flight"], bubble=bubble)
    ctx.finish()


if __name__ == "__main__":
    main()
