"""Lab diagnoses written by hand, third round (s33 lother3, 2026-12-03; none from the labelled
benchmark), for gather-sizes, timeout-at-item, group-order, exit-hang, stalled-loader and busy-rank:
pronouns ("they all", "the other three", "everyone else"), relative clauses, appositives ("rank 1,
the rank that writes the metrics, ..."), the story in time order, the fix first, the evidence quoted
(py-spy lines, flight-recorder entries), ranks as "GPU 1", "worker 1", "process 1", "the first
process", "0号"/"1号卡", the call as code, stack-trace style, Chinese without spaces, mixed Chinese and
English, a second valid fix; and wrong ones (wrong culprit, every rank named, a rank put in the wrong
process group, a symptom fix such as a longer timeout, a right-sounding wrong cause). Each case:
(lab, answer, right).

Left out, beyond the reader (listed in the round's report): a wrong culprit in gather-sizes and
timeout-at-item, labs with no recorded evidence (the rubric does not know the ranks); "the others"
said only as an object ("worker 1 waits in a different group from everyone else").
"""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose
from tests.grading.labelled.cases import evidence
from tutor.grading.claims.clauses import read
from tutor.grading.claims.matching import polarity
from tutor.labs.process_groups import misplaced_in_group
from tutor.labs.rank_mentions import named_ranks, rest_as_every_rank
from tutor.grading.claims.rank_words import numbers_as_digits

R, W = True, False

GATHER_SIZES = [
 ('gather-sizes', "Fix first: all_gather the per-rank counts, pad each rank's losses to the largest count, all_gather the padded tensors, then keep each rank's own count. Why: rank 2, the one torchrun blames, died of SIGABRT inside gloo with no traceback, because the ranks hand all_gather tensors of different sizes; each skips a different number of short documents.", R),
 ('gather-sizes', "It was rank 2 that went first: it got SIGABRT, exit code -6, in gloo's background thread. The other three then saw Connection reset by peer. They all scored a different number of documents, since the short ones are skipped, so the tensors they pass to dist.all_gather(parts, mine) are of different sizes. Fix: exchange the counts, pad to the max, gather, trim.", R),
 ('gather-sizes', "First rank 2 prints 'scored 7 documents' while rank 1 prints 'scored 10', a different number of documents since the short ones are skipped; then all four enter the all_gather in gather_losses with tensors of different lengths; then gloo's enforce fails on rank 2 and it is aborted (SIGABRT); then everyone else gets connection reset. Fix: share the counts first, pad to the largest, all_gather, and cut each part back to its count.", R),
 ('gather-sizes', 'worker 2 was killed by signal 6 (SIGABRT) in gloo. The loss tensors have different lengths across workers because my_documents keeps only documents with at least min_tokens tokens, and that filter leaves each worker a different number of documents. Fix: pad to the max after an all_gather of the counts, then trim.', R),
 ('gather-sizes', 'rank 2, the rank torchrun names as root cause, was aborted — exitcode -6, no Python stack. The DETAIL rerun shows TensorShape=[16] on one rank and [15] on another: the sizes differ because the number of documents differs per rank once short ones are skipped. Fix: dist.all_gather_object on the python lists, which takes lists of any length.', R),
 ('gather-sizes', '2号rank被SIGABRT杀掉了没有traceback因为各rank跳过的短文档数不同所以传给all_gather的张量大小不同修复先交换数量补齐到最大再gather最后按数量截取', R),
 ('gather-sizes', 'rank 2 SIGABRT 了（exit code -6），gloo 里 abort 的。每个 rank 跳过的 short docs 不一样，文档数不同，all_gather 的 tensor shape 不一样。fix：先 all_gather counts，pad 到 max，gather 完再 trim。', R),
 ('gather-sizes', "train.py:61 in gather_losses: dist.all_gather(parts, mine) with parts = empty_like(mine), i.e. every rank assumes the others' size equals its own. But mine has as many losses as the rank scored and that number differs per rank (short documents skipped). rank 2 died of SIGABRT in gloo. Fix: gather the sizes first, pad to the longest, gather, then drop the padding.", R),
 ('gather-sizes', 'Process 2 was the first to die: aborted by gloo, signal 6, nothing in Python. The tensors given to all_gather are of different sizes, an all_gather that requires the same shape from every rank, because the processes skip different numbers of too-short documents. Fix: all_reduce(MAX) of the counts, pad every rank to that count with NaN, all_gather, drop the NaNs.', R),
 ('gather-sizes', 'rank 2 aborted (SIGABRT). they each scored a different number of documents because the short ones are skipped, so the shapes they hand to all_gather differ. Alternative fix: gather the losses to rank 0 with dist.gather_object, every rank calling it, rank 0 computing the median.', R),
 ('gather-sizes', "SIGABRT on rank 2, which received a longer message than its buffer. the sizes do not match: every rank's tensor is as long as its count of scored documents, and the counts are different since the filter drops short docs. fix: pad and gather after sharing the counts, then trim.", R),
 ('gather-sizes', '零号没死，先死的是2号，SIGABRT，没有Python报错。原因是每个rank打分的文档数不一样（太短的被跳过），all_gather收到的大小不一样。修法：先all gather数量，pad到最大，再gather，最后截掉多余的。', R),
 ('gather-sizes', 'The first process to fail was rank 2 (exit code -6, SIGABRT, inside gloo). Different number of documents per rank, since the skipped documents differ, so the all_gather inputs are of different sizes. Fix: share counts, pad every rank to the max, gather, trim each part to its count.', R),
 ('gather-sizes', "rank 2 died of a signal (SIGABRT) in gloo, no traceback; the others got 'Connection reset by peer'. why: all_gather needs equal shapes and the counts differ since short docs are skipped. fix: exchange the counts, pad to the longest, all_gather, then slice each rank's part to its count.", R),
 ('gather-sizes', 'rank 2 SIGABRT in gloo. the sizes differ between ranks because the short docs are skipped. fix: raise the gloo timeout so the gather can finish.', W),
 ('gather-sizes', 'rank 2 was aborted with SIGABRT. the all_gather sizes differ because each rank skipped a different number of short documents. fix: stop filtering short documents so every rank has the same count.', W),
 ('gather-sizes', 'rank 2 SIGABRT. they pass tensors of different dtypes to all_gather, float32 on some and float64 on others. fix: cast everything to float32.', W),
 ('gather-sizes', "rank 2 SIGABRT in gloo: different sizes in all_gather because different counts of documents (short ones skipped). fix: truncate each rank's losses to the shortest count, then all_gather.", W),
 ('gather-sizes', 'rank 2 died with SIGABRT; the sizes differ because rank 2 scored its documents with a different model. fix: broadcast the model from rank 0 before scoring.', W),
 ('gather-sizes', 'They all died of SIGABRT at once in the all_gather because gloo cannot gather float tensors. fix: use NCCL.', W),
 ('gather-sizes', 'every rank, 0 through 3, died of SIGSEGV at the same time in the all_gather; the gloo connection broke. fix: use NCCL.', W),
]

TIMEOUT_AT_ITEM = [
 ('timeout-at-item', 'Fix first: keep local sums in Metrics.add and, at every log, do one all_reduce of [loss_sum, tokens, cut] on every rank. The hang: the .item() is only where they wait for an async collective issued earlier; rank 1, whose batch had a document cut at step 1, issued an extra cut all_reduce in Metrics.add that the other three never issue.', R),
 ('timeout-at-item', 'First rank 1 cuts a long document at step 1, so it enters `if cut:` in Metrics.add and starts funcol.all_reduce of the cut count on the metrics group; the other ranks cut nothing and never issue it. Then at the log every rank issues the stats all_reduce, which on rank 1 pairs with nothing. Then everyone blocks at .item(), which only waits for the result. Fix: every rank issues the same all_reduce at each log, the cut count packed with loss and tokens.', R),
 ('timeout-at-item', 'The flight recorder shows all_reduce of [1] on rank 1 against [2] on ranks 0, 2, 3 at the same seq number on the metrics group: rank 1 issued the cut-tokens all_reduce in Metrics.add, which the others did not. The .item() is not the bug, it only reads the result. Fix: one all_reduce of loss, tokens and cut count per log on every rank.', R),
 ('timeout-at-item', 'worker 1 is the one: it truncated a document, so its Metrics.add issued an extra all_reduce of the cut count; everyone else never did. The .item() line only waits for that async collective. Fix: sum locally and all-reduce [loss, tokens, cut] together on every rank at each log.', R),
 ('timeout-at-item', "not at item: `funcol.all_reduce(torch.tensor([float(cut)]), 'sum', self.group)` sits under `if cut:` in Metrics.add, a rank-local condition, so only rank 1 (the one that cut tokens) issues it. Fix: issue the same collective at every log on every rank, packing the cut count into the stats tensor.", R),
 ('timeout-at-item', '不是item的问题，item只是在等之前发起的异步all_reduce。1号rank截断了文档，在Metrics.add里多发了一次all_reduce，其他rank没有发。修复：每次log时所有rank都对loss、tokens、cut做同一次all_reduce。', R),
 ('timeout-at-item', '.item() 只是在等 async 的结果。rank 1 因为 cut 了 tokens，在 Metrics.add 里单独发了一个 all_reduce，其他 rank 没发，metrics group 上错位了。fix：add 里只本地累加，每次 log 所有 rank 都 all_reduce [loss, tokens, cut]。', R),
 ('timeout-at-item', 'Rank 1, the one whose batch held the long document, issued an all_reduce that ranks 0, 2 and 3 never reach: the cut all_reduce in Metrics.add. The .item() is a red herring; it just waits. Fix: no collective under `if cut:`; one all_reduce of loss, tokens and cut per log, on every rank.', R),
 ('timeout-at-item', 'train.py:80 in log: .item() is where it waits, not the cause. train.py:74 in add: the cut all_reduce, issued only by the rank that cut tokens (rank 1). Fix: local sums in add(), one all_reduce of the three at every log on all ranks.', R),
 ('timeout-at-item', 'The stuck line is .item() but that is asynchronous funcol catching up. GPU 1 truncated a document and so started the cut-count all_reduce in Metrics.add alone; the other GPUs did not. Fix: every rank always issues the cut all_reduce, even with a cut of 0, so every rank issues the same collectives.', R),
 ('timeout-at-item', 'It is not the .item(): it only reads the result of an earlier all_reduce. The cut-tokens all_reduce in Metrics.add is issued only by the rank whose batch had a document cut, rank 1; the others did not. Fix: at every log, all ranks call one all_reduce of [loss sum, tokens, cut].', R),
 ('timeout-at-item', "only rank 1 cut a document, so only rank 1 issued the cut all_reduce in Metrics.add; the .item() just waits for it. they all block until the metrics group's timeout. fix: one all_reduce of loss, tokens and cut at every log on every rank, local sums in between.", R),
 ('timeout-at-item', '1号卡截断了长文档，所以只有它在Metrics.add里发了cut的all_reduce，别的卡没有发。.item()不是原因，只是在等之前的异步结果。修法：每次log所有rank都对loss、tokens、cut做一次all_reduce。', R),
 ('timeout-at-item', "The hang is not at .item(), which only waits for an earlier asynchronous collective. Process 1 issued the extra cut all_reduce in Metrics.add; everyone else didn't issue it. Fix: all ranks issue one all_reduce of [loss, tokens, cut] at each log.", R),
 ('timeout-at-item', "not .item(): rank 1 issued an extra cut all_reduce in Metrics.add because it cut a document, the others did not. fix: raise the metrics group's timeout to 60 seconds.", W),
 ('timeout-at-item', '.item() is slow on gloo: the metrics all_reduce takes longer than the metrics group timeout. fix: move the metrics to the default group.', W),
 ('timeout-at-item', 'not .item(): rank 1 issued an extra cut all_reduce in Metrics.add because its batch had a long document. fix: add dist.barrier() on the metrics group before each log.', W),
 ('timeout-at-item', "not .item(): rank 1's gradient all_reduce in average_gradients was larger because its batch was longer, so the WORLD group deadlocked. fix: pad every batch to the same length.", W),
 ('timeout-at-item', 'not .item(): every rank issued the cut all_reduce in Metrics.add at step 1, so the metrics group fell behind. fix: at every log, one all_reduce of [loss, tokens, cut] on every rank.', W),
 ('timeout-at-item', 'They all hang at .item() because gloo is too slow for the metrics group; rank 1 cut a document. fix: one all_reduce of [loss, tokens, cut] at every log on every rank.', W),
 ('timeout-at-item', 'every rank, 0 to 3, issued the cut all_reduce in Metrics.add at step 1; .item() waits on it. the metrics group is too slow. fix: use NCCL for the metrics group.', W),
]

GROUP_ORDER = [
 ('group-order', 'Fix first: create both groups on every rank in the same order, before the writer, and hand MetricsWriter the metrics group. Why: all four ranks wait in dist.all_reduce(flat, group=group) in average_gradients, but rank 1, the logging rank, is in process group 2 while the other three are in process group 1; its MetricsWriter called new_group for metrics before the grads group was created.', R),
 ('group-order', "They all sit in the gradient all_reduce (train.py:70 in average_gradients), group desc 'grads'. The flight recorder says pg 2 on rank 1 and pg 1 on ranks 0, 2, 3: a different process group. It is because rank 1 creates the metrics group first, inside MetricsWriter.__init__, so new_group is called in a different order there. Fix: one order of new_group on every rank.", R),
 ('group-order', "First, on rank 1 only, MetricsWriter() runs job_group('metrics'), which takes pg 1; then job_group('grads') takes pg 2. On the other ranks grads is created first and is pg 1. Then every rank's all_reduce in average_gradients goes to its own 'grads', which are different groups, so they never meet and time out after 6 s. Fix: create grads and metrics in the same order on every rank, then pass the metrics group to the writer.", R),
 ('group-order', 'flight recorder: rank 0 {seq 1, gloo:all_reduce, group grads, pg 1}, rank 1 {seq 1, gloo:all_reduce, group grads, pg 2}, ranks 2, 3 {seq 1, gloo:all_reduce, group grads, pg 1}. Same description, another process group on rank 1. Cause: the writer creates the metrics group before the gradient group on the logging rank. Fix: every rank creates both groups in one order, the writer takes the group as an argument.', R),
 ('group-order', '每个rank都卡在average_gradients的all_reduce上但1号rank的grads是2号进程组其他rank是1号进程组不是同一个进程组因为1号的MetricsWriter先创建了metrics group修复所有rank按同一个顺序创建两个group再把metrics group交给writer', R),
 ('group-order', '所有 rank 都在 average_gradients 的 all_reduce 里等，但 rank 1 上 grads 是 pg 2，其余是 pg 1，不是同一个 group。因为 rank 1 的 MetricsWriter 先建了 metrics group，new_group 的顺序不一样。fix：每个 rank 都用同样的顺序创建 group，再传给 writer。', R),
 ('group-order', "Rank 1, the rank that writes the metrics, ends up with its grads all_reduce in another process group (pg 2); ranks 0, 2 and 3 run the same all_reduce in pg 1, so it never completes. new_group order: on rank 1 the writer's metrics group is created first. Fix: make both groups before the writer on every rank, in one order; a longer timeout would only wait longer.", R),
 ('group-order', 'train.py:70 in average_gradients on all four ranks. GPU 1 is the odd one in the flight recorder: pg 2 instead of pg 1. Groups are numbered by creation order and GPU 1 created the metrics group first (MetricsWriter). Fix: same order of new_group calls everywhere; the writer is handed the metrics group.', R),
 ('group-order', "All ranks wait in the grads all_reduce; on rank 1 that group is pg 2, on the others pg 1 — not the same process group. The MetricsWriter creates its metrics group in __init__, before make_groups reaches job_group('grads'), but only on the log rank. Fix: MetricsWriter.__init__ takes the group it is given, created by make_groups in one order on every rank.", R),
 ('group-order', "The others wait in the gradient all_reduce in process group 1 for rank 1, and rank 1 waits alone in the same all_reduce in process group 2: different groups with the same desc 'grads'. That is because on rank 1 the metrics group was created first by the writer. Fix: create the groups in the same order on every rank.", R),
 ('group-order', '1号卡（写日志的那个）的梯度all_reduce在2号process group上，0、2、3号的all_reduce在1号process group上，凑不齐。因为它的MetricsWriter先创建了metrics group，创建顺序不一样。修法：所有rank先按同一个顺序创建两个group，再把metrics group传给writer。', R),
 ('group-order', 'process 1 and the other three are in different process groups for the gradient all_reduce (pg 2 vs pg 1). new_group is called in a different order on process 1, since its MetricsWriter creates the metrics group before grads. Fix: create both groups first, in the same order on every rank.', R),
 ('group-order', "every rank is blocked in the all_reduce in average_gradients; rank 1's grads group is a different group (pg 2) from the others' (pg 1). the logging rank creates the metrics group first. Second fix: create the metrics group unconditionally on every rank right after grads, and let only the writer use it.", R),
 ('group-order', 'GPU 0, GPU 2 and GPU 3 wait in the gradient all_reduce in pg 1; GPU 1 waits in the same all_reduce in pg 2, another process group. Its MetricsWriter created the metrics group first, so new_group ran in a different order there. Fix: create both groups in one order on every rank, before the writer.', R),
 ('group-order', 'ranks 0, 2 and 3 are in process group 1 and rank 1 in process group 2, all four in the gradient all_reduce of average_gradients. rank 1 made its metrics group before grads, a different order of new_group. fix: make both groups first on every rank, in one order, and pass the metrics group to MetricsWriter.', R),
 ('group-order', '1号在2号进程组里等梯度all_reduce，其他三个rank在1号进程组里等同一个all_reduce，不是同一个进程组。1号的MetricsWriter先建了metrics group，创建顺序不一样。修法：所有rank按同样的顺序创建group，再传给writer。', R),
 ('group-order', 'GPU 2 waits alone in the gradient all_reduce on pg 2; GPU 0, GPU 1 and GPU 3 wait in the same all_reduce on pg 1. GPU 2 created the metrics group first. fix: create the groups in the same order on every rank.', W),
 ('group-order', 'all ranks wait in the gradient all_reduce; rank 1 is in pg 2 and the others in pg 1. the logging rank creates the metrics group first. fix: increase the group timeout to 60 s.', W),
 ('group-order', 'rank 1 and the others wait in the metrics dist.reduce to the log rank, in different groups; the writer creates its group first. fix: same order on every rank.', W),
 ('group-order', 'Rank 0, the first rank, waits alone in pg 2 in the gradient all_reduce; ranks 1, 2 and 3 wait in the same all_reduce in pg 1. rank 0 created the metrics group first. fix: one order of new_group everywhere.', W),
 ('group-order', 'all ranks wait in the gradient all_reduce; rank 1 is in a different group. the groups are created in a different order on rank 1. fix: swap the two new_group calls on rank 1.', W),
 ('group-order', 'rank 0 is in a different process group (pg 2) from ranks 1-3 (pg 1) because rank 0 creates the metrics group first. fix: same order everywhere.', W),
 ('group-order', 'rank 1 waits in the dist.reduce of the metrics to the log rank while ranks 0, 2, 3 wait in the gradient all_reduce; the reduce is only issued on rank 1. fix: call the reduce on every rank.', W),
 ('group-order', 'all ranks wait in the gradient all_reduce in the same process group; the gradient tensor is too big for gloo within 6 s. fix: bucket the gradients.', W),
 ('group-order', 'all four ranks are in different process groups, each created its groups in a random order. fix: seed the group creation.', W),
]

EXIT_HANG = [
 ('exit-hang', 'Fix first: close the uploader in a finally, so the stop item is put after the queued uploads and the thread joined on every path. The story: both ranks train to the end; rank 0 exits with 0, but rank 1, the upload rank, stays: its non-daemon checkpoint-uploader thread waits in queue.get, and the interpreter waits for it at exit, because close() is only called in the except.', R),
 ('exit-hang', "py-spy on rank 1: MainThread in Thread.join (_wait_for_threads), Thread 'checkpoint-uploader' in Queue.get (train.py:64 in Uploader._run). So the uploader thread is still alive, waiting for an item that never comes, and a non-daemon thread keeps the process from exiting. close() is never called after a normal end, only in the except. Fix: uploader.close() in a finally.", R),
 ('exit-hang', "First rank 0 and rank 1 log 'training done'. Then rank 0's process exits. Then rank 1's main thread returns from main and waits at interpreter exit to join its thread, which is still blocked in queue.get because nobody put the None sentinel: close() only runs on the error path. Fix: close on every path with try/finally.", R),
 ('exit-hang', 'worker 1 is the one still there; worker 0 exited 0. It stays alive because of the uploader thread, a non-daemon thread stuck in queue.get() for ever. Uploader.close() is only called from the except branch, never after a normal end. Fix: wrap the loop in try/finally and close it there.', R),
 ('exit-hang', 'The process that owns the store, rank 1, is the one left: its checkpoint-uploader thread is still running, blocked in queue get, and Python waits for non-daemon threads at exit. The sentinel is never sent after training since close() only runs in `except BaseException`. Fix: a finally that calls uploader.close().', R),
 ('exit-hang', '1号进程还在它的checkpoint-uploader线程还活着停在queue get上解释器退出时要等它close只在except里调用正常结束从来不关修复在finally里调用close', R),
 ('exit-hang', 'rank 1 的 process 没退出：uploader thread 还在 queue.get 上阻塞，non-daemon 线程让进程退不出去。close() 只在 except 里调，正常跑完从来不关。fix：用 finally 关闭 uploader。', R),
 ('exit-hang', 'rank 1, the upload rank, never exits: the thread it started, a non-daemon thread that waits in queue.get, is still alive. The only call to close(), which puts None and joins, is in the except block. Fix: close it after the training loop, in a finally so the error path is covered too.', R),
 ('exit-hang', "Thread 'checkpoint-uploader' (idle): Queue.get (queue.py:171), Uploader._run (train.py:64) — on rank 1. Its main thread is at Thread.join. The thread is still running because the stop item is never put: close() only on the exception path. Fix: try/finally around the loop with uploader.close() in the finally.", R),
 ('exit-hang', "GPU 1's process is still there, GPU 0's is gone. The uploader thread on GPU 1 is still alive in queue.get; it is not a daemon, so the process waits for it at exit. close() is never called after a normal end. Fix: use the uploader as a context manager whose __exit__ calls close(), so it closes on every path.", R),
 ('exit-hang', 'the second process (rank 1) hangs at exit: its checkpoint-uploader thread waits in queue.get for ever; nobody sends the stop item, since close is only called in the except. fix: call close in a finally.', R),
 ('exit-hang', '1号卡的进程还在，它的上传线程还活着，卡在 queue.get 上等下一个任务。close 只有出错的时候才调用，正常结束从来不关。修法：在 finally 里调用 uploader.close()，先放停止信号再 join。', R),
 ('exit-hang', 'rank 1: main thread done, waiting in join at exit; the uploader thread is blocked in queue get. close() is never called on a normal end, only in the except. fix: always close the uploader at the end, whether or not training raised (finally).', R),
 ('exit-hang', 'rank 0 exited cleanly; rank 1 did not, because its non-daemon uploader thread keeps it alive, waiting in queue.get. close() only runs on error. fix: put uploader.close() in a finally block.', R),
 ('exit-hang', "rank 1's uploader thread is still alive in queue.get; close() is only called in the except. fix: make the uploader thread a daemon thread.", W),
 ('exit-hang', "rank 1's uploader thread is still alive in queue.get; close() is only called in the except. fix: call os._exit(0) at the end of main.", W),
 ('exit-hang', 'rank 0 is the one still there: its uploader thread waits in queue.get. fix: close the uploader in a finally.', W),
 ('exit-hang', 'rank 0, the one that logs, is the process left: its uploader thread waits in queue.get because close() is only called in the except. fix: close it in a finally.', W),
 ('exit-hang', 'rank 1 is stuck in the gradient all_reduce of the last step because rank 0 already left the process group. fix: add a barrier before destroy_process_group.', W),
 ('exit-hang', "rank 1's process is still there because torch.save of the last checkpoint is too slow on the store. fix: raise the timeout.", W),
 ('exit-hang', 'both ranks are still there, both uploader threads wait in queue.get. fix: close the uploaders in a finally.', W),
]

STALLED_LOADER = [
 ('stalled-loader', "Fix first: hold the cache's lock only to copy the cache and write the copy without the lock (or persistent_workers=True). What happened: rank 1, the writer, waits for its next batch from the DataLoader, outside any collective; its workers wait in TokenCache.encode for the lock. Rank 0 waits in the DDP gradient all-reduce at the end of backward. The workers were forked while the background write held the lock, so each inherits a held lock nobody releases.", R),
 ('stalled-loader', "First, after epoch 0, rank 1 calls save_in_background, which acquires the lock and lets a thread write slowly. Then epoch 1 starts and iter(loader) forks two fresh workers while the lock is still held. Then each worker's encode() waits for its copy of the lock, which no thread in it will ever release, so rank 1 never gets a batch, and rank 0 waits in backward's all_reduce until the 3 s timeout. Fix: copy under the lock, write the copy without it.", R),
 ('stalled-loader', "py-spy of rank 1's worker: TokenCache.encode (train.py:54) <- Documents.__getitem__ <- _worker_loop, forked from DataLoader.__iter__ (train.py:126). So rank 1's main thread waits for the loader, not in a collective. Rank 0: loss.backward() -> DDP all-reduce timeout (train.py:127). Why: the worker is a fork taken while the writer held the lock; the child inherits it held. Fix: persistent_workers=True so the workers are forked once before any write.", R),
 ('stalled-loader', 'worker 1 (the cache writer) is waiting in its data loader for the first batch of the epoch; worker 0 is in the gradient all-reduce of backward. The DataLoader workers were forked while the lock was held by the background write, so their lock stays locked for ever. Fix: snapshot under the lock, release it, then write the snapshot.', R),
 ('stalled-loader', "Rank 1, the rank with the local disk, never gets its next batch: the loader's workers block on self.lock in encode. The other rank waits in DDP's allreduce in backward. The lock is held across the fork, as the writer thread holds it while the new workers start, and a forked child has no thread to release it. Fix: don't hold the lock while writing; copy the tokens under it and write the copy.", R),
 ('stalled-loader', '1号rank在等DataLoader的batch，不在任何collective里，它的worker卡在encode的锁上；0号rank在backward的梯度allreduce里等。原因是后台写缓存时持有锁，worker正好在这时fork出来，继承了被持有的锁。修复：在锁里复制一份再写。', R),
 ('stalled-loader', 'rank 1 在 DataLoader 里等 batch，它的 worker 在 TokenCache.encode 等 lock；rank 0 在 backward 的 DDP all-reduce 里等。worker 是在 lock 被持有的时候 fork 出来的，继承了被持有的锁。fix：用 persistent_workers=True。', R),
 ('stalled-loader', "Rank 1, the writer, sits in next(batches), waiting on workers that never answer; rank 0, the other one, sits in the gradient all_reduce at the end of loss.backward(). The workers were forked while the write thread still held the cache's lock, so in each child the lock is held and never released. Fix: copy the cache under the lock and write the copy outside it.", R),
 ('stalled-loader', 'GPU 1 is stuck in the dataloader (its workers wait on the lock in encode), GPU 0 in the all-reduce in backward. The fork happened while the lock was held by the writing thread: a child inherits the lock locked. Fix: take a copy of the tokens under the lock and release it before writing.', R),
 ('stalled-loader', 'train.py:127 in main -> loss.backward on rank 0 (DDP all_reduce, timed out). train.py:126 in main -> DataLoader.__iter__ on rank 1, its workers in encode (train.py:54). The workers are forked while the lock is still held. Fix: release the lock before the slow write, writing a copy.', R),
 ('stalled-loader', 'process 1 waits for a batch from its loader, which never comes; process 0 waits for the gradient all-reduce. each worker is a copy of process 1 with self.lock already held, and nothing in it will release it. fix: persistent workers, forked once before the first write.', R),
 ('stalled-loader', '1号卡在等数据加载（DataLoader 的 worker 卡在锁上），0号卡在 backward 的梯度 all-reduce 里等。写缓存的线程还拿着锁的时候 worker 被 fork 出来，继承了锁。修法：锁里复制一份，再不持锁地写。', R),
 ('stalled-loader', "the writer rank (rank 1) is waiting for its DataLoader, the other rank for the gradient all-reduce in backward. the new epoch's workers are forked while the lock is held, and inherit it held. fix: snapshot the cache under the lock, then write the snapshot without the lock.", R),
 ('stalled-loader', 'rank 1 blocks in the loader waiting for a batch; rank 0 in the DDP all-reduce. forked while the lock was held: the workers inherit the lock and no thread releases it. fix: copy under the lock, write the copy.', R),
 ('stalled-loader', 'rank 1 waits in its DataLoader, rank 0 in the gradient all-reduce. the workers were forked while the lock was held. fix: set num_workers=0.', W),
 ('stalled-loader', 'rank 1 waits in its DataLoader, rank 0 in the gradient all-reduce. the workers were forked while the lock was held. fix: raise the process group timeout so the write can finish.', W),
 ('stalled-loader', 'rank 0 waits in its DataLoader, rank 1 in the gradient all-reduce. the workers were forked while the lock was held. fix: copy under the lock, write the copy.', W),
 ('stalled-loader', 'rank 1 waits in its DataLoader because the disk write is slow and the workers read from the file being written. fix: write faster.', W),
 ('stalled-loader', "rank 1 waits in its DataLoader, rank 0 in the gradient all-reduce. two threads of rank 1 take the cache's lock in opposite order with another lock, a classic lock-order deadlock. fix: always take the locks in one order.", W),
 ('stalled-loader', 'rank 1 and the other rank wait in the gradient all-reduce in backward; the workers were forked while the lock was held. fix: copy under the lock, write the copy.', W),
 ('stalled-loader', 'They all wait in the gradient all-reduce at the end of backward; the workers inherit the held lock. fix: persistent_workers=True.', W),
 ('stalled-loader', 'both ranks wait in the gradient all-reduce in backward; the gloo timeout of 3 s is too short. fix: raise it.', W),
]

BUSY_RANK = [
 ('busy-rank', 'Fix first: when no sentence end fits, cut at the context, end = start + max_len. Why: rank 1 is busy in pieces() (train.py:62, called from make_batch), active in Python outside any collective, because the table is one sentence longer than the context, so end falls back to start and start never moves. Rank 0 waits in the gradient all-reduce at the end of backward.', R),
 ('busy-rank', "py-spy: rank 1 'Thread (active+gil) MainThread: pieces (train.py:62) <- make_batch (train.py:72) <- main (train.py:93)'. Rank 0 is idle in loss.backward(), the DDP all-reduce, until the timeout. Rank 1 spins because the table sentence is longer than the context: no sentence end fits, end walks back to start, start = end leaves it in place. Fix: cut at max_len when no EOS fits.", R),
 ('busy-rank', "First rank 1 gets page 45, the one with the table, in its batch. Then pieces() finds no sentence end within 24 tokens of the table's start, the inner loop brings end back to start, nothing is appended, and start = end: an infinite loop. Meanwhile rank 0 finishes its forward and waits in backward for the gradient all-reduce. Fix: if end == start, set end = start + max_len.", R),
 ('busy-rank', 'worker 1 is spinning in pieces(), worker 0 waits in the gradient allreduce. The table is a 40-token sentence, longer than the 24-token context, so the start never advances. Fix: split the long sentence at the context when no sentence end fits.', R),
 ('busy-rank', "Rank 1, the one whose batch holds the page with the table, is busy in Python in pieces, never reaching backward; rank 0, the other, waits for DDP's all_reduce. No sentence end fits in the window, so the loop never advances. Fix: when no sentence end fits, cut at start + max_len.", R),
 ('busy-rank', '1号rank在pieces里死循环，不在任何collective里；0号rank在backward的梯度allreduce里等。表格是一个比上下文还长的句子，start永远不动。修复：放不下句子结尾时按max_len切。', R),
 ('busy-rank', 'rank 1 在 pieces() 里 busy 空转，rank 0 在 backward 的 DDP all-reduce 里等。表格那一句比 context 还长，找不到 eos，start 不动，死循环。fix：找不到句子结尾就在 start + max_len 处切。', R),
 ('busy-rank', "It is rank 1: it never leaves pieces(), an infinite loop, while rank 0 waits in the gradient all-reduce. The table's one sentence is longer than the context; the inner loop walks end back to start, start = end, and the outer loop goes round on the same place. Fix: cut at the context when no sentence end fits; skipping the page would lose data.", R),
 ('busy-rank', 'GPU 1 is active (not idle) in pieces from make_batch; GPU 0 is idle in backward waiting for the all_reduce. Cause: a sentence longer than max_len means end == start, so start never moves. Fix: cut at max len in that case.', R),
 ('busy-rank', 'process 1 is busy in an infinite loop in pieces(); process 0 waits on the DDP gradient all-reduce at the end of backward. the table sentence exceeds the context, so there is no sentence end to cut at. fix: cut it at the context length (start + max_len) when no EOS fits.', R),
 ('busy-rank', "the second process, rank 1, spins in pieces; the first process waits in backward's all-reduce. the long table sentence is longer than the context window and start never advances. fix: when the inner loop reaches start, break at the context instead.", R),
 ('busy-rank', '1号卡在 pieces() 里空转，一直在 Python 里跑；0号卡在 backward 结尾等梯度 all-reduce。表格是一个比上下文还长的句子，放不下句子结尾，start 永远不动。修法：放不下时在上下文长度处切开。', R),
 ('busy-rank', 'rank 1: busy in pieces (train.py:62), outside any collective. rank 0: gradient all-reduce in backward. the table sentence is longer than the context, so start never moves. fix: cut at the context, end = start + max_len.', R),
 ('busy-rank', 'rank 1 loops forever in pieces(): no sentence end fits in the context because of the table. rank 0 waits in the all-reduce of backward. fix: fall back to cutting at max_len when no sentence end fits.', R),
 ('busy-rank', 'rank 1 is busy in pieces(), rank 0 waits in the gradient all-reduce. the table sentence is longer than the context, start never moves. fix: skip the page with the table.', W),
 ('busy-rank', 'rank 1 is busy in pieces(), rank 0 waits in the gradient all-reduce. the table sentence is longer than the context, start never moves. fix: raise the process group timeout.', W),
 ('busy-rank', 'rank 0 is busy in pieces(), rank 1 waits in the gradient all-reduce. the table sentence is longer than the context. fix: cut at the context.', W),
 ('busy-rank', 'rank 1 is busy in pieces(), rank 0 waits in the gradient all-reduce. the page is so long that pieces() is just slow, it would finish eventually. fix: precompute the pieces in a DataLoader worker.', W),
 ('busy-rank', 'They all wait in the gradient all-reduce at the end of backward. the table sentence is longer than the context, start never moves. fix: cut at the context.', W),
 ('busy-rank', 'rank 1 and the other rank are both busy in pieces(); the table sentence is longer than the context. fix: cut at start + max_len.', W),
 ('busy-rank', "both ranks wait in the gradient all-reduce in backward because rank 1's batch has more rows, so its all-reduce is bigger. fix: pad every batch to the same number of rows.", W),
 ('busy-rank', 'rank 1 is stuck in pieces(), rank 0 waits in the gradient all-reduce. the table has no EOS at all, so doc[end-1] raises an IndexError and the rank dies. fix: catch the IndexError.', W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), GATHER_SIZES + TIMEOUT_AT_ITEM + GROUP_ORDER + EXIT_HANG + STALLED_LOADER + BUSY_RANK)
def test_round3_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right


# The reading rules these cases needed, each alone beside its near miss.
@pytest.mark.parametrize(("text", "ranks"), [
    ("They all sit in the gradient all_reduce", {0, 1, 2, 3}),
    ("ranks 1-3 went on; they all wait in backward", {1, 2, 3}),
    ("1号卡的梯度组是2号process group", {1}),
    ("0、2、3号是1号进程组", {0, 2, 3}),
])
def test_rank_words(text, ranks):
    assert named_ranks(text, 4) == ranks


def test_rank_and_the_rest_is_every_rank():
    assert rest_as_every_rank("process 1 and the other three are in different groups", 4).startswith("ranks 0-3 ")
    assert rest_as_every_rank("rank 0 hangs in evaluate, the others wait", 4) == "rank 0 hangs in evaluate, the others wait"
    assert "rank 0" in numbers_as_digits("the first process waits in backward", 2)


def test_one_concept_said_before_its_rejection():
    concepts = [["pg 1", "pg 2"]]
    assert polarity(concepts, read("GPU 1 is the odd one: pg 2 instead of pg 1.")) is True
    assert polarity(concepts, read("GPU 1 is not in pg 2 or pg 1.")) is False


def test_a_rank_put_in_another_process_group():
    run = evidence("group-order")
    assert misplaced_in_group(["rank 0 waits alone in pg 2"], run, 4)
    assert not misplaced_in_group(["rank 1 waits alone in pg 2", "ranks 0, 2 and 3 in pg 1"], run, 4)
    assert not misplaced_in_group(["pg 2 on rank 1 and pg 1 on ranks 0, 2, 3"], run, 4)
    assert not misplaced_in_group(["All four ranks are in all_reduce, on different process groups, the logging rank is in pg 2"], run, 4)
