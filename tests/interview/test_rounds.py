"""The rounds added for issue 20: the pitch capped by speaking time, the candidate-led blank page
and its structure score, follow-ups that probe strong answers, the behavioural story, and the
verdict in the interviewers' terms. Fixture content, a frozen clock; each test is well under a
second after the content is loaded."""

from __future__ import annotations

import pytest

from tutor.interview.report import communication, report_markdown, verdict_of
from tutor.actions import mock
from tutor.interview.spoken import measure, speaking_time
from tutor.interview.structure import order_score

# --- speaking time -------------------------------------------------------------------------------


def test_thirty_seconds_hold_75_english_words_or_150_chinese_characters():
    assert speaking_time("word " * 75) == pytest.approx(30.0)
    fits, over = measure("word " * 75, 30), measure("word " * 76, 30)
    assert not fits.cut and fits.kept == ("word " * 75).strip()
    assert over.cut and len(over.kept.split()) == 75
    chinese = measure("先" * 151, 30)
    assert chinese.cut and chinese.kept == "先" * 150
    # Latin words inside Chinese are said as words: "TP 在机内" is 2.5 s of speech per word and 0.2 s a character
    assert speaking_time("TP 在机内") == pytest.approx(1 / 2.5 + 3 * 0.2)
    assert measure("", 30).seconds == 0 and not measure("", 30).cut


def _pitch(store, library, clock):
    session = mock.start(store, library, "pitch", clock=clock, seed=3, fuzz=False)
    session.begin()
    return session


def test_a_pitch_is_graded_only_as_far_as_thirty_seconds_of_speech(store, library, clock):
    padding = "Let me tell you how I think about large training runs in general terms first. " * 6  # 90 words
    session = _pitch(store, library, clock)
    late = mock.answer(session, padding + "Memory first, then TP inside the node.")
    assert late.verdict["spoken"]["cut"] and not late.correct  # the key points came after 30 s
    assert late.answer.endswith("inside the node.")  # the whole answer is kept in the record
    report = mock.finish(session)  # (:end) the follow-up it drew is left unanswered
    assert any(reason["id"] == "spoken-cut" for reason in report["verdict"]["reasons"])
    assert "graded up to where 30 s ends" in report_markdown(report, "en")
    assert report["verdict"]["communication"]["parts"]["fits_time"] < 1


def test_a_short_pitch_is_graded_whole(store, library, clock):
    result = mock.answer(_pitch(store, library, clock), "Memory first, then TP inside the node.")
    assert result.correct and not result.verdict["spoken"]["cut"]


# --- the candidate-led blank page --------------------------------------------------------------


def _led_step(library):
    return library.question("fixture-led").steps[0]


@pytest.mark.parametrize(("answer", "score", "out_of_order", "missing"), [
    ("How many tokens? Then 16 bytes per parameter. TP inside the node.", 1.0, [], []),
    ("TP inside the node. Then 16 bytes per parameter. How many tokens?", 1 / 3, ["layout", "memory"], []),
    ("16 bytes per parameter. How many tokens? TP inside the node.", 2 / 3, ["memory"], []),
    ("How many tokens?\nTP inside the node.", 2 / 3, [], ["memory"]),
    ("", 0.0, [], ["clarify", "memory", "layout"]),
])
def test_the_order_of_a_led_answer_is_scored(library, answer, score, out_of_order, missing):
    found = order_score(_led_step(library), library.structure("fixture-led"), answer)
    assert found["score"] == pytest.approx(score, abs=1e-3)
    assert found["out_of_order"] == out_of_order and found["missing"] == missing


def test_a_led_round_runs_end_to_end_and_a_strong_answer_draws_a_trade_off_probe(store, library, clock):
    session = mock.start(store, library, "led", clock=clock, seed=5, fuzz=False)
    assert [stage.question_id for stage in session.stages] == ["fixture-led"]
    session.begin()
    first = mock.answer(session, "How many tokens? Then 16 bytes per parameter. TP inside the node.")
    assert first.correct and first.verdict["structure"]["score"] == 1.0
    # a strong answer is probed on its trade-offs: the `probes: strong` follow-up on its topic comes next
    assert session.current is not None and session.current.question_id == "fixture-strong-probe"
    session.begin()
    mock.answer(session, "The bubble grows.")
    report = session.report
    assert report["verdict"]["communication"]["parts"]["structure"] == 1.0
    assert any(reason["id"] == "structure" for reason in report["verdict"]["reasons"])
    assert "Structure: 100% in the expected order" in report_markdown(report, "en")


def test_a_weak_led_answer_is_not_given_the_strong_probe(store, library, clock):
    session = mock.start(store, library, "led", clock=clock, seed=5, fuzz=False)
    session.begin()
    result = mock.answer(session, "TP inside the node. How many tokens?")  # two of three points, out of turn
    assert not result.correct and result.verdict["structure"]["missing"] == ["memory"]
    assert result.verdict["structure"]["out_of_order"] == ["layout"]
    assert session.done  # no weak-answer follow-up on this topic, and the strong probe is not for it
    assert session.report["verdict"]["level"] in ("lean-no", "no")
    assert "— not taken: Sixteen bytes per parameter\n" in report_markdown(session.report, "en")


# --- the behavioural round ------------------------------------------------------------------------


def test_a_behavioural_story_that_raised_the_timeout_is_named(store, library, clock):
    session = mock.start(store, library, "behavioural", clock=clock, seed=2, fuzz=False)
    session.begin()
    result = mock.answer(session, "Our 64 GPUs froze at step 900. We raised the timeout and it went away.")
    assert not result.correct and result.verdict["details"]["contradicted"] == ["action"]
    report = mock.finish(session)
    assert any(reason["id"] == "contradicted" for reason in report["verdict"]["reasons"])
    assert report["verdict"]["level"] != "strong-hire"


def test_a_behavioural_story_told_well_passes(store, library, clock):
    session = mock.start(store, library, "behavioural", clock=clock, seed=2, fuzz=False)
    session.begin()
    assert mock.answer(session, "Our 64 GPUs froze at step 900. I ran py-spy on every rank and found it.").correct


# --- the verdict ------------------------------------------------------------------------------------


def _stage(kind="numeric", score=1.0, over=False, **extra):
    return {"kind": kind, "score": score, "correct": score >= 0.6, "answered": True, "over_time": over,
            "followup": False, **extra}


def _rubric(clarify_missed=()):
    return {"clarifying": {"asked": [], "missed": list(clarify_missed)}, "numbers": {"right": 1, "total": 1},
            "key_points": {"covered": 1, "total": 1, "missing": []},
            "time": {"over_time": [], "timed_out": []}, "followups": {"asked": 0, "right": 0}}


@pytest.mark.parametrize(("score", "stages", "status", "level"), [
    (0.9, [_stage("clarify"), _stage()], "finished", "strong-hire"),
    (0.9, [_stage("clarify"), _stage("open", contradicted=[{"en": "x", "zh": "x"}])], "finished", "hire"),
    (0.9, [_stage("clarify", score=0.2), _stage(over=True)], "finished", "lean-no"),  # communication 0.4
    (0.75, [_stage("clarify"), _stage()], "finished", "hire"),
    (0.55, [_stage()], "finished", "lean-no"),
    (0.3, [_stage()], "finished", "no"),
    (0.95, [_stage("clarify"), _stage()], "abandoned", "lean-no"),
    # the hang round driven in tmux: why right, fix 0% ("raise the timeout"), follow-up right: not a hire
    (0.72, [_stage("choice"), _stage("open", score=0.87), _stage("open", score=0.0),
            _stage("open", followup=True, weight=1.0)], "finished", "lean-no"),
    # one of rapid fire's ten stages wrong is a tenth of it: still averaged
    (0.9, [_stage(score=0.0)] + [_stage() for _ in range(9)], "finished", "strong-hire"),
    # a missed follow-up is the follow-ups' reason, not this one
    (0.8, [_stage(), _stage(), _stage(score=0.0, followup=True)], "finished", "hire"),
])
def test_verdict_levels(score, stages, status, level):
    assert verdict_of(score, _rubric(), stages, status)["level"] == level


def test_a_missed_decisive_stage_is_named_in_both_languages():
    stages = [_stage(number=1), _stage(number=2), _stage("open", score=0.0, number=3)]
    verdict = verdict_of(0.75, _rubric(), stages, "finished")
    reason = next(reason for reason in verdict["reasons"] if reason["id"] == "missed-stage")
    assert verdict["level"] == "lean-no" and "stage 3" in reason["en"] and "第 3 阶段" in reason["zh"]


def test_communication_counts_only_what_applies():
    assert communication([_stage()])["parts"] == {"in_time": 1.0}
    parts = communication([_stage("clarify", score=0.5), _stage("open", bare_list=True, over=True)])["parts"]
    assert parts == {"clarified": 0.5, "in_time": 0.5, "statements": 0.5}


def test_reasons_come_in_both_languages():
    verdict = verdict_of(0.4, _rubric(clarify_missed=[{"en": "How many tokens?", "zh": "多少 token？"}]),
                         [_stage("clarify", score=0.0)], "finished")
    missed = next(reason for reason in verdict["reasons"] if reason["id"] == "no-clarify")
    assert "How many tokens?" in missed["en"] and "多少 token？" in missed["zh"]
    assert verdict["label"] == {"en": "no", "zh": "不录用"}
