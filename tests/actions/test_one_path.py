"""Issue 15's done-when: each learner action, driven once through the CLI and once through the app
(Pilot), leaves the same rows in the learner's store — one implementation, `tutor.actions`.

Each test runs the action in two fresh data folders, one per front end, and compares what the
store holds, leaving out what cannot be equal (ids, clock times, time taken). The rows are also
checked to be the expected ones, so two front ends that both record nothing cannot pass.
Lab runs are the canned evidence of a real hang (tests/grading/labelled/evidence), handed out
by a stand-in LabRun: what is under test is what each front end records, not torch.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.widgets import Input, Markdown, TextArea

from tests.helpers import run_tutor
from tests.ui.helpers import open_labs, settle
from tutor.ui.app import TutorApp

EVIDENCE = Path(__file__).resolve().parents[1] / "grading" / "labelled" / "evidence" / "checkpoint-rank0.json"
LAB = "checkpoint-rank0"
STRONG = ("Rank 0 is stuck in an all_gather inside data_positions, called from save_checkpoint under "
          "`if ctx.rank == 0:`; ranks 1-3 went on to the next step and wait in the gradient all-reduce in backward. "
          "Only rank 0 calls the all_gather and a collective needs every rank, so it never returns.")


def rows(home: Path, *, ratings: bool = True) -> dict:
    """What the store in `home` holds, without ids, clock times and time taken."""
    from tutor.store import Store

    with Store(home / "tutor.sqlite3") as store:
        def table(sql: str) -> list[tuple]:
            return [tuple(row) for row in store.query(sql)]

        stages = [(stage, score, answer, {k: v for k, v in json.loads(detail).items() if k != "elapsed_s"})
                  for stage, score, answer, detail in
                  table("SELECT stage, score, answer, detail_json FROM mock_stages ORDER BY id")]
        return {
            "attempts": table("SELECT question_id, step_id, seed, answer, correct, score, hints_used, lang, mode,"
                              " self_assessed FROM attempts ORDER BY id"),
            "lab_runs": table("SELECT lab, action, outcome, passed, world_size, backend, evidence_json"
                              " FROM lab_runs ORDER BY id"),
            "cards": table("SELECT item_id FROM review_cards ORDER BY item_id"),
            "reviews": table(f"SELECT item_id{', rating' if ratings else ''} FROM review_log ORDER BY id"),
            "mocks": table("SELECT format, mode, status, score FROM mock_sessions ORDER BY id"),
            # The plan as written down (a follow-up joins it), without the interview's random seed.
            "plans": [json.loads(state)["stages"] for (state,) in table("SELECT state_json FROM mock_sessions ORDER BY id")],
            "stages": stages,
        }


@pytest.fixture
def homes(tutor_home, monkeypatch):
    """Two data folders; `use(name)` makes one the learner's (for the app and in-process CLI)."""
    folders = {name: tutor_home / name for name in ("cli", "app")}
    for folder in folders.values():
        folder.mkdir()

    def use(name: str) -> Path:
        monkeypatch.setenv("TUTOR_HOME", str(folders[name]))
        return folders[name]

    return folders, use


@pytest.fixture
def real_content(monkeypatch):
    from tutor.content import load

    monkeypatch.delenv("TUTOR_CONTENT", raising=False)
    load.cache_clear()
    yield
    load.cache_clear()


def _studied_run(home: Path) -> None:
    """The learner ran the lab and it hung (the run a diagnosis is graded against)."""
    from tutor.store import Store, record_lab_run

    evidence = json.loads(EVIDENCE.read_text(encoding="utf-8"))
    with Store(home / "tutor.sqlite3") as store:
        record_lab_run(store, LAB, "run", "hang", world_size=4, backend="gloo", evidence=evidence)


# -- a practice step: `tutor check` and the Practice screen


@pytest.mark.timeout(90)
async def test_a_practice_answer_records_the_attempt_and_rates_the_card_both_ways(homes, fixture_content):
    folders, use = homes
    assert run_tutor("check", "memory-total", "1120 GB", env={"TUTOR_HOME": str(folders["cli"])}).returncode == 0
    use("app")
    app = TutorApp()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        app.screen.open_question("memory-total")
        await settle(pilot)
        app.screen.query_one("#answer-line", Input).value = "1120 GB"
        await pilot.press("enter")
        await settle(pilot)
    # The rating follows the time taken, which only the app measures (the CLI has no clock): left out.
    cli, shown = rows(folders["cli"], ratings=False), rows(folders["app"], ratings=False)
    assert cli == shown
    assert cli["attempts"] == [("memory-total", "main", 0, "1120 GB", 1, 1.0, 0, "en", "practice", 0)]
    assert cli["cards"] == [("q:memory-total",)] and cli["reviews"] == [("q:memory-total",)]


# -- a lab: run and check (`tutor lab run|check`, F5 and F6), diagnose (`tutor lab diagnose`, the answer line)


class _CannedRun:
    """Stands for a LabRun: ends at once with the recorded evidence of a real hang of the lab."""

    def __init__(self, spec, on_event=None):
        self.spec, self.run_id, self.rank_states, self.finished = spec, "canned", [], False
        self.evidence = None

    def start(self):
        pass

    def wait(self, timeout=None):
        self.evidence, self.finished = json.loads(EVIDENCE.read_text(encoding="utf-8")), True
        return self.evidence

    def run(self):
        return self.wait()

    def cancel(self):
        pass


@pytest.mark.timeout(120)
async def test_a_lab_run_and_check_record_the_same_rows_both_ways(homes, real_content, monkeypatch, capsys):
    import tutor.labs.checks
    import tutor.labs.launch
    import tutor.labs.runner
    from tutor.cli import main

    monkeypatch.setattr(tutor.labs.runner, "LabRun", _CannedRun)
    monkeypatch.setattr(tutor.labs.launch, "require_torch", lambda: None)
    folders, use = homes
    use("cli")
    assert main(["lab", "run", LAB, "--json"]) == 1  # the canned run hangs
    assert main(["lab", "check", LAB, "--json"]) == 1
    capsys.readouterr()
    use("app")
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_labs(pilot)
        screen.open_lab(LAB)
        await settle(pilot)
        for key in ("f5", "f6"):
            await pilot.press(key)
            await settle(pilot)
            assert screen.run is None and screen.evidence is not None
        assert app.ui_errors == []
    cli, shown = rows(folders["cli"]), rows(folders["app"])
    assert cli == shown
    assert [row[:6] for row in cli["lab_runs"]] == [(LAB, "run", "hang", None, 4, "gloo"),
                                                    (LAB, "check", "hang", 0, 4, "gloo")]
    assert json.loads(cli["lab_runs"][1][6])["checks"][0]["passed"] is False  # the check's own verdicts, kept


@pytest.mark.timeout(120)
async def test_a_lab_diagnosis_is_graded_recorded_and_reviewed_the_same_both_ways(homes, real_content):
    folders, use = homes
    for folder in folders.values():
        _studied_run(folder)
    shown_cli = run_tutor("lab", "diagnose", LAB, STRONG, "--json", env={"TUTOR_HOME": str(folders["cli"])})
    assert shown_cli.returncode == 0, shown_cli.stderr
    use("app")
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_labs(pilot)
        screen.open_lab(LAB)
        await settle(pilot)
        answer = screen.query_one("#lab-answer", Input)
        assert answer.display  # the restored hang asks for the diagnosis
        answer.value = STRONG
        answer.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert screen.verdict is not None and app.ui_errors == []
    cli, shown = rows(folders["cli"]), rows(folders["app"])
    assert cli == shown
    assert json.loads(shown_cli.stdout)["correct"] == screen.verdict["correct"] is True
    assert [row[:4] for row in cli["lab_runs"]][1:] == [(LAB, "diagnose", "correct", 1)]
    assert cli["reviews"] == [(f"lab:{LAB}", 3)]  # right, no hint, the CLI's elapsed unknown: good


# -- a review item: `tutor review` and the Review screen (a lab card: graded as `tutor lab diagnose` does)


@pytest.mark.timeout(120)
async def test_a_due_lab_card_is_answered_the_same_both_ways(homes, real_content):
    from tutor.interview.review import record_diagnosis
    from tutor.store import Store

    folders, use = homes
    earlier = datetime.now(timezone.utc) - timedelta(hours=2)
    for folder in folders.values():
        _studied_run(folder)
        with Store(folder / "tutor.sqlite3") as store:
            record_diagnosis(store, LAB, False, now=lambda: earlier)  # wrong two hours ago: due now
    done = run_tutor("review", env={"TUTOR_HOME": str(folders["cli"])}, input=STRONG + "\n\n")
    assert done.returncode == 0 and "Reviewed 1" in done.stdout, done.stdout + done.stderr
    use("app")
    app = TutorApp()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        app.screen.query_one("#answer-text", TextArea).text = STRONG
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen.query_one("#review-verdict", Markdown).source.startswith("### ✓ Right")
    cli, shown = rows(folders["cli"]), rows(folders["app"])
    assert cli == shown
    assert [row[:4] for row in cli["lab_runs"]][1:] == [(LAB, "diagnose", "correct", 1)]
    assert cli["reviews"] == [(f"lab:{LAB}", 1), (f"lab:{LAB}", 4)]  # again; then right, fast: easy


# -- a mock interview: `tutor mock` and the Mock screen (start, answer, the follow-up, quit, resume, the report)


@pytest.mark.timeout(150)
async def test_a_mock_interview_started_quit_resumed_and_finished_records_the_same_rows_both_ways(homes, monkeypatch):
    from tests.interview.helpers import FIXTURE_ROOT, point_at
    from tests.ui.mock_helpers import answer, mock_app, open_mock, start
    from tutor.interview.clock import ManualClock

    point_at(FIXTURE_ROOT, monkeypatch)
    folders, use = homes
    cli_env = {"TUTOR_HOME": str(folders["cli"])}
    paused = run_tutor("mock", "--format", "pitch", env=cli_env, input="GPUs are fast\n\n:quit\n")
    assert paused.returncode == 0 and "tutor mock --resume" in paused.stdout, paused.stdout + paused.stderr
    halfway = rows(folders["cli"])
    done = run_tutor("mock", "--resume", env=cli_env, input="no idea\n\n")
    assert done.returncode == 0 and "# Mock interview" in done.stdout, done.stdout + done.stderr
    use("app")
    clock = ManualClock()
    async with mock_app(clock).run_test(size=(120, 40)) as pilot:
        screen = await open_mock(pilot)
        await start(pilot, screen, "pitch")
        await answer(pilot, screen, "GPUs are fast")
        await pilot.press("escape", "q")  # home, then quit the app mid-interview
    assert rows(folders["app"]) == halfway  # the first stage and the plan with its follow-up, kept at the quit
    async with mock_app(clock).run_test(size=(120, 40)) as pilot:
        await open_mock(pilot)
        assert type(pilot.app.screen).__name__ == "ResumeDialog"
        await pilot.press("r")
        await settle(pilot)
        screen = pilot.app.screen
        await answer(pilot, screen, "no idea")
        assert screen.report is not None and pilot.app.ui_errors == []
    cli, shown = rows(folders["cli"]), rows(folders["app"])
    assert cli == shown
    assert halfway["mocks"] == [("pitch", "strict", "running", None)] and len(halfway["stages"]) == 1
    assert [stage["key"] for stage in halfway["plans"][0]] == ["1-main", "1-main-followup"]
    assert cli["mocks"] == [("pitch", "strict", "finished", 0.0)]
    assert [stage[:3] for stage in cli["stages"]] == [("1-main", 0.0, "GPUs are fast"),
                                                      ("1-main-followup", 0.0, "no idea")]
    assert cli["reviews"] == [("q:fixture-pitch", 1), ("q:fixture-followup-memory", 1)]  # both wrong: again
