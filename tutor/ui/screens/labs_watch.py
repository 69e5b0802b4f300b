"""The Labs screen's rustlings loop: watch mode (F8: check again on each save of the learner's
copy, as `tutor lab run --watch` does) and the next lab not passed yet (F9).

A mixin of `LabsScreen`, which holds the state it reads (`entry`, `labs`, `status`, `run`,
`watching`) and the run it starts (`_launch`).
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList, Static, TabbedContent

from tutor.ui.guard import callback
from tutor.ui.strings import text


class WatchAndNext:
    def action_toggle_watch(self) -> None:
        """F8: check the learner's copy again each time it is saved, until F8 again or another lab."""
        from tutor.labs.workspace import working_program

        if not self._lab_open():
            return
        if self.watching:
            self._stop_watching()
            self.notify(text("labs.watch_off", self.app.lang))
            return
        if working_program(self.entry) is None:
            self.notify(text("labs.watch_needs_copy", self.app.lang), severity="warning")
            return
        from tutor.labs.watch import POLL_S, snapshot
        from tutor.labs.workspace import watched_files

        self.watching = True
        self._watched = snapshot(watched_files(self.entry))
        # A timer, not a worker: a stat of the copy's few files twice a second costs microseconds,
        # and a worker that never ends would keep "wait for the workers" waiting forever.
        self._watch_timer = self.set_interval(POLL_S, self._poll_watch)
        self._show_watch()

    def _stop_watching(self) -> None:
        self.watching = False
        timer = getattr(self, "_watch_timer", None)
        if timer is not None:
            timer.stop()
            self._watch_timer = None
        self._show_watch()

    @callback
    def _poll_watch(self) -> None:
        from tutor.labs.watch import snapshot
        from tutor.labs.workspace import watched_files

        if not self.watching or self.entry is None:
            return
        now = snapshot(watched_files(self.entry))
        if now != self._watched:
            changed = sorted(path.name for path in set(now) | set(self._watched)
                             if now.get(path) != self._watched.get(path))
            self._watched = now
            self._saved(self.entry, changed)

    def _show_watch(self) -> None:
        from tutor.labs.workspace import watched_files

        line = self.query_one("#lab-watch", Static)
        line.display = self.watching
        if self.watching and self.entry is not None:
            names = ", ".join(path.name for path in watched_files(self.entry))
            # Content, not a str: the learner names these files, and a str here is read as markup.
            line.update(Content(text("labs.watching", self.app.lang, files=names[:120])))

    def _saved(self, entry, names: list[str]) -> None:
        """A save while watching: check again, or say why not (a run is still going)."""
        if not self.watching or self.entry is not entry:
            return
        if self.run is not None:
            self.notify(text("labs.saved_busy", self.app.lang, files=", ".join(names)), severity="warning",
                        markup=False)
            return
        self.notify(text("labs.saved", self.app.lang, files=", ".join(names)), markup=False)
        self._launch("check")

    def _next_name(self) -> str | None:
        """The next lab in the list not passed yet, after this one (then from the top), or None."""
        names = list(self.labs)
        if self.entry is None or self.entry.name not in names:
            return None
        start = names.index(self.entry.name)
        for name in names[start + 1:] + names[:start]:
            if self.status.get(name) != "passed" and not self.labs[name].lab.gpu_only:
                return name
        return None

    def action_next_lab(self) -> None:
        """F9: on to the next lab not passed yet, as rustlings moves on after a pass."""
        if self.run is not None:
            self.notify(text("labs.busy", self.app.lang), severity="warning")
            return
        if not self._lab_open():
            return  # not "every lab is passed" while the list is still loading
        following = self._next_name()
        if following is None:
            self.notify(text("labs.all_passed", self.app.lang))
            return
        listing = self.query_one("#lab-list", OptionList)
        listing.highlighted = listing.get_option_index(following)  # opens it (OptionHighlighted)
        self.open_lab(following)
        self.query_one("#lab-tabs", TabbedContent).active = "tab-brief"
