"""What each screen looks like, in both languages, from fixture content and a fresh history.

Every snapshot waits for background workers, and no screen shows a clock, so the pictures are
stable. Update them with `pytest tests/ui --snapshot-update` after a deliberate change.
"""

from __future__ import annotations

import pytest

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp

LANGS = ["en", "zh"]
SCENARIO = {"model": "lesson-70b", "gpus": 64, "tp": 4, "pp": 4, "cp": 1, "seq": 8192, "micro_batch": 1,
            "global_batch": 512, "sharding": "distopt"}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_home_screen(snap_compare, fixture_content, lang):
    """Home at 80×24: the six sections, each with its key in reverse video and a one-line hint
    under its name; the Today panel (1 lesson, 2 questions, 1 lab; no attempts yet; 0 reviews
    due, v to review them); What's new; the key hint line; the footer with q, F1, F2 and the palette."""
    assert snap_compare(TutorApp(lang=lang), terminal_size=(80, 24), run_before=settle)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_lessons_screen(snap_compare, fixture_content, lang):
    """Lessons at 100×30: the contents tree with the fixture lesson and its two sections, the
    first marked read (✓); the reader showing "Memory first" with its text and the line offering
    p (practise, 1 question), the lab `demo`, n and b; the footer with the lesson keys."""
    async def open_lessons(pilot):
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=(100, 30), run_before=open_lessons)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_practice_screen_after_a_wrong_answer(snap_compare, fixture_content, lang):
    """Practice at 110×34: the list (✗ before the model-state question, · before the other);
    the question with its prompt for the 70B variant; the answer line holding "1 TB"; the first
    hint; the verdict "Not right" with the grader's feedback and the invitation to try again,
    take a hint (F3) or see the answer (F5) — the expected value is not shown."""
    async def answer_wrong(pilot):
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        pilot.app.screen.open_question("memory-total")
        await settle(pilot)
        await pilot.press(*"1 TB", "enter", "f3")
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=(110, 34), run_before=answer_wrong)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_playground_screen_when_memory_does_not_fit(snap_compare, fixture_content, lang):
    """Playground at 120×40 on the lesson's 70B example with CP 1: the settings form on the
    left; the memory bar running past capacity (85.0 GB of 80.0 GB, "does NOT fit", the part
    beyond the red edge marked); the Pipeline tab with the 1F1B timeline of 4 stages, bubble 2.3%."""
    async def open_playground(pilot):
        await settle(pilot)
        await pilot.app.open_playground(SCENARIO)
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=(120, 40), run_before=open_playground)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_progress_screen_with_no_history(snap_compare, fixture_content, lang):
    """Progress at 80×24 on a fresh history: the totals line (0 attempts, accuracy –, 0/2
    questions tried, streak 0); the review line (0 cards) and "No mock interviews yet"; both
    sections and both tags at 0%; "No weak areas yet"."""
    async def open_progress(pilot):
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=(80, 24), run_before=open_progress)
