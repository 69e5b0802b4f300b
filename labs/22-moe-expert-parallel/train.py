"""Mixture of experts with expert parallelism: tokens travel to their experts by all-to-all.

Run it alone:   torchrun --nproc-per-node 2 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run moe-expert-parallel, then tutor lab check moe-expert-parallel

Each rank holds its own batch of tokens and EXPERTS_PER_RANK of the layer's experts (expert e
lives on rank e // EXPERTS_PER_RANK). The router, the same on every rank, picks TOP_K experts
per token with softmax gates. `moe_forward` sends every token copy to the rank that owns its
expert (dispatch, an all-to-all), runs the local experts on what arrives, sends the results
back (combine, the reverse all-to-all) and sums them weighted by the gates (the token
dispatcher of Megatron-LM's MoE layer; Lepikhin et al. 2020, "GShard", §2.2).

What to observe: the largest error against the layer computed in one process with every
expert, and how many token copies each rank sends to each rank against how many its tokens
routed there.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab

HIDDEN, FFN, EXPERTS_PER_RANK, TOP_K, TOKENS = 16, 32, 2, 2, 24
last_sizes: dict[str, list[int]] = {}  # the dispatch's sizes in the last call, for the log


def make_expert() -> nn.Module:
    return nn.Sequential(nn.Linear(HIDDEN, FFN), nn.GELU(), nn.Linear(FFN, HIDDEN))


def route(x: torch.Tensor, router: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(gates [tokens, TOP_K], experts [tokens, TOP_K]): the top-k experts of each token and
    their softmax weights, renormalised over the k chosen."""
    probs = torch.softmax(x @ router.t(), dim=-1)
    gates, experts = probs.topk(TOP_K, dim=-1)
    return gates / gates.sum(-1, keepdim=True), experts


def moe_forward(x: torch.Tensor, router: torch.Tensor, local_experts: nn.ModuleList, group=None) -> torch.Tensor:
    """The MoE layer's output for this rank's tokens, each expert run on the rank that owns it."""
    rank, world_size = dist.get_rank(group), dist.get_world_size(group)
    gates, chosen = route(x, router)
    flat_expert = chosen.reshape(-1)  # token copy i·TOP_K + j goes to expert chosen[i, j]
    order = torch.argsort(flat_expert, stable=True)  # sorted by expert, hence by the rank that owns it
    tokens = x.repeat_interleave(TOP_K, dim=0)[order]
    experts_sent = flat_expert[order]
    # TODO: the sizes of the all-to-alls. As written, every rank is sent an equal share of the
    # token copies, and receives an equal share from every rank.
    share = tokens.shape[0] // world_size
    send = recv = [share] * world_size

    last_sizes.update(sent=list(send), received=list(recv))
    received = torch.empty(sum(recv), HIDDEN, dtype=x.dtype)
    dist.all_to_all_single(received, tokens, recv, send, group=group)
    received_experts = torch.empty(sum(recv), dtype=experts_sent.dtype)
    dist.all_to_all_single(received_experts, experts_sent, recv, send, group=group)

    outputs = torch.zeros_like(received)
    for index, expert in enumerate(local_experts):
        mine = received_experts == rank * EXPERTS_PER_RANK + index
        outputs[mine] = expert(received[mine])

    returned = torch.empty_like(tokens)
    dist.all_to_all_single(returned, outputs, send, recv, group=group)  # combine: the reverse sizes
    token_of_copy = torch.arange(x.shape[0]).repeat_interleave(TOP_K)[order]
    y = torch.zeros_like(x)
    y.index_add_(0, token_of_copy, returned * gates.reshape(-1)[order, None])
    return y


def dense_reference(x: torch.Tensor, router: torch.Tensor, experts: nn.ModuleList) -> torch.Tensor:
    """The layer in one process, with every expert at hand (for comparison)."""
    gates, chosen = route(x, router)
    y = torch.zeros_like(x)
    for slot in range(TOP_K):
        for index, expert in enumerate(experts):
            rows = chosen[:, slot] == index
            if rows.any():
                y[rows] += gates[rows, slot, None] * expert(x[rows])
    return y


def main() -> None:
    ctx = lab.init()
    experts_total = EXPERTS_PER_RANK * ctx.world_size
    torch.manual_seed(0)  # the router and every expert, the same on every rank; each keeps its own
    router = torch.randn(experts_total, HIDDEN)
    experts = nn.ModuleList(make_expert() for _ in range(experts_total))
    local = experts[ctx.rank * EXPERTS_PER_RANK:(ctx.rank + 1) * EXPERTS_PER_RANK]
    torch.manual_seed(2 + ctx.rank)  # each rank's own tokens
    x = torch.randn(TOKENS, HIDDEN)
    _, chosen = route(x, router)
    routed = torch.bincount(chosen.reshape(-1) // EXPERTS_PER_RANK, minlength=ctx.world_size).tolist()
    with torch.no_grad():
        for _ in ctx.steps(3):
            mark = ctx.recorder.mark()
            y = moe_forward(x, router, local)
            calls = ctx.recorder.since(mark)
        error = (y - dense_reference(x, router, experts)).abs().max().item()
    ops = sorted({call["op"] for call in calls})
    ctx.log(f"max abs error against the dense layer: {error:.2e}; token copies routed to each rank: {routed}; "
            f"rows the dispatch sent to each rank: {last_sizes.get('sent')}, received from each: "
            f"{last_sizes.get('received')}; collectives of one call: {len(calls)} ({', '.join(ops)})")
    ctx.report(max_abs_error=error)
    ctx.finish()


if __name__ == "__main__":
    main()
