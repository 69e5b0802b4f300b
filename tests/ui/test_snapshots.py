"""What the screens look like, in both languages, from fixture content and an empty history."""

from __future__ import annotations

import pytest

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_screen(snap_compare, fixture_content, lang):
    """Home at 80×24: the six sections, each with its key in reverse video and a one-line hint
    under its name; the Today panel (1 lesson, 2 questions, 1 lab; no attempts yet; 0 reviews
    due); What's new; the key hint line; the footer with q, F1, F2 and the palette."""
    assert snap_compare(TutorApp(lang=lang), terminal_size=(80, 24), run_before=settle)
