"""What each screen looks like at 80×24 and 120×36, in both languages, from fixture content and a
fresh history (walkthrough item 3: readable at both sizes; Chinese mode fully Chinese).

Every snapshot waits for background workers, and no screen shows a clock, so the pictures are
stable. Update them with `pytest tests/ui --snapshot-update` after a deliberate change.
"""

from __future__ import annotations

import pytest

from tests.ui.helpers import open_labs, settle
from tests.ui.mock_helpers import mock_app, open_mock
from tutor.interview.clock import ManualClock
from tutor.ui.app import TutorApp

LANGS = ["en", "zh"]
SIZES = [(80, 24), (120, 36)]
SCENARIO = {"model": "lesson-70b", "gpus": 64, "tp": 4, "pp": 4, "cp": 1, "seq": 8192, "micro_batch": 1,
            "global_batch": 512, "sharding": "distopt"}
matrix = pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_home_screen(snap_compare, fixture_content, lang, size):
    """Home: the six sections, each with its key in reverse video and a one-line hint under its
    name; the Today panel (1 lesson, 2 questions, 1 lab; no attempts yet; 0 reviews due, v to
    review them); What's new; the key hint line; the footer (q, F1, F2, palette) in the app's language."""
    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=settle)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_lessons_screen(snap_compare, fixture_content, lang, size):
    """Lessons: the contents tree with the fixture lesson and its two sections, the first marked
    read (✓); the reader showing "Memory first" with its text and the line offering p (practise,
    1 question), the lab `demo`, n and b; the footer with the lesson keys, whole at 80 columns."""
    async def open_lessons(pilot):
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=open_lessons)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_practice_screen_after_a_wrong_answer(snap_compare, fixture_content, lang, size):
    """Practice: the list (✗ and the kind tag before the model-state question, · before the other);
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
        # The cursor steady: its blink phase at the moment of the picture depends on how long
        # grading took, which made this snapshot flaky under load.
        for field in pilot.app.screen.query("Input"):
            field.cursor_blink = False
        await pilot.pause()

    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=answer_wrong)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_playground_screen_when_memory_does_not_fit(snap_compare, fixture_content, lang, size):
    """Playground on the lesson's 70B example with CP 1: the settings form on the left (31 columns
    with short labels at 80, 40 with long ones at 120; the Params box, left empty by the example,
    greyed "auto: 70B", the count the sizing uses); the memory
    bar running past capacity (85.0 GB of 80.0 GB, "does NOT fit", the part beyond the red edge
    marked) and the line asking for MFU and tokens for step time and days; the Pipeline tab with
    bubble line (2.3%), then the 1F1B timeline of 4 stages on screen, then how to read it."""
    async def open_playground(pilot):
        await settle(pilot)
        await pilot.app.open_playground(SCENARIO)
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=open_playground)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_labs_screen(snap_compare, lab_content, lang, size):
    """Labs: the list with hang-demo (not started, its kind and title); the Brief tab with the
    title, "hang · 2 ranks · no-progress limit 3 s · not started", the brief, the note that F4 makes
    a copy and F5 runs the shipped program, the key line, and the diagnosis question; the footer."""
    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=open_labs)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_mock_formats(snap_compare, mock_content, lang, size):
    """Mock: the five formats with their times and descriptions, the first highlighted, the mode
    under the list; the clock panel saying no interview is running; the introduction on the right."""
    assert snap_compare(mock_app(ManualClock(), lang), terminal_size=size, run_before=open_mock)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_progress_screen_with_no_history(snap_compare, fixture_content, lang, size):
    """Progress on a fresh history: the totals line (0 attempts, accuracy –, 0/2 questions tried,
    streak 0); the review line (0 cards) and "No mock interviews yet"; both sections and both
    tags at 0%; "No weak areas yet"."""
    async def open_progress(pilot):
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=open_progress)


@pytest.mark.timeout(60)
@matrix
@pytest.mark.parametrize("lang", LANGS)
def test_review_screen_with_nothing_due(snap_compare, fixture_content, lang, size):
    """Review (v on Home) on a fresh history: nothing is due, and it says when to come back."""
    async def open_review(pilot):
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=size, run_before=open_review)
