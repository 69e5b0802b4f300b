"""The Labs screen's controlled experiments for perf labs (ctrl+d: synthetic data, ctrl+r: one rank
and all of them), as `tutor lab experiment --vary data|ranks` runs them.

A mixin of `LabsScreen`, which holds the state it reads (`entry`, `run`, `experiment`) and the
panes it updates (`_reset_logs`, `_on_event`, `_show_evidence`).
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.widgets import TabbedContent

from tutor.ui.guard import from_thread
from tutor.ui.screens.lab_run_control import RunControl
from tutor.ui.strings import text
from tutor.ui.widgets.lab_logs import LabLogs


class Experiments:
    def action_experiment(self, variable: str) -> None:
        """d: the same program with synthetic data; r: on one rank and on all of them."""
        if not self._lab_open():
            return
        if self.entry.lab.kind != "perf":
            self.notify(text("labs.no_experiment", self.app.lang), severity="warning")
            return
        if self.run is not None:
            self.notify(text("labs.busy", self.app.lang), severity="warning")
            return
        from tutor.errors import TutorError
        from tutor.labs.run_options import RunOptions, resolve
        from tutor.labs.launch import require_torch

        try:
            require_torch()
            _, backend, _ = resolve(self.entry, RunOptions())  # the GPU-only refusal, in one line
        except TutorError as error:
            self.notify(error.text(self.app.lang), severity="error", markup=False)
            return
        self.run = RunControl()
        self.query_one("#lab-logs", LabLogs).reset(self.entry.lab.world_size)
        self.query_one("#lab-tabs", TabbedContent).active = "tab-run"
        self.notify(text("labs.experiment_started", self.app.lang, variable=variable))
        self._experiment(self.entry, variable, RunOptions(backend=backend), self.run)

    @work(thread=True, exclusive=True, group="labs-experiment")
    def _experiment(self, entry, variable: str, options, control: "RunControl") -> None:
        from tutor.labs.experiments import for_learner, vary_data, vary_ranks

        def on_event(event) -> None:
            from tutor.labs.runner import Phase

            if isinstance(event, Phase) and event.name == "launching":  # the second run: fresh panes
                from_thread(self, self._reset_logs, control.current.spec.world_size)
            from_thread(self, self._on_event, f"experiment {variable}", event)

        try:
            vary = vary_data if variable == "data" else vary_ranks
            measured = vary(entry, options, on_event=on_event, on_run=control.attach)
            result = for_learner(self.app.open_store(), measured, entry.name)
        finally:
            self.run = None
            control.done = True
        from_thread(self, self._experimented, entry, result, control.cancelled)

    def _experimented(self, entry, result: dict, stopped: bool = False) -> None:
        if stopped:
            self.notify(text("labs.experiment_stopped", self.app.lang))
        if self.entry is not entry:
            return
        self.experiment = result
        self._show_evidence()
        self.query_one("#lab-tabs", TabbedContent).active = "tab-evidence"

    def _experiment_text(self) -> Text:
        from tutor.labs.experiments import experiment_text

        if self.experiment is None:
            return Text("")
        shown = Text(f"\n{text('labs.experiment', self.app.lang)}\n", style="bold")
        shown.append("\n".join(experiment_text(self.experiment)) + "\n")
        return shown
