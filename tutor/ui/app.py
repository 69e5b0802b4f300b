"""The Textual app: modes, global bindings, language, and the learner's store."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from importlib import import_module

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from tutor.ui import cjk_wrap
from tutor.ui.guard import Guarded
from tutor.ui.screens.home import HomeScreen
from tutor.ui.strings import SECTIONS, plural, text


cjk_wrap.install()  # Chinese prose breaks between characters, not only at spaces

PALETTE_ZH = {"Theme": ("主题", "换一种配色"), "Quit": ("退出", "马上退出"),
              "Keys": ("按键", "显示或隐藏按键说明"), "Minimize": ("还原", "把放大的部件还原"),
              "Maximize": ("放大", "放大当前部件"), "Screenshot": ("截图", "把当前界面存成 SVG"),
              "Bell": ("响铃", "响一下")}
"""Textual's own palette commands, in Chinese (their help texts are Textual's English otherwise)."""


def _lazy(module: str, name: str) -> Callable[[], Screen]:
    def make() -> Screen:
        return getattr(import_module(f"tutor.ui.screens.{module}"), name)()

    return make


class TutorApp(App, metaclass=Guarded):
    """`tutor start`. Each section of the product is a mode; Home is where it opens."""

    CSS_PATH = "app.tcss"
    TITLE = "tutor"
    # Section screens are imported when first opened: their widgets (Markdown, TextArea, tabs)
    # cost start-up time the Home screen does not need.
    MODES = {"lessons": _lazy("lessons", "LessonsScreen"),
             "practice": _lazy("practice", "PracticeScreen"), "playground": _lazy("playground", "PlaygroundScreen"),
             "mock": _lazy("mock", "MockScreen"), "progress": _lazy("progress", "ProgressScreen"),
             "labs": _lazy("labs", "LabsScreen")}
    # The app opens straight into Home, as its default screen (get_default_screen), not as one of
    # MODES: Textual 8.2 gives the first screen of a mode in MODES a whole stylesheet refresh
    # (variables, reparse, restyle) before the first frame, which the default screen does not need
    # (issue 16: benchmarks/bench_startup.py, CPU time to the first frame 1.37x -> 1.11x a minimal
    # Textual app). "home" becomes a mode once mounted (on_mount), so Esc still returns to it.
    DEFAULT_MODE = "home"
    BINDINGS = [
        # Shown in Home's footer only: a section's own keys must fit its footer at 80 columns.
        Binding("q", "quit", "Quit", id="quit", show=False),
        Binding("f1", "toggle_help", "Keys", id="help", show=False),
        Binding("f2", "toggle_lang", "EN/中文", id="lang", show=False),
    ]

    lang: reactive[str] = reactive("en")
    """Language of every text: "en" or "zh"."""

    def __init__(self, lang: str | None = None, store_path=None):
        from tutor.ui import preferences

        super().__init__()
        saved = preferences.load()
        lang = lang or (saved.get("lang") if saved.get("lang") in ("en", "zh") else "en")
        if isinstance(saved.get("theme"), str) and saved["theme"] in self.available_themes:
            self.theme = saved["theme"]
        self._store_path = store_path
        self._store = None
        self._store_error: str | None = None
        self._store_lock = threading.Lock()
        self._rendered: dict[tuple[str, str], object] = {}
        self._render_lock = threading.Lock()
        self.set_reactive(TutorApp.lang, lang)
        self.section_screens: dict[str, Screen] = {}
        """The section screens opened so far, by class name (they register on mount)."""
        self.ui_errors: list[tuple[str, BaseException]] = []
        """Errors caught and reported while the app ran (where, error); the monkey tests read it."""

    # Where Textual calls `_handle_exception` from a loop that survives the error: a timer's tick,
    # the callbacks queued with call_later / call_after_refresh, idle handlers.
    _SURVIVABLE_CALLERS = frozenset({"_tick", "_flush_next_callbacks"})

    def _handle_exception(self, error: Exception) -> None:
        """A worker's or timer's error is reported and the app goes on; any other one (drawing,
        composing, a message loop already broken) is logged, then ends the app with status 1."""
        import sys

        from textual.worker import WorkerFailed

        from tutor.ui import guard

        caller = sys._getframe(1).f_code.co_name
        if isinstance(error, WorkerFailed) or caller in self._SURVIVABLE_CALLERS:
            cause = error.error if isinstance(error, WorkerFailed) else error
            if guard.palette_teardown(cause):
                guard.log_error(cause, caller)  # harmless: logged, not shown
                return
            guard.report(self, cause, "worker" if isinstance(error, WorkerFailed) else caller)
            return
        guard.log_error(error, caller, fatal=True)
        super()._handle_exception(error)

    def get_default_screen(self) -> Screen:
        return HomeScreen()

    def on_mount(self) -> None:
        self.add_mode("home", HomeScreen)  # its stack is the default one, made already: never built again
        self.title = text("app.title", self.lang)
        # Well after the first frame is on the terminal: importing the engine holds the GIL for
        # a while, and Textual writes its output from a thread of its own.
        self.set_timer(1.0, self._warm_up)

    @work(thread=True, group="warm-up")
    def _warm_up(self) -> None:
        """Load content and render the first lesson in the background, so opening it is instant."""
        from tutor.content import load

        content = load()
        lessons = sorted(content.lessons.values(), key=lambda loaded: (loaded.model.order, loaded.model.id))
        if lessons:
            self.rendered_lesson(lessons[0].model.id, self.lang)
        # A lesson, question, lab or scenario with a bad field is left out of its list; said once here,
        # as the CLI says it on stderr, or an author's typo just makes a scenario vanish.
        skipped = content.skipped()
        if skipped:
            count = plural(skipped, "content problem", "content problems", self.lang)
            self.call_from_thread(self.notify, text("app.content_skipped", self.lang, count=count),
                                  severity="warning", timeout=10)

    def rendered_lesson(self, lesson_id: str, lang: str):
        """The lesson rendered by the engine in `lang`, cached (thread-safe; raises TutorError)."""
        from tutor.content import load
        from tutor.content.render import render_lesson

        with self._render_lock:
            key = (lesson_id, lang)
            if key not in self._rendered:
                self._rendered[key] = render_lesson(load().lessons[lesson_id].model, lang)
            return self._rendered[key]

    def open_store(self):
        """The learner's store, opened on first use (from any thread); None if unavailable.

        Opening is deferred so the first screen is drawn before SQLite and the content models
        are touched; a damaged or locked database leaves the app usable and says why.
        """
        from tutor.errors import StoreError
        from tutor.store import Store

        with self._store_lock:
            if self._store is None and self._store_error is None:
                try:
                    self._store = Store(self._store_path)
                except StoreError as error:
                    self._store_error = str(error)
            return self._store

    @property
    def store_error(self) -> str | None:
        return self._store_error

    def on_unmount(self) -> None:
        if self._store is not None:
            self._store.close()

    def watch_lang(self, lang: str) -> None:
        from tutor.ui import preferences

        self.title = text("app.title", lang)
        preferences.save(lang=lang)

    def watch_theme(self, theme: str) -> None:
        from tutor.ui import preferences

        if self.is_running:
            preferences.save(theme=theme)

    def busy_with(self) -> str | None:
        """What quitting now would interrupt (a mock interview, a lab run), in the app's language."""
        for screen in self.section_screens.values():
            reason = screen.busy_with(self.lang)
            if reason:
                return reason
        return None

    async def action_quit(self) -> None:
        """q (from anywhere but a text field, which takes q as a letter) and ctrl+q: quit, asking first
        when a mock interview or a lab run is in progress (walkthrough M10)."""
        from tutor.ui.widgets.confirm import ConfirmDialog

        if isinstance(self.screen, ConfirmDialog):
            return
        reason = self.busy_with()
        if reason is None:
            self.exit()
            return
        self.push_screen(ConfirmDialog(text("quit.confirm", self.lang, what=reason), text("quit.yes", self.lang),
                                       text("quit.no", self.lang)),
                         lambda yes: self.exit() if yes else None)

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        from tutor.ui.widgets.safe import SafeCommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(SafeCommandPalette(id="--command-palette",
                                                placeholder=text("command.placeholder", self.lang)))

    def action_toggle_lang(self) -> None:
        self.lang = "zh" if self.lang == "en" else "en"

    def action_toggle_help(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_open_section(self, section_id: str) -> None:
        self.switch_mode(section_id)

    async def open_practice(self, section: str | None = None) -> None:
        """Practice, narrowed to one lesson section when given."""
        await self.switch_mode("practice")
        # Keys typed faster than the switch (p p, or Esc on the way) may leave another screen on top.
        if hasattr(self.screen, "show_section"):
            self.screen.show_section(section)

    async def open_playground(self, settings: dict) -> None:
        """The playground, preset to a lesson's worked example."""
        await self.switch_mode("playground")
        if hasattr(self.screen, "load_settings"):
            self.screen.load_settings(dict(settings))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if self.lang == "zh" and command.title in PALETTE_ZH:
                title, help_text = PALETTE_ZH[command.title]
                command = command._replace(title=title, help=help_text)
            yield command
        # Every key of the screen the palette was opened on is also a command, so nothing is
        # reachable only by knowing its key (app-wide keys are already among the above).
        seen = set()
        from tutor.ui.widgets.footer import ZH

        for key, active in screen.active_bindings.items():
            binding = active.binding
            if active.node is not screen or not binding.description or binding.action in seen or not active.enabled:
                continue
            seen.add(binding.action)
            description = ZH.get(binding.description, binding.description) if self.lang == "zh" else binding.description
            yield SystemCommand(description, f"{description} ({key})",
                                lambda action=binding.action, node=active.node: self.run_action(action, node))
        yield SystemCommand(text("command.lang", self.lang), text("command.lang", self.lang), self.action_toggle_lang)
        yield SystemCommand(text("command.home", self.lang), text("command.home", self.lang),
                            lambda: self.switch_mode("home"))
        for section in SECTIONS:
            name = section["name"].get(self.lang)
            yield SystemCommand(text("command.section", self.lang, section=name), section["hint"].get(self.lang),
                                lambda section_id=section["id"]: self.action_open_section(section_id))
