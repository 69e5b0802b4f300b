"""Checker for zero1-memory: the update equals plain Adam, and the bytes held per rank equal
the sizing engine's ZeRO-1 figure.

The optimizer's bytes are measured, not asked for: every tensor reachable from the
learner's optimizer object (its attributes, lists, dicts, and any torch optimizer's state and
parameter groups) is counted once by its storage, the model's own weights and gradients left
out. A view into a larger buffer counts the whole buffer, because the whole buffer is held.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

STEPS = 3


def storages(root, exclude: set[int]) -> dict[int, int]:
    """data_ptr -> bytes of every tensor storage reachable from `root`, minus `exclude`."""
    found: dict[int, int] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (str, bytes, int, float, bool, type(None), nn.Module)):
            continue
        seen.add(id(item))
        if isinstance(item, torch.Tensor):
            storage = item.untyped_storage()
            if storage.data_ptr() not in exclude and storage.nbytes():
                found[storage.data_ptr()] = storage.nbytes()
            if item.grad is not None:
                stack.append(item.grad)
        elif isinstance(item, torch.optim.Optimizer):
            stack += [item.state, item.param_groups]
        elif isinstance(item, dict):
            stack += list(item.keys()) + list(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack += list(item)
        elif hasattr(item, "__dict__") and not callable(item):
            stack += list(vars(item).values())
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
    model_storages = {t.untyped_storage().data_ptr() for p in model.parameters()
                      for t in (p, p.grad) if t is not None}
    optimizer_bytes = sum(storages(optimizer, model_storages).values())
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
