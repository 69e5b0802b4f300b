"""One prepared run that verifies the GPU side of the perf labs on a machine with a CUDA GPU.

Not run in CI (no GPU there). On one GPU it checks, with NCCL at world size 1:
- each GPU-only lab both ways: the reference solution passes its check, the shipped program
  fails it (`kernel-fusion`, `fp8-matmul`, `cuda-graphs`);
- each CPU perf lab's program runs on the GPU and its trace is summarised from the device
  timeline (`tutor lab run NAME --backend nccl --world-size 1`);
- each parallelism lab of issue 19 (`fsdp-zero3`, `no-sync-accumulation`, `ring-attention`, `moe-expert-parallel`, `sequence-parallel`, `pp-interleaved`) on NCCL, one
  rank per GPU: both ways with 2 or more GPUs, the solution alone with one (one replica
  cannot drift, so the shipped no-sync program passes there). Unverified: written without a
  GPU (issue 19's session had none).
It prints one JSON object (per lab: passed, the checks' details, metrics) and exits 1 if
anything is off.

    python benchmarks/verify_gpu_perf_labs.py [--labs kernel-fusion,fp8-matmul]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from dataclasses import replace
from pathlib import Path

from tutor.labs.run_options import RunOptions, run_spec
from tutor.labs.catalog import get_lab
from tutor.labs.checks import check_lab
from tutor.labs.runner import LabRun

GPU_LABS = ("kernel-fusion", "fp8-matmul", "cuda-graphs")
CPU_LABS = ("slow-dataloader", "exposed-comm", "launch-bound", "straggler")
PARALLEL_LABS = ("fsdp-zero3", "no-sync-accumulation", "ring-attention", "moe-expert-parallel", "sequence-parallel",
                 "pp-interleaved")


def parallel_on_nccl(name: str, root: Path) -> dict:
    """A parallelism lab on NCCL, one rank per GPU: both ways with ≥ 2 GPUs, else the solution."""
    from tutor.labs.launch import visible_gpus

    entry, ranks = get_lab(name), max(1, min(visible_gpus(), 4))
    solution = check_lab(entry, solution=True, backend="nccl", world_size=ranks, run_root=root / "solution")
    result = {"world_size": ranks, "solution": [(c["name"], c["passed"], c["detail"]) for c in solution["checks"]]}
    ok = solution["passed"]
    if ranks >= 2:
        shipped = check_lab(entry, program=entry.program, backend="nccl", world_size=ranks, run_root=root / "shipped")
        result["shipped"] = [(c["name"], c["passed"], c["detail"]) for c in shipped["checks"]]
        ok = ok and not shipped["passed"] and shipped["evidence"]["outcome"] == "ok"
    return {"ok": ok, **result}


def both_ways(name: str, root: Path) -> dict:
    entry = get_lab(name)
    solution = check_lab(entry, solution=True, backend="nccl", world_size=1, run_root=root / "solution")
    shipped = check_lab(entry, program=entry.program, backend="nccl", world_size=1, run_root=root / "shipped")
    return {"ok": solution["passed"] and not shipped["passed"] and shipped["evidence"]["outcome"] == "ok",
            "solution": [(c["name"], c["passed"], c["detail"]) for c in solution["checks"]],
            "shipped": [(c["name"], c["passed"], c["detail"]) for c in shipped["checks"]],
            "metrics": solution["evidence"]["metrics"]}


def runs_on_gpu(name: str, root: Path) -> dict:
    spec = run_spec(get_lab(name), RunOptions(world_size=1, backend="nccl"))
    evidence = LabRun(replace(spec, run_root=root)).run()
    summary = evidence["summary"]
    return {"ok": evidence["outcome"] == "ok" and bool(summary.get("category")),
            "summary": summary.get("message"), "mfu": evidence["metrics"].get("mfu"),
            "mfu_published": evidence["metrics"].get("mfu_published")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labs", default=",".join(GPU_LABS + CPU_LABS + PARALLEL_LABS))
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("TUTOR_HOME", home)
        for name in (item.strip() for item in args.labs.split(",") if item.strip()):
            check = both_ways if name in GPU_LABS else parallel_on_nccl if name in PARALLEL_LABS else runs_on_gpu
            try:
                results[name] = check(name, Path(home) / name)
            except Exception as error:  # report every lab, whatever one of them does
                results[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    print(json.dumps(results, indent=1, default=str))
    raise SystemExit(0 if all(result["ok"] for result in results.values()) else 1)


if __name__ == "__main__":
    main()
