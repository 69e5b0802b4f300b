"""Textual widgets with the edge cases the monkey test found made safe (Textual 8.2).

- The command palette dismisses itself on each Enter: two Enters before it is gone dismissed it
  twice, and the second pop took the screen below (ScreenStackError, the app ended).
- OptionList's page up/down reads the line index of the highlighted option, which exists only
  after the list has been laid out: PageUp right after a list is refilled (or as the command
  palette opens) raised KeyError and ended the app.
- A text field's (and an option list's) editing keys (Backspace, Delete, arrows, Home, End, ctrl+w, …) are bindings, which
  Textual runs only once the key has bubbled from the field up to the app, while a printable key is
  inserted by the field at once. Typed fast, a Backspace then ran after the digits typed behind it
  (walkthrough minor 1: select-all, BSpace 4 left the field blank). Here a field runs its own
  editing bindings as it reads the key, in the order typed.
"""

from __future__ import annotations

from textual import work
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.widgets import Input, OptionList

from tutor.ui.guard import Guarded, guarded


def _page_is_safe(option_list: OptionList) -> bool:
    option_list._update_lines()
    return (option_list.highlighted or 0) in option_list._index_to_line


_textual_move_page = OptionList._move_page


def _move_page_when_laid_out(self: OptionList, direction) -> None:
    if _page_is_safe(self):
        _textual_move_page(self, direction)


# Patched on the base class, not only on our subclass: a Select's overlay is one of Textual's own
# OptionLists, and PageDown on a just-opened Select ended the app the same way (monkey seed 1603).
OptionList._move_page = _move_page_when_laid_out


# Keys that act on what holds the field, not on its text: they keep Textual's order (the command
# palette's Enter selects the highlighted command; run in the palette's Input first, it submitted
# the Input and the command never ran: tests/e2e/test_serve.py's download test in Chromium, twice;
# Pilot's Enter took another path and did not show it).
_NOT_EDITING = frozenset({"enter", "escape", "tab", "shift+tab"})


def _in_order(textual_on_key):
    async def _on_key(self, event) -> None:
        if not event.is_printable and event.key not in _NOT_EDITING:
            restart_blink = getattr(self, "_restart_blink", None)
            if restart_blink is not None:
                restart_blink()  # as Textual's field does for every key: the cursor shows while typing
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if binding.priority:
                    continue  # the app ran it already, before the key reached the field
                if await self.app.run_action(binding.action, self):
                    event.prevent_default()
                    event.stop()
                    return
                break  # skipped or disabled here: the key goes on to the parents as usual
        await textual_on_key(self, event)

    return _on_key


def keys_in_order(field_class) -> None:
    """Make a text-field class run its editing bindings in the order typed (once per class)."""
    if not getattr(field_class._on_key, "_tutor_in_order", False):
        field_class._on_key = _in_order(field_class._on_key)
        field_class._on_key._tutor_in_order = True


# On the base classes: every text field and option list of the app, ours and those inside
# Textual's widgets (a Select's overlay, the palette's list); the TextArea of the answer box is
# patched where it is imported, as it is not needed at start-up. An option list's space (tick an
# option) typed just before ctrl+s is then ticked before the answer is read.
keys_in_order(Input)
keys_in_order(OptionList)


class SafeOptionList(OptionList, metaclass=Guarded):
    """An OptionList whose handlers are guarded (page moves are made safe for every OptionList above)."""


class SafeCommandPalette(CommandPalette, metaclass=Guarded):
    """The palette, with its list's key actions guarded (its CommandList is Textual's own), closed once."""

    _dismissed = False

    def dismiss(self, result=None):
        if self._dismissed or not self.is_current:
            return None  # already going: a second pop would take the screen below
        self._dismissed = True
        return super().dismiss(result)

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        # Textual's search worker asks for the palette's CommandList; dismissed while it searched (a key
        # that closes it right after a letter, seen once in the monkey test on a loaded machine), the list
        # is gone and the worker's NoMatches ended the app. The search is then for nobody: drop it.
        try:
            await CommandPalette._gather_commands.__wrapped__(self, search_value)
        except NoMatches:
            return

    @guarded
    def _action_command_list(self, action: str) -> None:
        if action in ("page_up", "page_down"):
            from textual.command import CommandList

            if not _page_is_safe(self.query_one(CommandList)):
                return
        super()._action_command_list(action)
