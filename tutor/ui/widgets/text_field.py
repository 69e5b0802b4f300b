"""A one-line text field whose keystrokes repaint it, not its whole screen.

Textual's Input sets its `virtual_size` on every change of its value (the width of the text, for
scrolling), and `virtual_size` is a Widget reactive declared `layout=True`: every key typed into
a field re-laid-out the whole screen. On Practice at 80×24 that was ~17 ms of each key's CPU
(cProfile over 300 keys; a minimal app with one Input pays ~4 ms for the same layout), so 5,000
characters typed key by key took ~80 s of CPU (issue 16). A layout is needed when a widget's
scrollbars can appear or go; an Input has neither (its horizontal scrollbar is size 0), keeps its
size whatever its text, and scrolls its own line to the cursor from `virtual_size`, which it still
gets: a repaint is enough. Declared in a subclass, as Textual's reactives are meant to be.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class TextField(Input):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
