"""Configurations evaluated per second by the sizing engine's compiled fast path.

DESIGN §8: the engine evaluates >= 100,000 configurations per second. A configuration is one
layout of the planner's search (model, batch, TP/PP/CP/DP/v, recompute) evaluated for model
state, first-stage activations, micro-batches, bubble and traffic — the same compiled function
`tutor plan` calls. Baseline, measured in the same run: the same composite expressions
evaluated with SymPy `subs` + `evalf` per configuration (what "compile once" avoids). Also
reported: scalar `evaluate()` calls per second and full `size()` reports (with steps) per second,
and, as processes in the same run, `tutor check` on a numeric step against `tutor --version`
(issue 18: at most 2.5x, since numbers are evaluated by generated code without importing SymPy).

    python benchmarks/bench_sizing.py [--configs 200000] [--baseline 200] [--process-runs 9]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time

from tutor.sizing.engine import evaluate
from tutor.sizing.report import size
from tutor.sizing.specs import Model, Parallel, Train
from tutor.sizing.chains import Mode, planner_derivation, planner_function
from tutor.sizing.symbolic import composites
from tutor.sizing.symbols import S

MODE = Mode(sharding="distopt", activation_row="activation_bytes_per_layer", heads=True, attention=True,
            first_stage="first_stage_params_llama")
TARGET = 100_000
CHECK_RATIO = 2.5


def process_seconds(argv: list[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=120)
    return time.perf_counter() - started


def check_against_version(runs: int) -> tuple[float, float]:
    """Median seconds of `tutor --version` and of `tutor check` on a numeric step, interleaved."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home}
        version = [sys.executable, "-m", "tutor", "--version"]
        check = [sys.executable, "-m", "tutor", "check", "distopt-bytes-per-gpu", "39 GB"]
        process_seconds(check, env)  # create the database once; warm the OS cache
        base, measured = [], []
        for _ in range(runs):
            base.append(process_seconds(version, env))
            measured.append(process_seconds(check, env))
    return statistics.median(base), statistics.median(measured)


def configurations(count: int) -> list[dict]:
    """`count` distinct-enough layouts: every combination of a few values, repeated as needed."""
    grid = itertools.product([7e9, 70e9, 405e9, 1e12], [1, 2, 4, 8], [2, 4, 8, 16], [1, 2], [4, 16, 64, 128],
                             [2, 4], [2048, 4096, 8192])
    rows = []
    for psi, tp, pp, cp, dp, vpp, seq in itertools.cycle(grid):
        rows.append(dict(params=psi, layers=128, hidden=16384, heads=128, kv_heads=8, ffn=53248, vocab=128000,
                         seq=seq, micro_batch=1, global_batch=16384, tp=tp, pp=pp, cp=cp, dp=dp, vpp=vpp))
        if len(rows) == count:
            return rows


def per_second(function, items) -> float:
    started = time.perf_counter()
    for item in items:
        function(item)
    return len(items) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", type=int, default=200_000)
    parser.add_argument("--baseline", type=int, default=200)
    parser.add_argument("--process-runs", type=int, default=9)
    args = parser.parse_args()

    outputs, names, compiled = planner_function(MODE)
    rows = configurations(args.configs)
    argument_rows = [tuple(row[name] for name in names) for row in rows]
    fast = per_second(lambda arguments: compiled(*arguments), argument_rows)

    substituted = composites(planner_derivation(MODE)[0])
    exprs = [substituted[output] for output in outputs]
    symbols = [S[name] for name in names]

    def with_subs(row: dict) -> list[float]:
        values = {symbol: row[symbol.name] for symbol in symbols}
        return [float(expr.subs(values).evalf()) for expr in exprs]

    slow = per_second(with_subs, rows[: args.baseline])
    for row in rows[:50]:  # the two paths agree
        fast_values = compiled(*(row[name] for name in names))
        assert all(abs(a - b) <= 1e-9 * max(1.0, abs(b)) for a, b in zip(fast_values, with_subs(row)))

    scalar = per_second(lambda row: evaluate("distopt_bytes_per_gpu", params=row["params"], tp=row["tp"],
                                             pp=row["pp"], dp=row["dp"], cp=row["cp"]), rows[:50_000])
    model, train = Model(params=70e9, layers=80, hidden=8192, heads=64, kv_heads=8), Train(seq=8192, global_batch=512)
    layouts = [Parallel(gpus=64, tp=tp, pp=pp, cp=cp, sharding="distopt") for tp, pp, cp in
               itertools.product([1, 2, 4, 8], [1, 2, 4], [1, 2])] * 20
    reports = per_second(lambda layout: size(model, train, layout), layouts)

    print(f"compiled fast path ({len(outputs)} outputs each): {fast:>12,.0f} configurations/s "
          f"over {args.configs:,} (target >= {TARGET:,})")
    print(f"baseline, SymPy subs+evalf per config:   {slow:>12,.0f} configurations/s over {args.baseline}")
    print(f"ratio fast/baseline: {fast / slow:,.0f}x")
    print(f"scalar evaluate() with input checks:     {scalar:>12,.0f} calls/s")
    print(f"full size() reports with derivation:     {reports:>12,.0f} reports/s")
    print("target met" if fast >= TARGET else "TARGET MISSED")
    if args.process_runs:
        version, check = check_against_version(args.process_runs)
        ratio = check / version
        print(f"tutor --version: median {version * 1000:.0f} ms; tutor check (numeric step): median "
              f"{check * 1000:.0f} ms over {args.process_runs} runs; ratio {ratio:.2f} (target <= {CHECK_RATIO})")
        print("check target met" if ratio <= CHECK_RATIO else "CHECK TARGET MISSED")


if __name__ == "__main__":
    main()
