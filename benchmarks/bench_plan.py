"""`tutor plan` for 16,384 GPUs: every divisor layout, in under a second.

DESIGN §8. Measures (1) `plan()` in process, warm (formulas already compiled) and cold (first
call in a fresh interpreter, compiling what it needs), and (2) the whole `tutor plan` command
from a fresh interpreter, against a baseline measured in the same run: `python -c "import sympy"`
(the floor any SymPy-backed command pays). Case: Llama 3 405B, 8K sequences, 16M-token batches.

    python benchmarks/bench_plan.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ARGV = ["--model", "llama3-405b", "--gpus", "16384", "--seq", "8192", "--global-batch", "2048", "--json"]
COLD = ("import time; started = time.perf_counter()\n"
        "from tutor.sizing.specs import Train; from tutor.sizing.hardware import gpu\n"
        "from tutor.sizing.presets import model_preset; from tutor.sizing.planner import plan\n"
        "imported = time.perf_counter()\n"
        "plan(model_preset('llama3-405b'), Train(seq=8192, global_batch=2048), 16384, gpu('h100'))\n"
        "print(imported - started, time.perf_counter() - imported)")


def wall(argv: list[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env, timeout=120)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from tutor.sizing.hardware import gpu
    from tutor.sizing.planner import plan, candidates
    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Train

    model, train, hardware = model_preset("llama3-405b"), Train(seq=8192, global_batch=2048), gpu("h100")
    plan(model, train, 16384, hardware)  # compile once
    warm = []
    for _ in range(args.runs):
        started = time.perf_counter()
        result = plan(model, train, 16384, hardware)
        warm.append(time.perf_counter() - started)
    _, considered, evaluated = candidates(model, train, 16384, hardware)
    best = result["best"]

    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home}
        cold = [tuple(map(float, subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True,
                                                text=True, env=env).stdout.split())) for _ in range(args.runs)]
        baseline, command = [], []
        for _ in range(args.runs):  # interleaved, so drift in machine load hits both alike
            baseline.append(wall([sys.executable, "-c", "import sympy"], env))
            command.append(wall([sys.executable, "-m", "tutor", "plan", *ARGV], env))

    print(f"case: llama3-405b on 16,384 H100, seq 8192, global batch 2048 -> best TP{best['tp']} PP{best['pp']} "
          f"CP{best['cp']} DP{best['dp']} v{best['vpp']} ({best['recompute']} recompute)")
    print(f"divisor layouts considered {considered}, configurations evaluated {evaluated}")
    print(f"plan() warm, in process:       median {statistics.median(warm) * 1000:7.1f} ms (target < 1000)")
    print(f"plan() cold, first call:       median {statistics.median(c[1] for c in cold) * 1000:7.1f} ms "
          f"(+ {statistics.median(c[0] for c in cold) * 1000:.0f} ms importing the engine and SymPy)")
    base, ours = statistics.median(baseline), statistics.median(command)
    print(f"`python -c 'import sympy'`:    median {base * 1000:7.1f} ms (baseline)")
    print(f"`tutor plan ... --json`:       median {ours * 1000:7.1f} ms, {ours / base:.2f}x the baseline")


if __name__ == "__main__":
    main()
