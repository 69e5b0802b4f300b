"""`tutor check` on a numeric step as a process, against `tutor --version` in the same run (issue 18).

Target: the check within 2.5× the version command. Both run from a fresh interpreter, interleaved
so that drift in machine load hits both alike; medians and their ratio are printed. The first check
of a run fills the content index (tutor.content.index); `--cold` removes it before every check to
measure the full load instead.

    python benchmarks/bench_check.py [--runs 15] [--cold]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUESTION, ANSWER = "min-gpus-for-model-state", "200"
TARGET = 2.5


def seconds(argv: list[str], env: dict) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of one run: CPU time (user + system, from the children's rusage) is
    what the two commands cost on a machine whose other load stretches the wall-clock unevenly."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cold", action="store_true", help="remove the content index before every check")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home}
        version = [sys.executable, "-m", "tutor", "--version"]
        check = [sys.executable, "-m", "tutor", "check", QUESTION, ANSWER, "--json"]
        seconds(check, env)  # create the database and the index once; warm the OS cache
        seconds(version, env)
        baseline, measured = [], []
        for _ in range(args.runs):
            if args.cold:
                shutil.rmtree(Path(home) / "cache", ignore_errors=True)
            baseline.append(seconds(version, env))
            measured.append(seconds(check, env))
    for label, column in (("wall-clock", 0), ("CPU", 1)):
        base = statistics.median(run[column] for run in baseline)
        ours = statistics.median(run[column] for run in measured)
        print(f"{label}: tutor --version median {base * 1000:.0f} ms, tutor check (number) median "
              f"{ours * 1000:.0f} ms{' (cold index)' if args.cold else ''} over {args.runs} runs; "
              f"ratio {ours / base:.2f} (target <= {TARGET})")


if __name__ == "__main__":
    main()
