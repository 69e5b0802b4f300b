"""Collective bandwidth as nccl-tests reports it (NVIDIA/nccl-tests doc/PERFORMANCE.md).

`algbw = S / t`, with S the bytes of the full buffer and t the time of one collective. `busbw`
multiplies algbw by the share of the buffer each rank's busiest link must carry, so that it
can be compared with the link's rating whatever the number of ranks n: 2(n−1)/n for
all-reduce (a reduce-scatter then an all-gather), (n−1)/n for all-gather, reduce-scatter and
all-to-all (S = the whole gathered buffer), 1 for broadcast. nccl-tests prints both in GB/s
with GB = 1e9 bytes (src/*.cu: `/ 1.0E9 / sec`).
"""

from __future__ import annotations

from tutor.sizing.formula import formula
from tutor.sizing.symbols import S
from tutor.text import T

size, seconds, n = S["message_bytes"], S["coll_time"], S["ranks"]
NCCL_TESTS = "NVIDIA/nccl-tests doc/PERFORMANCE.md; src/all_reduce.cu, src/all_gather.cu (facts.md §3)"
ORDER = ("message_bytes", "coll_time")

FORMULAS = (
    formula("coll_algbw", size / seconds, "B/s",
            T("Algorithm bandwidth of a collective: the buffer's bytes over the time, S/t.",
              "collective 的算法带宽（algbw）：缓冲区字节数除以耗时，S/t。"), NCCL_TESTS, order=ORDER),
    formula("allreduce_busbw", size / seconds * 2 * (n - 1) / n, "B/s",
            T("All-reduce bus bandwidth: algbw × 2(n−1)/n, comparable with a link's rating at any rank count.",
              "all-reduce 的总线带宽（busbw）：algbw × 2(n−1)/n，任何 rank 数下都能和链路标称值比。"),
            NCCL_TESTS, steps=("coll_algbw",), order=ORDER),
    formula("allgather_busbw", size / seconds * (n - 1) / n, "B/s",
            T("All-gather (and reduce-scatter, all-to-all) bus bandwidth: algbw × (n−1)/n, S the whole buffer.",
              "all-gather（以及 reduce-scatter、all-to-all）的总线带宽：algbw × (n−1)/n,S 是整个缓冲区。"),
            NCCL_TESTS, steps=("coll_algbw",), order=ORDER),
)
