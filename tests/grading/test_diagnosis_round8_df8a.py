"""Lab diagnoses written by hand, round 8 (s36 df8a, 2026-12-04; none from the labelled benchmark): each
idea the grader failed to read, said the ways other candidates would say it (terse, spoken, an analogy, a
counterfactual, en and zh, zh with and without spaces around Latin words), beside near misses that must
still fail (negated, the wrong rank, the wrong cause, a symptom-only fix). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

CR = ("Rank 0 failed first: OutOfMemoryError in the forward of step 5 (train.py:56). Ranks 1-3 were waiting in the "
      "gradient all-reduce in backward. Rank 0 appends every step's logits to predictions for the accuracy, so its "
      "memory grows each step until the OOM. ")
CR_ZH = ("rank 0 最先失败：第5步 forward 里 OOM（train.py:56）。rank 1-3 在 backward 的梯度 all-reduce 里等它。"
         "rank 0 为了算准确率把每一步的 logits 存进 predictions，显存每步都在涨，直到 OOM。")
CO = ("Rank 0 waits in dist.broadcast of the learning rate in sync_schedule; ranks 1-3 wait in the all_gather of "
      "token counts (gather_tokens). Rank 0's branch broadcasts before it gathers, the other branch the other way "
      "round, so the collectives are called in a different order. ")
CK_ZH_WHERE = "rank0 停在 save_checkpoint 里 data_positions 的 all_gather（train.py:42）；rank1-3 卡在 backward 的 DDP 梯度 all_reduce（train.py:65）。"
CK_ZH_WHY = "原因：all_gather 在 if ctx.rank == 0 里面，只有 rank 0 调用，collective 要所有 rank 都调用。"

# A fix under its label goes on until the next part's label or the story told in the past: what its
# present-tense sentences say about the fixed run ("memory per step is constant", "the same order
# everywhere") is no claim about the run that failed.
FIXED_RUN_AFTER_THE_FIX = [
 ('crashed-rank', CR + 'Fix: keep two running numbers instead of the tensors. Memory per step is constant then.', R),
 ('crashed-rank', CR + 'Fix: accumulate correct and total as Python ints.\n  correct += hits.sum().item()\nMemory stays flat and rank 0 still reports the accuracy.', R),
 ('crashed-rank', CR + 'Fix: store .item() counts, not logits. The memory is stable from step to step and nothing else changes.', R),
 ('crashed-rank', CR + "Fix: detach and reduce to two counters each step. That way memory doesn't grow; it's like keeping a tally instead of every receipt.", R),
 ('crashed-rank', CR_ZH + '修法：每步只累加 correct 和 total 两个数。这样显存是平的，准确率照样能算。', R),
 ('crashed-rank', CR_ZH + '修法:只存两个数(.item())。显存不变,rank0 还能报准确率。', R),
 ('collective-order', CO + 'Fix: gather on every rank first, then broadcast from rank 0. Same two collectives in the same order everywhere.', R),
 ('collective-order', CO + 'Fix:\n  counts = gather_tokens(ctx, tokens)\n  dist.broadcast(lr, src=0)\nNow every rank calls them in the same order, and the rate is the same on all ranks.', R),
 # near misses: said of the run, outside the fix or in the story after it, the claim still clashes
 ('crashed-rank', CR + 'Memory stays flat on rank 0. Fix: keep two numbers instead of the tensors.', W),
 ('crashed-rank', CR + 'Fix: keep two numbers instead of the tensors. Why: rank 0 memory was stable, it was a one-off spike.', W),
 ('collective-order', CO + 'Fix: gather first everywhere. Why: every rank calls the collectives in the same order, it was a timeout.', W),
 ('collective-order', "Rank 0 waits in broadcast; ranks 1-3 wait in all_gather. Every rank calls the collectives in the same order. Fix: raise the timeout. The ranks were just slow.", W),
 ('crashed-rank', CR + 'Fix: raise --device-memory-kib. Memory per step is constant then.', W),
]

# "第 6 个 rank0 是 all_gather": an ordinal before a rank that carries its own number counts something else
# (the sixth collective), it names no rank of its own; "第0个 rank" still names rank 0.
ORDINAL_BEFORE_A_NUMBERED_RANK = [
 ('checkpoint-rank0', CK_ZH_WHERE + '对一下各 rank 的 collective：第 6 个 rank0 是 all_gather，别人是 all_reduce。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', CK_ZH_WHERE + '第6个rank0是all_gather，其他rank是all_reduce，对不上。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', CK_ZH_WHERE + '第 5 个 collective 大家都一样，第 6 个 rank 0 是 gather。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', CK_ZH_WHERE + '按顺序数，第6个rank 0做的是all_gather，rank1-3做的是all_reduce。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', CK_ZH_WHERE + '第 6 个 0号 是 all_gather。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', CK_ZH_WHERE + '就像排队点名，第 6 个 rank0 喊的是 all_gather，别人喊的是 all_reduce。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', 'rank0 停在 all_gather（data_positions，train.py:42）；rank 1~3 停在 DDP 的 all_reduce。第 6 个 rank0 是 all_gather。' + CK_ZH_WHY, R),
 ('checkpoint-rank0', 'Rank 0 waits in all_gather in data_positions; ranks 1-3 wait in the DDP all_reduce. 第 6 个 rank0 是 all_gather. Only rank 0 calls it, and a collective needs every rank.', R),
 # near misses: the ordinal before a bare rank still names it, and a wrong culprit stays wrong
 ('checkpoint-rank0', '第2个 rank 停在 all_gather；其他 rank 在 all_reduce。只有它调用，collective 要所有 rank 都调用。', W),
 ('checkpoint-rank0', 'rank 1 停在 all_gather；其他 rank 在 all_reduce。第 6 个 rank1 是 all_gather。只有 rank 1 调用。', W),
 ('checkpoint-rank0', CK_ZH_WHERE + '第 6 个 rank0 是 all_gather。原因：超时太短。', W),
 ('checkpoint-rank0', CK_ZH_WHERE + '第 6 个 rank0 是 all_gather。所有 rank 也都调用了这个 gather。', W),
]


@pytest.mark.parametrize("lab,answer,right", [*FIXED_RUN_AFTER_THE_FIX, *ORDINAL_BEFORE_A_NUMBERED_RANK])
def test_round8_reader(lab: str, answer: str, right: bool) -> None:
    assert diagnose(lab, answer)["correct"] is right
