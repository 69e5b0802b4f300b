"""The app's one-line text field: its keystrokes repaint it, not its whole screen, and it takes no
control characters (nor does the answer area, `answer_box.AnswerArea`, with `typed_lines`).

Textual's Input sets its `virtual_size` on every change of its value (the width of the text, for
scrolling), and `virtual_size` is a Widget reactive declared `layout=True`: every key typed into
a field re-laid-out the whole screen. On Practice at 80×24 that was ~17 ms of each key's CPU
(cProfile over 300 keys; a minimal app with one Input pays ~4 ms for the same layout), so 5,000
characters typed key by key took ~80 s of CPU (issue 16). A layout is needed when a widget's
scrollbars can appear or go; an Input has neither (its horizontal scrollbar is size 0), keeps its
size whatever its text, and scrolls its own line to the cursor from `virtual_size`, which it still
gets: a repaint is enough. Declared in a subclass, as Textual's reactives are meant to be.

Pasted text can carry control characters (NUL, ESC, BEL, CR from a terminal or a web page): they
landed in the field as typed, invisible there, and went on to the graders, the search and the
playground (issue 16). They are dropped where text enters, a tab read as a space.
"""

from __future__ import annotations

import re

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

# C0 controls and DEL, and the C1 block; a line break is kept only where lines are (the area).
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_CONTROL_BUT_NEWLINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def typed_line(text: str) -> str:
    """Text for a one-line field: no control characters, a tab a space."""
    return _CONTROL.sub("", text.replace("\t", " "))


def typed_lines(text: str) -> str:
    """Text for the answer area: lines kept (a CR LF or a lone CR is a line break), no other control
    characters, a tab a space."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    return _CONTROL_BUT_NEWLINE.sub("", text)


class TextField(Input):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def replace(self, text: str, start: int, end: int) -> None:
        # Every edit of Input ends here (a key, a paste, insert and insert_text_at_cursor alike),
        # so one override covers them all; setting `value` is the program's, not the learner's.
        super().replace(typed_line(text), start, end)

