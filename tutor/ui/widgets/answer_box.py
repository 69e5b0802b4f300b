"""The right input for each kind of step: a line, a TP/PP/CP/EP/DP form, options, free text."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Input, Label, SelectionList, TextArea

from tutor.ui.guard import Guarded
from tutor.ui.strings import text

CONFIG_DIMS = ("tp", "pp", "cp", "ep", "dp", "vpp")


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
        max-height: 12;
    }
    #answer-text {
        height: 8;
    }
    """

    def compose(self) -> ComposeResult:
        with ContentSwitcher(id="answer-kinds", initial="answer-line"):
            yield Input(id="answer-line", select_on_focus=False)
            with Horizontal(id="answer-config"):
                for dim in CONFIG_DIMS:
                    yield Label(dim.upper(), classes="config-label")
                    yield Input(id=f"config-{dim}", restrict=r"\d{0,6}", classes="config-field")
            yield SelectionList[str](id="answer-choices")
            yield TextArea(id="answer-text", soft_wrap=True, show_line_numbers=False)

    def prepare(self, step, lang: str) -> None:
        """Clear the inputs and show the one this step needs."""
        self.kind = step.kind
        switcher = self.query_one("#answer-kinds", ContentSwitcher)
        if step.kind in ("numeric", "formula"):
            line = self.query_one("#answer-line", Input)
            line.value = ""
            line.placeholder = text(f"answer.{step.kind}", lang,
                                    unit=getattr(getattr(step, "answer", None), "unit", ""))
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
            self.query_one("#answer-line", Input).placeholder = text(
                f"answer.{step.kind}", lang, unit=getattr(getattr(step, "answer", None), "unit", ""))

    def answer(self) -> str:
        """What the learner gave, as the text the graders read."""
        if self.kind in ("numeric", "formula"):
            return self.query_one("#answer-line", Input).value
        if self.kind == "config":
            parts = [f"{dim.upper()}={self.query_one(f'#config-{dim}', Input).value}" for dim in CONFIG_DIMS
                     if self.query_one(f"#config-{dim}", Input).value]
            return " ".join(parts)
        if self.kind == "choice":
            return ", ".join(self.query_one("#answer-choices", SelectionList).selected)
        return self.query_one("#answer-text", TextArea).text

    def focus_input(self) -> None:
        target = {"numeric": "#answer-line", "formula": "#answer-line", "config": "#config-tp",
                  "choice": "#answer-choices"}.get(self.kind, "#answer-text")
        self.query_one(target).focus()
