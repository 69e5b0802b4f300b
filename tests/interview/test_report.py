"""The report: per-stage scores, the rubric (clarifying questions, numbers, key points, time), what
to review next, and the Markdown export in both languages."""

from __future__ import annotations

from tests.interview.helpers import right_answer
from tutor.interview.report import report_markdown
from tutor.actions import mock


def _design_with_a_thin_start(store, library, clock):
    session = mock.start(store, library, "design", clock=clock, seed=2, fuzz=False)
    session.begin()
    clock.advance(30)
    mock.answer(session, "Is it dense?")            # asks one of two clarifying questions: right (required point) but vague
    session.begin()                           # the follow-up on memory
    clock.advance(100)
    mock.answer(session, "because of Adam")         # right
    session.begin()
    clock.advance(5000)
    mock.answer(session, "1 GB")                    # wrong number, and far over its time
    session.begin()
    clock.advance(60)
    mock.answer(session, "checkpoint often")        # covers one of two key points
    return session


def test_design_report_names_the_clarifying_questions_numbers_points_and_time(store, library, clock):
    report = _design_with_a_thin_start(store, library, clock).report
    assert [entry["key"] for entry in report["stages"]] == ["1-clarify", "1-clarify-followup", "2-memory",
                                                             "3-operations"]
    rubric = report["rubric"]
    assert [text["en"] for text in rubric["clarifying"]["asked"]] == ["Dense or MoE?"]
    assert [text["en"] for text in rubric["clarifying"]["missed"]] == ["How many tokens?"]
    assert rubric["numbers"] == {"right": 0, "total": 1}
    assert rubric["key_points"]["covered"] == 2 and rubric["key_points"]["total"] == 3
    assert [text["en"] for text in rubric["key_points"]["missing"]] == ["Monitoring."]
    assert rubric["time"]["used_s"] == 5190 and rubric["time"]["over_time"] == [3]
    assert rubric["followups"] == {"asked": 1, "right": 1}
    assert [item["section"] for item in report["review_next"]] == ["basics/design"]
    assert report["review_next"][0]["title"]["en"] == "A small design"
    # weighted (each weight 1): follow-up 1, memory 0; clarify and operations state half their
    # points, which partial credit (tutor.grading.rubric.credit) scores above the bare 0.5
    scores = [entry["score"] for entry in report["stages"]]
    assert scores[1] == 1 and scores[2] == 0 and all(0.5 < score <= 0.7 for score in (scores[0], scores[3]))
    assert abs(report["score"] - sum(scores) / 4) < 1e-3


def test_markdown_export_in_both_languages(store, library, clock):
    report = _design_with_a_thin_start(store, library, clock).report
    english = report_markdown(report, "en")
    assert english.startswith("# Mock interview — System design (strict)")
    assert "| 3 | What do you ask first?" not in english  # the table names each step by its prompt
    assert "| 3 | How much model state at 16 bytes per parameter? | 0% ✗ | 1:23:20 / 15:00 ⚠ |" in english
    assert "- Clarifying questions asked: 1 of 2 — missed: How many tokens?" in english
    assert "- Numbers right: 0 of 1" in english and "- Follow-ups: 1 asked, 1 right" in english
    assert "**A small design** (`basics/design`) — #1, #3, #4" in english
    assert "> 1 GB" in english
    chinese = report_markdown(report, "zh")
    assert chinese.startswith("# 模拟面试——系统设计（严格模式）")
    assert "问到的澄清问题：1/2——漏了：多少 token？" in chinese and "## 接下来复习" in chinese
    assert "*追问：*" in chinese and "*follow-up:*" in english  # full-width inside Chinese
    assert chinese.splitlines()[4].startswith("结论：**") and english.splitlines()[4].startswith("Verdict: **")


def test_a_perfect_interview_has_nothing_to_review(store, library, clock):
    session = mock.start(store, library, "hang", clock=clock, seed=1, fuzz=False)
    while not session.done:
        session.begin()
        mock.answer(session, right_answer(session))
    assert session.report["review_next"] == [] and session.report["score"] == 1.0
    assert "Nothing: every stage was right." in report_markdown(session.report, "en")


def test_an_unreached_stage_scores_zero_when_the_interview_is_ended_early(store, library, clock):
    session = mock.start(store, library, "debug", clock=clock, seed=1, fuzz=False)
    session.begin()
    mock.answer(session, right_answer(session))
    report = mock.finish(session)
    assert [entry["answered"] for entry in report["stages"]] == [True, False, False]
    assert report["score"] == 1 / 3 or round(report["score"], 4) == round(1 / 3, 4)
    assert "| 2 | Which category? | — | not reached |" in report_markdown(report, "en")


def test_the_time_budget_says_what_the_follow_ups_added(store, library, clock):
    """Walkthrough polish 13: the format said 45:00, its report "0:59 used of 48:00": a follow-up
    had added 3:00, and nothing said so."""
    from tutor.interview.clock import clock_text

    report = _design_with_a_thin_start(store, library, clock).report
    added = sum(entry["budget_s"] for entry in report["stages"] if entry["followup"])
    planned = sum(entry["budget_s"] for entry in report["stages"] if not entry["followup"])
    assert added > 0 and report["rubric"]["time"]["budget_s"] == planned + added
    total, planned, added = (clock_text(seconds) for seconds in (planned + added, planned, added))
    english, chinese = report_markdown(report, "en"), report_markdown(report, "zh")
    assert english.count(f"of {total} ({planned} + {added} for a follow-up)") == 2, english
    assert chinese.count(f"（共 {total}：{planned}，追问加了 {added}）") == 2, chinese
