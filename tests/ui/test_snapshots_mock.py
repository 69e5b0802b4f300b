"""What the mock-interview and review screens look like, in both languages, on fixture content.

The mock screen runs on a ManualClock, so its timer and the report's times and dates are fixed;
every snapshot waits for background workers. Update with
`pytest tests/ui/test_snapshots_mock.py --snapshot-update` after a deliberate change.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.ui.helpers import settle
from tests.ui.mock_helpers import answer, mock_app, open_mock, start
from tutor.interview.clock import ManualClock

LANGS = ["en", "zh"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_mock_hang_stage_with_the_clock(snap_compare, mock_content, lang):
    """A step-N hang in strict mode at 110×34, 65 s into its first stage: the clock panel shows
    3:55 left, stage 1 of 3 and "strict: cut off at 0:00"; on the right the scenario, "Step 1 of 3",
    "Which rank?", then rank 0's py-spy dump (all_gather inside save_checkpoint) and the start of
    rank 1's; at the bottom the two options, rank 0 highlighted; the footer offers Submit and End
    interview but no hint or lesson (strict mode)."""
    clock = ManualClock()

    async def hang_stage(pilot):
        screen = await open_mock(pilot)
        await start(pilot, screen, "hang")
        clock.advance(65)
        screen.tick()
        await settle(pilot)

    assert snap_compare(mock_app(clock, lang), terminal_size=(110, 34), run_before=hang_stage)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_mock_pitch_report(snap_compare, mock_content, lang):
    """The report of a 30-second pitch at 110×34, answered in 24 s with one of its two key points
    and not the required one (50% ✗), so a follow-up was asked and answered right in 1:10 (100% ✓):
    the title with the format and strict mode, the date, 1:34 used of 3:30 and the score 75%; the
    verdict (hire, communication and structure 100%) with its reasons (key points 2 of 3,
    follow-ups 1 of 1); the stages table with both rows and their times; the rubric — key points 2 of 3 with "Memory first."
    missed, time used, follow-ups 1 asked and 1 right; what to review next (Memory first,
    basics/memory, #1); the footer offers F8 to export the report."""
    clock = ManualClock()
    assert snap_compare(mock_app(clock, lang), terminal_size=(110, 34), run_before=_pitch_report(clock))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_mock_pitch_report_at_80x24(snap_compare, mock_content, lang):
    """The same report at 80×24 (issue 16: in Chinese its stages table was squeezed into 37
    columns, the "#" column empty, "得…", "10…" and each time over three lines): the format list
    narrows to 30 columns and the stages reflow as a list, one item per stage with every cell named
    ("1 — 阶段：陈述 · 得分：60% ✗ · 用时：0:24 / 0:30")."""
    clock = ManualClock()
    assert snap_compare(mock_app(clock, lang), terminal_size=(80, 24), run_before=_pitch_report(clock))


def _pitch_report(clock):
    async def pitch_report(pilot):
        screen = await open_mock(pilot)
        await start(pilot, screen, "pitch")
        clock.advance(24)
        await answer(pilot, screen, "TP inside the node, always.")
        clock.advance(timedelta(minutes=1, seconds=10).total_seconds())
        await answer(pilot, screen)
        pilot.app.clear_notifications()  # the "recorded" toasts time out on the wall clock
        await settle(pilot)

    return pitch_report
