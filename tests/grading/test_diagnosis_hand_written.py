"""Lab diagnoses written by hand as candidates type them (2026-12-03; none from the labelled
benchmark): terse notes, Chinese, code narrations, and near misses that put the wrong rank in the
call, the symptom's fix or the wrong category. Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose, item
from tutor.grading.claims.folding import fold
from tutor.labs.rank_mentions import named_ranks, subject_ranks

R, W = True, False
CASES = [
 ("checkpoint-rank0", "rank0 is stuck in all_gather inside save_checkpoint, which only rank 0 runs; 1-3 are in the DDP gradient allreduce of the next step. fix: gather on every rank, only write the file on rank 0", R),
 ("checkpoint-rank0", "0号在save_checkpoint里的all_gather卡住，1到3号在下一步backward的梯度all_reduce里等。原因：save_checkpoint只在rank 0上调用，但里面有all_gather。修复：所有rank都调用all_gather，只由rank 0写文件。", R),
 ("checkpoint-rank0", "rank 0 waits in the gradient all_reduce; ranks 1-3 wait in all_gather in save_checkpoint. the checkpoint is saved only on rank 0.", W),
 ("collective-order", "r0: broadcast (sync_schedule). r1-3: all_gather (gather_tokens). rank 0 calls broadcast then all_gather, the rest all_gather then broadcast -> collectives matched by order, deadlock. make every rank call them in the same order.", R),
 ("collective-order", "rank 0 在 sync_schedule 的 broadcast 里等，rank 1-3 在 gather_tokens 的 all_gather 里等。rank 0 先 broadcast 再 all_gather，其他 rank 先 all_gather 再 broadcast，顺序不一致所以互相等。修复：所有 rank 按同一顺序调用。", R),
 ("collective-order", "all four ranks wait in broadcast. the learning rate broadcast is too slow; raise the timeout.", W),
 ("crashed-rank", "rank 0 died first: OOM in the forward. the other three were just waiting in the grad all-reduce and got torn down. rank 0 keeps appending the logits of every step to a list for accuracy, so memory grows until OOM. fix: store only the correct counts, not the logits", R),
 ("crashed-rank", "0号最先挂，forward 里 OOM；1~3号在梯度 all-reduce 里等，0号没了它们才报错。0号每一步都把 logits 存进列表算准确率，显存一直涨。修复：只存统计数，不存 logits。", R),
 ("crashed-rank", "rank 1 crashed first with OOM; ranks 0, 2, 3 waited in all_reduce. fix: lower the batch size.", W),
 ("diverging-control-flow", "rank0 exits the loop early (its batch is all padding -> NaN loss -> stop flag) and sits in the final gather in finish(); 1-3 keep training and wait in the grad allreduce in backward. the stop flag is dist.reduce'd to rank 0 only so only rank 0 stops. fix: all_reduce the flag (MAX) so all ranks stop at the same step", R),
 ("diverging-control-flow", "rank 0 在 finish 的 gather 里等，1-3 号在 backward 的梯度 all_reduce 里等。should_stop 用 reduce 只把结果给了 rank 0，所以只有 rank 0 退出循环。修复：改成 all_reduce，大家一起停。", R),
 ("eval-rank0", "rank 0 hangs in evaluate's all_reduce; 1,2,3 are in backward of the next step waiting on the gradient allreduce. cause: evaluate is gated to rank 0 only. fix: call it everywhere, log on rank 0.", R),
 ("eval-rank0", "rank 0 is in the all_reduce inside evaluate(); the other ranks are in the gradient all-reduce. evaluate only runs on rank 0. fix: raise the eval group's timeout so it has time to finish.", W),
 ("uneven-batches", "rank 0 is one step behind... actually ahead: it still trains an extra step and waits in the grad all_reduce; 1-3 ran out of data and wait in the gather in finish(). shard 0 has one more doc -> one more batch. fix: DistributedSampler(drop_last=True) so every rank gets the same number of batches", R),
 ("uneven-batches", "rank 0 还在训练，多了一步，在梯度 all_reduce 里等；1-3 号数据先用完，退出循环，在 finish 的 gather 里等。shard 0 多一个文档。修复：每个 rank 的 batch 数一样，比如 drop_last=True。", R),
 ("uneven-batches", "ranks 1-3 are slower and still training in the gradient all-reduce; rank 0 finished and waits in the gather. fix: give rank 0 more data.", W),
 ("long-batch", "rank 1 OOMs at step 4: its batch has a 600-token document and gets padded to that length. ranks 0,2,3 wait in the grad all-reduce. fix: truncate documents to max_len", R),
 ("long-batch", "1号在第4步 OOM，因为 batch 里有一条 600 token 的长文档，整个 batch 被 pad 到 600。其他 rank 在梯度 all_reduce 里等。修复：把文档截断到 max_len。", R),
 ("pp-sendrecv", "both stages (rank 0 and 1) are blocked in recv in sync_tied_embedding: each one does recv first then send, so nobody sends. fix: rank 0 sends first, rank 1 receives first (or batch_isend_irecv)", R),
 ("pp-sendrecv", "rank 0 和 rank 1 都卡在 sync_tied_embedding 里的 recv，两边都先 recv 再 send，谁也发不出去。修复：一边先 send 一边先 recv，或者用 batch_isend_irecv。", R),
 ("pp-sendrecv", "rank 0 waits in send and rank 1 waits in recv; the message is too big for the buffer. fix: send smaller chunks", W),
 ("gather-sizes", "rank 2 aborted first (exit -6, SIGABRT) in the all_gather in gather_losses: gloo got 20 bytes where it expected 14, a size mismatch. the rest failed after it. each rank scored a different number of docs (short ones skipped) but all_gather needs equal shapes. fix: gather the counts first, pad to the max, gather, then trim", R),
 ("gather-sizes", "2号最先退出（SIGABRT），在 gather_losses 的 all_gather 里，数据大小不一致。各个 rank 的 loss 数量不同，all_gather 要求形状相同。修复：先 all_gather 数量，pad 到最大，再 gather，最后截掉。", R),
 ("gather-sizes", "rank 2 hung in all_gather because it was slower than the others; fix: set a longer timeout.", W),
 ("group-order", "all 4 ranks in the all_reduce in average_gradients, but 0/2/3 are on pg 1 and rank 1 on pg 2 (flight recorder). rank 1 creates the metrics group first, so its group numbering is swapped. fix: create the groups in the same order on every rank", R),
 ("group-order", "四个 rank 都在 average_gradients 的 all_reduce 里，但是 0、2、3 号在 pg 1，1号在 pg 2。1号先建了 metrics group，所以它的 grads group 编号不一样。修复：所有 rank 按同样的顺序创建 group。", R),
 ("exit-hang", "training finished everywhere, but rank 1's process doesn't exit: its uploader thread is blocked in queue.get() waiting for the next item, and the interpreter joins non-daemon threads at exit. close() (which puts None) is only called in the except branch. fix: call uploader.close() in a finally", R),
 ("exit-hang", "所有 rank 都训练完了，1号进程退不出去：上传线程卡在 queue.get() 等下一个任务，解释器退出时要 join 非 daemon 线程。close() 只在 except 里调用。修复：在 finally 里调用 close()。", R),
 ("timeout-at-item", "it's not .item(): rank 1 issued an extra all_reduce on the metrics group at step 1 (Metrics.add, its batch had a doc over the context so cut>0 and the cut all-reduce is only issued if cut). after that rank 1's metrics collectives are off by one. fix: keep the cut count local and all-reduce loss, tokens and cut together at every log on every rank", R),
 ("busy-rank", "rank 1 isn't waiting, it's spinning (py-spy shows it active) in pieces() called from make_batch; rank 0 waits in the DDP gradient all_reduce in backward. a page with a table longer than the context has no EOS in reach so end goes back to start and the loop never moves. fix: if end == start, cut at start + max_len", R),
 ("busy-rank", "1号没在等，是在 pieces() 里死循环（py-spy 显示 active），0号在 backward 的梯度 all_reduce 里等它。某一页有一张比 context 还长的表，找不到 EOS，end 回到 start，循环不前进。修复：end == start 时硬切到 start + max_len。", R),
 ("stalled-loader", "rank 1 is not in a collective: its main thread is in next() on the DataLoader, whose workers are blocked on the TokenCache lock. rank 0 waits in the grad all-reduce. the lock was held by the background save when the new epoch forked the workers, so the children got a locked lock nobody will release. fix: hold the lock only to copy the dict, or use spawn", R),
 ("straggler", "straggler: rank 1 computes longer each step, rank 0 idles in the all_reduce waiting for it. shares are contiguous and length-sorted so rank 1 gets the long docs. fix: balance shares by tokens", R),
 ("straggler", "慢节点：1号每步计算更久，0号在 all_reduce 里空等。数据按长度排序后连续切分，1号拿到的都是长文档。修复：按 token 数均衡分配。", R),
 ("straggler", "communication: the all_reduce is slow because the network is congested; rank 1 waits in it. fix: use a faster interconnect", W),
 ("slow-dataloader", "data loading: the GPU waits at the start of every step for the batch, about 2/3 of the step. the loader re-tokenizes each document with a python BPE every step. tokenize once up front and reuse the ids", R),
 ("slow-dataloader", "数据加载：每一步开头都在等数据，大约占三分之二。loader 每步都用纯 Python 的 BPE 重新分词。修复：训练前一次性分词，之后直接切片。", R),
 ("exposed-comm", "communication — the grad all-reduce runs after backward with nothing to overlap it, ~40% of the step. fix: bucket it and overlap with backward (DDP buckets / overlap_grad_reduce)", R),
 ("exposed-comm", "通信：梯度 all_reduce 在 backward 之后串行执行，没有和计算重叠，占了约 40% 的 step。修复：用 DDP 的 bucket，在 backward 里边算边通信。", R),
 ("launch-bound", "compute (launch-bound): ~2000 tiny ops per step, ~10us each, plus an .item() sync per micro-batch. the CPU launch overhead dominates. fix: bigger micro-batch, fused LayerNorm, no .item() in the loop", R),
 ("launch-bound", "计算，launch bound：每步两千多个小算子，每个十微秒左右，还有每个 micro-batch 一次 .item() 同步。修复：更大的 micro-batch，用 nn.LayerNorm，loss 留在 GPU 上。", R),
 ("kernel-fusion", "memory-bound: three elementwise kernels each read and write the whole tensor from HBM; fusing into one kernel reads once and writes once, ~3x less traffic", R),
 ("kernel-fusion", "compute-bound: the kernels are slow because the GPU has too few FLOPs; fusing them does more math per second", W),
 ("cuda-graphs", "launch-bound loop: kernels are shorter than their launch time, GPU sits idle in between. capture the loop once in a CUDA graph and replay it with one launch; shapes must be static", R),
 ("fp8-matmul", "E4M3 for forward (weights and activations, more precision), E5M2 for gradients (more range), with per-tensor scaling from amax", R),

 ("checkpoint-rank0", "Walking through the code: main() calls save_checkpoint(ctx, trainer, loader, path, step) on every rank at step 4, which is fine, but inside it the `if ctx.rank == 0:` guard wraps data_positions(), and data_positions does `dist.all_gather(positions, mine)` at line 42. So rank 0 enters the all_gather and waits there for three partners; ranks 1, 2 and 3 skip the whole block, return, start step 5 and block in DDP's gradient all-reduce in backward, waiting for rank 0. Each side waits in a different collective, so nothing completes until the timeout. Fix: call data_positions() on every rank before the guard (every rank must join the all_gather), and keep only torch.save/os.replace under `if ctx.rank == 0`.", R),
 ("checkpoint-rank0", "So the trace: step 4 finishes normally on all four ranks (the all-reduces of train_step line up). Then (step+1) % save_every == 0, save_checkpoint runs, and only rank 0 goes into data_positions -> all_gather (train.py:42). The other ranks never call it; they carry on and their next all_reduce (gradient sync in loss.backward) waits for rank 0 forever. The bug is a collective inside a rank-0-only branch. Fix by moving the all_gather out of the if, so all ranks gather positions, and rank 0 alone writes.", R),
 ("uneven-batches", "Reading the loader: ShardedLoader splits the corpus by rank, and shard 0 gets one document more, so len(loader) is one higher on rank 0. The loop `for step in ctx.steps(len(loader))` therefore runs one more iteration on rank 0. On the last step rank 0 is in loss.backward(), in DDP's gradient all_reduce, waiting for partners who already left the loop: ranks 1, 2 and 3 finished their batches and now sit in the gather inside trainer.finish(). Two different collectives, so both sides wait until the timeout. Fix: give every rank the same number of steps (DistributedSampler with drop_last=True, or take min(len) over ranks with an all_reduce(MIN) before the loop), or wrap the loop in DDP's join() context.", R),
 ("crashed-rank", "Timeline: rank 0 is the first failure in torchrun's summary, with torch.OutOfMemoryError raised in the forward pass at step 6. Ranks 1-3 were at that point inside the gradient all_reduce of backward; their errors come later and only because their peer died (connection closed). Why rank 0: the accuracy code runs only on rank 0 and does predictions.append(logits) every step, holding the full logits tensor of every step in memory; memory grows linearly until the allocator gives up. Fix: keep running counts (correct, total) instead of the logits, or .detach().argmax() and store the small result.", R),
 ("diverging-control-flow", "Code path: at the step where rank 0's batch is all padding, its loss is NaN, and should_stop() does dist.reduce(flag, dst=0), so only rank 0 sees flag > 0 and breaks out of the loop. It goes to trainer.finish() and waits in the final gather. Ranks 1-3 got nothing back from the reduce, so they continue to the next step and wait in the gradient all-reduce in backward. Fix: use dist.all_reduce(flag, op=MAX) so every rank reads the same flag and they all stop at the same step.", R),
 ("long-batch", "What happened: rank 1 is the first to fail, with an OOM error at step 4 in the forward pass. Its batch at that step contains one 600-token document and the collate pads every sequence to the longest one, so its activations are several times the usual size. Ranks 0, 2 and 3 are waiting in the gradient all-reduce in backward when rank 1 dies and are torn down after it. Fix: truncate (or drop) documents longer than cfg.max_len in the dataset so no batch can be padded past max_len.", R),
 ("collective-order", "In sync_schedule the branch for rank 0 does `dist.broadcast(lr, src=0)` first and then gather_tokens(), while the branch for the other ranks calls gather_tokens() (an all_gather) first and then the broadcast. Collectives are matched by the order they are issued on a process group, not by name, so rank 0's broadcast is paired with ranks 1-3's all_gather: rank 0 sits in broadcast, ranks 1-3 sit in all_gather, and neither finishes. Fix: one order on all ranks, gather first, then rank 0 computes the rate and broadcasts it.", R),
 ("eval-rank0", "In main, after every eval interval, `if ctx.rank == 0: held = evaluate(ctx, trainer.model, eval_set, eval_group)` (line 72-73). evaluate() shards the held-out set and ends with dist.all_reduce(sums, group=group) at line 53, a collective on all four ranks of the eval group. Only rank 0 gets there, so rank 0 waits in that all_reduce; ranks 1-3 skipped the if, went into the next step and wait in the gradient all_reduce in backward (line 69). Fix: every rank calls evaluate() and does its share; only the logging stays under rank 0.", R),
 ("fp8-matmul", "E5M2 for the forward pass and E4M3 for the gradients, since gradients need more precision", W),
]

# terser still: bullets, slashes, labels, mixed zh/en
TERSE = [
 ("crashed-rank", "torchrun's root cause is local_rank: 0, OutOfMemoryError in the forward; local_rank 1-3 were waiting in the gradient all-reduce and died after it. Rank 0 appends every step's logits to a list for the accuracy, so its memory grows; keep only the counts.", R),
 ("pp-sendrecv", "- rank 0: blocked in dist.recv (sync_tied_embedding, line 109)\n- rank 1: same, dist.recv line 109\nWhy: both call recv before send -> classic deadlock, no one sends.\nFix: break symmetry: rank 0 send->recv, rank 1 recv->send, or batch_isend_irecv.", R),
 ("pp-sendrecv", "Deadlock in the tied-embedding sync. Both pipeline ends post a blocking recv to each other first, so neither reaches its send. Order them (even rank sends first) or use isend/irecv.", R),
 ("pp-sendrecv", "两个 stage 互相等：都先 recv 后 send，所以都卡在 recv。让 rank 0 先发，rank 1 先收。", W),
 ("group-order", "Ranks: all four stuck in the same all_reduce (average_gradients, train.py:70) but on different process groups: rank 1 on pg 2, the others on pg 1.\nWhy: new_group ids are assigned in creation order and rank 1 (the log rank) creates the metrics group before grads.\nFix: create grads and metrics in the same order everywhere, before the MetricsWriter.", R),
 ("group-order", "Rank 1 is slow to create its groups, so the all_reduce times out before it joins. Fix: add a barrier after creating groups.", W),
 ("exit-hang", "Not a collective hang: training finished. Rank 1 never exits because a non-daemon thread (checkpoint-uploader) is still blocked on queue.get(); the interpreter waits for it in threading._shutdown. close() only runs on exceptions. Put close() in finally.", R),
 ("exit-hang", "rank 1 is stuck in a barrier at the end of training waiting for the other ranks.", W),
 ("gather-sizes", "First failure: rank 2, SIGABRT (exit -6) in gloo during all_gather in gather_losses — 'Received data size doesn't match expected size'. Others die afterwards. Each rank has a different number of losses because short docs are skipped; all_gather requires equal sizes. Fix: gather sizes, pad, gather, unpad (or all_gather_object).", R),
 ("gather-sizes", "rank2最先崩(-6)，all_gather大小不匹配：每个rank的loss个数不一样。先gather长度，再pad到最长。", R),
 ("stalled-loader", "rank 1 (the one that writes the cache) is not in any collective: it's in next(batches), waiting for DataLoader workers that are deadlocked on TokenCache's lock. They were forked while the background saver held the lock, so the lock is copied locked into the children. Rank 0 waits for it in the gradient all-reduce. Fix: don't hold the lock across the save (copy under the lock, write outside) or use the spawn start method.", R),
 ("stalled-loader", "1号卡在 DataLoader 的 next() 里，worker 进程卡在 TokenCache 的锁上：fork 的时候后台保存线程正拿着锁，子进程复制了一把锁住的锁，永远没人释放。0号在梯度 all_reduce 里等它。修复：只在拷贝字典时加锁，或者用 spawn。", R),
 ("busy-rank", "r1 busy-loops in pieces() (py-spy: active, not idle). r0 waits for it in DDP grad all_reduce. Root cause: a sentence longer than the context has no EOS within max_len, so end == start and the chunker never advances. Fix: force a cut when end == start.", W),
 ("busy-rank", "rank 1 is deadlocked in an all_reduce with rank 0; fix by raising the timeout.", W),
 ("timeout-at-item", "The .item() is a red herring — it's just where the async result is read. Real cause: rank 1's batch had a document longer than the context, so Metrics.add issued the cut-count all_reduce on rank 1 only, at step 1. From then on the metrics group's collectives are mismatched by one (1 element vs 2). Fix: always issue one fused all_reduce [loss, tokens, cut] on every rank.", R),
 ("timeout-at-item", "不是 .item() 的问题，它只是读结果。1号 batch 里有超长文档，Metrics.add 里截断计数的 all_reduce 只有1号发了，之后 metrics group 的 collective 错开一位。修复：每次 log 所有 rank 都发同一个 all_reduce。", R),
 ("timeout-at-item", "The bug is the .item() call: it's slow and blocks the GPU. Remove .item() and the hang goes away.", W),
 ("collective-order", "r0 broadcast / r1-3 all_gather, mismatched order between the two branches of sync_schedule. Same order everywhere fixes it.", R),
 ("diverging-control-flow", "rank 0: in finish()'s gather (it broke out of the loop); ranks 1-3: grad allreduce in backward. should_stop reduces to dst=0 so only rank 0 knows to stop. all_reduce the flag instead.", R),
 ("diverging-control-flow", "ranks 1-3 stopped early and wait in finish; rank 0 continues training in the gradient all-reduce. fix: broadcast the flag.", W),
 ("crashed-rank", "root cause rank 0, CUDA OOM in forward — it accumulates logits in a python list every step for accuracy. 1-3 were fine, just waiting in the grad allreduce when it died. Store argmax/counts only.", R),
 ("uneven-batches", "r0 has one extra batch (shard 0 got one more doc): it's in the grad all_reduce of that extra step while r1-r3 are already in the final gather in finish. equalise the number of batches (drop_last / min over ranks) or use DDP join.", R),
 ("long-batch", "r1: OOM in forward at step 4, a 600-token doc made its padded batch huge. r0/r2/r3: blocked in grad all_reduce. Cap length at max_len.", R),
 ("long-batch", "rank 1 OOMed because its GPU has less memory than the others; swap the GPU.", W),
 ("checkpoint-rank0", "r0 -> all_gather in data_positions (save_checkpoint, rank-0 only), r1..r3 -> grad all-reduce next step. collective in a rank-0 branch. Move the gather out of the if.", R),
 ("eval-rank0", "r0 stuck in evaluate()'s all_reduce on the eval group, r1-3 in the gradient all-reduce of the next step. evaluate() is only called on rank 0 but contains a collective. Every rank must call evaluate(); only log on rank 0.", R),
 ("exposed-comm", "Comm-bound. ~40% of each step is all-reduce after backward, nothing overlaps it. Overlap it with backward via bucketed DDP.", R),
 ("exposed-comm", "Communication: NCCL is slow here, so use a bigger batch to hide it; the all-reduce itself is fine.", W),
 ("launch-bound", "It's CPU/launch overhead: thousands of tiny kernels (~10 µs), GPU idle between them, plus .item() syncs. Batch the work into fewer, bigger ops.", R),
 ("launch-bound", "Data loading: each step waits for the batch. Add more dataloader workers.", W),
 ("slow-dataloader", "input pipeline: ~2/3 of every step is spent before the first op, waiting on the loader, which re-runs a pure-Python BPE on each doc every step. Pre-tokenize once.", R),
 ("slow-dataloader", "compute: the model is too big, the forward dominates. use a smaller model.", W),
 ("straggler", "One slow rank: rank 1's compute per step is longer (it gets the long documents: the shares are cut contiguously from a length-sorted list), rank 0 idles in all_reduce. Balance tokens per rank.", R),
 ("kernel-fusion", "Memory-bandwidth bound elementwise chain: 3 separate kernels = 3 round trips to HBM. Fuse (torch.compile / a single kernel) -> one read, one write, ~3x.", R),
 ("cuda-graphs", "Launch overhead dominates: kernels finish faster than the CPU can enqueue them. CUDA graphs record the sequence once and replay it with a single launch (static shapes/addresses required).", R),
 ("cuda-graphs", "The kernels are memory-bound; CUDA graphs fuse them into one kernel so there is less HBM traffic.", W),
 ("fp8-matmul", "Forward: E4M3 (more mantissa, precision). Backward grads: E5M2 (more exponent, range). Scale each tensor by its amax.", R),
]

# the rubric's words avoided: synonyms and paraphrases, in both languages
PARAPHRASED = [
 ("checkpoint-rank0", "Rank 0 is parked in an all_gather that lives inside save_checkpoint; the rest of the ranks have moved on and are blocked in DDP's allreduce during backward. The gather is guarded by rank == 0, so the other three never post it and it can't complete. Have every rank take part in the gather and only rank 0 write to disk.", R),
 ("checkpoint-rank0", "0号停在 save_checkpoint 的 all_gather，其余三个 rank 已经跑到下一步，在反向传播的梯度 all-reduce 里等。因为这个 gather 写在 if rank == 0 里，别的 rank 根本不会参与。应该让所有 rank 一起做 gather，只有0号负责落盘。", R),
 ("collective-order", "Rank 0 is blocked in broadcast, ranks 1–3 in all_gather. The two code paths issue the same two collectives in swapped sequence, and since collectives are matched positionally, rank 0's broadcast lines up with everyone else's all_gather. Reorder so all ranks gather and then broadcast.", R),
 ("crashed-rank", "Rank 0 blew up first with CUDA out of memory during the forward; ranks 1-3 were sitting in the gradient all-reduce and only errored because their peer disappeared. The leak: rank 0 stashes each step's logits for accuracy, so its memory climbs every step. Only keep the tallies.", R),
 ("crashed-rank", "0号先OOM（forward里），1-3号是被连带挂掉的，它们当时在梯度all-reduce里等。0号每步都把logits攒起来算accuracy，显存越用越多。只保留计数就好。", R),
 ("diverging-control-flow", "Rank 0 bailed out of the loop and waits in the gather in finish(); ranks 1-3 are still training and block in the grad all-reduce. Only rank 0 learns it should stop, since the stop decision is reduced onto rank 0 rather than shared. Make it an all_reduce with max so every rank sees the same decision.", R),
 ("diverging-control-flow", "0号提前退出了训练循环，在 finish 里的 gather 上等；1到3号还在训练，卡在 backward 的梯度 all_reduce。停止标志是 reduce 到 0号的，只有0号知道要停。改成 all_reduce(MAX)，所有 rank 同时停。", R),
 ("uneven-batches", "rank 0 has one batch more than the others (its shard is one document longer), so it's alone in an extra step's gradient all-reduce while ranks 1-3 already left the loop and sit in finish()'s gather. Make the batch count identical across ranks, e.g. drop the remainder, or use Join.", R),
 ("uneven-batches", "0号比别人多一个 batch，所以多跑了一步，停在那一步的梯度 all_reduce；1到3号数据已经用完，退出循环，在 finish 的 gather 里等。让每个 rank 的 batch 数相同就行（drop_last 或 DDP Join）。", R),
 ("long-batch", "Rank 1 ran out of memory at step 4: one 600-token document in its batch forced padding to 600, blowing up activation memory. The other ranks are stuck in the gradient all-reduce. Clamp every document at max_len before batching.", R),
 ("long-batch", "1号第4步显存爆了：batch里有一篇600 token的文档，pad之后激活太大。其余rank卡在梯度all_reduce。在组batch之前把文档截到max_len。", R),
 ("pp-sendrecv", "Ranks 0 and 1 are both blocked in recv inside sync_tied_embedding (line 109). Each side posts a blocking receive before its send, so neither send is ever reached. This code only runs once the embedding unfreezes (step 4), which is why earlier steps work. Fix: let one side send first, or use batch_isend_irecv.", R),
 ("pp-sendrecv", "两个rank都卡在 sync_tied_embedding 第109行的 recv：双方都先收后发，谁都发不出去。这段只在 embedding 解冻之后才执行，所以前几步没事。修复：一方先发，另一方先收，或者用 batch_isend_irecv。", R),
 ("exposed-comm", "The bottleneck is communication. In the trace the gradient all-reduce sits after backward on its own, around 40% of the step, with no compute alongside. Fix: let DDP's bucketed all-reduce start during backward so it overlaps.", R),
 ("exposed-comm", "瓶颈是通信：trace 里 backward 结束后才做梯度 all-reduce，大约占 step 的 40%，旁边没有计算。修复：让 DDP 分桶，在 backward 过程中就开始 all-reduce，与计算重叠。", R),
 ("exposed-comm", "Compute: backward is slow, the all-reduce overlaps fine. Use a bigger GPU.", W),
 ("launch-bound", "Category: compute, but not FLOPs — overhead. Each step dispatches ~2000 tiny ops of ~10 µs, so launch cost dominates, plus a .item() sync per micro-batch stalls the CPU. Fix: fewer, larger ops: bigger micro-batches, nn.LayerNorm instead of the hand-written one, keep losses on device.", R),
 ("launch-bound", "计算类，但瓶颈是 kernel launch：每步两千来个十微秒的小算子，另外每个 micro-batch 都有一次 .item() 同步。修复：合并成更少更大的算子，micro-batch 调大，用 nn.LayerNorm。", R),
 ("slow-dataloader", "Data loading: the step starts with a long idle gap (about two thirds of it) before the first op, and with synthetic data the step shrinks to just compute. The loader tokenizes every document with a pure-Python BPE on each step. Fix: tokenize once ahead of training and slice the cached ids.", R),
 ("slow-dataloader", "数据加载：每一步开始前都有一大段空闲（约2/3），换成合成数据后 step 只剩计算时间。loader 每一步都用纯 Python BPE 给文档分词。修复：训练前先分好词，之后只切片。", R),
 ("slow-dataloader", "Communication: the gradient all-reduce is exposed. Overlap it with backward.", W),
 ("straggler", "Straggler: rank 1 is the slow one; each step it computes longer while rank 0 idles in the all-reduce waiting. The shares are contiguous slices of a length-sorted list, so rank 1 gets the longest documents. Fix: balance the shares by token count.", R),
 # "computing" said of a rank is what it does, not the compute category
 ("straggler", "Balance the shares by tokens, not documents. The shares are contiguous cuts of a length-sorted batch, so rank 1 gets the long documents: its trace shows it computing much longer every step while rank 0 idles in the all-reduce. Category: straggler.", R),
 ("straggler", "慢 rank：1号每步算得更久，0号在 all_reduce 里空等。数据按长度排好后连续切给各 rank，1号分到的都是长文档。修复：按 token 数均分。", R),
 ("kernel-fusion", "Memory-bound: the chain of elementwise ops each makes a full pass over HBM. One fused kernel reads the input once and writes the output once, roughly a third of the bytes, so about 3x.", R),
 ("kernel-fusion", "访存受限：三个逐元素 kernel 各自把整个张量读写一遍 HBM；融合成一个 kernel 只读一次写一次，流量约为三分之一，快约 3 倍。", R),
 ("cuda-graphs", "CPU launch overhead: the kernels are so small that the GPU finishes each before the CPU issues the next. Capture the loop in a CUDA graph and replay it: one launch for the whole sequence. Needs static shapes and memory.", R),
 ("cuda-graphs", "launch 开销：kernel 太小，GPU 算完一个 CPU 还没发下一个。用 CUDA graph 把整个循环录下来重放，一次 launch 跑完，要求形状和地址固定。", R),
 ("fp8-matmul", "Use E4M3 (3 mantissa bits) for weights and activations in the forward for precision, E5M2 (5 exponent bits) for the gradients in the backward for dynamic range, each tensor scaled by its amax.", R),
 ("fp8-matmul", "前向的权重和激活用 E4M3（精度更高），反向的梯度用 E5M2（范围更大），每个张量按 amax 缩放。", R),
 ("fp8-matmul", "E4M3 everywhere, including the gradients; no scaling needed.", W),
 ("eval-rank0", "Rank 0 waits in the all_reduce inside evaluate(); the other ranks have gone into the next step and wait in the gradient all-reduce. The evaluation is done by rank 0 alone but it contains a collective for all ranks. Let all ranks run evaluate (each on its share) and print only on rank 0.", R),
 ("eval-rank0", "0号卡在 evaluate() 里的 all_reduce，其他 rank 已经进了下一步，在梯度 all-reduce 里等。evaluate 只在0号上跑，但里面有所有 rank 都要参加的集合通信。修复：所有 rank 都跑 evaluate，只在0号打印。", R),
 ("timeout-at-item", "Looks like .item() hangs, but .item() just waits on an async all-reduce issued earlier. Rank 1 had a too-long document at step 1 so Metrics.add did an extra cut all-reduce only on rank 1; afterwards its metrics collectives are one off from everyone else's. Always do a single all-reduce of [loss, tokens, cut] on every rank at each log.", R),
 ("gather-sizes", "Rank 2 was killed by SIGABRT inside gloo during the all_gather in gather_losses ('Received data size doesn't match'); the others fail after. The ranks scored different numbers of documents, but all_gather assumes equal sizes. Fix: all_gather the counts, pad everyone's losses to the max, gather, then cut each back.", R),
 ("stalled-loader", "Rank 1 is not in any collective: its main thread waits in next() on the DataLoader, whose worker processes are stuck on TokenCache's lock. Rank 0 waits in the gradient all-reduce. The workers were forked while the background save held the lock, so each child has a locked copy that nobody will ever release. Fix: hold the lock only to copy the cache and write the copy outside it.", R),
 ("exit-hang", "Every rank finished training, but rank 1's process stays alive: the non-daemon 'checkpoint-uploader' thread blocks in queue.get() forever, and the interpreter joins it at exit. Only the except path calls close(), which sends the None sentinel. Fix: close the uploader in a finally block.", R),
 ("group-order", "All four ranks sit in the all_reduce in average_gradients, but rank 1 is on a different process group (pg 2) from the others (pg 1): rank 1 creates its metrics group before the grads group, and group ids follow creation order. Fix: create the groups in the same order on every rank.", R),
]

# perf labs told as a walk through the trace, the category said last
PERF_NARRATED = [
 ("exposed-comm", "I opened the two ranks' traces. The summary says roughly 40% of the step is communication that doesn't overlap anything, and in Perfetto the gloo all_reduce slices come one after another once backward is done, while the main thread just waits. Running with one rank the step is far shorter. So it's communication. The cause is that the code loops over model.parameters() after loss.backward() and calls dist.all_reduce on each gradient synchronously, 53 tiny collectives, each paying full latency. Wrapping the model in DistributedDataParallel buckets the gradients and launches each bucket's all-reduce asynchronously as backward produces it, so communication hides under the remaining backward — same gradients, same results.", R),
 ("exposed-comm", "分类：通信。证据：trace 汇总里大约 40% 的时间是没有被计算掩盖的通信，Perfetto 里 backward 结束后 gloo 的 all_reduce 一个接一个，主线程在等；单卡跑时 step 快很多。原因：backward 之后对每个参数单独同步 all_reduce，53 次，每次都付延迟。修复：换成 DDP，梯度分桶，backward 还在算的时候就异步发 all_reduce，结果不变。", R),
 ("exposed-comm", "It's communication, but the fix is to all-reduce less often: only sync gradients every 4 steps.", W),
 ("launch-bound", "Looking at the trace summary: ~2,000 ops per step, median ~12 µs each, and most of the step attributed to launch overhead; 16 .item() host syncs per step; MFU a few percent. That's the compute category, specifically launch-bound — the GPU (here CPU) spends its time on fixed per-op costs, not math. Cause: the step runs sixteen micro-batches of one sequence each, and the LayerNorm is hand-written as eight elementwise ops, so every op is tiny; plus a .item() per micro-batch stalls the host. Fix without changing results: one micro-batch of all sixteen sequences (mean loss is the same), nn.LayerNorm instead of the handwritten one, accumulate the loss on device and read it once at the end.", R),
 ("launch-bound", "类别：计算（launch-bound）。trace 里每步大约 2000 个算子，中位数十几微秒，大部分时间是 launch 开销；每步 16 次 .item() 同步。原因：16 个只有一条序列的 micro-batch，加上手写的 8 个逐元素算子组成的 LayerNorm。修复：把 16 条序列合成一个 micro-batch（平均 loss 不变），用 nn.LayerNorm，loss 留在设备上最后再读。", R),
 ("launch-bound", "compute-bound: the matmuls are too big for the device. Fix: run only 8 of the 16 micro-batches per step and scale the loss by 2.", W),
 ("slow-dataloader", "The trace summary has about two thirds of every step before the first op; in Perfetto the main thread does nothing at the beginning of each step. With --synthetic the step shrinks to just the compute. Category: data loading. Cause: the loader runs a pure-Python BPE on each full document every step just to cut one window. Fix: tokenize all documents once before training and slice the stored token ids; results are identical. On GPU, DataLoader workers with prefetch would also hide it.", R),
 ("slow-dataloader", "类别：数据加载。trace 里每步前 2/3 都是空的，第一个算子之前主线程什么都没干；用 synthetic 数据之后 step 只剩计算。原因：每一步都用纯 Python 的 BPE 把整篇文档重新分词，只为切一个窗口。修复：训练前一次性分好词，存下 token id，之后直接切片，结果不变。", R),
 ("slow-dataloader", "Data loading. Fix: cache the batches by skipping tokenization of long documents (just drop them).", W),
 ("straggler", "Per-rank traces side by side: rank 1 computes noticeably longer in every step, and rank 0 sits idle in the gradient all-reduce waiting for it — always the same rank. That's a straggler, load imbalance. The global batch is sorted by length and cut into contiguous shares, so the last rank always gets the long 1024-token documents and pads its other rows up to them. Fix: assign documents by token count (greedy longest-first to the least-loaded rank) and normalise the loss by global tokens so the math is unchanged.", R),
 ("straggler", "It's a straggler: rank 1 is slower. Fix: give rank 1 a faster GPU.", W),
 ("kernel-fusion", "Memory-bound elementwise chain. Each of the three ops launches its own kernel that reads the full tensor from memory and writes it back, so bytes moved are ~3x what's needed, and time is bytes / bandwidth. A fused kernel (torch.compile or a hand-written one) reads x once and writes the result once: ~1/3 of the traffic, ~3x faster, same result.", R),
 ("kernel-fusion", "It's compute-bound, fusion gives ~3x because it does a third of the FLOPs.", W),
 ("cuda-graphs", "Launch-bound: each kernel is a few microseconds of GPU work, shorter than the CPU time to launch it, so the GPU waits for the CPU between kernels. With a CUDA graph, the whole sequence is captured once and replayed with one launch, so the kernels run back to back. Requirement: static shapes and the same buffers (copy inputs into the captured tensors).", R),
 ("fp8-matmul", "In the forward, weights and activations go in E4M3: it has 3 mantissa bits, more precision, and forward values have a moderate range. Gradients go in E5M2: 5 exponent bits, more dynamic range, since gradients span many orders of magnitude. Each tensor gets a per-tensor scale from its amax so its values use the format's range.", R),
]

# what the s32 round-2 helpers found the rank reading refuse (their other cases are in test_diagnosis_round2_*.py)
HELPERS_FOUND = [
 ("checkpoint-rank0", "rank0 all_gather @ save_checkpoint/data_positions; others waiting in backward (grad AR). all_gather is guarded by rank==0 -> ranks 1..3 never join. fix: gather on all ranks, write on rank 0.", R),
 ("long-batch", "rank 1 OOM'd at step 4 (others: grad allreduce). its batch had a 600-token doc padded to 600. fix: truncate docs to max_len.", R),
 ("eval-rank0", "rank 0 waits in the all_reduce inside evaluate; the others are in the gradient all-reduce of the next step. evaluate is gated behind a rank-zero check, but it holds a collective. Fix: call evaluate on every rank, log only on rank 0.", R),
 ("busy-rank", "r1: active in pieces(). r0: grad all_reduce end of backward. A table longer than the context: no sentence end fits, start never moves. Fix: cut at start + max_len when nothing fits.", R),
 ("stalled-loader", "The writer rank (1) is stuck outside any collective: its main thread waits in next() on the DataLoader, whose workers block on the TokenCache lock; rank 0 waits in the gradient all-reduce. The workers were forked while the background save held the lock. Fix: copy under the lock, write outside it.", R),
 ("diverging-control-flow", "rank 0 在最后的 gather 里等，1-3 号在 backward 的 all_reduce 里。should_stop 用 reduce 只把结果给了 0 号，所以只有 0 号退出。修复：改成 all_reduce(MAX)。", R),
 # a condition with no comma before its imperative: its "no" does not reach the cut
 ("busy-rank", "Rank 1 spins in pieces() (py-spy active), rank 0 waits in the gradient all-reduce. A table longer than the 24-token context has no sentence end in the window, so end falls back to start and start never moves. fix: if no sentence end fits cut at start+max_len", R),
 ("busy-rank", "Rank 1 spins in pieces() (py-spy active), rank 0 waits in the gradient all-reduce. A table longer than the 24-token context has no sentence end in the window, so end falls back to start and start never moves. fix: do not cut at start+max_len", W),
 # a fix that echoes the cause ("so every rank has the same number") says nothing of the run
 ("uneven-batches", "Rank 0 is in the gradient all-reduce of an extra step; ranks 1-3 ran out of batches and wait in the gather in finish. Shard 0 holds one more document. fix: drop the remainder so every rank has the same number of batches", R),
 ("uneven-batches", "Rank 0 is in the gradient all-reduce of an extra step; ranks 1-3 ran out of batches and wait in the gather in finish. Every rank has the same number of batches. Fix: drop the remainder.", W),
 # where the fix applies, cut off by a comma
 ("timeout-at-item", "Not the .item(): it only reads the result of an earlier async all-reduce. Rank 1's batch held a document over the context at step 1, so Metrics.add issued the cut all-reduce on the metrics group on rank 1 only; from then on its metrics collectives are one off. Fix: accumulate loss, tokens and cut locally and do one all_reduce of all three at each log, on every rank.", R),
 # and their near misses: the others put in the gather, rank 0 in backward
 ("checkpoint-rank0", "rank0 waits in backward's grad all-reduce -> ranks 1..3 wait in the all_gather in save_checkpoint.", W),
 ("long-batch", "rank 1 waits in the grad allreduce (others: OOM at step 4).", W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CASES + TERSE + PARAPHRASED + PERF_NARRATED + HELPERS_FOUND)
def test_hand_written_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right


@pytest.mark.parametrize(("clause", "ranks"), [
    # bare rank numbers that open a clause, after an earlier one named a rank
    ("1,2,3 are in backward of the next step", {1, 2, 3}),
    ("1-3 ran out of data and wait in the gather", {1, 2, 3}),
    ("and 2, 3 wait in the all_reduce", {2, 3}),
    # one number counts ranks; a number with a unit or past the world is no rank
    ("3 are stuck in the all_reduce", None),
    ("1-2 seconds later it times out", None),
    ("4-7 are in backward", None),
])
def test_bare_rank_numbers_at_the_start_of_a_clause(clause, ranks):
    assert named_ranks(clause, 4) == ranks
    assert subject_ranks(clause, 4) == ranks


@pytest.mark.parametrize(("answer", "placed"), [
    # each rank of the pair placed on its own, then both: the parts are the set, not the wrong set
    ("rank 0: blocked in recv. rank 1: blocked in recv. Both call recv before send.", True),
    # one part placed, then only the order said of both: rank 1 is never said to be stuck
    # (tests/grading/test_claims_reading.py::test_ranks_named_after_a_chinese_character)
    ("rank 0: blocked in recv. Both call recv before send.", False),
    # a part alone is the wrong set; a part put in another call too
    ("rank 0 is blocked in recv.", False),
    ("rank 0 is blocked in recv, rank 1 in send", False),
])
def test_a_part_of_the_pair_then_the_pair(answer, placed):
    assert item(diagnose("pp-sendrecv", answer), "ranks")["ok"] is placed


@pytest.mark.parametrize(("answer", "placed"), [
    # a failure that follows the culprit's puts the others nowhere new
    ("0号先OOM，1-3号是被连带挂掉的，它们当时在梯度all-reduce里等。", True),
    ("Rank 0 OOMed first; ranks 1-3 were waiting in the gradient all-reduce and got torn down.", True),
    # ... but the others said to fail first is the wrong culprit
    ("1-3号先挂了，0号在梯度all-reduce里等", False),
    ("ranks 1-3 were killed first; rank 0 waited in the all-reduce", False),
])
def test_a_failure_that_follows_the_culprits(answer, placed):
    assert item(diagnose("crashed-rank", answer), "ranks")["ok"] is placed


@pytest.mark.parametrize(("answer", "right"), [
    # the labelled category decides, whatever the evidence before it calls what is left
    ("With synthetic data the step shrinks to just the compute. Category: data loading.", True),
    ("Each step idles at its start; with synthetic data the step drops to the compute. Category: compute.", False),
    # two categories as the answer are not one
    ("data loading and communication", False),
    ("It's data loading or communication.", False),
    ("Category: data loading, also compute.", False),
    # another category in a longer clause is detail
    ("Data loading: each step idles before its first op, while the all-reduce communication is tiny.", True),
])
def test_exactly_one_category(answer, right):
    assert item(diagnose("slow-dataloader", answer), "category")["ok"] is right


@pytest.mark.parametrize(("clause", "ranks"), [
    # ranks as torchrun's report and the code write them
    ("local_rank: 1 (pid 77) failed first", {1}),
    ("local_rank 1-3 were waiting", {1, 2, 3}),
    ("the process with rank=1 died", {1}),
    ("rank_1 died", {1}),
    # not a compound adjective: "a rank-0 branch"
    ("a rank-0 branch holds the gather", None),
    ("proc 2 aborted", {2}),
])
def test_ranks_as_torchrun_and_code_write_them(clause, ranks):
    assert named_ranks(clause, 4) == ranks


@pytest.mark.parametrize(("text", "folded"), [
    ("ranks 1, 2 and 3 skip it", "ranks 1 3 skip it"),
    ("rank 1,2,3", "rank 1 3"),
    ("ranks 1 through 3", "ranks 1 3"),
    ("1到3号不调用", "rank 1 3 不调用"),
    # not a run: the list stays as it is
    ("ranks 0, 2 and 3 wait", "ranks 0 2 and 3 wait"),
    ("rank 1 and 2", "rank 1 and 2"),
])
def test_a_run_of_ranks_reads_as_its_ends(text, folded):
    assert fold(text) == folded
