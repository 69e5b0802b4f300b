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

CK = ("Rank 0 waits in the all_gather in data_positions (train.py:42), called from save_checkpoint under `if ctx.rank == 0`; "
      "ranks 1-3 wait in the DDP all-reduce in backward. Only rank 0 calls the gather, so it never completes. ")
CK_ZH = ("rank 0 停在 data_positions 的 all_gather（train.py:42），它在 save_checkpoint 的 if ctx.rank == 0 下面；rank 1-3 "
         "停在 backward 的 DDP all-reduce 里。只有 rank 0 调用这个 gather，所以它永远完成不了。")
UB = ("Rank 0 waits in the gradient all-reduce at train.py:50 in backward; ranks 1-3 have left the loop and wait in the "
      "all_gather in trainer.finish() at train.py:52. Shard 0 holds one document more, so rank 0 has one batch more. ")
UB_ZH = ("rank 0 卡在 backward 的梯度 all_reduce（train.py:50）；rank 1-3 已经跑完循环，卡在 trainer.finish() 里的 all_gather"
         "（train.py:52）。shard 0 多一篇文档，所以 rank 0 多一个 batch。")
CR_WHERE = "Rank 0 failed first: OutOfMemoryError in the forward of step 5 (train.py:56). Ranks 1-3 were waiting in the gradient all-reduce in backward. "
CR_WHERE_ZH = "rank 0 最先失败：第5步 forward 里 OOM（train.py:56）。rank 1-3 在 backward 的梯度 all-reduce 里等它。"

# checkpoint-rank0: a fix that takes the gather out, said as what it gathers dropped, as a collective
# not needed, or as positions worked out from the step, still leaves a checkpoint without ranks 1-3
CHECKPOINT_GATHER_CALLED_NEEDLESS = [
 ('checkpoint-rank0', CK + 'Fix: drop the data_positions gather from the checkpoint and save only the step on rank 0.', W),
 ('checkpoint-rank0', CK + 'Fix: remove data_positions; the collective is not needed at all.', W),
 ('checkpoint-rank0', CK + "Honestly the gather isn't needed: on restart each rank can work out its position from the step number.", W),
 ('checkpoint-rank0', CK + 'Fix: each rank recomputes its loader position from the global step after a restart, so save just the step.', W),
 ('checkpoint-rank0', CK + 'The all_gather is unnecessary; it is like taking a register of a class you can reconstruct from the timetable.', W),
 ('checkpoint-rank0', CK_ZH + '修法：去掉 data_positions，这个 gather 根本不需要，重启时根据 step 推算每个 rank 的位置。', W),
 ('checkpoint-rank0', CK_ZH + '修:删掉data_positions,位置可以由step算出来。', W),
 ('checkpoint-rank0', CK_ZH + '修法：collective 没必要，checkpoint 只存 step，位置重启时重新算。', W),
 # near misses: the gather kept on every rank, the needless thing being something else
 ('checkpoint-rank0', CK + 'Fix: call data_positions on every rank; only rank 0 writes the file.', R),
 ('checkpoint-rank0', CK + 'Fix: move the gather out of the rank-0 branch so every rank joins; a barrier is not needed.', R),
 ('checkpoint-rank0', CK + "Fix: every rank calls data_positions; don't drop the gather, positions cannot be derived from the step.", R),
 ('checkpoint-rank0', CK_ZH + '修法：每个 rank 都调用 data_positions，只有 rank 0 写文件；不需要加 barrier。', R),
 ('checkpoint-rank0', CK_ZH + '修：所有 rank 都进 gather，rank 0 写文件，超时不用调。', R),
]

# crashed-rank: the logits put into the list by any verb, and the graph they hold never freed
CRASHED_LOGITS_STUFFED_INTO_THE_LIST = [
 ('crashed-rank', CR_WHERE + 'Only rank 0 stuffs trainer.logits into predictions each step, graph and all.', R),
 ('crashed-rank', CR_WHERE + 'Rank 0 pushes the logits onto a list for the accuracy; their autograd graph is never freed.', R),
 ('crashed-rank', CR_WHERE + 'Line 58 puts the logits into predictions on rank 0, so the activations stay alive.', R),
 ('crashed-rank', CR_WHERE + "Like a hoarder: rank 0 piles every step's logits into a list and nothing is thrown out; the graph is never released.", R),
 ('crashed-rank', CR_WHERE_ZH + '只有 rank 0 把 trainer.logits 塞进 predictions，计算图释放不掉，越攒越多。', R),
 ('crashed-rank', CR_WHERE_ZH + 'rank0每步都把logits放进predictions列表里,activation释放不了。', R),
 ('crashed-rank', CR_WHERE_ZH + '58 行在 rank 0 上把 logits 加到 predictions 里，带着计算图，一直留着。', R),
 ('crashed-rank', CR_WHERE_ZH + 'rank 0 把 logits 丢进列表，激活就一直活着；要是只存两个数，就不会 OOM。', R),
 # near misses: the list on the wrong rank, the graph freed, a spike, the cause missing
 ('crashed-rank', CR_WHERE + 'It was a one-off memory spike in the argmax at step 5; rank 0 pushes nothing anywhere.', W),
 ('crashed-rank', CR_WHERE + 'Rank 0 ran out of memory because its batch was bigger.', W),
 ('crashed-rank', CR_WHERE_ZH + '是第5步 argmax 的显存尖峰，和列表无关。', W),
 ('crashed-rank', CR_WHERE + 'Rank 0 stuffs the logits into predictions, but memory stays flat; the OOM is a spike.', W),
]

# uneven-batches: one step count for the job, worked out globally, that every rank runs
UNEVEN_ONE_GLOBAL_STEP_COUNT = [
 ('uneven-batches', UB + 'Fix: compute a global step count, documents // (world_size * batch), and every rank runs exactly that many.', R),
 ('uneven-batches', UB + 'Fix: each rank runs only the first N full batches, N worked out from the whole dataset.', R),
 ('uneven-batches', UB + 'Fix: agree on one step count for all ranks up front, like a relay where every runner does the same laps.', R),
 ('uneven-batches', UB + 'Fix: a common step count across ranks; leftover documents wait for the next epoch.', R),
 ('uneven-batches', UB_ZH + '修：按全局算步数 steps = documents // (world_size*batch)，每个 rank 只跑前 steps 个完整 batch。', R),
 ('uneven-batches', UB_ZH + '修法:全局步数统一算,所有rank都跑这么多步。', R),
 ('uneven-batches', UB_ZH + '修法：用统一的步数，每个 rank 只跑前 N 个 batch，剩下的不到一个 global batch 就不用。', R),
 ('uneven-batches', UB + 'Fix: every rank takes only the first 9 batches.', R),
 # near misses: a symptom-only fix, the wrong cause, the same number denied
 ('uneven-batches', UB + 'Fix: raise the timeout so rank 0 can finish its last step.', W),
 ('uneven-batches', UB + 'Fix: let rank 0 run its extra step alone after the others stop.', W),
 ('uneven-batches', "Rank 0 waits in the all-reduce; ranks 1-3 wait in the all_gather in finish. The gather's tensors have different sizes. Fix: a global step count for every rank.", W),
 ('uneven-batches', UB_ZH + '修：把超时调长，等 rank 0 跑完。', W),
]

PP = ("Both rank 0 and rank 1 wait in recv at train.py:109 in sync_tied_embedding, each for the other's send. Both call "
      "recv before send, so neither send is reached; it only starts at step 4 because the sync only runs once the "
      "embedding is unfrozen. ")
PP_ZH = ("rank 0 和 rank 1 都卡在 train.py:109 sync_tied_embedding 的 recv 上，等对方 send。两边都是先 recv 后 send，谁都到不了 "
         "send；从第4步开始是因为 embedding 解冻之后才调用这个同步。")

# pp-sendrecv: both ranks run the same body, so flipping its two lines makes both send first, still symmetric
PP_BOTH_SEND_FIRST = [
 ('pp-sendrecv', PP + 'Fix: swap lines 109 and 110 so the function sends its grad first and then receives.', W),
 ('pp-sendrecv', PP + 'Fix: both sides send first, then receive.', W),
 ('pp-sendrecv', PP + 'Just swap the two lines; then there is always a send in flight.', W),
 ('pp-sendrecv', PP + 'Fix: make every rank send first and receive second, like two people who both talk before listening.', W),
 ('pp-sendrecv', PP_ZH + '修法：把 109 和 110 行对调，先 send 再 recv。', W),
 ('pp-sendrecv', PP_ZH + '修:两边都先send再recv。', W),
 ('pp-sendrecv', PP_ZH + '修法：把这两行对调就好，两边都先发后收。', W),
 ('pp-sendrecv', PP_ZH + '修：都改成先 send 再 recv。', W),
 # near misses: the symmetry broken by rank, or both posted at once, or the symmetric fix refused
 ('pp-sendrecv', PP + 'Fix: rank 0 sends first and rank 1 receives first.', R),
 ('pp-sendrecv', PP + 'Fix: post both with batch_isend_irecv.', R),
 ('pp-sendrecv', PP + 'Fix: order the pair by rank; swapping the two lines would not help, both would still block.', R),
 ('pp-sendrecv', PP + 'Fix: order the pair by rank, not by swapping the two lines.', R),
 ('pp-sendrecv', PP_ZH + '修法：rank 0 先 send 后 recv，rank 1 先 recv 后 send。', R),
 ('pp-sendrecv', PP_ZH + '修法：用 batch_isend_irecv 同时发起收发，不要两边都先发。', R),
]

GS = ("The rank in torchrun's root cause died of SIGABRT inside gloo, with no Python traceback. Each rank skips the "
      "documents too short to score, so each rank scored a different number of documents and passes a tensor of a "
      "different size to all_gather. ")
GS_ZH = ("torchrun 的 root cause 那个 rank 在 gloo 里 SIGABRT 死掉，没有 Python traceback。每个 rank 跳过太短没法打分的文档，"
         "所以打分的文档数不一样，传给 all_gather 的 tensor 大小不同。")

# gather-sizes: padded and gathered, then the statistic over the whole gathered tensor, padding and all
GATHER_QUANTILE_OVER_THE_PADDING = [
 ('gather-sizes', GS + 'Fix: gather the counts, pad with zeros up to the largest count and all_gather; then run torch.quantile on the gathered tensor as before.', W),
 ('gather-sizes', GS + 'Fix: pad to the max count, all_gather, and take the median of the gathered tensor.', W),
 ('gather-sizes', GS + 'Share the counts, pad to the largest, gather, then compute the p90 over everything gathered.', W),
 ('gather-sizes', GS + 'Fix: pad every rank to the largest count and compute the quantiles directly on the gathered result, like averaging a class with empty seats counted as zeros.', W),
 ('gather-sizes', GS + 'Fix: exchange the counts, pad to the largest, gather, then the median over the padded tensor.', W),
 ('gather-sizes', GS_ZH + '修法：先交换数量，补齐到最大，all_gather 之后直接对整个 tensor 算 quantile。', W),
 ('gather-sizes', GS_ZH + '修:补齐到最大,gather,直接对gather的结果算中位数。', W),
 ('gather-sizes', GS_ZH + '修法：pad 到最大，gather 完对补齐后的 tensor 算 p90。', W),
 # near misses: the padding trimmed before the statistic, or the metric left as it was
 ('gather-sizes', GS + "Fix: all_gather the counts first, pad every rank's losses to the largest count, all_gather them, trim each part to its count, then run torch.quantile on the gathered losses.", R),
 ('gather-sizes', GS + "Fix: share the counts, pad to the max, gather, cut each rank's part back to its own count, and take the median of what is left.", R),
 ('gather-sizes', GS + 'Fix: gather the counts, pad to the largest, all_gather, then trim and run the quantile on the trimmed, gathered tensor.', R),
 ('gather-sizes', GS_ZH + '修法：先 all_gather 数量，补齐到最大，gather 之后按各自数量截取，再算中位数。', R),
 ('gather-sizes', GS + 'Fix: pad to the largest count, gather, trim; never take the median over the padded tensor.', R),
]

CO_ZH = ("rank 0 停在 sync_schedule 里学习率的 broadcast；rank 1-3 停在 token 计数的 all_gather（gather_tokens）。rank 0 的"
         "分支先 broadcast 后 gather，另一个分支反过来，所以 collective 的调用顺序不一样。")

# collective-order: the gather moved first, the lr line left where it was: the rate still from the old count
CO_RATE_LEFT_BEFORE_THE_COUNTS = [
 ('collective-order', CO + 'Fix: in rank 0\'s branch move the gather_tokens line above the broadcast, leaving the lr line where it is.', W),
 ('collective-order', CO + 'Fix: gather first, then broadcast; the lr line stays put.', W),
 ('collective-order', CO + 'Fix: swap only the gather and the broadcast, the lr computation unchanged.', W),
 ('collective-order', CO + 'Fix: reorder so every rank gathers first, and leave the lr line as it is, like moving a meeting but keeping the old agenda.', W),
 ('collective-order', CO_ZH + '修法：rank 0 也先 gather 再 broadcast，lr 那行不动。', W),
 ('collective-order', CO_ZH + '修:把gather挪到broadcast前面,学习率那行保持不变。', W),
 ('collective-order', CO_ZH + '修法：统一顺序，先 gather 再 broadcast，算学习率的那行原地不动。', W),
 ('collective-order', CO + 'Fix: move gather_tokens above dist.broadcast on rank 0 and keep the lr line untouched.', W),
 # near misses: the rate computed after the counts arrive, and the bug described in the same words
 ('collective-order', CO + 'Fix: gather on every rank first, update tokens_seen, then compute the lr on rank 0 and broadcast it.', R),
 ('collective-order', CO + 'Rank 0 also computes the lr before the new counts arrive. Fix: gather first everywhere, then compute the lr and broadcast.', R),
 ('collective-order', CO + "Fix: gather first, then broadcast; don't leave the lr line where it is, compute it after the counts.", R),
 ('collective-order', CO_ZH + '修法：所有 rank 先 gather，更新 tokens_seen 之后再算学习率，最后 broadcast。', R),
 ('collective-order', CO + 'Fix: gather first, then rank 0 computes the lr alone and broadcasts it.', R),
]


@pytest.mark.parametrize("lab,answer,right", [*FIXED_RUN_AFTER_THE_FIX, *ORDINAL_BEFORE_A_NUMBERED_RANK])
def test_round8_reader(lab: str, answer: str, right: bool) -> None:
    assert diagnose(lab, answer)["correct"] is right


@pytest.mark.parametrize("lab,answer,right", [*CHECKPOINT_GATHER_CALLED_NEEDLESS, *CRASHED_LOGITS_STUFFED_INTO_THE_LIST,
                                              *UNEVEN_ONE_GLOBAL_STEP_COUNT, *PP_BOTH_SEND_FIRST,
                                              *GATHER_QUANTILE_OVER_THE_PADDING, *CO_RATE_LEFT_BEFORE_THE_COUNTS])
def test_round8_ideas(lab: str, answer: str, right: bool) -> None:
    assert diagnose(lab, answer)["correct"] is right
