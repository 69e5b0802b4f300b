"""Lab diagnoses written by hand, second round (s32 labsa, 2026-12-03; none from the labelled
benchmark): terse notes, code walks with line numbers, Chinese, Chinese with English terms,
bullets, the fix in other words, a second valid fix; and wrong ones (wrong culprit, a symptom fix,
a wrong cause in the right vocabulary). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

CHECKPOINT_RANK0 = [
 ('checkpoint-rank0', 'r0 -> all_gather in data_positions (train.py:42), via save_checkpoint. r1-3 -> backward, DDP grad allreduce of step 5. gather is inside `if ctx.rank == 0` so only r0 ever enters it. fix: hoist data_positions() above the if, keep torch.save on r0', R),
 ('checkpoint-rank0', 'Walking through train.py: main() calls save_checkpoint(ctx, trainer, loader, path, step) at line 69 on every rank when (step+1) % save_every == 0. Inside save_checkpoint, line 47 checks `if ctx.rank == 0:` and only then calls data_positions() (line 48), which does dist.all_gather(positions, mine) on line 42. So rank 0 blocks in that all_gather, while ranks 1, 2 and 3 return immediately from save_checkpoint, start step 5, and block in loss.backward() where DDP waits on the gradient all-reduce buckets. The all_gather needs all four ranks to participate and they never will. Fix: call data_positions on every rank before the rank check; only the torch.save/os.replace stays rank-0 only.', R),
 ('checkpoint-rank0', 'rank 0 卡在 save_checkpoint -> data_positions 里的 dist.all_gather（第42行）。rank 1、2、3 已经进入下一步，在 loss.backward() 里等 DDP 的梯度 all-reduce。原因：all_gather 放在 if ctx.rank == 0 里面，其他 rank 根本不会执行到它，集合通信要所有 rank 都参加才能返回。修复：把 all_gather 移到 if 外面，所有 rank 都调用，只让 rank 0 写文件。', R),
 ('checkpoint-rank0', 'rank 0 在 all_gather 里 hang 住，位置是 save_checkpoint 里的 data_positions；其余三个 rank 在 backward 的 DDP gradient allreduce 里等。root cause：collective 被放在 rank 0 only 的分支里，rank 1-3 skip 了这个 all_gather。fix：所有 rank 先做 all_gather，再由 rank 0 torch.save。', R),
 ('checkpoint-rank0', '- odd one out: rank 0\n- rank 0: dist.all_gather in data_positions, called from save_checkpoint (line 48)\n- ranks 1-3: next step, loss.backward(), DDP gradient all-reduce\n- why: the all_gather sits under `if ctx.rank == 0:`, the other ranks never call it\n- fix: gather outside the if on all ranks; write only on rank 0', R),
 ('checkpoint-rank0', "Rank 0 is stuck in the all_gather of data positions in save_checkpoint; the rest have moved on and sit in DDP's gradient allreduce in backward. Root cause: a rank-conditional collective — the gather lives inside the rank-0 branch, so it is issued by one process out of four. Fix: let every process take part in collecting the positions, and guard only the file write with the rank check.", R),
 ('checkpoint-rank0', 'rank 0 hangs in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce in backward. only rank 0 calls the gather. fix: every rank could keep its own position and write its own small file (positions_rank{r}.pt) so no collective is needed at all, rank 0 writes the model', R),
 ('checkpoint-rank0', 'rank 0: all_gather in data_positions under save_checkpoint. others: DDP allreduce in backward of the next step. the all_gather is only executed by rank 0 because of the rank check, so it waits forever for ranks 1-3. fix: move the `if ctx.rank == 0` inside, around torch.save only.', R),
 ('checkpoint-rank0', 'rank 0 is stuck in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce. torch.save is slow so the gather times out. fix: raise the process group timeout to 30 minutes', W),
 ('checkpoint-rank0', "rank 3 is the odd one: it is in the all_gather in save_checkpoint while ranks 0-2 wait in backward's all-reduce. only rank 3 calls it.", W),
 ('checkpoint-rank0', 'rank 0 is stuck in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce. every rank calls the gather too, but rank 0 writes the file at the same time and the gather deadlocks with the disk write.', W),
 ('checkpoint-rank0', 'rank 0 waits in the all_gather in save_checkpoint and the others in the gradient all-reduce; the checkpoint file is too big for the disk, so torch.save never finishes.', W),
 ('checkpoint-rank0', "Rank 0 never returns from dist.all_gather (data_positions, line 42, reached from save_checkpoint). Ranks 1-3 are not in that gather at all: they skipped the if-block and are already in the next step's backward, waiting on DDP's allreduce. A collective can't complete with one participant. Fix: compute positions on all ranks, save on rank 0.", R),
 ('checkpoint-rank0', '0号卡在 all_gather（data_positions，第42行），其他三个 rank 在下一个 step 的 backward 里等梯度同步。因为 save_checkpoint 里只有 rank 0 会去调 data_positions，别的 rank 都跳过了这个 all_gather，它就永远凑不齐。修法：所有 rank 都去收集位置，写盘只在 0 号做。', R),
 ('checkpoint-rank0', 'rank 0 is in all_gather in save_checkpoint; ranks 1-3 in the gradient all-reduce in backward. The other ranks are not participating in the all_gather since it is inside the rank-0 branch. Alternative fix: use dist.gather to rank 0 but call it on every rank.', R),
 ('checkpoint-rank0', 'rank 0 在 save_checkpoint 的 all_gather 里等，其它 rank 在 backward 的 all_reduce 里。all_gather 写在 if ctx.rank == 0 分支里，只有 0 号执行了。修复：所有 rank 都执行 all_gather。', R),
 ('checkpoint-rank0', 'rank 0 is in all_gather inside save_checkpoint, the others in the gradient all-reduce. the other ranks call the gather too but with a different tensor shape, so it never completes.', W),
 ('checkpoint-rank0', 'rank 0 在 save_checkpoint 的 all_gather 里，其他 rank 在梯度 all_reduce 里。其他 rank 也调用了 all_gather，但是 rank 0 写文件太慢。修复：把超时调大。', W),
 ('checkpoint-rank0', 'rank 0 is in the gradient all-reduce in backward; ranks 1-3 are in all_gather in data_positions. only ranks 1-3 call the gather.', W),
 ('checkpoint-rank0', 'rank 0 is in all_gather in save_checkpoint; ranks 1-3 wait in the gradient all-reduce. the gather hangs because gloo cannot all_gather long tensors.', W),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. the gather cannot complete with one participant", R),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. 其他 rank 不在这个 gather 里", R),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. all_gather 只有一个进程参与，完成不了", R),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. 其他 rank 都在这个 gather 里", W),
]

PP_SENDRECV = [
 ('pp-sendrecv', 'r0 + r1 both blocked in dist.recv (sync_tied_embedding, train.py:109). both do recv->send, nobody sends -> deadlock. only from step 4 on because the sync is gated on step >= unfreeze_at. fix: r0 send then recv, r1 recv then send', R),
 ('pp-sendrecv', "In main(), line 131 calls sync_tied_embedding only when step >= args.unfreeze_at and the rank is the first or last stage. sync_tied_embedding (line 104) does dist.recv(theirs, src=peer) on line 109 and then dist.send(grad, dst=peer) on line 110 — the same order on both stages. So rank 0 sits in recv waiting for rank 1's send, and rank 1 sits in recv waiting for rank 0's send; neither reaches line 110. Steps 0-3 are fine because the embedding is still frozen and the function is not called. Fix: use dist.batch_isend_irecv([P2POp(isend,...), P2POp(irecv,...)]) and wait on both.", R),
 ('pp-sendrecv', 'rank 0 和 rank 1 都卡在 sync_tied_embedding 的 dist.recv 上（第109行）。两边都是先 recv 后 send，所以都在等对方发，死锁。前四步没事，是因为 embedding 还冻结着，解冻之后才会调用这个函数。修复：rank 0 先发后收，rank 1 先收后发。', R),
 ('pp-sendrecv', '两个 stage（rank 0、rank 1）都 block 在 recv，位置是 sync_tied_embedding。两边都 recv first，send 永远执行不到。unfreeze 之后才开始调用这个同步，所以前几步正常。fix：用 batch_isend_irecv 同时发起 send 和 recv。', R),
 ('pp-sendrecv', '- stuck: rank 0 and rank 1, both in recv from each other\n- site: sync_tied_embedding, recv before send on both sides\n- why at step 4: the sync only runs after the embedding is unfrozen\n- fix: break the symmetry, even rank sends first, odd rank receives first', R),
 ('pp-sendrecv', 'Both pipeline ends wait in recv inside sync_tied_embedding. Each process posts a blocking receive and only afterwards its send, so each waits for a message the other never gets around to sending. It starts at the unfreeze step since before it the tied gradient is not exchanged. Fix: replace the two blocking calls with non-blocking isend/irecv and wait on both handles.', R),
 ('pp-sendrecv', "ranks 0 and 1 are both waiting in recv in sync_tied_embedding; recv then send on both stages, so neither sends. it's only called once the embedding is unfrozen. fix: do an all_reduce of the tied embedding grad over a group of {0, 1} instead of send/recv", R),
 ('pp-sendrecv', "rank0/rank1: both in recv, sync_tied_embedding. recv before send on both sides => neither reaches its send. happens from unfreeze_at on (before that embed is frozen so the sync isn't called). fix: rank 0 sends first.", R),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding. the embedding gradient is too large to send, the transfer is slow. fix: increase the timeout', W),
 ('pp-sendrecv', 'rank 0 waits in send and rank 1 waits in recv in sync_tied_embedding; rank 1 is slower. fix: add a barrier before the sync', W),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding: both recv before send. it starts at that step because of the unfreeze. fix: keep the embedding frozen for the whole run', W),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in the pipeline forward (train_step line 82): the activations arrive late because the forward is slow after the unfreeze.', W),
 ('pp-sendrecv', 'Both ranks hang on dist.recv in sync_tied_embedding. Each side calls recv before send, a classic p2p deadlock: blocking recv with no matching send in flight. This only begins at step 4 because sync_tied_embedding is skipped while the embedding is frozen. Fix: order the pair by rank: rank 0 does send→recv and rank 1 recv→send.', R),
 ('pp-sendrecv', '0号和1号互相等，都停在 recv。sync_tied_embedding 里两个 rank 都先收再发，没有人先发送。从 unfreeze_at 那一步开始才调用这个函数，之前 embedding 冻结不需要同步。修法：改成 isend/irecv 非阻塞，然后 wait。', R),
 ('pp-sendrecv', 'both stages stuck in recv (sync_tied_embedding line 109). symmetric recv-then-send on both ends = deadlock. starts after unfreeze since the sync is only called once the embedding trains. fix: dist.batch_isend_irecv', R),
 ('pp-sendrecv', "rank 0 and rank 1 each wait in recv for the other's tied-embedding gradient, inside sync_tied_embedding. They both receive first, so the sends never happen. The embedding is frozen for the first 4 steps and the function is only called after it is unfrozen. Fix: have rank 1 send first and rank 0 receive first.", R),
 ('pp-sendrecv', 'rank 0 和 rank 1 都在 recv 里等：sync_tied_embedding 两边都先 recv，send 执行不到。embedding 解冻之后才走这段代码。修复：把其中一边改成先 send。', R),
 ('pp-sendrecv', 'the tied embedding sync deadlocks: both first and last stage are blocked receiving, as each waits for the other to send first. only after unfreezing does main() call it. fix: post both ops at once with batch_isend_irecv', R),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding. the gloo buffer is full after the unfreeze so the send blocks. fix: use NCCL', W),
 ('pp-sendrecv', 'ranks 0 and 1 both wait in recv in sync_tied_embedding. both recv first so neither sends. the sync runs from the first step but the deadlock only shows up when the gradients get bigger.', W),
 ('pp-sendrecv', 'only rank 1 is stuck, in recv in train_step; rank 0 already finished. fix: set a longer timeout', W),
 ('pp-sendrecv', 'rank 0 和 rank 1 都在 sync_tied_embedding 的 recv 里等。两边都先 send 再 recv，消息太大。修复：把超时调大。', W),
 ('pp-sendrecv', 'Both ranks wait in recv inside sync_tied_embedding. each waits for a message the other never gets around to sending.', R),
 ('pp-sendrecv', 'Both ranks wait in recv inside sync_tied_embedding. 两边都是 recv 之后才 send', R),
 ('pp-sendrecv', 'Both ranks wait in recv inside sync_tied_embedding. Each process sends and only afterwards receives.', W),
 ('pp-sendrecv', 'rank 0 和 rank 1 都在 sync_tied_embedding 的 recv 里等，两边都先 recv 再 send。这个同步从第一步就在跑。', W),
]

CRASHED_RANK = [
 ('crashed-rank', 'r0 died first (OOM in fwd, torchrun root cause). r1-3: blocked in grad allreduce, then killed. r0 appends (logits, targets, mask) to `predictions` every step (line 58) -> tensors stay alive, mem grows until OOM. only r0 does the append. fix: accumulate hit/token counts instead', R),
 ('crashed-rank', "torchrun's failure report names rank 0 as the root cause: torch.OutOfMemoryError raised in the forward pass. Ranks 1, 2 and 3 were in loss.backward() waiting for DDP's gradient all-reduce with rank 0 and got torn down after it died. In main(), line 53 creates predictions = [], and at line 58, under `if ctx.rank == 0:`, each step appends trainer.logits together with the targets and mask; token_accuracy() only reads them at the end (line 60). Because the list holds references, none of those logits can be freed, so rank 0's allocated memory rises by one logits tensor per step until an allocation fails. The other ranks skip that branch, so they stay flat.", R),
 ('crashed-rank', 'rank 0 最先失败，是 forward 里的 OOM；rank 1-3 当时在梯度 all-reduce 里等，rank 0 挂了之后它们才报错。原因：rank 0 每一步都把 logits 追加到 predictions 列表里，引用一直在，显存释放不掉，一步步涨，最后爆显存。其他 rank 不走这段代码。修复：每步只累加预测正确数和 token 数。', R),
 ('crashed-rank', '0号先挂，OOM，在 forward。其他三个 rank 在 backward 的 allreduce 里 waiting。0号为了算 token accuracy，把每个 step 的 logits append 到 list 里，这些 tensor 一直被引用，显存 leak。只有 rank 0 做这个 append。fix：算 accuracy 的时候只存 count。', R),
 ('crashed-rank', "- first failure: rank 0, CUDA OOM during forward\n- ranks 1-3: waiting in the gradient all-reduce, died afterwards\n- cause: rank 0 stores every step's logits in `predictions` for the accuracy, memory grows step by step\n- only rank 0: the append is under if ctx.rank == 0", R),
 ('crashed-rank', 'Rank 0 failed first with an out-of-memory error in the forward; the other ranks were idle in the gradient all-reduce. The accuracy bookkeeping on rank 0 holds on to the full logits tensor of each step, so its footprint increases every iteration until the forward cannot allocate. Fix: compute the hits right away, keep two integers, and drop the tensors (or .detach().cpu() the argmax only).', R),
 ('crashed-rank', 'rank 0 OOMs first in forward, ranks 1-3 wait in the all-reduce. rank 0 keeps a list of all logits for the accuracy metric, which grows every step. alternative fix: store only logits.argmax(-1) on the CPU instead of the full logits tensor', R),
 ('crashed-rank', "Root cause rank 0: OOM. Others were waiting in backward's all_reduce. Rank 0 alone accumulates logits in the predictions list every step, a leak; the others never do.", R),
 ('crashed-rank', "rank 0 failed first with OOM in forward; ranks 1-3 waited in the gradient all-reduce. rank 0's batch is bigger than the others'. fix: lower the batch size on rank 0.", W),
 ('crashed-rank', 'rank 2 failed first with OOM; the other ranks waited in the gradient all-reduce. rank 2 keeps the logits of every step.', W),
 ('crashed-rank', 'rank 0 failed first with OOM in forward; ranks 1-3 waited in the gradient all-reduce. the model is too large for the GPU memory limit. fix: raise device_memory_kib.', W),
 ('crashed-rank', 'rank 0 failed first; ranks 1-3 waited in the gradient all-reduce. the NCCL timeout fired on rank 0 because it was slow to compute the accuracy. fix: raise the timeout.', W),
 ('crashed-rank', "rank 0 crashed first: CUDA OOM in the forward. ranks 1-3 were blocked in the gradient all-reduce. rank 0 keeps references to every step's logits in a python list (for the accuracy), so they are never freed and its memory usage goes up step after step.", R),
 ('crashed-rank', '0号最先挂（OOM），1-3号在梯度all-reduce里等。0号把每一步的 logits 都塞进 predictions 里，占用的显存一直释放不了，越积越多，最后 forward 分配不到显存。', R),
 ('crashed-rank', 'rank 0 first, out of memory in forward; ranks 1-3 in the grad allreduce. predictions list on rank 0 retains the logits of all steps; allocated memory goes up linearly until the allocator fails.', R),
 ('crashed-rank', "rank 0 failed first with OOM; the others sat in the gradient all-reduce. rank 0 holds on to the logits from every step so memory usage creeps up; the other ranks don't compute accuracy at all.", R),
 ('crashed-rank', 'rank 0 先 OOM；其余 rank 在梯度 all_reduce 里。rank 0 每步 append logits，显存占用逐步上升，其他 rank 不存。', R),
 ('crashed-rank', 'rank 0 failed first with OOM in forward; ranks 1-3 waited in the gradient all-reduce. rank 0 keeps the logits of every step, but memory stays flat; the OOM comes from a spike in one big batch.', W),
 ('crashed-rank', 'rank 0 先 OOM，其余在梯度 all_reduce 里等。rank 0 的 batch 里有一条超长文档，激活太大。', W),
 ('crashed-rank', 'First to go down was rank 0 (its error file has torch.OutOfMemoryError in forward). Ranks 1-3 were parked in the gradient allreduce. Rank 0 is the only one collecting logits for the accuracy, and it never releases them: one more logits tensor pinned per step until the allocator gives up.', R),
 ('crashed-rank', "rank 0 was the root cause (OOM); the others just waited for it in all-reduce. predictions.append(trainer.logits) on rank 0 retains every step's output, so its usage ramps up over the run; the other ranks don't append anything.", R),
 ('crashed-rank', '0号是 root cause：forward 时显存不够。1-3号在梯度 all-reduce 里干等。0号把每步的 logits 攒在 predictions 里算准确率，引用不释放，显存线性上涨。', R),
 ('crashed-rank', 'rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. The accuracy list on rank 0 grows by a full logits tensor each step: unbounded growth of GPU memory on that rank only.', R),
 ('crashed-rank', "rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. rank 0 computes the accuracy every step, which needs extra memory for the argmax, and that spike at step 7 doesn't fit.", W),
 ('crashed-rank', 'rank 0 failed first; ranks 1-3 waited in the gradient all-reduce. it keeps the logits for accuracy. fix: give rank 0 a bigger memory limit so the logits fit.', W),
 ('crashed-rank', "rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. that spike at step 7 doesn't fit", W),
 ('crashed-rank', "rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. rank 0 keeps every step's logits. that spike at step 7 doesn't fit", W),
 ('crashed-rank', "rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. rank 0 keeps every step's logits; memory grows every step, it is not a spike", R),
 ('crashed-rank', 'rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. 0号每步都存 logits，显存是在某一步突然涨的', W),
 ('crashed-rank', 'rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. 0号为了算准确率一直留着每步的 logits，显存占用不断上升', R),
 ('crashed-rank', 'rank 0 failed first, OOM in forward; others waited in the gradient all-reduce. rank 0 computes the accuracy every step, which needs extra memory.', W),
]

LONG_BATCH = [
 ('long-batch', "r1 OOM @ step 4, fwd. r0/r2/r3 stuck in grad allreduce. doc 70 = 600 tokens lands in r1's batch, make_batch pads everything to 600 -> ~25x activations. fix: clamp each doc to cfg.max_len in make_batch", R),
 ('long-batch', "Step 4, rank 1: torch.OutOfMemoryError in forward, it is torchrun's first failure. Ranks 0, 2, 3 sat in loss.backward() on DDP's gradient all-reduce. main() builds the corpus with lengths={args.long_doc: LONG_DOC_TOKENS}, i.e. document 70 has 600 tokens, and ShardedLoader puts it into rank 1's share for step 4. make_batch (line 36) pads the batch to its longest document, so that one batch is 600 wide instead of ~24 and its activations do not fit the simulated device memory. Fix: truncate inside make_batch to cfg.max_len, or chunk long documents into max_len windows.", R),
 ('long-batch', 'rank 1 在第4步 forward 时 OOM，其他 rank 在梯度 all-reduce 里等。它的 batch 里有一篇 600 token 的超长文档，make_batch 把整个 batch 都补齐到 600，显存放不下。修复：把每篇文档截断到 max_len。', R),
 ('long-batch', '1号 step 4 OOM，0、2、3号在 backward 的 allreduce 里 waiting。原因是 rank 1 那个 batch 有一个 very long document（600 tokens），padding 到最长以后 activation 爆了。fix：在 make_batch 里 truncate 到 context length。', R),
 ('long-batch', '- failed: rank 1, step 4, OOM in forward\n- others: waiting in the gradient all-reduce\n- why rank 1: its batch contains the 600-token doc; the batch is padded to the longest doc\n- fix: split long docs into windows of max_len tokens', R),
 ('long-batch', "Rank 1 ran out of memory at step 4 while the other three were waiting in the gradient allreduce. One sample in its batch is enormous (600 tokens versus ~24), and since everything in a batch is padded to the longest sample, that batch blows up. Fix: enforce a maximum sequence length when building batches, so no sample is longer than the model's context.", R),
 ('long-batch', "rank 1 OOM at step 4, others in the grad all-reduce. rank 1's batch has the one 600-token document and is padded to it. fix: cap every document at the context length; a second option is length-bucketing plus a token budget per batch so the padded size stays bounded", R),
 ('long-batch', 'rank 1 died at step 4 (OOM), ranks 0,2,3 waited in all_reduce. the long web page doc is in its batch, padded batch ~25x bigger. fix: chunk documents longer than max_len into several max_len pieces', R),
 ('long-batch', "rank 1 OOMs at step 4, the others wait in the gradient all-reduce. rank 1's batch holds a very long document. fix: filter out documents longer than max_len", W),
 ('long-batch', "rank 1 OOMs at step 4, the others wait in the gradient all-reduce. rank 1's batch holds a very long document. fix: raise --device-memory-kib on rank 1", W),
 ('long-batch', "rank 0 OOMs at step 4, the others wait in the gradient all-reduce. rank 0's batch holds a very long document. fix: truncate documents to max_len", W),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. rank 1 has a memory leak: it keeps the activations of every step. fix: free them after each step.', W),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest.', W),
 ('long-batch', '1号在 step 4 爆显存，其他 rank 在梯度同步里等。它这一批里有一篇特别长的网页（600 个 token），整批都被补到这个长度。修法：按 max_len 把长文档切成几段。', R),
 ('long-batch', 'rank 1, step 4, OOM. others: grad all-reduce. its batch contains one 600-token doc and collate pads the batch to it. fix: truncate to max_len in make_batch.', R),
 ('long-batch', "rank 1 hit OOM at step 4; ranks 0, 2 and 3 were in the gradient all-reduce. rank 1 drew the long document, and the batch is padded to the longest sequence, so its activations are ~25x. fix: clip sequences to the model's context length.", R),
 ('long-batch', "Rank 1 went OOM in step 4's forward; the rest waited on the gradient all_reduce. Its batch had the outlier document (600 tokens); padding to the longest makes its batch huge. Fix: limit every sequence to max_len tokens (truncate or window it).", R),
 ('long-batch', 'rank 1 在第4步 OOM，其他 rank 在梯度 all_reduce 里等。rank 1 的 batch 里有超长文档。修复：把长文档丢掉。', W),
 ('long-batch', 'rank 1 在第4步 OOM，其他 rank 在梯度 all_reduce 里等。rank 1 的 batch 里有超长文档。修复：把显存上限调大。', W),
 ('long-batch', "rank 1 OOMs at step 4, the others wait in the gradient all-reduce. all batches are the same length; rank 1's GPU is just smaller. fix: truncate to max_len", W),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest. fix: skip documents so no sample exceeds the context', W),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest. fix: drop samples longer than max_len', W),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest. Fix: enforce a maximum sequence length.', R),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest. 修复：限制最大序列长度。', R),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest. fix: clamp every sequence to the context', R),
 ('long-batch', 'rank 1 OOMs at step 4, the others wait in the gradient all-reduce. its batch holds a very long document, padded to the longest. 修复：丢掉超长样本', W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CHECKPOINT_RANK0 + PP_SENDRECV + CRASHED_RANK + LONG_BATCH)
def test_round2_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
