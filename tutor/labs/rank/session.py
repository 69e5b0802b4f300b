"""This rank's identity and event writer, shared by boot, context, recorder and dumps.

No torch here: boot creates the session before the program (and torch) is imported, so the
runner learns the rank's pid within milliseconds of its start.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tutor.labs.events import RUN_DIR_ENV, EventWriter


@dataclass
class Session:
    rank: int
    local_rank: int
    world_size: int
    local_world_size: int
    run_dir: Path | None
    writer: EventWriter

    def emit(self, kind: str, **fields: object) -> None:
        self.writer.emit(kind, **fields)


_current: Session | None = None


def current() -> Session:
    """The session of this process, created from torchrun's environment on first use."""
    global _current
    if _current is None:
        rank = int(os.environ.get("RANK", "0"))
        run_dir = os.environ.get(RUN_DIR_ENV) or None
        _current = Session(
            rank=rank,
            local_rank=int(os.environ.get("LOCAL_RANK", "0")),
            world_size=int(os.environ.get("WORLD_SIZE", "1")),
            local_world_size=int(os.environ.get("LOCAL_WORLD_SIZE", "1")),
            run_dir=Path(run_dir) if run_dir else None,
            writer=EventWriter(run_dir, rank),
        )
    return _current


def under_torchrun() -> bool:
    return "RANK" in os.environ and "WORLD_SIZE" in os.environ
