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
from tutor.text import T

ENDPOINT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.\-]+):(\d{1,5})$")
MAX_RANKS = 64
MAX_NODES = 64
"""A bound, not torchrun's: `--print-launch` writes one command per node, so 10^20 nodes never ended."""
MAX_TIMEOUT_S = 3600
ERRORS = {
    "world_size": T("--world-size must be between 1 and {most}, not {given}", "--world-size 必须在 1 到 {most} 之间，不能是 {given}"),
    "timeout": T("--timeout must be more than 0 and at most {most} seconds, not {given:g}",
                 "--timeout 必须大于 0 秒、至多 {most} 秒，不能是 {given:g}"),
    "backend": T("--backend must be auto, gloo or nccl, not {given!r}", "--backend 只能是 auto、gloo 或 nccl，不能是 {given!r}"),
    "gpu_only": T("{lab} needs CUDA GPUs (--backend nccl); none are usable here, so it is skipped",
                  "{lab} 需要 CUDA GPU（--backend nccl）；这里没有可用的 GPU，所以跳过"),
    "nnodes": T("--nnodes must be between 1 and {most}, not {given}", "--nnodes 必须在 1 到 {most} 之间，不能是 {given}"),
    "node_rank": T("--node-rank must be between 0 and {most} (--nnodes {nnodes}), not {given}",
                   "--node-rank 必须在 0 到 {most} 之间（--nnodes {nnodes}），不能是 {given}"),
    "endpoint": T("--nnodes > 1 needs --rdzv-endpoint HOST:PORT (node 0's address and a free port)",
                  "--nnodes > 1 时需要 --rdzv-endpoint HOST:PORT（0 号节点的地址和一个空闲端口）"),
}


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
        raise UserInputError(ERRORS["world_size"].filled(most=MAX_RANKS, given=world_size))
    timeout_s = options.timeout_s if options.timeout_s is not None else entry.lab.timeout_s
    if not 0 < timeout_s <= MAX_TIMEOUT_S:
        raise UserInputError(ERRORS["timeout"].filled(most=MAX_TIMEOUT_S, given=timeout_s))
    if options.backend not in ("auto", *BACKENDS):
        raise UserInputError(ERRORS["backend"].filled(given=options.backend))
    backend = resolve_backend(options.backend, world_size)
    if entry.lab.gpu_only and backend != "nccl":
        raise UserInputError(ERRORS["gpu_only"].filled(lab=entry.name))
    if not 1 <= options.nnodes <= MAX_NODES:
        raise UserInputError(ERRORS["nnodes"].filled(most=MAX_NODES, given=options.nnodes))
    if not 0 <= options.node_rank < options.nnodes:
        raise UserInputError(ERRORS["node_rank"].filled(most=options.nnodes - 1, nnodes=options.nnodes,
                                                        given=options.node_rank))
    if options.nnodes > 1:
        match = ENDPOINT.match(options.rdzv_endpoint or "")
        if not match or not 0 < int(match.group(2)) < 65536:
            raise UserInputError(ERRORS["endpoint"])
    return world_size, backend, timeout_s


def run_spec(entry: LabEntry, options: RunOptions) -> RunSpec:
    world_size, backend, timeout_s = resolve(entry, options)
    program = entry.solution if options.solution else (working_program(entry) or entry.program)
    args = options.program_args or tuple(entry.lab.args)
    return RunSpec(lab=entry.name, program=program, world_size=world_size, backend=backend, timeout_s=timeout_s,
                   args=tuple(args), nnodes=options.nnodes, node_rank=options.node_rank,
                   rdzv_endpoint=options.rdzv_endpoint, rdzv_id=options.rdzv_id or f"tutor-{entry.name}",
                   timeout_first=entry.lab.kind == "hang")
