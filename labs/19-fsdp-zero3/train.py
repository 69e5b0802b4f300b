"""Fully sharded data parallelism (ZeRO stage 3 / FSDP): every rank holds 1/N of each layer.

Run it alone:   torchrun --nproc-per-node 2 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run fsdp-zero3, then tutor lab check fsdp-zero3

A stack of bf16 linear layers trains data-parallel: each rank gets its own slice of the batch.
Each layer's weight and bias are flattened into one vector, padded to a multiple of N and cut
into N equal shards; rank r starts with shard r of every layer and nothing else (Rajbhandari et
al. 2020, "ZeRO", §5.3; PyTorch FSDP's FlatParameter). `ShardedMLP` is called as
`model(x)`, `loss.backward()`, `model.sync_grads()`, `model.step(lr)`, `model.zero_grad()`;
`model.shard(i)` and `model.grad_shard(i)` are this rank's current shard of layer i and of
its averaged gradient.

What to observe: the bytes of weights and gradients each rank holds between steps, the
collectives of one step and the bytes they send, and the loss going down.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

from tutor.labs import rank as lab

HIDDEN, LAYERS, BATCH_PER_RANK, LR = 256, 6, 16, 0.05
DTYPE = torch.bfloat16


def shard_numel(hidden: int, world_size: int) -> int:
    """Values per shard of one layer: (h·h + h) padded up to a multiple of N, divided by N."""
    return -(-(hidden * hidden + hidden) // world_size)


def flatten_layer(weight: torch.Tensor, bias: torch.Tensor, world_size: int) -> torch.Tensor:
    """weight then bias as one vector, zero-padded to N shards."""
    flat = torch.cat([weight.reshape(-1), bias.reshape(-1)])
    return F.pad(flat, (0, shard_numel(bias.numel(), world_size) * world_size - flat.numel()))


def unflatten_layer(flat: torch.Tensor, hidden: int) -> tuple[torch.Tensor, torch.Tensor]:
    return flat[: hidden * hidden].view(hidden, hidden), flat[hidden * hidden: hidden * hidden + hidden]


def gather_layer(shard: torch.Tensor, group=None) -> torch.Tensor:
    """Every rank's shard of one layer, put together: the full flat layer."""
    full = torch.empty(shard.numel() * dist.get_world_size(group), dtype=shard.dtype)
    dist.all_gather_into_tensor(full, shard, group=group)
    return full


class ShardedMLP(nn.Module):
    """LAYERS × (linear, tanh), each layer's parameters held as this rank's flat shard."""

    def __init__(self, shards: list[torch.Tensor], hidden: int = HIDDEN, group=None):
        super().__init__()
        self.hidden, self.group = hidden, group
        self.world_size, self.rank = dist.get_world_size(group), dist.get_rank(group)
        # TODO: keep only this rank's shard of each layer; gather a layer's full parameters
        # just before it is used, forward and backward, and reduce-scatter its gradient.
        self.layers = nn.ModuleList()
        for shard in shards:
            weight, bias = unflatten_layer(gather_layer(shard, group), hidden)
            layer = nn.Linear(hidden, hidden, dtype=shard.dtype)
            with torch.no_grad():
                layer.weight.copy_(weight)
                layer.bias.copy_(bias)
            self.layers.append(layer)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for index, layer in enumerate(self.layers):
            x = layer(x)
            if index < len(self.layers) - 1:
                x = torch.tanh(x)
        return x

    def sync_grads(self) -> None:
        """Average every gradient over the ranks."""
        for param in self.parameters():
            dist.all_reduce(param.grad, group=self.group)
            param.grad /= self.world_size

    @torch.no_grad()
    def step(self, lr: float) -> None:
        for param in self.parameters():
            param -= lr * param.grad

    def shard(self, index: int) -> torch.Tensor:
        layer = self.layers[index]
        return flatten_layer(layer.weight.detach(), layer.bias.detach(), self.world_size).chunk(self.world_size)[self.rank]

    def grad_shard(self, index: int) -> torch.Tensor:
        layer = self.layers[index]
        return flatten_layer(layer.weight.grad, layer.bias.grad, self.world_size).chunk(self.world_size)[self.rank]


def initial_shards(rank: int, world_size: int, seed: int = 0) -> list[torch.Tensor]:
    """This rank's shard of every layer of a freshly initialised model (the same seed everywhere)."""
    torch.manual_seed(seed)
    layers = [nn.Linear(HIDDEN, HIDDEN).to(DTYPE) for _ in range(LAYERS)]
    return [flatten_layer(layer.weight.detach(), layer.bias.detach(), world_size).chunk(world_size)[rank].clone()
            for layer in layers]


def held_bytes(model: nn.Module) -> int:
    """Bytes of weights and gradients the model keeps between steps (each storage once)."""
    storages = {}
    for param in model.parameters():
        for tensor in (param, param.grad):
            if tensor is not None:
                storages[tensor.untyped_storage().data_ptr()] = tensor.untyped_storage().nbytes()
    return sum(storages.values())


def main() -> None:
    ctx = lab.init()
    model = ShardedMLP(initial_shards(ctx.rank, ctx.world_size))
    torch.manual_seed(100 + ctx.rank)  # this rank's slice of the data
    inputs = torch.randn(BATCH_PER_RANK, HIDDEN, dtype=DTYPE)
    targets = torch.randn(BATCH_PER_RANK, HIDDEN, dtype=DTYPE)
    for step in ctx.steps(6):
        mark = ctx.recorder.mark()
        model.zero_grad()
        loss = F.mse_loss(model(inputs).float(), targets.float())
        loss.backward()
        model.sync_grads()
        model.step(LR)
        calls = ctx.recorder.since(mark)
        ops = {}
        for call in calls:
            ops[call["op"]] = ops.get(call["op"], 0) + 1
        ctx.log(f"step {step}: loss {loss.item():.4f}; collectives {ops}; "
                f"payload {sum(call['bytes'] for call in calls):,} B")
    psi = LAYERS * shard_numel(HIDDEN, ctx.world_size) * ctx.world_size
    ctx.log(f"weights and gradients held on this rank: {held_bytes(model):,} B for Ψ = {psi:,} parameters "
            f"(bf16: {4 * psi:,} B unsharded)")
    ctx.report(held_bytes=held_bytes(model), params=psi)
    ctx.finish()


if __name__ == "__main__":
    main()
