"""Tensor parallelism: one transformer block split over ranks, the Megatron-LM way.

Run it alone:   torchrun --nproc-per-node 4 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run tp-mlp --world-size 4, then tutor lab check tp-mlp

Every rank holds a slice of each weight. The first linear layer of a pair is split by its
output features (column-parallel): from the full input, each rank computes some of the
attention heads, or some columns of the MLP's hidden layer. The second layer of the pair is
split by its input features (row-parallel): each rank multiplies the slice it has and holds
a partial result. Two operators mark where the tensor-parallel region begins and ends
(Shoeybi et al. 2019, "Megatron-LM", §3 and Figure 3).

What to observe: the program builds the same block in one piece, gives both the same batch,
and prints how far the parallel block's output and gradients are from the one-piece block's,
and which collectives each rank made per step. When the block is right, every difference is
at rounding level.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from tutor.labs import rank as lab

HIDDEN, HEADS, FFN = 64, 8, 256
BATCH, SEQ = 2, 16


class CopyToTensorParallel(torch.autograd.Function):
    """Entering the tensor-parallel region: every rank works on the same full input."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone(memory_format=torch.contiguous_format)
        dist.all_reduce(grad, group=ctx.group)
        return grad, None


class ReduceFromTensorParallel(torch.autograd.Function):
    """Leaving the tensor-parallel region: every rank continues with the full output."""

    @staticmethod
    def forward(ctx, x, group):
        x = x.clone(memory_format=torch.contiguous_format)
        dist.all_reduce(x, group=group)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class ColumnParallelLinear(nn.Module):
    """y_i = x·W_iᵀ + b_i for this rank's rows i of the weight (a slice of the output features)."""

    def __init__(self, in_features: int, out_features: int, world_size: int, group=None):
        super().__init__()
        self.group = group
        self.weight = nn.Parameter(torch.empty(out_features // world_size, in_features))
        self.bias = nn.Parameter(torch.empty(out_features // world_size))

    def forward(self, x):
        return F.linear(CopyToTensorParallel.apply(x, self.group), self.weight, self.bias)


class RowParallelLinear(nn.Module):
    """y = Σ_i x_i·W_iᵀ + b: this rank has the columns i of the weight (a slice of the input features)."""

    def __init__(self, in_features: int, out_features: int, world_size: int, group=None):
        super().__init__()
        self.group = group
        self.weight = nn.Parameter(torch.empty(out_features, in_features // world_size))
        self.bias = nn.Parameter(torch.empty(out_features))

    def forward(self, x_slice):
        partial = F.linear(x_slice, self.weight)
        return ReduceFromTensorParallel.apply(partial, self.group) + self.bias


def attention(qkv, heads: int):
    """Causal self-attention over `heads` heads; qkv is laid out as [3, heads, head_dim]."""
    batch, seq, width = qkv.shape
    q, k, v = qkv.view(batch, seq, 3, heads, width // (3 * heads)).permute(2, 0, 3, 1, 4)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return out.transpose(1, 2).reshape(batch, seq, width // 3)


class Block(nn.Module):
    """The transformer block in one piece (the reference)."""

    def __init__(self, hidden=HIDDEN, heads=HEADS, ffn=FFN):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.qkv, self.proj = nn.Linear(hidden, 3 * hidden), nn.Linear(hidden, hidden)
        self.fc1, self.fc2 = nn.Linear(hidden, ffn), nn.Linear(ffn, hidden)

    def forward(self, x):
        x = x + self.proj(attention(self.qkv(self.ln1(x)), self.heads))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class ParallelBlock(nn.Module):
    """The same block with attention heads and MLP columns split over the ranks of `group`."""

    def __init__(self, rank: int, world_size: int, hidden=HIDDEN, heads=HEADS, ffn=FFN, group=None):
        super().__init__()
        assert heads % world_size == 0 and ffn % world_size == 0, "heads and ffn must divide by the ranks"
        self.rank, self.world_size, self.heads = rank, world_size, heads // world_size
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.qkv = ColumnParallelLinear(hidden, 3 * hidden, world_size, group)
        self.proj = RowParallelLinear(hidden, hidden, world_size, group)
        self.fc1 = ColumnParallelLinear(hidden, ffn, world_size, group)
        self.fc2 = RowParallelLinear(ffn, hidden, world_size, group)

    def forward(self, x):
        x = x + self.proj(attention(self.qkv(self.ln1(x)), self.heads))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    @torch.no_grad()
    def load_from(self, full: Block) -> None:
        """Take this rank's slices of a one-piece block's weights."""
        r, t = self.rank, self.world_size
        self.ln1.load_state_dict(full.ln1.state_dict())
        self.ln2.load_state_dict(full.ln2.state_dict())
        heads = full.heads
        qkv_w = full.qkv.weight.view(3, heads, -1, full.qkv.in_features).chunk(t, dim=1)[r]
        self.qkv.weight.copy_(qkv_w.reshape(-1, full.qkv.in_features))
        self.qkv.bias.copy_(full.qkv.bias.view(3, heads, -1).chunk(t, dim=1)[r].reshape(-1))
        self.proj.weight.copy_(full.proj.weight.chunk(t, dim=1)[r])
        self.proj.bias.copy_(full.proj.bias)
        self.fc1.weight.copy_(full.fc1.weight.chunk(t, dim=0)[r])
        self.fc1.bias.copy_(full.fc1.bias.chunk(t, dim=0)[r])
        self.fc2.weight.copy_(full.fc2.weight.chunk(t, dim=1)[r])
        self.fc2.bias.copy_(full.fc2.bias)


def main() -> None:
    ctx = lab.init()
    torch.manual_seed(0)  # the same weights and batch on every rank
    full = Block()
    block = ParallelBlock(ctx.rank, ctx.world_size)
    block.load_from(full)
    x = torch.randn(BATCH, SEQ, HIDDEN)
    target = torch.randn(BATCH, SEQ, HIDDEN)

    for _ in ctx.steps(3):
        block.zero_grad()
        x_parallel = x.clone().requires_grad_()
        start = ctx.recorder.mark()
        out = block(x_parallel)
        middle = ctx.recorder.mark()
        (out * target).sum().backward()
        forward, backward = ctx.recorder.since(start, until=middle), ctx.recorder.since(middle)

    x_full = x.clone().requires_grad_()
    expected = full(x_full)
    (expected * target).sum().backward()
    ctx.verify("block output", out, expected)
    ctx.verify("input gradient", x_parallel.grad, x_full.grad)
    ctx.verify("MLP fc1 weight gradient", block.fc1.weight.grad, full.fc1.weight.grad.chunk(ctx.world_size)[ctx.rank])

    sent = sum(entry["bytes"] for entry in forward + backward)
    ctx.log(f"collectives per step: forward {[e['op'] for e in forward]}, backward {[e['op'] for e in backward]}, "
            f"{sent} bytes of all-reduce payload")
    ctx.report(forward_collectives=len(forward), backward_collectives=len(backward), allreduce_payload_bytes=sent)
    ctx.finish()


if __name__ == "__main__":
    main()
