"""Lab-history reads go to the store the front end gives them (issue 15): the app's store need
not be the default one (`TutorApp(store_path=...)`), and these reads used to open the default
store themselves. `None`, a store the app could not open, has no history."""

from __future__ import annotations

from tutor.labs import hangreport, history
from tutor.labs.experiments import for_learner as experiment_for_learner
from tutor.labs.report import for_learner
from tutor.store import Store, record_lab_run

LAB = "checkpoint-rank0"
HUNG = {"lab": LAB, "outcome": "hang", "world_size": 4, "summary": {
    "category": "hang", "message": "no rank made progress for 10 s: rank 0 in all_gather (train.py:42); "
                                   "ranks 1-3 in all_reduce (train.py:65)"}}
EXPERIMENT = {"lab": LAB, "conclusion": "the loader", "runs": [{"category": "data-loading", "measured": "60 ms"}]}


def test_each_read_goes_to_the_store_it_is_given(tmp_path):
    with Store(tmp_path / "given" / "tutor.sqlite3") as given, Store() as default:
        run_id = record_lab_run(given, LAB, "run", "hang", evidence=HUNG)
        record_lab_run(given, LAB, "check", "ok", passed=True, evidence=dict(HUNG, world_size=2))
        assert hangreport.answered(given, LAB, run_id) is False
        record_lab_run(given, LAB, "diagnose", "incorrect", passed=False)

        assert history.has_passed(given, LAB) and history.status(given, LAB) == "passed"
        assert history.has_diagnosed(given, LAB) and hangreport.answered(given, LAB, run_id)
        assert hangreport.studied(given, LAB) == (run_id, HUNG)  # the run, not the later check
        assert hangreport.latest(given, LAB)[1]["world_size"] == 2
        assert for_learner(given, HUNG, LAB, "hang") == HUNG  # diagnosed: the tutor's reading shown
        assert experiment_for_learner(given, EXPERIMENT, LAB) == EXPERIMENT

        for empty in (default, None):
            assert not history.has_passed(empty, LAB) and history.status(empty, LAB) == "new"
            assert not history.has_diagnosed(empty, LAB) and not hangreport.answered(empty, LAB, 0)
            assert hangreport.studied(empty, LAB) is None and hangreport.latest(empty, LAB) is None
            assert "train.py:42" not in for_learner(empty, HUNG, LAB, "hang")["summary"]["message"]
            assert "conclusion" not in experiment_for_learner(empty, EXPERIMENT, LAB)


def test_a_diagnosis_is_graded_against_the_run_in_its_store(tmp_path):
    from tutor.actions.labs import studied_run
    from tutor.labs.catalog import get_lab

    entry = get_lab(LAB)
    with Store(tmp_path / "given" / "tutor.sqlite3") as given, Store() as default:
        record_lab_run(given, LAB, "run", "hang", evidence=HUNG)
        assert studied_run(given, entry) == HUNG
        assert studied_run(default, entry) is None and studied_run(None, entry) is None
