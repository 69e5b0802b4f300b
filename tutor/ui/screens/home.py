"""Home: the sections with their keys, today's record, and what is new."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual import work
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from tutor.ui.guard import Guarded, from_thread
from tutor.ui.widgets.safe import SafeOptionList
from tutor.ui.strings import REVIEW_ROW, SECTIONS, plural, text, when
from tutor.ui.widgets.footer import TutorFooter


BULLET = "• "


class HomeScreen(Screen, metaclass=Guarded):
    """What to do next, one key away."""

    BINDINGS = [
        Binding(section["key"], f"app.open_section('{section['id']}')", section["name"].get("en"),
                show=False, id=f"open-{section['id']}")
        for section in SECTIONS
    ] + [Binding("v", "open_review", "Review what is due", show=False, id="open-review"),
         Binding("q", "app.quit", "Quit", id="home-quit"), Binding("f1", "app.toggle_help", "Keys", id="home-help"),
         Binding("f2", "app.toggle_lang", "EN/中文", id="home-lang")]

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        yield Header(show_clock=False)
        with Horizontal(id="home"):
            with Vertical(id="sections-pane"):
                # Composed with their texts, not filled on mount: refilling the list before the
                # first frame laid it out and drew it again (issue 16, start-up).
                sections = SafeOptionList(*_section_options(lang), id="sections")
                sections.border_title = text("home.sections", lang)
                yield sections
                yield Static(text("home.hint", lang), id="home-hint")
            # Today and What's new are mounted with the record, after the first frame: they have
            # nothing to show before it, and styling them cost ~10% of start-up's CPU time (issue 16).
            yield Vertical(id="side")
        yield TutorFooter(show_command_palette=True)

    _record: dict | None = None
    """Library counts and the learner's summary, loaded in a worker after the first frame."""

    def on_mount(self) -> None:
        self.query_one("#sections", OptionList).highlighted = 0
        self.watch(self.app, "lang", self._render_texts, init=False)
        # After the first frame has been drawn, not after a fixed 0.1 s from mount: on
        # a loaded machine the first frame came later than that, and the worker (YAML, pydantic,
        # SQLite) then competed with it for the GIL (issue 16: `tutor start` at 1.43-1.51x a
        # minimal Textual app).
        self.call_after_refresh(self._load_record)

    @work(thread=True, exclusive=True)
    def _load_record(self) -> None:
        from tutor.content import load
        from tutor.store.progress import summary
        from tutor.store.records import due_reviews

        content = load()
        record = {"lessons": len(content.lessons), "questions": len(content.questions), "labs": len(content.labs),
                  "news": _news()}
        store = self.app.open_store()
        if store is not None:
            record["summary"] = summary(store)
            record["due"] = due_reviews(store)
        from_thread(self, self._show_record, record)

    def _show_record(self, record: dict) -> None:
        self._record = record
        side = self.query_one("#side", Vertical)
        if not side.children:
            side.mount_all([Static(id="today", classes="panel"), Static(id="news", classes="panel")])
        self._render_texts(self.app.lang)

    def _render_texts(self, lang: str) -> None:
        sections = self.query_one("#sections", OptionList)
        highlighted = sections.highlighted
        sections.clear_options()
        sections.add_options(_section_options(lang))
        sections.highlighted = highlighted or 0
        sections.border_title = text("home.sections", lang)
        self.query_one("#home-hint", Static).update(text("home.hint", lang))
        if self._record is None:
            return  # the panels come with the record
        today = self.query_one("#today", Static)
        today.border_title = text("home.today", lang)
        today.update(self._today(lang))
        news = self.query_one("#news", Static)
        news.border_title = text("home.news", lang)
        news.update(_bulleted([entry[lang] for entry in (self._record or {}).get("news", [])[:3]]))

    def _today(self, lang: str) -> str:
        if self._record is None:
            return "…"
        lines = [text("home.library", lang, **{key: self._record[key] for key in ("lessons", "questions", "labs")})]
        if "summary" not in self._record:
            lines.append(text("home.store_error", lang, error=self.app.store_error))
            return "\n".join(lines)
        record = self._record["summary"]
        if record["attempts"]:
            lines.append(text("home.attempts", lang, attempts=plural(record["attempts"], "attempt", "attempts", lang),
                              accuracy=f"{record['accuracy']:.0%}",
                              streak=plural(record["streak_days"], "day", "days", lang)))
            lines.append(text("home.last", lang, when=when(record["last_activity"], lang)))
        else:
            lines.append(text("home.no_attempts", lang))
        lines.append(text("home.due", lang, due=self._record["due"]) + " · " + text("review.open_key", lang))
        return "\n".join(lines)

    def on_screen_resume(self) -> None:
        if self._record is not None:
            self._load_record()  # back from a review or a mock: the due count has changed

    def action_open_review(self) -> None:
        from tutor.ui.screens.review import ReviewScreen

        self.app.push_screen(ReviewScreen())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == REVIEW_ROW["id"]:
            self.action_open_review()  # a screen pushed over Home, not a mode (it returns here)
        else:
            self.app.action_open_section(event.option.id)


def _section_options(lang: str) -> list[Option]:
    # Review is listed with the sections (walkthrough polish 15: only the v key and a hint led to it).
    return [Option(_section_prompt(section, lang), id=section["id"]) for section in [*SECTIONS, REVIEW_ROW]]


def _bulleted(entries: list[str]):
    """What's new as a list whose wrapped lines hang under their text, not under the bullet
    (walkthrough polish 15: "• Labs: real" / "torch.distributed jobs …"). "• " in both languages,
    as the Markdown panes draw a list (polish 6: "•实验"); Chinese still breaks between characters
    (tutor/ui/cjk_wrap.py), since a table cell wraps as any Text does."""
    from rich.table import Table

    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for entry in entries:
        grid.add_row(BULLET, entry)
    return grid


def _section_prompt(section: dict, lang: str) -> Text:
    """Two lines: the key and the name, then the hint, indented under the name."""
    prompt = Text.assemble((f" {section['key']} ", "bold reverse"), "  ", (section["name"].get(lang), "bold"))
    prompt.append(f"\n     {section['hint'].get(lang)}", style="dim")
    return prompt


def _news() -> list[dict]:
    from importlib import resources

    import yaml

    return yaml.safe_load(resources.files("tutor.ui").joinpath("news.yaml").read_text(encoding="utf-8"))
