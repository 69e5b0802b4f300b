"""Checker for fsdp-zero3: the same training as one process, 1/N of the state held, and the
collectives of ZeRO stage 3 (gather per layer, twice; reduce-scatter the gradients).

The learner's `ShardedMLP` gets only this rank's shards of a model drawn from a seed chosen
for this run, so the full weights can only come from the other ranks. What the learner's
code still holds after a step is every tensor storage Python can reach (the garbage
collector's objects and their gradients) that did not exist before the model was built,
wherever it is kept: a module, a global, a closure. How many layers are whole at once is
counted on the all-gathers' output buffers, each watched until it is freed. Traffic is read
from the recorder.

Why not the profiler's allocator events: gloo frees some buffers on its own threads, where
the profiler records no free, so buffers look alive that are gone (measured on torch 2.13).
"""

from __future__ import annotations

import gc
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

GATHERS = ("all_gather_into_tensor", "all_gather", "all_gather_single")  # the last: torch 2.13's new name
SCATTERS = ("reduce_scatter_tensor", "reduce_scatter", "reduce_scatter_single")
STEPS = 2


def run_seed() -> int:
    """A seed drawn on rank 0 for this run, the same on every rank."""
    seed = torch.tensor([int.from_bytes(os.urandom(4), "little") if dist.get_rank() == 0 else 0], dtype=torch.int64)
    dist.broadcast(seed, 0)
    return int(seed.item())


def flat_layout(weight: torch.Tensor, bias: torch.Tensor, world_size: int) -> torch.Tensor:
    """The layout the brief sets: weight, bias, zeros up to a multiple of N (written here again,
    not taken from the learner's file)."""
    flat = torch.cat([weight.reshape(-1), bias.reshape(-1)])
    padded = -(-flat.numel() // world_size) * world_size
    return F.pad(flat, (0, padded - flat.numel()))


def reference_step(layers: list[nn.Linear], inputs: torch.Tensor, targets: torch.Tensor, world_size: int):
    """Output and flat gradients of one process on the full batch, in fp32 from the bf16 weights."""
    weights = [(layer.weight.detach().float().requires_grad_(), layer.bias.detach().float().requires_grad_())
               for layer in layers]
    x = inputs.float()
    for index, (weight, bias) in enumerate(weights):
        x = F.linear(x, weight, bias)
        if index < len(weights) - 1:
            x = torch.tanh(x)
    F.mse_loss(x, targets.float()).backward()
    return x.detach(), [flat_layout(w.grad, b.grad, world_size) for w, b in weights]


def reachable_storages() -> dict[int, int]:
    """data_ptr -> bytes of every tensor storage reachable from Python, gradients included."""
    gc.collect()
    found: dict[int, int] = {}
    for obj in gc.get_objects():
        if isinstance(obj, torch.Tensor):
            for tensor in (obj, obj.grad if obj.is_leaf else None):
                if tensor is not None and tensor.untyped_storage().nbytes():
                    found[tensor.untyped_storage().data_ptr()] = tensor.untyped_storage().nbytes()
    return found


class GatherWatch:
    """Counts the all-gathers' output buffers alive at once (a full layer each).

    Each output's storage is watched with a weak reference (views of it, such as the weight
    and bias, keep the storage alive, so they count); at every new gather the ones still
    alive are counted.

    A gloo worker thread wakes the waiting caller before it drops its own reference to the
    finished work, and with it the output buffer, so on a loaded machine a buffer the learner
    has let go can still read as alive for a moment (CI saw 3 for the reference solution).
    Before a count above `limit` is believed, the watch gives those threads up to SETTLE_S to
    let go; a buffer the learner's code holds stays alive however long it waits.
    """

    SETTLE_S = 1.0

    def __init__(self, limit: int):
        self.limit = limit
        self.refs: list[int] = []
        self.peak = 0
        self._originals = {}

    def settled(self) -> int:
        """The buffers alive once the gloo threads have had time to let theirs go."""
        deadline = time.monotonic() + self.SETTLE_S
        count = self.alive()
        while count + 1 > self.limit and time.monotonic() < deadline:
            time.sleep(0.002)
            count = self.alive()
        return count

    def alive(self) -> int:
        still = [ref for ref in self.refs if not torch.UntypedStorage._expired(ref)]
        for ref in self.refs:
            if ref not in still:
                torch.UntypedStorage._free_weak_ref(ref)
        self.refs = still
        return len(still)

    def __enter__(self):
        for op in GATHERS:
            original = self._originals[op] = getattr(dist, op)

            def watched(output, *args, _original=original, **kwargs):
                outputs = output if isinstance(output, (list, tuple)) else [output]
                count = self.alive()
                if count + 1 > self.limit >= self.peak:  # once over the limit, the verdict is made: no more waiting
                    count = self.settled()
                self.peak = max(self.peak, count + 1)
                self.refs += [tensor.untyped_storage()._weak_ref() for tensor in outputs[:1]]
                return _original(output, *args, **kwargs)

            setattr(dist, op, watched)
        return self

    def __exit__(self, *exc):
        for op, original in self._originals.items():
            setattr(dist, op, original)


def main() -> None:
    ctx = lab.init()
    program = lab.load_program()
    hidden, layers_count, batch = program.HIDDEN, program.LAYERS, program.BATCH_PER_RANK
    n = ctx.world_size
    torch.manual_seed(run_seed())
    reference = [nn.Linear(hidden, hidden).to(torch.bfloat16) for _ in range(layers_count)]
    inputs = torch.randn(batch * n, hidden, dtype=torch.bfloat16)
    targets = torch.randn(batch * n, hidden, dtype=torch.bfloat16)
    mine = slice(ctx.rank * batch, (ctx.rank + 1) * batch)
    shards = [flat_layout(layer.weight.detach(), layer.bias.detach(), n).chunk(n)[ctx.rank].clone()
              for layer in reference]
    shard_bytes = shards[0].numel() * shards[0].element_size()
    psi = sum(shard.numel() for shard in shards) * n  # Ψ as the shards hold it (padded per layer)
    lr = 0.05  # the checker's own step size

    expected = []  # one process's output, gradients and updated shards, step by step, before any timing
    for step in range(STEPS):
        out, grads = reference_step(reference, inputs, targets, n)
        with torch.no_grad():
            for layer, grad in zip(reference, grads):
                flat = flat_layout(layer.weight, layer.bias, n)
                flat -= (lr * grad).to(flat.dtype)
                layer.weight.copy_(flat[: hidden * hidden].view(hidden, hidden))
                layer.bias.copy_(flat[hidden * hidden: hidden * hidden + hidden])
        after = [flat_layout(layer.weight.detach(), layer.bias.detach(), n).chunk(n)[ctx.rank].float()
                 for layer in reference]
        expected.append((out[mine], [grad.chunk(n)[ctx.rank] for grad in grads], after))

    calls, failures = [], []
    before = reachable_storages()
    with GatherWatch(limit=2) as watch:
        model = program.ShardedMLP([shard.clone() for shard in shards], hidden)
        watch.peak = 0  # counted inside the steps only
        for step, (want_out, want_grads, want_after) in enumerate(expected):
            mark = ctx.recorder.mark()
            model.zero_grad()
            out = model(inputs[mine])
            middle = ctx.recorder.mark()
            loss = F.mse_loss(out.float(), targets[mine].float())
            loss.backward()
            model.sync_grads()
            calls.append((ctx.recorder.since(mark, until=middle), ctx.recorder.since(middle)))
            passed, detail = compare(out.float(), want_out, rtol=0.03, atol=0.03)
            if not passed:
                failures.append(f"step {step + 1}, output: {detail}")
            for index, want in enumerate(want_grads):
                passed, detail = compare(model.grad_shard(index).float(), want, rtol=0.05,
                                         atol=0.03 * want.abs().max().item())
                if not passed:
                    failures.append(f"step {step + 1}, gradient of layer {index}: {detail}")
                    break
            model.step(lr)
            for index, want in enumerate(want_after):
                passed, detail = compare(model.shard(index).float(), want, rtol=1.6e-2, atol=5e-4)
                if not passed:
                    failures.append(f"after step {step + 1}, weights of layer {index}: {detail}")
                    break
            del out, loss
    ctx.check("training equals one process on the full batch", not failures,
              failures[0] if failures else f"outputs, every gradient shard and every weight shard match, {STEPS} steps")

    ctx.check(*collective_structure(calls[-1], layers_count, shard_bytes, n))
    forward, backward = calls[-1]
    sent = sum(call["bytes"] * (n - 1) for call in forward if call["op"] in GATHERS)
    sent += sum(call["bytes"] * (n - 1) / n for call in backward if call["op"] in SCATTERS)
    ctx.measure("bytes each rank sends per step: the forward all-gathers and the gradient reduce-scatters "
                "(ring), as much as DDP's all-reduce", sent, "dp_grad_bytes", {"params": psi, "dp": n}, rtol=1e-6,
                unit="B")

    held = sum(size for ptr, size in reachable_storages().items() if ptr not in before)
    ctx.measure("bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)",
                held, "zero3_bytes", {"params": psi, "n_shard": n}, rtol=0.02, unit="B",
                subtract=("optimizer_bytes_sharded",))
    ctx.check("full parameters live one layer at a time", 1 <= watch.peak <= watch.limit,
              f"up to {watch.peak} gathered layer(s) alive at once in a step, of {layers_count} (ZeRO-3 keeps one, "
              f"two with prefetch)", gathered_at_once=watch.peak)
    ctx.finish()


def collective_structure(step_calls, layers: int, shard_bytes: int, n: int) -> tuple[str, bool, str]:
    forward, backward = step_calls
    count = lambda entries, ops: sum(entry["op"] in ops for entry in entries)  # noqa: E731
    right_size = lambda entries, ops, size: all(entry["bytes"] == size for entry in entries if entry["op"] in ops)  # noqa: E731
    others = sorted({entry["op"] for entry in forward + backward if entry["op"] not in GATHERS + SCATTERS})
    f_gather, b_gather, b_scatter = count(forward, GATHERS), count(backward, GATHERS), count(backward, SCATTERS)
    sizes = (right_size(forward + backward, GATHERS, shard_bytes)
             and right_size(backward, SCATTERS, shard_bytes * n))
    passed = f_gather == layers and b_gather == layers and b_scatter == layers and not others \
        and count(forward, SCATTERS) == 0 and sizes
    detail = (f"forward: {f_gather} all-gather(s); backward: {b_gather} all-gather(s) and {b_scatter} "
              f"reduce-scatter(s); ZeRO-3 with {layers} layers needs {layers}, {layers} and {layers}, each "
              f"all-gather of one shard ({shard_bytes:,} B) and each reduce-scatter of one layer's gradient")
    if others:
        detail += f"; also {', '.join(others)}, which ZeRO-3 does not need"
    if not sizes:
        detail += "; some were not one layer's shard or gradient in size"
    return "parameters gathered per layer, forward and backward; gradients reduce-scattered", passed, detail


if __name__ == "__main__":
    main()
