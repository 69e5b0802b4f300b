"""The right input for each kind of step: a line, a TP/PP/CP/EP/DP form, options, free text."""

from __future__ import annotations

import re
import unicodedata

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Input, Label, SelectionList, TextArea
from textual.widgets.text_area import EditResult, Location

from tutor.ui.guard import Guarded
from tutor.ui.strings import text
from tutor.ui.widgets.layout_size import NotASize, read_size
from tutor.ui.widgets.safe import keys_in_order
from tutor.ui.widgets.text_field import TextField, typed_lines
from tutor.units import UNITLESS

keys_in_order(TextArea)  # Backspace typed fast runs in order in free-text answers too (minor 1)

CONFIG_DIMS = ("tp", "pp", "cp", "ep", "dp", "vpp")
# A size is taken whole (sign, decimals, exponent and all), for the box to refuse what is not a
# whole number: reading only its first digits made `TP=1e308` TP=1 and `PP=1.5` PP=1.
LAYOUT = re.compile(r"\b(VPP|TP|PP|CP|EP|DP)\s*[=:×x]?\s*(-?\d[\d.,eE+-]*)", re.IGNORECASE)


class AnswerArea(TextArea):
    """The free-text answer, without control characters (text_field.py says why). Keys, a paste and
    ctrl+v all come through `_replace_via_keyboard`, Textual's one hook for an edit the learner made;
    the program's own edits (clearing it for the next step) do not."""

    def _replace_via_keyboard(self, insert: str, start: Location, end: Location) -> EditResult | None:
        return super()._replace_via_keyboard(typed_lines(insert), start, end)


class AnswerBox(Vertical, metaclass=Guarded):
    """Holds one input per kind and shows the one the current step needs."""

    DEFAULT_CSS = """
    AnswerBox {
        height: auto;
    }
    #answer-kinds {
        height: auto;
    }
    #answer-config {
        height: 3;
    }
    .config-label {
        padding: 1 0 0 1;
    }
    .config-field {
        width: 9;
    }
    #answer-choices {
        height: auto;
        max-height: 24;
        text-wrap: wrap;  /* every option whole, at any width (walkthrough M9) */
        text-overflow: fold;
    }
    #answer-text {
        height: 8;
    }
    """

    def compose(self) -> ComposeResult:
        with ContentSwitcher(id="answer-kinds", initial="answer-line"):
            yield TextField(id="answer-line", select_on_focus=False)
            with Horizontal(id="answer-config"):
                for dim in CONFIG_DIMS:
                    yield Label(dim.upper(), classes="config-label")
                    # No restrict: "TP=8 PP=16 CP=1 DP=32", as the questions write it, typed or pasted into
                    # any box, is spread over the boxes (walkthrough minor 11: TP became 816132).
                    yield TextField(id=f"config-{dim}", classes="config-field")
            yield SelectionList[str](id="answer-choices")
            yield AnswerArea(id="answer-text", soft_wrap=True, show_line_numbers=False)

    def on_input_blurred(self, event: Input.Blurred) -> None:
        if event.input.has_class("config-field"):
            self._spread(event.input)

    def _spread(self, box: Input) -> None:
        """Named values typed in one box ("TP=8 PP=16 …") go to their own boxes; done when the
        learner leaves the box or submits, so typing it key by key is not cut short."""
        value = unicodedata.normalize("NFKC", box.value)  # ＴＰ＝８ typed with a Chinese input method on
        matches = list(LAYOUT.finditer(value))
        if not matches:
            return
        own = box.id.removeprefix("config-")
        mine = value[:matches[0].start()].strip(" ,;")
        for match in matches:
            dim, number = match.group(1).lower(), match.group(2).rstrip(",.")
            if dim == own:
                mine = number
            else:
                self.query_one(f"#config-{dim}", Input).value = number
        box.value = mine

    def prepare(self, step, lang: str) -> None:
        """Clear the inputs and show the one this step needs."""
        self.kind = step.kind
        self._step, self._lang = step, lang
        switcher = self.query_one("#answer-kinds", ContentSwitcher)
        if step.kind in ("numeric", "formula"):
            line = self.query_one("#answer-line", Input)
            line.value = ""
            self._fit_placeholder()
            switcher.current = "answer-line"
        elif step.kind == "config":
            for dim in CONFIG_DIMS:
                self.query_one(f"#config-{dim}", Input).value = ""
            switcher.current = "answer-config"
        elif step.kind == "choice":
            choices = self.query_one("#answer-choices", SelectionList)
            choices.clear_options()
            choices.add_options((f"{option.id}) {option.text.get(lang)}", option.id) for option in step.options)
            choices.highlighted = 0
            switcher.current = "answer-choices"
        else:
            area = self.query_one("#answer-text", TextArea)
            area.text = ""
            switcher.current = "answer-text"

    def relabel(self, step, lang: str) -> None:
        """Switch the language of option texts and placeholders without losing what was typed."""
        if step.kind == "choice":
            choices = self.query_one("#answer-choices", SelectionList)
            chosen = set(choices.selected)
            choices.clear_options()
            choices.add_options((f"{option.id}) {option.text.get(lang)}", option.id, option.id in chosen)
                                for option in step.options)
        elif step.kind in ("numeric", "formula"):
            self._step, self._lang = step, lang
            self._fit_placeholder()

    _step = None
    _lang = "en"

    def on_resize(self) -> None:
        self._fit_placeholder()  # the question list shown or hidden, the terminal resized

    def _fit_placeholder(self) -> None:
        """The answer line's hint, whole: the long one where it fits the line, else the short one
        (issue 16: at 80 columns, beside the question list, the long one was cut after "e-notation,").
        The short one's line keeps the long one as its tooltip."""
        step = self._step
        if step is None or step.kind not in ("numeric", "formula"):
            return
        line = self.query_one("#answer-line", Input)
        full, short = _placeholders(step, self._lang)
        room = self.content_region.width - line.styles.gutter.width
        fits = room <= 0 or cell_len(full) <= room  # not laid out yet: on_resize comes next
        line.placeholder = full if fits else short
        line.tooltip = None if fits else full

    def answer(self) -> str:
        """What the learner gave, as the text the graders read."""
        if self.kind in ("numeric", "formula"):
            return self.query_one("#answer-line", Input).value
        if self.kind == "config":
            sizes = self._sizes()
            return " ".join(f"{dim.upper()}={size}" for dim, size in sizes.items() if size)
        if self.kind == "choice":
            return ", ".join(self.query_one("#answer-choices", SelectionList).selected)
        return self.query_one("#answer-text", TextArea).text

    def problem(self, lang: str) -> str | None:
        """Why the answer cannot be graded as typed, in the learner's language; None when it can.
        A layout box holding anything but a whole number is named (issue 16: `-1` was graded TP=1)."""
        if self.kind != "config":
            return None
        for dim, size in self._sizes().items():
            if size is None:
                return text("answer.config.whole", lang, dim=dim.upper())
        return None

    def _sizes(self) -> dict[str, str | None]:
        """Each layout box's size as digits ('' when empty), None where it is not a whole number:
        left out of an answer taken when time is up, not misread."""
        sizes: dict[str, str | None] = {}
        for dim in CONFIG_DIMS:
            box = self.query_one(f"#config-{dim}", Input)
            self._spread(box)
            try:
                sizes[dim] = read_size(box.value)
            except NotASize:
                sizes[dim] = None
        return sizes

    def focus_input(self) -> None:
        target = {"numeric": "#answer-line", "formula": "#answer-line", "config": "#config-tp",
                  "choice": "#answer-choices"}.get(self.kind, "#answer-text")
        self.query_one(target).focus()


ZH_UNITS = {"days": "天", "h": "小时", "s": "秒", "min": "分钟", "ms": "毫秒", "params": "参数", "GPUs": "张卡"}


def _placeholders(step, lang: str) -> tuple[str, str]:
    """The hints of the answer line, long and short: the unit named in the learner's language, and
    none for a plain count (walkthrough polish 4: "(unit: x)"; minor 22: "(单位:days)")."""
    if step.kind != "numeric":
        return text(f"answer.{step.kind}", lang), text(f"answer.{step.kind}.short", lang)
    unit = str(getattr(getattr(step, "answer", None), "unit", "") or "")
    if unit in UNITLESS:
        return text("answer.numeric", lang, unit=""), text("answer.numeric.plain", lang)
    unit = ZH_UNITS.get(unit, unit) if lang == "zh" else unit
    return (text("answer.numeric", lang, unit=text("answer.unit", lang, unit=unit)),
            text("answer.numeric.short", lang, unit=unit))
