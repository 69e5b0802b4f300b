"""A yes/no question before something that cannot be undone: quitting mid-mock or mid-lab, ending
an interview. y or Enter says yes; n or Esc says no."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tutor.ui.guard import Guarded


class ConfirmDialog(ModalScreen[bool], metaclass=Guarded):
    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    #confirm-dialog { width: 64; max-width: 95%; height: auto; border: thick $warning; background: $surface;
                      padding: 1 2; }
    #confirm-buttons { height: auto; margin-top: 1; }
    #confirm-buttons Button { margin-right: 2; }
    """
    BINDINGS = [Binding("y", "answer(True)", show=False), Binding("n", "answer(False)", show=False),
                Binding("escape", "answer(False)", show=False)]

    def __init__(self, message: str, yes: str, no: str):
        super().__init__()
        self._message, self._yes, self._no = message, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(self._message, id="confirm-message", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button(self._yes, id="confirm-yes", variant="warning")
                yield Button(self._no, id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()  # Enter on the dialog keeps what is going on

    _answered = False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        # Once: two keys in one burst (n, then Esc) would dismiss twice and pop the screen below.
        # And only from the top of the stack: answered while another mode's screen is current
        # (the monkey got there), dismiss pops that mode's only screen. It waits for its screen.
        if not self._answered and self.app.screen is self:
            self._answered = True
            self.dismiss(yes)
