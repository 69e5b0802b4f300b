"""Found driving the app in tmux (issue 16 item 4): with GPUs cleared, the playground sized the layout
on TP·PP·CP = 32 GPUs (DP 1) and said "fits" without saying on how many GPUs; DP (auto) never showed
the DP it worked out either. An empty GPUs or DP box now shows, greyed, the value the sizing used."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.ui.helpers import settle
from tutor.ui.app import TutorApp

SCENARIO = {"model": "lesson-70b", "gpus": 64, "tp": 4, "pp": 4, "cp": 2, "seq": 8192, "micro_batch": 1,
            "global_batch": 512, "sharding": "distopt"}


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_an_empty_gpus_or_dp_box_shows_the_value_used(tutor_home, lang):
    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        gpus, dp = app.screen.query_one("#field-gpus", Input), app.screen.query_one("#field-dp", Input)
        assert "2" in dp.placeholder  # 64 / (4 · 4 · 2)
        gpus.value = ""
        await settle(pilot)
        assert "32" in gpus.placeholder and "1" in dp.placeholder
        dp.value = "4"
        await settle(pilot)
        assert "128" in gpus.placeholder
        gpus.value = "64"
        dp.value = ""
        await settle(pilot)
        assert gpus.placeholder == "" and "2" in dp.placeholder


@pytest.mark.timeout(90)
async def test_the_memory_panel_of_a_rejected_layout_says_why(tutor_home):
    """Found in tmux: global batch 1 on DP 2 × micro-batch 1 read "total 42.2 GB / 80.0 GB · fits" over two
    blank lines, while the Pipeline tab said the batch does not divide."""
    from textual.widgets import Static

    app = TutorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.open_playground(SCENARIO)
        await settle(pilot)
        app.screen.query_one("#field-global_batch", Input).value = "1"
        await settle(pilot)
        memory = str(app.screen.query_one("#memory-chart", Static).render())
        assert "✗ global batch 1 is not divisible by DP" in memory, memory
