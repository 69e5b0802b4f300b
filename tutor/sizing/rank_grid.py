"""Which parallel group each global rank belongs to, for a given dimension order.

Ranks are laid out innermost-first: with the order [TP, CP, PP, DP] (Llama 3, §3.3.2), ranks
0..TP−1 form the first TP group, so TP stays on consecutive GPUs of one node. Megatron-LM's
default order is "tp-cp-ep-dp-pp" (`parallel_state.initialize_model_parallel`), which puts DP
inside PP; EP folds onto DP × CP and does not add ranks (MoE Parallel Folding).
"""

from __future__ import annotations

from dataclasses import dataclass

LLAMA3_ORDER = ("tp", "cp", "pp", "dp")
MEGATRON_ORDER = ("tp", "cp", "dp", "pp")  # "tp-cp-ep-dp-pp" with EP folded away


@dataclass(frozen=True)
class RankGrid:
    tp: int
    cp: int
    pp: int
    dp: int
    order: tuple[str, ...] = LLAMA3_ORDER
    gpus_per_node: int = 8

    def __post_init__(self) -> None:
        if sorted(self.order) != sorted(LLAMA3_ORDER):
            raise ValueError(f"order must name tp, cp, pp and dp once each, got {self.order}")
        if min(self.tp, self.cp, self.pp, self.dp, self.gpus_per_node) < 1:
            raise ValueError("every dimension must be at least 1")

    @property
    def world_size(self) -> int:
        return self.tp * self.cp * self.pp * self.dp

    def coordinates(self, rank: int) -> dict[str, int]:
        """The rank's index along each dimension."""
        if not 0 <= rank < self.world_size:
            raise ValueError(f"rank {rank} outside 0..{self.world_size - 1}")
        result, rest = {}, rank
        for name in self.order:
            size = getattr(self, name)
            result[name] = rest % size
            rest //= size
        return result

    def rank_of(self, **coordinates: int) -> int:
        rank, stride = 0, 1
        for name in self.order:
            rank += coordinates[name] * stride
            stride *= getattr(self, name)
        return rank

    def group(self, rank: int, dimension: str) -> list[int]:
        """The ranks that share every coordinate with `rank` except `dimension`."""
        base = self.coordinates(rank)
        return [self.rank_of(**{**base, dimension: index}) for index in range(getattr(self, dimension))]

    def node_of(self, rank: int) -> int:
        return rank // self.gpus_per_node

    def spans_nodes(self, dimension: str) -> bool:
        """Whether any group of this dimension crosses a node boundary (leaves NVLink)."""
        return any(len({self.node_of(r) for r in self.group(rank, dimension)}) > 1
                   for rank in range(0, self.world_size, max(1, self.world_size // 64)))
