"""Lab diagnoses written by hand, round 7 (s36 df7b, 2026-12-04; none from the labelled benchmark):
the ideas the grader failed to read in free_text_labs9, and a few found by probing, each in wordings of
our own, with near misses. The ideas: a CUDA graph captured anew inside each call, or replayed without
static buffers (wrong fixes); a negation inside a relative clause that denies only that clause's verb ("a
thread that never returns keeps the process alive"); the fork that copies the lock in its held state,
said as the lock's state copied (and the lock said free at the fork, a contradiction); a rank said not to
join a process group placed in none ("rank 1's pg 1 never joins the others' pg 1"); one batch reused for
every step and the loss record removed (wrong fixes that change the data or drop what the run reports);
a bare count beside one-sequence micro-batches in Chinese; the busy rank's start that never moves, said
of start itself, and the table "more than" the context. Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

SLOW = ("Data loading: each step waits for its batch before any op runs; the trace summary puts two thirds of the step before "
        "its first op, and synthetic data makes the step fast. The loader re-tokenizes each whole document with a pure-Python BPE every step.")
SLOW_ZH = "数据加载：每个 step 在第一个算子之前都在等 batch，合成数据时就快了。加载器每步都用纯 Python 的 BPE 把整篇文档重新分词。"
TINY = ("Launch-bound compute: ~2,000 tiny ops per step of ~10 µs each, 16 .item() syncs per step. Sixteen one-sequence micro-batches "
        "and a normalisation of eight elementwise ops.")
TINY_ZH = "launch-bound 的计算：每步约 2000 个很小的算子，每步 16 次 .item() 同步。原因是 16 个单条序列的 micro-batch 和 8 个 elementwise 算子手写的归一化。"

LAUNCH = "Launch-bound: the GPU idles between tiny kernels waiting for the CPU to launch them."
LAUNCH_ZH = "launch-bound：GPU 在小 kernel 之间空转，等 CPU 发射下一个。"
EXITED = "Rank 0 exited with code 0; rank 1 is still there."
CLOSE = " close() is only called in the except branch. Fix: close the uploader in a finally."
CLOSE_ZH = " close() 只在 except 里调用。修法：在 finally 里关闭 uploader。"
LOADER = ("Rank 1's main thread waits in its DataLoader for the next batch, outside any collective; its two workers wait in "
          "TokenCache.encode for the lock. Rank 0 waits in DDP's gradient all-reduce in backward.")
COPY = " Fix: copy the cache under the lock, release it, and write the copy in the background."
COPY_ZH = "修法：锁里只复制缓存，写的时候不持锁。"
BUSY = "Rank 1 is busy in pieces() in make_batch, outside any collective; rank 0 waits in the gradient all-reduce in backward."
CUT = " Fix: cut at the context, end = start + max_len."
CUT_ZH = "修法：在上下文长度处切开。"

PGS = "Ranks 0, 2 and 3 called the all_reduce on pg 1, rank 1 on pg 2."
ORDER = (" Why: MetricsWriter is built first on rank 1, so new_group is called in a different order. Fix: create the groups "
         "in the same order on every rank.")

CASES = [
 # a rank said not to join a group is placed in none
 ('group-order', f"{PGS} Rank 1's pg 1 (metrics) never joins the others' pg 1 all-reduce.{ORDER}", R),
 ('group-order', f"{PGS} Rank 1 is not in pg 1.{ORDER}", R),
 ('group-order', f"{PGS} 1号的 pg 1 是 metrics，从来没有进其他 rank 的 pg 1 all_reduce。{ORDER}", R),
 ('group-order', f"Rank 0 waits alone in the all_reduce in pg 2, ranks 1-3 in pg 1.{ORDER}", W),
 ('group-order', f"Rank 0 waits alone in pg 2.{ORDER}", W),
 ('group-order', f"Every rank waits in the gradient all_reduce in average_gradients; rank 0 is in pg 2, and rank 1 never joins pg 1.{ORDER}", W),
 # the graph captured anew on each call, or replayed without static buffers: wrong fixes, in several wordings
 ('cuda-graphs', f"{LAUNCH} Fix: capture the loop once into a CUDA graph with static input and output tensors, and replay it with one launch per call.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once in __init__ and replay on every call, copying each input into the static buffer.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: record the graph once so that every call is one launch of the replay.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once at init; per call, copy x into the static input, replay, clone the static output.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once; recapturing every call would cost more than the launches it saves.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: a CUDA graph, captured once; recapture only if the shapes change, which they don't.", R),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：在 __init__ 里录一次 graph，每次调用把输入拷进静态 buffer 再 replay，一次 launch 跑完。", R),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：在__init__里录一次graph，每次调用把输入拷进静态buffer再replay，一次launch跑完。", R),
 ('cuda-graphs', f"{LAUNCH} Fix: capture a fresh graph inside __call__ each time and replay it.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: record the graph per call, so the inputs can be any tensor.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: replay a CUDA graph with one launch; no static buffers are needed, the graph reads whatever tensor you pass.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: recapture the graph on every call and replay it once, like a macro you re-record before each use.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: graphs, captured on every call, replayed with one launch; it works for any input shape.", W),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：每次调用 __call__ 时都重新 capture 一个 CUDA graph 再 replay，这样不需要静态缓冲区。", W),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：每次调用都重新录制graph再回放，任何输入都能直接用。", W),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：一次 launch 重放整个循环，不用静态 buffer，随便传什么 tensor 都行。", W),
 # a negation in a relative clause denies that clause's verb, not the main one after it
 ('exit-hang', f"{EXITED} A non-daemon thread that never returns keeps the process alive.{CLOSE}", R),
 ('exit-hang', f"{EXITED} Its non-daemon thread that never gets the stop item keeps the interpreter waiting.{CLOSE}", R),
 ('exit-hang', f"{EXITED} 一个永远不返回的非 daemon 线程让进程一直活着。{CLOSE_ZH}", R),
 ('exit-hang', f"{EXITED} 一个永远不返回的非daemon线程让进程一直活着。{CLOSE_ZH}", R),
 ('exit-hang', f"{EXITED} A non-daemon thread that never keeps the process alive.{CLOSE}", W),
 ('exit-hang', f"{EXITED} A non-daemon thread that never returns does not keep the process alive.{CLOSE}", W),
 ('exit-hang', f"{EXITED} Rank 1 has a non-daemon thread that does not block the exit.{CLOSE}", W),
 ('exit-hang', f"{EXITED} Rank 1 has a non-daemon thread that does not block exit.{CLOSE}", W),
 # the fork copies the lock in its held state, said as the state copied
 ('stalled-loader', f"{LOADER} fork duplicated the lock state but the writer thread exists only in the parent.{COPY}", R),
 ('stalled-loader', f"{LOADER} The workers' copies stay locked forever, since the writer thread was not forked with them.{COPY}", R),
 ('stalled-loader', f"{LOADER} Each worker's copy of the lock is locked and nobody in the worker will unlock it.{COPY}", R),
 ('stalled-loader', f"{LOADER} fork 把锁的状态也复制了过去，worker 里的锁一直是锁着的。{COPY_ZH}", R),
 ('stalled-loader', f"{LOADER} worker里的锁是锁着的，没人释放。{COPY_ZH}", R),
 ('stalled-loader', f"{LOADER}{COPY}", W),
 ('stalled-loader', f"{LOADER} fork gives each worker an unlocked lock, so that is not it; the workers are just slow.{COPY}", W),
 ('stalled-loader', f"{LOADER} The fork did not copy the lock state.{COPY}", W),
 ('stalled-loader', f"{LOADER} The workers fork a fresh lock.{COPY}", W),
 ('stalled-loader', f"{LOADER} The workers were forked while the lock was held. Fix: drop the workers and read the cache in the main process.", W),
 # start that never moves, said of start; the table more than the context
 ('busy-rank', f"{BUSY} The table is 40 tokens, more than the context.{CUT}", R),
 ('busy-rank', f"{BUSY} start = end is a no-op.{CUT}", R),
 ('busy-rank', f"{BUSY} start stays put.{CUT}", R),
 ('busy-rank', f"{BUSY} start never grows past the table, like a car spinning its wheels in mud.{CUT}", R),
 ('busy-rank', f"{BUSY} 表格 40 个 token，上下文放不下。{CUT_ZH}", R),
 ('busy-rank', f"{BUSY} start 原地不动，一直在表格开头。{CUT_ZH}", R),
 ('busy-rank', f"{BUSY} start原地不动，一直在表格开头。{CUT_ZH}", R),
 ('busy-rank', f"{BUSY} Had the table fit in the context, start would have moved; it is larger than the window.{CUT}", R),
 ('busy-rank', f"{BUSY}{CUT}", W),
 ('busy-rank', f"{BUSY} start keeps growing; the table is just slow to tokenize.{CUT}", W),
 ('busy-rank', f"{BUSY} The table is shorter than the context.{CUT}", W),
 ('busy-rank', f"{BUSY} The table is no more than the context.{CUT}", W),
 ('busy-rank', f"{BUSY} start每一圈都前进一点，只是表格很慢。{CUT_ZH}", W),
 ('busy-rank', f"{BUSY} start moves forward each time round. Fix: skip the table page.", W),
 # more wordings of each idea: spoken, terse, an analogy, a counterfactual; the lock said free at the fork
 ('exit-hang', f"{EXITED} Like a guest who never gets the signal to leave and keeps the party going, the non-daemon thread that never finishes keeps the process alive.{CLOSE}", R),
 ('exit-hang', f"{EXITED} Had the thread been told to stop it would have ended; as it is, the non-daemon thread that never ends keeps rank 1 alive.{CLOSE}", R),
 ('exit-hang', f"{EXITED} non-daemon thread that never returns -> keeps the process alive.{CLOSE}", R),
 ('exit-hang', f"{EXITED} So basically its non-daemon thread that never returns keeps the whole process hanging around.{CLOSE}", R),
 ('exit-hang', f"{EXITED} A non-daemon thread that never wakes up holds the process open.{CLOSE}", R),
 ('exit-hang', f"{EXITED} The checkpoint-uploader thread that never returns stays alive in queue.get.{CLOSE}", R),
 ('exit-hang', f"{EXITED} 那个永远等不到停止信号的非 daemon 线程让进程退不出去。{CLOSE_ZH}", R),
 ('exit-hang', f"{EXITED} Rank 1 has a non-daemon thread that does not block its exit.{CLOSE}", W),
 ('exit-hang', f"{EXITED} A daemon thread that never returns dies with the process, so it keeps nothing alive.{CLOSE}", W),
 ('stalled-loader', f"{LOADER} Forking then is like photocopying a room locked from inside: each worker's copy of the lock is locked, and the key holder, the writer thread, stayed in the parent.{COPY}", R),
 ('stalled-loader', f"{LOADER} Had the lock been free when the workers were forked, their copies would be free too; it was held, so each worker's copy of the lock is locked forever.{COPY}", R),
 ('stalled-loader', f"{LOADER} fork duplicated the lock state.{COPY}", R),
 ('stalled-loader', f"{LOADER} fork把锁的状态也复制了过去。{COPY_ZH}", R),
 ('stalled-loader', f"{LOADER} The fork cloned the lock but the lock was free at that moment.{COPY}", W),
 ('busy-rank', f"{BUSY} basically start = end does nothing, start stays put.{CUT}", R),
 ('busy-rank', f"{BUSY} start: stuck.{CUT}", R),
 ('busy-rank', f"{BUSY} start makes no progress: the table is too long for the window.{CUT}", R),
 ('busy-rank', f"{BUSY} The table doesn't fit in the context, like a sofa too big for the door.{CUT}", R),
 ('busy-rank', f"{BUSY} 表格比上下文还大，start一直是表格开头。{CUT_ZH}", R),
 ('busy-rank', f"{BUSY} start advances a little each round but the loop is slow.{CUT}", W),
 ('group-order', f"{PGS} Rank 1 never calls into pg 1 at all.{ORDER}", R),
 ('group-order', f"{PGS} Rank 1 doesn't join the others' group 1.{ORDER}", R),
 ('group-order', f"{PGS} 1号从来没有加入 pg 1。{ORDER}", R),
 ('group-order', f"{PGS} 1号没有参与pg 1的all_reduce。{ORDER}", R),
 ('group-order', f"{PGS} Like two people at different doors, rank 1 never enters the others' pg 1.{ORDER}", R),
 ('group-order', f"Rank 2 is not in pg 1; it waits alone in pg 2.{ORDER}", W),
 ('group-order', f"Ranks 0, 2 and 3 wait in pg 2, rank 1 in pg 1.{ORDER}", W),
 ('stalled-loader', f"{LOADER} Nothing in a worker holds that lock, but at the moment of the fork rank 1's lock was held, so the workers' copies stay locked.{COPY}", R),
 ('stalled-loader', f"{LOADER} The workers were forked at the start of epoch 1 and the lock was not held then; they are just slow.{COPY}", W),
 ('stalled-loader', f"{LOADER} 那一刻锁没被持有，fork 没问题，worker 只是慢。{COPY_ZH}", W),
 # slow-dataloader: one batch tokenized and reused for every step is other data (a wrong fix)
 # launch-bound: the loss record removed is the feature dropped (a wrong fix); a cause naming 8 elementwise ops in
 # Chinese is no cut of the step to 8
 ('slow-dataloader', f"{SLOW} Fix: reuse the first step's tokenized batch every step.", W),
 ('slow-dataloader', f"{SLOW} Fix: cache the first batch and feed it to every step.", W),
 ('slow-dataloader', f"{SLOW} Fix: tokenize one batch up front and reuse the same batch for all steps.", W),
 ('slow-dataloader', f"{SLOW} Fix: cache one batch, reuse the same batch forever.", W),
 ('slow-dataloader', f"{SLOW} Fix: like a flashcard drilled over and over, keep using the same window every step.", W),
 ('slow-dataloader', f"{SLOW} Fix: honestly I'd just tokenize once and keep feeding the same batch.", W),
 ('slow-dataloader', f"{SLOW_ZH}修法：只分词一次，之后每步都复用第一个 batch。", W),
 ('slow-dataloader', f"{SLOW_ZH}修法：只分词一次，之后每步都复用第一个batch。", W),
 ('slow-dataloader', f"{SLOW} Fix: tokenize once, cache the ids, and cut each step's window from the stored ids.", R),
 ('slow-dataloader', f"{SLOW} Fix: pre-tokenize the corpus once; reusing the same batch every step would change the data.", R),
 ('slow-dataloader', f"{SLOW} Fix: tokenize every document once before training and cache the token ids; each step slices its own window.", R),
 ('slow-dataloader', f"{SLOW_ZH}修法：训练前把所有文档分词一次，存好 id，每步直接切片。", R),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm, and remove the loss logging altogether.", W),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm, and drop the loss history.", W),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm, and turn off loss logging so nothing syncs.", W),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm; get rid of recording the losses.", W),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm, and stop tracking the loss, that's where the syncs are.", W),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm, skip logging the losses entirely.", W),
 ('launch-bound', f"{TINY_ZH}修法：一个 micro-batch、nn.LayerNorm，再去掉 loss 记录。", W),
 ('launch-bound', f"{TINY_ZH}修法：一个micro-batch、nn.LayerNorm，再去掉loss记录。", W),
 ('launch-bound', f"{TINY} Fix: one micro-batch, nn.LayerNorm, and drop the .item(): keep the losses on the device and read them at the end.", R),
 ('launch-bound', f"{TINY} Fix: one larger micro-batch, a fused LayerNorm, and remove the per-step .item(), stacking the losses on the device.", R),
 ('launch-bound', f"{TINY} Fix: one micro-batch and nn.LayerNorm; remove the .item() from each step and log the losses once at the end.", R),
 ('launch-bound', f"{TINY_ZH}修法：合成一个 micro-batch，用 nn.LayerNorm，去掉每步的 .item()，loss 留在 gpu 上最后再读。", R),
 ('launch-bound', f"{TINY_ZH}修法：保留单条序列的 micro-batch，只跑 4 个。", W),
 ('launch-bound', f"{TINY_ZH}修法：单条序列的micro-batch改成4个micro-batch。", W),
 ('launch-bound', f"{TINY_ZH}修法：一条序列的 micro-batch 减到 8 个，用 nn.LayerNorm。", W),
 ('launch-bound', f"{TINY} Fix: 4 micro-batches of one sequence, nn.LayerNorm, no .item().", W),
 ('launch-bound', f"{TINY} Fix: cut the step to eight micro-batches of one sequence and use nn.LayerNorm.", W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CASES)
def test_round7_df7b_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
