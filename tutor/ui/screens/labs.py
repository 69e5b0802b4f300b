"""Labs: pick a lab, read its brief, run or check it with every rank's output live, read the evidence.

A run goes in a thread worker that outlives it (the runner's parent-death signal follows the
thread that started the launcher) and iterates the run's events, hopping back to the app with
`guard.from_thread`; leaving the screen, or the app, stops the run (the runner then stops every
process it started). When a run hangs or crashes, the Evidence tab shows the hang view (each
rank's stack, the collectives by position) and a diagnosis line graded against that run; the
first divergence is marked once the learner has answered.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, Markdown, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from tutor.ui.guard import callback, from_thread
from tutor.ui.screens.base import SectionScreen
from tutor.ui.screens.lab_run_control import RunControl
from tutor.ui.screens.labs_experiments import Experiments
from tutor.ui.screens.labs_watch import WatchAndNext
from tutor.ui.screens.labs_text import brief_markdown, kind_name, outcome_text, phase_text
from tutor.ui.widgets.safe import SafeOptionList
from tutor.ui.widgets.text_field import TextField
from tutor.ui.strings import text
from tutor.ui.widgets.footer import TutorFooter
from tutor.ui.widgets.lab_hang import LabHangView
from tutor.ui.widgets.lab_logs import LabLogs
from tutor.ui.widgets.lab_metrics import LabMetrics
from tutor.ui.widgets.prose import Prose

STATUS_MARK = {"new": "·", "started": "◐", "passed": "✓"}


class LabsScreen(WatchAndNext, Experiments, SectionScreen):
    CSS_PATH = "labs.tcss"
    BINDINGS = [
        Binding("f3", "hint", "Hint", id="labs-hint"),
        Binding("f4", "start_copy", "Start", id="labs-start"),
        Binding("f5", "run", "Run", id="labs-run"),
        Binding("f6", "check", "Check lab", id="labs-check"),
        Binding("f7", "stop", "Stop", id="labs-stop"),
        Binding("f8", "toggle_watch", "Watch", id="labs-watch"),
        Binding("f9", "next_lab", "Next lab", id="labs-next"),
        # Perf labs' controlled experiments, as `tutor lab experiment --vary data|ranks` (minor 7).
        # Control keys: a letter typed by mistake (or by the monkey test) must not start two runs.
        Binding("ctrl+d", "experiment('data')", "Vary data", id="labs-vary-data", show=False),
        Binding("ctrl+r", "experiment('ranks')", "Vary ranks", id="labs-vary-ranks", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.labs: dict = {}
        self.status: dict[str, str] = {}
        self.entry = None
        self.hints = 0
        self.run = None
        """The LabRun going now, if any."""
        self.evidence: dict | None = None
        self.check: dict | None = None
        self.revealed = False
        self.verdict: dict | None = None
        self.loaded = False
        self.diagnosed = False
        """Whether the learner has tried a diagnosis of this lab: until then a run shows what the
        tools measured, not the tutor's classification (as `tutor lab run` does, issue 19)."""
        self.experiment: dict | None = None
        """The last controlled experiment's result (as the learner may see it), shown in Evidence."""
        self.watching = False
        """Watch mode: every save of the learner's copy checks it again (`tutor lab check --watch`)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="labs"):
            yield SafeOptionList(id="lab-list")
            with Vertical(id="lab-main"):
                with TabbedContent(id="lab-tabs"):
                    with TabPane("Brief", id="tab-brief"):
                        with VerticalScroll():
                            yield Prose(id="lab-brief")
                    with TabPane("Run", id="tab-run"):
                        yield Static(id="lab-phase")
                        yield LabLogs(id="lab-logs")
                    with TabPane("Evidence", id="tab-evidence"):
                        with VerticalScroll(id="lab-evidence-pane"):
                            yield Static(id="lab-outcome")
                            yield LabMetrics(id="lab-metrics")
                            yield LabHangView(id="lab-hang")
                # The verdict sits right above the answer box, where the learner typed, not at the
                # end of the evidence below the stacks (walkthrough M11).
                with VerticalScroll(id="lab-verdict-pane"):
                    yield Prose(id="lab-verdict")
                yield Static(id="lab-watch")
                yield TextField(id="lab-answer")  # keys repaint it, not the screen (text_field.py)
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#lab-answer").display = False
        self.query_one("#lab-watch").display = False
        self.query_one("#lab-list", OptionList).focus()
        self._load()

    @work(thread=True, exclusive=True, group="labs-load")
    def _load(self) -> None:
        from tutor.labs.catalog import all_labs
        from tutor.labs.history import status as lab_status

        labs, store = all_labs(), self.app.open_store()
        status = {name: lab_status(store, name) for name in labs}
        from_thread(self, self._loaded, labs, status)

    def _loaded(self, labs: dict, status: dict) -> None:
        self.labs, self.status, self.loaded = labs, status, True
        self.render_texts(self.app.lang)
        if labs and self.entry is None:
            self.open_lab(next(iter(labs)))

    # -- what is on screen

    def render_texts(self, lang: str) -> None:
        tabs = self.query_one("#lab-tabs", TabbedContent)
        for pane, key in (("tab-brief", "labs.tab_brief"), ("tab-run", "labs.tab_run"),
                          ("tab-evidence", "labs.tab_evidence")):
            tabs.get_tab(pane).label = text(key, lang)
        listing = self.query_one("#lab-list", OptionList)
        listing.border_title = text("labs.list", lang)
        highlighted = listing.highlighted
        listing.clear_options()
        listing.add_options(Option(_list_prompt(name, entry, self.status.get(name, "new"), lang), id=name)
                            for name, entry in self.labs.items())
        listing.highlighted = highlighted if highlighted is not None else (0 if self.labs else None)
        if self.entry is None:
            self.query_one("#lab-brief", Markdown).update(text("labs.none" if self.loaded else "labs.loading", lang))
            return
        self._show_brief()
        self._show_evidence()

    def _show_brief(self) -> None:
        from tutor.labs.workspace import working_program

        copy = working_program(self.entry)
        self.query_one("#lab-brief", Markdown).update(
            brief_markdown(self.entry, self.app.lang, self.status.get(self.entry.name, "new"), self.hints,
                           str(copy) if copy else None))

    def _show_evidence(self) -> None:
        lang = self.app.lang
        answer = self.query_one("#lab-answer", Input)
        metrics = self.query_one("#lab-metrics", LabMetrics)
        # A hang lab measures nothing: its Evidence tab is the hang view, without an empty panel above.
        metrics.display = self.entry.lab.kind == "perf" or bool(((self.evidence or {}).get("metrics") or {})
                                                                .get("step_time_s"))
        if self.evidence is None:
            metrics.show(None, lang)
            self.query_one("#lab-outcome", Static).update(self._experiment_text() or text("labs.no_run", lang))
            self.query_one("#lab-hang", LabHangView).show(None, lang)
            answer.display = False
            self._show_verdict()  # clears it: one lab's verdict never stays under another (minor 5)
            return
        from tutor.labs.hangreport import view

        shown = self._shown_evidence()
        metrics.show(shown, lang)
        self.query_one("#lab-outcome", Static).update(outcome_text(shown, lang, self.check, self._next_name())
                                                      + self._experiment_text())
        hung = self.evidence["outcome"] in ("hang", "crash")
        self.query_one("#lab-hang", LabHangView).show(view(self.evidence, reveal=self.revealed) if hung else None, lang)
        # A perf lab is diagnosed from a run that finished (its category, its cause), a hang lab
        # from one that hung (minor 7: the app had no diagnosis for perf labs).
        measured = self.entry.lab.kind == "perf" and self.evidence["outcome"] == "ok"
        answer.display = bool(self.entry.lab.diagnosis) and (hung or measured)
        self._fit_answer_hint()
        self.call_after_refresh(self._fit_answer_hint)  # shown just now: measured once laid out
        self._show_verdict()

    def _fit_answer_hint(self) -> None:
        """The diagnosis box's hint, whole: the long one where it fits, else the short one with the
        long one as its tooltip (at 80x24 the perf hint was cut at "what i"; found in tmux). A perf
        lab asks for a category and its evidence, not ranks and lines."""
        if self.entry is None:
            return
        answer, lang = self.query_one("#lab-answer", Input), self.app.lang
        key = "labs.answer_perf" if self.entry.lab.kind == "perf" else "labs.answer"
        full, short = text(key, lang), text(f"{key}.short", lang)
        room = answer.content_region.width
        fits = room <= 0 or cell_len(full) <= room  # not laid out yet: on_resize comes next
        answer.placeholder = full if fits else short
        answer.tooltip = None if fits else full

    def on_resize(self) -> None:
        self._fit_answer_hint()

    def _shown_evidence(self) -> dict | None:
        """The evidence as the learner may see it now: before a diagnosis attempt, what the tools
        measured without the tutor's conclusion (`tutor.labs.report.for_learner`, as the CLI)."""
        from tutor.labs.report import for_learner

        if self.evidence is None or self.diagnosed:
            return self.evidence
        return for_learner(self.app.open_store(), self.evidence, self.entry.name, self.entry.lab.kind)

    def _show_verdict(self) -> None:
        from tutor.interview.review_tasks import lab_feedback_markdown

        self.query_one("#lab-verdict", Markdown).update(
            lab_feedback_markdown((self.verdict.get("by_lang") or {}).get(self.app.lang, self.verdict), self.app.lang)
            if self.verdict else "")
        pane = self.query_one("#lab-verdict-pane", VerticalScroll)
        pane.display = bool(self.verdict)
        pane.scroll_home(animate=False)

    # -- choosing a lab

    @on(OptionList.OptionHighlighted, "#lab-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.entry is None or event.option.id != self.entry.name:
            self.open_lab(event.option.id)

    def open_lab(self, name: str) -> None:
        if self.run is not None:
            return  # the running lab stays on screen until its run ends or is stopped
        if self.watching and (self.entry is None or self.entry.name != name):
            self._stop_watching()
        self.entry, self.hints, self.evidence, self.check, self.verdict, self.revealed = \
            self.labs[name], 0, None, None, None, False
        self.diagnosed, self.experiment = False, None
        self._show_brief()
        self._show_evidence()
        self._latest(name)

    @work(thread=True, exclusive=True, group="labs-latest")
    def _latest(self, name: str) -> None:
        from tutor.labs.hangreport import answered, latest

        from tutor.labs.history import has_diagnosed

        store = self.app.open_store()
        found = latest(store, name)
        diagnosed = has_diagnosed(store, name)
        if found is not None:
            from_thread(self, self._restored, name, found[1], answered(store, name, found[0]), diagnosed)

    def _restored(self, name: str, evidence: dict, answered: bool, diagnosed: bool) -> None:
        if self.entry is not None and self.entry.name == name and self.evidence is None and self.run is None:
            self.evidence, self.revealed, self.diagnosed = evidence, answered, diagnosed
            self._show_evidence()

    # -- the keys

    def _lab_open(self) -> bool:
        """Whether a lab is open for a key to act on; if not, say why. F5 pressed while the list
        was still loading did nothing and said nothing (issue 16)."""
        if self.entry is not None:
            return True
        self.notify(text("labs.still_loading" if not self.loaded else "labs.none", self.app.lang))
        return False

    def action_hint(self) -> None:
        if not self._lab_open():
            return
        if self.hints < len(self.entry.lab.hints):
            self.hints += 1
            self._show_brief()
            self.query_one("#lab-tabs", TabbedContent).active = "tab-brief"
        else:
            self.notify(text("labs.no_hints", self.app.lang))

    def action_start_copy(self) -> None:
        from tutor.labs.workspace import start

        if not self._lab_open():
            return
        path, created = start(self.entry)
        # markup=False: the path is the learner's folder, which may hold "[" (a str toast is markup).
        self.notify(text("labs.started" if created else "labs.already", self.app.lang, path=path), markup=False)
        if self.status.get(self.entry.name, "new") == "new":
            self.status[self.entry.name] = "started"
        self.render_texts(self.app.lang)

    def action_run(self) -> None:
        self._launch("run")

    def action_check(self) -> None:
        self._launch("check")

    def action_stop(self) -> None:
        if self.run is None:
            self.notify(text("labs.idle", self.app.lang))
        else:
            self.run.cancel()

    def _launch(self, action: str) -> None:
        if not self._lab_open():
            return
        if self.run is not None:
            self.notify(text("labs.busy", self.app.lang), severity="warning")
            return
        from tutor.errors import TutorError
        from tutor.labs.run_options import RunOptions, resolve
        from tutor.labs.launch import require_torch

        entry = self.entry
        try:
            require_torch()
            # Refused here, in one line, as the CLI does: a GPU-only lab on a machine without
            # CUDA GPUs, or options the lab cannot take (walkthrough B2 and minor 6). A check is at
            # every rank count the lab supports, as `tutor lab check` does.
            sizes = entry.world_sizes if action == "check" else [resolve(entry, RunOptions())[0]]
            for size in sizes:
                resolve(entry, RunOptions(world_size=size))
        except TutorError as error:
            self.notify(error.text(self.app.lang), severity="error", markup=False)
            return
        self.evidence, self.check, self.verdict, self.revealed = None, None, None, False
        self.query_one("#lab-logs", LabLogs).reset(sizes[0])
        self.query_one("#lab-tabs", TabbedContent).active = "tab-run"
        self._show_evidence()
        self.run = RunControl()
        self._execute(entry, action, sizes, self.run)

    @work(thread=True, exclusive=True, group="labs-run")
    def _execute(self, entry, action: str, sizes: list, control: "RunControl") -> None:
        """The run or the check, by `tutor.actions.labs` (which records it); this only shows it."""
        from tutor.actions import labs as lab_actions
        from tutor.labs.run_options import RunOptions

        def on_run(run) -> None:
            if control.current is not None:  # the next rank count: fresh panes
                from_thread(self, self._reset_logs, run.spec.world_size)
            control.attach(run)

        def on_event(event) -> None:
            from_thread(self, self._on_event, self._action_name(action, control.current.spec.world_size, sizes), event)

        evidence, check, diagnosed, store = None, None, False, self.app.open_store()
        try:
            if action == "check":
                check = lab_actions.check(entry, RunOptions(), store=store, on_event=on_event,
                                          on_run=on_run, cancelled=lambda: control.cancelled)
                evidence = check["evidence"]
            else:
                evidence = lab_actions.run(entry, RunOptions(), store=store, on_event=on_event, on_run=on_run)
            from tutor.labs.history import has_diagnosed

            diagnosed = has_diagnosed(store, entry.name)
        finally:
            self.run = None  # also after an error: the screen must not stay "busy" forever
            control.done = True
        from_thread(self, self._finished, entry, evidence, check, diagnosed)

    def _reset_logs(self, world_size: int) -> None:
        self.query_one("#lab-logs", LabLogs).reset(world_size)

    def _action_name(self, action: str, world_size: int, sizes: list) -> str:
        if len(sizes) < 2:
            return action
        return text("labs.check_at", self.app.lang, ranks=world_size, sizes=", ".join(str(size) for size in sizes))

    @callback
    def _on_event(self, action: str, event) -> None:
        from tutor.labs.runner import LogLine, Phase, RankProgress

        logs = self.query_one("#lab-logs", LabLogs)
        if isinstance(event, LogLine) and (event.rank is not None or event.text.startswith(("E", "ERROR"))):
            logs.line(event.rank, event.text)
        elif isinstance(event, RankProgress):
            logs.progress(event.rank, event.step, event.state)
        elif isinstance(event, Phase):
            self.query_one("#lab-phase", Static).update(phase_text(action, event.name, event.detail, self.app.lang))

    def _finished(self, entry, evidence: dict, check: dict | None, diagnosed: bool = False) -> None:
        passed = check is not None and check["passed"]
        if passed:
            self.status[entry.name] = "passed"
            self.render_texts(self.app.lang)
        if self.entry is not entry:
            return
        self.evidence, self.check, self.diagnosed = evidence, check, diagnosed
        self._show_evidence()
        if passed:
            following = self._next_name()
            self.notify(text("labs.passed_next", self.app.lang, lab=following) if following
                        else text("labs.all_passed", self.app.lang))
        self.query_one("#lab-tabs", TabbedContent).active = "tab-evidence"
        answer = self.query_one("#lab-answer", Input)
        if answer.display:
            answer.focus()  # after a hang, what the learner types next is the diagnosis (M11)

    # -- the diagnosis

    @on(Input.Submitted, "#lab-answer")
    def _answered(self, event: Input.Submitted) -> None:
        lang = self.app.lang
        if self.entry is None or not self.entry.lab.diagnosis:
            self.notify(text("labs.no_diagnosis", lang))
            return
        if self.evidence is None:
            self.notify(text("labs.answer_after_run", lang))
            return
        if not event.value.strip():
            self.notify(text("labs.empty_answer", lang), severity="warning")
            return
        self._grade(self.entry, event.value, self.evidence, lang)

    @work(thread=True, exclusive=True, group="labs-grade")
    def _grade(self, entry, answer: str, evidence: dict, lang: str) -> None:
        from tutor.actions.labs import diagnose
        from tutor.labs.diagnose import grade_lab

        # Graded (as the CLI and the review queue do) against the run on screen, recorded, reviewed.
        verdict = diagnose(self.app.open_store(), entry, answer, lang, evidence=evidence)
        # The feedback's words in the other language as well, so that F2 redraws the verdict rather
        # than leave it in the language it was typed in (issue 16); the recorded result is this one.
        other = "zh" if lang == "en" else "en"
        verdicts = {lang: verdict, other: {**grade_lab(list(entry.lab.diagnosis), answer, evidence, other),
                                           "correct": verdict["correct"], "score": verdict["score"]}}
        from_thread(self, self._graded, entry, verdicts)

    def _graded(self, entry, verdicts: dict) -> None:
        """`verdicts`: the verdict by language ({"en": …, "zh": …}), or one verdict for every language."""
        if "feedback" in verdicts:
            verdicts = {"en": verdicts, "zh": verdicts}
        if self.entry is entry:
            verdict = verdicts.get(self.app.lang) or next(iter(verdicts.values()))
            self.verdict, self.revealed, self.diagnosed = {**verdict, "by_lang": verdicts}, True, True
            self._show_evidence()
            self.query_one("#lab-tabs", TabbedContent).active = "tab-evidence"

    # -- leaving

    def busy_with(self, lang: str) -> str | None:
        return text("labs.busy_quit", lang, lab=self.entry.name) if self.run is not None and self.entry else None

    def on_screen_suspend(self) -> None:
        if self.run is not None:
            self.run.cancel()
        if self.watching:
            self._stop_watching()

    def on_unmount(self) -> None:
        if self.run is not None:
            self.run.cancel()


def _list_prompt(name: str, entry, status: str, lang: str) -> Text:
    """Two lines per lab: its status mark and name (GPU-only labs say so), then its kind and title."""
    prompt = Text(f"{STATUS_MARK[status]} {name}")
    if entry.lab.gpu_only:
        prompt.append(f" {text('labs.gpu_only', lang)}", style="bold yellow")
    prompt.append(f"\n  {kind_name(entry.lab.kind, lang)} · {entry.lab.title.get(lang)}", style="dim")
    return prompt
