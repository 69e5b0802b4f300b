"""Time to the first step with 4 ranks: the tutor's runner vs a bare `torchrun` (DESIGN §8).

Both jobs join a gloo process group on loopback and make one all-reduce of 1024 floats; the
clock runs from just before the launcher starts to the moment rank 0's first all-reduce has
returned. The tutor's run adds its launcher wrapper, the rank entry point (parent-death
signal, event file, recorder, dump thread), torchrun's tee of each rank's output, and its
own watcher. Trials alternate between the two, in the same run. Target: ratio ≤ 1.3.

    python benchmarks/bench_lab_startup.py [--trials 3] [--ranks 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tutor.labs.runner import LabRun, RunSpec

PROGRAMS = Path(__file__).resolve().parent / "programs"
TARGET = 1.3


def bare(ranks: int) -> float:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore:Failed to initialize NumPy"}
    started = time.time()
    result = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
                             str(ranks), str(PROGRAMS / "first_step_bare.py")],
                            capture_output=True, text=True, env=env, timeout=300)
    line = next(line for line in result.stdout.splitlines() if line.startswith("FIRST_STEP_DONE"))
    return float(line.split()[1]) - started


def tutor(ranks: int, root: Path) -> float:
    run = LabRun(RunSpec(lab="bench", program=PROGRAMS / "first_step_lab.py", world_size=ranks, run_root=root))
    started = time.time()
    evidence = run.run()
    if evidence["outcome"] != "ok":
        raise SystemExit(f"the tutor's run ended {evidence['outcome']}: {evidence['summary']['message']}")
    return evidence["metrics"]["first_step_done"] - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--ranks", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("TUTOR_HOME", home)
        bare(args.ranks)  # warm the page cache for both
        times = {"bare torchrun": [], "tutor runner": []}
        for _ in range(args.trials):
            times["bare torchrun"].append(bare(args.ranks))
            times["tutor runner"].append(tutor(args.ranks, Path(home) / "runs"))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:<14} first step after {medians[name]:.2f} s (median of {', '.join(f'{v:.2f}' for v in values)})")
    ratio = medians["tutor runner"] / medians["bare torchrun"]
    print(f"ratio {ratio:.2f} (target ≤ {TARGET}) -> {'PASS' if ratio <= TARGET else 'FAIL'}")


if __name__ == "__main__":
    main()
