"""Checker for gather-sizes: rank 0 gets every scored document's loss, from every rank, and
each rank scores only its own share.

The learner's `main` runs on two evaluation sets (`check.seeds`), each with its own count of
scorable documents per rank, so the rank with the odd count moves; the reference is computed
here, in this process, with the same seeded model over every document. The model's forward
is counted per rank (rows of tokens), so rank 0 scoring every document alone, without any
collective, is caught.
"""

from __future__ import annotations

import contextlib

import torch

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt
from tutor.labs.rank.context import compare


@contextlib.contextmanager
def counting_rows():
    """Rows of tokens the model's forward sees in this process, while the block runs."""
    seen = {"rows": 0}
    original = tt.TinyLM.forward

    def forward(self, tokens):
        seen["rows"] += int(tokens.shape[0])
        return original(self, tokens)

    tt.TinyLM.forward = forward
    try:
        yield seen
    finally:
        tt.TinyLM.forward = original


@contextlib.contextmanager
def process_group_kept():
    """The program's `ctx.finish()` would end the process group; the checker ends it itself."""
    real = lab.init()
    real.finish = lambda: None
    try:
        yield
    finally:
        del real.finish


def reference(program, argv: list[str], world_size: int) -> tuple[torch.Tensor, list[int]]:
    """(every scorable document's loss, sorted; each rank's count), in one process."""
    args = program.parse(argv)
    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=args.docs, seed=args.seed, length_range=(2, 25))
    model = tt.make_model(cfg).eval()
    shares = [[i for i in range(r, args.docs, world_size) if corpus.length(i) >= args.min_tokens]
              for r in range(world_size)]
    with torch.no_grad():
        losses = [tt.token_loss(model(b.tokens), b.targets, b.mask)
                  for b in (tt.collate(corpus, [i]) for share in shares for i in share)]
    return torch.stack(losses).sort().values, [len(share) for share in shares]


def _numbers(values) -> str:
    return ", ".join(f"{v:.4f}" if isinstance(v, float) else repr(v) for v in values)


def run(ctx, program, shipped, params: dict) -> None:
    for seed in params["seeds"]:
        argv = ["--docs", str(params["docs"]), "--seed", str(seed), "--min-tokens", str(params["min_tokens"])]
        expected, counts = reference(program, argv, ctx.world_size)
        with process_group_kept(), counting_rows() as seen:
            result = program.main(argv)
        mine = counts[ctx.rank]
        ctx.check(f"set {seed}: each rank scores only its own documents", seen["rows"] == mine,
                  f"rank {ctx.rank} scored {seen['rows']} documents, its share is {mine}")
        if ctx.rank != 0:
            continue
        got = torch.as_tensor(result["losses"]).detach().flatten().sort().values
        same, detail = compare(got, expected) if got.shape == expected.shape else (False, "")
        ctx.check(f"set {seed}: rank 0 has every document's loss", same,
                  f"{got.numel()} losses, expected {expected.numel()} (ranks scored {counts}): {detail}"
                  if got.shape == expected.shape else
                  f"{got.numel()} losses, expected {expected.numel()} (ranks scored {counts})")
        want = torch.quantile(expected, torch.tensor([0.5, 0.9])).tolist()
        quantiles = [result.get("median"), result.get("p90")]
        close = all(isinstance(q, float) and abs(q - w) < 1e-5 for q, w in zip(quantiles, want))
        ctx.check(f"set {seed}: median and p90 are the whole set's", close,
                  f"reported {_numbers(quantiles)}, expected {_numbers(want)}")


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), None, lab.check_params())
    ctx.finish()


if __name__ == "__main__":
    main()
