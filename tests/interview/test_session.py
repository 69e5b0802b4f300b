"""Mock sessions: plans per format, grading and timing, follow-ups, durability (resume, abandon)."""

from __future__ import annotations

import json

import pytest

from tests.interview.helpers import right_answer
from tutor.interview.formats import FOLLOW_UP_S, FORMATS, RAPID_FIRE_QUESTIONS, RAPID_FIRE_S
from tutor.interview.history import running
from tutor.actions import mock
from tutor.interview.session import SessionError
from tutor.store import Store, attempts


def _answer_all(session, clock, answer=None, seconds=10.0):
    while not session.done:
        session.begin()
        clock.advance(seconds)
        mock.answer(session, right_answer(session) if answer is None else answer)


def test_each_format_plans_its_stages_and_budgets(store, library, clock):
    pitch = mock.start(store, library, "pitch", clock=clock, seed=1)
    assert [(s.question_id, s.budget_s) for s in pitch.stages] == [("fixture-pitch", 30.0)]
    design = mock.start(store, library, "design", clock=clock, seed=1)
    assert [s.step_id for s in design.stages] == ["clarify", "memory", "operations"]
    assert sum(s.budget_s for s in design.stages) == pytest.approx(FORMATS["design"].total_s, abs=0.5)
    assert design.stages[0].seed != 0  # parametric: new numbers, not the worked example
    hang = mock.start(store, library, "hang", clock=clock, seed=1)
    assert [s.step_id for s in hang.stages] == ["which-rank", "why", "fix"] and hang.stages[0].seed == 0
    rapid = mock.start(store, library, "rapid", clock=clock, seed=1)
    assert len(rapid.stages) == RAPID_FIRE_QUESTIONS and {s.budget_s for s in rapid.stages} == {RAPID_FIRE_S}
    assert {s.question_id for s in rapid.stages} == {"memory-total"}  # the only one-step numeric question
    assert len({s.seed for s in rapid.stages}) == RAPID_FIRE_QUESTIONS  # every repeat has other numbers
    assert {row["status"] for row in store.query("SELECT status FROM mock_sessions")} == {"running"}


def test_unknown_format_or_mode_is_one_clear_error(store, library):
    with pytest.raises(SessionError, match="unknown format 'quiz'"):
        mock.start(store, library, "quiz")
    with pytest.raises(SessionError, match="unknown mode"):
        mock.start(store, library, "pitch", mode="relaxed")


def test_right_answers_score_full_marks_and_ask_no_follow_up(store, library, clock):
    session = mock.start(store, library, "debug", clock=clock, seed=3, fuzz=False)
    _answer_all(session, clock)
    assert session.report["score"] == 1.0 and len(session.stages) == 3
    assert not any(stage.followup for stage in session.stages)
    row = store.query("SELECT status, score, report_json FROM mock_sessions WHERE id = ?", (session.id,))[0]
    assert row["status"] == "finished" and row["score"] == 1.0 and json.loads(row["report_json"])["format"] == "debug"


def test_a_wrong_answer_draws_a_follow_up_on_its_topic_then_the_interview_goes_on(store, library, clock):
    session = mock.start(store, library, "hang", clock=clock, seed=3, fuzz=False)
    session.begin()
    result = mock.answer(session, "r1")  # wrong rank
    assert not result.correct
    followup = session.current
    assert followup.followup and followup.question_id == "fixture-followup-hang"
    assert followup.budget_s == FOLLOW_UP_S
    session.begin()
    mock.answer(session, "the timeout is not the cause")
    assert [s.step_id for s in session.stages[2:]] == ["why", "fix"]
    # the plan with the follow-up was written with the stage, so a resume sees it
    state = json.loads(store.query("SELECT state_json FROM mock_sessions")[0]["state_json"])
    assert [stage["question_id"] for stage in state["stages"]][1] == "fixture-followup-hang"


def test_follow_ups_stop_at_the_format_limit_and_never_follow_a_follow_up(store, library, clock):
    session = mock.start(store, library, "pitch", clock=clock, seed=5, fuzz=False)
    _answer_all(session, clock, answer="no idea")
    assert [stage.followup for stage in session.stages] == [False, True]  # pitch asks at most one
    assert session.report["score"] == 0.0


def test_time_is_measured_on_the_injected_clock_and_over_time_is_flagged(store, library, clock):
    session = mock.start(store, library, "pitch", "practice", clock=clock, seed=1, fuzz=False)
    session.begin()
    clock.advance(12)
    assert session.remaining() == pytest.approx(18) and not session.time_up
    clock.advance(30)
    assert session.time_up and session.remaining() == pytest.approx(-12)
    result = mock.answer(session, "memory first, inside the node")
    assert result.elapsed_s == pytest.approx(42) and result.over_time and not result.timed_out


def test_hints_and_the_lesson_only_in_practice_mode(store, library, clock):
    strict = mock.start(store, library, "debug", "strict", clock=clock, seed=1)
    strict.begin()
    assert strict.hint() is None and strict.lesson_section() is None
    practice = mock.start(store, library, "debug", "practice", clock=clock, seed=2)
    practice.begin()
    assert practice.hint().en.startswith("MFU = tokens/s") and practice.hint() is None
    assert practice.lesson_section() == "basics/slow" and practice.hints_used == 1


def test_each_stage_is_stored_as_it_ends_and_an_interrupted_session_resumes(tutor_home, library, clock):
    with Store() as store:
        session = mock.start(store, library, "hang", clock=clock, seed=9, fuzz=False)
        session.begin()
        mock.answer(session, "r0")
        session_id = session.id
    # the process ends here (the app quit); a new one opens the store again
    with Store() as store:
        assert [entry["id"] for entry in running(store)] == [session_id]
        assert running(store)[0]["answered"] == 1
        resumed = mock.resume(store, library, session_id, clock)
        assert resumed.current.step_id == "why" and len(resumed.results) == 1 and resumed.results[0].correct
        _answer_all(resumed, clock)
        assert resumed.report["score"] == 1.0 and running(store) == []
        assert store.query("SELECT COUNT(*) AS n FROM mock_stages")[0]["n"] == 3


def test_abandoning_keeps_the_answers_and_a_partial_report(store, library, clock):
    session = mock.start(store, library, "design", clock=clock, seed=4, fuzz=False)
    session.begin()
    mock.answer(session, "dense or moe? how many tokens?")
    mock.abandon(store, library, session.id, clock)
    row = store.query("SELECT status, report_json FROM mock_sessions WHERE id = ?", (session.id,))[0]
    report = json.loads(row["report_json"])
    assert row["status"] == "abandoned" and report["status"] == "abandoned"
    assert [entry["answered"] for entry in report["stages"]] == [True, False, False]
    assert store.query("SELECT COUNT(*) AS n FROM mock_stages")[0]["n"] == 1
    with pytest.raises(SessionError, match="no interrupted mock interview"):
        mock.resume(store, library, session.id, clock)


def test_bank_answers_become_attempts_and_each_question_one_review_card(store, library, clock):
    session = mock.start(store, library, "design", clock=clock, seed=4, fuzz=False)
    while not session.done:  # through the action, which records what the session does not
        session.begin()
        clock.advance(10.0)
        mock.answer(session, right_answer(session))
    recorded = attempts(store, "design-small")
    assert [(a.step_id, a.mode, a.correct) for a in recorded] == [("clarify", "mock", True), ("memory", "mock", True),
                                                                   ("operations", "mock", True)]
    cards = store.query("SELECT item_id FROM review_cards")
    assert [row["item_id"] for row in cards] == ["q:design-small"]
    assert store.query("SELECT COUNT(*) AS n FROM review_log")[0]["n"] == 1


def test_the_next_interview_picks_the_least_asked_scenario(store, library, clock, interview_content, tmp_path,
                                                           monkeypatch):
    from tests.interview.helpers import point_at
    from tutor.interview.scenarios import Library

    root = tmp_path / "content"
    import shutil

    shutil.copytree(interview_content, root)
    text = (root / "interview" / "formats.yaml").read_text(encoding="utf-8")
    second = text[text.index("- id: fixture-pitch"):text.index("- id: fixture-debug")].replace(
        "fixture-pitch", "fixture-pitch-two")
    (root / "interview" / "more.yaml").write_text(second, encoding="utf-8")
    point_at(root, monkeypatch)
    library = Library.installed()
    first = mock.start(store, library, "pitch", clock=clock, seed=1)
    _answer_all(first, clock)
    second_session = mock.start(store, library, "pitch", clock=clock, seed=1)
    assert {first.stages[0].question_id, second_session.stages[0].question_id} == {"fixture-pitch",
                                                                                   "fixture-pitch-two"}


def test_ending_in_the_first_minute_is_abandoned_later_finished_one_rule_for_both_front_ends(store, library, clock):
    # tutor mock's :end always finished (the app's F9 abandoned an interview ended in its first
    # minute): the rule is now tutor.actions.mock.end, which both call
    early = mock.start(store, library, "design", clock=clock, seed=4)
    early.begin()
    clock.advance(30)
    report, abandoned = mock.end(early)
    assert abandoned and report["status"] == "abandoned"
    later = mock.start(store, library, "design", clock=clock, seed=5)
    later.begin()
    clock.advance(90)
    report, abandoned = mock.end(later)
    assert not abandoned and report["status"] == "finished"
    assert [row["status"] for row in store.query("SELECT status FROM mock_sessions ORDER BY id")] == \
        ["abandoned", "finished"]
