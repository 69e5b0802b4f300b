"""Watch mode: rerun when the learner saves a file.

Hand-written polling of modification times rather than a file-watching library: the working
copy is one to a few small files, so a stat twice a second costs nothing, behaves the same on
every platform and editor (including those that save by rename), and adds no dependency.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

POLL_S = 0.5


def snapshot(paths: Iterable[Path]) -> dict[Path, tuple[int, int]]:
    found = {}
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            continue
        found[path] = (stat.st_mtime_ns, stat.st_size)
    return found


def wait_for_change(list_files: Callable[[], list[Path]], poll_s: float = POLL_S,
                    stop: Callable[[], bool] = lambda: False) -> list[Path]:
    """Block until a file is added, removed or modified; returns the changed paths."""
    before = snapshot(list_files())
    while not stop():
        time.sleep(poll_s)
        after = snapshot(list_files())
        if after != before:
            return sorted(path for path in set(before) | set(after) if before.get(path) != after.get(path))
    return []
