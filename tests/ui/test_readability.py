"""Readable at 80×24 (walkthrough M9, minors 10, 19, 22): lesson tables keep every column (as a
list when the pane is narrow), choice options are whole, list rows keep their kind tag, the footer
fits and speaks the app's language."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown, SelectionList

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp


def test_a_wide_table_becomes_a_list_that_names_every_cell():
    from tutor.ui.screens.lesson_tables import fit_tables

    table = "| Setting | GPUs | TP | PP | CP |\n|---|---|---|---|---|\n| 70B, 8K | 64 | 4 | 4 | 2 |\n"
    assert fit_tables(table, 200) == table
    assert fit_tables(table, 30).splitlines() == ["- **70B, 8K** — GPUs: 64 · TP: 4 · PP: 4 · CP: 2"]
    # a row that starts with a bare figure keeps its column's name (Llama 3's table at 80 columns
    # read "8,192 — TP: 8 …", found in tmux)
    figures = "| GPUs | TP | PP |\n|---|---|---|\n| 8,192 | 8 | 16 |\n| 16,384 | 8 | 16 |\n"
    assert fit_tables(figures, 12).splitlines() == ["- **GPUs: 8,192** — TP: 8 · PP: 16", "- **GPUs: 16,384** — TP: 8 · PP: 16"]
    assert fit_tables(figures.replace("GPUs", "卡数"), 12).splitlines()[0] == "- **卡数：8,192** — TP: 8 · PP: 16"
    # a row-number column stays the item's bare name (the mock report's stages)
    assert fit_tables("| # | stage |\n|---|---|\n| 1 | The pitch |\n", 8).splitlines() == ["- **1** — stage: The pitch"]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_worked_configurations_keep_tp_pp_cp_at_80_columns(tutor_home, lang):
    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await settle(pilot)
        app.screen._open(("recipe", "worked-examples"))
        await settle(pilot)
        shown = app.screen.query_one("#section-text", Markdown).source
        assert "TP: 4" in shown and "CP: 2" in shown and "| TP" not in shown
        app.screen.query_one("#toc").focus()
        await pilot.press("t")  # pressed in the contents: hidden, the text takes the width
        await settle(pilot)
        assert not app.screen.query_one("#toc").display
        await pilot.press("t")  # and back
        await settle(pilot)
        assert app.screen.query_one("#toc").display and app.focused is app.screen.query_one("#toc")


@pytest.mark.timeout(90)
async def test_choice_options_are_shown_whole_at_80_columns(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = app.screen
        question = next(q.model for q in screen._content.questions.values() if q.model.steps[0].kind == "choice"
                        and max(len(o.text.get("en")) for o in q.model.steps[0].options) > 60)
        screen.open_question(question.id)
        await settle(pilot)
        choices = screen.query_one("#answer-choices", SelectionList)
        drawn = "\n".join(choices.render_line(y).text for y in range(choices.size.height))
        longest = max((o.text.get("en") for o in question.steps[0].options), key=len)
        assert "…" not in drawn
        assert " ".join(longest.split()[-2:]) in " ".join(drawn.split())


@pytest.mark.timeout(90)
async def test_question_rows_keep_their_kind_tag(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        listing = app.screen.query_one("#question-list")
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        kinds = {"numeric", "formula", "config", "choice", "open", "clarify", "design"}
        assert all(prompt.split()[1] in kinds for prompt in prompts)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("mode", ["home", "lessons", "practice", "playground", "labs", "mock", "progress"])
async def test_footer_fits_80_columns_and_is_chinese_in_chinese_mode(tutor_home, mode):
    from textual.widgets._footer import FooterKey

    from tutor.ui.widgets.footer import ZH

    app = TutorApp(lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.switch_mode(mode)
        await settle(pilot)
        await pilot.pause(0.5)
        keys = list(app.screen.query(FooterKey))
        assert keys and all(key.description in ZH.values() for key in keys), [k.description for k in keys]
        assert max(key.region.right for key in keys) <= 80
        assert all(key.region.width > 0 for key in keys)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_answer_line_hint_is_shown_whole_at_80_columns(tutor_home, lang):
    """Issue 16: beside the question list at 80 columns the numeric hint was cut after "e-notation,"
    (and the formula one after "e.g."); the line shows a short hint there, the long one where it fits."""
    from textual.widgets import Input

    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = app.screen
        steps = {step.kind + (step.answer.unit if step.kind == "numeric" else ""): q.model.id
                 for q in screen._content.questions.values() for step in q.model.steps[:1]
                 if step.kind in ("numeric", "formula")}
        line = screen.query_one("#answer-line", Input)
        for shown in (steps["numerictokens/s"], steps["numericx"], steps["formula"]):
            screen.open_question(shown)
            await settle(pilot)
            drawn = line.render_line(0).text.strip()
            assert line.placeholder and drawn == line.placeholder, (drawn, line.placeholder)
            assert line.tooltip and len(line.tooltip) > len(line.placeholder)  # the long hint, on hover
        await pilot.press("f8")  # the list hidden: the line has room for the long hint
        await settle(pilot)
        assert line.tooltip is None and line.render_line(0).text.strip() == line.placeholder


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_lesson_and_section_title_is_whole_in_the_contents_at_80_columns(tutor_home, lang):
    """Issue 16: the contents (34 columns) cut the titles ("Placing each dimension b", "Running
    fast: overlap, F"); each title wraps under itself instead."""
    import re

    from rich.cells import cell_len
    from textual.geometry import Region

    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await settle(pilot)
        screen = app.screen
        toc = screen.query_one("#toc")
        lines, page = [], toc.scrollable_content_region.height
        for top in range(0, toc.max_scroll_y + page, page):  # page by page, as drawn (border and all)
            toc.scroll_to(y=top, animate=False, immediate=True)
            await pilot.pause()
            lines += [re.sub("[\u2500-\u259f]", "", strip.text)  # less the border and the scrollbar
                      for strip in toc.render_lines(Region(0, 0, *toc.outer_size))]
        drawn = "".join(lines).replace(" ", "")
        titles = [lesson.model.title.get(lang) for lesson in screen._content.lessons.values()]
        titles += [section.title.get(lang) for lesson in screen._content.lessons.values() for section in lesson.model.sections]
        assert len(titles) > 30 and max(map(cell_len, titles)) > 30  # titles wider than the pane
        missing = [title for title in titles if title.replace(" ", "") not in drawn]
        assert not missing, (missing, "\n".join(lines))
