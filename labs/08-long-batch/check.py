"""Checker for long-batch: every step runs with the right weights on a device of the same size,
and no document is dropped: the long one is still trained on, up to the model's context."""

from __future__ import annotations

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    device = fixcheck.DeviceBudget(params["device_memory_kib"])
    steps, long_doc = int(params["steps"]), int(params["long_doc"])
    result = program.main(["--steps", str(steps), "--long-doc", str(long_doc),
                           "--device-memory-kib", str(params["device_memory_kib"])])
    device.report(ctx)
    if ctx.rank != 0:
        return
    report = result["report"]
    fixcheck.all_steps(ctx, report, steps)
    cfg = result["cfg"]
    trained = {}
    for ledger in report["ledgers"]:
        for entry in ledger:
            for row, doc in enumerate(entry["ids"]):
                trained[doc] = trained.get(doc, 0) + int(entry["mask"][row].sum().item())
    expected = set(range(steps * ctx.world_size * cfg.batch))
    missing = sorted(expected - set(trained))
    ctx.check("every document is trained on", not missing,
              f"all {len(expected)} documents" if not missing else f"{len(missing)} never trained, e.g. {missing[:5]}")
    tokens = trained.get(long_doc, 0)
    ctx.check("the long document is still trained on", tokens >= cfg.max_len - 1,
              f"{tokens} of its tokens trained (the context holds {cfg.max_len - 1} targets)")


if __name__ == "__main__":
    main()
