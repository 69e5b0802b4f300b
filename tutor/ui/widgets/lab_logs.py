"""Live per-rank log panes of a lab run: one pane per rank, plus torchrun's own errors.

The Labs screen calls `reset(world_size)` when a run starts and then `line(rank, text)` and
`progress(rank, step, state)` for each of the runner's events, on the app's thread. Panes are
kept by rank in a dict (not by widget id), so a new run can replace them at once.
"""

from __future__ import annotations

from textual.containers import Horizontal
from textual.widgets import Log

from tutor.ui.guard import Guarded

MAX_LINES = 400
LAUNCHER = -1


class LabLogs(Horizontal, metaclass=Guarded):
    DEFAULT_CSS = """
    LabLogs { height: 1fr; }
    LabLogs Log { width: 1fr; height: 1fr; border: round $secondary; }
    LabLogs Log.-launcher { border: round $warning; }
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.panes: dict[int, Log] = {}
        self.lines: dict[int, int] = {}

    def reset(self, world_size: int) -> None:
        self.remove_children()
        self.panes, self.lines = {}, {}
        for rank in range(world_size):
            self._pane(rank)

    def line(self, rank: int | None, text: str) -> None:
        key = LAUNCHER if rank is None else rank
        self._pane(key).write_line(text)
        self.lines[key] = self.lines.get(key, 0) + 1

    def progress(self, rank: int, step: int | None, state: str) -> None:
        self._pane(rank).border_subtitle = state if step is None else f"{state} · step {step}"

    def _pane(self, key: int) -> Log:
        if key not in self.panes:
            pane = RankLog(key, max_lines=MAX_LINES, classes="-launcher" if key == LAUNCHER else "")
            self.panes[key] = pane
            self.mount(pane)
        return self.panes[key]


def pane_title(key: int, width: int) -> str:
    """'rank 2', or 'r2' where the pane is too narrow for it: four panes at 80 columns read 'rank…'
    each, and which rank was which could not be told (found in tmux)."""
    wide = width <= 0 or width >= 12
    if key == LAUNCHER:
        return "torchrun" if wide else "run"
    return f"rank {key}" if wide else f"r{key}"


class RankLog(Log):
    """One rank's log; its title fits its width."""

    def __init__(self, key: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.key = key
        self.border_title = pane_title(key, 0)

    def on_resize(self) -> None:
        self.border_title = pane_title(self.key, self.outer_size.width)
