"""Mock interview: pick a format, answer timed stages with the clock always in view, read the report.

Strict mode: no hints, no lesson, no verdicts until the report, and an answer is taken as it
stands when the stage's time is up. Practice mode: hints (F3), the lesson section (F5), a verdict
after each answer (F6 goes on), and the clock may run over. Each stage is stored as it ends, so
quitting keeps the interview: the next visit offers to resume it or record it as abandoned.
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Markdown, OptionList
from textual.widgets.option_list import Option

from tutor.interview.clock import Clock, SystemClock, clock_text
from tutor.ui.guard import callback, from_thread
from tutor.ui.screens.answering import SubmitsAnswer
from tutor.ui.screens.base import SectionScreen
from tutor.ui.screens.mock_text import STAGE_LABELS, export_report, lesson_markdown, report_text, stage_text
from tutor.ui.widgets.safe import SafeOptionList
from tutor.ui.strings import text
from tutor.ui.widgets.footer import TutorFooter
from tutor.ui.widgets.answer_box import AnswerBox
from tutor.ui.widgets.mock_resume import ResumeDialog
from tutor.ui.widgets.mock_timer import MockTimer
from tutor.ui.widgets.prose import Prose

TICK_S = 0.25


class MockScreen(SubmitsAnswer, SectionScreen):
    """The formats on the left with the clock under them; the stage, the answer and the verdict on the right."""

    CSS_PATH = "mock.tcss"
    ANSWER_BOX = "#mock-answer"
    EMPTY_ANSWER = "mock.empty"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="mock-submit", priority=True),
        Binding("f3", "hint", "Hint", id="mock-hint"),
        Binding("f4", "toggle_mode", "Strict/practice", id="mock-mode"),
        Binding("f5", "lesson", "Lesson", id="mock-lesson"),
        Binding("f6", "next", "Next question", id="mock-next"),
        Binding("f8", "export", "Export report", id="mock-export"),
        Binding("f9", "end", "End interview", id="mock-end"),
        # Enter on the intro pane (Tab from the format list lands there) starts the highlighted
        # format: it did nothing, and the answer typed next went out as hotkeys (walkthrough M10).
        # A field's or the list's own Enter comes first; this one only reaches the screen from the pane.
        Binding("enter", "start_highlighted", show=False, id="mock-start-highlighted"),
    ]

    def __init__(self, clock: Clock | None = None):
        super().__init__()
        self.clock = clock or SystemClock()
        self.session = None
        self.mode = "strict"
        self.report: dict | None = None
        self.verdict_pending = None
        """Practice mode: the stage just graded, shown until F6 moves on."""
        self._busy = False
        self._aside: tuple[str, object] | None = None  # the hints or lesson section on screen, if any

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="mock"):
            with Vertical(id="mock-side"):
                yield SafeOptionList(id="mock-formats")
                yield MockTimer(id="mock-timer")
            with Vertical(id="mock-main"):
                with VerticalScroll(id="mock-pane"):
                    yield Prose(id="mock-question")
                    yield Prose(id="mock-hints")
                    yield Prose(id="mock-verdict")
                yield AnswerBox(id="mock-answer")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#mock-answer").display = False
        self.set_interval(TICK_S, self.tick)
        self.query_one("#mock-formats", OptionList).focus()
        self._check_interrupted(None)

    # -- what is on screen

    def render_texts(self, lang: str) -> None:
        from tutor.interview.formats import FORMATS

        listing = self.query_one("#mock-formats", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        listing.add_options(Option(f"[b]{spec.label(lang)}[/b]\n[dim]{clock_text(spec.total_s)} · "
                                   f"{spec.blurb.get(lang)}[/dim]", id=format_id)
                            for format_id, spec in FORMATS.items())
        listing.highlighted = highlighted or 0
        listing.border_title = text("mock.formats", lang)
        listing.border_subtitle = text("mock.mode", lang, mode=text(f"mock.{self.mode}", lang))
        self.tick()
        question = self.query_one("#mock-question", Markdown)
        if self.report is not None:
            # The stages table reflows as a list when the pane is narrower than it: at 80 columns
            # its "#" column was squeezed empty (walkthrough minor 19).
            from tutor.ui.screens.lesson_tables import fit_tables

            width = self.query_one("#mock-pane").size.width - 2
            body = report_text(self.report, lang)
            question.update(fit_tables(body, width) if width > 0 else body)
            self.query_one("#mock-verdict", Markdown).update(f"*{text('mock.report_keys', lang)}*")
        elif self.verdict_pending is not None:
            question.update(stage_text(self.session, lang, self.verdict_pending.stage))
            self._show_verdict(lang)
            self._show_aside(lang)
        elif self.session is None or self.session.current is None:
            question.update(text("mock.intro", lang))
        else:
            question.update(stage_text(self.session, lang))
            self.query_one("#mock-answer", AnswerBox).relabel(self.session.step(), lang)
            self._show_aside(lang)

    def tick(self) -> None:
        """Redraw the clock; in strict mode, take the answer as it stands when time is up."""
        lang = self.app.lang
        labels = {key: text(name, lang) for key, name in STAGE_LABELS.items()}
        waiting = self.verdict_pending is not None
        if waiting:
            labels["idle"] = text("mock.report_next" if self.session.done else "mock.next", lang)
        self.query_one("#mock-timer", MockTimer).refresh_from(None if waiting else self.session, labels)
        if self.session is not None and self.session.mode == "strict" and self.session.time_up and not self._busy:
            self.notify(text("mock.time_up", lang), severity="warning")
            self._submit(self.query_one("#mock-answer", AnswerBox).answer(), timed_out=True)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        running = self.session is not None and self.session.current is not None
        practice = running and self.session.mode == "practice"
        allowed = {"submit": running and self.verdict_pending is None, "hint": practice, "lesson": practice,
                   "next": self.verdict_pending is not None, "export": self.report is not None, "end": running,
                   "toggle_mode": not running}
        return allowed.get(action, True)

    # -- starting, resuming

    @on(OptionList.OptionSelected, "#mock-formats")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if self.session is not None and self.session.current is not None:
            self.notify(text("mock.running", self.app.lang), severity="warning")
            return
        self._check_interrupted(event.option.id)

    def action_start_highlighted(self) -> None:
        if self.session is not None or self.report is not None:
            return  # an interview is on screen, or its report: Enter there starts nothing new
        listing = self.query_one("#mock-formats", OptionList)
        if listing.highlighted is not None:
            self._check_interrupted(listing.get_option_at_index(listing.highlighted).id)

    @work(thread=True, exclusive=True, group="mock")
    def _check_interrupted(self, then_start: str | None) -> None:
        from tutor.actions import mock

        store = self.app.open_store()
        waiting = mock.waiting(store) if store is not None else []
        if waiting and (self.session is None or self.session.id != waiting[0]["id"]):
            from_thread(self, self._offer_resume, waiting[0])
        elif then_start is not None:
            self._start(then_start)

    def _offer_resume(self, entry: dict) -> None:
        from tutor.interview.formats import FORMATS

        lang = self.app.lang
        message = text("mock.resume", lang, format=FORMATS[entry["format"]].label(lang), id=entry["id"],
                       started=entry["started_at"].replace("T", " ").replace("+00:00", " UTC"),
                       answered=entry["answered"], stages=entry["stages"])
        dialog = ResumeDialog(message, text("mock.resume_button", lang), text("mock.abandon_button", lang))
        self.app.push_screen(dialog, lambda choice: self._resolve(entry["id"], choice))

    @work(thread=True, exclusive=True, group="mock")
    def _resolve(self, session_id: int, choice: str) -> None:
        from tutor.actions import mock
        from tutor.interview.scenarios import Library

        if choice not in ("resume", "abandon"):
            return
        store = self.app.open_store()
        if choice == "abandon":
            mock.abandon(store, Library.installed(), session_id, self.clock)
            self.app.call_from_thread(self.notify, text("mock.abandoned", self.app.lang))
            return
        session = mock.resume(store, Library.installed(), session_id, self.clock)
        from_thread(self, self._opened, session)

    def _start(self, format_id: str) -> None:
        """Called in the worker thread: write the new session, then show its first stage."""
        from tutor.actions import mock
        from tutor.interview.scenarios import Library
        from tutor.interview.session import SessionError

        store = self.app.open_store()
        if store is None:
            self.app.call_from_thread(self.notify, text("home.store_error", self.app.lang, error=self.app.store_error),
                                      severity="error")
            return
        try:
            session = mock.start(store, Library.installed(), format_id, self.mode, self.clock)
        except SessionError as error:
            self.app.call_from_thread(self.notify, str(error), severity="error")
            return
        from_thread(self, self._opened, session)

    def _opened(self, session) -> None:
        self.session, self.report, self.verdict_pending, self._busy = session, None, None, False
        self._begin_stage()

    def _running_layout(self, running: bool) -> None:
        """While an interview runs the format list goes and the clock panel narrows: at 80x24 the
        stage's text and its options then have the room (walkthrough minor 18: 2 of 4 options)."""
        self.query_one("#mock-side").set_class(running, "-running")
        self._report_layout()

    def _report_layout(self) -> None:
        """A report on a narrow terminal takes the room from the format list (30 columns, not 40):
        at 80×24 the report had 37 columns and its stages table was squeezed (issue 16)."""
        self.query_one("#mock-side").set_class(self.report is not None and 0 < self.size.width < 100, "-report")

    def on_resize(self) -> None:
        self._report_layout()
        if self.report is not None:
            self.render_texts(self.app.lang)  # the stages table reflowed for the new width

    def _begin_stage(self) -> None:
        lang = self.app.lang
        self._running_layout(True)
        box = self.query_one("#mock-answer", AnswerBox)
        box.display = True
        box.prepare(self.session.step(), lang)
        self._aside = None
        self.query_one("#mock-hints", Markdown).update("")
        self.query_one("#mock-verdict", Markdown).update("")
        self.session.begin()
        self.tick()
        self.refresh_bindings()
        box.focus_input()
        self.call_later(self._put_stage, stage_text(self.session, lang))

    @callback
    async def _put_stage(self, body: str) -> None:
        """The new stage from its top, once laid out: scrolled at once, the pane kept the end of the
        last stage's stack dumps (walkthrough minor 18)."""
        await self.query_one("#mock-question", Markdown).update(body)
        pane = self.query_one("#mock-pane", VerticalScroll)
        pane.scroll_home(animate=False)
        self.call_after_refresh(lambda: pane.scroll_home(animate=False))

    # -- answering

    def accepts_answer(self) -> bool:
        return not (self.session is None or self.session.current is None or self._busy
                    or self.verdict_pending is not None)

    def submit_answer(self, answer: str) -> None:
        self._submit(answer, timed_out=False)

    def _submit(self, answer: str, timed_out: bool) -> None:
        self._busy = True
        self._grade(answer, timed_out, self.app.lang)

    @work(thread=True, exclusive=True, group="mock")
    def _grade(self, answer: str, timed_out: bool, lang: str) -> None:
        from tutor.actions import mock

        result = mock.answer(self.session, answer, timed_out=timed_out, lang=lang)
        from_thread(self, self._graded, result)

    def _graded(self, result) -> None:
        self._busy = False
        if self.session.mode == "practice":
            self.verdict_pending = result
            self.query_one("#mock-answer", AnswerBox).display = False
            self._show_verdict(self.app.lang)
            self.refresh_bindings()
        elif self.session.done:
            self._show_report(self.session.report)
        else:
            # Short-lived: the toast sits over the next stage's answer box.
            self.notify(text("mock.recorded", self.app.lang, used=clock_text(result.elapsed_s),
                             budget=clock_text(result.stage.budget_s)), timeout=2.5)
            self._begin_stage()

    def _show_verdict(self, lang: str) -> None:
        from tutor.interview.present import verdict_markdown
        from tutor.ui import plain_markdown

        result = self.verdict_pending
        following = text("mock.report_next", lang) if self.session.done else text("mock.next", lang)
        self.tick()
        self.call_later(self._put_verdict, f"{verdict_markdown(plain_markdown.verdict(result.verdict), lang)}\n"
                                           f"*{following}*")

    @callback
    async def _put_verdict(self, body: str) -> None:
        """Show the verdict, then bring it into view once laid out (scrolled before, the pane stopped
        above it, under a stage's stack dumps: walkthrough minor 18)."""
        verdict = self.query_one("#mock-verdict", Markdown)
        await verdict.update(body)
        pane = self.query_one("#mock-pane", VerticalScroll)
        self.call_after_refresh(lambda: pane.scroll_to_widget(verdict, animate=False, top=True))

    def action_next(self) -> None:
        if self.verdict_pending is None:
            return
        self.verdict_pending = None
        if self.session.done:
            self._show_report(self.session.report)
        else:
            self._begin_stage()

    def action_hint(self) -> None:
        hint = self.session.hint() if self.session is not None else None
        if hint is None:
            self.notify(text("mock.no_more_hints", self.app.lang))
            return
        self._aside = ("hints", list(self.session.shown_hints()))  # this stage's, kept past its verdict
        self._show_aside(self.app.lang)

    def action_lesson(self) -> None:
        section = self.session.lesson_section() if self.session is not None else None
        if section is not None:
            self._aside = ("lesson", section)
            self._show_aside(self.app.lang)

    def _show_aside(self, lang: str) -> None:
        """The hints or the lesson section asked for in this stage, in `lang` (F2 redraws them: they
        stayed in the language they were asked in, issue 16)."""
        kind, shown = self._aside or (None, None)
        pane = self.query_one("#mock-hints", Markdown)
        if kind == "hints":
            lines = [f"{index + 1}. {item.get(lang)}" for index, item in enumerate(shown)]
            pane.update(f"**{text('practice.hints', lang)}**\n\n" + "\n".join(lines))
        elif kind == "lesson":
            pane.update(lesson_markdown(self.app, shown, lang))

    def busy_with(self, lang: str) -> str | None:
        if self.session is None or self.session.current is None:
            return None
        return text("mock.busy_quit", lang)

    def action_end(self) -> None:
        """F9 asks first: ending scores every stage not reached as 0 (walkthrough minor 13)."""
        from tutor.ui.widgets.confirm import ConfirmDialog

        if self.session is None or self.session.current is None:
            return
        lang = self.app.lang
        from tutor.actions import mock

        early = mock.ends_early(self.session)
        message = text("mock.end_confirm_early" if early else "mock.end_confirm", lang)
        self.app.push_screen(ConfirmDialog(message, text("mock.end_yes", lang), text("mock.end_no", lang)),
                             lambda yes: self._end(self.session) if yes else None)

    @work(thread=True, exclusive=True, group="mock")
    def _end(self, session) -> None:
        """Finish the interview; one ended in its first minute is recorded as abandoned instead, so
        an accidental start does not spoil the trend (its answers are kept all the same)."""
        if session is None or session is not self.session or session.current is None:
            return
        from tutor.actions import mock

        report, early = mock.end(session)
        if early:
            self.app.call_from_thread(self.notify, text("mock.ended_early", self.app.lang))
        from_thread(self, self._show_report, report)

    def _show_report(self, report: dict) -> None:
        self.report, self.session, self.verdict_pending = report, None, None
        self._running_layout(False)
        self.call_after_refresh(self.render_texts, self.app.lang)  # the table fitted to the pane's new width
        self.query_one("#mock-answer", AnswerBox).display = False
        self._aside = None
        self.query_one("#mock-hints", Markdown).update("")
        self.render_texts(self.app.lang)
        self.refresh_bindings()
        self.query_one("#mock-formats", OptionList).focus()
        self.query_one("#mock-pane", VerticalScroll).scroll_home(animate=False)

    def action_export(self) -> None:
        if self.report is None:
            return
        try:
            target = export_report(self.report, self.app.lang)
        except OSError as error:
            self.notify(str(error), severity="error", markup=False)  # it quotes the data folder's path
            return
        self.notify(text("mock.exported", self.app.lang, path=str(target)), markup=False)

    def action_toggle_mode(self) -> None:
        self.mode = "practice" if self.mode == "strict" else "strict"
        self.render_texts(self.app.lang)
