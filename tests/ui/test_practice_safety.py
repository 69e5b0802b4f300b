"""Practice grading that cannot hurt the screen (issue 17): a learner's answer quoted in the verdict
shows as typed, never as Markdown; a grading the learner moved on from is cancelled quietly."""

from __future__ import annotations

import threading

import pytest
from markdown_it import MarkdownIt
from textual.widgets import Input, Markdown

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp

HOSTILE = "# big **x** [link](http://e.com) `code` <b>hi</b> _u_ [bold]y[/bold] 1. \\*"


def _tokens(markdown: str) -> list:
    tokens = []
    for token in MarkdownIt("gfm-like").parse(markdown):
        tokens += [token, *(token.children or [])]
    return tokens


def _rendered_text(markdown: str) -> str:
    return "".join(token.content for token in _tokens(markdown) if token.type in ("text", "code_inline"))


def test_the_answer_quoted_in_a_verdict_renders_as_typed():
    """L3: `Could not find a number in '# big **x** …'` rendered a heading, bold, a link and code."""
    from tutor.content import load
    from tutor.grading.dispatch import grade
    from tutor.grading.variant import draw
    from tutor.ui.screens.practice_view import verdict_markdown

    question = next(loaded.model for loaded in load().questions.values()
                    if loaded.model.steps[0].kind == "numeric")
    step, variant = question.steps[0], draw(question, 0)
    verdict = grade(question, HOSTILE, step.id, variant.seed)
    assert "big" in verdict.feedback["en"]  # the grader quotes the answer
    for lang in ("en", "zh"):
        markdown = verdict_markdown(question, step, verdict, variant, lang, reveal=False)
        types = [token.type for token in _tokens(markdown)]
        # The verdict's own heading and its own italic "try again" line, nothing from the answer.
        assert types.count("heading_open") == 1 and types.count("em_open") == 1, types
        assert not set(types) & {"link_open", "strong_open", "code_inline", "html_inline", "html_block",
                                 "ordered_list_open"}, types
        shown = _rendered_text(markdown)
        assert HOSTILE[:40] in shown, shown  # the grader quotes the first 40 characters


def test_each_remark_of_a_feedback_stays_on_its_own_line():
    """Polish 10: the config and clarify checklists ran together as one paragraph."""
    from tutor.ui import plain_markdown

    markdown = plain_markdown.lines("Not yet: 1 of 4 rules broken.\n✓ valid layout\n✗ PP 4 is more than needed")
    inline = [token for token in MarkdownIt("gfm-like").parse(markdown) if token.type == "inline"][0]
    assert [child.type for child in inline.children].count("hardbreak") == 2



@pytest.mark.parametrize("lang, shown", [("en", "39.4 GB"), ("zh", "39.4 GB")])
def test_a_numeric_verdict_shows_the_expected_value_not_a_dict(lang, shown):
    """Walkthrough M2: every numeric verdict read "Expected: {'en': '200', 'zh': '200'}" (答案: {'en': …})."""
    from tutor.content import load
    from tutor.grading.dispatch import grade
    from tutor.grading.variant import draw
    from tutor.ui.screens.practice_view import verdict_markdown

    question = load().questions["distopt-bytes-per-gpu"].model
    verdict = grade(question, "39.4 GB", None, 0)
    markdown = verdict_markdown(question, question.steps[0], verdict, draw(question, 0), lang, reveal=True)
    label = "**Expected:**" if lang == "en" else "**答案：**"
    assert any(line.startswith(label) and line.endswith(shown) for line in markdown.splitlines()), markdown
    assert "'en'" not in markdown and "'zh'" not in markdown

@pytest.mark.parametrize("lang, label", [("en", "Model answer"), ("zh", "参考答案")])
@pytest.mark.parametrize("question_id", ["why-dp-outermost", "clarify-gpu-count"])
def test_the_model_answer_is_shown_once_and_only_when_asked_for(question_id, lang, label):
    """Polish 10: "Model answer" was printed twice once revealed: the grader's feedback ends with it,
    and the revealed answer repeats it under its heading. Before F5 the feedback's line had already
    shown it, beside "see the answer (F5)"."""
    from tutor.content import load
    from tutor.grading.dispatch import grade
    from tutor.grading.variant import draw
    from tutor.ui.screens.practice_view import verdict_markdown

    question = load().questions[question_id].model
    step, variant = question.steps[0], draw(question, 0)
    verdict = grade(question, "no idea", None, 0)
    model = step.model_answer.get(lang)[:40]
    hidden = verdict_markdown(question, step, verdict, variant, lang, reveal=False).replace("\\", "")
    revealed = verdict_markdown(question, step, verdict, variant, lang, reveal=True).replace("\\", "")
    assert label not in hidden and model not in hidden
    assert revealed.count(label) == 1 and revealed.count(model) == 1
    assert "✗" in hidden  # the checklist itself stays

@pytest.mark.timeout(60)
async def test_a_grading_overtaken_by_a_new_answer_is_cancelled_quietly(tutor_home, fixture_content, monkeypatch):
    """Issue 17: the worker passes `cancelled` to the grader and catches `Cancelled`."""
    from tutor.grading import dispatch
    from tutor.grading.budget import Cancelled

    real_grade, seen, first = dispatch.grade, [], threading.Event()

    def slow_then_real(question, answer, step_id, seed, *args, cancelled=None, **kwargs):
        if answer == "slow":
            first.set()
            for _ in range(500):  # a formula bomb, until the worker is cancelled
                if cancelled():
                    seen.append("cancelled")
                    raise Cancelled
                threading.Event().wait(0.01)
            seen.append("not cancelled")
        return real_grade(question, answer, step_id, seed, *args, cancelled=cancelled, **kwargs)

    monkeypatch.setattr(dispatch, "grade", slow_then_real)
    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("memory-total")
        await settle(pilot)
        line = app.screen.query_one("#answer-line", Input)
        line.value = "slow"
        await pilot.press("enter")
        await pilot.pause()
        assert first.wait(10)
        line.value = "1120 GB"
        await pilot.press("enter")
        await settle(pilot)
        assert seen == ["cancelled"] and app.ui_errors == []
        assert app.screen.query_one("#verdict-text", Markdown).source.startswith("### ✓ Right")


def test_reference_lines_name_sections_not_slugs_and_speak_chinese_in_chinese():
    """Polish 11 and minor 22: `lesson §trillion-design (…)`, `interview-topics.md 1.13` shown as
    written, and English prose in the Chinese reference line."""
    from tutor.content import load
    from tutor.ui.screens.source_text import source_text

    lessons = load().lessons
    source = ("lesson §self-test (question 1: NVIDIA, asked 3 times) and §trillion-design; "
              "deep dive choosing-config §procedure; facts.md §6 (Megatron: seq multiple of 2 × CP); "
              "interview-topics.md 1.2; Llama 3 paper Table 4 (CP 16)")
    english = source_text(source, "en", lessons)
    assert "§trillion-design" not in english and ".md" not in english and "choosing-config" not in english
    assert "(question 1: NVIDIA, asked 3 times)" in english and "Table 4 (CP 16)" in english
    chinese = source_text(source, "zh", lessons)
    assert "asked 3 times" not in chinese and "seq multiple" not in chinese and ".md" not in chinese
    assert "课程" in chinese and "参考资料 §6" in chinese and "Table 4 (CP 16)" in chinese
    assert source_text("Brown et al. 2020 §2 (unknown-slug)", "en", lessons) == "Brown et al. 2020 §2 (unknown-slug)"
    formula = "lesson §recipe (1T × 16 bytes ÷ 80 GB)"
    assert "16 bytes" in source_text(formula, "en", lessons)
    assert "(1T × 16 字节 ÷ 80 GB)" in source_text(formula, "zh", lessons)
    # the short English remarks Chinese mode keeps are Chinese too; citations stay as written
    assert (source_text("interview-topics.md §1.1 (OOM scenario); lesson §self-test (question 3)", "zh", lessons)
            == "面试题目表 §1.1 (OOM 场景)；课程 「自测」 (第 3 题)")
    assert "(question 3)" in source_text("lesson §self-test (question 3)", "en", lessons)


@pytest.mark.timeout(60)
async def test_a_wrong_open_answer_names_no_missing_point_and_a_copy_after_f5_is_not_counted(tutor_home):
    """Practice showed an open step's model answer, and quoted every missing rubric point, with each
    wrong attempt; the next attempt could copy it and the question was marked solved for good."""
    from tutor.content import load
    from tutor.store import Store, attempts
    from tutor.store.records import ever_solved

    question = load().questions["why-dp-outermost"].model
    step = question.steps[0]
    model, missing = step.model_answer.get("en"), [point.text.get("en") for point in step.points]
    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question(question.id)
        await settle(pilot)
        app.screen.submit_answer("DP goes outermost because it is the simplest to set up.")
        await settle(pilot)
        wrong = app.screen.query_one("#verdict-text", Markdown).source.replace("\\", "")
        assert "✗" in wrong and "Not yet said:" in wrong, wrong
        assert model[:40] not in wrong and not any(point[:40] in wrong for point in missing), wrong
        await pilot.press("f5")
        await settle(pilot)
        shown = app.screen.query_one("#verdict-text", Markdown).source.replace("\\", "")
        assert model[:40] in shown and all(point[:40] in shown for point in missing)
        app.screen.submit_answer(model)
        await settle(pilot)
        copied = app.screen.query_one("#verdict-text", Markdown).source
        assert copied.startswith("*Not counted") and "✓ Right" in copied, copied
        assert app.ui_errors == []
    store = Store()
    assert len(attempts(store, question.id)) == 1 and ever_solved(store) == {question.id: False}
