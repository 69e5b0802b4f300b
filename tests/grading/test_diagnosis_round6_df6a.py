"""Lab diagnoses written by hand, round 6 (s35 df6a, 2026-12-03; none from the labelled benchmark):
the ranks and site parts of the hang, crash and failure labs said the ways engineers write them, each
pattern on several labs, en and zh, beside its near misses (the wrong rank in the same pattern, the
groups swapped, every rank named, the fix that only hides the bug). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

# why and fix said right, so a case turns on its ranks part
CK_WHY = ' Only rank 0 calls data_positions because it sits under `if ctx.rank == 0`, so the other ranks never join the gather. Fix: call data_positions on every rank, write the file on rank 0 only.'
DV_WHY = ' The reduce delivers the NaN flag only to dst=0, so only rank 0 decides to stop. Fix: all_reduce the flag with MAX so every rank stops together.'
CR_WHY = ' Rank 0 appends the logits, which keep the graph of every step alive, so its memory grows until the OOM at step 5. Fix: keep running counts of correct and total tokens from detached logits instead of the logits.'
LB_WHY = " Document 70 has 600 tokens and falls in rank 1's batch, and make_batch pads the whole batch to it. Fix: cut every document to max_len (or split it into windows)."
CO_WHY = " Rank 0's branch does the broadcast before the gather, the other branch the gather first, so the collectives are called in a different order. Fix: the same order on every rank: all_gather first, then broadcast."
PP_WHY = " Both ranks call recv before send in sync_tied_embedding, so each waits for the other's send; it only starts at step 4 because the sync is gated on unfreeze_at. Fix: rank 0 sends first and rank 1 receives first, or batch_isend_irecv."
GO_WHY = " The process-group names are given in the order each rank calls new_group, and rank 1's MetricsWriter creates the metrics group before the gradient group. Fix: create the groups in one order on every rank, grads then metrics, and pass the metrics group to the writer."
SL_WHY = " save_in_background holds the cache lock while the next epoch's workers are forked, and a forked worker inherits the lock held, with no thread to release it. Fix: hold the lock only to copy the cache and write the copy without it."
BR_WHY = " The page's table is one sentence longer than the context, so pieces() finds no sentence end in the window, end falls back to start and start never moves: an endless loop. Fix: when no sentence end is found, cut at start + max_len."
TI_WHY = ' Metrics.add issues that all_reduce only if this rank cut tokens, so the collectives on the metrics group are off by one. Fix: sum locally, one all_reduce of loss/tokens/cut on every rank at each log.'

# the others as a clause's subject; a later "the other one" is a collective, not a count
THE_OTHER_ONE = [
 ('checkpoint-rank0', 'Rank 0 waits in the all_gather in data_positions. The others got stuck in the DDP all-reduce in backward: two collectives, each waiting for ranks that are in the other one.' + CK_WHY, R),
 ('checkpoint-rank0', 'Rank 0 waits in the all_gather in data_positions; the other two got stuck in the DDP all-reduce in backward, each waiting for ranks that are in the other one.' + CK_WHY, W),
 ('collective-order', 'Rank 0 sits in the broadcast in sync_schedule. The others wait in the all_gather in gather_tokens, each group waiting for ranks that are in the other one.' + CO_WHY, R),
 ('checkpoint-rank0', '0号卡在 data_positions 的 all_gather 里，其他三个 rank 在 backward 的 all-reduce 里等，两个 collective 各等另一个里的 rank。 只有 rank 0 调用 data_positions，因为它在 if ctx.rank == 0 里面，其他 rank 不会进这个 gather。修复：所有 rank 都调用 data_positions，只有 rank 0 写文件。', R),
]

# the fix first, then "Here's why." or a story told in the past
FIX_THEN_STORY = [
 ('diverging-control-flow', "Fix: in should_stop use dist.all_reduce(bad, op=MAX) instead of dist.reduce(bad, dst=0). Here's why. Only rank 0 gets the flag, breaks, and waits in trainer.finish()'s all_gather (line 62). The other three call backward and wait in the DDP all-reduce for rank 0's gradients.", R),
 ('diverging-control-flow', "Fix: in should_stop use dist.all_reduce(bad, op=MAX) instead of dist.reduce(bad, dst=0). Here's why. Rank 0 waits in the DDP all-reduce in backward. The other three broke out and wait in trainer.finish()'s all_gather.", W),
 ('eval-rank0', 'Fix: call evaluate on every rank. Here is why. Rank 0 runs evaluate and waits in its all_reduce at train.py:53; ranks 1-3 go on to the next step and wait in the gradient all-reduce in backward. evaluate holds a collective but only rank 0 calls it.', R),
 ('group-order', "Fix: create the groups in one order on every rank, grads then metrics, and pass the metrics group to the writer. The groups were created in different orders: rank 1's MetricsWriter made the metrics group first. When they all called the gradient all-reduce in average_gradients, ranks 0/2/3 used pg 1 and rank 1 used pg 2.", R),
 ('group-order', "Fix: create the groups in one order on every rank, grads then metrics, and pass the metrics group to the writer. The groups were created in different orders: rank 1's MetricsWriter made the metrics group first. When they all called the gradient all-reduce in average_gradients, ranks 1/2/3 used pg 1 and rank 0 used pg 2.", W),
 ('pp-sendrecv', "Fix: rank 0 sends first, rank 1 receives first. Both ranks waited in recv at train.py:109 in sync_tied_embedding, each for the other's send; it only began at step 4, when the sync is no longer gated by unfreeze_at.", R),
 ('group-order', 'Fix: raise the process-group timeout. The groups were created in different orders. When they all called the gradient all-reduce in average_gradients, ranks 0/2/3 used pg 1 and rank 1 used pg 2.', W),
]

# a short clause that ends on its rank's verb ("only rank 0 appends") is no bare subject
OWN_VERB = [
 ('crashed-rank', 'Rank 0 died of OutOfMemoryError in the forward of step 5, and only rank 0 appends. The other three ranks were waiting for it in the backward all-reduce.' + CR_WHY, R),
 ('crashed-rank', 'Rank 2 died of OutOfMemoryError in the forward of step 5, and only rank 2 appends. The other three ranks were waiting for it in the backward all-reduce.' + CR_WHY, W),
]

# the ranks waited in a call, then failed with "Connection closed by peer"
WAITED_THEN_FAILED = [
 ('long-batch', "Rank 1 ran out of memory in forward at step 4. Ranks 0, 2, 3 were waiting in backward for rank 1's gradients, then failed with Connection closed by peer." + LB_WHY, R),
 ('crashed-rank', 'Rank 0 hit the OOM first. Ranks 1-3 were waiting in the gradient all-reduce in backward, then failed with Connection closed by peer.' + CR_WHY, R),
 ('long-batch', 'Rank 1 ran out of memory in forward at step 4. Ranks 0, 2, 3 were waiting in the forward for data, then failed with Connection closed by peer.' + LB_WHY, W),
 ('crashed-rank', 'rank 0 在 step 5 的 forward 里 OOM 了。rank 1-3 一直在 backward 的梯度 all-reduce 里等它，然后报 Connection closed by peer 退出。 rank 0 把带着计算图的 logits 存进 predictions，每一步的激活都留着，显存一直涨到 OOM。修复：每步只记正确数和总 token 数（用 detach 过的 logits）。', R),
]

# the error first, its rank after ("That's rank 1 at step 4", "这是 rank 0 的报错")
THAT_IS_RANK = [
 ('long-batch', "torchrun's first failure: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 0.58 MiB. That's rank 1 at step 4. Ranks 0, 2, 3 were in the gradient all-reduce in backward." + LB_WHY, R),
 ('long-batch', "torchrun's first failure: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 0.58 MiB. That's rank 2 at step 4. Ranks 0, 1, 3 were in the gradient all-reduce in backward." + LB_WHY, W),
 ('crashed-rank', '第一个失败：torch.OutOfMemoryError：CUDA out of memory。这是 rank 0 的报错。其他三个 rank 在 backward 的 all-reduce 里等它。 rank 0 把带着计算图的 logits 存进 predictions，每一步的激活都留着，显存一直涨到 OOM。修复：每步只记正确数和总 token 数（用 detach 过的 logits）。', R),
]

# the calls first, their ranks after ("all_gather on rank 0 and all_reduce on ranks 1, 2, 3")
CALLS_THEN_RANKS = [
 ('collective-order', 'Flight recorder entry 10 is gloo:broadcast [1] on rank 0 and gloo:all_gather [1] on ranks 1, 2, 3.' + CO_WHY, R),
 ('collective-order', 'Flight recorder entry 10 is gloo:broadcast [1] on ranks 1, 2, 3 and gloo:all_gather [1] on rank 0.' + CO_WHY, W),
 ('checkpoint-rank0', 'The last collectives: all_gather at train.py:42 on rank 0, all_reduce at train.py:65 on ranks 1-3.' + CK_WHY, R),
 ('checkpoint-rank0', 'The last collectives: all_gather at train.py:42 on ranks 0-3 and all_reduce at train.py:65 on ranks 1-3.' + CK_WHY, W),
 ('uneven-batches', 'The stacks: all_reduce at train.py:50 on rank 0 and all_gather at train.py:52 on ranks 1, 2 and 3. Rank 0 has one more batch than the others, so it runs one more step while they finished the loop. Fix: give every rank the same number of batches (drop the tail or pad).', R),
 ('uneven-batches', 'The stacks: all_reduce at train.py:50 on rank 0 and all_reduce at train.py:50 on ranks 1, 2 and 3. Rank 0 has one more batch than the others, so it runs one more step. Fix: give every rank the same number of batches (drop the tail or pad).', W),
 ('checkpoint-rank0', '最后的集合通信：all_gather 在 rank 0 上（train.py:42），all_reduce 在 rank 1、2、3 上（train.py:65）。 只有 rank 0 调用 data_positions，因为它在 if ctx.rank == 0 里面，其他 rank 不会进这个 gather。修复：所有 rank 都调用 data_positions，只有 rank 0 写文件。', R),
 ('checkpoint-rank0', '最后的集合通信：all_reduce 在 rank 0 上（train.py:65），all_gather 在 rank 1、2、3 上（train.py:42）。 只有 rank 0 调用 data_positions，因为它在 if ctx.rank == 0 里面，其他 rank 不会进这个 gather。修复：所有 rank 都调用 data_positions，只有 rank 0 写文件。', W),
 ('busy-rank', 'py-spy, read across: all_reduce at train.py:93 on rank 0 and pieces in make_batch on rank 1.' + BR_WHY, R),
 ('busy-rank', 'py-spy, read across: all_reduce at train.py:93 on rank 1 and pieces in make_batch on rank 0.' + BR_WHY, W),
]

# calls that went through before the hang, and "… and then recv at train.py:109"
HISTORY_AND_THEN = [
 ('pp-sendrecv', 'rank 0 -> recv(src=1) at train.py:109; rank 1 -> recv(src=0) at train.py:109 (last ops before the hang: rank 1 send / rank 0 recv at lines 100/97).' + PP_WHY, R),
 ('pp-sendrecv', 'rank 0 -> send(dst=1) at train.py:110; rank 1 -> recv(src=0) at train.py:109 (last ops before the hang: rank 1 send / rank 0 recv at lines 100/97).' + PP_WHY, W),
 ('pp-sendrecv', "rank 0's last ops are recv at train.py:97 (gradients, done) and then recv at train.py:109, waiting; rank 1's are send at train.py:100 (done) and then recv at train.py:109, waiting." + PP_WHY, R),
 ('pp-sendrecv', "rank 0's last ops are recv at train.py:97 (done) and then send at train.py:110, waiting; rank 1's are send at train.py:100 (done) and then recv at train.py:109, waiting." + PP_WHY, W),
 ('pp-sendrecv', 'rank 0 先 send 完成了，然后 recv 在 train.py:109 等；rank 1 也是 recv 在 train.py:109 等。 两边在 sync_tied_embedding 里都是先 recv 后 send，都在等对方发；只有 step 4 解冻之后才调用这个同步。修复：rank 0 先发后收，rank 1 先收后发。', R),
 ('pp-sendrecv', 'Both ranks wait in recv at train.py:109 (rank 0 in send, not done).' + PP_WHY, W),
]

# every rank in one all-reduce, told apart by process group; gloo's "send timeout" names no call
PROCESS_GROUPS = [
 ('group-order', 'All four time out in the gradient all-reduce in average_gradients: ranks 0/2/3 used pg 1 and rank 1 used pg 2.' + GO_WHY, R),
 ('group-order', 'All four time out in the gradient all-reduce in average_gradients: rank 0 used pg 2 and ranks 1/2/3 used pg 1.' + GO_WHY, W),
 ('group-order', 'flight recorder：rank0、rank2、rank3 的 all_reduce 在 pg "1" 上，rank1 的在 pg "2" 上，都在 train.py:70 average_gradients。 原因：process group 的名字按每个 rank 调用 new_group 的顺序分配，rank 1 的 MetricsWriter 先建了 metrics group。修复：所有 rank 按同一顺序先建 grads 再建 metrics，把 metrics group 传给 writer。', R),
 ('group-order', 'flight recorder：rank0、rank1、rank3 的 all_reduce 在 pg "1" 上，rank2 的在 pg "2" 上，都在 train.py:70 average_gradients。 原因：process group 的名字按每个 rank 调用 new_group 的顺序分配，rank 1 的 MetricsWriter 先建了 metrics group。修复：所有 rank 按同一顺序先建 grads 再建 metrics，把 metrics group 传给 writer。', W),
 ('group-order', 'Rank 0\'s error "Timed out waiting 6000ms for recv operation to complete" at train.py:70 in average_gradients is on every rank (rank 2\'s is a send timeout). Seq 1 all_reduce, group grads: pg "1" on ranks 0, 2 and 3, pg "2" on rank 1.' + GO_WHY, R),
 ('group-order', 'All four time out in the all_reduce in average_gradients. pg 1: ranks 0, 2, 3. pg 2: rank 1.' + GO_WHY, R),
]

# a stack frame's CamelCase class (_MultiProcessingDataLoaderIter) names the DataLoader
CAMEL_FRAME = [
 ('stalled-loader', 'Rank 1: MainThread in _MultiProcessingDataLoaderIter._next_data at train.py:127, its workers in TokenCache.encode. Rank 0 waits in the DDP all-reduce in backward.' + SL_WHY, R),
 ('stalled-loader', 'Rank 0: MainThread in _MultiProcessingDataLoaderIter._next_data at train.py:127. Rank 1 waits in the DDP all-reduce in backward.' + SL_WHY, W),
]

# timeout-at-item: the real hang put apart from the error at .item()
REAL_HANG = [
 ('timeout-at-item', '- error: timeout at .item() in Metrics.log at step 3\n- real hang: the metrics group; rank 1 issued an extra all_reduce from Metrics.add because it cut a document at step 1' + TI_WHY, R),
 ('timeout-at-item', '报错在 .item()，但真正卡住的是 metrics group：rank 1 在 Metrics.add 里因为截断了文档多发了一个 all_reduce。其他 rank 没有发，metrics 组上的集合通信错位了。修复：add 只做本地累加，每次 log 时所有 rank 都对 [loss, tokens, cut] 做一次 all_reduce。', R),
 ('timeout-at-item', '- error: timeout at .item() in Metrics.log at step 3\n- real hang: the .item() itself, it is slow; rank 1 issued an extra all_reduce from Metrics.add because it cut a document' + TI_WHY, W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), THE_OTHER_ONE + FIX_THEN_STORY + OWN_VERB + WAITED_THEN_FAILED + THAT_IS_RANK + CALLS_THEN_RANKS + HISTORY_AND_THEN + PROCESS_GROUPS + CAMEL_FRAME + REAL_HANG)
def test_round6_ranks_and_sites(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
