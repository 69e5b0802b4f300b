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


def after_typed(app, callback) -> None:
    """Run `callback` once the keys already typed are handled. A priority key (ctrl+s) is acted on
    as the app reads it, ahead of keys typed just before it that are still on their way (the
    screen's queue, then the field's): typed fast, "space ctrl+s" submitted before the option was
    ticked, and "200 GPUs ctrl+s" could lose its last letters."""
    screen = app.screen

    def when_idle(hops: int = 0) -> None:
        # A key may post a message of its own to the field (an option list's space posts
        # OptionSelected, which ticks the option): wait until the screen's and the field's queues
        # are empty, a few hops at most. `_message_queue` is Textual's (8.2): there is no public
        # "idle" query.
        pending = [node for node in (screen, app.focused)
                   if node is not None and not getattr(node, "_message_queue").empty()]
        if hops < 20 and pending:
            pending[-1].call_later(when_idle, hops + 1)
        else:
            callback()

    screen.call_later(when_idle)
