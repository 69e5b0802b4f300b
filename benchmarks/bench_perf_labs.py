"""How much margin the perf labs' fix thresholds have, idle and under load (issue 9).

For each CPU perf lab, the reference solution's check is run `--trials` times: once with the
machine otherwise idle, once while another lab's check runs beside it (as under `pytest -n 2`).
Each check measures the speedup of the solution over the shipped program in the same job
(median over alternating rounds of each round's best step). Reported: the speedups, the
lowest as a multiple of the lab's threshold (margin ≥ 1.2 wanted), the shipped program's
category from its trace, and the category's time left in the solution relative to the
shipped program (ratio ≤ the lab's `max_category_ratio`).

    python benchmarks/bench_perf_labs.py [--trials 2] [--labs slow-dataloader,straggler]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
from pathlib import Path

from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab
from tutor.labs.trace_summary import CATEGORY_TIME

LABS = ("slow-dataloader", "exposed-comm", "launch-bound", "straggler")
MARGIN = 1.2


def one_check(name: str, root: Path) -> dict:
    entry = get_lab(name)
    result = check_lab(entry, solution=True, run_root=root)
    metrics = result["evidence"]["metrics"]
    category = (metrics.get("shipped_summary") or {}).get("category")
    key = CATEGORY_TIME.get(category, (None,))[0]
    before, after = metrics.get(f"shipped_{key}"), metrics.get(f"yours_{key}")
    return {"passed": result["passed"], "speedup": metrics.get("speedup"), "category": category,
            "category_ratio": after / before if before else None}


def with_load(name: str, neighbour: str, root: Path) -> dict:
    """One check of `name` while a check of `neighbour` runs at the same time."""
    background = threading.Thread(target=check_lab, args=(get_lab(neighbour),),
                                  kwargs={"solution": True, "run_root": root / "neighbour"})
    background.start()
    try:
        return one_check(name, root / "measured")
    finally:
        background.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--labs", default=",".join(LABS))
    args = parser.parse_args()
    names = [name.strip() for name in args.labs.split(",") if name.strip()]
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("TUTOR_HOME", home)
        for index, name in enumerate(names):
            entry = get_lab(name)
            threshold = float(entry.lab.check["min_speedup"])
            neighbour = names[(index + 1) % len(names)] if len(names) > 1 else name
            results = {"idle": [], "loaded": []}
            for trial in range(args.trials):
                results["idle"].append(one_check(name, Path(home) / f"{name}-idle-{trial}"))
                results["loaded"].append(with_load(name, neighbour, Path(home) / f"{name}-loaded-{trial}"))
            print(f"{name} (threshold {threshold:g}×, category ratio ≤ {entry.lab.check['max_category_ratio']:g}):")
            for condition, rows in results.items():
                speedups = [row["speedup"] for row in rows if row["speedup"]]
                ratios = [f"{row['category_ratio']:.2f}" for row in rows if row["category_ratio"] is not None]
                lowest = min(speedups) if speedups else 0.0
                print(f"  {condition:<7} speedups {', '.join(f'{s:.2f}×' for s in speedups)} "
                      f"(median {statistics.median(speedups) if speedups else 0:.2f}×), lowest = "
                      f"{lowest / threshold:.2f} × threshold -> {'PASS' if lowest >= MARGIN * threshold else 'LOW'}; "
                      f"shipped category {', '.join(sorted({str(row['category']) for row in rows}))}; "
                      f"category time left {', '.join(ratios)}; checks passed {sum(r['passed'] for r in rows)}/"
                      f"{len(rows)}")


if __name__ == "__main__":
    main()
