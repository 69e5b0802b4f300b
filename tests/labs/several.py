"""Several programs' checks in one lab job, each check and measurement named `LABEL: name`.

A lab job's cost is mostly starting torchrun and importing torch in it and in every rank
(about 12 CPU-s at 2 ranks), a check's own work a few seconds at most, so the lab tests run a
lab's shipped program, its solution and its cheats in one job instead of one job each.

The job runs a harness as the lab's checker. For each program in turn, the harness sets the
environment `tutor lab check` sets (the program, the shipped program, the lab's `check:`
parameters) and calls the lab checker's own `main()`, the function `tutor lab check` runs, so
the check is the learner's, line for line. Two things differ, both in the rank context that
`lab.init()` hands out meanwhile: every check and measurement is labelled, and `finish()` (the
end of the job: leave the process group) waits for the last program. After each program the
harness forgets its modules and collects garbage, and puts back what a checker patched in
`tutor.labs.rank.training` (the OOM checkers wrap `Trainer`), so the next program's check,
which counts the tensors its process holds, starts from a clean process.

Programs that must fail the run itself (a hang, a crash, a `wrong` outcome) end the job, so at
most one per job, last: `check_several(..., outcome="hang")` runs the others first and asserts the
job ended that way, after every earlier program reported its checks. A cheat whose daemon thread
outlives its check goes last too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tests.labs import cheats
from tests.labs.results import assert_no_leftovers, failed_checks
from tutor.labs.catalog import LabEntry, get_lab
from tutor.labs.checks import check_lab

HARNESS = '''"""Test harness: several lab checkers' own main() on several programs in one job."""
import gc
import importlib.util
import json
import os
import sys

from tutor.labs import rank as lab
from tutor.labs.rank import checking, context, training


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Labelled:
    """The rank context, every check, measurement and report named 'LABEL: name'; finish() waits."""

    def __init__(self, ctx, label):
        self._ctx, self._label = ctx, label

    def check(self, name, *args, **kwargs):
        self._ctx.check(self._label + ": " + name, *args, **kwargs)

    def measure(self, name, *args, **kwargs):
        self._ctx.measure(self._label + ": " + name, *args, **kwargs)

    def report(self, **metrics):
        self._ctx.report(**{self._label + ": " + key: value for key, value in metrics.items()})

    def finish(self):
        pass

    def __getattr__(self, name):
        return getattr(self._ctx, name)


class SharedBaseline:
    """The perf checks' baseline (rank/baseline.py): one worker per rank for the whole job, started
    by the first perf check before it imports its program, as the check starts its own; a lab's
    check loads its shipped program into it (the worker's `load`: a worker of its own, apart from
    the check's rank, so no program can reach it), and each check builds the shipped job afresh.
    One pair of workers for the perf job's four labs, not one per lab: a worker's start (torch, its
    optimizer's torch._dynamo, a process group) is ~7 CPU-s, 6 of them saved."""

    worker = None
    shipped = None

    def __init__(self, ctx, shipped):
        if SharedBaseline.worker is None:
            SharedBaseline.worker = OwnBaseline(ctx, shipped)
        elif SharedBaseline.shipped != shipped:
            SharedBaseline.worker.call("load", shipped=shipped)
        SharedBaseline.shipped = shipped

    def call(self, op, **fields):
        return SharedBaseline.worker.call(op, **fields)

    def close(self):
        pass


entries = json.loads(ENTRIES)
patched = {cls: dict(vars(cls)) for cls in (training.Trainer, training.Corpus)}
checkers = {}
for entry in entries:  # imported before lab.init(): a checker's slow imports (torch._dynamo, say) must
    if entry["checker"] not in checkers:  # not keep this rank from a collective another rank waits in
        checkers[entry["checker"]] = load(entry["checker"], "lab_checker_%d" % len(checkers))
ctx = lab.init()
if any(entry["perf"] for entry in entries):
    from tutor.labs.rank import baseline

    OwnBaseline, baseline.Baseline = baseline.Baseline, SharedBaseline
for entry in entries:
    os.environ[checking.PROGRAM_ENV] = entry["program"]
    os.environ[checking.SHIPPED_ENV] = entry["shipped"]
    os.environ[checking.PARAMS_ENV] = json.dumps(entry["params"])
    context._context = Labelled(ctx, entry["label"])
    try:
        checkers[entry["checker"]].main()
    finally:
        context._context = ctx
    for cls, attributes in patched.items():
        for key, value in attributes.items():
            if key in ("__init__", "step") and vars(cls).get(key) is not value:
                setattr(cls, key, value)
    for name in ("lab_program", "lab_shipped"):
        sys.modules.pop(name, None)
    gc.collect()
if SharedBaseline.worker is not None:
    SharedBaseline.worker.close()
ctx.finish()
'''


SHARED_TIMEOUT_S = {"perf": 180.0, "other": 60.0}


@dataclass(frozen=True)
class Program:
    """One program of a job: `label` names its checks; `lab` is whose checker runs on it."""

    label: str
    lab: str
    path: Path


def shipped(lab: str) -> Program:
    return Program("shipped", lab, get_lab(lab).program)


def solution(lab: str) -> Program:
    return Program("solution", lab, get_lab(lab).solution)


OUTCOMES = ("ok", "hang", "crash", "wrong")
"""How a shared job may be expected to end (the run's evidence `outcome`)."""


def check_several(folder: Path, programs: list[Program], world_size: int = 2, outcome: str = "ok",
                  timeout_s: float | None = None) -> dict:
    """One job of `world_size` ranks running each program's lab check in turn, in this order.

    `outcome`: how the job must end. "ok" (the default): every program ran its check to the end.
    "hang", "crash" or "wrong": the last program must end the job so (a shipped program that
    hangs, say), and every program before it must have reported its checks. `timeout_s`: the
    no-progress limit; by default, for an `ok` job, at least SHARED_TIMEOUT_S (no job should hang,
    so only a loaded machine's quiet stretch must fit), otherwise the labs' own, which is what
    a learner's hang waits for.
    """
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    assert len({program.label for program in programs}) == len(programs), "labels must differ"
    entries = []
    for program in programs:
        entry = get_lab(program.lab)
        assert entry.checker is not None, f"{program.lab} has no checker"
        entries.append({"label": program.label, "checker": str(entry.checker), "program": str(program.path),
                        "shipped": str(entry.program), "params": entry.lab.check, "perf": entry.lab.kind == "perf"})
    folder.mkdir(parents=True, exist_ok=True)
    harness = folder / "harness.py"
    harness.write_text(HARNESS.replace("json.loads(ENTRIES)", f"json.loads({json.dumps(entries)!r})"))
    carrier = get_lab(programs[0].lab)
    with_harness = LabEntry(carrier.name, carrier.folder, carrier.lab.model_copy(update={"checker": str(harness)}))
    # The no-progress limit: no job here should hang, so it only has to outlast the longest quiet
    # stretch on a loaded machine (rank 1 summarising the straggler cheat's trace of 30,000 ops per
    # step, while rank 0 waits in a gather, went past the lab's own 60 s with 15 processes on 2 cores).
    kinds = {get_lab(program.lab).lab.kind for program in programs}
    own = [get_lab(program.lab).lab.timeout_s for program in programs]
    if timeout_s is None:
        timeout_s = max([SHARED_TIMEOUT_S["perf" if "perf" in kinds else "other"], *own]) if outcome == "ok" else max(own)
    result = check_lab(with_harness, program=carrier.program, world_size=world_size, timeout_s=timeout_s,
                       run_root=folder / "runs")
    assert result["evidence"]["outcome"] == outcome, (outcome, result["evidence"]["summary"])
    if outcome != "ok":
        silent = [program.label for program in programs[:-1] if not of(result, program.label)[0]]
        assert not silent, f"ended {outcome} before these programs reported a check: {silent}"
    assert_no_leftovers(result)
    return result


def of(result: dict, label: str) -> tuple[list[str], dict[str, str]]:
    """(names of every check of `label`, {name: detail} of those that failed), names unlabelled."""
    prefix = f"{label}: "
    names = [check["name"][len(prefix):] for check in result["checks"] if check["name"].startswith(prefix)]
    failed = {name[len(prefix):]: detail for name, detail in failed_checks(result).items() if name.startswith(prefix)}
    return names, failed


def checks_of(result: dict, label: str) -> dict[str, dict]:
    """{unlabelled name: check} of `label`'s checks."""
    prefix = f"{label}: "
    return {check["name"][len(prefix):]: check for check in result["checks"] if check["name"].startswith(prefix)}


# ------------------------------------------------------------------ the lab tests' shared jobs

PARALLEL_LABS = ("dp-overlap", "fsdp-zero3", "no-sync-accumulation", "pp-1f1b", "ring-attention", "tp-mlp",
                 "zero1-memory")
"""The parallelism labs of test_labs_both_ways.py: shipped, solution and cheats in two 2-rank jobs
(PARALLEL_JOBS), and every solution again at 4 ranks, all ten (these and MORE_PARALLEL_LABS) in one
4-rank job."""
MORE_PARALLEL_LABS = ("moe-expert-parallel", "pp-interleaved", "sequence-parallel")
"""The parallelism labs of test_parallel_labs.py: shipped, solution and cheats in the 2-rank
`parallel` job with the others (a job of their own each cost a torchrun and every rank's torch
import, ~8 CPU-s, three times)."""
PERF_LABS = ("exposed-comm", "launch-bound", "slow-dataloader", "straggler")
"""The low-utilization labs of test_perf_labs.py: shipped, solution and cheats in one 2-rank job,
PERF_JOB, a lab after another (one job each cost a torchrun and every rank's torch import three
times more; under xdist the perf tests run on one worker anyway, tests/conftest.py)."""
PERF_JOB = "perf-labs"
PERF_JOB_ORDER = ("slow-dataloader", "launch-bound", "straggler", "exposed-comm")
"""exposed-comm last: its cheat whose busy thread outlives its check must end the job."""
HANG_LABS = ("checkpoint-rank0", "collective-order", "crashed-rank", "diverging-control-flow", "long-batch",
             "pp-sendrecv", "uneven-batches")
"""The hang labs of test_hang_labs.py: every solution and the cheats caught in an `ok` run in one job
(a shipped program hangs or crashes its run, so each has a job of its own)."""
HANG_JOB = "hang-labs"
PARALLEL_JOBS = {"parallel-memory": ("tp-mlp", "zero1-memory"),
                 "parallel": ("dp-overlap", "fsdp-zero3", "no-sync-accumulation", "pp-1f1b", "ring-attention",
                              *MORE_PARALLEL_LABS)}
"""The parallelism labs' 2-rank jobs. tp-mlp's and zero1-memory's checks count every tensor their
process holds, so their shipped programs and solutions go first in a job of their own, their cheats
(whose leftovers only add to what those fail on) after them; the others' checks measure what
their own step allocates."""
FOUR_RANKS = "four-ranks"
FOUR_RANKS_ORDER = ("tp-mlp", "zero1-memory", "dp-overlap", "fsdp-zero3", "no-sync-accumulation", "pp-1f1b",
                    "ring-attention", *MORE_PARALLEL_LABS)
"""tp-mlp's and zero1-memory's checks count every tensor their process holds, so they go first: a
program's modules and garbage go after its check, but not every last tensor other labs' checks leave."""


def catchers(cheat: cheats.Cheat) -> tuple[str, ...]:
    return cheat.must_fail if isinstance(cheat.must_fail, tuple) else (cheat.must_fail,)


def shares_a_job(cheat: cheats.Cheat) -> bool:
    """A cheat whose check fails inside a run that ends `ok`, at 2 ranks, can share its lab's job."""
    return cheat.world_size == 2 and "runs to completion" not in catchers(cheat)


def cheat_program(folder: Path, name: str) -> Program:
    cheat = cheats.CHEATS[name]
    if isinstance(cheat.change, dict):
        path = cheats.make(folder, cheat.lab, "", base=cheat.base, replace=cheat.change, name=f"{name}.py")
    else:
        path = cheats.make(folder, cheat.lab, cheat.change, base=cheat.base, name=f"{name}.py")
    return Program(name, cheat.lab, path)


def job_of(cheat_name: str) -> str | None:
    """The shared job a cheat runs in (its lab's), or None where it needs a job of its own."""
    cheat = cheats.CHEATS[cheat_name]
    if not shares_a_job(cheat):
        return None
    return HANG_JOB if cheat.lab in HANG_LABS else job_of_lab(cheat.lab)


def job_of_lab(lab: str) -> str:
    """The shared job of a parallelism or perf lab's shipped program and solution."""
    if lab in PERF_LABS:
        return PERF_JOB
    return next((job for job, labs in PARALLEL_JOBS.items() if lab in labs), lab)


def label(lab: str, kind: str) -> str:
    """The label of a lab's shipped program or solution in its shared job."""
    return f"{lab}/{kind}"


def xdist_group(job: str) -> str:
    """One worker runs every test that reads a job (the perf labs' one after another: tests/conftest.py)."""
    return "perf-labs" if job == PERF_JOB else f"lab-job-{job}"


assert sorted(FOUR_RANKS_ORDER) == sorted(PARALLEL_LABS + MORE_PARALLEL_LABS) and sorted(PERF_JOB_ORDER) == sorted(PERF_LABS)
assert sorted(sum(PARALLEL_JOBS.values(), ())) == sorted(PARALLEL_LABS + MORE_PARALLEL_LABS)


class Jobs:
    """Each shared job run once per test process, on first use; a job that failed fails every reader."""

    def __init__(self, root: Path):
        self.root = root
        self.done: dict[str, dict | BaseException] = {}

    def get(self, job: str) -> dict:
        if job not in self.done:
            try:
                self.done[job] = self._run(job)
            except Exception as error:  # every test of the job reports it, none reruns it
                self.done[job] = error
        result = self.done[job]
        if isinstance(result, BaseException):
            raise AssertionError(f"the shared job {job!r} failed: {result}") from result
        return result

    def _run(self, job: str) -> dict:
        folder = self.root / job
        if job == FOUR_RANKS:
            return check_several(folder, [Program(lab, lab, get_lab(lab).solution) for lab in FOUR_RANKS_ORDER],
                                 world_size=4)
        names = sorted(name for name in cheats.CHEATS if job_of(name) == job)
        names.sort(key=lambda name: cheats.CHEATS[name].last)  # stable: the others keep their order
        if job == HANG_JOB:
            programs = [Program(lab, lab, get_lab(lab).solution) for lab in HANG_LABS]
            return check_several(folder, programs + [cheat_program(folder, name) for name in names])
        labs = PERF_JOB_ORDER if job == PERF_JOB else PARALLEL_JOBS.get(job, (job,))
        assert set(labs) <= set(PARALLEL_LABS) | set(MORE_PARALLEL_LABS) | set(PERF_LABS), job
        programs = []
        for lab in labs:
            programs += [Program(label(lab, "shipped"), lab, get_lab(lab).program),
                         Program(label(lab, "solution"), lab, get_lab(lab).solution)]
            if job != "parallel-memory":  # each lab's cheats after its own programs
                programs += [cheat_program(folder, name) for name in names if cheats.CHEATS[name].lab == lab]
        if job == "parallel-memory":
            programs += [cheat_program(folder, name) for name in names]
        return check_several(folder, programs)
