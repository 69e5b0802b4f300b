"""Lab diagnoses written by hand, fourth round (s33 dfr1, 2026-12-03; none from the labelled
benchmark), after the round's new contradictions: right answers that brush against them without
making them (the wrong fix named and rejected, "not X", "rather than X", "不是 X", a concession
then the correction, a hypothetical about another cluster, a harmless extra beside the right fix,
evidence first, terse shorthand, rambling speech, Chinese with English terms, bullets); and wrong
ones as guards (the wrong fix asserted, the wrong rank, a wrong cause). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

CHECKPOINT_RANK0 = [
 ('checkpoint-rank0', 'rank 0 is parked in all_gather inside data_positions (called from save_checkpoint); ranks 1-3 have gone on to the next step and wait in the DDP gradient all-reduce in backward. The gather sits under `if ctx.rank == 0`, so only rank 0 calls it. Raising the timeout would not help, it would only wait longer. Fix: call data_positions on every rank, keep torch.save on rank 0.', R),
 ('checkpoint-rank0', 'A barrier would not fix this, and neither would a longer timeout. rank 0 is blocked in the all_gather in save_checkpoint; ranks 1, 2, 3 are in backward, waiting on the gradient all-reduce. The other ranks never call the gather because it is inside the rank-0 branch. Fix: move the all_gather out of the if so every rank takes part; only the file write stays on rank 0.', R),
 ('checkpoint-rank0', "People often reach for dist.barrier() here, but the real problem is that rank 0 runs all_gather alone: it's inside `if ctx.rank == 0` in save_checkpoint. Ranks 1-3 sit in loss.backward(), DDP all-reduce. Fix: gather positions on all ranks first, then rank 0 saves.", R),
 ('checkpoint-rank0', 'evidence first: py-spy shows rank 0 in dist.all_gather (data_positions <- save_checkpoint) and ranks 1-3 in the DDP allreduce in backward. so rank 0 is the odd one. cause: the gather is called only on rank 0, the rest skip it. fix: hoist the gather above the rank check; save on rank 0 only.', R),
 ('checkpoint-rank0', 'rank 0 卡在 save_checkpoint 里的 all_gather，rank 1-3 在 backward 的梯度 all-reduce 里。不是超时太短的问题，调大 timeout 没用：all_gather 在 if ctx.rank == 0 里面，只有 rank 0 调用。修复：所有 rank 都调用 data_positions，只有 rank 0 写文件。', R),
 ('checkpoint-rank0', '0 号在 all_gather（data_positions）里等，1-3 号在 backward 的 DDP allreduce 里等。加 barrier 也解决不了，因为其他 rank 根本不调用这个 all_gather。修复：把 all_gather 移到 if 外面，每个 rank 都执行，torch.save 留在 rank 0。', R),
 ('checkpoint-rank0', '- rank 0: all_gather, save_checkpoint\n- ranks 1-3: backward, grad all-reduce\n- cause: collective inside rank-0-only branch; others never join\n- fix: all ranks call data_positions, rank 0 writes\n- (not a timeout issue)', R),
 ('checkpoint-rank0', "so, um, what I see is rank zero hanging in an all_gather, the one in data_positions that save_checkpoint calls, and the other three ranks have moved on and are stuck in backward's all-reduce. I first thought the file write was slow, but no: only rank 0 ever reaches that gather because it's under the rank check. Fix is to do the gather on every rank and keep just the save on rank 0.", R),
 ('checkpoint-rank0', 'rank 0: all_gather in save_checkpoint. ranks 1-3: gradient allreduce in backward. Root cause: rank-conditional collective; only rank 0 enters it. Fix: every rank gathers, rank 0 saves. Also worth setting a shorter timeout so the next hang fails faster.', R),
 ('checkpoint-rank0', 'rank 0 waits in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce of the next step. On a different cluster with a 30-minute NCCL timeout this would just sit longer, but the cause is the same: only rank 0 calls the all_gather. Fix: call it on all ranks, write on rank 0.', R),
 ('checkpoint-rank0', 'rank 0 在 all_gather 里 hang（save_checkpoint → data_positions），其余 rank 在 backward 的 all_reduce 里。root cause：只有 rank 0 进入这个 collective，而不是其他 rank 调用得晚。fix：all ranks call data_positions，rank 0 only 做 torch.save。', R),
 ('checkpoint-rank0', 'Ranks 1-3 are in loss.backward, DDP gradient all-reduce; rank 0 is the odd one, in all_gather under save_checkpoint. The gather is guarded by the rank check, so the other three never participate. Rather than adding a barrier, move data_positions out of the if: every rank gathers, only rank 0 saves.', R),
 ('checkpoint-rank0', 'rank 0 is stuck in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce. only rank 0 calls the gather. fix: add dist.barrier() before save_checkpoint so all ranks arrive together.', W),
 ('checkpoint-rank0', 'rank 0 is stuck in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce. only rank 0 calls it. fix: raise the timeout to an hour.', W),
 ('checkpoint-rank0', 'rank 2 is stuck in all_gather inside save_checkpoint; ranks 0, 1, 3 wait in the gradient all-reduce. only rank 2 calls the gather.', W),
]

PP_SENDRECV = [
 ('pp-sendrecv', 'ranks 0 and 1 both block in dist.recv inside sync_tied_embedding: each does recv then send, so neither ever sends. It starts at step 4 because the sync only runs once the embedding is unfrozen (step >= unfreeze_at). A longer timeout would not help. Fix: rank 0 sends first, rank 1 receives first.', R),
 ('pp-sendrecv', 'Not a slow transfer: both stages wait in recv in sync_tied_embedding, recv before send on both sides, a p2p deadlock. Only from the unfreeze step, since before that the tied grad is frozen and never exchanged. Fix: batch_isend_irecv with both ops, then wait.', R),
 ('pp-sendrecv', 'rank 0 和 rank 1 都卡在 sync_tied_embedding 的 recv。两边都是先 recv 再 send，谁都不先发，死锁。不是 1F1B 调度变了，而是解冻（unfreeze_at）之后才调用这个同步。修复：rank 0 先 send 后 recv，rank 1 先 recv 后 send。', R),
 ('pp-sendrecv', 'evidence: both stacks end in recv in sync_tied_embedding, from step 4 on. recv→send on both stages ⇒ no one reaches send. step 4 = unfreeze_at: before it the embedding is frozen, so the sync is skipped. fix: isend/irecv non-blocking + wait.', R),
 ('pp-sendrecv', "People sometimes blame the learning-rate warmup here, but the step-4 onset is the unfreeze: sync_tied_embedding only runs once the embedding trains. In it, both rank 0 and rank 1 call recv before send, so they wait on each other forever. Fix: order the pair, even rank send-then-recv, odd rank recv-then-send.", R),
 ('pp-sendrecv', '- ranks 0, 1: dist.recv, sync_tied_embedding\n- both recv first, send never reached\n- from unfreeze_at (step 4): sync gated on the unfreeze\n- fix: rank 0 send→recv, rank 1 recv→send', R),
 ('pp-sendrecv', "ok so both pipeline ranks are hung in recv, in sync_tied_embedding. they each post a blocking recv and only after that their send, so each is waiting for a message the other hasn't sent. keeping the embedding frozen forever would hide it but that's not a fix. the step-4 start is just when unfreeze_at kicks in and the sync begins. fix: rank 0 sends first.", R),
 ('pp-sendrecv', '两个 rank（0 和 1）都 block 在 recv，位置 sync_tied_embedding。recv 在 send 前面，两边都这样，所以没人发。加 barrier 没用。从 unfreeze 那一步开始才调用。fix：用 batch_isend_irecv 同时发收。', R),
 ('pp-sendrecv', 'Both ranks sit in recv in sync_tied_embedding; the send comes after the recv on both. It only starts at step 4 because the function is skipped while the embedding is frozen. Fix: replace send/recv with an all_reduce of the tied grad over the group {0, 1}, which also sums it.', R),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding; both recv before send. it starts at step 4 because of the unfreeze. fix: keep the embedding frozen for all steps.', W),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding; the gradient is large and the send is slow. fix: increase the timeout.', W),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding; recv before send on both. it starts at step 4 because the pipeline schedule switches to 1F1B there.', W),
]

CRASHED_RANK = [
 ('crashed-rank', "rank 0 died first, torch.OutOfMemoryError in forward (torchrun names it the root cause). ranks 1-3 were waiting in the gradient all-reduce and got killed after. on rank 0 every step appends logits, targets and mask to `predictions`, so the logits stay alive and memory grows step by step. empty_cache would not help, the list still holds them. fix: keep running counts of correct tokens and real tokens instead.", R),
 ('crashed-rank', 'Rank 0 is the root cause: OOM in the forward pass. Ranks 1, 2, 3 were blocked in backward on DDP allreduce, then torn down. Cause: rank 0 keeps every step’s logits in a list for token accuracy, a leak that grows until OOM. Raising device memory would only delay it. Fix: compute hits/tokens per step and keep two numbers.', R),
 ('crashed-rank', 'rank 0 先挂，forward 里 OOM；rank 1-3 在梯度 all-reduce 里等，然后被 torchrun 杀掉。rank 0 每一步都把 logits 存进 predictions 列表，显存一直涨。不是显存上限太小，调大 device memory 只是推迟。修复：每步只累计正确数和 token 数。', R),
 ('crashed-rank', '- first failure: rank 0, OutOfMemoryError, forward\n- ranks 1-3: gradient all-reduce, killed afterwards\n- why: predictions.append(logits, targets, mask) each step on rank 0 keeps the logits referenced\n- fix: accumulate correct/real token counts; no list of logits', R),
 ('crashed-rank', "Evidence first: rank 0's allocated memory climbs by about one logits tensor per step until the OOM in forward; ranks 1-3 show no growth and sit in the all-reduce. That's rank 0's predictions list holding the logits. gc.collect won't free them since they are still referenced. Fix: detach to two scalars (right predictions, real tokens) per step.", R),
 ('crashed-rank', "so the other ranks didn't crash on their own, rank 0 did, an OOM in forward, and 1 to 3 were just waiting in the gradient allreduce. the reason is rank 0 appends the logits every step for the accuracy metric and never lets go of them. you could give it more memory but it'd still run out later. keep counts instead of logits.", R),
 ('crashed-rank', 'rank 0 OOM（forward），是第一个失败的；rank 1、2、3 在 backward 的 allreduce 里等。原因：rank 0 把每步的 logits append 到 predictions，tensor 一直不释放。而不是 empty_cache 的问题。fix：只存 correct 和 token 两个计数。', R),
 ('crashed-rank', 'Root cause rank 0: OutOfMemoryError in forward; 1-3 were in the gradient all-reduce. rank 0 accumulates logits in a Python list every step (token accuracy), ~1 logits tensor/step more memory. Fix: compute the accuracy per step into counters. Extra: torch.cuda.empty_cache() afterwards is harmless but not the fix.', R),
 ('crashed-rank', 'rank 0 died first with an OOM in forward; ranks 1-3 waited in the gradient all-reduce. rank 0 keeps every logits tensor in a list. fix: call torch.cuda.empty_cache() after each step so it fits.', W),
 ('crashed-rank', 'rank 0 died first with an OOM in forward; ranks 1-3 waited in the gradient all-reduce. fix: raise --device-memory-kib to 480.', W),
 ('crashed-rank', 'rank 2 died first with an OOM; the other ranks waited in the all-reduce. its batch had a long document.', W),
]

LONG_BATCH = [
 ('long-batch', 'rank 1 hit OutOfMemoryError in forward at step 4, the first failure; ranks 0, 2, 3 wait in the gradient all-reduce. Document 70 has 600 tokens and make_batch pads the whole batch to the longest doc, so that batch is ~25x wider (600 vs ~24). Not a leak: memory is flat before step 4. Fix: truncate documents to cfg.max_len in make_batch.', R),
 ('long-batch', 'rank 1 在 step 4 的 forward 里 OOM；rank 0、2、3 在梯度 all-reduce 里等。第 70 篇文档有 600 个 token，make_batch 按最长的 pad，整个 batch 变成 600 宽。不是内存泄漏。修复：make_batch 里截断到 max_len。', R),
 ('long-batch', '- rank 1: OOM, forward, step 4\n- ranks 0/2/3: grad all-reduce\n- why: one 600-token doc in its batch, padding to longest → activations ~25×\n- fix: clamp docs to max_len (or chunk them into max_len windows)', R),
 ('long-batch', "At first I thought rank 1 was leaking, but its memory is flat until step 4 and then it dies with an OOM in forward: doc 70 (600 tokens) lands in its step-4 batch, and make_batch pads to the longest document. Ranks 0, 2 and 3 wait in the DDP all-reduce. Fix: cap length at max_len in make_batch.", R),
 ('long-batch', 'r1 OOM fwd step 4; r0/r2/r3 in allreduce. long doc (600 tok) -> batch padded to 600 instead of ~24, 25x the activations. giving the device more memory would paper over it; fix: truncate to max_len.', R),
 ('long-batch', 'rank 1 is the one that crashed, OOM in forward, step 4; the others sit in the gradient all-reduce. the batch at step 4 holds a 600-token document and everything is padded up to it. fix: split long documents into max_len chunks in make_batch; a smaller batch size would not fix one 600-token document.', R),
 ('long-batch', 'rank 1 在 step 4 OOM，forward 里；其他 rank 在 all-reduce 里等。原因是 step 4 那个 batch 里有一篇 600 token 的长文档，pad 到最长。修复：截断到 max_len，而不是调大显存。', R),
 ('long-batch', "so rank one dies at step four with an out of memory in the forward, the rest are waiting in the gradient all reduce. the thing is document seventy is six hundred tokens, and the batch gets padded to the longest, so it's like twenty-five times more activation memory that one step. truncate to max_len in make_batch and it's fine.", R),
 ('long-batch', 'rank 1 hit OOM in forward at step 4; the others wait in the all-reduce. rank 1 leaks memory every step until it runs out. fix: empty_cache each step.', W),
 ('long-batch', 'rank 1 hit OOM in forward at step 4; the others wait in the all-reduce. document 70 is 600 tokens. fix: raise --device-memory-kib.', W),
 ('long-batch', 'rank 0 hit OOM in forward at step 4; ranks 1-3 wait in the all-reduce. its batch has a long document.', W),
]

UNEVEN_BATCHES = [
 ('uneven-batches', "rank 0 is still training: its extra last step waits in the gradient all-reduce in backward. ranks 1-3 ran out of data, left the loop and wait in finish()'s gather. shard 0 has one more document, so one more batch. a longer timeout wouldn't help. fix: give every rank the same number of batches (drop the remainder, DistributedSampler drop_last=True).", R),
 ('uneven-batches', 'rank 0 多一个 batch，卡在 backward 的 all-reduce；rank 1-3 数据用完了，在 finish 的 gather 里等。shard 切得不均匀，rank 0 多一篇文档。不是 rank 0 慢。修复：每个 rank 的 batch 数一样，多出来的丢掉。', R),
 ('uneven-batches', '- rank 0: one extra step, backward all-reduce\n- ranks 1-3: out of batches, finish() gather\n- why: the documents do not divide evenly; shard 0 is one document bigger\n- fix: DDP Join context manager, or trim every shard to the same length', R),
 ('uneven-batches', "Evidence first: ranks 1, 2, 3 logged their last step and are in finish's gather; rank 0 logged one more step start and is in loss.backward, DDP all-reduce. Rank 0's shard is larger by one document, so it has one batch more. Fix: equalize the batch count across ranks, e.g. drop_last.", R),
 ('uneven-batches', "so, the ranks disagree about how many steps there are. rank 0 has an extra batch (its shard got the leftover document), so it goes into one more backward and waits in the all-reduce, while the other three already finished their loop and are waiting in the gather in finish. I'd make every rank see the same number of batches, e.g. with a DistributedSampler that drops the tail.", R),
 ('uneven-batches', 'rank 0 还在跑最后多出来的一个 step（backward 的 all_reduce 里等）；1-3 号已经跑完，在 finish 的 gather 里等。root cause：rank 0 的 shard 多一篇 doc，多一个 batch，而不是网络问题。fix：用 Join 或者让每个 rank 的 step 数一样。', R),
 ('uneven-batches', 'r0: extra step -> grad allreduce. r1-3: loader exhausted -> gather in finish. shard 0 = one doc more. fix: drop_last so all ranks get the same # of batches. (a barrier before finish would not help: rank 0 never reaches it.)', R),
 ('uneven-batches', 'Ranks 1-3 exhausted their data and wait in the gather in finish; rank 0 has one batch more and waits in the all-reduce of that extra step. Fix: make the split even by giving every rank documents // world_size and dropping the rest.', R),
 ('uneven-batches', 'rank 0 waits in the all-reduce of an extra step; ranks 1-3 wait in the gather in finish. rank 0 is slower than the others. fix: increase the timeout.', W),
 ('uneven-batches', 'rank 0 waits in the all-reduce of an extra step; ranks 1-3 wait in the gather in finish. fix: add a barrier before finish.', W),
 ('uneven-batches', 'rank 3 has one more batch and waits in the all-reduce; ranks 0-2 wait in the gather in finish.', W),
]

DIVERGING_CONTROL_FLOW = [
 ('diverging-control-flow', "rank 0 left the loop (its batch was all padding, NaN loss) and waits in the gather in finish(); ranks 1-3 are in backward, waiting on the gradient all-reduce. should_stop uses dist.reduce(bad, dst=0, op=MAX): the max lands only on rank 0, the others keep their own 0. Not a NaN problem to fix with a guard. Fix: dist.all_reduce(bad, op=MAX) so every rank gets the same decision.", R),
 ('diverging-control-flow', 'rank 0 跳出了训练循环，在 finish 的 gather 里等；rank 1-3 在 backward 的梯度 all-reduce 里。should_stop 用的是 reduce（dst=0），结果只到 rank 0，而不是所有 rank 都拿到。修复：换成 all_reduce（MAX），每个 rank 都得到同一个停止决定。', R),
 ('diverging-control-flow', '- left the loop: rank 0 (NaN loss, empty batch), now in finish() gather\n- ranks 1-3: loss.backward(), DDP all-reduce\n- why: reduce to dst=0, only rank 0 sees bad=1\n- fix: all_reduce with MAX', R),
 ('diverging-control-flow', "Evidence first: rank 0 logs 'stopping before the update' and its stack is in finish's gather; ranks 1, 2, 3 are in the gradient all-reduce. The stop flag is reduced only to rank 0, so rank 0 alone decides to stop. Fix: use all_reduce instead of reduce, so all ranks agree.", R),
 ('diverging-control-flow', "so rank zero bails out, its loss is NaN because the batch is all padding, and it goes to the gather in finish; meanwhile ranks one to three never heard about it, since should_stop does a reduce to rank 0 rather than an all-reduce, and they carry on into backward and wait in the all-reduce there. fixing the NaN alone would not fix the protocol. switch to all_reduce.", R),
 ('diverging-control-flow', 'r0: break -> finish() gather. r1-3: backward allreduce. dist.reduce(dst=0) => only r0 gets MAX; r1-3 keep local 0. fix: all_reduce(MAX). extra: skip empty batches too.', R),
 ('diverging-control-flow', '0号跳出 loop 了（它的 batch 全是 padding，loss 是 NaN），在 finish 的 gather 里等；1-3 号在 backward 的 allreduce 里等。reduce 只把结果给 rank 0，其他 rank 不知道要停。fix：用 all_reduce 代替 reduce。', R),
 ('diverging-control-flow', 'Ranks 1-3 are waiting in the gradient all-reduce in backward; rank 0 is the odd one, it broke out of the loop and sits in the gather in finish. The decision to stop is taken by rank 0 alone: should_stop reduces the flag to dst=0 only. Fix: all_reduce the flag with MAX on every rank.', R),
 ('diverging-control-flow', 'rank 0 left the loop and waits in the gather in finish; ranks 1-3 wait in the gradient all-reduce. the reduce is fine; rank 0 is just slower. fix: increase the timeout.', W),
 ('diverging-control-flow', 'rank 0 left the loop and waits in the gather in finish; ranks 1-3 wait in the gradient all-reduce. fix: replace the NaN loss with zero.', W),
 ('diverging-control-flow', 'rank 2 left the loop and waits in the gather in finish; ranks 0, 1, 3 wait in the gradient all-reduce. should_stop reduces only to rank 2.', W),
]

COLLECTIVE_ORDER = [
 ('collective-order', 'rank 0 waits in dist.broadcast of the lr in sync_schedule; ranks 1-3 wait in all_gather in gather_tokens. rank 0 broadcasts before it gathers, the others gather before the broadcast; collectives pair by order, so neither completes. Not a timeout issue. Fix: every rank gathers first, then rank 0 computes the lr and broadcasts.', R),
 ('collective-order', 'rank 0 在 sync_schedule 的 broadcast 里等，rank 1-3 在 gather_tokens 的 all_gather 里等。rank 0 先 broadcast 后 gather，其他 rank 先 gather 后 broadcast，顺序不一样，而不是数据太大。修复：所有 rank 先 gather，再 broadcast。', R),
 ('collective-order', '- rank 0: broadcast(lr), sync_schedule\n- ranks 1-3: all_gather, gather_tokens\n- why: opposite call order, collectives match by position\n- fix: same order on every rank: gather, then broadcast', R),
 ('collective-order', "Evidence first: the flight recorder shows rank 0's first op on the group is a broadcast while ranks 1-3's is an all_gather. So rank 0 is in sync_schedule's broadcast and the others in gather_tokens' all_gather. They were issued in different orders on rank 0 and on the rest. Fix: gather the counts on all ranks first, then broadcast from rank 0.", R),
 ('collective-order', "right so, rank 0 hangs in the broadcast of the learning rate and the other three hang in the all_gather of the token counts. it's the order: rank 0 does broadcast then gather, everyone else gather then broadcast, and since collectives match up by call order they just wait on each other. a barrier wouldn't help. fix it by making rank 0 gather first too.", R),
 ('collective-order', 'r0: bcast (sync_schedule). r1-3: all_gather (gather_tokens). order differs: r0 bcast->gather, rest gather->bcast. fix: all ranks gather first, then bcast.', R),
 ('collective-order', '0 号卡在 broadcast（sync_schedule），1-3 号卡在 all_gather（gather_tokens）。调用顺序反了：0 号先广播再收集，其他卡先收集再广播。fix：每个 rank 都先 all_gather，然后 rank 0 算 lr 再 broadcast。', R),
 ('collective-order', 'Ranks 1-3 sit in all_gather in gather_tokens; rank 0 sits in broadcast in sync_schedule. The two kinds of rank issue the collectives in opposite orders. Fix: let every rank gather the counts and compute the same lr itself, no broadcast at all.', R),
 ('collective-order', 'rank 0 waits in broadcast in sync_schedule; ranks 1-3 wait in all_gather in gather_tokens. the broadcast tensor is too large. fix: increase the timeout.', W),
 ('collective-order', 'rank 0 waits in broadcast in sync_schedule; ranks 1-3 wait in all_gather in gather_tokens. fix: add a barrier between the two collectives.', W),
 ('collective-order', 'rank 1 waits in broadcast in sync_schedule; ranks 0, 2, 3 wait in all_gather in gather_tokens. rank 1 broadcasts first.', W),
]

EVAL_RANK0 = [
 ('eval-rank0', "rank 0 is in dist.all_reduce(sums, group=eval_group) in evaluate, where the eval group's 6 s timeout fires; ranks 1-3 are in the next step's backward, in the gradient all-reduce. evaluate is only called under `if ctx.rank == 0` but it all-reduces over all four ranks. a longer eval timeout would not help. fix: call evaluate on every rank, log on rank 0 only.", R),
 ('eval-rank0', 'rank 0 在 evaluate 的 all_reduce（eval_group）里等，6 秒超时在那里触发；rank 1-3 在下一步 backward 的梯度 all-reduce 里。evaluate 只在 rank 0 上调用，其他 rank 不调用 evaluate。修复：所有 rank 都调用 evaluate，只在 rank 0 打印。', R),
 ('eval-rank0', '- rank 0: all_reduce in evaluate (eval group), timeout fires here\n- ranks 1-3: backward, grad all-reduce\n- why: evaluate gated on rank 0, but it needs every rank\n- fix: all ranks evaluate; only the logging on rank 0', R),
 ('eval-rank0', "Evidence first: the timeout message comes from the eval group, on rank 0, in evaluate's all_reduce; the other three are in DDP's all-reduce in backward. Ranks 1-3 skip evaluation entirely, so rank 0's all_reduce has no partners. Fix: run evaluate on all ranks and keep just the print under the rank check.", R),
 ('eval-rank0', "so rank 0 goes off to evaluate, shards the held-out set, and then does an all_reduce over the eval group, but ranks 1 to 3 never enter evaluate, they're already in the next step's backward waiting on the gradient all-reduce. rank 0's eval timeout of six seconds fires first. the fix isn't to bump the timeout, it's to have every rank call evaluate.", R),
 ('eval-rank0', 'r0: all_reduce(eval_group) in evaluate, 6s timeout. r1-3: grad allreduce, backward. evaluate runs only on r0 (if ctx.rank == 0). fix: evaluate on all ranks; log on r0.', R),
 ('eval-rank0', '0号在 evaluate 里的 all_reduce 超时了；1-3号在 backward 的 allreduce 里等。evaluate 放在 if ctx.rank == 0 里面，别的 rank 跳过了 evaluate。修法：每个 rank 都调用 evaluate，打印只在 0 号。', R),
 ('eval-rank0', 'Rank 0 is the only rank that evaluates; its all_reduce in evaluate waits for ranks 1-3, which are in the gradient all-reduce of the next step. Fix: drop the rank check around evaluate, every rank evaluates its shard, rank 0 logs.', R),
 ('eval-rank0', "rank 0 is in the all_reduce in evaluate; ranks 1-3 are in the gradient all-reduce. the eval is slow. fix: raise the eval group's timeout to 60 s.", W),
 ('eval-rank0', 'rank 0 is in the all_reduce in evaluate; ranks 1-3 are in the gradient all-reduce. fix: evaluate on rank 0 without the all_reduce, over the full held-out set.', W),
 ('eval-rank0', 'rank 1 is in the all_reduce in evaluate; ranks 0, 2, 3 are in the gradient all-reduce. only rank 1 calls evaluate.', W),
]

GATHER_SIZES = [
 ('gather-sizes', 'rank 2 died first with SIGABRT inside gloo, no Python traceback. all_gather needs the same shape from every rank, but each rank skips the short documents, so they score different numbers of docs. padding the documents would not change the counts. fix: all_gather the counts, pad each loss tensor to the max, gather, then trim.', R),
 ('gather-sizes', 'rank 2 先死，SIGABRT（gloo 里 abort，没有 traceback）。不是文档长度的问题，而是每个 rank 打分的文档篇数不一样：短文档被跳过，所以 all_gather 的 tensor 大小不同。修复：先 gather 数量，pad 到最大，再 gather，最后截掉。', R),
 ('gather-sizes', '- first death: rank 2, SIGABRT (exit -6) in gloo\n- why: short docs are skipped per rank, so all_gather gets different sizes; parts = empty_like(mine) assumes the same size from every rank\n- fix: dist.all_gather_object, called on every rank', R),
 ('gather-sizes', "Evidence first: rank 2 exits with -6, signal 6, aborted in gloo's background thread, and the others are torn down after. That is a size mismatch in all_gather: my_documents drops docs shorter than min_tokens, so each rank has a different count, while gather_losses builds every receive buffer as empty_like(mine). Fix: exchange the lengths first, pad to the largest, all_gather, trim.", R),
 ('gather-sizes', "um, so rank two is the one that dies, it's an abort, SIGABRT, from inside gloo, there's no python traceback for it. the gather fails because the ranks don't hold the same number of losses, some documents are too short and get skipped per rank, and all_gather assumes equal sizes. you'd share the counts first and pad to the max, then gather, then cut the padding off.", R),
 ('gather-sizes', 'r2 SIGABRT (gloo enforce). all_gather sizes differ across ranks (short docs skipped → different #docs). fix: gather counts, pad to max, all_gather, trim. (gather_object also works)', R),
 ('gather-sizes', 'rank 2 被 SIGABRT 杀掉（gloo 里 abort）。all_gather 要求每个 rank 的 tensor 一样大，但每个 rank 留下的文档数不一样。fix：先交换数量，补齐到最大，再 all_gather，然后去掉补的部分。', R),
 ('gather-sizes', 'Rank 2 aborted (SIGABRT) in gloo. Each document loss is one number; what differs is how many documents each rank scored, so the gathered tensors have different lengths. Fix: pad the losses to the largest count after sharing counts; trim after the gather.', R),
 ('gather-sizes', 'rank 2 died with SIGABRT in gloo. each document loss is a tensor as long as the document, so the gathered tensors differ. fix: pad every document to max_len.', W),
 ('gather-sizes', 'rank 2 died with SIGABRT in gloo; all_gather got different sizes. fix: pad every document to max_len in the collate.', W),
 ('gather-sizes', 'rank 2 ran out of memory in the gather and died; the others waited.', W),
]

TIMEOUT_AT_ITEM = [
 ('timeout-at-item', "the traceback ends at .item(), but that is not the cause: it only waits for an earlier async collective. rank 1 cut tokens at step 1, so its Metrics.add issued an extra all_reduce on the metrics group that the other ranks never issued; from then on the collectives are off by one. a longer timeout would not help. fix: keep local sums and do one all_reduce of loss, tokens and cut tokens on every rank at every log.", R),
 ('timeout-at-item', '不是 .item() 的问题，它只是在等之前发起的异步 collective。rank 1 在 step 1 截断了文档，Metrics.add 里多发了一个 all_reduce，其他 rank 没有发。修复：本地累加，每次 log 时所有 rank 做同一个 all_reduce（loss、token、cut 放在一个 tensor 里）。', R),
 ('timeout-at-item', '- .item(): red herring, it just waits for an async funcol result\n- started by: rank 1, the cut-token all_reduce in Metrics.add, issued only on rank 1\n- why: collective under a rank-local condition\n- fix: local sums + one all_reduce per log on every rank', R),
 ('timeout-at-item', "Evidence first: the flight recorder for the metrics group shows rank 1 with one more entry: a 1-element all_reduce at step 1, where the others' first entry is the 2-element stats all_reduce. So rank 1 started it, with the cut all_reduce in Metrics.add that only it issued. The .item() just reads the result. Fix: sum locally, same single all_reduce on all ranks at each log.", R),
 ('timeout-at-item', "so the error points at .item() although the hang began earlier, with rank 1's extra collective: rank 1 cut a document at step 1, so its Metrics.add kicked off an all_reduce for the cut count, and nobody else did. after that the collectives on the metrics group don't line up. fix is to accumulate locally and have everyone do the same all_reduce when logging.", R),
 ('timeout-at-item', 'not .item(). r1: cut tokens @ step 1 -> extra all_reduce in Metrics.add, only on r1. collectives off by one. fix: local sums, one all_reduce(loss, tokens, cut) on every rank per log.', R),
 ('timeout-at-item', '报错在 .item()，但不是它的错：它只是等更早的异步 all_reduce。是 rank 1 引起的：它截断了 token，Metrics.add 单独发起了一个 all_reduce，别的 rank 没发。fix：每个 rank 每次 log 都发同一个 all_reduce。', R),
 ('timeout-at-item', "The .item() is innocent; it only reads a result. Rank 1 started it: its batch at step 1 had a document cut, and Metrics.add issued the cut-tokens all_reduce alone; everyone else never did. Fix: keep local sums and let every rank issue the same collective at every log, e.g. a 3-element tensor.", R),
 ('timeout-at-item', "the hang is at .item(): it blocks because the loss is large. fix: call .item() less often.", W),
 ('timeout-at-item', "not .item(). rank 1 issued an extra all_reduce in Metrics.add. fix: raise the metrics group timeout.", W),
 ('timeout-at-item', "not .item(). rank 1 issued an extra all_reduce in Metrics.add that the others did not issue. fix: wrap the cut all_reduce in a barrier.", W),
]

EXTRA = [
 ('diverging-control-flow', "I'd concede the NaN is real (rank 0's batch is all padding), but the hang is the protocol: should_stop reduces the flag with dst=0, so only rank 0 learns it should stop; it breaks and waits in finish's gather while ranks 1-3 continue into backward and wait in the gradient all-reduce. Fix: all_reduce the flag (MAX) instead of reduce.", R),
 ('diverging-control-flow', 'rank 0: 退出循环，finish() 里的 gather 在等。rank 1-3：backward 的梯度 all-reduce。原因：dist.reduce 只把 MAX 结果写到 dst=0，rank 1-3 的 bad 还是本地的 0，不知道要停。修法：用 dist.all_reduce(bad, op=MAX)。', R),
 ('diverging-control-flow', 'On a cluster with NCCL this would look the same: rank 0 leaves the loop and waits in the gather in finish, ranks 1-3 wait in the gradient all-reduce. The reduce only delivers the stop flag to rank 0. Fix: all_reduce, so the decision is the same on all ranks.', R),
 ('diverging-control-flow', 'rank 0 stopped (NaN loss) and waits in the gather in finish; ranks 1-3 wait in the gradient all-reduce in backward. The flag is reduced only to rank 0, rather than to every rank. Fix: dist.all_reduce(bad, MAX).', R),
 ('collective-order', 'rank 0 等在 broadcast（sync_schedule 里的 lr），rank 1-3 等在 all_gather（gather_tokens）。不是超时太短，而是调用顺序不一致：rank 0 先 broadcast，其他 rank 先 all_gather。修法：统一顺序，所有 rank 先 gather 再 broadcast。', R),
 ('collective-order', "Ranks 1, 2, 3: all_gather in gather_tokens. Rank 0: broadcast in sync_schedule. The if-branch broadcasts first and the else-branch gathers first, so the collectives cross. Adding a barrier would not help. Fix: put gather_tokens before the broadcast on rank 0 too.", R),
 ('collective-order', "people often assume collectives match by name, but they match by call order: rank 0's first call is the lr broadcast in sync_schedule and ranks 1-3's first is the all_gather in gather_tokens, so each waits on the other. Fix: the same order on every rank, gather first and then broadcast.", R),
 ('collective-order', 'rank 0 waits in broadcast (sync_schedule), ranks 1-3 in all_gather (gather_tokens). Opposite orders on the two branches. Fix: every rank gathers first, then rank 0 broadcasts; also log the order on each rank for the future.', R),
 ('eval-rank0', "rank 0 waits in all_reduce in evaluate, on the eval group; its 6-second timeout fires there. ranks 1-3, which do not call evaluate, are in backward's gradient all-reduce of the next step. Fix: call evaluate on all ranks and keep only the logging on rank 0.", R),
 ('eval-rank0', '- rank 0: evaluate → all_reduce(sums, group=eval_group), times out after 6 s\n- ranks 1-3: next step, backward, DDP all-reduce\n- why: evaluate only on rank 0, but its all_reduce needs all 4\n- fix: every rank calls evaluate; rank 0 logs', R),
 ('eval-rank0', 'rank 0 卡在 evaluate 的 all_reduce 上，6 秒后超时；其他三个 rank 在下一步 backward 的 all-reduce 里等。不是评估太慢：evaluate 只有 rank 0 调用，而它里面的 all_reduce 要所有 rank 参与。修复：所有 rank 都调用 evaluate，只在 rank 0 打印。', R),
 ('gather-sizes', "Rank 2 aborted first, SIGABRT from gloo. I'd not blame the document lengths: each loss is one number, but each rank skips a different number of short documents, so the all_gather gets different sizes. Fix: all_gather the counts, pad to the largest, all_gather, trim.", R),
 ('gather-sizes', 'rank 2: SIGABRT（signal 6），gloo 里 abort。all_gather 的 tensor 大小不一样：每个 rank 跳过的短文档数不一样，所以 loss 的个数不同。修复：用 all_gather_object，所有 rank 都调用。', R),
 ('gather-sizes', 'first to die: rank 2, aborted (exit code -6) in gloo, no traceback. why: different sizes in all_gather, because my_documents drops short docs per rank and the counts differ. fix: share the counts first, pad to the max, gather, trim; not padding the input documents.', R),
 ('gather-sizes', 'Rank 2 was killed by SIGABRT inside gloo. The ranks pass tensors of different lengths to all_gather (each scored a different number of documents, the short ones skipped). Fix: pad to the max count after exchanging counts, then trim.', R),
 ('timeout-at-item', "The timeout shows at .item(), but that's not where it started: .item() just waits on an async funcol all_reduce issued earlier. Rank 1 started it: it cut a document at step 1, and Metrics.add issued the cut all_reduce only on rank 1. Fix: keep local sums; at each log every rank all-reduces loss, tokens and cut tokens in one tensor.", R),
 ('timeout-at-item', "不是 .item()（它只是读异步 collective 的结果）。rank 1 在 step 1 截断了文档，只有它在 Metrics.add 里发了 cut 的 all_reduce，其它 rank 没发。修复：先本地累加，每次 log 所有 rank 做同一个 all_reduce。", R),
 ('timeout-at-item', "On another cluster with a longer timeout this would just hang longer. Not the .item(): rank 1 issued an extra all_reduce in Metrics.add for its cut tokens; the other ranks did not. Fix: every rank issues the same collective at every log (loss, tokens, cut in one tensor).", R),
 ('timeout-at-item', '- not .item() (async result)\n- rank 1: extra cut all_reduce in Metrics.add, only on rank 1\n- the others never issue it → off by one on the metrics group\n- fix: local sums, one all_reduce per log on every rank', R),
]

CASES = (CHECKPOINT_RANK0 + PP_SENDRECV + CRASHED_RANK + LONG_BATCH + UNEVEN_BATCHES + DIVERGING_CONTROL_FLOW
         + COLLECTIVE_ORDER + EVAL_RANK0 + GATHER_SIZES + TIMEOUT_AT_ITEM + EXTRA)


@pytest.mark.parametrize(("lab", "answer", "right"), CASES)
def test_round4_dfr1_diagnosis(lab: str, answer: str, right: bool) -> None:
    assert bool(diagnose(lab, answer)["correct"]) is right
