"""Checker for zero1-memory: the update equals plain Adam, and the bytes held per rank equal
the sizing engine's ZeRO-1 figure.

The optimizer's bytes are measured, not asked for: every tensor alive in the rank's process
(the garbage collector's view, which no attribute, module, closure or global hides from) is
counted once by its storage, leaving out the model's weights and gradients and what this
checker holds itself (its plain-Adam reference, the batch). A view into a larger buffer counts
the whole buffer, because the whole buffer is held. Walking only the optimizer object let a
full Adam hidden in an nn.Module attribute pass with a decoy tensor of 12Ψ/N bytes.
"""

from __future__ import annotations

import gc

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

STEPS = 3


def held_storages(exclude: set[int]) -> dict[int, int]:
    """data_ptr -> bytes of every tensor storage alive in this process, minus `exclude`."""
    gc.collect()
    found: dict[int, int] = {}
    for item in gc.get_objects():
        if isinstance(item, torch.Tensor):
            storage = item.untyped_storage()
            if storage.data_ptr() not in exclude and storage.nbytes():
                found[storage.data_ptr()] = storage.nbytes()
    return found


def owned(*tensors) -> set[int]:
    """The storages of these tensors (and their gradients)."""
    found = set()
    for tensor in tensors:
        for item in (tensor, getattr(tensor, "grad", None)):
            if isinstance(item, torch.Tensor):
                found.add(item.untyped_storage().data_ptr())
    return found


def main() -> None:
    ctx = lab.init()
    program = lab.load_program()
    torch.manual_seed(5)
    model = program.make_model()
    reference_master = nn.Parameter(torch.cat([p.detach().reshape(-1).float() for p in model.parameters()]))
    reference = torch.optim.Adam([reference_master], lr=program.LR)
    optimizer = program.ShardedAdam(model.parameters(), lr=program.LR)
    torch.manual_seed(50 + ctx.rank)
    inputs = torch.randn(program.BATCH_PER_RANK, program.HIDDEN, dtype=torch.bfloat16)
    targets = torch.randn(program.BATCH_PER_RANK, program.HIDDEN, dtype=torch.bfloat16)

    passed, detail = True, ""
    for step in range(STEPS):
        model.zero_grad()
        nn.functional.mse_loss(model(inputs).float(), targets.float()).backward()
        grads = torch.cat([p.grad.reshape(-1).float() for p in model.parameters()])
        dist.all_reduce(grads)
        reference_master.grad = grads / ctx.world_size
        reference.step()
        optimizer.step()
        actual = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
        passed, detail = compare(actual, reference_master.detach().to(torch.bfloat16))
        if not passed:
            detail = f"after step {step + 1}: {detail}"
            break
    ctx.check("update equals unsharded Adam", passed,
              detail if not passed else f"bf16 weights match plain Adam after {STEPS} steps")

    psi = sum(p.numel() for p in model.parameters())
    reference_state = [value for state in reference.state.values() for value in state.values()]
    mine = owned(*model.parameters(), reference_master, *reference_state, inputs, targets, grads, actual)
    optimizer_bytes = sum(held_storages(mine).values())
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    grads = sum(p.grad.numel() * p.grad.element_size() for p in model.parameters() if p.grad is not None)
    inputs_ = {"params": psi, "n_shard": ctx.world_size}
    ctx.measure("optimizer state per rank", optimizer_bytes, "zero1_bytes",
                inputs_, rtol=0.01, unit="B", subtract=("weight_bytes", "grad_bytes"))
    ctx.measure("model state per rank: bf16 weights + bf16 gradients + optimizer", weights + grads + optimizer_bytes,
                "zero1_bytes", inputs_, rtol=0.01, unit="B")
    ctx.report(optimizer_bytes=optimizer_bytes, optimizer_bytes_per_param=optimizer_bytes / psi)
    ctx.finish()


if __name__ == "__main__":
    main()
