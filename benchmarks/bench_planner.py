"""Configurations per second of the planner's search (`tutor plan`), against the compiled formula alone.

DESIGN §8 / issue 18: the engine evaluates >= 100,000 configurations per second. Here a
configuration is one (TP, PP, CP, EP, DP, v, recompute) of `tutor.sizing.planner.candidates`
for a real model, everything the search does per configuration included (the rules, the mode, the
memory check, the ranking figures of those that fit). Baseline, measured in the same run: one
compiled memory function (`chains.planner_function`) called in a tight loop, the floor under any
search in Python. Both warm (every function compiled before the clock starts), in CPU time, alternating
pass by pass; the median of the per-pass ratios.

    python benchmarks/bench_planner.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tutor.sizing.hardware import gpu
from tutor.sizing.presets import model_preset
from tutor.sizing.specs import Train
from tutor.sizing.chains import Mode, planner_function
from tutor.sizing.engine import model_values
from tutor.sizing.planner import Options, candidates

TARGET = 100_000
CASES = (  # model, GPUs, sequence, global batch, options
    ("llama3-405b", 16384, 8192, 2048, Options()),  # the default: distributed optimizer, else ZeRO-2
    ("llama3-70b", 6144, 8192, 6144, Options()),
    ("llama3-8b", 8192, 8192, 8192, Options()),
    ("gpt3-175b", 3072, 2048, 3072, Options(sharding="none", flash=False)),
    ("deepseek-v3", 2048, 4096, 15360, Options()),
)


def _prepared():
    hardware = gpu("h100")
    prepared = [(model_preset(name), Train(seq=seq, global_batch=batch), gpus, options)
                for name, gpus, seq, batch, options in CASES]
    for model, train, gpus, options in prepared:  # compile every mode once
        candidates(model, train, gpus, hardware, options=options)
    return hardware, prepared


def search_pass(hardware, prepared) -> tuple[float, int, int]:
    """(CPU seconds, configurations, layouts that fit) of one pass over all cases."""
    evaluated = fitting = 0
    started = time.process_time()
    for model, train, gpus, options in prepared:
        found, _, count = candidates(model, train, gpus, hardware, options=options)
        evaluated += count
        fitting += len(found)
    return time.process_time() - started, evaluated, fitting


def floor_setup(count: int = 20_000):
    """One compiled memory function (Llama 3 70B, the distributed optimizer) and its argument rows."""
    model = model_preset("llama3-70b")
    mode = Mode(sharding="distopt", activation_row="activation_bytes_per_layer_mlp", attention=True, heads=True,
                first_stage="first_stage_params_llama")
    outputs, names, function = planner_function(mode, ("model_state", "activations"))
    values = {**model_values(model, 8192), "seq": 8192, "micro_batch": 1, "global_batch": 6144, "gpus": 6144}
    layouts = [dict(tp=tp, pp=pp, cp=cp, dp=6144 // (tp * pp * cp), ep=1, vpp=1)
               for tp in (1, 2, 4, 8) for pp in (1, 2, 4, 8, 16) for cp in (1, 2, 4)]
    rows = [tuple({**values, **layout}[name] for name in names) for layout in layouts]
    return function, (rows * (count // len(rows) + 1))[:count]


def floor_pass(function, rows) -> float:
    """Calls per CPU second of one tight loop."""
    started = time.process_time()
    for row in rows:
        function(*row)
    return len(rows) / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    hardware, prepared = _prepared()
    function, rows = floor_setup()
    # Baseline and search alternate pass by pass, in CPU time, so that load on a shared machine hits both
    # alike; the figure to read is the median of the per-pass ratios.
    rates, floors, ratios, evaluated, fitting = [], [], [], 0, 0
    for _ in range(args.runs):
        floor = floor_pass(function, rows)
        seconds, evaluated, fitting = search_pass(hardware, prepared)
        rates.append(evaluated / seconds)
        floors.append(floor)
        ratios.append(rates[-1] / floor)
    rate = statistics.median(rates)
    print(f"planner search, {len(CASES)} cases: {evaluated:,} configurations per pass ({fitting:,} fit), "
          f"median {rate:,.0f} configurations per CPU second over {args.runs} passes (target >= {TARGET:,})")
    print(f"baseline, one compiled memory function in a tight loop: median {statistics.median(floors):,.0f} "
          "calls per CPU second")
    print(f"ratio search/baseline: median {statistics.median(ratios):.2f} of the per-pass ratios")
    print("target met" if rate >= TARGET else "TARGET MISSED")


if __name__ == "__main__":
    main()
