"""The Textual app: modes, global bindings, language, and the learner's store."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from tutor.ui.screens.home import HomeScreen
from tutor.ui.strings import SECTIONS, pick, text


class TutorApp(App):
    """`tutor start`. Each section of the product is a mode; Home is where it opens."""

    CSS_PATH = "app.tcss"
    TITLE = "tutor"
    MODES = {"home": HomeScreen}
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit"),
        Binding("f1", "toggle_help", "Keys", id="help"),
        Binding("f2", "toggle_lang", "EN/中文", id="lang"),
    ]

    lang: reactive[str] = reactive("en")
    """Language of every text: "en" or "zh"."""

    def __init__(self, lang: str = "en", store_path=None):
        super().__init__()
        self._store_path = store_path
        self.store = None
        self.store_error: str | None = None
        self.set_reactive(TutorApp.lang, lang)

    def on_mount(self) -> None:
        self._open_store()
        self.title = text("app.title", self.lang)
        self.switch_mode("home")

    def _open_store(self) -> None:
        from tutor.errors import StoreError
        from tutor.store import Store

        try:
            self.store = Store(self._store_path)
        except StoreError as error:
            # The app still opens: lessons and practice work, history is reported unavailable.
            self.store_error = str(error)

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.close()

    def watch_lang(self, lang: str) -> None:
        self.title = text("app.title", lang)

    def action_toggle_lang(self) -> None:
        self.lang = "zh" if self.lang == "en" else "en"

    def action_toggle_help(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_open_section(self, section_id: str) -> None:
        section = next(item for item in SECTIONS if item["id"] == section_id)
        if section_id in self._modes:
            self.switch_mode(section_id)
        else:
            self.notify(text("home.not_yet", self.lang, section=pick(section["name"], self.lang), cli=section["cli"]))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(text("command.lang", self.lang), text("command.lang", self.lang), self.action_toggle_lang)
        yield SystemCommand(text("command.home", self.lang), text("command.home", self.lang),
                            lambda: self.switch_mode("home"))
        for section in SECTIONS:
            name = pick(section["name"], self.lang)
            yield SystemCommand(text("command.section", self.lang, section=name), pick(section["hint"], self.lang),
                                lambda section_id=section["id"]: self.action_open_section(section_id))
