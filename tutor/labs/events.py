"""The event files a lab run leaves behind: one JSON line per event, one file per rank.

Rank processes append (`EventWriter`); the runner tails the files while they grow
(`EventTail`). Files rather than a pipe because torchrun owns the ranks' standard streams,
because they survive a rank that is killed (the last line written is the last thing it did),
and because they work the same on every node of a multi-node run. Standard library only:
both the rank side and the core import this module.

Event kinds (field `ev`): `boot` (pid, rank, host), `ready` (backend, world_size),
`step` (step), `coll` / `coll_end` (a collective entered / returned; see rank/recorder.py),
`report` (metrics), `verify` (a self-check of the program), `check` / `measure` (the lab's
checker), `verdict`, `exception`, `dump` (evidence written on request), `exit`.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

RUN_DIR_ENV = "TUTOR_LAB_RUN_DIR"
DUMP_REQUEST = "dump.request"
FAILURE_RELEASE = "failure.collected"
"""Written by the runner once it has every rank's stack after a rank failed; the failed rank
holds its exit until then (rank/boot.py), so the others are still waiting where they were."""


def event_file(run_dir: Path, rank: int) -> Path:
    return Path(run_dir) / f"rank{rank}.jsonl"


class EventWriter:
    """Appends events for one rank; a no-op when the program runs outside the tutor."""

    def __init__(self, run_dir: str | os.PathLike | None, rank: int):
        self.rank = rank
        self._lock = threading.Lock()
        self._file = None
        if run_dir:
            # Line-buffered append: each event reaches the file in one write, so a rank that is
            # killed mid-run leaves whole lines behind.
            self._file = open(event_file(Path(run_dir), rank), "a", buffering=1, encoding="utf-8")

    @property
    def enabled(self) -> bool:
        return self._file is not None

    def emit(self, kind: str, **fields: object) -> None:
        if self._file is None:
            return
        line = json.dumps({"ev": kind, "t": time.time(), **fields}, default=str, ensure_ascii=False)
        with self._lock:
            self._file.write(line + "\n")


class EventTail:
    """Reads the complete lines appended to one event file since the last call."""

    def __init__(self, path: Path):
        self.path = path
        self._offset = 0
        self._partial = b""

    def read_new(self) -> list[dict]:
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self._offset)
                chunk = handle.read()
        except FileNotFoundError:
            return []
        self._offset += len(chunk)
        data = self._partial + chunk
        lines = data.split(b"\n")
        self._partial = lines.pop()  # an unfinished last line waits for the next read
        events = []
        for line in lines:
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue  # a line torn by a kill; the rest of the file is still good
            if isinstance(event, dict) and "ev" in event:
                events.append(event)
        return events


def read_all(path: Path) -> list[dict]:
    return EventTail(path).read_new()
