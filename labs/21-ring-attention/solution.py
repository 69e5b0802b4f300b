"""Context parallelism with ring attention: each rank holds one chunk of a long sequence.

Run it alone:   torchrun --nproc-per-node 2 train.py      (2 or 4 ranks)
In the tutor:   tutor lab run ring-attention, then tutor lab check ring-attention

The sequence is cut into N contiguous chunks, one per rank; rank r holds the queries, keys
and values of chunk r ([batch, heads, seq/N, head_dim], bf16). Causal attention needs, for
rank r's queries, the keys and values of chunks 0 … r. `ring_attention(q, k, v)` returns this
rank's rows of causal attention over the whole sequence, in fp32 (Liu et al. 2023, "Ring
Attention"; Megatron-LM's context parallelism passes K/V around a ring with send/recv).

What to observe: the largest error against full attention computed in one piece, the
collectives of one call and the bytes each rank sends.
"""

from __future__ import annotations

import math

import torch
import torch.distributed as dist
import torch.nn.functional as F

from tutor.labs import rank as lab

BATCH, HEADS, SEQ_PER_RANK, HEAD_DIM = 1, 4, 32, 16
DTYPE = torch.bfloat16


def chunk_scores(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, diagonal: bool):
    """One chunk's unnormalised attention: (exp(s − m)·v, Σ exp(s − m), m), with m the row maximum."""
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if diagonal:  # the rank's own chunk: a query sees only the keys up to its own position
        scores = scores.masked_fill(torch.ones_like(scores, dtype=torch.bool).triu(1), float("-inf"))
    row_max = scores.amax(-1, keepdim=True)
    weights = torch.exp(scores - row_max)
    return weights @ v, weights.sum(-1, keepdim=True), row_max


def ring_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, group=None) -> torch.Tensor:
    """Causal attention of this rank's queries over every rank's keys and values.

    N − 1 rounds: each rank sends the K/V chunk it holds to the next rank and receives the
    previous rank's, while it computes with the one it has; partial results are merged with
    the online softmax (a running maximum and denominator), so no rank ever holds the whole
    sequence's K/V and the result is exact.
    """
    rank, world_size = dist.get_rank(group), dist.get_world_size(group)
    after, before = (rank + 1) % world_size, (rank - 1) % world_size
    queries = q.float()
    total = torch.zeros_like(queries)
    denominator = torch.zeros(*queries.shape[:-1], 1, dtype=torch.float32)
    running_max = torch.full_like(denominator, float("-inf"))
    keys, values = k, v
    for round_ in range(world_size):
        source = (rank - round_) % world_size  # whose chunk this rank holds in this round
        if round_ < world_size - 1:
            next_keys, next_values = torch.empty_like(k), torch.empty_like(v)
            works = dist.batch_isend_irecv([
                dist.P2POp(dist.isend, keys, dist.get_global_rank(group, after) if group else after, group),
                dist.P2POp(dist.isend, values, dist.get_global_rank(group, after) if group else after, group),
                dist.P2POp(dist.irecv, next_keys, dist.get_global_rank(group, before) if group else before, group),
                dist.P2POp(dist.irecv, next_values, dist.get_global_rank(group, before) if group else before, group),
            ])
        if source <= rank:  # later chunks are in this rank's future: causal attention skips them
            part, weight, part_max = chunk_scores(queries, keys.float(), values.float(), diagonal=source == rank)
            new_max = torch.maximum(running_max, part_max)
            total = total * torch.exp(running_max - new_max) + part * torch.exp(part_max - new_max)
            denominator = denominator * torch.exp(running_max - new_max) + weight * torch.exp(part_max - new_max)
            running_max = new_max
        if round_ < world_size - 1:
            for work in works:
                work.wait()
            keys, values = next_keys, next_values
    return total / denominator


def full_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """The whole sequence in one piece (for comparison)."""
    return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=True)


def main() -> None:
    ctx = lab.init()
    torch.manual_seed(0)  # the whole sequence, the same on every rank; each keeps its chunk
    shape = (BATCH, HEADS, SEQ_PER_RANK * ctx.world_size, HEAD_DIM)
    q, k, v = (torch.randn(shape).to(DTYPE) for _ in range(3))
    mine = slice(ctx.rank * SEQ_PER_RANK, (ctx.rank + 1) * SEQ_PER_RANK)
    for _ in ctx.steps(3):
        mark = ctx.recorder.mark()
        out = ring_attention(q[:, :, mine].contiguous(), k[:, :, mine].contiguous(), v[:, :, mine].contiguous())
        calls = ctx.recorder.since(mark)
    error = (out - full_attention(q, k, v)[:, :, mine]).abs().max().item()
    ops = sorted({call["op"] for call in calls})
    ctx.log(f"max abs error against full attention: {error:.2e}; collectives of one call: {len(calls)} ({', '.join(ops)})")
    ctx.report(max_abs_error=error)
    ctx.finish()


if __name__ == "__main__":
    main()
