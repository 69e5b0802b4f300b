"""Checker for sequence-parallel: the block equals one process, forward and backward, while the
LayerNorm sees only the rank's sequence slice and the region is entered and left by an
all-gather and a reduce-scatter along the sequence, never an all-reduce.

Weights, input and the output gradient are drawn per run. The LayerNorm is the checker's own
module, handed to `SequenceParallelMLP`, which records the shape of every input it is given
(a block that normalises with its own function instead never calls it, and fails). The
collectives of the forward and of the backward are read from the recorder, each window on its
own. Values sent per rank are counted as ring algorithms send them (all-gather: the input
N − 1 times; reduce-scatter: (N − 1)/N of the input; all-reduce: twice that) and compared
with the engine's `tp_values_per_layer`, which counts a transformer layer's two tensor-parallel
blocks (attention and MLP), so twice this block; sequence parallelism moves the same values
as plain tensor parallelism's two all-reduces (Korthikanti et al. 2022, §4.2.2). The
LayerNorm's input per rank, counted in 16-bit bytes as the engine does, is compared with
`activation_per_layer_full_sp` (2sbh/t: the layer input a rank keeps).
"""

from __future__ import annotations

import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

ELEMENT_BYTES = {"float32": 4, "float64": 8, "bfloat16": 2, "float16": 2, "int64": 8, "int32": 4}


class ObservedNorm(nn.LayerNorm):
    """The block's LayerNorm (no affine parameters), recording the shape of each input."""

    def __init__(self, hidden: int):
        super().__init__(hidden, elementwise_affine=False)
        self.seen: list[list[int]] = []

    def forward(self, x):
        self.seen.append(list(x.shape))
        return super().forward(x)


def values_sent(call: dict, n: int) -> float:
    """Values this rank sends for one recorded collective, as a ring algorithm sends them."""
    numel = call["bytes"] / ELEMENT_BYTES.get(call.get("dtype"), 4)
    op = call["op"]
    if op in ("all_gather", "all_gather_into_tensor", "all_gather_single"):
        return numel * (n - 1)
    if op in ("reduce_scatter", "reduce_scatter_tensor", "reduce_scatter_single"):
        return numel * (n - 1) / n
    if op == "all_reduce":
        return 2 * numel * (n - 1) / n
    return numel


def counts(calls: list[dict]) -> dict[str, int]:
    kinds = {"all_gather": "all-gather", "all_gather_into_tensor": "all-gather", "all_gather_single": "all-gather",
             "reduce_scatter": "reduce-scatter", "reduce_scatter_tensor": "reduce-scatter",
             "reduce_scatter_single": "reduce-scatter"}
    found: dict[str, int] = {}
    for call in calls:
        kind = kinds.get(call["op"], call["op"])
        found[kind] = found.get(kind, 0) + 1
    return found


def run(ctx, program, shipped, params: dict) -> None:
    """Every check of `program` (the shipped module gives the lab's sizes)."""
    seq, batch, hidden, ffn = shipped.SEQ, shipped.BATCH, shipped.HIDDEN, shipped.FFN
    t, r = ctx.world_size, ctx.rank
    seed = torch.tensor([int.from_bytes(os.urandom(3), "little") if r == 0 else 0])
    dist.broadcast(seed, 0)
    generator = torch.Generator().manual_seed(int(seed.item()))
    def draw(*shape):  # on the CPU's generator, then to the rank's device (NCCL: its GPU)
        return torch.randn(*shape, generator=generator, device="cpu").to(ctx.device)

    w1, b1, w2 = draw(ffn, hidden) / hidden ** 0.5, draw(ffn), draw(hidden, ffn) / ffn ** 0.5
    x, grad_out = draw(seq, batch, hidden), draw(seq, batch, hidden)

    whole = [tensor.clone().requires_grad_() for tensor in (x, w1, b1, w2)]
    expected = whole[0] + F.linear(F.gelu(F.linear(F.layer_norm(whole[0], (hidden,)), whole[1], whole[2])), whole[3])
    expected.backward(grad_out)

    rows, cols = slice(r * seq // t, (r + 1) * seq // t), slice(r * ffn // t, (r + 1) * ffn // t)
    norm = ObservedNorm(hidden)
    shards = [nn.Parameter(w1[cols].clone()), nn.Parameter(b1[cols].clone()), nn.Parameter(w2[:, cols].clone())]
    block = program.SequenceParallelMLP(norm, *shards)
    mine = x[rows].clone().requires_grad_()

    mark = ctx.recorder.mark()
    out = block(mine)
    forward_calls = ctx.recorder.since(mark)
    mark = ctx.recorder.mark()
    out.backward(grad_out[rows])
    backward_calls = ctx.recorder.since(mark)

    ok, detail = compare(out.detach(), expected.detach()[rows], rtol=1e-5, atol=1e-5)
    ctx.check("output slice equals the whole block in one process", ok, detail)
    pairs = [("input slice", mine.grad, whole[0].grad[rows]), ("W1 shard", shards[0].grad, whole[1].grad[cols]),
             ("b1 shard", shards[1].grad, whole[2].grad[cols]), ("W2 shard", shards[2].grad, whole[3].grad[:, cols])]
    ok, detail = True, "the input slice's and every shard's gradient match"
    for name, got, want in pairs:
        ok, detail = compare(got, want, rtol=1e-4, atol=1e-5) if got is not None else (False, "no gradient")
        if not ok:
            detail = f"{name}: {detail}"
            break
    ctx.check("gradients equal the whole block in one process", ok, detail)

    slice_rows = seq // t
    norm_ok = bool(norm.seen) and all(shape[0] == slice_rows for shape in norm.seen)
    ctx.check("the LayerNorm runs on this rank's sequence slice only", norm_ok,
              f"the LayerNorm handed over saw inputs of shape {norm.seen or 'none (never called)'}; "
              f"this rank's slice is [{slice_rows}, {batch}, {hidden}] of the [{seq}, {batch}, {hidden}] sequence")

    want = {"all-gather": 1, "reduce-scatter": 1}
    got_forward, got_backward = counts(forward_calls), counts(backward_calls)
    ctx.check("all-gather and reduce-scatter along the sequence, no all-reduce",
              got_forward == want and got_backward == want,
              f"forward: {got_forward or 'none'}; backward: {got_backward or 'none'}; sequence parallelism makes "
              f"one all-gather and one reduce-scatter each way")

    sent = sum(values_sent(call, t) for call in forward_calls + backward_calls)
    ctx.measure("values each rank sends for the block, forward and backward, × 2 (the engine's layer has two "
                "such blocks)", 2 * sent, "tp_values_per_layer",
                {"seq": seq, "micro_batch": batch, "hidden": hidden, "tp": t}, rtol=1e-6, unit="values")
    normed = max((shape[0] * shape[1] * shape[2] for shape in norm.seen), default=0)
    ctx.measure("LayerNorm input each rank holds (16-bit bytes, the engine's unit)", 2 * normed,
                "activation_per_layer_full_sp", {"seq": seq, "micro_batch": batch, "hidden": hidden, "tp": t},
                rtol=1e-6, unit="B")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), lab.load_shipped(), lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
