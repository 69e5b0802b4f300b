"""Checker for busy-rank: the run ends, every rank's weights equal one process training on
every rank's batches, every page is trained on whole, and each piece is cut where the brief
says (after the last sentence end that fits in the context; a sentence longer than the context
at the context).

The page with the table is drawn afresh on every check (which rank, which step, which of the
rank's pages), so a fix that knows where the table is fails. What each rank trained on is read
back from the ledger `finish()` gathers (the rows it really trained on, not what the program
says it did), and the expected pieces come from this file's own splitter, run on the shipped
program's pages.
"""

from __future__ import annotations

from tutor.labs import rank as lab
from tutor.labs.rank import fixcheck


def expected_pieces(doc: list[int], max_len: int, eos: int) -> list[list[int]]:
    """The reference cut: the longest run of whole sentences that fits, else the context."""
    out, start = [], 0
    while start < len(doc):
        end = min(start + max_len, len(doc))
        while start < end < len(doc) and doc[end - 1] != eos:
            end -= 1
        if end == start:
            end = start + max_len
        out.append(doc[start:end])
        start = end
    return out


def trained_rows(entry) -> list[list[int]]:
    """Each row a rank trained on, as the tokens it covers (inputs plus the last target)."""
    rows = []
    for tokens, targets, mask in zip(entry["tokens"], entry["targets"], entry["mask"]):
        n = int(mask.sum().item())
        rows.append([int(t) for t in tokens[:n].tolist()] + ([int(targets[n - 1])] if n else []))
    return rows


def run(ctx, program, shipped, params: dict) -> None:
    steps, batch = int(params["steps"]), 4
    # From step 2: at step 1 DDP's forward first syncs its rebuilt gradient buckets (a broadcast
    # from C++), so the waiting ranks would wait there, out of the recorder's sight, not in backward.
    (where_rank, where_step, which) = fixcheck.draw(ctx, list(range(ctx.world_size)), list(range(2, steps)),
                                                    list(range(batch)))
    table_doc = (where_step * ctx.world_size + where_rank) * batch + which
    result = program.main(["--steps", str(steps), "--table-doc", str(table_doc)])
    if ctx.rank != 0:
        return
    report = result["report"]
    fixcheck.all_steps(ctx, report, steps)
    pages = shipped.Pages(result["cfg"], steps * ctx.world_size * batch, table_doc)
    max_len, label = result["cfg"].max_len, f"table in page {table_doc} (rank {where_rank}, step {where_step})"
    whole, cut, first_bad = True, True, None
    for rank, ledger in enumerate(report["ledgers"]):
        for entry in ledger:
            ids = entry["ids"]
            rows = trained_rows(entry)
            docs = [pages.document(index) for index in ids]
            if [t for row in rows for t in row] != [t for doc in docs for t in doc]:
                whole = False
                first_bad = first_bad or f"rank {rank}, step {entry['step']}: the rows do not add up to its pages"
                continue
            want = [piece for doc in docs for piece in expected_pieces(doc, max_len, shipped.EOS)]
            if rows != want:
                cut = False
                first_bad = first_bad or (f"rank {rank}, step {entry['step']}: pieces of {[len(r) for r in rows]} tokens, "
                                          f"expected {[len(w) for w in want]}")
    ctx.check(f"{label}: every page is trained on whole, in order", whole, first_bad or "every token of every page")
    ctx.check(f"{label}: pieces end at the last sentence end that fits (a longer sentence at the context)",
              whole and cut, first_bad or f"every piece as expected, at most {max_len} tokens")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), lab.load_shipped(), lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
