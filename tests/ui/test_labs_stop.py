"""F7 stops whatever F5, F6 or an experiment started, every run of it (issue 16 item 5: an
experiment's two runs could not be stopped from the app), and F6 checks at each rank count the lab
supports, as `tutor lab check` does (it checked only the lab's own count)."""

from __future__ import annotations

import threading

import pytest

from tests.labs.conftest import leftovers
from tests.ui.helpers import open_labs, settle
from tests.ui.test_labs import until
from tutor.ui.app import TutorApp
from tutor.ui.widgets.lab_logs import LabLogs


class _FakeRun:
    """Stands for a LabRun: records its rank count, ends when released or cancelled."""

    started: list[int] = []
    passes: dict[int, bool] = {}
    gate = threading.Event()

    def __init__(self, spec, on_event=None):
        self.spec, self.run_id, self.rank_states = spec, f"fake-{spec.world_size}", []
        self._cancel, self.finished, self.evidence = threading.Event(), False, None

    def start(self):
        _FakeRun.started.append(self.spec.world_size)

    def run(self):
        self.start()
        return self.wait()

    def wait(self):
        while not (self._cancel.is_set() or _FakeRun.gate.is_set()):
            self._cancel.wait(0.02)
        cancelled = self._cancel.is_set()
        self.evidence = {"outcome": "cancelled" if cancelled else "ok", "world_size": self.spec.world_size}
        self.finished = True
        return self.evidence

    def cancel(self):
        self._cancel.set()


@pytest.fixture
def fake_runs(monkeypatch, lab_content):
    """hang-demo claiming rank counts 2 and 3; runs, judging and the screen's drawing of a result
    replaced: what is checked is which runs the keys start and stop."""
    import tutor.actions.labs
    import tutor.labs.checks
    import tutor.labs.launch
    import tutor.labs.runner
    from tutor.labs.catalog import LabEntry
    from tutor.ui.screens.labs import LabsScreen

    _FakeRun.started, _FakeRun.passes = [], {}
    _FakeRun.gate.clear()
    monkeypatch.setattr(tutor.labs.runner, "LabRun", _FakeRun)
    monkeypatch.setattr(tutor.labs.launch, "require_torch", lambda: None)
    monkeypatch.setattr(LabEntry, "world_sizes", property(lambda self: [2, 3]))
    monkeypatch.setattr(tutor.labs.checks, "judge",
                        lambda entry, evidence, states: [{"passed": _FakeRun.passes.get(evidence["world_size"], True)}])
    recorded: list[dict] = []
    monkeypatch.setattr(tutor.actions.labs, "record_check", lambda store, entry, check, solution: recorded.append(check))
    finished: list[tuple] = []
    monkeypatch.setattr(LabsScreen, "_finished", lambda self, entry, evidence, check, diagnosed=False:
                        finished.append((evidence, check)))
    return recorded, finished


@pytest.mark.timeout(60)
async def test_f6_checks_at_every_rank_count_and_stops_at_the_first_failure(fake_runs, tutor_home):
    recorded, finished = fake_runs
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_labs(pilot)
        _FakeRun.gate.set()
        await pilot.press("f6")
        await until(pilot, lambda: finished)
        assert _FakeRun.started == [2, 3] and recorded[-1]["evidence"]["world_size"] == 3 and recorded[-1]["passed"]
        _FakeRun.started, _FakeRun.passes = [], {2: False}
        finished.clear()
        await pilot.press("f6")
        await until(pilot, lambda: finished)
        assert _FakeRun.started == [2] and not recorded[-1]["passed"]  # 3 ranks not tried after a failure
        _FakeRun.started = []
        finished.clear()
        await pilot.press("f5")  # a run is at the lab's own count, once
        await until(pilot, lambda: finished)
        assert _FakeRun.started == [2] and screen.run is None and app.ui_errors == []


@pytest.mark.timeout(60)
async def test_f7_during_a_check_stops_it_and_the_rank_counts_still_to_come(fake_runs, tutor_home):
    recorded, finished = fake_runs
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_labs(pilot)
        await pilot.press("f6")
        await until(pilot, lambda: _FakeRun.started == [2])
        control = screen.run
        await pilot.press("f7")
        await until(pilot, lambda: finished)
        await settle(pilot)
        assert control.cancelled and control.finished and _FakeRun.started == [2]
        assert finished[-1][0]["outcome"] == "cancelled" and screen.run is None and app.ui_errors == []


def test_a_run_handed_over_after_f7_is_cancelled_before_it_starts():
    """The second run of an experiment (or the next rank count) is made after F7 was pressed: it
    must not run."""
    from tutor.ui.screens.labs import RunControl

    control, first, second = RunControl(), _FakeRun.__new__(_FakeRun), _FakeRun.__new__(_FakeRun)
    first._cancel, second._cancel = threading.Event(), threading.Event()
    control.attach(first)
    control.cancel()
    assert first._cancel.is_set()
    control.attach(second)
    assert second._cancel.is_set() and control.cancelled


@pytest.mark.slow
@pytest.mark.timeout(180)
async def test_f7_stops_a_real_experiment_and_no_process_of_either_run_is_left(tutor_home, monkeypatch):
    """slow-dataloader's data experiment (two real runs of 2 ranks): F7 as the first starts. Both
    runs end cancelled, quickly, and no process of either run is alive after it."""
    from tutor.ui.screens.labs import RunControl

    runs = []
    attach = RunControl.attach

    def remember(self, run):
        runs.append(run)
        attach(self, run)

    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_labs(pilot)
        screen.open_lab("slow-dataloader")
        screen.query_one("#lab-list").focus()
        await settle(pilot)
        monkeypatch.setattr(RunControl, "attach", remember)
        await pilot.press("ctrl+d")
        logs = screen.query_one(LabLogs)
        await until(pilot, lambda: any(pane.border_subtitle for pane in logs.panes.values()), seconds=90)  # ranks up
        control = screen.run
        await pilot.press("f7")
        await until(pilot, lambda: control.finished, seconds=60)
        await settle(pilot)
        assert control.cancelled and [run.evidence["outcome"] for run in runs] == ["cancelled"] * len(runs)
        assert all(leftovers(run.run_id) == [] for run in runs)
        assert screen.run is None and app.ui_errors == []
        assert any("Experiment stopped" in str(note.message) for note in app._notifications)
