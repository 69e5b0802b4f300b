"""The why of every lab diagnosis is graded by claims (issue 14 item 2), hostile first: with the
ranks (hang labs) or the category and its evidence (perf labs) right, a why that is a list of the
rubric's words, said the other way round, or a wrong cause stated fluently fails, and so does a
perf diagnosis that names every rank as the slow one. Strong whys, in English and Chinese and in
wordings of their own, pass. One grading per case (about 2 ms each)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose as _diagnose
from tutor.content import load


CKPT = "Rank 0 waits in all_gather in data_positions, called from save_checkpoint under if ctx.rank == 0; ranks 1-3 wait in the gradient all-reduce. "
PP = "Rank 0 and rank 1 both wait in dist.recv in sync_tied_embedding. "
UNEVEN = "Rank 0 is still in the gradient all-reduce; ranks 1-3 left the loop and wait in the gather in finish. "
DIVERGE = "Rank 0 left the loop and waits in the gather in finish; ranks 1-3 wait in the gradient all-reduce. "
ORDER = "Rank 0 waits in the broadcast in sync_schedule; ranks 1-3 wait in the all_gather in gather_tokens. "
SLOW = "Data loading: each step is idle at its start, before its first operation, and with synthetic data the step is much faster. "
COMM = "Communication: the all-reduces run after backward with no compute beside them, and one rank alone is much faster per step. "
LAUNCH = "Compute, launch-bound: thousands of tiny ops per step with gaps between them, and a host sync (.item()) per micro-batch. "
STRAGGLER = "Straggler: rank 1 computes longer every step and rank 0 waits in the all-reduce. "

STRONG = [
    ("checkpoint-rank0", CKPT + "A collective completes only when every rank calls it, and only rank 0 enters that branch."),
    ("checkpoint-rank0", "0号停在 save_checkpoint 里 data_positions 的 all_gather；1-3号在梯度 all-reduce 里等。这个 gather 写在 if ctx.rank == 0 下面，其他 rank 永远不会调用它。"),
    ("pp-sendrecv", PP + "Each side calls recv before send, so neither ever sends; the sync only runs once the embedding is unfrozen."),
    ("pp-sendrecv", "0号和1号都停在 sync_tied_embedding 的 recv 里。两边都先 recv 再 send，谁也到不了 send；embedding 解冻以后才调用这段，所以从那一步开始卡住。"),
    ("uneven-batches", UNEVEN + "Shard 0 got one document more, so rank 0 has an extra batch. Fix: give every rank the same number of batches with drop_last."),
    ("uneven-batches", "0号停在多出来那一步的梯度 all_reduce；1-3号退出了循环，在 finish 的 gather 里等。shard 0 多一篇文档，0号就多一个 batch。修法：用 DistributedSampler(drop_last=True)。"),
    ("diverging-control-flow", DIVERGE + "Its batch was emptied, so its loss is NaN, and should_stop reduces the flag to rank 0 only; the others never learn. Fix: all_reduce the flag with MAX."),
    ("diverging-control-flow", "0号退出了循环，在 finish 的 gather 里等；1-3号停在梯度 all_reduce 里。0号的 batch 是空的，loss 是 NaN；should_stop 用 reduce 只把结果给了0号。修法：对 flag 做 all_reduce(MAX)。"),
    ("collective-order", ORDER + "Rank 0 broadcasts before it gathers while the others gather first; collectives pair up by call order. Fix: the same order on every rank."),
    ("collective-order", "0号停在 sync_schedule 的 broadcast 里，1-3号停在 gather_tokens 的 all_gather 里。0号先 broadcast 后 gather，其他 rank 反过来。修法：所有 rank 统一顺序，先 gather 再 broadcast。"),
    ("slow-dataloader", SLOW + "The loader re-tokenizes each whole document with a pure-Python BPE every step. Fix: tokenize once before training and slice the stored ids."),
    ("slow-dataloader", "数据加载：每个 step 开头、第一个算子之前都在空等，换成合成数据后快很多。原因是每个 step 都用纯 Python 的 BPE 重新分词。修法：训练前离线分词一次。"),
    ("exposed-comm", COMM + "Every parameter's gradient gets its own synchronous all-reduce after backward. Fix: DDP, which buckets the gradients and overlaps the all-reduce with backward."),
    ("exposed-comm", "通信：all-reduce 都在 backward 之后跑，旁边没有计算，单个 rank 快得多。原因是每个参数一次同步 all-reduce。修法：用 DDP 分桶，在 backward 过程中异步 all-reduce。"),
    ("launch-bound", LAUNCH + "Sixteen one-sequence micro-batches and a hand-written norm make every op tiny. Fix: one bigger micro-batch, nn.LayerNorm, and no .item() per step."),
    ("launch-bound", "compute，launch-bound：每个 step 几千个小算子，中间有空隙，每个 micro-batch 一次 .item() 同步。原因：micro-batch 只有一条序列，归一化是手写的没融合。修法：一个更大的 micro-batch，用融合的 LayerNorm。"),
    ("straggler", STRAGGLER + "The batch is sorted by length and cut into contiguous shares, so rank 1 gets the long documents. Fix: assign documents by token count and pack them."),
    ("straggler", "straggler：rank 1 每个 step 都算得更久，rank 0 在 all-reduce 里等它。batch 按长度排序后切成连续的几份，最后一个 rank 拿到了长文档。修法：按 token 数分配，再 packing。"),
    ("kernel-fusion", "It is memory-bound: HBM bandwidth sets its time. Three kernels read and write every element three times; one fused kernel reads x once and writes once."),
    ("kernel-fusion", "这是 memory-bound 的，受显存带宽限制。三个 kernel 要进出 HBM 三次，融合成一个 kernel 只读写一次。"),
    ("cuda-graphs", "Launch-bound: each kernel is shorter than its CPU launch, so the GPU idles between kernels. A graph captures the loop once and replays it with one launch."),
    ("cuda-graphs", "它是 launch-bound 的：GPU 在 kernel 之间空转，等 CPU 发射。CUDA graph 把整个循环录制一次，之后一次 launch 重放全部 kernel。"),
    # paraphrases written after the conversion, from the prompts (each failed once and was read generally)
    ("checkpoint-rank0", CKPT + "Ranks 1-3 skip that branch, and a collective that not every rank enters can never complete."),
    ("checkpoint-rank0", CKPT + "The other ranks don't participate in the gather, so it blocks forever."),
    ("collective-order", ORDER + "In sync_schedule rank 0 calls broadcast then all_gather, the others call all_gather then "
                                 "broadcast, so the collectives are mismatched. Fix: one call order on all ranks."),
    ("collective-order", ORDER + "The ranks issue the two collectives in a different order. Make all ranks do all_gather first, "
                                 "then broadcast."),
    ("slow-dataloader", "数据加载。每一步开头都有一大段空闲，用合成数据就没了。数据加载器每一步都用 Python 的 BPE 对整篇文档做分词；"
                        "提前分好词，训练时只切片。"),
    ("slow-dataloader", SLOW + "Cause: tokenization happens inside the training loop, every step. Fix: move tokenization out of "
                              "the loop, do it once up front."),
    ("uneven-batches", UNEVEN + "Rank 0 has one more batch because the data doesn't split evenly. Use drop_last so every rank "
                                "gets the same number of batches."),
]

WRONG = [
    # said the other way round
    ("checkpoint-rank0", CKPT + "Every rank calls this gather too; it is not called by rank 0 alone."),
    ("pp-sendrecv", PP + "It is not a deadlock: rank 0 sends before it receives, and the sync runs from the first step."),
    ("uneven-batches", UNEVEN + "Every rank has the same number of batches; no shard holds an extra document."),
    ("diverging-control-flow", DIVERGE + "Its loss is finite, and the flag is not reduced to rank 0 only."),
    ("collective-order", ORDER + "Every rank calls the collectives in the same order, so the order is not the problem."),
    ("slow-dataloader", SLOW + "The tokenizer is not the cause, it runs once before training, and caching would not help."),
    ("exposed-comm", COMM + "It is not one all-reduce per parameter, and bucketing with DDP would not help."),
    ("launch-bound", LAUNCH + "The micro-batch size does not matter, and a bigger micro-batch or a fused LayerNorm wouldn't change anything."),
    ("straggler", STRAGGLER + "It's not the sorting by length: the documents are all the same length, and balancing by tokens wouldn't help."),
    ("kernel-fusion", "It is memory-bound. Fusing does not cut the reads and writes: one kernel still moves the same bytes through HBM."),
    ("cuda-graphs", "It is launch-bound. A graph does not replay the kernels with one launch; the CPU still launches each kernel."),
    # a list of the rubric's words
    ("checkpoint-rank0", CKPT + "only rank 0, collective, every rank, never returns"),
    ("pp-sendrecv", PP + "recv send order deadlock unfreeze frozen embedding tied first step both sides"),
    ("uneven-batches", UNEVEN + "extra batch, uneven shards, drop_last, Join"),
    ("diverging-control-flow", DIVERGE + "NaN, empty batch, reduce dst, all_reduce MAX"),
    ("collective-order", ORDER + "order, swapped, same order, gather first"),
    ("slow-dataloader", SLOW + "tokenize bpe offline cache workers prefetch pretokenize every step python slow"),
    ("exposed-comm", COMM + "per parameter, synchronous, DDP, buckets"),
    ("launch-bound", LAUNCH + "micro batch, unfused norm, fuse, item"),
    ("straggler", STRAGGLER + "sorted by length, padding, balance by tokens, pack"),
    ("kernel-fusion", "Memory-bound. three kernels one kernel HBM round trips once intermediate reads writes traffic"),
    ("cuda-graphs", "Launch-bound. replay capture one launch record once graph kernels cpu gpu idle"),
    # a wrong cause, stated fluently
    ("checkpoint-rank0", CKPT + "It never returns because torch.save is slow on the shared file system."),
    ("pp-sendrecv", PP + "It hangs because the network drops the send under load; the link is flaky."),
    ("uneven-batches", UNEVEN + "Rank 0 is slower because its GPU is throttled, so it falls one step behind; replace the node."),
    ("diverging-control-flow", DIVERGE + "Rank 0 stopped because its GPU threw an ECC error; swap the node."),
    ("collective-order", ORDER + "The broadcast is too large for the network and times out; raise the timeout."),
    ("slow-dataloader", SLOW + "The cause is a slow disk: reading the files takes the time, so buy faster storage."),
    ("exposed-comm", COMM + "The cause is a slow network card; fix it by buying a faster interconnect."),
    ("launch-bound", LAUNCH + "The cause is a model too big for the GPU; fix it with more tensor parallelism."),
    ("straggler", STRAGGLER + "Rank 1's GPU is throttled by heat; fix it by replacing that node."),
    ("kernel-fusion", "It is memory-bound; fusing helps because one kernel runs on the tensor cores and does more FLOPs."),
    ("cuda-graphs", "It is launch-bound; CUDA Graphs help because they run each kernel on more SMs, so the math is faster."),
    ("kernel-fusion", "It is compute-bound: three kernels read and write HBM three times, one fused kernel once."),
    ("cuda-graphs", "It is memory-bound: a graph captures the loop once and replays it with one launch."),
    # every rank named as the slow one
    ("straggler", "Straggler: rank 0 and rank 1 both compute longer and wait in the all-reduce. The batch is sorted by length and cut "
                  "into contiguous shares. Fix: assign documents by token count and pack them."),
]


@pytest.mark.parametrize(("lab", "answer"), STRONG)
def test_strong_whys_pass(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]
    assert verdict["score"] >= 0.8, verdict["score"]


@pytest.mark.parametrize(("lab", "answer"), WRONG)
def test_listed_negated_and_wrong_whys_fail(lab, answer):
    verdict = _diagnose(lab, answer)
    assert not verdict["correct"], verdict["feedback"]
    assert verdict["score"] <= 0.6, verdict["score"]


def test_every_why_is_a_claim():
    # The culprit ranks (from the run's evidence) and a perf lab's category are graded by their own
    # rules; every other point of every lab's diagnosis is a claim, not a word to brush.
    names = {("checkpoint-rank0", "call", "op"), ("checkpoint-rank0", "call", "site"), ("pp-sendrecv", "why", "site")}
    bare = [f"{name}/{item.id}/{point.id}" for name, lab in load().labs.items() for item in lab.model.diagnosis
            if item.id not in ("ranks", "category") for point in item.points
            if (name, item.id, point.id) not in names and not (point.claims or point.contradicts)]
    assert not bare, bare


def test_a_fix_is_not_read_as_a_claim_about_the_run():
    # The contradiction "every rank has the same number of batches" describes the run; the same words
    # as the fix ("Fix: …", "修法：…", "make …", and a clause joined by "so") prescribe and do not clash.
    stated = _diagnose("uneven-batches", UNEVEN + "Every rank has the same number of batches.")
    assert not stated["correct"] and any("as many batches" in text for entry in stated["feedback"] for text in entry["missing"])
    for fix in ("Fix: every rank has the same number of batches, with drop_last.",
                "修法：每个rank的batch数是一样的，用 drop_last。",
                "Make the shards even, so every rank has the same number of batches (drop_last)."):
        verdict = _diagnose("uneven-batches", UNEVEN + "Shard 0 holds one more document, so rank 0 gets an extra batch. " + fix)
        assert verdict["correct"], (fix, verdict["feedback"])


def test_a_label_is_not_counted_in_a_run_of_terms():
    # "Launch-bound compute: many tiny ops, .item() sync per micro-batch" was one 11-word clause with
    # the label and read as a list; the statement after the label is judged on its own words.
    from tutor.grading.claims.clauses import read

    reading = read("Launch-bound compute: many tiny ops, .item() sync per micro-batch; use one bigger micro-batch.")
    assert not any(clause.bare for clause in reading.clauses)
    assert read("Launch-bound compute: tiny ops item sync micro batch fused norm bigger batch graphs compile").clauses[-1].bare


def test_a_wrong_category_or_a_misplaced_culprit_scores_at_most_a_fifth():
    # Both scored 0.4 and 0.33 from the evidence they brushed (calibration: wrong answers <= 0.2).
    category = _diagnose("launch-bound", "data loading: each step waits for tiny ops and .item() host syncs.")
    culprit = _diagnose("checkpoint-rank0", "r1-r3 are stuck in all_gather in save_checkpoint and r0 waits in the all-reduce.")
    assert not category["correct"] and category["score"] <= 0.2, category
    assert not culprit["correct"] and culprit["score"] <= 0.2, culprit


def test_a_diagnosis_not_right_never_scores_above_an_honest_partial_one():
    # Right ranks and call, the why contradicted: it kept its bare share, 0.67, above the 0.6 cap.
    verdict = _diagnose("checkpoint-rank0", CKPT + "Every rank calls this gather too.")
    assert not verdict["correct"] and verdict["score"] <= 0.6, verdict


@pytest.mark.parametrize("answer", [
    "Rank 0 failed first; ranks 1-3 waited in the gradient all-reduce. Rank 0 ran out of memory because it keeps every "
    "step's logits for the accuracy; the other ranks' memory stays flat since they keep nothing.",
    "Rank 0 failed first; ranks 1-3 waited in the gradient all-reduce. OOM on rank 0 only: it appends logits every step, "
    "so its memory grows, while the other ranks have plenty of memory.",
    "0号最先失败，1-3号在梯度 all-reduce 里等。0号每步都把 logits 存进列表，显存一直涨到 OOM；其他 rank 不存，显存是平的。",
])
def test_the_other_ranks_contrasted_are_no_contradiction(answer):
    # "Why only that rank?" is answered by contrast: the others' flat memory describes them, not the
    # culprit. Once a stated contradiction failed a diagnosis, these strong answers failed.
    verdict = _diagnose("crashed-rank", answer)
    assert verdict["correct"], verdict["feedback"]


_LOADER = ("Rank 1's main thread waits for its first batch in the DataLoader, outside any collective; rank 0 is in the "
           "gradient all-reduce. The DataLoader forked the workers while the background save held the lock, so each "
           "worker inherits a held lock. ")
_ITEM = ("Not at .item(), which only waits. The rank whose batch held the long document issued an extra all_reduce in "
         "Metrics.add inside if cut:, which the others never issue. ")
_GATHER = ("The first rank to die got SIGABRT (exit code -6) from gloo's enforce in its background thread, \"Received data "
           "size doesn't match expected size\"; the others then failed in the same all_gather with connection reset by "
           "peer. Each rank drops documents too short to score, so the ranks hold different numbers of losses. ")


@pytest.mark.parametrize(("lab", "answer", "right"), [
    # a wrong fix beside the right one, in the fix: the fix point's contradiction, read from the fix
    ("stalled-loader", _LOADER + "Fix: copy the cache under the lock and write it without the lock, and raise the "
                                 "timeout.", False),
    ("timeout-at-item", _ITEM + "Fix: increase the timeout and all-reduce the sums on every rank at every log.", False),
    ("gather-sizes", _GATHER + "Fix: all_gather the counts, then cut every rank's losses to the smallest count.", False),
    # the wrong fix ruled out, or judged, beside the right one: no contradiction
    ("stalled-loader", _LOADER + "Fix: copy the cache under the lock and write the copy without it; a longer timeout "
                                 "would only wait longer.", True),
    ("stalled-loader", _LOADER + "Fix: copy the cache under the lock and write the copy without it, not num_workers=0.",
     True),
    ("timeout-at-item", _ITEM + "Fix: all-reduce the local sums on every rank at every log instead of raising the "
                                "timeout.", True),
    ("gather-sizes", _GATHER + "Fix: gather the counts first and pad to the max, rather than cutting to the smallest "
                               "count.", True),
    # the program dropping short documents is the cause, not the fix of cutting to the smallest count
    ("gather-sizes", _GATHER + "Fix: all_gather the counts first, pad to the max count, gather, then trim each part to "
                               "its count.", True),
])
def test_a_wrong_fix_beside_the_right_one_is_read_from_the_fix(lab, answer, right):
    assert _diagnose(lab, answer)["correct"] is right


STALLED = "Rank 1 waits in its DataLoader for a batch; the others wait in the gradient all-reduce. "


@pytest.mark.parametrize(("why", "right"), [
    # the condition and what holds then, cut by a comma, are one statement
    ("When the next epoch's workers are forked, the cache lock is still held by the writer thread, and no thread "
     "in the worker releases it. Fix: copy the cache under the lock and write the copy without it.", True),
    ("下一个epoch的DataLoader fork worker的时候，锁还被后台写线程持有，子进程里没人释放。修法：锁里只复制缓存，写的时候不持锁。", True),
    # ... and the same condition with what holds denied is no cause
    ("When the workers are forked, the lock is not held. Fix: copy the cache under the lock and write the copy "
     "without it.", False),
    ("fork worker的时候，锁没有被持有。修法：锁里只复制缓存，写的时候不持锁。", False),
    # the fork and the lock in two statements of their own say nothing about each other
    ("The workers are forked. The lock exists. Fix: copy the cache under the lock and write the copy without it.", False),
])
def test_a_condition_cut_by_a_comma_is_read_with_what_holds_then(why, right):
    verdict = _diagnose("stalled-loader", STALLED + why)
    assert verdict["correct"] is right, verdict["feedback"]


EXIT = "Rank 1 never exits: its main thread returned and waits at interpreter exit. "


@pytest.mark.parametrize(("why", "right"), [
    # every claim turned round: the thread named only as the subject of a denial, "not" beside close
    ("Rank 1's process is not kept alive by its uploader thread: that thread has already returned, and close() is "
     "called on every path, not only on an exception. A non-daemon thread does not stop the interpreter from "
     "exiting, so there is nothing to add in a finally block.", False),
    ("Its non-daemon uploader thread is still running, waiting in queue.get(), and the interpreter waits for it at "
     "exit. close() is only called in the except branch, never after a normal end. Fix: call close() in a finally.",
     True),
])
def test_exit_hang_needs_what_the_thread_does_not_only_its_name(why, right):
    verdict = _diagnose("exit-hang", EXIT + why)
    assert verdict["correct"] is right, verdict["feedback"]


@pytest.mark.parametrize(("answer", "right"), [
    ("表面上四个rank都timeout在.item()(train.py:80)，其实hang从更早开始：r1在截断长文档的那一步，Metrics.add(train.py:74)里条件性地"
     "发了一个cut的all_reduce，别的rank没有这个调用。fix：本地累加cut，log时每个rank都all_reduce [loss_sum, tokens, cut]一个tensor。", True),
    # the same, with the others said to issue it too: no rank-local collective
    ("表面上四个rank都timeout在.item()(train.py:80)，其实hang从更早开始：r1在Metrics.add(train.py:74)里发了一个cut的all_reduce，"
     "别的rank也都发了。fix：本地累加cut，log时每个rank都all_reduce [loss_sum, tokens, cut]一个tensor。", False),
])
def test_timeout_at_item_said_as_a_surface_and_a_conditional_collective(answer, right):
    verdict = _diagnose("timeout-at-item", answer)
    assert verdict["correct"] is right, verdict["feedback"]


BUSY = "r1在忙，不是在等：py-spy里是active，在pieces()里死循环(train.py:62)；r0在step 5的backward梯度all_reduce(train.py:93)里等r1。"


@pytest.mark.parametrize(("why", "right"), [
    # a negation inside the condition of the fix is the condition's, not the fix's
    ("原因：表格比context还长，start原地不动，死循环。fix：找不到句子结尾时在start + max_len处切断。", True),
    ("The table is one sentence longer than the context, so start never moves: an infinite loop. Fix: when no "
     "sentence end fits, cut at the context (start + max_len).", True),
    ("原因：当[start, start+max_len)里找不到EOS时，内层循环把end一直减到start，然后start = end，start没变，外层循环在同一个位置"
     "无限转。修法：end退回到start时就在context处硬切，end = start + max_len。", True),
    # ... while a fix denied outright stays denied
    ("原因：表格比context还长，start原地不动，死循环。fix：不要在start + max_len处切断。", False),
    ("The table is one sentence longer than the context, so start never moves: an infinite loop. Do not cut at the "
     "context.", False),
])
def test_a_negation_in_a_condition_stays_in_it(why, right):
    verdict = _diagnose("busy-rank", (BUSY if any("\u4e00" <= c <= "\u9fff" for c in why) else
                                      "Rank 1 is busy in pieces() (train.py:62); rank 0 waits in the gradient all-reduce. ")
                        + why)
    assert verdict["correct"] is right, verdict["feedback"]


@pytest.mark.parametrize(("answer", "right"), [
    # "compute" the verb, said of the ranks, is no compute category beside communication
    ("Not a straggler, both ranks compute the same 2x32 tokens and their timelines look alike, and not the loader "
     "either. It's exposed communication: in the trace backward finishes and then one small all-reduce per parameter "
     "runs, in series, none during backward, and one rank alone is much faster per step. Replace the per-parameter "
     "loop with DDP, whose bucketed all-reduces overlap backward.", True),
    # ... while compute the category, asserted first, still clashes
    ("It's compute-bound: the GEMMs are slow. In the trace the all-reduces run after backward, one per parameter. "
     "Replace the loop with DDP.", False),
])
def test_compute_the_verb_is_no_category(answer, right):
    verdict = _diagnose("exposed-comm", answer)
    assert verdict["correct"] is right, verdict["feedback"]


@pytest.mark.parametrize(("fix", "right"), [
    # a wrong fix said alone, as the answer's fix, is read there (a contradiction marked `fix`)
    ("Fix: raise --device-memory-kib.", False),
    ("Fix: keep two counts (right predictions and real tokens) instead of the logits.", True),
])
def test_a_wrong_fix_said_on_its_own_is_refused(fix, right):
    why = ("Rank 0 died of an OutOfMemoryError at train.py:56 in train_step at step 5; ranks 1-3 then timed out in the "
           "gradient all-reduce. Rank 0 keeps every step's logits for its accuracy report, so its memory grows each "
           "step until it runs out. ")
    verdict = _diagnose("crashed-rank", why + fix)
    assert verdict["correct"] is right, verdict["feedback"]
