"""Checker for tp-mlp: the learner's ParallelBlock against a one-piece block of its own.

Run by `tutor lab check tp-mlp` on every rank. The reference block is defined here, not taken
from the learner's file, and the weights' slices for each rank come from the learner's own
`load_from`, applied a second time to a block that holds the reference *gradients* as its
weights: so the expected gradient slices are sliced exactly as the weights were.

Equal outputs do not show that the block is split: a rank can keep a full copy of the
reference out of the module tree, compute everything itself and all-reduce zeros of the right
size (findings, tp-mlp cheat1). So the check also counts what each rank holds: the block's own
parameters must be Megatron's 1/N slices (column-parallel weights and biases, row-parallel
weights; row-parallel biases and LayerNorms whole), and the tensors alive in the rank's process
(the garbage collector's view), besides the checker's own, at most those parameters and their
gradients.
"""

from __future__ import annotations

import gc

import torch
import torch.nn as nn
import torch.nn.functional as F

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare


class ReferenceBlock(nn.Module):
    def __init__(self, hidden: int, heads: int, ffn: int):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.qkv, self.proj = nn.Linear(hidden, 3 * hidden), nn.Linear(hidden, hidden)
        self.fc1, self.fc2 = nn.Linear(hidden, ffn), nn.Linear(ffn, hidden)

    def forward(self, x):
        batch, seq, hidden = x.shape
        h = self.ln1(x)
        q, k, v = self.qkv(h).view(batch, seq, 3, self.heads, hidden // self.heads).permute(2, 0, 3, 1, 4)
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(batch, seq, hidden)
        x = x + self.proj(attended)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def main() -> None:
    ctx = lab.init()
    program = lab.load_program()
    hidden, heads, ffn, batch, seq = program.HIDDEN, program.HEADS, program.FFN, program.BATCH, program.SEQ
    torch.manual_seed(1234)
    reference = ReferenceBlock(hidden, heads, ffn)
    x = torch.randn(batch, seq, hidden, requires_grad=True)
    target = torch.randn(batch, seq, hidden)
    expected = reference(x)
    (expected * target).sum().backward()

    block = program.ParallelBlock(ctx.rank, ctx.world_size)
    block.load_from(reference)
    x_parallel = x.detach().clone().requires_grad_()
    start = ctx.recorder.mark()
    out = block(x_parallel)
    middle = ctx.recorder.mark()
    (out * target).sum().backward()
    forward, backward = ctx.recorder.since(start, until=middle), ctx.recorder.since(middle)

    passed, detail = compare(out, expected)
    ctx.check("forward output equals one process", passed, detail)
    passed, detail = compare(x_parallel.grad, x.grad)
    ctx.check("input gradient equals one process", passed, detail)
    ctx.check(*_weight_gradients(program, ctx, reference, block))
    ctx.check(*_collective_count(forward, backward))
    ctx.check(*_held_per_rank(reference, block, ctx.world_size, [x, target, expected, x_parallel, out]))

    volume = sum(entry["bytes"] // 4 for entry in forward + backward if entry["op"] == "all_reduce")
    t = ctx.world_size
    ctx.measure("TP traffic per layer per step (values sent per rank, ring all-reduce)",
                volume * 2 * (t - 1) / t, "tp_values_per_layer",
                {"seq": seq, "micro_batch": batch, "hidden": hidden, "tp": t}, rtol=1e-6)
    ctx.finish()


def _weight_gradients(program, ctx, reference, block) -> tuple[str, bool, str]:
    grads_as_weights = ReferenceBlock(program.HIDDEN, program.HEADS, program.FFN)
    with torch.no_grad():
        for target, source in zip(grads_as_weights.parameters(), reference.parameters()):
            target.copy_(source.grad)
    expected = program.ParallelBlock(ctx.rank, ctx.world_size)
    expected.load_from(grads_as_weights)
    for (name, param), want in zip(block.named_parameters(), expected.parameters()):
        if param.grad is None:
            return "weight gradients equal one process", False, f"{name} got no gradient"
        passed, detail = compare(param.grad, want)
        if not passed:
            return "weight gradients equal one process", False, f"{name}: {detail}"
    return "weight gradients equal one process", True, "every weight and bias slice matches"


def _sharded_numel(reference: ReferenceBlock, parts: int) -> int:
    """Parameters one rank holds in Megatron's layout: qkv and fc1 (column-parallel) split with
    their biases, proj and fc2 (row-parallel) split by input with their biases whole, LayerNorms whole."""
    split = sum(p.numel() for p in (*reference.qkv.parameters(), *reference.fc1.parameters(),
                                    reference.proj.weight, reference.fc2.weight))
    whole = sum(p.numel() for p in (reference.proj.bias, reference.fc2.bias, *reference.ln1.parameters(),
                                    *reference.ln2.parameters()))
    return split // parts + whole


def _held_per_rank(reference, block, parts: int, mine: list) -> tuple[str, bool, str]:
    name = "each rank holds its slice, not the block"
    numel = sum(p.numel() for p in block.parameters())
    expected = _sharded_numel(reference, parts)
    if numel != expected:
        return name, False, (f"the block's parameters hold {numel:,} values on this rank; Megatron's layout at "
                             f"{parts} ranks holds {expected:,} (the one-process block has "
                             f"{sum(p.numel() for p in reference.parameters()):,})")
    gc.collect()
    exclude = {t.untyped_storage().data_ptr() for item in (*reference.parameters(), *mine)
               for t in (item, getattr(item, "grad", None)) if isinstance(t, torch.Tensor)}
    held = {}
    for item in gc.get_objects():
        if isinstance(item, torch.Tensor) and item.untyped_storage().data_ptr() not in exclude:
            held[item.untyped_storage().data_ptr()] = item.untyped_storage().nbytes()
    own = sum(t.untyped_storage().nbytes() for p in block.parameters() for t in (p, p.grad) if t is not None)
    allowed = int(own * 1.1) + (64 << 10)  # a little room for a learner's small buffers
    total = sum(held.values())
    return name, total <= allowed, (f"{numel:,} parameter values on this rank (1/{parts} of the split layers); "
                                    f"tensors held in this rank's process besides the checker's: {total:,} B, "
                                    f"parameters and gradients {own:,} B"
                                    + ("" if total <= allowed else ": something keeps more of the block than its slice"))


def _collective_count(forward: list[dict], backward: list[dict]) -> tuple[str, bool, str]:
    count = lambda entries: sum(entry["op"] == "all_reduce" for entry in entries)  # noqa: E731
    others = sorted({entry["op"] for entry in forward + backward if entry["op"] != "all_reduce"})
    passed = count(forward) == 2 and count(backward) == 2 and not others
    detail = (f"forward {count(forward)} all-reduce(s), backward {count(backward)}; Megatron's layout needs "
              f"2 and 2 per layer (one per attention and one per MLP, each way)")
    if others:
        detail += f"; also {', '.join(others)}, which this layout does not need"
    return "collectives per layer per step", passed, detail


if __name__ == "__main__":
    main()
