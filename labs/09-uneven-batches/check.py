"""Checker for uneven-batches: every rank takes the same steps with the right weights, and the
epoch still covers the data: no document twice, fewer than one global batch left out."""

from __future__ import annotations

from tutor.labs import rank as lab


def main() -> None:
    params = lab.check_params()
    program = lab.load_program()
    ctx = lab.init()
    result = program.main(["--steps", str(params["steps"])])
    if ctx.rank != 0:
        return
    report, cfg = result["report"], result["cfg"]
    ids = [doc for ledger in report["ledgers"] for entry in ledger for doc in entry["ids"]]
    repeated = len(ids) - len(set(ids))
    left_out = result["documents"] - len(set(ids))
    limit = ctx.world_size * cfg.batch
    ctx.check("the epoch still covers the data", repeated == 0 and left_out < limit,
              f"{len(set(ids))} of {result['documents']} documents trained once each; {left_out} left for the next "
              f"epoch (fewer than one global batch of {limit})" if repeated == 0 and left_out < limit else
              f"{repeated} documents trained twice, {left_out} left out (at most {limit - 1} may be)")


if __name__ == "__main__":
    main()
