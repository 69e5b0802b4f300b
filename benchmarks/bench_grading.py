"""Median time to grade one answer, after warm-up, per kind (DESIGN §8, issue 4).

Targets: numbers < 5 ms, formulas < 50 ms (and every answer bounded by 2 s, which the fuzz tests
assert). Baselines measured in the same run, reported as ratios:
- numbers: one `tutor.sizing.evaluate()` of the expected value — the floor under any grading;
- formulas: SymPy's unbounded `simplify(yours − expected)` on the same expressions, which is
  what the bounded probe-then-`cancel` check replaces.
Answers are graded through `tutor.grading.grade`, the path `tutor check` and the app use.

    python benchmarks/bench_grading.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tutor.content import load_content
from tutor.grading import grade
from tutor.paths import content_root

NUMBERS = ["39.4 GB", "≈39 GB", "36.67 GiB", "3.9375e10 bytes", "52.5 GB", "70 GB", "约 39 GB 每卡", "banana"]
FORMULAS = ["6Ψ + 12Ψ/N", "Ψ(6 + 12/N)", "(6N + 12)Ψ/N", "6*Psi + 12*Psi/n", "16Ψ", "6Ψ + 12/N",
            "12Ψ + 24Ψ/N", "6Ψ + 12Ψ/N + 1e-12"]
LAYOUTS = ["TP=4 PP=4 CP=2 DP=2", "TP=8 PP=2 DP=4", "TP=8 PP=8", "TP=16 PP=4"]
OPEN = ["py-spy dump on every rank; rank 0 calls all_gather inside if rank == 0 in save_checkpoint",
        "每次同一步，多半是代码或数据；用 py-spy 和 flight recorder 找缺席的 rank"]
CHOICES = ["a, b, e", "c", "A B"]
TARGETS_MS = {"numbers": 5.0, "formulas": 50.0}


def median_ms(function, items: list, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        for item in items:
            if before is not None:
                before()
            started = time.perf_counter()
            function(item)
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    bank = load_content([content_root()]).questions
    numeric, formula = bank["distopt-bytes-per-gpu"].model, bank["distopt-formula"].model
    config, open_step, choice = (bank["config-dense-cluster"].model, bank["hang-at-step-n"].model,
                                 bank["slow-training-evidence"].model)
    cases = {
        "numbers": (numeric, NUMBERS, args.repeat),
        "formulas": (formula, FORMULAS, max(10, args.repeat // 4)),  # SymPy cache cleared before each
        "layouts": (config, LAYOUTS, 3),
        "open answers": (open_step, OPEN, args.repeat),
        "choices": (choice, CHOICES, args.repeat),
    }
    for question, answers, _ in cases.values():  # warm-up: imports, compiled formulas, caches
        for answer in answers:
            grade(question, answer)
    from sympy.core.cache import clear_cache

    # SymPy memoises expression operations; clearing its cache before each formula answer times
    # a fresh answer, not a repeat of the same text.
    medians = {name: median_ms(lambda answer, q=question: grade(q, answer), answers, repeat,
                               clear_cache if name == "formulas" else None)
               for name, (question, answers, repeat) in cases.items()}

    from tutor.sizing import evaluate

    floor = median_ms(lambda _: evaluate("distopt_bytes_per_gpu", params=70e9, tp=4, pp=4, dp=2, cp=2),
                      [None], args.repeat * len(NUMBERS))

    import sympy

    from tutor.grading.formula_parse import parse_formula
    from tutor.grading.formula import make_resolver, to_sympy
    from tutor.sizing import registry

    step = formula.steps[0]
    expected = registry.get(step.formula).expr
    trees = [parse_formula(text, make_resolver(step)) for text in FORMULAS]
    simplify = median_ms(lambda tree: sympy.simplify(to_sympy(tree) - expected), trees, 3, clear_cache)

    print(f"{'kind':<14}{'median ms':>11}   target")
    for name, value in medians.items():
        target = TARGETS_MS.get(name)
        verdict = "" if target is None else f"< {target:g} ms  {'ok' if value < target else 'MISSED'}"
        print(f"{name:<14}{value:>11.3f}   {verdict}")
    print(f"\nbaseline evaluate() of the expected value: {floor:.4f} ms; numbers/baseline = {medians['numbers'] / floor:.0f}x")
    print(f"baseline SymPy simplify(yours − expected): {simplify:.2f} ms; formulas/baseline = "
          f"{medians['formulas'] / simplify:.2f}x")


if __name__ == "__main__":
    main()
