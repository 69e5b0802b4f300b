"""Lab diagnoses written by hand, round 6 (s35 df6b, 2026-12-03; none from the labelled benchmark):
the why, fix and formats parts in the patterns the fresh batches used, each on several labs, and
their near misses. The patterns: the fix's outcome said as a run ("with running totals ..., memory
stays flat"), a cue that is the claim's own word said twice ("skips ... skips a different number"),
Python's None beside a negation reader ("放None的close()"), the forward's two operands with 都,
the padding with the document as its object, the two calls that cannot pair, each branch's
direction, a line number in brackets before "then", the others' denial said elliptically, the
condition said as a dependence, a line of code in backticks, the run's own swap described; and
wrong fixes beside the right cause (a longer timeout, the swap on one rank, loading in the main
process, a daemon thread, a barrier). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

CRASHED = "Rank 0 failed first; ranks 1-3 were waiting in the gradient all-reduce."
CRASHED_ZH = "rank 0 最先失败；rank 1-3 当时停在梯度 all-reduce 里。"
LONG = "Rank 1 ran out of memory in the forward pass of step 4; ranks 0, 2 and 3 were waiting in that step's gradient all-reduce."
ORDER = "Rank 0 waits in broadcast in sync_schedule (train.py:55); ranks 1-3 wait in all_gather in gather_tokens (train.py:46)."
ORDER_ZH = "0号在 broadcast 里等，1-3号在 all_gather 里等。"
ITEM = ("Not at .item(): that line only waits. Rank 1 issued an extra all_reduce of its cut tokens in Metrics.add on the "
        "metrics group; at the next log the others' stats all_reduce paired with it and every rank waited at .item() until the timeout.")
GROUPS = ("Every rank waits in the gradient all_reduce in average_gradients, but on rank 1, the logging rank, grads is process "
          "group 2 and on the others it is process group 1.")
EXIT = ("Ranks 0 exited with code 0; rank 1's main thread waits at interpreter exit to join its non-daemon thread "
        "checkpoint-uploader, which waits in queue.get() for its next item.")
LOADER = ("Rank 1's main thread waits in its DataLoader for the next batch, outside any collective; its two workers wait in "
          "TokenCache.encode for the lock. Rank 0 waits in DDP's gradient all-reduce in backward.")
CHECKPOINT = ("Rank 0 waits in an all_gather inside save_checkpoint (data_positions); ranks 1-3 have gone on to the next step "
              "and wait in DDP's gradient all-reduce during backward.")
GATHER = "The rank in torchrun's root cause died of SIGABRT with gloo's size mismatch; the other ranks then failed in the same all_gather."
SENDRECV = "Rank 0 and rank 1 both wait in dist.recv from each other in sync_tied_embedding; neither has sent."
EVAL = ("rank 0 waits in the all_reduce inside evaluate() on the evaluation group; ranks 1-3 went on to the next step and "
        "wait in its gradient all-reduce in backward.")
DIVERGING = ("Rank 0 stopped and waits in the end-of-training all_gather in finish; ranks 1-3 went on to backward and wait "
             "in the gradient all-reduce.")

CASES = [
 # the fixed run said as what the fix brings is no claim about this run
 ('crashed-rank', f"{CRASHED} Only rank 0 keeps each step's logits, and they pin their activations, so its memory keeps growing until the forward OOMs. With two running counters instead, the memory stays flat.", R),
 ('crashed-rank', f"{CRASHED_ZH}只有 0 号在攒每一步的 logits，显存越积越多，最后 forward 分配不出来，OOM。改完之后显存是平的。", R),
 ('crashed-rank', f"{CRASHED} Rank 0's memory stays flat the whole run; the OOM is a one-off spike from the argmax at step 5.", W),
 ('crashed-rank', f"{CRASHED} Rank 0 keeps every step's logits, so its memory grows until the forward OOMs. Fix: give rank 0 more device memory than the others.", W),
 # the growth in the past tense; the failed allocation named by its pass
 ('crashed-rank', f"{CRASHED} Its memory climbed by one step's activations per step: the logits it appended for the accuracy were never freed, since each still references its graph. Fix: detach and keep only counts.", R),
 ('crashed-rank', f"{CRASHED} Story: steps 0-4 fine; by step 5 rank 0 held five steps of graphs through predictions and the forward couldn't allocate 0.02 MiB more. The other ranks keep nothing. Fix: running counters.", R),
 # a cue that is the claim's own word, said twice
 ('gather-sizes', f"{GATHER} my_documents skips documents under 10 tokens, and it skips a different number on each rank, so all_gather gets tensors of different sizes. Fix: use all_gather_object.", R),
 ('gather-sizes', f"{GATHER} The ranks scored different numbers of documents, so the tensors have different sizes. Fix: truncate every rank's losses to the smallest count.", W),
 # the forward's two operands with 都
 ('fp8-matmul', "forward：X和W都用E4M3，精度高，最大448；反向的梯度dY用E5M2，范围大。原因：E4M3尾数多，E5M2指数位多，每个tensor先按amax缩放再cast。", R),
 ('fp8-matmul', "前向反向都用 E4M3，精度高；每个 tensor 按 amax 缩放。", W),
 # the padding with the document as its object
 ('long-batch', f"{LONG} Document 70 is 600 tokens and make_batch pads the batch to it. Fix: clip each document at cfg.max_len so no batch is longer than the context.", R),
 ('long-batch', f"{LONG} Rank 1's share at step 4 contained the 600-token document. Fix: filter out documents longer than max_len in the loader.", W),
 # the two calls that cannot pair; each branch's direction
 ('collective-order', f"{ORDER} A broadcast and an all_gather can't pair, so neither finishes. Fix: gather first on every rank, then broadcast.", R),
 ('collective-order', f"{ORDER} The broadcast on rank 0 meets the others' all_gather: different collectives at the same position never pair. Fix: same order everywhere, gather first then broadcast.", R),
 ('collective-order', f"{ORDER} In the code, the if-branch does broadcast then gather_tokens, and the else branch does gather_tokens then broadcast. Put the gather first on every rank, then broadcast.", R),
 ('collective-order', f"{ORDER} In sync_schedule the `if ctx.rank == 0:` branch does broadcast (line 55) then gather_tokens (line 56), and the else branch does gather_tokens (line 58) then broadcast (line 59). Fix: gather first on every rank, then broadcast.", R),
 ('collective-order', f"{ORDER_ZH}broadcast 和 all_gather 对不上，谁都完成不了。修法：所有 rank 都先 gather 再 broadcast。", R),
 ('collective-order', f"{ORDER} A broadcast and an all_gather can't pair, so neither finishes. Fix: raise the process-group timeout.", W),
 ('collective-order', f"{ORDER} Both branches call gather first and broadcast second. Fix: gather first on every rank, then broadcast.", W),
 # the others' denial elliptic, "start nothing", the condition as a dependence, terse
 ('timeout-at-item', f"{ITEM} Why: the cut all_reduce is under if cut, a rank-local fact; ranks 0, 2, 3 didn't. Fix: local sums, and one all_reduce of [loss, tokens, cut] on every rank at every log.", R),
 ('timeout-at-item', f"{ITEM} The other three ranks cut nothing and start nothing. Fix: every rank issues the same collective at every log.", R),
 ('timeout-at-item', f"{ITEM} Whether to send the cut count depended on rank 1's own batch, so the metrics group saw one collective more from rank 1 than from anyone else. Fix: add the cut tokens to a local counter and reduce loss, tokens and cut as one tensor on all ranks whenever we log.", R),
 ('timeout-at-item', f"{ITEM} - cause: rank-conditional collective (if cut: all_reduce) - fix: unconditional, same all_reduce everywhere each log", R),
 ('timeout-at-item', f"{ITEM} 根因：cut 的 all_reduce 写在 if cut 里面，别的 rank 没有这个调用。修复：cut 只在本地累加，每次 log 时每个 rank 都发同一个 all_reduce。", R),
 ('timeout-at-item', f"{ITEM} The cut all_reduce is issued only by the rank that cut tokens. Fix: raise the metrics group's timeout to 60 s.", W),
 ('timeout-at-item', f"{ITEM} The cut all_reduce fires only on a rank that truncated something. Fix: wait on the cut all_reduce right away in Metrics.add with .wait().", W),
 # the run's own swap described; the swap done on one rank is the wrong fix
 ('group-order', f"{GROUPS} The names were swapped relative to ranks 0, 2 and 3 because rank 1 created the metrics group before the gradient group. Fix: every rank creates grads then metrics, before the writer, which is handed the group.", R),
 ('group-order', f"{GROUPS} 原因：rank 1 的 MetricsWriter 先创建了 metrics group，new_group 顺序不一样，名字就对调了。修法：所有 rank 按同一个顺序创建两个 group，再把 metrics group 传给 writer。", R),
 ('group-order', f"{GROUPS} On rank 1 MetricsWriter creates the metrics group first. Fix: on rank 1 only, swap the two groups back.", W),
 ('group-order', f"{GROUPS} 原因：rank 1 的 MetricsWriter 先创建了 metrics group。修法：在 rank 1 上把两个 group 换回来。", W),
 ('group-order', f"{GROUPS} Rank 1 creates its groups in the same order as the others; the gloo backend just names them randomly. Fix: create the groups in one order on every rank.", W),
 # Python's None
 ('exit-hang', f"{EXIT} The thread returns only when it gets None, and close(), which puts None on the queue, is only called from the except branch. Fix: close the uploader in a finally.", R),
 ('exit-hang', f"{EXIT} 线程只有收到 None 才退出，放 None 的 close() 只在 except 里调用。修法：在 finally 里调用 uploader.close()。", R),
 ('exit-hang', f"{EXIT} The thread returns only when it gets None, and close() is only called from the except branch. Fix: make the uploader thread a daemon.", W),
 ('exit-hang', f"{EXIT} close() is only called from the except branch. Fix: call uploader.thread.join() at the end of main.", W),
 # the main process named as where the lock is taken; loading there is the wrong fix
 ('stalled-loader', f"{LOADER} At the end of epoch 0 save_in_background acquires cache.lock in the main process and leaves the release to the writer thread; the next epoch's workers were forked while it was held, and a forked worker inherits the locked lock without the thread. Fix: copy the cache under the lock, release it, and write the copy in the background.", R),
 ('stalled-loader', f"{LOADER} The workers were forked while the lock was held. Fix: num_workers=0, load in the main process.", W),
 # the others never reaching the collective, said with other verbs
 ('checkpoint-rank0', f"{CHECKPOINT} 原因：all_gather 在 if ctx.rank == 0 里面，其他 rank 根本进不去。修法：所有 rank 都调用 data_positions，只有 rank 0 写文件。", R),
 ('checkpoint-rank0', f"{CHECKPOINT} What I saw: four ranks enter save_checkpoint, one comes out into data_positions. The rank check sits above the gather, so the collective has a single caller. Fix: collect positions everywhere, save on rank 0.", R),
 ('checkpoint-rank0', f"{CHECKPOINT} The gather was waiting for three ranks that had skipped the whole body of save_checkpoint. Fix: move data_positions out of the if.", R),
 ('checkpoint-rank0', f"{CHECKPOINT} The all_gather is under the rank-0 branch. Fix: raise the timeout to an hour.", W),
 # a longer timeout beside the right cause
 ('pp-sendrecv', f"{SENDRECV} 原因：两边都先 recv 再 send，互相等对方的 send。修法：一边先 send 一边先 recv，或者用 batch_isend_irecv。", R),
 ('pp-sendrecv', f"{SENDRECV} Both stages call recv before send. Fix: raise the gloo timeout.", W),
 ('pp-sendrecv', f"{SENDRECV} Rank 0 sends first and rank 1 receives first, which pairs fine; gloo is just slow. Fix: batch_isend_irecv.", W),
 # the guard said by its verb, the fix terse; a barrier is no fix
 ('eval-rank0', f"{EVAL} Cause: evaluate() is gated on rank 0, and it holds an all_reduce. Fix: call on all ranks, log on rank 0.", R),
 ('eval-rank0', f"{EVAL} 评估函数里有集合通信，却只在 rank 0 上被调用。修法：所有 rank 都调 evaluate()，打印留在 rank 0。", R),
 ('eval-rank0', f"{EVAL} Cause: evaluate() is gated on rank 0, and it holds an all_reduce. Fix: call the barrier on all ranks before evaluate.", W),
 ('diverging-control-flow', f"{DIVERGING} terse: reduce(dst=0) -> only r0 sees bad=1 -> r0 breaks, r1-3 continue. fix: all_reduce MAX.", R),
 # 回放 is the replay
 ('cuda-graphs', "瓶颈在 kernel launch：GPU 一直在等 CPU 发射 kernel，CUDA graph 一次 launch 就回放整个循环。", R),
 ('cuda-graphs', "Memory-bound: the kernels wait on HBM bandwidth.", W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CASES)
def test_round6_df6b_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
