"""A seeded monkey for Pilot: random keys, digits, deletions, tiny and huge numbers, CJK and pasted
text, sent to whatever has focus, in bursts as a fast typist would.

Every few bursts it also focuses a random widget of the screen's focus chain and opens a random
tab, so each field and tab is hit whatever the keys do; if the keys leave the screen (Esc, a
section key, the palette) it goes back. The same seed gives the same events. Any error the app
catches (a notification plus a log line) or cannot survive (Pilot re-raises it) fails the test,
with the seed and the last events in the message.
"""

from __future__ import annotations

import random
import unicodedata

from textual import events
from textual.screen import ModalScreen
from textual.widgets import TabbedContent

NAMED_KEYS = ["backspace", "delete", "enter", "tab", "shift+tab", "left", "right", "up", "down", "home", "end",
              "pageup", "pagedown", "space", "escape", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
              "ctrl+s", "ctrl+p", "ctrl+a", "ctrl+e", "ctrl+k", "ctrl+u", "ctrl+w", "ctrl+z", "ctrl+y", "q", "n",
              "b", "p", "g", "t", "r", "a", "v", "l", "m"]
WORDS = ["0", "1", "16", "0.5", "-1", "1e-30", "1e308", "9" * 40, "7.", ".", "e", "1e", "nan", "inf", "TP=8 PP=16",
         "39 GB", "2.8 h", "54万 tokens/s", "43 天", "1/3", "6*Psi + 12*Psi/N", "Psi/(TP*PP", "**", "[bold]",
         "[/]", "{x}", "%s", "\\", "rank 0 waits in broadcast", "数据并行 张量并行 流水线", "ＴＰ＝８", "１２３",
         "🙂", "\t", "a" * 300]
PASTES = ["TP=8 PP=2 CP=1 DP=4", "64\n128", "line one\nline two\r\nthree", "x" * 2000, "[red]not markup[/red]",
          "１６", "全局批量 16", "1e999", "0" * 50]
EXCLUDED_BY_DEFAULT = frozenset()


class Monkey:
    def __init__(self, seed: int, exclude: frozenset[str] = EXCLUDED_BY_DEFAULT):
        self.random = random.Random(seed)
        self.seed = seed
        self.sent = 0
        self.recent: list[str] = []
        self.named = [key for key in NAMED_KEYS if key not in exclude]

    def _one(self) -> list[str] | str:
        """One event: a list of keys, or a str to paste."""
        roll = self.random.random()
        if roll < 0.30:
            return [self.random.choice(self.named)]
        if roll < 0.55:
            return [self.random.choice("0123456789")]
        if roll < 0.75:
            return [chr(self.random.randint(32, 126))]
        if roll < 0.82:
            return [chr(self.random.randint(0x4E00, 0x9FA5))]
        if roll < 0.95:
            return list(self.random.choice(WORDS))
        return self.random.choice(PASTES)

    async def burst(self, pilot, size: int) -> None:
        """Send `size` events without waiting in between, then let the app catch up."""
        driver = pilot.app._driver
        for _ in range(size):
            event = self._one()
            self.sent += 1
            if isinstance(event, str):
                self._remember(f"paste {event[:20]!r}")
                target = pilot.app.focused or pilot.app.screen
                target.post_message(events.Paste(event))
                continue
            for key in event:
                self._remember(key)
                driver.send_message(_key_event(pilot.app, key))
        await drain(pilot.app)

    def _remember(self, what: str) -> None:
        self.recent.append(what)
        del self.recent[:-40]

    def where(self) -> str:
        return f"seed {self.seed}, after {self.sent} events; last: {' '.join(self.recent)}"

    def shake(self, screen) -> None:
        """Focus a random widget of the focus chain and open a random tab of each tab set."""
        from textual.css.query import NoMatches

        for tabs in screen.query(TabbedContent):
            panes = [pane.id for pane in tabs.query("TabPane") if pane.id]
            if panes:
                try:
                    tabs.active = self.random.choice(panes)
                except NoMatches:  # a tab set still being composed: only the harness can reach it now
                    pass
        chain = [widget for widget in screen.focus_chain if widget.display]
        if chain:
            self.random.choice(chain).focus()


def _key_event(app, key: str) -> events.Key:
    """The event Pilot's press() would send for `key` (a name, or one character)."""
    from textual.keys import _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        name = _character_to_key(key)
        return events.Key(name, key)
    if len(key) == 1:
        return events.Key(key, key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = None
    return events.Key(key, char)


async def drain(app, rounds: int = 2000) -> None:
    """Yield to the event loop until the app, its screen and the focused widget have no messages
    waiting (pilot.pause() waits for the CPU to go idle: ~90 ms each, too slow for 20,000 events)."""
    import asyncio

    quiet = 0
    for _ in range(rounds):
        await asyncio.sleep(0)
        nodes = [app, app.screen, app.focused, getattr(app.focused, "parent", None)]
        if all(node is None or node._message_queue.empty() for node in nodes):
            quiet += 1
            if quiet >= 3:
                return
        else:
            quiet = 0


async def back_to(pilot, mode: str, make_screen=None) -> None:
    """Close dialogs and the palette, and return to `mode` (and its pushed screen, if any).

    Waits with `drain`, not `pilot.pause()`: a pause waits for the process's CPU to go quiet,
    which on a loaded machine took ~1.8 s per return (a third of a screen's monkey time)."""
    app = pilot.app
    while isinstance(app.screen, ModalScreen):
        app.pop_screen()
        await drain(app)
    if app.current_mode != mode:
        await app.switch_mode(mode)
        await drain(app)
    if make_screen is not None and not isinstance(app.screen, make_screen):
        while len(app.screen_stack) > 1:
            app.pop_screen()
        app.push_screen(make_screen())
        await drain(app)


async def run_monkey(pilot, mode: str, seed: int, events_wanted: int, make_screen=None, shake_every: int = 3,
                     exclude: frozenset[str] = EXCLUDED_BY_DEFAULT, after_burst=None) -> Monkey:
    """Drive `mode` with `events_wanted` random events; fail on the first error the app reports."""
    app = pilot.app
    exits: list[object] = []
    app.exit = lambda *args, **kwargs: exits.append(args)  # q stays a key to press, not an end of the test
    monkey = Monkey(seed, exclude)
    bursts = 0
    await back_to(pilot, mode, make_screen)
    while monkey.sent < events_wanted:
        if bursts % shake_every == 0:
            monkey.shake(app.screen)
        await monkey.burst(pilot, monkey.random.randint(1, 40))
        bursts += 1
        assert not app.ui_errors, _failure(app.ui_errors[0], monkey)
        assert app._exception is None, f"{app._exception!r} ({monkey.where()})"
        if after_burst is not None:
            await after_burst(pilot)
        if bursts % 10 == 0:
            await pilot.pause()  # now and then, let workers and timers catch up too
        await back_to(pilot, mode, make_screen)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert not app.ui_errors, _failure(app.ui_errors[0], monkey)
    return monkey


def _failure(caught, monkey) -> str:
    import traceback

    where, error = caught
    frames = traceback.format_exception(type(error), error, error.__traceback__)
    return f"{where}: {error!r} ({monkey.where()})\n" + "".join(frames[-4:])
