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

import torch
import torch.distributed as dist
import torch.nn.functional as F

from tutor.labs import rank as lab

BATCH, HEADS, SEQ_PER_RANK, HEAD_DIM = 1, 4, 32, 16
DTYPE = torch.bfloat16


def ring_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, group=None) -> torch.Tensor:
    """Causal attention of this rank's queries over every rank's keys and values."""
    rank, world_size = dist.get_rank(group), dist.get_world_size(group)
    # TODO: pass the K/V chunks around a ring instead of gathering the whole sequence's K/V
    # on every rank, and merge the chunks' partial results with the online softmax.
    keys = torch.empty(world_size * k.shape[0], *k.shape[1:], dtype=k.dtype)  # every rank's chunk, stacked
    values = torch.empty(world_size * v.shape[0], *v.shape[1:], dtype=v.dtype)
    dist.all_gather_into_tensor(keys, k.contiguous(), group=group)
    dist.all_gather_into_tensor(values, v.contiguous(), group=group)
    keys = torch.cat(keys.chunk(world_size), dim=2).float()  # ... and put in sequence order
    values = torch.cat(values.chunk(world_size), dim=2).float()
    length = q.shape[2]
    positions = torch.arange(length) + rank * length  # this chunk's place in the sequence
    allowed = positions[:, None] >= torch.arange(keys.shape[2])[None, :]
    return F.scaled_dot_product_attention(q.float(), keys, values, attn_mask=allowed)


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
