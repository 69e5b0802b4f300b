"""Lessons: a table of contents with reading progress, and the section rendered with live numbers."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, Markdown, OptionList
from textual.widgets.option_list import Option

from tutor.ui.guard import callback, from_thread
from tutor.ui.screens.base import SectionScreen
from tutor.ui.strings import plural, text
from tutor.ui.widgets.footer import TutorFooter
from tutor.ui.widgets.prose import Prose
from tutor.ui.widgets.safe import SafeOptionList


class LessonsScreen(SectionScreen):
    """Read the lesson section by section; every figure comes from the sizing engine."""

    CSS_PATH = "lessons.tcss"

    BINDINGS = [
        # Short words: with the app's keys they must fit an 80-column footer (walkthrough minor 19).
        Binding("n", "step(1)", "Next", id="next"),
        Binding("b", "step(-1)", "Prev", id="previous"),
        Binding("p", "practice", "Practise", id="practice"),
        Binding("g", "playground", "Playground", id="playground"),
        Binding("t", "focus_toc", "Contents", id="toc"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._content = None
        self._order: list[tuple[str, str]] = []  # (lesson id, section id) in reading order
        self._current: tuple[str, str] | None = None
        self._read: set[tuple[str, str]] = set()
        self._body: str | None = None
        self._shown: tuple[str, str] | None = None
        """The section whose text is on screen (not its "computing…" placeholder)."""
        self._toc: list[tuple[str, str | None]] = []
        """What each row of the contents opens: (lesson id, section id), None for a lesson's title."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="lessons"):
            # A list, not a Tree: a Tree draws each entry on one line, and at 34 columns it cut the
            # titles ("Placing each dimension b"); an option wraps its title (issue 16).
            yield SafeOptionList(id="toc")
            with VerticalScroll(id="reader"):
                yield Prose(id="section-text")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        for reader in self.query("#reader").results(VerticalScroll):  # absent if the screen is already going
            self.watch(reader, "scroll_y", self._check_read, init=False)
        self._load()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        from tutor.content import load
        from tutor.store.records import sections_read

        content = load()
        store = self.app.open_store()
        read = set(sections_read(store)) if store is not None else set()
        from_thread(self, self._loaded, content, read)

    def _loaded(self, content, read: set) -> None:
        self._content = content
        self._read = read
        lessons = sorted((loaded.model for loaded in content.lessons.values()), key=lambda l: (l.order, l.id))
        self._order = [(lesson.id, section.id) for lesson in lessons for section in lesson.sections]
        if self._order and self._current is None:
            unread = [key for key in self._order if key not in read]
            self._current = unread[0] if unread else self._order[0]
        self.render_texts(self.app.lang)

    def render_texts(self, lang: str) -> None:
        if self._content is None:
            return
        self._fill_toc(lang)
        self._show_current()

    def _fill_toc(self, lang: str) -> None:
        toc = self.query_one("#toc", OptionList)
        toc.border_title = text("lessons.contents", lang)
        rows: list[tuple[str, str | None]] = []
        options: list[Option] = []
        for lesson_id in dict.fromkeys(lesson for lesson, _ in self._order):
            lesson = self._content.lessons[lesson_id].model
            rows.append((lesson_id, None))
            options.append(Option(Text(lesson.title.get(lang), style="bold")))
            for section in lesson.sections:
                rows.append((lesson_id, section.id))
                options.append(Option(_section_row((lesson_id, section.id) in self._read, section.title.get(lang))))
        self._toc = rows
        toc.clear_options()
        toc.add_options(options)
        if self._current in rows:
            toc.highlighted = rows.index(self._current)

    @on(OptionList.OptionSelected, "#toc")
    def _toc_selected(self, event: OptionList.OptionSelected) -> None:
        if not 0 <= event.option_index < len(self._toc):
            return
        lesson_id, section_id = self._toc[event.option_index]
        if section_id is None:
            section_id = self._content.lessons[lesson_id].model.sections[0].id
        self._open((lesson_id, section_id))

    def action_step(self, delta: int) -> None:
        if delta > 0 and self._shown is not None and self._shown == self._current:
            self._mark_read(self._shown)  # n: the learner is done with this one
        if self._current in self._order:
            index = self._order.index(self._current) + delta
            if 0 <= index < len(self._order):
                self._open(self._order[index])

    def action_focus_toc(self) -> None:
        """t shows the contents and moves there; pressed there, it hides them to give the text the
        whole width (walkthrough M9)."""
        toc = self.query_one("#toc", OptionList)
        if toc.display and toc.has_focus:
            toc.display = False
            self.query_one("#reader", VerticalScroll).focus()
        else:
            toc.display = True
            toc.focus()
        self.call_after_refresh(self._fit_body)

    async def action_practice(self) -> None:
        if self._current is not None:
            await self.app.open_practice(section=f"{self._current[0]}/{self._current[1]}")

    async def action_playground(self) -> None:
        if self._current is None:
            return
        lesson = self._content.lessons[self._current[0]].model
        section = next(section for section in lesson.sections if section.id == self._current[1])
        if not section.scenarios:
            self.notify(text("lessons.no_scenario", self.app.lang))
            return
        await self.app.open_playground(section.scenarios[0].settings)

    def _fit_body(self) -> None:
        """The section as rendered, its tables reflowed as lists when wider than the reader."""
        from tutor.ui.screens.lesson_tables import fit_tables

        if self._body is None:
            return
        width = self.query_one("#reader", VerticalScroll).size.width - 4
        self.call_later(self._put_text, fit_tables(self._body, width) if width > 0 else self._body)

    @callback
    async def _put_text(self, body: str) -> None:
        """Update the reader, then check whether its end is in view (a Markdown update is laid out
        asynchronously: before that the old text's height would be read)."""
        await self.query_one("#section-text", Markdown).update(body)
        self.call_after_refresh(self._check_read)

    def on_resize(self) -> None:
        self._fit_body()

    def _open(self, key: tuple[str, str]) -> None:
        self._current = key
        self._show_current()
        self._fill_toc(self.app.lang)

    def _show_current(self) -> None:
        if self._current is None:
            self.query_one("#section-text", Markdown).update(text("lessons.empty", self.app.lang))
            return
        lesson_id, section_id = self._current
        lesson = self._content.lessons[lesson_id].model
        title = next(section.title.get(self.app.lang) for section in lesson.sections if section.id == section_id)
        self._shown = None
        self.query_one("#section-text", Markdown).update(f"## {title}\n\n*{text('lessons.rendering', self.app.lang)}*")
        self._render_section(self._current, self.app.lang)

    @work(thread=True, exclusive=True, group="render")
    def _render_section(self, key: tuple[str, str], lang: str) -> None:
        from tutor.errors import TutorError

        lesson_id, section_id = key
        try:
            section = self.app.rendered_lesson(lesson_id, lang).section(section_id)
            body = f"## {section.title}\n\n{section.body.rstrip()}\n\n" + _practice_line(section, lang)
        except TutorError as error:
            body = f"**{error}**"
        from_thread(self, self._show, key, body)

    def _show(self, key: tuple[str, str], body: str) -> None:
        if key != self._current:
            return
        self._body = body
        self._shown = key
        self._fit_body()
        self.query_one("#reader", VerticalScroll).scroll_home(animate=False)

    @callback
    def _check_read(self, *_) -> None:
        """A section is read once its end has been on screen (scrolled to, or it fits), or the
        learner went on with n; opening it is not reading it (walkthrough minor 20)."""
        readers = list(self.query("#reader").results(VerticalScroll))
        if not readers:
            return
        reader = readers[0]
        if self._shown is not None and self._shown == self._current and reader.scroll_y >= reader.max_scroll_y - 1:
            self._mark_read(self._shown)

    def _mark_read(self, key: tuple[str, str]) -> None:
        if key in self._read:
            return
        self._read.add(key)
        self._save_read(key)
        self._fill_toc(self.app.lang)

    @work(thread=True, group="read")
    def _save_read(self, key: tuple[str, str]) -> None:
        from tutor.store.records import mark_section_read

        store = self.app.open_store()
        if store is not None:
            mark_section_read(store, *key)


def _section_row(read: bool, title: str) -> Table:
    """A section in the contents: its read mark, then its title, wrapped under itself."""
    row = Table.grid(padding=(0, 0, 0, 1), pad_edge=True)  # a cell left of each column: indented under the lesson
    row.add_column(width=2, no_wrap=True)  # Rich counts the column's padding in its width
    row.add_column(ratio=1)
    row.add_row("✓" if read else "·", Text(title))  # Text: a title is not Rich markup
    return row


def _practice_line(section, lang: str) -> str:
    """What the learner can do next from this section, with the keys that do it."""
    parts = []
    if section.questions:
        parts.append(text("lessons.practice", lang, count=plural(len(section.questions), "question", "questions", lang)))
    if section.labs:
        parts.append(text("lessons.labs", lang, labs=", ".join(section.labs)))
    parts.append(text("lessons.next", lang))
    return "---\n\n" + " · ".join(parts) + "\n"
