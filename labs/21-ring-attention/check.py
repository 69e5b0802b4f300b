"""Checker for ring-attention: exact causal attention over the whole sequence, computed with
the keys and values passed around a ring, and the bytes each rank sends against the engine.

Queries, keys and values are drawn per run. Point-to-point calls are watched here (the
recorder records a `batch_isend_irecv` as one entry, sends and receives together): every send
must go to the next rank and every receive come from the previous one, and no collective may
be used. The engine's `cp_bytes_per_layer` counts a layer's forward and backward: the K/V
chunk travels the ring N − 1 times forward, and K/V and their gradients once more each
backward, three times the forward's bytes; the lab does the forward, so its bytes are
compared at three times.
"""

from __future__ import annotations

import functools
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare

P2P = ("send", "isend", "recv", "irecv", "batch_isend_irecv")


class P2PWatch:
    """Records (kind, peer, bytes) of every point-to-point transfer the learner's code makes."""

    def __init__(self):
        self.transfers: list[tuple[str, int, int]] = []
        self._inside = False
        self._originals = {}

    def _add(self, kind: str, tensor: torch.Tensor, peer) -> None:
        self.transfers.append((kind, int(peer) if peer is not None else -1, tensor.numel() * tensor.element_size()))

    def __enter__(self):
        for name in P2P:
            original = self._originals[name] = getattr(dist, name)

            @functools.wraps(original)
            def watched(*args, _original=original, _name=name, **kwargs):
                if self._inside:  # batch_isend_irecv calling isend/irecv: counted once, as the batch
                    return _original(*args, **kwargs)
                if _name == "batch_isend_irecv":
                    for op in (args[0] if args else kwargs["p2p_op_list"]):
                        self._add("send" if "send" in op.op.__name__ else "recv", op.tensor, op.peer)
                else:
                    tensor = args[0] if args else kwargs["tensor"]
                    peer = args[1] if len(args) > 1 else kwargs.get("dst", kwargs.get("src"))
                    self._add("send" if "send" in _name else "recv", tensor, peer)
                self._inside = True
                try:
                    return _original(*args, **kwargs)
                finally:
                    self._inside = False

            setattr(dist, name, watched)
        # P2POp accepts only distributed_c10d's own isend/irecv (by identity): these, now.
        for name in ("isend", "irecv"):
            setattr(dist.distributed_c10d, name, getattr(dist, name))
        return self

    def __exit__(self, *exc):
        for name, original in self._originals.items():
            setattr(dist, name, original)
        for name in ("isend", "irecv"):
            setattr(dist.distributed_c10d, name, self._originals[name])


def main() -> None:
    ctx = lab.init()
    program = lab.load_program()
    batch, heads, per_rank, head_dim = program.BATCH, program.HEADS, program.SEQ_PER_RANK, program.HEAD_DIM
    n = ctx.world_size
    seed = torch.tensor([int.from_bytes(os.urandom(3), "little") if ctx.rank == 0 else 0])
    dist.broadcast(seed, 0)
    torch.manual_seed(int(seed.item()))
    shape = (batch, heads, per_rank * n, head_dim)
    q, k, v = (torch.randn(shape).to(torch.bfloat16) for _ in range(3))
    expected = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=True)
    mine = slice(ctx.rank * per_rank, (ctx.rank + 1) * per_rank)
    chunk = [tensor[:, :, mine].contiguous() for tensor in (q, k, v)]

    mark = ctx.recorder.mark()
    with P2PWatch() as watch:
        out = program.ring_attention(*chunk)
    calls = ctx.recorder.since(mark)
    passed, detail = compare(out.float(), expected[:, :, mine], rtol=1e-4, atol=1e-5)
    ctx.check("output equals causal attention over the whole sequence", passed, detail)

    after, before = (ctx.rank + 1) % n, (ctx.rank - 1) % n
    collectives = sorted({call["op"] for call in calls} - set(P2P))
    sends = [t for t in watch.transfers if t[0] == "send"]
    receives = [t for t in watch.transfers if t[0] == "recv"]
    kv_bytes = 2 * chunk[1].numel() * chunk[1].element_size()
    sent = sum(size for _, _, size in sends)
    ring = (not collectives and all(peer == after for _, peer, _ in sends)
            and all(peer == before for _, peer, _ in receives) and sent == (n - 1) * kv_bytes
            and sum(size for _, _, size in receives) == sent)
    detail = (f"{len(sends)} send(s) of {sent:,} B in all, to rank(s) {sorted({p for _, p, _ in sends})}; "
              f"{len(receives)} receive(s) from rank(s) {sorted({p for _, p, _ in receives})}; a ring passes one "
              f"K/V chunk ({kv_bytes:,} B) to rank {after} and takes one from rank {before}, N − 1 = {n - 1} time(s)")
    if collectives:
        detail += f"; also {', '.join(collectives)}, which the ring does not need"
    ctx.check("K/V pass around the ring, neighbour to neighbour", ring, detail)
    ctx.measure("K/V bytes each rank sends, forward, × 3 (the engine counts forward and backward)", 3 * sent,
                "cp_bytes_per_layer", {"seq": per_rank * n, "micro_batch": batch, "hidden": heads * head_dim,
                                       "heads": heads, "kv_heads": heads, "tp": 1, "cp": n}, rtol=1e-6, unit="B")
    ctx.finish()


if __name__ == "__main__":
    main()
