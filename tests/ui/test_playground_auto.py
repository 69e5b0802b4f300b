"""Found driving the playground in tmux at 80×24 (issue 16 item 4), one app for both:
- with GPUs cleared it sized the layout on TP·PP·CP = 32 GPUs (DP 1) and said "fits" without saying on
  how many GPUs; DP (auto) never showed the DP it worked out. An empty GPUs or DP box now shows,
  greyed, the value the sizing used.
- global batch 1 on DP 2 × micro-batch 1 read "total 42.2 GB / 80.0 GB · fits" over two blank lines,
  while the Pipeline tab said the batch does not divide: the memory panel now says why too."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.ui.helpers import settle
from tests.ui.test_playground import SCENARIO  # the lesson's 70B example
from tutor.ui.app import TutorApp
from tutor.ui.strings import text


@pytest.mark.timeout(90)
async def test_empty_boxes_show_the_value_used_and_a_rejected_layout_marks_the_memory_panel(tutor_home):
    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        gpus, dp = app.screen.query_one("#field-gpus", Input), app.screen.query_one("#field-dp", Input)
        assert dp.placeholder == "auto: 2"  # 64 / (4 · 4 · 2)
        gpus.value = ""
        await settle(pilot)
        assert gpus.placeholder == "auto: 32" and dp.placeholder == "auto: 1"
        dp.value = "4"
        await settle(pilot)
        assert gpus.placeholder == "auto: 128"
        gpus.value, dp.value = "64", ""
        await settle(pilot)
        assert gpus.placeholder == "" and dp.placeholder == "auto: 2"
        app.screen.query_one("#field-global_batch", Input).value = "1"
        await settle(pilot)
        memory = str(app.screen.query_one("#memory-chart", Static).render())
        assert "✗ global batch 1 is not divisible by DP" in memory, memory
        # found in tmux: a pasted 5,000 digits were quoted whole in every panel, which they filled
        app.screen.query_one("#field-seq", Input).value = "9" * 5000
        await settle(pilot)
        memory = str(app.screen.query_one("#memory-chart", Static).render())
        assert "Sequence length" in memory and len(memory) < 200, memory[:300]
    assert text("playground.auto_value", "zh", value=2) == "自动：2"


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_while_the_form_does_not_size_the_gpus_and_dp_boxes_claim_nothing(tutor_home, lang):
    """Found in tmux at 80x24: with TP typed as 'e' the panels said why nothing was sized and the
    Params box went blank, but DP (auto) kept 'auto: 2'; with GPUs then raised to 128 it still said
    2, a value nothing had worked out (the layout, once TP is fixed, has DP 4)."""
    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        gpus, dp = app.screen.query_one("#field-gpus", Input), app.screen.query_one("#field-dp", Input)
        tp = app.screen.query_one("#field-tp", Input)
        assert dp.placeholder == text("playground.auto_value", lang, value=2)  # 64 / (4 · 4 · 2)
        tp.value = "e"
        await settle(pilot)
        assert "✗" in str(app.screen.query_one("#memory-chart", Static).render())  # the error stays
        assert dp.placeholder == ""
        gpus.value = "128"
        await settle(pilot)
        assert dp.placeholder == ""
        gpus.value = ""
        await settle(pilot)
        assert gpus.placeholder == "" and dp.placeholder == ""
        tp.value, gpus.value = "4", "128"
        await settle(pilot)
        assert dp.placeholder == text("playground.auto_value", lang, value=4)  # 128 / (4 · 4 · 2)
        gpus.value = ""
        await settle(pilot)
        assert gpus.placeholder == text("playground.auto_value", lang, value=32)  # DP 1 when both are empty
        assert app.ui_errors == []


@pytest.mark.timeout(90)
async def test_full_width_digits_and_grouped_thousands_are_typed_and_read(tutor_home):
    """Found in tmux: with a Chinese input method on, "１２８" typed into Seq. length vanished whole (the
    box's filter took ASCII only) and the sizing went on with the default; "1,024" did the same."""
    app = TutorApp(lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        seq, batch = app.screen.query_one("#field-seq", Input), app.screen.query_one("#field-global_batch", Input)
        for box, keys in ((seq, "１６３８４"), (batch, "1,024")):
            box.focus()
            box.value = ""
            await settle(pilot)
            for key in keys:
                await pilot.press(key)
            await settle(pilot)
        assert (seq.value, batch.value) == ("１６３８４", "1,024")
        assert app.screen._error is None, app.screen._error
        assert (app.screen._settings["seq"], app.screen._settings["global_batch"]) == (16384, 1024)
        batch.value = "1,02,4"  # not groups of three: its error, not a misread 1024
        await settle(pilot)
        assert app.screen._error is not None
