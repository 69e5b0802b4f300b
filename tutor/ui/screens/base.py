"""What every section screen shares: the way home, the header and footer, language changes."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen

from tutor.ui.guard import Guarded


class SectionScreen(Screen, metaclass=Guarded):
    """A top-level mode. Subclasses draw their texts in `render_texts(lang)`."""

    BINDINGS = [
        Binding("escape", "app.switch_mode('home')", "Home", id="home"),
        # Tab and Shift+Tab move focus as the app reads the key, not once the key has bubbled up
        # from the field being left: keys typed right after a Tab were otherwise already queued on
        # that old field and landed there (walkthrough minor 1: BSpace 8 1 9 2 after Shift+Tab gave
        # 81992). No screen of ours takes Tab as text.
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
    ]

    def on_mount(self) -> None:
        self.app.section_screens[type(self).__name__] = self
        self.watch(self.app, "lang", self.render_texts)

    def busy_with(self, lang: str) -> str | None:
        """What leaving the app now would interrupt on this screen, or None."""
        return None

    def render_texts(self, lang: str) -> None:
        """Draw every language-dependent text; called on mount and on each language switch."""
