"""Practice: pick a question, answer it in the input its kind needs, get the verdict at once."""

from __future__ import annotations

import random
import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, Markdown, OptionList
from textual.widgets.option_list import Option

from tutor.ui.guard import callback, from_thread
from tutor.ui.screens.answering import SubmitsAnswer
from tutor.ui.screens.base import SectionScreen
from tutor.ui.screens.practice_view import hints_markdown, question_markdown, verdict_markdown
from tutor.ui.widgets.safe import SafeOptionList
from tutor.ui.strings import text
from tutor.ui.widgets.footer import TutorFooter
from tutor.ui.widgets.answer_box import AnswerBox
from tutor.ui.widgets.prose import Prose
from tutor.ui.widgets.text_field import TextField

STATUS_MARK = {True: "✓", False: "✗", None: "·"}


class PracticeScreen(SubmitsAnswer, SectionScreen):
    """Questions on the left; the chosen one, its answer box and its verdict on the right."""

    CSS_PATH = "practice.tcss"
    ANSWER_BOX = "#answer-box"

    BINDINGS = [
        Binding("ctrl+s", "submit", "Check", id="submit", priority=True),
        Binding("f3", "hint", "Hint", id="hint"),
        Binding("f4", "new_numbers", "New numbers", id="new-numbers"),
        Binding("f5", "reveal", "Show answer", id="reveal"),
        Binding("f6", "next_step", "Next step", id="next-step"),
        Binding("f7", "show_all", "All questions", id="all", show=False),  # in F1 and the palette
        Binding("f8", "toggle_list", "List", id="list"),
        Binding("slash", "search", "Search", id="search", show=False),  # in F1, the palette and the box
    ]

    def __init__(self) -> None:
        super().__init__()
        self._content = None
        self._section: str | None = None
        self._status: dict[str, bool] = {}
        """Each tried question's best result: True once it was answered right, even if a later
        attempt (here or in Review) was wrong; False while it never was (walkthrough minor 9)."""
        self._question = None
        self._variant = None
        self._step_index = 0
        self._hints = 0
        self._revealed = False
        self._shown: set[tuple[str, str, int]] = set()
        """(question, step, seed) whose answer the learner asked to see (F5) while this screen
        lives: a later answer to it is graded but not recorded, so copying the shown answer
        neither marks the question solved nor rates its review card (the explicit give-up)."""
        self._started = 0.0
        self._reviewed = False
        self._last_verdict = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="practice"):
            with Vertical(id="question-side"):
                yield TextField(id="question-search", select_on_focus=False)
                yield SafeOptionList(id="question-list")
            with VerticalScroll(id="question-pane"):
                yield Prose(id="question-text")
                yield AnswerBox(id="answer-box")
                yield Prose(id="hint-text")
                yield Prose(id="verdict-text")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#answer-box").display = False
        self._load()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        from tutor.content import load

        content = load()
        store = self.app.open_store()
        status = {}
        if store is not None:
            from tutor.store.records import ever_solved

            status = ever_solved(store)
        from_thread(self, self._loaded, content, status)

    def _loaded(self, content, status: dict) -> None:
        self._content, self._status = content, status
        self.render_texts(self.app.lang)
        if self._question is None:
            self.query_one("#question-list", OptionList).focus()

    # -- which questions

    def show_section(self, section: str | None) -> None:
        self._section = section
        if self._content is not None:
            self._fill_list(self.app.lang)

    def action_toggle_list(self) -> None:
        """Hide the question list to give the question the whole width, or show it again (M9)."""
        side = self.query_one("#question-side")
        side.display = not side.display
        if side.display:
            self.query_one("#question-list", OptionList).focus()
        elif self.app.focused is not None and side in self.app.focused.ancestors_with_self:
            # The focus left on the hidden search box swallowed what was typed next (found in tmux).
            box = self.query_one("#answer-box", AnswerBox)
            if self._question is not None and box.display:
                box.focus_input()
            else:
                self.set_focus(None)

    def action_search(self) -> None:
        side = self.query_one("#question-side")
        side.display = True
        self.query_one("#question-search", Input).focus()

    @on(Input.Changed, "#question-search")
    def _searched(self) -> None:
        if self._content is not None:
            self._fill_list(self.app.lang)

    @on(Input.Submitted, "#question-search")
    def _search_done(self) -> None:
        listing = self.query_one("#question-list", OptionList)
        if listing.option_count and not listing.get_option_at_index(0).disabled:
            listing.focus()

    def action_show_all(self) -> None:
        self.query_one("#question-search", Input).value = ""
        self.show_section(None)

    def _questions(self) -> list:
        """In reading order: by lesson, then by section, so practice follows the lesson."""
        position = {}
        lessons = sorted(self._content.lessons.values(), key=lambda loaded: (loaded.model.order, loaded.model.id))
        for lesson_index, loaded in enumerate(lessons):
            for section_index, section in enumerate(loaded.model.sections):
                position[f"{loaded.model.id}/{section.id}"] = (lesson_index, section_index)
        questions = sorted((loaded.model for loaded in self._content.questions.values()),
                           key=lambda q: position.get(q.section, (len(lessons), 0)))
        if self._section:
            questions = [q for q in questions if q.section == self._section] or questions
        return questions

    def _fill_list(self, lang: str) -> None:
        from tutor.ui.screens.practice_filter import matches, parse

        query = parse(self.query_one("#question-search", Input).value)
        section_titles = self._section_titles()
        everything = self._questions()
        shown = [q for q in everything
                 if query.empty or matches(q, self._status.get(q.id), query, section_titles.get(q.section, {}))]
        listing = self.query_one("#question-list", OptionList)
        # Rebuilt only when the rows change: each letter typed in the search rebuilt and re-measured
        # every row of the list (profiled: the largest share of the app's own time in the monkey test).
        rows = (lang, tuple((q.id, self._status.get(q.id)) for q in shown))
        if rows != getattr(self, "_rows", None):
            self._rows = rows
            listing.clear_options()
            listing.add_options(Option(_list_prompt(q, self._status.get(q.id), lang), id=q.id) for q in shown)
            if not shown:
                listing.add_option(Option(text("practice.no_match", lang), disabled=True))
        solved = sum(1 for q in everything if self._status.get(q.id))
        title = text("practice.list", lang) + (f" · {self._section_title(lang)}" if self._section else "")
        listing.border_title = title + " · " + text("practice.counts", lang, shown=len(shown), total=len(everything),
                                                    solved=solved)
        # Said under the list, not in a toast: a toast came with every letter typed ("is:b", "is:ba").
        # Content, not a str: a str subtitle is read as markup, and `is:[/]` typed raised MarkupError
        # (escape() would not do: it leaves `is:[/` alone, which the parser rejects while typing).
        from textual.content import Content

        listing.border_subtitle = (Content(text("practice.bad_status", lang, value=", ".join(query.unknown)))
                                   if query.unknown
                                   else Content(text("practice.bad_kind", lang, value=", ".join(query.unknown_kinds)))
                                   if query.unknown_kinds else "")
        listing.highlighted = 0 if shown else None
        if self._question is not None and any(q.id == self._question.id for q in shown):
            listing.highlighted = listing.get_option_index(self._question.id)

    def _section_titles(self) -> dict[str, dict[str, str]]:
        """lesson/section -> {"en": title, "zh": title}, what the search matches a section by."""
        return {f"{lesson_id}/{section.id}": {"en": section.title.get("en"), "zh": section.title.get("zh")}
                for lesson_id, loaded in self._content.lessons.items() for section in loaded.model.sections}

    def _section_title(self, lang: str) -> str:
        """The lesson section's title, not its slug (walkthrough polish 11: "recipe/trillion-design")."""
        lesson_id, _, section_id = (self._section or "").partition("/")
        loaded = self._content.lessons.get(lesson_id)
        for section in (loaded.model.sections if loaded is not None else []):
            if section.id == section_id:
                return section.title.get(lang)
        return self._section or ""

    def render_texts(self, lang: str) -> None:
        if self._content is None:
            return
        self.query_one("#question-search", Input).placeholder = text("practice.search", lang)
        self._fill_list(lang)
        if self._question is None:
            self.query_one("#question-text", Markdown).update(text("practice.pick", lang))
            return
        self._show_question(keep_answer=True)

    @on(OptionList.OptionSelected, "#question-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.open_question(event.option.id, seed=0)

    # -- one question

    def open_question(self, question_id: str, seed: int = 0) -> None:
        from tutor.grading.variant import draw

        self._question = self._content.questions[question_id].model
        self._variant = draw(self._question, seed)
        self._step_index, self._hints, self._revealed, self._reviewed = 0, 0, False, False
        self._last_verdict = None
        self._started = time.monotonic()
        self._show_question(keep_answer=False)
        self.query_one("#answer-box", AnswerBox).focus_input()

    @property
    def _step(self):
        return self._question.steps[self._step_index]

    def _show_question(self, keep_answer: bool) -> None:
        lang = self.app.lang
        self.query_one("#question-text", Markdown).update(
            question_markdown(self._question, self._step, self._variant, lang, self._step_index))
        box = self.query_one("#answer-box", AnswerBox)
        box.display = True
        if keep_answer:
            box.relabel(self._step, lang)
        else:
            box.prepare(self._step, lang)
            self.query_one("#verdict-text", Markdown).update("")
        self.query_one("#hint-text", Markdown).update(hints_markdown(self._step, self._hints, lang))
        if keep_answer and self._last_verdict is not None:
            self._show_verdict(self._last_verdict)

    def action_hint(self) -> None:
        if self._question is None:
            return
        if self._hints < len(self._step.hints):
            self._hints += 1
            self.query_one("#hint-text", Markdown).update(hints_markdown(self._step, self._hints, self.app.lang))
        else:
            self.notify(text("practice.no_more_hints", self.app.lang))

    def action_new_numbers(self) -> None:
        if self._question is None:
            return
        if not self._question.vary:
            self.notify(text("practice.not_parametric", self.app.lang))
            return
        self.open_question(self._question.id, seed=random.randint(1, 2**31 - 1))

    def action_reveal(self) -> None:
        if self._question is not None and self._last_verdict is not None:
            self._revealed = True
            self._shown.add((self._question.id, self._step.id, self._variant.seed))
            self._show_verdict(self._last_verdict)
        elif self._question is not None:
            self.notify(text("practice.answer_first", self.app.lang))

    def action_next_step(self) -> None:
        if self._question is not None and self._step_index + 1 < len(self._question.steps):
            self._step_index += 1
            self._hints, self._revealed, self._last_verdict = 0, False, None
            self._started = time.monotonic()
            self._show_question(keep_answer=False)
            self.query_one("#answer-box", AnswerBox).focus_input()

    def accepts_answer(self) -> bool:
        return self._question is not None

    def submit_answer(self, answer: str) -> None:
        self._grade(self._question, self._step, self._variant, answer, time.monotonic() - self._started,
                    self._hints, self.app.lang)

    @work(thread=True, exclusive=True, group="grade")
    def _grade(self, question, step, variant, answer: str, elapsed: float, hints: int, lang: str) -> None:
        from textual.worker import get_current_worker

        from tutor.actions.practice import answer as answer_step
        from tutor.grading.budget import Cancelled

        worker = get_current_worker()
        copied = (question.id, step.id, variant.seed) in self._shown
        try:
            # A formula grading stops as soon as the learner moves on (another answer, another
            # question): this worker is exclusive, so its successor cancels it (issue 17).
            answered = answer_step(None if copied else self.app.open_store(), question, step, variant.seed, answer,
                                   hints_used=hints,
                                   elapsed_s=elapsed, lang=lang, rate_card=not self._reviewed,
                                   cancelled=lambda: worker.is_cancelled)
        except Cancelled:
            return
        if answered.recorded:
            self._reviewed = True  # the first answer of this opening rated the card
        from_thread(self, self._graded, question, step, answered.verdict, copied)

    def _graded(self, question, step, verdict, copied: bool = False) -> None:
        if question is not self._question or step is not self._step:
            return  # the learner moved on while grading ran
        self._last_verdict = verdict
        if verdict.readable and not copied:
            self._status[question.id] = self._status.get(question.id) is True or verdict.correct
            self._fill_list(self.app.lang)
        # Said in the verdict, where the learner looks, not in a toast that goes.
        self._show_verdict(verdict, text("practice.after_reveal", self.app.lang) if copied and verdict.readable else None)

    def _show_verdict(self, verdict, note: str | None = None) -> None:
        # Open and clarify steps too: their model answer came with every wrong attempt, to be copied
        # into the next one (issue 14 item 2's rule, which labs follow: after a pass or a give-up).
        reveal = self._revealed or verdict.correct or verdict.self_assessed
        body = verdict_markdown(self._question, self._step, verdict, self._variant, self.app.lang, reveal)
        if note:
            body = f"*{note}*\n\n{body}"
        if self._step_index + 1 < len(self._question.steps):
            body += f"\n\n*{text('practice.next_step', self.app.lang)}*"
        self.call_later(self._put_verdict, body)

    @callback
    async def _put_verdict(self, body: str) -> None:
        """Show the verdict, then scroll to it once it is laid out (scrolling before that stopped at
        a height that depended on timing)."""
        await self.query_one("#verdict-text", Markdown).update(body)
        pane = self.query_one("#question-pane", VerticalScroll)
        self.call_after_refresh(lambda: pane.scroll_end(animate=False))


def _list_prompt(question, status: bool | None, lang: str):
    """The status mark and the kind tag first, then the title: a long title wraps under them and the
    tag can no longer be cut off (walkthrough minor 10). Text, so a title is never read as markup."""
    from rich.text import Text

    from tutor.ui.strings import text as say

    prompt = Text(f"{STATUS_MARK[status]} ")
    prompt.append(say(f"kind.{question.kind}", lang), style="dim")
    prompt.append(f" {question.title.get(lang)}")
    return prompt
