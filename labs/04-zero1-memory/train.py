"""ZeRO stage 1: split Adam's state over the data-parallel ranks.

Run it alone:   torchrun --nproc-per-node 4 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run zero1-memory --world-size 4, then tutor lab check zero1-memory

Every rank holds the whole model in bf16, weights and gradients (2 + 2 bytes per parameter),
and trains on its own slice of the batch. Adam keeps an fp32 master copy of the weights and
two fp32 moments: 12 bytes per parameter (Rajbhandari et al. 2020, "ZeRO", §3.1). With ZeRO
stage 1 each of the N data-parallel ranks keeps those 12 bytes for 1/N of the parameters,
updates only that slice, and the ranks then gather the updated weights (§5.1). (Real
implementations reduce-scatter the gradients; this program all-reduces them, for simplicity.)

What to observe: the bytes the optimizer holds per rank, and the loss going down.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab

HIDDEN, LAYERS, BATCH_PER_RANK, LR = 256, 4, 32, 1e-3


def make_model() -> nn.Sequential:
    layers = [layer for _ in range(LAYERS) for layer in (nn.Linear(HIDDEN, HIDDEN), nn.Tanh())]
    return nn.Sequential(*layers).to(torch.bfloat16)


def flat_average_gradients(params: list[nn.Parameter], group=None) -> torch.Tensor:
    """All the parameters' gradients, as one fp32 vector averaged over the ranks."""
    flat = torch.cat([param.grad.reshape(-1).float() for param in params])
    dist.all_reduce(flat, group=group)
    return flat / dist.get_world_size(group)


class ShardedAdam:
    """Adam for bf16 parameters with an fp32 master copy, its state split over the ranks (ZeRO-1)."""

    def __init__(self, params, lr: float = LR, group=None):
        self.params = list(params)
        self.group = group
        self.world_size, self.rank = dist.get_world_size(group), dist.get_rank(group)
        self.numel = sum(param.numel() for param in self.params)
        # TODO: keep the fp32 master copy and Adam's state for this rank's slice only.
        self.master = nn.Parameter(torch.cat([param.detach().reshape(-1).float() for param in self.params]))
        self.adam = torch.optim.Adam([self.master], lr=lr)

    @torch.no_grad()
    def step(self) -> None:
        self.master.grad = flat_average_gradients(self.params, self.group)
        self.adam.step()
        self.master.grad = None
        self._write_back(self.master.detach())

    def _write_back(self, flat: torch.Tensor) -> None:
        offset = 0
        for param in self.params:
            param.copy_(flat[offset: offset + param.numel()].view_as(param))
            offset += param.numel()


def main() -> None:
    ctx = lab.init()
    torch.manual_seed(0)  # the same model on every rank
    model = make_model()
    optimizer = ShardedAdam(model.parameters())
    torch.manual_seed(1 + ctx.rank)  # each rank its own data
    inputs = torch.randn(BATCH_PER_RANK, HIDDEN, dtype=torch.bfloat16)
    targets = torch.randn(BATCH_PER_RANK, HIDDEN, dtype=torch.bfloat16)
    psi = sum(param.numel() for param in model.parameters())
    for step in ctx.steps(5):
        model.zero_grad()
        loss = nn.functional.mse_loss(model(inputs).float(), targets.float())
        loss.backward()
        optimizer.step()
        ctx.log(f"step {step}: loss {loss.item():.4f}")
    held = optimizer.master.numel() * 4 + sum(value.numel() * value.element_size()
                                              for state in optimizer.adam.state.values() for value in state.values())
    ctx.log(f"optimizer state on this rank: {held:,} bytes = {held / psi:.2f} bytes per parameter (Ψ = {psi:,})")
    ctx.report(optimizer_bytes=held, params=psi)
    ctx.finish()


if __name__ == "__main__":
    main()
