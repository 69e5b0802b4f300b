"""Sequence parallelism: Megatron's tensor-parallel MLP with its LayerNorm split by sequence.

Run it alone:   torchrun --nproc-per-node 2 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run sequence-parallel, then tutor lab check sequence-parallel

The block is y = x + W2·gelu(W1·LayerNorm(x) + b1), with activations laid out [seq, batch,
hidden] as in Megatron-LM. W1 is split by rows (column-parallel) and W2 by columns
(row-parallel) over the tensor-parallel ranks, as in the tp-mlp lab. Each rank is handed its
contiguous slice of the sequence, x[r·s/t : (r+1)·s/t], and returns the same slice of y.
Sequence parallelism (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
Transformer Models", §4.2.2) keeps the parts outside the tensor-parallel region (LayerNorm,
dropout, the residual) on the sequence slice: an all-gather along the sequence enters the
region and a reduce-scatter along the sequence leaves it, where plain tensor parallelism
all-reduces; in backward the two swap.

What to observe: the rows the LayerNorm sees on each rank, the collectives of one forward
and backward, and the values each rank sends.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from tutor.labs import rank as lab

SEQ, BATCH, HIDDEN, FFN = 32, 2, 16, 64


class _GatherSequence(torch.autograd.Function):
    """All-gather the sequence slices into the whole sequence; every rank then holds the same
    whole-sequence gradient, so backward keeps this rank's slice of it."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        world_size = dist.get_world_size(group)
        out = torch.empty(world_size * x.shape[0], *x.shape[1:], dtype=x.dtype)
        dist.all_gather_single(out, x.contiguous(), group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        rank, world_size = dist.get_rank(ctx.group), dist.get_world_size(ctx.group)
        return grad.chunk(world_size)[rank].contiguous(), None


class _SplitSequence(torch.autograd.Function):
    """Keep this rank's slice of the whole sequence; backward all-gathers the slices' gradients."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        rank, world_size = dist.get_rank(group), dist.get_world_size(group)
        return x.chunk(world_size)[rank].contiguous()

    @staticmethod
    def backward(ctx, grad):
        world_size = dist.get_world_size(ctx.group)
        out = torch.empty(world_size * grad.shape[0], *grad.shape[1:], dtype=grad.dtype)
        dist.all_gather_single(out, grad.contiguous(), group=ctx.group)
        return out, None


class _CopyToTensorParallel(torch.autograd.Function):
    """f of Megatron's tensor-parallel MLP: identity forward, all-reduce backward."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        dist.all_reduce(grad, group=ctx.group)
        return grad, None


class _ReduceFromTensorParallel(torch.autograd.Function):
    """g of Megatron's tensor-parallel MLP: all-reduce forward, identity backward."""

    @staticmethod
    def forward(ctx, x, group):
        x = x.contiguous()
        dist.all_reduce(x, group=group)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class SequenceParallelMLP(nn.Module):
    """The block on this rank: its sequence slice in, its sequence slice out; W1's rows and W2's
    columns of this rank's shard."""

    def __init__(self, norm: nn.Module, w1: nn.Parameter, b1: nn.Parameter, w2: nn.Parameter, group=None):
        super().__init__()
        self.norm, self.w1, self.b1, self.w2, self.group = norm, w1, b1, w2, group

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # TODO: sequence parallelism. As written, this is plain tensor parallelism: every rank
        # gathers the whole sequence and runs the LayerNorm and the residual on all of it.
        full = _GatherSequence.apply(x, self.group)
        h = _CopyToTensorParallel.apply(self.norm(full), self.group)           # f
        z = F.linear(F.gelu(F.linear(h, self.w1, self.b1)), self.w2)  # partial sums over this FFN shard
        z = _ReduceFromTensorParallel.apply(z, self.group)                       # g
        return _SplitSequence.apply(full + z, self.group)


def reference_block(x, w1, b1, w2):
    """The whole block in one process (for comparison)."""
    return x + F.linear(F.gelu(F.linear(F.layer_norm(x, x.shape[-1:]), w1, b1)), w2)


def main() -> None:
    ctx = lab.init()
    t, r = ctx.world_size, ctx.rank
    torch.manual_seed(0)  # the whole block and input, the same on every rank; each keeps its part
    w1, b1, w2 = torch.randn(FFN, HIDDEN) / HIDDEN ** 0.5, torch.randn(FFN), torch.randn(HIDDEN, FFN) / FFN ** 0.5
    x = torch.randn(SEQ, BATCH, HIDDEN)
    rows, cols = slice(r * SEQ // t, (r + 1) * SEQ // t), slice(r * FFN // t, (r + 1) * FFN // t)
    block = SequenceParallelMLP(nn.LayerNorm(HIDDEN, elementwise_affine=False), nn.Parameter(w1[cols].clone()),
                                nn.Parameter(b1[cols].clone()), nn.Parameter(w2[:, cols].clone()))
    seen: list[list[int]] = []
    block.norm.register_forward_hook(lambda module, args, out: seen.append(list(args[0].shape)))
    for _ in ctx.steps(3):
        seen.clear()
        mark = ctx.recorder.mark()
        mine = x[rows].clone().requires_grad_()
        y = block(mine)
        y.sum().backward()
        calls = ctx.recorder.since(mark)
    error = (y - reference_block(x, w1, b1, w2)[rows]).abs().max().item()
    ops = [call["op"] for call in calls]
    ctx.log(f"max abs error against the whole block: {error:.2e}; LayerNorm saw {seen} on rank {r}; "
            f"collectives of one forward and backward: {ops}")
    ctx.report(max_abs_error=error, layernorm_rows=seen[0][0] if seen else None)
    ctx.finish()


if __name__ == "__main__":
    main()
