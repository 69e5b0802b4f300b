"""The options of a lab run or check, for the CLI and the app alike.

Options are checked here (one clear message each, as UserInputError) and the run is described
as a RunSpec. Running, checking and recording them is `tutor.actions.labs`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.errors import UserInputError
from tutor.labs.catalog import LabEntry
from tutor.labs.launch import BACKENDS, resolve_backend
from tutor.labs.runner import RunSpec
from tutor.labs.workspace import working_program

ENDPOINT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.\-]+):(\d{1,5})$")
MAX_RANKS = 64


@dataclass(frozen=True)
class RunOptions:
    solution: bool = False
    world_size: int | None = None
    backend: str = "auto"
    timeout_s: float | None = None
    nnodes: int = 1
    node_rank: int = 0
    rdzv_endpoint: str | None = None
    rdzv_id: str | None = None
    program_args: tuple[str, ...] = ()


def resolve(entry: LabEntry, options: RunOptions) -> tuple[int, str, float]:
    """(ranks per node, backend, timeout) after checking the options against the lab."""
    world_size = entry.lab.world_size if options.world_size is None else options.world_size
    if not 1 <= world_size <= MAX_RANKS:
        raise UserInputError(f"--world-size must be between 1 and {MAX_RANKS}, not {world_size}",
                             zh=f"--world-size 必须在 1 到 {MAX_RANKS} 之间，不能是 {world_size}")
    timeout_s = options.timeout_s if options.timeout_s is not None else entry.lab.timeout_s
    if not 0 < timeout_s <= 3600:
        raise UserInputError(f"--timeout must be between 0 and 3600 seconds, not {timeout_s:g}",
                             zh=f"--timeout 必须在 0 到 3600 秒之间，不能是 {timeout_s:g}")
    if options.backend not in ("auto", *BACKENDS):
        raise UserInputError(f"--backend must be auto, gloo or nccl, not {options.backend!r}",
                             zh=f"--backend 只能是 auto、gloo 或 nccl，不能是 {options.backend!r}")
    backend = resolve_backend(options.backend, world_size)
    if entry.lab.gpu_only and backend != "nccl":
        raise UserInputError(f"{entry.name} needs CUDA GPUs (--backend nccl); none are usable here, so it is skipped",
                             zh=f"{entry.name} 需要 CUDA GPU（--backend nccl）；这里没有可用的 GPU，所以跳过")
    if options.nnodes < 1 or not 0 <= options.node_rank < options.nnodes:
        raise UserInputError(f"--node-rank must be between 0 and {options.nnodes - 1}",
                             zh=f"--node-rank 必须在 0 到 {options.nnodes - 1} 之间")
    if options.nnodes > 1:
        match = ENDPOINT.match(options.rdzv_endpoint or "")
        if not match or not 0 < int(match.group(2)) < 65536:
            raise UserInputError("--nnodes > 1 needs --rdzv-endpoint HOST:PORT (node 0's address and a free port)",
                                 zh="--nnodes > 1 时需要 --rdzv-endpoint HOST:PORT（0 号节点的地址和一个空闲端口）")
    return world_size, backend, timeout_s


def run_spec(entry: LabEntry, options: RunOptions) -> RunSpec:
    world_size, backend, timeout_s = resolve(entry, options)
    program = entry.solution if options.solution else (working_program(entry) or entry.program)
    args = options.program_args or tuple(entry.lab.args)
    return RunSpec(lab=entry.name, program=program, world_size=world_size, backend=backend, timeout_s=timeout_s,
                   args=tuple(args), nnodes=options.nnodes, node_rank=options.node_rank,
                   rdzv_endpoint=options.rdzv_endpoint, rdzv_id=options.rdzv_id or f"tutor-{entry.name}",
                   timeout_first=entry.lab.kind == "hang")
