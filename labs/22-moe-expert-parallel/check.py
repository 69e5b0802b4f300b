"""Checker for moe-expert-parallel: the routed layer equals the dense layer, and the two
all-to-alls carry exactly the token copies the router sent to each rank, no more.

The router, the experts and each rank's tokens are drawn per run (tokens redrawn until the
router splits this rank's copies unevenly, so an even split cannot be right by chance). The
reference is computed here, with every expert, before the learner's function is called with
only this rank's experts (the others are deleted first). All-to-alls are watched here, split
sizes included (the recorder keeps only shapes): the float all-to-alls must be exactly two,
dispatch with the router's counts per destination and combine with the same counts reversed.
Any other collective may carry only small integer metadata (counts per expert, or one expert
id per copy: a 1-D all-to-all sized like the token rows; integers may be any data viewed as
integers, so a wider one is refused); a gather of tokens or of expert weights is caught
here.

The sizing engine has no all-to-all figure that follows a given routing (its MoE formulas
assume balanced experts), so the sizes are compared exactly with the router's own counts; the
load imbalance (the busiest expert's copies over the mean) is reported as a measurement.
"""

from __future__ import annotations

import copy
import functools
import gc
import inspect
import os

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

WATCHED = ("all_to_all_single", "all_to_all")
INTEGER_SIZES = {"int64": 8, "int32": 4, "int16": 2}


class AllToAllWatch:
    """Records (dtype, shape, input splits, output splits) of every all-to-all the learner makes."""

    def __init__(self):
        self.calls: list[dict] = []
        self._saved: list[tuple[object, str, object]] = []

    def _record(self, name: str, args, kwargs, signature) -> None:
        bound = signature.bind(*args, **kwargs)
        if name == "all_to_all_single":
            out, inp = bound.arguments["output"], bound.arguments["input"]
            n = dist.get_world_size(bound.arguments.get("group"))
            ins = bound.arguments.get("input_split_sizes") or [inp.shape[0] // n] * n
            outs = bound.arguments.get("output_split_sizes") or [out.shape[0] // n] * n
            self.calls.append({"dtype": inp.dtype, "shape": list(inp.shape), "in": [int(s) for s in ins],
                               "out": [int(s) for s in outs]})
        else:
            outs, ins = bound.arguments["output_tensor_list"], bound.arguments["input_tensor_list"]
            self.calls.append({"dtype": ins[0].dtype, "shape": [sum(t.shape[0] for t in ins), *ins[0].shape[1:]],
                               "in": [t.shape[0] for t in ins], "out": [t.shape[0] for t in outs]})

    def __enter__(self):
        for name in WATCHED:
            original = getattr(dist, name)
            signature = inspect.signature(getattr(dist.distributed_c10d, name))

            @functools.wraps(original)
            def watched(*args, _original=original, _name=name, _signature=signature, **kwargs):
                self._record(_name, args, kwargs, _signature)
                return _original(*args, **kwargs)

            for module in (dist, dist.distributed_c10d):
                self._saved.append((module, name, getattr(module, name)))
                setattr(module, name, watched)
        return self

    def __exit__(self, *exc):
        for module, name, original in reversed(self._saved):
            setattr(module, name, original)


def dense_layer(x, router, experts, top_k):
    """The layer with every expert in one process: Σ_k gate_k · expert_k(x), the checker's own."""
    probs = torch.softmax(x @ router.t(), dim=-1)
    gates, chosen = probs.topk(top_k, dim=-1)
    gates = gates / gates.sum(-1, keepdim=True)
    y = torch.zeros_like(x)
    for token in range(x.shape[0]):
        for slot in range(top_k):
            y[token] += gates[token, slot] * experts[int(chosen[token, slot])](x[token:token + 1])[0]
    return y, chosen


def run(ctx, program, shipped, params: dict) -> None:
    """Every check of `program` (the shipped module gives the lab's sizes)."""
    hidden, per_rank, top_k, tokens = shipped.HIDDEN, shipped.EXPERTS_PER_RANK, shipped.TOP_K, shipped.TOKENS
    n = ctx.world_size
    experts_total = per_rank * n
    seed = torch.tensor([int.from_bytes(os.urandom(3), "little") if ctx.rank == 0 else 0])
    dist.broadcast(seed, 0)
    # Private generators, not torch's global one: a program that read torch.initial_seed() could
    # rebuild every expert (and another rank's tokens) without asking anyone.
    shared = torch.Generator().manual_seed(int(seed.item()))  # the router and experts, the same on every rank
    router = torch.randn(experts_total, hidden, generator=shared, device="cpu").to(ctx.device)
    experts = nn.ModuleList(shipped.make_expert() for _ in range(experts_total))
    own = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))  # this rank's tokens
    with torch.no_grad():
        for param in experts.parameters():
            fan_in = param.shape[-1]
            param.copy_(torch.randn(param.shape, generator=shared, device="cpu") / fan_in ** 0.5)
        while True:
            x = torch.randn(tokens, hidden, generator=own, device="cpu").to(ctx.device)
            expected, chosen = dense_layer(x, router, experts, top_k)
            send = torch.bincount(chosen.reshape(-1) // per_rank, minlength=n)
            if len(set(send.tolist())) > 1:
                break
    per_expert = torch.bincount(chosen.reshape(-1), minlength=experts_total)
    every_send = [torch.empty_like(send) for _ in range(n)]
    dist.all_gather(every_send, send)
    every_expert = [torch.empty_like(per_expert) for _ in range(n)]
    dist.all_gather(every_expert, per_expert)
    send_sizes, recv_sizes = send.tolist(), [int(counts[ctx.rank]) for counts in every_send]
    local = copy.deepcopy(experts[ctx.rank * per_rank:(ctx.rank + 1) * per_rank])
    del experts  # the learner's function gets this rank's experts only
    gc.collect()

    mark = ctx.recorder.mark()
    with AllToAllWatch() as watch, torch.no_grad():
        out = program.moe_forward(x.clone(), router.clone(), local)
    calls = ctx.recorder.since(mark)

    passed, detail = compare(out.float(), expected, rtol=1e-5, atol=1e-6)
    ctx.check("routed output equals the dense layer with every expert", passed, detail)

    payload = [call for call in watch.calls if call["dtype"].is_floating_point]
    wanted = [(send_sizes, recv_sizes), (recv_sizes, send_sizes)]
    got = [(call["in"], call["out"]) for call in payload]
    rows_ok = all(len(call["shape"]) == 2 and call["shape"][1] == hidden for call in payload)
    detail = (f"rank {ctx.rank}'s tokens route {send_sizes} copies to ranks 0..{n - 1} and it receives {recv_sizes}; "
              f"its all-to-alls of token rows sent {[g[0] for g in got]} and received {[g[1] for g in got]}; "
              f"wanted dispatch then combine: sent {[w[0] for w in wanted]}, received {[w[1] for w in wanted]}")
    ctx.check("all-to-all sizes follow the routing: dispatch, then combine", got == wanted and rows_ok, detail)

    metadata_limit = experts_total * n
    extra = []
    integer_a2a = [call for call in watch.calls if not call["dtype"].is_floating_point]
    for call in integer_a2a:
        numel = 1
        for size in call["shape"]:
            numel *= size
        ids = len(call["shape"]) == 1 and any(call["in"] == rows["in"] for rows in payload)  # one id per row sent
        if numel > metadata_limit and not ids:
            extra.append(f"an all-to-all of {numel} integers")
    for call in calls:
        if call["op"] in WATCHED:
            continue
        floating = (call.get("dtype") or "").startswith(("float", "bfloat", "half", "complex"))
        numel = call["bytes"] // INTEGER_SIZES.get(call.get("dtype"), 1)
        if floating or numel > metadata_limit:
            extra.append(f"{call['op']} of {call['bytes']:,} B ({call.get('dtype')})")
    ctx.check("no collective but the two all-to-alls moves tokens or weights", not extra,
              "; ".join(extra) if extra else
              f"{len(payload)} all-to-all(s) of token rows, {len(integer_a2a)} of integer metadata, "
              f"{len(calls) - len(watch.calls)} other small collective(s) of integers")

    loads = torch.stack(every_expert).sum(0)
    imbalance = float(loads.max()) / float(loads.float().mean())
    ctx.report(expert_loads=loads.tolist(), load_imbalance=imbalance)
    if ctx.rank == 0:
        ctx.log(f"token copies per expert, all ranks: {loads.tolist()}; the busiest expert has "
                f"{imbalance:.2f}× the mean")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), lab.load_shipped(), lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
