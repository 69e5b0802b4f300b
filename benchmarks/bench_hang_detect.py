"""How fast is a planted hang declared? 10 runs of the hang labs as shipped (issue 8, DESIGN §8).

Each run is one of the hang labs whose shipped program hangs (cycled), at 4 ranks with gloo
and a no-progress limit of --timeout seconds. For each run it measures, from the moment the
last rank last did anything (its last collective entered or step begun, from the ranks' event
files):

- declared: until the runner declared the hang (its `hang` phase),
- evidence: until the evidence was complete (every rank's stack, collectives and
  flight-recorder dump) and every process was gone (the run's end).

Target: the hang is declared, with its evidence, within the limit + 5 s, every time.
Prints one line per run, the maximum and the verdict; exit status 1 if a run misses.

    python benchmarks/bench_hang_detect.py [--runs 10] [--timeout 5] [--world-size 4]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tutor.labs import procs
from tutor.labs.catalog import all_labs
from tutor.labs.events import read_all
from tutor.labs.runner import RUN_ID_ENV, LabRun, Phase, RunSpec

MARGIN_S = 5.0


def hang_labs() -> list:
    return [entry for entry in all_labs().values() if entry.lab.kind == "hang" and entry.lab.symptom == "hang"]


def one_run(entry, world_size: int, timeout_s: float, root: Path) -> dict:
    declared: list[float] = []
    run = LabRun(RunSpec(lab=entry.name, program=entry.program, world_size=world_size, timeout_s=timeout_s,
                         args=tuple(entry.lab.args), run_root=root),
                 on_event=lambda event: declared.append(time.time()) if isinstance(event, Phase) and
                 event.name == "hang" else None)
    evidence = run.run()
    ended = time.time()
    activity = [event["t"] for path in run.run_dir.glob("rank*.jsonl") for event in read_all(path)
                if event["ev"] in ("coll", "step")]
    began = max(activity) if activity else float("nan")
    left = procs.pids_with_env(RUN_ID_ENV, run.run_id)
    return {"lab": entry.name, "outcome": evidence["outcome"], "declared_s": (declared[0] - began) if declared else None,
            "evidence_s": ended - began, "stacks": sum(bool(rank["stack"]) for rank in evidence["ranks"]),
            "ranks": len(evidence["ranks"]), "left": len(left)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=5.0, help="no-progress limit in seconds")
    parser.add_argument("--world-size", type=int, default=4)
    args = parser.parse_args()
    labs = hang_labs()
    if not labs:
        print("no hang labs installed")
        return 1
    limit = args.timeout + MARGIN_S
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-hang-") as root:
        for index in range(args.runs):
            entry = labs[index % len(labs)]
            result = one_run(entry, args.world_size, args.timeout, Path(root) / str(index))
            results.append(result)
            declared = "-" if result["declared_s"] is None else f"{result['declared_s']:.2f} s"
            print(f"run {index + 1:2d}  {result['lab']:<24} {result['outcome']:<6} declared {declared:>8}  "
                  f"evidence {result['evidence_s']:.2f} s  stacks {result['stacks']}/{result['ranks']}  "
                  f"left running {result['left']}", flush=True)
    worst = max(result["evidence_s"] for result in results)
    declared = [result["declared_s"] for result in results if result["declared_s"] is not None]
    missed = [r for r in results if r["outcome"] != "hang" or r["evidence_s"] > limit or r["stacks"] < r["ranks"]
              or r["left"]]
    print(f"\nhang declared after {statistics.median(declared):.2f} s (median), {max(declared):.2f} s (max); "
          f"evidence complete and every process gone after {worst:.2f} s (max) — target ≤ {limit:g} s "
          f"(no-progress limit {args.timeout:g} s + {MARGIN_S:g} s)")
    print("PASS: every hang declared within the limit + 5 s, with every rank's stack, nothing left running"
          if not missed else f"FAIL: {len(missed)} of {len(results)} runs missed")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
