"""Mock interviews in the app, end to end: every format with right and wrong answers, the report,
strict cut-off on a frozen clock, practice-mode verdicts and hints, and an interview interrupted by
quitting that resumes or is abandoned."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Markdown

from tests.ui.helpers import settle
from tests.ui.mock_helpers import answer, mock_app, open_mock, start
from tutor.interview.clock import ManualClock
from tutor.store import Store


def _report(screen) -> str:
    return screen.query_one("#mock-question", Markdown).source


def _timer(screen) -> str:
    return str(screen.query_one("#mock-timer").render())


@pytest.mark.timeout(90)
async def test_pitch_wrong_answer_draws_a_follow_up_and_the_report_counts_both(tutor_home, mock_content):
    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "pitch")
        assert "Pitch the recipe in thirty seconds." in _report(screen) and "0:30" in _timer(screen)
        clock.advance(20)
        await answer(pilot, screen, "GPUs are fast")
        assert screen.session.current.followup and "why 16 bytes" in _report(screen)
        assert "follow-up question" in _timer(screen)
        await answer(pilot, screen)
        report = _report(screen)
        assert report.startswith("# Mock interview — 30-second pitch (strict)")
        assert "| 1 | The pitch | 0% ✗ | 0:20 / 0:30 |" in report and "- Follow-ups: 1 asked, 1 right" in report
        assert "- Key points covered: 1 of 3 — missed: Memory first; TP inside the node\n" in report
        assert "**Memory first** (`basics/memory`) — #1" in report


@pytest.mark.timeout(90)
async def test_design_in_practice_mode_keeps_the_numbers_back_until_asked_and_shows_verdicts(tutor_home, mock_content):
    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "design", practice=True)
        assert "After your questions" not in _report(screen) and "What do you ask first?" in _report(screen)
        await answer(pilot, screen)
        verdict = screen.query_one("#mock-verdict", Markdown).source
        assert verdict.startswith("### ✓ Right") and "F6: next question" in verdict
        await pilot.press("f6")
        await settle(pilot)
        assert "After your questions: dense" in _report(screen)
        await answer(pilot, screen, "5 GB")
        assert screen.query_one("#mock-verdict", Markdown).source.startswith("### ✗ Not right")
        await pilot.press("f6")
        await settle(pilot)
        assert screen.session.current.followup
        await pilot.press("f5")  # the lesson section, practice mode only
        assert screen.query_one("#mock-hints", Markdown).source.startswith("**Memory first**")
        await answer(pilot, screen)
        await pilot.press("f6")
        await settle(pilot)
        await answer(pilot, screen, "checkpoint it and monitor it")
        await pilot.press("f2")  # the verdict of the last stage, in Chinese, before the report
        await settle(pilot)
        assert "怎样让它稳定跑几周？" in _report(screen)
        assert screen.query_one("#mock-verdict", Markdown).source.startswith("### ✓ 正确")
        await pilot.press("f2", "f6")
        await settle(pilot)
        report = _report(screen)
        assert "(practice)" in report and "- Clarifying questions asked: 2 of 2" in report
        assert "- Numbers right: 0 of 1" in report and "- Key points covered: 3 of 3" in report


@pytest.mark.timeout(90)
async def test_debug_in_strict_mode_is_cut_off_when_time_is_up(tutor_home, mock_content):
    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "debug")
        assert "5:00" in _timer(screen) and "throughput" in _report(screen)
        await pilot.press("f3")  # strict: no hints
        assert screen.query_one("#mock-hints", Markdown).source == ""
        await answer(pilot, screen)
        assert screen.session.current.step_id == "classify"
        from tests.ui.mock_helpers import type_answer

        type_answer(screen, "b")
        clock.advance(301)
        screen.tick()
        await settle(pilot)
        assert screen.session.results[-1].timed_out and not screen.session.results[-1].correct
        assert screen.session.current.followup  # a wrong answer: the follow-up on slow training
        await answer(pilot, screen)
        await answer(pilot, screen)
        report = _report(screen)
        assert "| 2 | Which category? | 0% ✗ | 5:01 / 5:00 (time up) |" in report
        assert "- Numbers right: 1 of 1" in report


@pytest.mark.timeout(90)
async def test_hang_right_and_wrong_answers_in_chinese(tutor_home, mock_content):
    clock = ManualClock()
    app = mock_app(clock, lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "hang")
        shown = _report(screen)
        assert "rank 7 · py-spy dump" in shown and "第 1/3 步" in shown and "第 1/3 阶段" in _timer(screen)
        await answer(pilot, screen)
        await answer(pilot, screen, "不知道")
        assert screen.session.current.followup
        await answer(pilot, screen, "timeout 不是原因")
        await answer(pilot, screen)
        report = _report(screen)
        assert report.startswith("# 模拟面试——第 N 步 hang（严格模式）")
        assert "追问：问了 1 个，答对 1 个" in report and "**Hang** (`basics/hangs`) — #2" in report


@pytest.mark.timeout(120)
async def test_rapid_fire_ten_questions_half_right(tutor_home, mock_content):
    clock = ManualClock()
    app = mock_app(clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "rapid")
        assert "1:30" in _timer(screen) and "stage 1 of 10" in _timer(screen)
        for index in range(10):
            clock.advance(30)
            await answer(pilot, screen, None if index % 2 == 0 else "1 GB")
        report = _report(screen)
        assert "- Numbers right: 5 of 10" in report and "score 50%" in report
        assert "- Time used: 5:00 of 15:00" in report
    with Store() as store:
        row = store.query("SELECT status, score FROM mock_sessions")[0]
        assert row["status"] == "finished" and row["score"] == 0.5
        assert store.query("SELECT COUNT(*) AS n FROM mock_stages")[0]["n"] == 10


@pytest.mark.timeout(120)
async def test_quitting_mid_interview_then_resume_or_abandon(tutor_home, mock_content):
    clock = ManualClock()
    async with mock_app(clock).run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "hang")
        await answer(pilot, screen)
        await pilot.press("escape", "q")  # home, then quit the app mid-interview
    async with mock_app(clock).run_test(size=(120, 40)) as pilot:
        await open_mock(pilot)
        dialog = pilot.app.screen
        assert type(dialog).__name__ == "ResumeDialog"
        assert "1 of 3 stages answered" in str(dialog.query_one("#resume-message").render())
        await pilot.press("r")
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.session.current.step_id == "why" and "stage 2 of 3" in _timer(screen)
        await answer(pilot, screen)
        await pilot.press("escape", "q")
    async with mock_app(clock).run_test(size=(120, 40)) as pilot:
        await open_mock(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == "MockScreen"
    with Store() as store:
        row = store.query("SELECT status, report_json FROM mock_sessions")[0]
        assert row["status"] == "abandoned"
        assert [entry["answered"] for entry in json.loads(row["report_json"])["stages"]] == [True, True, False]
