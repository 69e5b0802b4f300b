"""The perf labs' metrics panel: what it shows for a run and a check, in both languages."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import App, ComposeResult

from tutor.ui.widgets.lab_metrics import LabMetrics, metrics_text

RUN = {
    "metrics": {"step_time_s": 0.114, "tokens_per_s": 29314, "mfu": 0.477, "per_rank_step_time_s": {"0": 0.114,
                                                                                                  "1": 0.1142}},
    "summary": {"category": "straggler", "finding": "straggler", "step_time_s": 0.108,
                "message": "straggler: rank 1 computes 79.7 ms longer per step than rank 0",
                "fractions": {"data": 0.0, "communication": 0.05, "launch": 0.08, "straggler": 0.74},
                "per_rank_busy_s": {"0": 0.027, "1": 0.106}, "slowest_rank": {"rank": 1, "by_s": 0.0797}},
    "trace_files": ["/runs/straggler/1/traces/rank0.trace.json", "/runs/straggler/1/traces/rank1.trace.json"],
}


def test_a_run_shows_the_numbers_the_rank_chart_the_summary_and_the_traces():
    shown = metrics_text(RUN).plain
    assert "step 114.0 ms (median of the timed steps) · 29,314 tokens/s · MFU 47.7% of the measured peak" in shown
    rank0, rank1 = (line for line in shown.splitlines() if line.strip().startswith("rank "))
    assert rank0.count("█") < rank1.count("█")  # rank 0 mostly waits, rank 1 is busy
    assert rank0.count("░") > rank1.count("░") and rank1.rstrip().endswith("114.2 ms")
    assert "Trace summary: straggler (straggler)" in shown and "rank 1 computes 79.7 ms longer" in shown
    assert "straggler" in shown and "74%" in shown
    assert "https://ui.perfetto.dev" in shown and "/runs/straggler/1/traces/rank1.trace.json" in shown


def test_a_check_shows_the_speedup_and_the_shipped_programs_summary():
    check = {"metrics": {"speedup": 2.88, "step_time_s": 0.082,
                         "shipped_summary": {"message": "data loading: each step waits 161.8 ms"}},
             "summary": {"category": "ok", "message": "done"}, "trace_files": []}
    shown = metrics_text(check).plain
    assert "speedup over the shipped program: 2.88×" in shown
    assert "shipped program, its profiled steps: data loading: each step waits 161.8 ms" in shown


def test_chinese_labels_and_the_empty_panel():
    assert "每个 rank 的 step time" in metrics_text(RUN, "zh").plain
    assert metrics_text(None).plain.startswith("No measurements yet")
    assert metrics_text({"metrics": {}, "summary": {}}, "zh").plain.startswith("还没有测量结果")


async def test_the_widget_shows_what_the_function_returns():
    class Panel(App):
        def compose(self) -> ComposeResult:
            yield LabMetrics(id="metrics")

    app = Panel()
    async with app.run_test() as pilot:
        panel = app.query_one(LabMetrics)
        panel.show(RUN)
        await pilot.pause()
        assert "rank 1 computes 79.7 ms longer" in str(panel.render())


def test_in_chinese_the_measurements_read_in_chinese():
    # what `tutor lab run` shows before a diagnosis (no category), as the Labs screen shows it
    from tutor.labs.measure import measurements_message

    summary = {"step_time_s": 0.1868, "data_wait_s": 0.1285, "exposed_comm_s": 0.0048, "launch_overhead_s": 0.0059,
               "straggler_s": 0.0324, "ops_per_step": 125, "host_syncs_per_step": 0,
               "per_rank_busy_s": {"0": 0.1667, "1": 0.1343}, "steps_profiled": [1, 2, 3],
               "fractions": {"data": 0.69, "communication": 0.03, "launch": 0.03, "straggler": 0.17}}
    summary["message"] = measurements_message(summary)
    run = {"metrics": {"step_time_s": 0.1531, "per_rank_step_time_s": {"0": 0.15, "1": 0.153}}, "summary": summary,
           "trace_files": []}
    shown = metrics_text(run, "zh").plain
    assert "per profiled step" not in shown and "每个 profile 的 step：186.8 ms" in shown
    assert "step 153.1 ms（计时 step 的中位数）" in shown and "（profile 的第 1–3 步，开着 profiler 所以更慢）" in shown
    assert "Trace 摘要：" in shown
    # the category bars start in one column, whatever the width of their Chinese labels
    bars = [line for line in shown.splitlines() if line.rstrip().endswith("%") and "█" in line]
    assert len(bars) == 4 and len({cell_len(line.split("█")[0]) for line in bars}) == 1
    english = metrics_text(run, "en").plain
    assert "per profiled step: 186.8 ms" in english and "(profiled steps 1–3, slower: the profiler is on)" in english
