"""A lab, as the learner works it: run it, check it, diagnose it (or give up), answer a mystery.

`tutor lab run|check|diagnose` and the app's Labs screen call these; each records its history
here, once: a run or a check is a `lab_runs` row with its evidence (a check of the reference
solution never counts as the learner passing: it would unlock the solution), a diagnosis is a
`lab_runs` row and a rating of the lab's review card. The front ends only render the result.

Runs report progress through `on_event` (called from the runner's threads) and hand each
`LabRun` to `on_run` before it starts, so that a front end can stop it (the app's F7, a second
rank count after F7 is cancelled before it starts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tutor.actions import MAX_ANSWER_CHARS
from tutor.labs.run_options import RunOptions, resolve, run_spec
from tutor.labs.catalog import LabEntry
from tutor.labs.evidence_model import CheckResult, DiagnosisVerdict, RunEvidence
from tutor.store.db import Store


def run(entry: LabEntry, options: RunOptions, *, store: Store | None, debug: str | None = None,
        on_event: Callable | None = None, on_run: Callable | None = None) -> dict:
    """Run the learner's copy (or the shipped program, or the solution) once, record it in `store`
    (None: the front end could not open the database; run, not recorded) and return its evidence.

    `debug` (detail|barrier) reruns it under a tool: recorded as such, so a diagnosis is never
    graded against a run that fails differently on purpose. Ctrl-C stops the ranks in order and
    the run's evidence is what was there.
    """
    from tutor.labs.hangtools import with_debug
    from tutor.labs.runner import LabRun

    labrun = LabRun(with_debug(run_spec(entry, options), debug), on_event=on_event)
    if on_run is not None:
        on_run(labrun)
    labrun.start()
    try:
        evidence = labrun.wait()
    except KeyboardInterrupt:
        labrun.cancel()
        evidence = labrun.wait()
    assert evidence is not None  # wait() without a timeout returns only once the run is over
    if debug:
        evidence["debug"] = debug
    record_run(store, entry, evidence, options.solution)
    return evidence


def check(entry: LabEntry, options: RunOptions, *, store: Store | None, on_event: Callable | None = None,
          on_run: Callable | None = None, on_result: Callable[[dict], None] | None = None,
          cancelled: Callable[[], bool] = lambda: False) -> dict:
    """Check the program at every rank count the lab claims (or `options.world_size`), stopping at
    the first failure, and record the last result in `store` (None: not recorded):
    {lab, passed, program, checks, evidence}.

    `on_result` sees each rank count's result as it comes; `cancelled` (the app's F7) stops
    before the next rank count, the last result standing.
    """
    from tutor.labs.checks import check_lab

    sizes = [options.world_size] if options.world_size is not None else entry.world_sizes
    plans = [(size, *resolve(entry, replace(options, world_size=size))[1:]) for size in sizes]  # refused up front
    result: dict | None = None
    for size, backend, timeout_s in plans:
        if result is not None and cancelled():
            break
        result = check_lab(entry, solution=options.solution, world_size=size, backend=backend, timeout_s=timeout_s,
                           on_event=on_event, on_run=on_run)
        if on_result is not None:
            on_result(result)
        if not result["passed"]:
            break
    assert result is not None  # a lab claims at least its own rank count
    record_check(store, entry, result, options.solution)
    return result


def record_run(store: Store | None, entry: LabEntry, evidence: dict, solution: bool) -> None:
    run = RunEvidence.from_json(evidence)
    _record(store, entry.name, "run-solution" if solution else "run", run.outcome, None, run, run.to_json())


def record_check(store: Store | None, entry: LabEntry, result: dict, solution: bool) -> None:
    check = CheckResult.from_json(result)
    _record(store, entry.name, "check-solution" if solution else "check", check.evidence.outcome, check.passed,
            check.evidence, check.recorded_evidence())


def _record(store: Store | None, lab: str, action: str, outcome: str, passed: bool | None, run: RunEvidence,
            stored: dict) -> None:
    from tutor.store import record_lab_run

    if store is not None:
        record_lab_run(store, lab, action, outcome, passed=passed, world_size=run.world_size, backend=run.backend,
                       elapsed_s=run.elapsed_s, evidence=stored)


def studied_run(store: Store | None, entry: LabEntry) -> dict | None:
    """The run a diagnosis is about when the front end shows none: the latest `tutor lab run` of
    the learner's program in `store` (what `tutor lab evidence` shows), else the latest check."""
    from tutor.labs.hangreport import studied

    found = studied(store, entry.name)
    return found[1] if found else None


def diagnose(store: Store | None, entry: LabEntry, text: str, lang: str = "en", *, evidence: dict | None = None,
             hints_used: int = 0, elapsed_s: float | None = None, queue=None) -> dict:
    """Grade a diagnosis with the one grader (`tutor.labs.diagnose.grade_lab`: against the run's
    evidence when it hung or crashed, else the lab's rubric), record it and rate the lab's card.

    `evidence`: the run the learner is looking at (the Labs screen); None means the studied run
    (`studied_run`: the CLI and the review queue). `queue`: a `ReviewQueue` on the front end's
    clock. `store` None: graded, not recorded (the app could not open the database).
    """
    from tutor.labs.diagnose import grade_lab

    if evidence is None:
        evidence = studied_run(store, entry)
    verdict = grade_lab(list(entry.lab.diagnosis), text[:MAX_ANSWER_CHARS], evidence, lang)
    graded = DiagnosisVerdict.from_json(verdict)
    if store is not None:
        _record_diagnosis(store, entry.name, graded.outcome, graded.correct, hints_used, elapsed_s, queue)
    return verdict


def give_up(store: Store | None, entry: LabEntry, lang: str = "en") -> list[dict]:
    """The model answers; recorded as given up and reviewed as not known."""
    from tutor.labs.diagnose import give_up as model_answers

    if store is not None:
        _record_diagnosis(store, entry.name, "gave-up", False, 0, None, None)
    return model_answers(list(entry.lab.diagnosis), lang)


def answer_mystery(store: Store | None, case, run_dir: str | None, text: str, evidence: dict,
                   lang: str = "en") -> dict:
    """`tutor lab mystery --answer`: graded against the mystery's run, marked answered, and the
    scenario's lab card rated (a mystery is not a run of the learner's copy: no `lab_runs` row)."""
    from tutor.interview.review import record_diagnosis
    from tutor.labs import mystery

    verdict = mystery.grade(case, text[:MAX_ANSWER_CHARS], evidence, lang)
    mystery.save(case, run_dir, answered=True)
    if store is not None:
        record_diagnosis(store, case.lab, verdict["correct"])
    return verdict


def _record_diagnosis(store: Store, lab: str, outcome: str, correct: bool, hints_used: int,
                      elapsed_s: float | None, queue) -> None:
    from tutor.interview.review import record_diagnosis
    from tutor.store import record_lab_run

    record_lab_run(store, lab, "diagnose", outcome, passed=correct)
    record_diagnosis(store, lab, correct, hints_used=hints_used, elapsed_s=elapsed_s, queue=queue)
