"""The interview clock: time left on the stage, which stage, and the mode — always on screen."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tutor.ui.guard import Guarded
from tutor.interview.clock import clock_text

WARN_S = 10.0


class MockTimer(Static, metaclass=Guarded):
    """Shows a session's state; `refresh_from(session, lang)` redraws it (the screen calls it on a tick)."""

    def refresh_from(self, session, labels: dict[str, str]) -> None:
        if session is None or session.current is None:
            self.update(Text(labels.get("idle", ""), style="dim"))
            self.remove_class("-warning", "-over")
            return
        remaining = session.remaining()
        index = session.stages.index(session.current) + 1
        clock = Text(clock_text(remaining), style="bold")
        self.set_class(0 <= remaining <= WARN_S, "-warning")
        self.set_class(remaining < 0, "-over")
        lines = Text.assemble(("⏱ ", "bold"), clock, "\n",
                              (labels["stage"].format(index=index, total=len(session.stages)), ""), "\n",
                              (labels[session.mode], "dim"))
        if session.current.followup:
            lines.append("\n" + labels["followup"], style="italic")
        self.update(lines)
