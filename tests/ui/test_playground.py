"""Playground: open the lesson's 70B example, drop CP from 2 to 1, watch memory stop fitting."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp

SCENARIO = {"model": "lesson-70b", "gpus": 64, "tp": 4, "pp": 4, "cp": 2, "seq": 8192, "micro_batch": 1,
            "global_batch": 512, "sharding": "distopt"}


def _shown(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@pytest.mark.timeout(90)
async def test_cp_from_2_to_1_stops_the_70b_example_fitting(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        memory = _shown(app, "#memory-chart")
        assert "total 62.2 GB / 80.0 GB · fits" in memory
        assert "activations 22.8 GB" in memory and "optimizer 13.1 GB" in memory
        assert "bubble 1.2% of the ideal step" in _shown(app, "#pipeline-chart")
        cp = app.screen.query_one("#field-cp", Input)
        cp.value = "1"
        await settle(pilot)
        memory = _shown(app, "#memory-chart")
        assert "total 85.0 GB / 80.0 GB · does NOT fit" in memory
        app.screen.query_one("#result-tabs").active = "tab-checks"
        await settle(pilot)
        assert "5.0 GB over" in _shown(app, "#checks")
        await pilot.press("f3")
        assert "Colored by CP" in _shown(app, "#rank-chart")


@pytest.mark.timeout(90)
async def test_bad_layout_says_why_instead_of_crashing(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        app.screen.query_one("#field-tp", Input).value = "3"
        await settle(pilot)
        assert "not divisible" in _shown(app, "#memory-chart")
        app.screen.query_one("#field-tp", Input).value = "4"
        await settle(pilot)
        assert "fits" in _shown(app, "#memory-chart")


@pytest.mark.timeout(90)
async def test_lesson_worked_example_opens_in_the_playground(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("l")
        await settle(pilot)
        app.screen._open(("recipe", "worked-examples"))
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert app.current_mode == "playground"
        assert app.screen.query_one("#field-cp", Input).value == "2"
        assert "fits" in _shown(app, "#memory-chart")


TRILLION = {"model": "dense-1t", "gpus": 8192, "tp": 8, "pp": 16, "seq": 4096, "micro_batch": 1,
            "global_batch": 4096, "tokens": 2e12, "sharding": "distopt", "recompute": "full", "mfu": 0.4}


@pytest.mark.timeout(90)
async def test_invalid_gpus_clear_every_panel_instead_of_leaving_the_last_chart(tutor_home):
    """Walkthrough M5: GPUs 819 left the previous pipeline chart and its bubble line on screen."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await app.open_playground(TRILLION)
        await settle(pilot)
        assert "1f1b: p = 16, m = 64" in _shown(app, "#pipeline-chart")
        app.screen.query_one("#field-gpus", Input).value = "819"
        await settle(pilot)
        for panel in ("#memory-chart", "#pipeline-chart", "#rank-chart", "#checks", "#derivation"):
            shown = _shown(app, panel)
            assert "819 GPUs" in shown and "bubble" not in shown, panel
        for tab in ("tab-ranks", "tab-checks", "tab-derivation", "tab-pipeline"):
            app.screen.query_one("#result-tabs").active = tab
            await settle(pilot)
        assert "819 GPUs" in _shown(app, "#pipeline-chart") and app.ui_errors == []


@pytest.mark.timeout(90)
async def test_derivation_scrolls_through_every_step_and_time_is_shown(tutor_home):
    """Walkthrough M4: the Derivation tab showed 12 of 29 steps and could not scroll; no tokens/s,
    step time, MFU or days anywhere; Checks did not carry the bubble it was said to carry."""
    from tutor.sizing.scenario import report

    expected = report({**TRILLION, "gpu": "h100-80gb", "sp": True, "flash": True}, "en")
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(TRILLION)
        await settle(pilot)
        memory = _shown(app, "#memory-chart")
        assert "540.1K tokens/s" in memory and "MFU 40%" in memory and "42.9 days" in memory
        app.screen.query_one("#result-tabs").active = "tab-derivation"
        await settle(pilot)
        derivation = _shown(app, "#derivation")
        for step in expected["steps"]:
            assert step["id"] in derivation
        assert "Traffic per dimension" in derivation
        scroller = app.screen.query_one("#tab-derivation .tab-scroll")
        assert scroller.max_scroll_y > 0
        scroller.focus()
        await pilot.press("end")
        await settle(pilot)
        assert scroller.scroll_target_y == scroller.max_scroll_y > 0
        app.screen.query_one("#result-tabs").active = "tab-checks"
        await settle(pilot)
        assert "Pipeline bubble: 23.4% of the ideal step" in _shown(app, "#checks")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_form_leaves_the_results_most_of_the_width(tutor_home, lang):
    """Issue 16: at 80×24 the form took 40 of 80 columns and the pipeline chart began below the
    fold. Now the form keeps 31 columns with whole short labels, and the chart's four stage rows
    are on screen under the bubble line; at 120 columns the long labels come back."""
    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#settings").outer_size.width <= 31
        assert screen.query_one("#results").size.width >= 48
        label = screen.query_one("#label-global_batch")
        assert str(label.render()) in ("Global batch", "global batch")  # whole, not cut
        assert label.size.width >= len(str(label.render()))
        chart = screen.query_one("#pipeline-chart", Static)
        rows = [number for number, line in enumerate(_shown(app, "#pipeline-chart").splitlines())
                if line.lstrip().startswith(("0 ", "3 "))]
        assert len(rows) == 2
        bottom = chart.region.y + rows[-1]
        assert bottom < 24 - 1, f"the last stage row is at line {bottom}, under the footer"
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert screen.query_one("#settings").outer_size.width == 40
        assert str(screen.query_one("#label-params").render()) in ("Params (override)", "参数量（覆盖）")


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang, auto", [("en", "auto: {}"), ("zh", "自动：{}")])
async def test_an_emptied_box_says_what_the_sizing_uses_instead(tutor_home, lang, auto):
    """Emptying Seq. length sized 4,096 tokens (the engine's default, half the example's 8,192)
    and the box stayed blank; a learner saw the activations halve and no reason why."""
    from tutor.sizing.scenario import report, specs

    emptied = {name: value for name, value in SCENARIO.items() if name != "seq"}
    _, train, *_ = specs({"model": SCENARIO["model"]})  # what the specs take when a box is empty
    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        seq = app.screen.query_one("#field-seq", Input)
        params = app.screen.query_one("#field-params", Input)
        assert seq.placeholder == ""  # a value is typed: nothing to say
        assert params.placeholder == auto.format("70B")  # the lesson's 70B, no box fills it
        seq.value = ""
        await settle(pilot)
        assert seq.placeholder == auto.format(train.seq)
        assert train.seq != SCENARIO["seq"]  # the sizing did change: the placeholder is why
        activations = report(emptied)["memory"]["activations"]
        assert activations < report(SCENARIO)["memory"]["activations"]
        assert f"{activations / 1e9:.1f}" in _shown(app, "#memory-chart")
        for name in ("micro_batch", "global_batch"):
            app.screen.query_one(f"#field-{name}", Input).value = ""
            await settle(pilot)
            assert app.screen.query_one(f"#field-{name}", Input).placeholder == auto.format(getattr(train, name))
        # A preset counted from its shape (Ψ not stated) shows the count the report sized.
        await app.open_playground({**SCENARIO, "model": "gpt3-175b", "seq": 2048})
        await settle(pilot)
        assert params.placeholder == auto.format("174.6B")
        # Sizing fails (micro-batch 0): the error stays and no box claims a value nothing uses.
        app.screen.query_one("#field-micro_batch", Input).value = "0"
        seq.value = ""
        await settle(pilot)
        assert "✗" in _shown(app, "#memory-chart")
        assert seq.placeholder == "" and params.placeholder == ""
        app.screen.query_one("#field-micro_batch", Input).value = "1"
        await settle(pilot)
        assert seq.placeholder == auto.format(train.seq) and params.placeholder == auto.format("174.6B")
        assert app.ui_errors == []
