"""`tutor plan` for 16,384 GPUs as a process, against `tutor --version` in the same run (issue 18: < 1 s).

DESIGN §8. Cases: Llama 3 405B on 16,384 H100s at 8K (`--seq 8192`, the global batch assumed) and at
128K (`--seq 131072 --global-batch 128`, Llama 3's long-context stage), text output. Each is run as
a fresh process, interleaved with the baseline `tutor --version` (the interpreter and the `tutor`
package, the floor of any command) so that load on a shared machine hits both alike; wall-clock
and CPU seconds (user + system, from the children's rusage) are medians over the runs, and the
ratios are the figures to read. Also: whether the plan process imports SymPy (`-X importtime`),
and `plan()` warm, in process.

    python benchmarks/bench_plan.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

CASES = {
    "8K": ["--model", "llama3-405b", "--gpus", "16384", "--seq", "8192"],
    "128K": ["--model", "llama3-405b", "--gpus", "16384", "--seq", "131072", "--global-batch", "128"],
}
TARGET_S = 1.0


def seconds(argv: list[str], env: dict) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=120)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports_sympy(argv: list[str], env: dict) -> bool:
    result = subprocess.run([*argv[:1], "-X", "importtime", *argv[1:]], env=env, capture_output=True, text=True,
                            check=True, timeout=120)
    return any(line.rsplit("|", 1)[-1].strip().startswith("sympy") for line in result.stderr.splitlines())


def warm_plan_ms(runs: int) -> float:
    from tutor.sizing.hardware import gpu
    from tutor.sizing.planner import plan
    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Train

    model, train, hardware = model_preset("llama3-405b"), Train(seq=8192), gpu("h100")
    plan(model, train, 16384, hardware)  # every mode compiled once
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        plan(model, train, 16384, hardware)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    version = [sys.executable, "-m", "tutor", "--version"]
    commands = {name: [sys.executable, "-m", "tutor", "plan", *argv] for name, argv in CASES.items()}
    with tempfile.TemporaryDirectory() as home:
        # Bytecode as an installed tutor has it (a checkout run with PYTHONDONTWRITEBYTECODE compiles
        # every module in every process, plan and baseline alike).
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["TUTOR_HOME"] = home
        for command in (version, *commands.values()):
            seconds(command, env)  # write bytecode, warm the OS cache
        sympy = {name: imports_sympy(command, env) for name, command in commands.items()}
        baseline: list[tuple[float, float]] = []
        measured: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                baseline.append(seconds(version, env))
                measured[name].append(seconds(command, env))
    base_wall = statistics.median(wall for wall, _ in baseline)
    base_cpu = statistics.median(cpu for _, cpu in baseline)
    print(f"`tutor --version`: median {base_wall:.3f} s wall, {base_cpu:.3f} CPU-s over {len(baseline)} runs "
          "(baseline)")
    for name, runs in measured.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        verdict = "met" if wall < TARGET_S else "MISSED"
        print(f"`tutor plan {' '.join(CASES[name])}`: median {wall:.3f} s wall ({wall / base_wall:.2f}x), "
              f"{cpu:.3f} CPU-s ({cpu / base_cpu:.2f}x) over {len(runs)} runs; imports SymPy: "
              f"{'yes' if sympy[name] else 'no'}; target < {TARGET_S:g} s {verdict}")
    print(f"plan() warm, in process (8K): median {warm_plan_ms(args.runs):.1f} ms")


if __name__ == "__main__":
    main()
