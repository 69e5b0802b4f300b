"""Two processes starting at once on an empty data folder: how many fail (issue 15's done-when: 0 in 50).

Each try makes a fresh data folder and starts two fresh interpreters. Each imports the store,
then waits for the same "go" file, so that both open the database (create the file, switch it
to WAL, create the schema) within the same millisecond or so, and then write one attempt, as a
`tutor check` does. A try fails when either process raises, or when the database does not hold
both attempts afterwards. The baseline is the same two processes started one after the other in
the same run (they must never fail: a failure there is the harness's, not the race's).

    python benchmarks/bench_first_start.py [--tries 50]

To see that it finds the race, run it against a tutor without the fix (the schema created
without re-reading its version under the write lock, the WAL switch not retried), e.g. the
store of commit 0aa97ff^ on PYTHONPATH: most tries fail there.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import os, sys, time
from pathlib import Path
from tutor.store import Attempt, Store, record_attempt

path, go, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
print("ready", flush=True)
while not go.exists():
    time.sleep(0.0005)
try:
    with Store(path) as store:
        record_attempt(store, Attempt("first-start", name, True, 1.0))
except Exception as error:
    print(f"{type(error).__name__}: {error}", flush=True)
    sys.exit(1)
"""


def one_try(folder: Path, at_once: bool) -> str | None:
    """None if both processes started and wrote; else what went wrong."""
    path, go = folder / "tutor.sqlite3", folder / "go"
    if not at_once:
        go.touch()
    children = []
    for name in ("a", "b"):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(go), name], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
        if not at_once:
            child.wait(60)
        children.append(child)
    for child in children:
        if at_once:
            assert child.stdout is not None
            child.stdout.readline()  # "ready": imported, waiting
    go.touch()
    problems = []
    for child in children:
        out, _ = child.communicate(timeout=60)
        if child.returncode != 0:
            said = out.strip().splitlines()[-1] if out.strip() else f"exit {child.returncode}"
            problems.append(said.replace(str(folder), "DATA"))  # alike failures are counted together
    if not problems:
        with sqlite3.connect(path) as connection:
            written = connection.execute("SELECT COUNT(*) FROM attempts").fetchone()[0]
        if written != 2:
            problems.append(f"{written} of 2 attempts in the database")
    return "; ".join(problems) or None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        results = {"one after the other": [], "at once": []}
        started = time.perf_counter()
        for index in range(args.tries):  # interleaved: load on the machine hits both alike
            for label, at_once in (("one after the other", False), ("at once", True)):
                folder = Path(root) / f"{index}-{at_once}"
                folder.mkdir()
                results[label].append(one_try(folder, at_once))
        elapsed = time.perf_counter() - started
    for label, outcomes in results.items():
        failures = [outcome for outcome in outcomes if outcome]
        print(f"{label:>20}: {len(failures)} of {len(outcomes)} tries failed")
        for failure in sorted(set(failures))[:5]:
            print(f"{'':>22}{failures.count(failure)}× {failure}")
    print(f"{2 * args.tries} tries in {elapsed:.0f} s (python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version},"
          f" {os.cpu_count()} CPUs)")
    sys.exit(1 if any(outcome for outcomes in results.values() for outcome in outcomes) else 0)


if __name__ == "__main__":
    main()
