"""Asked when the mock screen opens and an interview was left running: resume it or abandon it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tutor.ui.guard import Guarded


class ResumeDialog(ModalScreen[str], metaclass=Guarded):
    """Dismisses with "resume", "abandon" or "later" (Esc: decide next time)."""

    DEFAULT_CSS = """
    ResumeDialog { align: center middle; }
    #resume-dialog { width: 64; height: auto; border: thick $warning; background: $surface; padding: 1 2; }
    #resume-buttons { height: auto; margin-top: 1; }
    #resume-buttons Button { margin-right: 2; }
    """
    BINDINGS = [Binding("r", "choose('resume')", "Resume", id="resume"),
                Binding("a", "choose('abandon')", "Abandon", id="abandon"),
                Binding("escape", "choose('later')", "Later", id="later")]

    def __init__(self, message: str, resume_label: str, abandon_label: str):
        super().__init__()
        self._message, self._resume, self._abandon = message, resume_label, abandon_label

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-dialog"):
            yield Static(self._message, id="resume-message")
            with Horizontal(id="resume-buttons"):
                yield Button(self._resume, id="resume", variant="primary")
                yield Button(self._abandon, id="abandon", variant="warning")

    _chosen = False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id)

    def action_choose(self, choice: str) -> None:
        # Once: a second key before the dialog is gone would pop the screen below it.
        if not self._chosen:
            self._chosen = True
            self.dismiss(choice)
