"""Median time to grade one answer, after warm-up, per kind (DESIGN §8, issue 4).

Targets: numbers < 5 ms, formulas < 50 ms, lab diagnoses < 5 ms (and every answer bounded by
2 s, which the fuzz tests assert). Baselines measured in the same run, reported as ratios:
- numbers: one `tutor.sizing.engine.evaluate()` of the expected value — the floor under any grading;
- formulas: SymPy's unbounded `simplify(yours − expected)` on the same expressions, which is
  what the bounded probe-then-`cancel` check replaces;
- diagnoses: one reading of the same answer into clauses (`tutor.grading.claims.clauses.read`, cache
  cleared) — the floor under any claim grading; a diagnosis reads the answer once and its
  clauses once per rank group. Each diagnosis is timed cold (the reading cache cleared).
Answers are graded through `tutor.grading.dispatch.grade`, the path `tutor check` and the app use.

    python benchmarks/bench_grading.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the labelled set's recorded lab evidence

from tutor.content.loader import load_content
from tutor.grading.dispatch import grade
from tutor.paths import content_root

NUMBERS = ["39.4 GB", "≈39 GB", "36.67 GiB", "3.9375e10 bytes", "52.5 GB", "70 GB", "约 39 GB 每卡", "banana"]
FORMULAS = ["6Ψ + 12Ψ/N", "Ψ(6 + 12/N)", "(6N + 12)Ψ/N", "6*Psi + 12*Psi/n", "16Ψ", "6Ψ + 12/N",
            "12Ψ + 24Ψ/N", "6Ψ + 12Ψ/N + 1e-12"]
LAYOUTS = ["TP=4 PP=4 CP=2 DP=2", "TP=8 PP=2 DP=4", "TP=8 PP=8", "TP=16 PP=4"]
OPEN = ["py-spy dump on every rank; rank 0 calls all_gather inside if rank == 0 in save_checkpoint",
        "每次同一步，多半是代码或数据；用 py-spy 和 flight recorder 找缺席的 rank"]
CHOICES = ["a, b, e", "c", "A B"]
DIAGNOSES = [
    ("checkpoint-rank0", "Rank 0 is stuck in an all_gather inside data_positions, called from save_checkpoint under "
                         "`if ctx.rank == 0:`; ranks 1-3 went on to the next step and wait in the gradient all-reduce. "
                         "Only rank 0 calls the all_gather and a collective needs every rank, so it never returns."),
    ("checkpoint-rank0", "0号卡在all_gather里（save_checkpoint 的 if ctx.rank == 0 分支下面），其余卡在backward的all_reduce里。"
                         "因为只有0号调用了这个集合通信，其他rank没有调用，所以永远不返回。"),
    ("collective-order", "r0 in broadcast, r1-3 in all_gather — opposite call order in sync_schedule. Make every rank "
                         "gather then broadcast."),
    ("slow-dataloader", "Data loading. Each step sits idle at its start before the first operation, and with synthetic "
                        "data the step drops to the compute alone. Tokenize once before training."),
    ("straggler", "rank 1 rank 2 rank 3 all_gather all_reduce straggler data loading communication compute"),
]
TARGETS_MS = {"numbers": 5.0, "formulas": 50.0, "diagnoses": 5.0}


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

    from tutor.sizing.engine import evaluate

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

    from tests.grading.labelled.cases import evidence
    from tutor.grading.claims import clauses
    from tutor.labs.diagnose import grade_lab

    labs = load_content([content_root()]).labs
    diagnoses = [(list(labs[lab].model.diagnosis), answer, evidence(lab)) for lab, answer in DIAGNOSES]
    for items, answer, found in diagnoses:
        grade_lab(items, answer, found)  # warm-up: segmenter dictionary, compiled phrases
    medians["diagnoses"] = median_ms(lambda case: grade_lab(case[0], case[1], case[2]), diagnoses,
                                     max(10, args.repeat // 4), clauses.read.cache_clear)
    reading = median_ms(lambda case: clauses.read(case[1]), diagnoses, max(10, args.repeat // 4), clauses.read.cache_clear)

    print(f"{'kind':<14}{'median ms':>11}   target")
    for name, value in medians.items():
        target = TARGETS_MS.get(name)
        verdict = "" if target is None else f"< {target:g} ms  {'ok' if value < target else 'MISSED'}"
        print(f"{name:<14}{value:>11.3f}   {verdict}")
    print(f"\nbaseline evaluate() of the expected value: {floor:.4f} ms; numbers/baseline = {medians['numbers'] / floor:.0f}x")
    print(f"baseline SymPy simplify(yours − expected): {simplify:.2f} ms; formulas/baseline = "
          f"{medians['formulas'] / simplify:.2f}x")
    print(f"baseline one reading of the answer (clauses.read, cold): {reading:.3f} ms; diagnoses/baseline = "
          f"{medians['diagnoses'] / reading:.1f}x")


if __name__ == "__main__":
    main()
