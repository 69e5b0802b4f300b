"""Evaluation on every rank: each document's loss, gathered so rank 0 can report the median.

Run it alone:   torchrun --nproc-per-node 4 train.py --docs 48 --seed 3 --min-tokens 10
In the tutor:   tutor lab run gather-sizes, then tutor lab evidence gather-sizes

Each rank scores its share of the evaluation documents (every world_size-th one) with the
same model: one loss per document long enough to score (at least --min-tokens tokens; the
shorter ones are skipped). The ranks then gather every document's loss, so that rank 0 can
report the median and the 90th percentile, which a sum over the ranks cannot give.

What to observe: how the job ends, which rank torchrun names as the first failure, and the
last lines of that rank's log. Then run it again with `tutor lab run gather-sizes --debug
detail` (TORCH_DISTRIBUTED_DEBUG=DETAIL) and read what it says about each rank's call.
"""

from __future__ import annotations

import argparse

import torch
import torch.distributed as dist

from tutor.labs import rank as lab
from tutor.labs.rank import training as tt

DOCS_PER_STEP = 4


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=48)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--min-tokens", type=int, default=10)
    return parser.parse_args(argv)


def eval_corpus(cfg: tt.Config, args: argparse.Namespace) -> tt.Corpus:
    """The evaluation documents: 2 to 24 tokens long, the same on every rank."""
    return tt.Corpus(cfg, size=args.docs, seed=args.seed, length_range=(2, 25))


def my_documents(corpus: tt.Corpus, rank: int, world_size: int, min_tokens: int) -> list[int]:
    """This rank's share: every world_size-th document, those long enough to score."""
    return [i for i in range(rank, len(corpus), world_size) if corpus.length(i) >= min_tokens]


def document_losses(ctx, model: torch.nn.Module, corpus: tt.Corpus, ids: list[int]) -> torch.Tensor:
    """One mean token loss per document, in the order of `ids`."""
    losses = []
    chunks = [ids[i:i + DOCS_PER_STEP] for i in range(0, len(ids), DOCS_PER_STEP)]
    with torch.no_grad():
        for step in ctx.steps(len(chunks)):
            for doc in chunks[step]:
                batch = tt.collate(corpus, [doc])
                losses.append(tt.token_loss(model(batch.tokens), batch.targets, batch.mask))
    return torch.stack(losses) if losses else torch.zeros(0)


def gather_losses(ctx, mine: torch.Tensor) -> torch.Tensor:
    """Every rank's document losses, on every rank."""
    parts = [torch.empty_like(mine) for _ in range(ctx.world_size)]
    dist.all_gather(parts, mine)
    return torch.cat(parts)


def main(argv: list[str] | None = None) -> dict:
    args = parse(argv)
    ctx = lab.init()
    cfg = tt.Config()
    corpus = eval_corpus(cfg, args)
    model = tt.make_model(cfg).eval()
    ids = my_documents(corpus, ctx.rank, ctx.world_size, args.min_tokens)
    mine = document_losses(ctx, model, corpus, ids)
    ctx.log(f"scored {len(ids)} documents")
    losses = gather_losses(ctx, mine)
    median, p90 = torch.quantile(losses, torch.tensor([0.5, 0.9])).tolist()
    if ctx.rank == 0:
        ctx.log(f"{len(losses)} documents: median loss {median:.4f}, p90 {p90:.4f}")
    ctx.finish()
    return {"losses": losses, "median": median, "p90": p90, "scored": ids}


if __name__ == "__main__":
    main()
