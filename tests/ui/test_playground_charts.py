"""Playground charts that tell the truth (walkthrough minors 2 and 4, issue 16 item 7): the pipeline
chart compressed at large m, the memory bar saying whose memory it is, ranks colored by EP."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.ui.helpers import settle
from tutor.sizing.pipeline_schedule import simulate
from tutor.ui.app import TutorApp
from tutor.ui.widgets.charts import column_of, pipeline_chart

BUSY_SHARE = {"█": 1.0, "▓": 0.75, "▒": 0.25, "░": 0.0}
"""Roughly what each glyph says of a column's busy share (▓: half or more, ▒: less than half)."""


def _rows(chart) -> list[str]:
    return [line[4:] for line in chart.plain.splitlines() if line[:3].strip().isdigit()]


def _styles_of_row(chart, index: int) -> set[str]:
    line_start = sum(len(line) + 1 for line in chart.plain.splitlines()[:index])
    line_end = line_start + len(chart.plain.splitlines()[index])
    return {str(span.style) for span in chart.spans if span.start < line_end and span.end > line_start + 4}


def test_1f1b_at_m_128_is_drawn_as_it_runs_not_by_the_first_pass_of_each_column():
    """Minor 2: p = 4, m = 128 drew rank 0 all forward, ranks 1-2 all backward, no leading idle."""
    timeline = simulate("1f1b", 4, 128)
    chart = pipeline_chart(timeline, width=70)
    rows = _rows(chart)
    assert len(rows) == 4 and all(len(row) <= 70 for row in rows)
    for stage in range(4):
        # Every stage spends its steady state alternating forward and backward: purple there.
        assert "medium_purple" in _styles_of_row(chart, stage), stage
    assert rows[3][0] in "▒▓░"  # the last stage waits p - 1 forward slots before its first pass
    assert rows[0][-1] in "▒▓░"  # and the first one waits at the end
    # The idle the columns show adds up to the bubble (within the glyphs' resolution).
    shown_idle = sum(1 - BUSY_SHARE[glyph] for row in rows for glyph in row) / sum(len(row) for row in rows)
    assert abs(shown_idle - timeline.bubble_wallclock) < 0.02, (shown_idle, timeline.bubble_wallclock)


def test_a_compressed_column_says_what_its_slots_hold():
    forward, backward = (0, 0, False), (0, 0, True)
    assert column_of([forward] * 4) == ("█", "dodger_blue2")
    assert column_of([backward, backward, None, None]) == ("▓", "green3")
    assert column_of([forward, None, None, None]) == ("▒", "dodger_blue2")
    assert column_of([forward, backward, backward, forward]) == ("█", "medium_purple")
    assert column_of([None] * 4) == ("░", "red")


def test_gpipe_still_shows_its_all_forward_then_all_backward_shape():
    chart = pipeline_chart(simulate("gpipe", 4, 128), width=70)
    purple = [span for span in chart.spans if str(span.style) == "medium_purple"]
    assert len(purple) <= 4 and all(span.end - span.start == 1 for span in purple)  # only where F turns to B


def _shown(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


TRILLION = {"model": "dense-1t", "gpus": 8192, "tp": 8, "pp": 16, "seq": 4096, "micro_batch": 1,
            "global_batch": 4096, "tokens": 2e12, "sharding": "distopt", "recompute": "full", "mfu": 0.4}


@pytest.mark.timeout(90)
async def test_memory_says_whose_it_is_and_ranks_color_by_ep(tutor_home):
    """Minor 4: the bar used Ψ/(TP·PP) = 7.8B while the derivation counted 8.0B on the first stage,
    with nothing saying so; item 7: the rank grid could not be colored by EP."""
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await app.open_playground(TRILLION)  # Ψ is stated: the engine uses the even split
        await settle(pilot)
        memory = _shown(app, "#memory-chart")
        assert "even split Ψ/(TP·PP) = 7.8B" in memory and "first stage holds 8.0B" in memory
        pipeline = _shown(app, "#pipeline-chart")
        assert "Compressed: each column is" in pipeline
        await app.open_playground({**TRILLION, "model": "gpt3-175b", "gpus": 1024, "tp": 8, "pp": 8,
                                   "seq": 2048, "global_batch": 1024, "recompute": "selective"})
        await settle(pilot)  # Ψ counted from the shape: the engine sizes the first stage
        assert "first pipeline stage, the fullest" in _shown(app, "#memory-chart")
        for _ in range(4):  # cp pp dp ep
            await pilot.press("f3")
        await settle(pilot)
        assert "Colored by EP" in _shown(app, "#rank-chart") and "EP = 1" in _shown(app, "#rank-chart")
        await app.open_playground({"model": "lesson-70b", "gpus": 64, "tp": 4, "pp": 4, "cp": 2, "ep": 4,
                                   "seq": 8192, "micro_batch": 1, "global_batch": 512, "sharding": "distopt"})
        await settle(pilot)
        app.screen._color_by = 4
        app.screen._draw_tab("tab-ranks", "en")
        ranks = _shown(app, "#rank-chart")
        assert "EP 4 folded onto DP × CP" in ranks
        # Node 0 holds TP group 0 (cp 0) and TP group 1 (cp 1): EP shards 0 and 1.
        assert ranks.splitlines()[3].split()[2:] == ["0"] * 4 + ["1"] * 4
        app.screen.query_one("#field-ep", Input).value = "3"
        await settle(pilot)
        assert "does not divide DP × CP = 4" in _shown(app, "#rank-chart") or "EP 3" in _shown(app, "#rank-chart")
        assert app.ui_errors == []


@pytest.mark.timeout(60)
async def test_a_bad_number_says_which_box_it_is_in(tutor_home):
    """Found driving the app: `✗ not a number: '.'` did not say which of 13 boxes held it."""
    app = TutorApp(lang="zh")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        app.screen.query_one("#field-cp", Input).value = "."
        await settle(pilot)
        assert _shown(app, "#memory-chart").startswith("✗ CP：不是数字：'.'")  # in the learner's language (issue 16)
        app.screen.query_one("#field-cp", Input).value = "2"
        app.screen.query_one("#field-mfu", Input).value = "1e999"
        await settle(pilot)
        assert "✗ MFU：数字太大" in _shown(app, "#memory-chart")  # the box's name, not its note "（如 0.4）"


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_an_out_of_range_box_is_named_by_its_label_not_the_engines_field(tutor_home, lang):
    """Found driving the app (session 36): a Global batch of 0 said "✗ global_batch must be positive,
    got 0", the engine's field name, in both languages; a DP of 0.5 "dp must be a whole number"."""
    from tutor.ui.screens.playground import NUMBER_FIELDS
    from tutor.ui.strings import text

    app = TutorApp(lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        for name in NUMBER_FIELDS:
            box = app.screen.query_one(f"#field-{name}", Input)
            before = box.value
            for typed in ("0", "0.5", "1e30"):
                box.value = typed
                await settle(pilot)
                shown = _shown(app, "#memory-chart")
                if not shown.startswith("✗"):
                    continue  # mfu 0.5, a vpp the layout takes: not an error
                assert name not in shown.split()[1], (name, typed, shown)
                label = text(f"field.{name}", lang).split(" (")[0].split("（")[0]
                assert shown.startswith(f"✗ {label}"), (name, typed, shown)
            box.value = before
            await settle(pilot)
        assert app.ui_errors == []


@pytest.mark.timeout(60)
async def test_f8_hides_the_form_and_the_charts_take_the_width(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await settle(pilot)
        results = app.screen.query_one("#results")
        narrow = results.size.width
        await pilot.press("f8")
        await settle(pilot)
        assert not app.screen.query_one("#settings").display and results.size.width > narrow + 30
        rows = [line for line in _shown(app, "#pipeline-chart").splitlines() if line[:3].strip().isdigit()]
        assert rows and max(len(row) for row in rows) > narrow  # redrawn to the new width
        await pilot.press("f8")
        await settle(pilot)
        assert app.screen.query_one("#settings").display and app.focused.id == "field-gpus"
