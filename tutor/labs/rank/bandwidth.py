"""All-reduce bandwidth, measured the way nccl-tests' all_reduce_perf measures it.

Run by `tutor lab bandwidth` (or by hand: `torchrun --nproc-per-node 2 bandwidth.py`). For each
buffer size: `--warmup` untimed all-reduces, then `--iters` timed ones back to back (on a GPU
launched without waiting and timed to the last one's end, as nccl-tests does), time per
all-reduce averaged over the iterations and then over the ranks (nccl-tests' default `-a 1`).
A separate all-reduce checks the result (nccl-tests' `#wrong`). The core turns the times into
algbw and busbw with the engine's formulas (`coll_algbw`, `allreduce_busbw`).
"""

from __future__ import annotations

import argparse
import time

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank.perf import gather_json, synchronize

DEFAULT_SIZES = "8,1K,64K,1M,8M,32M"
SUFFIX = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text: str) -> int:
    text = text.strip().upper()
    factor = SUFFIX.get(text[-1:], 1)
    return int(float(text[:-1] if text[-1:] in SUFFIX else text) * factor)


def time_all_reduce(buffer: torch.Tensor, warmup: int, iters: int, device: torch.device) -> float:
    for _ in range(warmup):
        dist.all_reduce(buffer)
    synchronize(device)
    dist.barrier()
    start = time.perf_counter()
    for _ in range(iters):
        dist.all_reduce(buffer)
    if device.type == "cuda":  # NCCL runs on its own stream: wait for the last all-reduce itself
        torch.cuda.synchronize(device)
    return (time.perf_counter() - start) / iters


def wrong_elements(count: int, device: torch.device, world_size: int, rank: int) -> int:
    """Elements that differ from the expected sum after one all-reduce of (rank + 1)."""
    check = torch.full((count,), float(rank + 1), device=device)
    dist.all_reduce(check)
    return int((check != world_size * (world_size + 1) / 2).sum().item())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="buffer sizes in bytes (K, M, G = 2^10, 2^20, 2^30)")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    ctx = lab.init()
    rows = []
    for _, size in zip(ctx.steps(len(args.sizes.split(","))), args.sizes.split(",")):
        count = max(1, parse_size(size) // 4)  # float32 elements, as all_reduce_perf -d float
        buffer = torch.ones(count, device=ctx.device)
        # Large buffers on a laptop take long: fewer iterations there, never fewer than 2.
        iters = max(2, min(args.iters, int(args.iters * (1 << 22) / max(count * 4, 1 << 22))))
        seconds = time_all_reduce(buffer, args.warmup if count * 4 < (1 << 24) else 1, iters, ctx.device)
        rows.append({"bytes": count * 4, "count": count, "type": "float", "redop": "sum", "time_s": seconds,
                     "iters": iters, "wrong": wrong_elements(count, ctx.device, ctx.world_size, ctx.rank)})
    everyone = gather_json(rows)
    averaged = [{**row, "time_s": sum(rank_rows[index]["time_s"] for rank_rows in everyone) / len(everyone),
                 "wrong": sum(rank_rows[index]["wrong"] for rank_rows in everyone)}
                for index, row in enumerate(rows)]
    if ctx.rank == 0:
        ctx.report(all_reduce=averaged, world_size=ctx.world_size, backend=ctx.backend)
        for row in averaged:
            ctx.log(f"{row['bytes']:>12} B  {row['time_s'] * 1e6:>10.1f} us")
    ctx.finish()


if __name__ == "__main__":
    main()
