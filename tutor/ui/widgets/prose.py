"""A Markdown pane whose Chinese text is unfolded (tutor/ui/cjk_text.py) before it is rendered."""

from __future__ import annotations

from textual.widgets import Markdown

from tutor.ui.cjk_text import unfold


class Prose(Markdown):
    """Markdown, without the spaces Chinese line folding would leave (walkthrough polish 6).
    Queries for `Markdown` and the stylesheet's `Markdown` rules still find it."""

    def __init__(self, markdown: str | None = None, **kwargs) -> None:
        super().__init__(unfold(markdown) if markdown else markdown, **kwargs)

    def update(self, markdown: str):
        return super().update(unfold(markdown))
