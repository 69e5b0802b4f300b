"""`tutor lab check`: does the learner's program now behave right? Never the exit code alone.

With a checker (lab.yaml `checker:`), the job runs the checker, which imports the learner's
program and reports each property (`check` events) and each measurement to be compared with
the sizing engine (`measure` events; compared here, in the core, so the expected numbers come
from `tutor.sizing`). Without one, the job runs the program itself, and every self-check it
makes (`verify` events) becomes a check. Either way the run must end `ok`: a hang or a crash
under check is reported with the runner's own summary of where each rank was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tutor.labs.catalog import LabEntry
from tutor.labs.evidence import RankState
from tutor.labs import runner
from tutor.labs.runner import RunEvent, RunSpec
from tutor.labs.workspace import working_program


def check_lab(entry: LabEntry, *, solution: bool = False, program: Path | None = None, world_size: int | None = None,
              backend: str = "gloo", timeout_s: float | None = None,
              on_event: Callable[[RunEvent], None] | None = None, run_root: Path | None = None,
              on_run: Callable[[runner.LabRun], None] | None = None) -> dict:
    """Run the lab's check on one program (default: the learner's copy, else the shipped one).
    `on_run` gets the run before it starts (so a front end can stop it)."""
    target = entry.solution if solution else (program or working_program(entry) or entry.program)
    spec = check_spec(entry, target, world_size=world_size, backend=backend, timeout_s=timeout_s, run_root=run_root)
    # looked up at the call, not bound at import: a stand-in for runner.LabRun (tests) reaches every caller
    run = runner.LabRun(spec, on_event=on_event)
    if on_run is not None:
        on_run(run)
    evidence = run.run()
    checks = judge(entry, evidence, run.rank_states)
    return {"lab": entry.name, "passed": evidence["outcome"] == "ok" and all(c["passed"] for c in checks),
            "program": str(target), "checks": checks, "evidence": evidence}


def check_spec(entry: LabEntry, target: Path, *, world_size: int | None = None, backend: str = "gloo",
               timeout_s: float | None = None, run_root: Path | None = None) -> RunSpec:
    lab = entry.lab
    common = dict(lab=entry.name, world_size=world_size or lab.world_size, backend=backend,
                  timeout_s=timeout_s or lab.timeout_s, run_root=run_root, timeout_first=lab.kind == "hang")
    if entry.checker is None:
        return RunSpec(program=target, args=tuple(lab.args), **common)
    env = {"TUTOR_LAB_PROGRAM": str(target), "TUTOR_LAB_SHIPPED": str(entry.program),
           "TUTOR_LAB_CHECK_PARAMS": json.dumps(lab.check)}
    return RunSpec(program=entry.checker, env=env, **common)


def judge(entry: LabEntry, evidence: dict, ranks: list[RankState]) -> list[dict]:
    outcome = evidence["outcome"]
    checks = [{"name": "runs to completion", "passed": outcome == "ok",
               "detail": evidence["summary"]["message"] if outcome != "ok" else
               f"all {evidence['world_size']} ranks finished in {evidence['elapsed_s']:.1f} s"}]
    reported = _reported_checks(ranks) + _measured(ranks)
    if entry.checker is None:
        reported += _verified(ranks)
        min_steps = entry.lab.check.get("min_steps")
        if isinstance(min_steps, (int, float)) and not isinstance(min_steps, bool):
            steps = evidence["metrics"].get("steps") or 0
            reported.append({"name": "steps completed", "passed": steps >= min_steps,
                             "detail": f"{steps} of {int(min_steps)} steps"})
    if outcome == "ok" and not reported:
        reported.append({"name": "checker reported", "passed": False,
                         "detail": "the job finished without reporting any check; nothing was verified"})
    return checks + reported


def _reported_checks(ranks: list[RankState]) -> list[dict]:
    """One entry per check name: it passes when every rank that reported it passed."""
    merged: dict[str, dict] = {}
    for state in ranks:
        for event in state.checks:
            item = merged.setdefault(event["name"], {"name": event["name"], "passed": True,
                                                     "detail": event["detail"], "ranks": []})
            item["ranks"].append(state.rank)
            if not event["passed"] and item["passed"]:
                item.update(passed=False, detail=f"{event['detail']} (rank {state.rank})",
                            data=event.get("data") or {})
    return list(merged.values())


def _verified(ranks: list[RankState]) -> list[dict]:
    merged: dict[str, dict] = {}
    for state in ranks:
        for event in state.verifies:
            item = merged.setdefault(event["name"], {"name": event["name"], "passed": True, "detail": event["detail"]})
            if not event["passed"] and item["passed"]:
                item.update(passed=False, detail=f"{event['detail']} (rank {state.rank})")
    return list(merged.values())


def _measured(ranks: list[RankState]) -> list[dict]:
    """Measurements against the engine; the worst rank's result stands for the measure."""
    merged: dict[str, dict] = {}
    for state in ranks:
        for event in state.measures:
            result = _compare(event, state.rank)
            current = merged.get(event["name"])
            if current is None or (current["passed"] and not result["passed"]):
                merged[event["name"]] = result
    return list(merged.values())


class UnknownFormula(LookupError):
    pass


def engine_value(formula: str, inputs: dict, subtract: list[str] | tuple[str, ...] = ()) -> float:
    """The sizing engine's `formula` at `inputs`, minus each formula in `subtract` at the same
    inputs (e.g. ZeRO-1 state minus weights); inputs a formula does not use are ignored."""
    from tutor.sizing import registry
    from tutor.sizing.engine import evaluate

    value = 0.0
    for sign, name in [(1.0, formula), *((-1.0, other) for other in subtract)]:
        if name not in registry.names():
            raise UnknownFormula(f"no formula {name!r} in the sizing engine")
        symbols = registry.get(name).symbols
        value += sign * float(evaluate(name, **{key: inputs[key] for key in symbols if key in inputs}))
    return value


def _compare(event: dict, rank: int) -> dict:
    formula, unit = event["formula"], event.get("unit", "")
    try:
        expected = engine_value(formula, event["inputs"], event.get("subtract") or ())
    except (UnknownFormula, KeyError, ValueError) as error:
        return {"name": event["name"], "passed": False, "detail": f"cannot compute {formula}: {error}"}
    value = event["value"]
    passed = abs(value - expected) <= event.get("atol", 0.0) + event["rtol"] * abs(expected)
    label = formula + "".join(f" − {name}" for name in event.get("subtract") or ())
    return {"name": event["name"], "passed": passed,
            "detail": f"measured {_fmt(value, unit)}, engine {label} = {_fmt(expected, unit)} at "
                      + ", ".join(f"{key}={_fmt(number, '')}" for key, number in event["inputs"].items())
                      + ("" if passed else f" (rank {rank}; relative tolerance {event['rtol']:.2g})"),
            "measured": value, "expected": expected, "formula": formula, "inputs": event["inputs"]}


def _fmt(value: float, unit: str) -> str:
    if unit == "B":
        return f"{value:,.0f} B"
    if unit == "fraction":
        return f"{value:.3f}"
    if not unit and abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.4g}{(' ' + unit) if unit else ''}"
