"""The typed evidence model and its one JSON mapping (issue 15 item 3): recorded runs come back
byte for byte, `tutor lab run --json` and the stored row are what they were before the model,
a runner error has every key of a finished run, and a record that is not evidence is one line.

The recorded runs are the labelled set's real hangs and crashes (tests/grading/labelled/evidence);
nothing here starts a rank. Well under a second, but for the one CLI run (in-process, canned).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.labs.evidence_model import CheckResult, DiagnosisVerdict, EvidenceError, RunEvidence

RECORDED = sorted((Path(__file__).resolve().parents[1] / "grading" / "labelled" / "evidence").glob("*.json"))


def test_every_recorded_run_comes_back_byte_for_byte():
    assert len(RECORDED) >= 10
    for path in RECORDED:
        raw = json.loads(path.read_text(encoding="utf-8"))
        typed = RunEvidence.from_json(raw)
        assert json.dumps(typed.to_json(), indent=1) == json.dumps(raw, indent=1), path.name  # key order too
        assert typed.outcome == raw["outcome"] and len(typed.ranks) == len(raw["ranks"])
        assert [rank.rank for rank in typed.ranks] == [rank["rank"] for rank in raw["ranks"]]
        # These files were written with sorted keys; the runner writes them in its own order: kept as well.
        unsorted = dict(reversed(raw.items()))
        unsorted["ranks"] = [dict(reversed(rank.items())) for rank in raw["ranks"]]
        assert json.dumps(RunEvidence.from_json(unsorted).to_json()) == json.dumps(unsorted), path.name


def test_keys_the_model_does_not_name_ride_along_and_new_ones_are_appended():
    raw = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    raw.pop("container", None)  # older runs have none
    raw["debug"] = "detail"  # `tutor lab run --debug`
    raw["ranks"][0]["perf_extra"] = {"x": 1}
    typed = RunEvidence.from_json(raw)
    assert typed.debug == "detail" and typed.ranks[0].extra == {"perf_extra": {"x": 1}}
    typed.container = {"oom_kills": 0}  # a named key the recorded run did not have
    shown = typed.to_json()
    assert list(shown)[:-1] == list(raw) and list(shown)[-1] == "container"


def test_a_check_result_keeps_its_verdicts_and_the_row_keeps_them_with_the_run():
    raw = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    result = {"lab": raw["lab"], "passed": False, "program": "train.py",
              "checks": [{"name": "runs to completion", "passed": False, "detail": "hang"},
                         {"name": "steps completed", "passed": True, "detail": "4 of 4"}],
              "evidence": raw}
    typed = CheckResult.from_json(result)
    assert typed.to_json() == result and [item.name for item in typed.failed] == ["runs to completion"]
    assert typed.recorded_evidence() == {**raw, "checks": result["checks"]}


def test_a_runner_error_has_every_key_of_a_finished_run():
    failed = RunEvidence.runner_error("tp-mlp", RuntimeError("boom"), world_size=2, backend="gloo", elapsed_s=0.5,
                                      run_dir="/runs/1", program="train.py").to_json()
    finished = set(json.loads(RECORDED[0].read_text(encoding="utf-8"))) | {"container"}
    assert set(failed) == finished
    assert failed["outcome"] == "crash" and failed["summary"]["message"] == "runner error: RuntimeError('boom')"
    assert json.dumps(RunEvidence.from_json(failed).to_json()) == json.dumps(failed)


@pytest.mark.parametrize("record, said", [
    ({"lab": "x"}, "lacks outcome, summary, ranks"),
    ([1, 2], "is a JSON object, not list"),
    ({"lab": "x", "outcome": "ok", "summary": {}, "ranks": [{"pid": 3}]}, "rank evidence lacks rank"),
    ({"lab": "x", "outcome": "ok", "summary": "ok", "ranks": []}, "summary as an object"),
])
def test_a_record_that_is_not_evidence_is_one_line(record, said):
    with pytest.raises(EvidenceError, match=said) as caught:
        RunEvidence.from_json(record)
    assert "\n" not in str(caught.value)


def test_a_diagnosis_verdict_keeps_every_key_of_the_grader():
    verdict = {"correct": True, "score": 0.9, "share": 0.8, "feedback": [{"id": "ranks"}], "notes": []}
    typed = DiagnosisVerdict.from_json(verdict)
    assert typed.outcome == "correct" and typed.to_json() == verdict


@pytest.mark.timeout(60)
def test_lab_run_json_and_the_stored_row_are_what_they_were_before_the_model(tutor_home, monkeypatch, capsys):
    # Before the model, `tutor lab run --json` printed for_learner(the runner's dict) and the row
    # kept json.dumps(the dict): both are computed here from the raw recorded run and compared.
    import tutor.labs.launch
    import tutor.labs.runner
    from tests.actions.test_one_path import EVIDENCE, LAB, _CannedRun
    from tutor.cli import main
    from tutor.content import load
    from tutor.labs.catalog import get_lab
    from tutor.labs.report import for_learner
    from tutor.store import Store

    monkeypatch.delenv("TUTOR_CONTENT", raising=False)
    load.cache_clear()
    monkeypatch.setattr(tutor.labs.runner, "LabRun", _CannedRun)
    monkeypatch.setattr(tutor.labs.launch, "require_torch", lambda: None)
    raw = json.loads(EVIDENCE.read_text(encoding="utf-8"))
    assert main(["lab", "run", LAB, "--json"]) == (0 if raw["outcome"] == "ok" else 1)
    shown = json.loads(capsys.readouterr().out)
    entry = get_lab(LAB)
    with Store() as store:
        assert shown == for_learner(store, json.loads(EVIDENCE.read_text(encoding="utf-8")), entry.name,
                                    entry.lab.kind)
        (stored,) = [row["evidence_json"] for row in store.query("SELECT evidence_json FROM lab_runs")]
    assert stored == json.dumps(raw, ensure_ascii=False)
    load.cache_clear()
