"""Found driving Labs in tmux at 80×24 in Chinese (issue 16 item 4): F5 showed "run · running" (the
runner's English words), and the four rank logs were titled "rank…" each (cut), so which rank was which
could not be told. The progress line is in the app's language; a narrow log is titled "r0"."""

from __future__ import annotations

import pytest
from textual.app import App

from tutor.ui.screens.labs_text import phase_text
from tutor.ui.widgets.lab_logs import LabLogs


def test_the_progress_line_is_in_the_apps_language():
    assert phase_text("run", "running", "", "zh") == "运行 · 运行中"
    assert phase_text("check", "hang", "no progress for 20 s", "zh") == "检查 · 卡死 20 秒没有进展"
    assert phase_text("run", "finished", "cancelled", "zh") == "运行 · 结束 已停止"
    assert phase_text("experiment data", "collecting-evidence", "", "zh") == "实验：改变 data · 收集证据中"
    assert phase_text("run", "running", "", "en") == "run · running"
    assert phase_text("check", "hang", "no progress for 20 s", "en") == "check · hang no progress for 20 s"


class Logs(App):
    def compose(self):
        yield LabLogs()


@pytest.mark.parametrize(("width", "titles"), [(44, ["r0", "r1", "r2", "r3"]),
                                               (100, ["rank 0", "rank 1", "rank 2", "rank 3"])])
async def test_each_rank_log_says_which_rank_it_is(width, titles):
    app = Logs()
    async with app.run_test(size=(width, 12)) as pilot:
        app.query_one(LabLogs).reset(4)
        await pilot.pause()
        await pilot.pause()
        panes = list(app.query_one(LabLogs).panes.values())
        assert [pane.border_title for pane in panes] == titles
