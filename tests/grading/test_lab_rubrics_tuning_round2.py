"""Diagnosis rubrics, tuning round 2: the labelled tuning misses of the diagnosis kind, each graded
as an interviewer would, with answers of our own beside them (paraphrases, Chinese, cheats).

Strong answers that were refused: a claim said in words the concept lists lacked ("all four ranks",
"其他三张卡", "executes", "进程组1", "上锁", "pad to the maximum", "skip", "in series", "only issued
`if cut:`", "只在 cut 非零时" where 非 read as a negation, "cut nothing and never issue it", "its time
matches bytes / copy bandwidth", "the gather first in both branches"). Wrong answers that passed: a
wrong fix beside the right cause (raise the memory limit; drop the long documents; fewer one-sequence
micro-batches; pad the shards with repeated documents, which the brief rules out), a fix left out where the prompt asks for it (collective order, long batch, uneven
batches: a required fix), and the FP8 formats placed with no why (a required reason: precision and range, or the
per-tensor scale; the dev strong answers give one or the other)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose as _diagnose
from tests.grading.diagnosing import item as _item


# the labelled tuning answers (strong, graded wrong before)
LABELLED_STRONG = [
    ('checkpoint-rank0',
     '- odd one out: rank 0, in all_gather at train.py:42 (data_positions <- save_checkpoint line 48 <- main line 69), right after step 4\n- everyone else (ranks 1, 2, 3): already in step 5, blocked in the gradient all-reduce that DDP runs during loss.backward() at train.py:65\n- why rank 0 never returns: all_gather is a collective and completes only when all four ranks call it, but save_checkpoint runs it inside `if ctx.rank == 0:`; rank 0 waits for three peers who are waiting for its gradients in a different collective\n- fix: gather the positions on all ranks, then write the file on rank 0 only'),
    ('checkpoint-rank0',
     '0号卡和别人不在一处：第4步之后它进了 save_checkpoint，卡在 train.py:42 的 dist.all_gather（data_positions）。1号、2号、3号卡已经进入第5步，在 loss.backward() 里等 DDP 的梯度 all-reduce（train.py:65）。all_gather 是集合通信，四个 rank 都调用才会返回，可它放在 `if ctx.rank == 0:` 里面，其他三张卡永远不会来，所以0号永远等。修法：所有 rank 都调用 data_positions，只把写文件（torch.save）留给 rank 0。'),
    ('checkpoint-rank0',
     "It isn't the disk or torch.save, rank 0 never gets that far. The stacks put rank 0 in all_gather at train.py:42, inside data_positions called by save_checkpoint, and the other three ranks in step 5's DDP gradient all-reduce under loss.backward() (train.py:65). Only rank 0 executes save_checkpoint's body, so the all_gather has one participant out of four and never returns, while ranks 1-3 are waiting for rank 0's gradients. Take the gather out of the rank-0 branch so every rank hands in its loader position, and leave just the write on rank 0."),
    ('uneven-batches',
     "Rank 0 is still training: it's in step 9's gradient all-reduce at train.py:50 while ranks 1-3 finished their 9 steps and wait in the end-of-training all_gather at train.py:52. The 145 documents split 37/36/36/36, so rank 0's shard makes 10 batches (the last a single document) and the others 9; give every rank the same number of steps, e.g. drop the remainder, DistributedSampler(drop_last=True), or DDP's Join."),
    ('exposed-comm',
     "Not a straggler, both ranks compute the same 2x32 tokens and their timelines look alike, and not the loader either, synthetic data changes nothing. It's exposed communication: the step grows when going from one rank to two, and in the trace backward finishes and then the main thread waits through one small all-reduce per parameter, in series. Each tiny all-reduce pays the collective's latency and none runs during backward. Replace the per-parameter loop with DDP, whose bucketed async all-reduces overlap backward; the averaged gradients are identical."),
    ('kernel-fusion',
     'Memory bandwidth: add, GeLU and dropout each do almost no arithmetic per element but each is a separate kernel that reads its input from HBM and writes its output back, so the call moves about three times the bytes it needs and its time matches bytes / copy bandwidth. One fused kernel (e.g. @torch.compile(fullgraph=True)) reads x once and writes once, keeping the intermediates in registers, so about a third of the traffic and the time.'),
    ('gather-sizes',
     "- died first: rank 3, killed by a signal (abort from gloo's enforce in C++), no Python exception; its last log line is 'scored 5 documents'\n- the other three: get errors in the same all_gather at train.py:62 once rank 3's connection closes\n- why it fails: my_documents skips the short documents, so the ranks scored 9, 10, 7 and 5; `mine` has that many elements on each rank, and all_gather requires one shape everywhere: rank 3 (expecting 5) receives rank 2's 7 losses, and gloo aborts on the size mismatch. With TORCH_DISTRIBUTED_DEBUG=DETAIL it reports the tensor shapes differing across ranks\n- fix: all_gather each rank's count, pad `mine` to the maximum, all_gather the padded tensors, then cut each part back to its count before computing the median and p90"),
    ('gather-sizes',
     "The missing traceback is the clue: rank 3 wasn't killed by a Python exception but by an abort inside gloo (a signal, as torchrun's root cause shows), right after it logged 'scored 5 documents'. The ranks skip documents that are too short, so they end up with 9, 10, 7 and 5 losses and call all_gather at line 62 with tensors of different sizes; gloo finds the data it receives doesn't match the size it expects and aborts, and the rest then error out. Share the counts first, pad to the largest, gather the padded tensors and trim each rank's slice to its count."),
    ('timeout-at-item',
     "Not the .item() itself, that only waits for a result: the ranks are really stuck in an all-reduce on the metrics group that rank 1 issued alone, at step 1, in Metrics.add (line 74), because its batch held document 21 (60 tokens, over the context) and the cut-count all-reduce is only issued `if cut:`. From then on rank 1's metrics collectives are one ahead: at step 3's log the other ranks' stats all-reduce (line 77, 2 elements) is paired with rank 1's 1-element cut all-reduce, and the timeout shows up where the results are read; keep the cut count locally and issue one all-reduce of [loss_sum, tokens, cut] at every log on every rank."),
    ('timeout-at-item',
     "- where they're stuck: the metrics group's all-reduces, not the .item() (line 79/80 only reads the result of an asynchronous collective)\n- who started it: rank 1, at step 1: its share contains document 21 (LONG_DOC_TOKENS = 60 > the 24-token context), so Metrics.add issues funcol.all_reduce of the cut tokens at train.py:74; ranks 0, 2, 3 cut nothing and never issue it\n- flight recorder: on the metrics group rank 1 has an extra 1-element all_reduce before the 2-element stats all_reduce of step 3's log (line 77); the others have only the 2-element one, so sequence #1 differs in size and the groups never agree\n- fix: accumulate the cut tokens as a local number and do the same single all-reduce at every log on every rank, [loss_sum, tokens, cut] in one tensor; a longer timeout doesn't help"),
    ('timeout-at-item',
     '先说明：不是 .item() 的问题，.item() 只是读取异步集合通信的结果。真正卡住的是 metrics 进程组上的 all-reduce，起因在1号卡：第1步它的 batch 里有第21号文档（60个 token，超过上下文），Metrics.add 在 train.py:74 只在 cut 非零时发起一个 all-reduce，其他卡没有切掉 token，不会发起。从此1号卡在 metrics 组上的集合通信比别人多一个：第3步记日志时，别的卡的统计 all-reduce（第77行，2个元素）和1号卡那个1个元素的 cut all-reduce 配到了一起，永远对不上，最后在读结果的 .item() 处超时。修法：cut 数先在本地累加，每次记日志时所有 rank 都做同一个 all-reduce，把 loss、token 数和 cut 数放在一个张量里。加长超时不是修复。'),
    ('group-order',
     '四张卡都在 train.py:70 的同一个 all_reduce（average_gradients，第0步），代码里都叫 grads 组，但 flight recorder 显示0号、2号、3号卡用的是进程组1，1号卡用的是进程组2，所以永远碰不到一起。原因：进程组的名字按每个 rank 调用 new_group 的顺序编号。1号卡是写日志的 rank，make_groups 在第60行先构造 MetricsWriter，它在第50行先建了 metrics 组（编号1），再建 grads（编号2）；其他卡先建 grads（编号1）。修法：所有 rank 用同样的顺序先建 grads 再建 metrics，然后再构造只在一个 rank 上的 writer，把 metrics 组传给它。'),
    ('group-order',
     "The stacks all look identical, same line 70, same all_reduce, same variable, which is why the flight recorder matters: ranks 0, 2 and 3 issued it on pg 1, rank 1 on pg 2. new_group names groups by call order on each rank, and on rank 1, the metrics rank, MetricsWriter's constructor calls job_group('metrics') before make_groups creates grads. So its grads is the others' metrics, and the all-reduce waits on two different groups until the 6 s timeout (rank 3 is torchrun's first failure). Create the groups in a fixed order on all ranks first, then give the writer the metrics group."),
    ('exit-hang',
     "It's not a collective: both ranks finished their all-reduces and the final gather at line 99. Rank 0 has exited cleanly; rank 1 hasn't, because Python joins non-daemon threads at exit and its checkpoint-uploader thread is still blocked in queue.get() at line 64. Nothing ever puts the None that ends _run: Uploader.close() is only reached when an exception is raised. Put uploader.close() in a finally block so the remaining checkpoints are written and the thread is joined before main returns."),
    ('stalled-loader',
     "Rank 1, the writer rank, is the odd one: its main thread waits for a batch in next(batches) at train.py:127 while both its DataLoader workers wait on the cache lock in TokenCache.encode (train.py:54); rank 0 waits in step 3's gradient all-reduce in loss.backward and times out. The workers were forked at the start of epoch 2 (iter(loader), line 126) while save_in_background held the lock for the writer thread, and fork copies the held lock but not the thread that releases it; hold the lock only to copy the cache, then write the copy without it (or use persistent workers started before any write)."),
    ('stalled-loader',
     '和别人不一样的是1号卡（负责写缓存的 rank）：它的主线程在 train.py:127 的 next(batches) 里等 DataLoader 给 batch，它的两个 worker 进程都卡在 train.py:54 的 TokenCache.encode，等那把锁。0号卡在第3步 loss.backward() 的梯度 all-reduce 里等，最后超时。原因：第1个 epoch 结束后，1号在 save_in_background 里由主线程拿了锁（第61行），要等后台写线程写完才释放（第75行）；第2个 epoch 开始时 iter(loader)（第126行）fork 出新的 worker，锁此时还被拿着，fork 复制了“已上锁”的状态，却没有复制那个会释放锁的线程，所以子进程里永远没人解锁。修法：只在复制缓存时持锁，复制完马上释放，写盘用副本不持锁；或者用 persistent_workers，在任何写之前就把 worker 建好。'),
    ('collective-order',
     'step 4 sync: r0 -> broadcast @ train.py:55 (sync_schedule); r1-3 -> all_gather @ train.py:46 (gather_tokens <- l.58). collectives matched by order per rank: r0 does bcast->gather, others gather->bcast => mismatch, hang. fix: everyone gather_tokens first, r0 computes lr from the sum, then broadcast(lr, src=0).'),
    ('collective-order',
     "At step 4's first sync rank 0 waits in dist.broadcast at train.py:55 while ranks 1-3 wait in the all_gather at train.py:46 (gather_tokens, called from line 58). sync_schedule's rank-0 branch broadcasts then gathers and the else branch gathers then broadcasts; collectives pair by call order, so they never line up. Call gather_tokens first on every rank, compute the rate on rank 0 from the total, then broadcast."),
    ('collective-order',
     "It's not the gradient all-reduce: the four all-reduces at line 77 all completed. The first collective where the ranks differ is #5: rank 0 is in broadcast at train.py:55 and the other three are in all_gather at train.py:46 (via line 58). The two branches of sync_schedule issue the same two collectives in opposite orders, and since ranks pair collectives by sequence, rank 0's broadcast faces the others' gather. Put the gather first in both branches, derive the lr on rank 0 from the gathered total, broadcast last."),
]

UNEVEN = ("Rank 0 is in step 9's gradient all-reduce at train.py:50; ranks 1-3 wait in the all_gather at train.py:52. "
          "Shard 0 holds one document more, so rank 0 has one extra batch. ")
CKPT = ("Rank 0 waits in all_gather at train.py:42 in data_positions, called from save_checkpoint under if ctx.rank == 0; "
        "ranks 1-3 wait in the gradient all-reduce at train.py:65. ")
ORDER = "Rank 0 is in the broadcast at train.py:55 in sync_schedule while ranks 1-3 are in the all_gather at train.py:46 in gather_tokens. "
FP8_FORMATS = "E4M3 for the activations and weights in the forward, E5M2 for the gradients in the backward"
CRASH = "Rank 0 failed first with an OOM in the forward at train.py:56; ranks 1-3 waited in the gradient all-reduce. "
LONG = "Rank 1 died of OOM at step 4: its batch holds the 600-token document and make_batch pads the whole batch to it; ranks 0, 2, 3 waited in the all-reduce. "
LAUNCH = ("Compute, launch-bound: thousands of tiny ops per step with gaps between them, and a host sync (.item()) per "
          "micro-batch. Sixteen one-sequence micro-batches and a hand-written norm make every op tiny. ")

OWN_STRONG = [
    ("checkpoint-rank0", CKPT + "An all_gather returns only when all four ranks call it, and only rank 0 executes that branch."),
    ("checkpoint-rank0", CKPT + "其他三张卡永远不会来调用这个 all_gather，所以它一直不返回。"),
    ("uneven-batches", "Rank 0 is in step 9's gradient all-reduce at train.py:50; ranks 1-3 wait in the all_gather at train.py:52. "
                       "The documents split 37/36/36/36, so shard 0 makes 10 batches and the others 9. Fix: DistributedSampler(drop_last=True)."),
    ("collective-order", ORDER + "Rank 0 broadcasts then gathers, the others gather then broadcast. Fix: put the gather first in both branches."),
    ("collective-order", ORDER + "0号先 broadcast 后 gather，其他 rank 反过来。修法：两个分支都把 gather 放在前面，再 broadcast。"),
    ("fp8-matmul", FP8_FORMATS + ", each tensor scaled by its amax before the cast."),
    ("fp8-matmul", FP8_FORMATS + ": E4M3 has more mantissa bits, so more precision; gradients need range, which E5M2's exponent bits give."),
    ("fp8-matmul", "前向的 activation 和 weight 用 E4M3，尾数位多，精度更高；梯度用 E5M2，指数位多，范围更大。"),
    ("fp8-matmul", "前向的 activation 和 weight 用 E4M3，梯度用 E5M2；cast 之前每个 tensor 按 amax 缩放。"),
    ("collective-order", ORDER + "Rank 0 broadcasts first, the others gather first; collectives match by order. Unify the order."),
    ("kernel-fusion", "HBM bandwidth: each elementwise kernel reads and writes the whole tensor, and its time matches bytes over "
                      "copy bandwidth. One fused kernel reads x once and writes once."),
    ("gather-sizes", "Rank 3 died first of SIGABRT inside gloo. The ranks skip short documents, so they pass tensors of different "
                     "sizes to all_gather. Fix: gather the counts, pad every rank's losses to the maximum, gather, then trim."),
    ("timeout-at-item", "Not at .item(): that only waits for an earlier asynchronous collective. Rank 1 issued the cut-tokens "
                        "all_reduce in Metrics.add at step 1; ranks 0, 2 and 3 cut no tokens and never issue it. Fix: every rank "
                        "all-reduces [loss, tokens, cut] at every log."),
    ("group-order", "四个 rank 都停在 train.py:70 average_gradients 的 all_reduce。flight recorder 里1号用的是2号进程组，其他 rank "
                    "用的是1号进程组。1号的 MetricsWriter 先建了 metrics 组；修法：所有 rank 按同一顺序建 group，再把 metrics 组交给 writer。"),
    ("exit-hang", "Rank 0 exited; rank 1 is outside any collective: its non-daemon uploader thread waits in queue.get() and the "
                  "interpreter waits for it at exit. close() only runs when an exception is raised. Fix: close the uploader in a finally."),
    ("crashed-rank", CRASH + "Rank 0 keeps every step's logits in `predictions`, so its memory grows each step. Fix: keep only the "
                     "count of right predictions and of real tokens, not the logits of the whole run."),
    ("long-batch", LONG + "Fix: truncate every document to max_len, or split it into windows."),
    ("uneven-batches", UNEVEN + "Equalize the batches per rank: drop the remainder."),
    ("launch-bound", LAUNCH + "Fix: run the sixteen sequences as one micro-batch instead of micro-batches of one sequence, use "
                     "nn.LayerNorm, and keep the losses on the device until the end."),
]

# the labelled tuning answers (wrong, graded right before)
LABELLED_WRONG = [
    ("uneven-batches", "Rank 0 has one extra batch (37 documents against 36) and is stuck in the gradient all-reduce of step 9 while the others wait in the final all_gather. Fix: pad the other three shards by repeating one of their documents, so each of them also gets 10 batches."),
    ('crashed-rank',
     "Rank 0 ran out of memory at train.py:56 in step 5 because it keeps every step's logits in `predictions`, while ranks 1-3 waited in the all-reduce. Fix: raise --device-memory-kib so rank 0 has room for the logits of the whole run."),
    ('long-batch',
     'Rank 1 died of OOM at step 4 because document 70 is 600 tokens and its padded batch is far too big; ranks 0, 2 and 3 waited in the all-reduce. Fix: filter out every document longer than max_len before batching, so the long page never reaches the model.'),
    ('collective-order',
     "Rank 0 is in the broadcast at train.py:55 while ranks 1-3 are in the all_gather at train.py:46, because the branches call them in opposite orders. Fix: make rank 0's broadcast asynchronous (async_op=True) so it doesn't block, and wait on the handle after the gather."),
    ('launch-bound',
     'Launch-bound: too many tiny ops per step. Fix: drop the loss.item() calls and only log the loss every tenth step, and cut the step to 4 micro-batches of one sequence so there are fewer ops.'),
    ('fp8-matmul',
     'E4M3 is for the forward and E5M2 for the backward.'),
    # not here: 'Use E4M3 for weights and activations and E5M2 for gradients; scale them before casting.',
    # labelled partial, but as strong as the strong answers of fixtures/dev_strong_answers.yaml
]

OWN_WRONG = [
    # the brief: every rank the same steps and no document twice
    ("uneven-batches", UNEVEN + "Fix: duplicate one document in each of the other shards so they also get 10 batches."),
    ("uneven-batches", UNEVEN + "修法：给其他三个 shard 各补一篇重复的文档，让它们也有 10 个 batch。"),
    ("uneven-batches", UNEVEN + "Fix: make rank 0 skip its barrier."),
    ("crashed-rank", CRASH + "It appends every step's logits, so its memory grows. Fix: double --device-memory-kib so the logits of the whole run fit."),
    ("crashed-rank", CRASH + "0号每一步都把 logits 存进列表，显存每步都涨。修法：把 device_memory_kib 调大，让整个训练的 logits 都放得下。"),
    ("long-batch", LONG + "Fix: drop the long documents from the corpus, so they never reach the model."),
    ("long-batch", LONG + "修法：把超过 max_len 的长文档过滤掉。"),
    ("collective-order", ORDER + "The two branches call the collectives in opposite orders. Fix: use async_op=True for the broadcast."),
    ("collective-order", ORDER + "两个分支调用的顺序相反。修法：把 broadcast 改成异步。"),
    ("launch-bound", LAUNCH + "Fix: remove the .item() calls and use only 8 micro-batches of one sequence."),
    ("fp8-matmul", "前向用 E4M3，反向用 E5M2。"),
    ("fp8-matmul", FP8_FORMATS + "."),
    ("fp8-matmul", FP8_FORMATS + ": E4M3 has more range, E5M2 more precision."),
]


@pytest.mark.parametrize(("lab", "answer"), LABELLED_STRONG + OWN_STRONG)
def test_strong_answers_pass(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]


@pytest.mark.parametrize(("lab", "answer"), LABELLED_WRONG + OWN_WRONG)
def test_wrong_answers_fail(lab, answer):
    verdict = _diagnose(lab, answer)
    assert not verdict["correct"], verdict["feedback"]


@pytest.mark.parametrize(("lab", "answer", "item", "says"), [
    ("crashed-rank", CRASH + "It appends every step's logits, so its memory grows. Fix: raise --device-memory-kib so rank 0 has "
                     "room for the logits of the whole run.", "why", "only moves the OOM later"),
    ("long-batch", LONG + "Fix: filter out every document longer than max_len before batching.", "why", "drop the long documents"),
    ("launch-bound", LAUNCH + "Fix: drop the .item() calls and cut the step to 4 micro-batches of one sequence.", "fix",
     "fewer sequences per step"),
    ("fp8-matmul", FP8_FORMATS + "; E4M3 has more range.", "formats", "You give E4M3 the range"),
    ("uneven-batches", UNEVEN + "Fix: pad the other shards by repeating a document, so each also gets 10 batches.", "why",
     "trained twice"),
])
def test_a_wrong_fix_or_reason_is_named(lab, answer, item, says):
    verdict = _diagnose(lab, answer)
    entry = _item(verdict, item)
    assert not entry["ok"] and any(says in text for text in entry["missing"]), entry


@pytest.mark.parametrize(("lab", "answer"), [
    # the contradictions are the wrong fix said, not its words denied or the run described
    ("crashed-rank", CRASH + "It keeps every step's logits, so its memory grows until it hits the memory limit. Raising "
                     "--device-memory-kib would only delay it; keep two counts instead."),
    ("long-batch", LONG + "Fix: truncate documents to max_len; dropping the long documents would lose their data."),
    ("uneven-batches", UNEVEN + "Fix: DistributedSampler(drop_last=True), so every rank has the same number of batches; "
                       "padding by repeating documents would train one twice."),
    ("launch-bound", LAUNCH + "Fix: one micro-batch of 16 sequences instead of 16 micro-batches of one sequence, nn.LayerNorm, "
                     "no .item() per step."),
])
def test_the_right_fix_with_the_wrong_one_denied_passes(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]
