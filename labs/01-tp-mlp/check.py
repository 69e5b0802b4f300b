"""Checker for tp-mlp: the learner's ParallelBlock against a one-piece block of its own.

Run by `tutor lab check tp-mlp` on every rank. The reference block is defined here, not taken
from the learner's file, and the weights' slices for each rank come from the learner's own
`load_from`, applied a second time to a block that holds the reference *gradients* as its
weights: so the expected gradient slices are sliced exactly as the weights were.
"""

from __future__ import annotations

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
