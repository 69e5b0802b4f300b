"""How often the graders agree with a labelled set of answers, per kind, on both parts of it.

The labelled set (`tests/grading/labelled/`) holds answers written from the prompts as
candidates type them: strong answers in several wordings and both languages, honest partial
ones, buzzword lists, negated answers, fluent but wrong ones, answers to another question and
the question pasted back (free text); right spellings, declared and typical mistakes, letters
and layouts as people write them (closed kinds). A quarter is held out (fixed by a hash of each
case's text, `Case.split`) and was never used to write or tune a rubric or parser. A third
part, `blind` (`blind_*.yaml`), was written by someone who never saw the rubrics and never
graded it: its counts are printed, but its misses are listed only with `--part blind` given
explicitly, and its score calibration only then, so that nobody tunes on it by accident.

Prints, per kind and part: false accepts (wrong answers graded right), false rejects (right
answers graded wrong), agreement; then the score calibration of free-text tiers; then the
median grading time per answer (the baseline is `str.casefold` on the same texts, for scale).
Targets (issue 14): free text FA <= 3% and FR <= 8% per kind on both parts (`mock`, the mock
interview's own open steps, has tuning and held-out parts from free_text_mock.yaml and
free_text_mock2.yaml, and blind ones in blind_3.yaml and blind_5.yaml; each blind batch is also
counted apart); closed kinds
>= 98% agreement; grading < 5 ms median per answer.

    python benchmarks/bench_grading_labelled.py [--kind open] [--show-misses] [--part blind]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.grading.labelled.cases import CLOSED_KINDS, FREE_KINDS, all_cases, blind_cases, evidence  # noqa: E402

PARTS = ("tuning", "held-out", "blind")


def listed(split: str, part: str | None) -> bool:
    """Whether `--show-misses` lists a miss of this part: every part's when no --part is given,
    except the blind part's, which only an explicit `--part blind` lists."""
    if part is None:
        return split != "blind"
    return split == part


def grade_case(case) -> tuple[bool, float]:
    from tutor.content import load
    from tutor.grading.dispatch import grade

    content = load()
    if case.kind == "diagnosis":
        from tutor.labs.diagnose import grade_lab

        lab = content.labs[case.target[4:]].model
        verdict = grade_lab(list(lab.diagnosis), case.text, evidence(case.target[4:]), case.lang)
        return verdict["correct"], verdict["score"]
    if case.kind == "mock":  # as the mock grades a stage: the scenario at its step, seed 0
        from tests.grading.labelled.cases import interview_step, interview_verdict
        from tutor.interview.formats import FORMATS

        scenario, _ = interview_step(case.target)
        text = case.text
        spoken_s = FORMATS[scenario.format].spoken_s if scenario.format in FORMATS else None
        if spoken_s is not None:  # the pitch: graded up to where its speaking time ends, as the session does
            from tutor.interview.spoken import measure

            text = measure(text, spoken_s).kept
        verdict = interview_verdict(case.target, text, case.seed)
        return verdict.correct, verdict.score
    qid, step = case.target[2:].split("/")
    verdict = grade(content.questions[qid].model, case.text, step, case.seed)
    return verdict.correct, verdict.score


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", help="only this kind")
    parser.add_argument("--show-misses", action="store_true", help="print every case graded against its label")
    parser.add_argument("--part", choices=list(PARTS), help="only list misses (and, for blind, the tier scores) of "
                                                             "this part; blind misses are listed only with --part blind")
    parser.add_argument("--batch", type=int, help="free text: only the answers of this batch (its place in "
                                                  "tests/grading/labelled/cases.py BATCHES, from 1: free_text.yaml)")
    args = parser.parse_args()
    cases = [case for case in all_cases() if args.kind in (None, case.kind)
             and (args.batch is None or case.kind not in FREE_KINDS or case.batch == args.batch)]
    if args.batch is None:  # the blind part is no numbered batch
        cases += [case for case in blind_cases() if args.kind in (None, case.kind)]
    for case in cases[:20]:
        grade_case(case)  # warm-up: content, SymPy, segmenter dictionaries
    rows: dict[tuple[str, str], list] = defaultdict(list)
    tiers: dict[tuple[str, str], list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    misses = []
    graded: list[tuple] = []
    for case in cases:
        started = time.perf_counter()
        correct, score = grade_case(case)
        times[case.kind].append((time.perf_counter() - started) * 1000)
        rows[(case.kind, case.split)].append((case.right, correct))
        graded.append((case, correct))
        if case.kind in FREE_KINDS and (case.split == "blind") == (args.part == "blind"):
            tiers[(case.kind, case.tier)].append(score)
        if correct != case.right:
            misses.append((case, correct, score))
    print(f"{len(cases)} cases ({sum(c.split == 'held-out' for c in cases)} held out, "
          f"{sum(c.split == 'blind' for c in cases)} blind)\n")
    print(f"{'kind':10} {'part':9} {'n':>4} {'right':>5} {'false accept':>14} {'false reject':>14} {'agree':>7}")
    for kind in (*FREE_KINDS, *CLOSED_KINDS):
        for part in PARTS:
            pairs = rows.get((kind, part))
            if not pairs:
                continue
            wrong = [graded for label, graded in pairs if not label]
            right = [graded for label, graded in pairs if label]
            fa, fr = sum(wrong), sum(not graded for graded in right)
            agree = 1 - (fa + fr) / len(pairs)
            print(f"{kind:10} {part:9} {len(pairs):4} {len(right):5} {fa:4} {fa / max(len(wrong), 1):7.1%}   "
                  f"{fr:4} {fr / max(len(right), 1):7.1%}   {agree:6.1%}")
    batches = sorted({case.source for case in cases if case.split == "blind"})
    if len(batches) > 1:
        print("\nblind, each batch apart (counts only):")
        for source in batches:
            for kind in FREE_KINDS:
                pairs = [(case.right, correct) for case, correct in graded
                         if case.source == source and case.kind == kind]
                if pairs:
                    wrong = [got for label, got in pairs if not label]
                    right = [got for label, got in pairs if label]
                    fa, fr = sum(wrong), sum(not got for got in right)
                    print(f"  {source:13} {kind:10} {len(pairs):4} FA {fa:3} {fa / max(len(wrong), 1):6.1%}"
                          f"   FR {fr:3} {fr / max(len(right), 1):6.1%}")
    print(f"\nscore by tier (free text{', blind part only' if args.part == 'blind' else ', blind part left out'}): n, mean, max")
    for (kind, tier), scores in sorted(tiers.items()):
        print(f"  {kind:10} {tier:9} {len(scores):4} {statistics.mean(scores):5.2f} {max(scores):5.2f}"
              f"  min {min(scores):.2f}")
    texts = [case.text for case in cases]
    started = time.perf_counter()
    for text in texts:
        text.casefold()
    baseline = (time.perf_counter() - started) * 1000 / len(texts)
    print(f"\nmedian ms per answer (baseline casefold {baseline:.4f} ms):")
    for kind, values in times.items():
        print(f"  {kind:10} median {statistics.median(values):6.2f}  p90 {sorted(values)[int(len(values) * .9)]:6.2f}")
    if args.show_misses:
        print("\nmisses:")
        for case, correct, score in misses:
            if listed(case.split, args.part):
                print(f"  [{case.split}] {case.kind} {case.target} s{case.seed} {case.tier} label={'right' if case.right else 'wrong'}"
                      f" graded={'right' if correct else 'wrong'} {score:.2f}: {case.text[:110]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
