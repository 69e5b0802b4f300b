"""Diagnosis rubrics, tuning round 3: the labelled tuning misses of the diagnosis kind outside the
"which ranks" item (read from the run's evidence in code, not from lab.yaml), each graded as an
interviewer would, with answers of our own beside them (paraphrases, Chinese, cheats).

Strong answers that were refused: a claim said in words the concept lists lacked ("the other three
members never post an all_gather", "memory grows per step", "all_reduce the not-finite flag" where
"not" read as a denial, "the step's first op starts late", "--vary data (SyntheticWindows)", "the time
goes to the data path" beside "compute op", "keeps only documents with length >= min_tokens",
"dist.all_gather(counts, n)", "that line only reads a result", "funcol returns immediately", "the
other ranks issued nothing", "`if cut:` issues", "per log on every rank", "storing the group it is
given", "each worker is a copy of rank 1 with the lock held", "fwd: X, W -> E4M3"); a contradiction
read where it is no claim (the dgrad GEMM "dY in E5M2 times W in E4M3" read as E4M3 gradients,
"E5M2 on the gradient and E4M3 on everything in the forward" as E5M2 forward, and the right fix
"rank 0 先 send 后 recv" as the run described). Wrong answers that passed: a wrong fix (keep the
embedding frozen; run 4 of the 16 micro-batches and scale the loss; fp16 keeping the three
kernels; FP8 without scaling), a wrong mechanism (rank 0's backward crashed), and the FP8 formats
placed with "scale them before casting" and no why (labelled partial: the scale said without what
it is for is no reason)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose as _diagnose
from tests.grading.diagnosing import item as _item


# the labelled tuning answers (strong, graded wrong before)
LABELLED_STRONG = [
    ('checkpoint-rank0',
     'Step by step: main() loops `for step in ctx.steps(len(loader))`, and when `(step + 1) % args.save_every == 0` (step 4 with save_every 5) every rank calls `save_checkpoint(ctx, trainer, loader, path, step)` at line 69. Inside it, `if ctx.rank == 0:` guards everything, including `positions = data_positions(ctx, loader)` at line 48, and data_positions does `dist.all_gather(positions, mine)` at line 42. So rank 0 enters the all_gather and ranks 1, 2, 3 return from save_checkpoint immediately, start step 5 and block in `trainer.train_step` at line 65, in backward\'s DDP gradient all-reduce. Rank 0 is in all_gather at train.py:42 and it never returns because the other three members of the default group never post an all_gather; they are in an all_reduce instead. Fix in code: `positions = data_positions(ctx, loader)` as the first line of save_checkpoint, outside the `if`, then `if ctx.rank == 0:` build `state`, `torch.save(state, f"{path}.tmp")`, `os.replace(...)`, log.'),
    ('pp-sendrecv',
     '2卡pipeline。0号卡和1号卡都卡在dist.recv，位置train.py:109的sync_tied_embedding(从main的train.py:132调用)，两边都在等对方的send，但谁都没send，互相等=死锁。问题行是109：两个stage跑同一段代码，都是先recv(theirs, src=peer)再send(grad, dst=peer)，blocking recv没有对应的send就永远不返回。为什么从step 4才出现：embedding前几步是frozen的，line 131的条件step >= args.unfreeze_at(=4)之前根本不调sync_tied_embedding；step 4开始embedding要训练了，才第一次交换tied weight的梯度，一调就hang。修复：给两端定顺序(rank0先send后recv，rank1先recv后send)，或者用dist.batch_isend_irecv同时发起isend和irecv，或者2卡group上all_reduce。'),
    ('crashed-rank',
     "ws=4. first failure (torchrun root cause): r0, rc 1, error file = simulated CUDA OOM @ train.py:56 (fwd) step 5. r1-3: in train_step bwd @ train.py:56 waiting for grad AR -> later 'Connection closed by peer'. why only r0: `if ctx.rank == 0: predictions.append((trainer.logits, ...))` keeps every step's logits + autograd graph/activations alive -> memory grows per step on r0 only. fix: per step keep correct += hits.sum().item(), total += mask.sum().item(); no tensors stored; r0 still reports token acc."),
    ('slow-dataloader',
     "Walking through the program: Job.step() starts with `self.data.next_batch()`, and for real data that is `DocumentWindows.next_batch`, which for each row calls `self.tokenizer.encode(self.texts[index])` at line 88. `Tokenizer.encode` normalises the text (unicodedata.normalize), splits words with a regex and runs `_merge` on each word, all in Python, on the whole document, and then only SEQ + 1 tokens of the result are used. The forward `self.model(inputs)`, `F.cross_entropy`, backward and the gradient all-reduce can only begin after that returns, so in each rank's trace the step's first op starts late and the main thread is in encode/_merge before it. `--vary data` (SyntheticWindows) removes exactly that and the step drops to a fraction; the one-rank vs two-rank comparison barely moves. That puts the lost time in data loading. Fix in code: in `DocumentWindows.__init__`, `self.ids = [tokenizer.encode(t) for t in texts]` once, and in `next_batch` slice `self.ids[index]` instead of calling encode; same tokens, same windows, same results."),
    ('slow-dataloader',
     'Fix first: tokenize the documents once, before the training loop, store the token ids, and make next_batch just slice a window out of the stored ids; the batches are the same tokens, so the model learns the same thing, and the step gets well over 1.8x faster. Why: the time goes to the data path, the Python tokenizer is re-run on entire documents every step, only to take SEQ + 1 tokens, and it sits in front of every compute op. What shows it: in the per-rank trace the first kernel of each step starts long after the step begins, with the host thread busy in the tokenizer; synthetic data (--vary data) removes most of the step time; going from one to two ranks changes little, so it is not communication; MFU is far below peak. Category: data loading.'),
    ('fp8-matmul',
     "Activations and weights go in E4M3 and the gradient dY goes in E5M2. E4M3 has three mantissa bits and a small range (max 448), so it gives the most precision, which forward values need; E5M2 trades a mantissa bit for a larger exponent range (max 57,344), which suits gradients that span many orders of magnitude. So the forward Y = X·Wᵀ is E4M3 x E4M3, and the input gradient dX = dY·W is dY in E5M2 times W in E4M3 (the HYBRID recipe Transformer Engine uses). Either way each tensor gets its own scale, max of the format over the tensor's amax, before the cast, and the GEMM gets the inverse scales so the result comes out in bf16 at the right magnitude."),
    ('fp8-matmul',
     'fwd: X, W -> E4M3 (3 mant bits, max 448: precision); bwd: dY -> E5M2 (5 exp bits, max 57344: range for grads spanning many orders of mag); dX = dY(E5M2) x W(E4M3) = HYBRID (TE). per-tensor scale = fmt_max / amax before cast, inverse scales to _scaled_mm, out bf16.'),
    ('fp8-matmul',
     "Put E5M2 on the gradient and E4M3 on everything in the forward (activations and weights, and W again in the input-gradient GEMM). Why: gradients vary over a huge dynamic range and need exponent bits more than mantissa bits, which E5M2 gives (range to about 57k, two mantissa bits), while activations and weights are better served by E4M3's extra mantissa bit (more precision, range only to 448). Each tensor is scaled by format max / amax before the cast, and the inverse scale is passed to the FP8 GEMM, so the values fit the format's range and the output is restored."),
    ('gather-sizes',
     "Step by step: `ids = my_documents(corpus, ctx.rank, ctx.world_size, args.min_tokens)` keeps only documents with `corpus.length(i) >= min_tokens` among `range(rank, len(corpus), world_size)`, so with `--docs 48 --min-tokens 10` the ranks end up with 9, 10, 7 and 5 documents, each logging `scored N documents` at line 74. `document_losses` returns a tensor of that length, and `gather_losses` builds `parts = [torch.empty_like(mine) for _ in range(ctx.world_size)]` then calls `dist.all_gather(parts, mine)` at line 62: every rank assumes everyone else sends a tensor of its own length. gloo receives a larger buffer than the one posted, aborts the process from C++ (a signal, no Python traceback, gloo's size-mismatch line as the log's last line), and torchrun reports that rank, rank 3 with only 5 documents, as the first failure. Fix in code: `n = torch.tensor([len(mine)]); counts = [torch.zeros_like(n) for _ in range(W)]; dist.all_gather(counts, n); m = max(counts)`; pad `mine` with `torch.nn.functional.pad(mine, (0, m - len(mine)))`, all_gather the padded tensors, then `torch.cat([p[:c] for p, c in zip(parts, counts)])` before the quantiles on rank 0."),
    ('timeout-at-item',
     "The traceback points at .item() in Metrics.log, but that line only reads a result; the ranks had stopped doing the same thing earlier. Rank 1 is the one that started it: in step 1 its batch holds document 21, which is longer than the context, so Metrics.add saw cut tokens and issued an extra all_reduce of one number on the metrics group (train.py:74). The other ranks cut nothing and issued nothing there. At the first log (step 3) ranks 0, 2 and 3 issue their first metrics-group collective, the all_reduce of the loss/token sums (two numbers, line 77), which the flight recorder lines up against rank 1's one-number cut all_reduce: same position, different size, so the metrics group's collectives never match and everyone blocks when they read the result at .item() (lines 79-80) until the 8 s metrics timeout. Fix: every rank issues the same collectives at every log: keep the cut count as a local sum in add(), and in log() all_reduce one tensor [loss_sum, tokens, cut] on every rank; rank 0 logs the loss over all ranks and the total cut."),
    ('timeout-at-item',
     'ws=4. err @ .item() in Metrics.log (train.py:79/80) = only where result is read (funcol async). real stuck op: metrics-group all_reduce. started by r1: step 1, batch has doc 21 (> ctx) -> cut>0 -> `if cut:` issues extra all_reduce([cut]) size 1 @ train.py:74. r0/r2/r3 never issue it -> at step 3 log their 1st metrics op is all_reduce([loss_sum, tokens]) size 2 @ :77; FR same seq, sizes 1 vs 2 -> mismatch -> hang -> 8s timeout. fix: no rank-conditional collectives: accumulate cut locally, one all_reduce of [loss_sum, tokens, cut] per log on every rank.'),
    ('timeout-at-item',
     'Mechanism in the program\'s terms: the collectives are `funcol.all_reduce`, which return immediately, and a rank waits only where it reads them. `Metrics.add(loss, tokens, cut)` runs every step with `cut = cut_tokens(corpus, batch.ids, loader.max_len)`; only when `cut` is non-zero does it do `self.cut = funcol.all_reduce(torch.tensor([float(cut)]), "sum", self.group)` at line 74. With `--long-doc 21` and 4 documents per rank per step, document 21 is in rank 1\'s slice of step 1, so only rank 1 issues that one-element all_reduce on the metrics group. At step 3, `(step + 1) % args.log_every == 0`, `Metrics.log` issues `stats = funcol.all_reduce(torch.tensor([self.loss_sum, float(self.tokens)]), ...)` at line 77 on every rank, which is the second metrics collective on rank 1 and the first on the others: the first entries in the flight recorder differ, size [1] on rank 1 against [2] on ranks 0, 2, 3. Then `self.cut.item()` / `(stats[0] / stats[1]).item()` at lines 79-80 wait and the metrics group\'s timeout fires there. Fix in code: in `add`, `self.cut_sum += cut` (no collective); in `log`, `stats = funcol.all_reduce(torch.tensor([self.loss_sum, float(self.tokens), float(self.cut_sum)]), "sum", self.group)` on every rank, `self.cut_total += stats[2].item()`.'),
    ('stalled-loader',
     "Walkthrough with the program's names. main() warms `cache` by calling cache.encode for every id, then builds `loader = DataLoader(..., num_workers=WORKERS)`. At the end of each epoch, on `ctx.rank == args.writer_rank` (rank 1 here), it calls `cache.save_in_background(path)`. That method does `self.lock.acquire()` in the main thread and starts a `_write` thread that only calls `self.lock.release()` in its `finally`, after writing every entry with `time.sleep(1.0 / WRITE_DOCS_PER_S)` between them, so the lock is held for seconds. Next step, `step % args.steps == 0`, so line 126 runs `batches = iter(loader)`, which forks two worker processes. Each worker is a copy of rank 1 with `self.lock` already held and no `_write` thread in it. `Documents.__getitem__` calls `self.cache.encode(index)`, which does `with self.lock:` at line 54 and blocks forever. So rank 1's main thread waits in `next(batches)` at line 127, and rank 0 waits in the DDP gradient all-reduce of step 3 in `trainer.train_step` (same line 127) until gloo's timeout. Fix in code: in `save_in_background`, `with self.lock: snapshot = dict(self.tokens)` and hand `snapshot` to the thread, whose `_write` iterates over it with no lock and no `release()`; or build the loader with `persistent_workers=True` and call `iter(loader)` once before the first save."),
]

# labelled strong answers whose "which ranks" item is graded from the evidence (another change):
# only the item this rubric grades is checked
LABELLED_STRONG_ITEM = [
    ('diverging-control-flow', 'why',
     "Fix: all_reduce the not-finite flag with MAX instead of reduce-to-rank-0, so the stop decision is identical on all ranks and every rank breaks at the bad step before updating. Why it was needed: dist.reduce delivers the result only to the destination rank; only rank 0, whose batch had been emptied and whose loss was NaN, saw 'stop', while the other ranks still held their own zero and carried on. Where: 4 ranks at step 5; rank 0 left the loop and is in the all_gather of trainer.finish() at train.py:62; ranks 1, 2, 3 are in the gradient all-reduce at train.py:58."),
    ('group-order', 'why',
     'Mechanism in the code: `make_groups(ctx, log_rank)` does `writer = MetricsWriter(ctx) if ctx.rank == log_rank else None` first, and `MetricsWriter.__init__` sets `self.group = job_group("metrics")`, i.e. `dist.new_group(..., group_desc="metrics")`. Only then `grads = job_group("grads")`, and on the non-logging ranks `metrics = job_group("metrics")` after it. So on rank 1 (`--log-rank 1`) the calls are metrics, grads; on ranks 0, 2, 3 they are grads, metrics. new_group numbers groups by call order, so rank 1\'s `grads` is group 2 and everyone else\'s is group 1. `average_gradients(model, grads, ...)` at line 70 therefore puts rank 1\'s `dist.all_reduce(flat, group=group)` on pg 2 and the others on pg 1, as the flight recorder shows, and all four time out at step 0 at train.py:70. Fix in code: in make_groups, `grads = job_group("grads"); metrics = job_group("metrics"); writer = MetricsWriter(ctx, metrics) if ctx.rank == log_rank else None`, with `MetricsWriter.__init__(self, ctx, group)` storing the group it is given.'),
]

# the labelled tuning answers (wrong or partial, graded right before)
LABELLED_WRONG = [
    ('pp-sendrecv',
     'Both ranks block in dist.recv at train.py:109 in sync_tied_embedding from step 4, because each receives before it sends. Fix: keep the embedding frozen for the whole run (drop the --unfreeze-at switch) so sync_tied_embedding is never called and the pipeline never deadlocks.'),
    ('diverging-control-flow',
     'Rank 0 left the loop at step 5 and waits in the all_gather at train.py:62; ranks 1-3 wait in the all-reduce at train.py:58. Only rank 0 stopped because the NaN loss on its empty batch made its backward crash before the reduce. Fix: guard against empty batches so the loss stays finite.'),
    ('launch-bound',
     'Launch-bound compute: 16 one-sequence micro-batches per step, each op tiny, with a hand-written norm and a loss.item() per micro-batch. Fix: keep the 16 micro-batches but only run 4 of them per step (a quarter of the ops), scaling the loss by 4 to compensate.'),
    ('kernel-fusion',
     'It is memory-bound: three kernels each read and write the whole tensor through HBM. The fix is to run it in fp16 instead of fp32 to halve the bytes, keeping the three kernels as they are.'),
    ('fp8-matmul',
     'Use E4M3 for weights and activations and E5M2 for gradients; scale them before casting.'),
    ('fp8-matmul',
     "E4M3 for activations and weights (precision), E5M2 for gradients (range). No scaling is needed: cast the bf16 tensors straight to FP8 with .to(torch.float8_e4m3fn) and multiply, FP8's exponent handles the range."),
]

CKPT = ("Rank 0 waits in all_gather at train.py:42 in data_positions, called from save_checkpoint under if ctx.rank == 0; "
        "ranks 1-3 wait in the gradient all-reduce at train.py:65. ")
PP = "Ranks 0 and 1 both wait in dist.recv at train.py:109 in sync_tied_embedding. "
PP_ZH = "0号和1号都卡在 train.py:109 sync_tied_embedding 的 dist.recv。"
PP_WHY = "Both receive first, so neither reaches its send; the sync only runs once the embedding is unfrozen at step 4. "
PP_WHY_ZH = "两边都先 recv 再 send，谁都到不了 send；step 4 解冻之后才调用这个函数。"
CRASH_NOTES = "r0 failed first (torchrun root cause), rc 1. r1-3 wait in the grad all-reduce @ train.py:56. "
DIVERGE = ("Rank 0 left the loop at step 5 and waits in the all_gather at train.py:62; ranks 1-3 wait in the gradient "
           "all-reduce at train.py:58. ")
DIVERGE_WHY = "Its batch was emptied, so its loss is NaN, and should_stop reduces the flag to rank 0 only. "
LAUNCH = ("Compute, launch-bound: thousands of tiny ops per step with gaps between them, and a host sync (.item()) per "
          "micro-batch. Sixteen one-sequence micro-batches and a hand-written norm make every op tiny. ")
FUSION = "Memory-bound: the three kernels each read and write the whole tensor in HBM, three round trips. "
FP8_WHY = "E4M3 for activations and weights (more precision), E5M2 for gradients (more range). "
GROUP = ("All four ranks wait in the all_reduce at train.py:70 in average_gradients; the flight recorder shows rank 1 on "
         "process group 2 and ranks 0, 2, 3 on group 1. ")
GROUP_ZH = ("四个 rank 都停在 train.py:70 average_gradients 的 all_reduce。flight recorder 里1号用的是2号进程组，其他 rank "
            "用的是1号进程组。")
STALLED = ("Rank 1, the writer rank, waits in next(batches) at train.py:127 while its workers wait on the cache lock in "
           "TokenCache.encode at train.py:54; rank 0 waits in the gradient all-reduce at train.py:127. ")

OWN_STRONG = [
    ("checkpoint-rank0", CKPT + "The all_gather never returns: the other three ranks never post it, they are in the all-reduce."),
    ("checkpoint-rank0", CKPT + "all_gather 一直不返回，因为其他三个 rank 从不调用它。"),
    # the right fix orders the pair: "rank 0 sends first" is the fix, not the run
    ("pp-sendrecv", PP + PP_WHY + "Fix: rank 0 sends before it receives, rank 1 receives first."),
    ("pp-sendrecv", PP_ZH + PP_WHY_ZH + "修法：rank 0 先 send 后 recv，rank 1 先 recv 后 send。"),
    ("pp-sendrecv", PP + "Both receive first, so neither reaches its send. The embedding stays frozen for the first four steps, "
                    "so the sync only runs once it is unfrozen. Fix: use batch_isend_irecv."),
    ("pp-sendrecv", PP_ZH + "两边都先 recv 再 send。前几步 embedding 一直是冻结的，解冻之后才调用这个同步。修法：用 batch_isend_irecv。"),
    ("crashed-rank", CRASH_NOTES + "r0 keeps every step's logits in predictions -> memory grows per step on r0 only. "
                     "fix: keep two scalars (right predictions, real tokens)."),
    ("crashed-rank", "0号最先失败（torchrun 的 root cause），1-3号在梯度 all-reduce 里等。0号每一步都把 logits 存进 predictions，"
                     "显存每步都在涨。修法：只累计两个数。"),
    ("diverging-control-flow", DIVERGE + DIVERGE_WHY + "Fix: all_reduce the not-finite flag with MAX."),
    ("diverging-control-flow", DIVERGE + DIVERGE_WHY + "Nothing crashed. Fix: all_reduce instead of reduce, so the stop "
                               "decision is identical on all ranks."),
    ("diverging-control-flow", "0号退出了循环，在 finish 的 gather 里等；1-3号停在梯度 all_reduce 里。0号的 batch 是空的，loss 是 NaN；"
                               "should_stop 用 reduce 只把结果给了0号。修法：把 reduce 换成 all_reduce。"),
    ("slow-dataloader", "Data loading: the step's first op starts late, the main thread is in the tokenizer before it, and "
                        "--vary data removes most of the step. next_batch calls tokenizer.encode on the whole document every "
                        "batch. Fix: tokenize once before training and slice the stored ids."),
    ("slow-dataloader", "The time goes to the data path: the Python tokenizer runs in front of every compute op. Each step's "
                        "first kernel starts long after the step begins, and synthetic data removes most of the step time. "
                        "Fix: pre-tokenize the corpus once and slice the stored ids."),
    ("fp8-matmul", "Forward: X and W in E4M3 (precision, max 448). Backward: dY in E5M2 (range, max 57344); the dgrad GEMM "
                   "multiplies dY in E5M2 by W in E4M3. Each tensor is scaled by amax before the cast."),
    ("fp8-matmul", "前向的激活和权重用 E4M3，精度高；梯度用 E5M2，范围大；dgrad 里是 E5M2 的 dY 乘 E4M3 的 W。每个 tensor 按 amax 缩放。"),
    ("fp8-matmul", FP8_WHY + "Without scaling, E4M3 would overflow above 448, so each tensor is scaled by its amax."),
    ("gather-sizes", "Rank 3 died first of SIGABRT inside gloo. my_documents keeps only documents with at least min_tokens "
                     "tokens, so the ranks pass tensors of different sizes to all_gather. Fix: all_gather the counts first, "
                     "pad to the same length, gather, trim."),
    ("timeout-at-item", "Not at .item(): funcol.all_reduce returns immediately and a rank waits only where it reads the result. "
                        "Rank 1 cut a document, and `if cut:` issues the cut all_reduce in Metrics.add; the other ranks issued "
                        "nothing. Fix: keep the cut locally and all_reduce [loss, tokens, cut] per log on every rank."),
    ("timeout-at-item", "不是卡在 item：funcol 的 all_reduce 立即返回，只在读结果的地方等。1号在 Metrics.add 里截断了 token，"
                        "只有一个 rank 发起了截断数的 all_reduce，其他 rank 什么都没发。修法：每次记录时所有 rank 对 [loss, token, "
                        "cut] 做同一个 all_reduce。"),
    ("stalled-loader", STALLED + "Each worker is a copy of the parent process with the lock still held and no thread to "
                       "release it. Fix: copy the cache under the lock and write the copy without it."),
]

OWN_STRONG_ITEM = [
    ("group-order", "why", GROUP + "On the logging rank MetricsWriter creates the metrics group first. Fix: create grads and "
                           "then metrics in make_groups, and MetricsWriter takes the group as an argument."),
    ("group-order", "why", GROUP_ZH + "1号的 MetricsWriter 先建了 metrics 组。修法：make_groups 里先建 grads 再建 metrics，"
                           "把 group 传给 writer。"),
]

OWN_WRONG = [
    ("pp-sendrecv", PP + PP_WHY + "Fix: drop --unfreeze-at so the embedding stays frozen for the whole run."),
    ("pp-sendrecv", PP_ZH + PP_WHY_ZH + "修法：整个训练都让 embedding 保持冻结。"),
    ("diverging-control-flow", DIVERGE + "The NaN loss on its empty batch crashed its backward, so only rank 0 stopped. "
                               "Fix: all_reduce the flag with MAX."),
    ("diverging-control-flow", "0号退出了循环，在 finish 的 gather 里等；1-3号停在梯度 all_reduce 里。0号的 loss 是 NaN，反向崩了，"
                               "所以只有0号停了。修法：对 flag 做 all_reduce(MAX)。"),
    ("launch-bound", LAUNCH + "Fix: run only 4 of the 16 micro-batches per step and scale the loss by 4 to compensate."),
    ("launch-bound", LAUNCH + "修法：每步只跑 4 个 micro-batch，loss 乘以 4 来补偿。"),
    ("kernel-fusion", FUSION + "Fix: cast the tensors to bf16 to halve the bytes."),
    ("kernel-fusion", FUSION + "Fix: keep the three kernels as they are and run them on a faster GPU."),
    ("kernel-fusion", "受 HBM 带宽限制：三个 kernel 每个都读写整个张量。修法：改成 fp16，字节减半。"),
    ("fp8-matmul", FP8_WHY + "Cast them directly to FP8: no scaling is needed."),
    ("fp8-matmul", "前向的激活和权重用 E4M3，精度高；梯度用 E5M2，范围大。不需要缩放，直接转成 fp8。"),
    # the formats placed and the scale's when, with no why
    ("fp8-matmul", "E4M3 for activations and weights, E5M2 for gradients, and scale the tensors before the cast."),
    ("fp8-matmul", "激活和权重用 E4M3，梯度用 E5M2，cast 之前先缩放。"),
    # the formats swapped, as "label: value"
    ("fp8-matmul", "Forward: E5M2, more range. Backward gradients: E4M3, more precision. Each tensor is scaled by its amax."),
    ("fp8-matmul", "前向：E5M2，范围大。梯度：E4M3，精度高。每个 tensor 按 amax 缩放。"),
]


@pytest.mark.parametrize(("lab", "answer"), LABELLED_STRONG + OWN_STRONG)
def test_strong_answers_pass(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]


@pytest.mark.parametrize(("lab", "item", "answer"), LABELLED_STRONG_ITEM + OWN_STRONG_ITEM)
def test_strong_answers_pass_the_rubric_items(lab, item, answer):
    entry = _item(_diagnose(lab, answer), item)
    assert entry["ok"], entry


@pytest.mark.parametrize(("lab", "answer"), LABELLED_WRONG + OWN_WRONG)
def test_wrong_answers_fail(lab, answer):
    verdict = _diagnose(lab, answer)
    assert not verdict["correct"], verdict["feedback"]


@pytest.mark.parametrize(("lab", "answer", "item", "says"), [
    ("pp-sendrecv", PP + PP_WHY + "Fix: keep the embedding frozen for the whole run.", "why", "Keeping the embedding frozen"),
    ("diverging-control-flow", DIVERGE + "Its NaN loss made rank 0 crash before the reduce. Fix: all_reduce the flag.", "why",
     "nothing crashed"),
    ("launch-bound", LAUNCH + "Fix: run only 4 of them per step, scaling the loss by 4.", "fix",
     "Running only some of the micro-batches"),
    ("kernel-fusion", FUSION + "Fix: run it in fp16 instead of fp32.", "bound", "A lower precision changes the values"),
    ("fp8-matmul", FP8_WHY + "No scaling is needed.", "formats", "FP8 cast without a scale"),
    ("fp8-matmul", "Forward (activations, weights): E5M2. Backward gradients: E4M3.", "formats", "You put gradients in E4M3"),
    ("fp8-matmul", "前向：E5M2。梯度：E4M3。", "formats", "你把梯度放成了 E4M3"),
])
def test_a_wrong_fix_or_mechanism_is_named(lab, answer, item, says):
    entry = _item(_diagnose(lab, answer), item)
    assert not entry["ok"] and any(says in text for text in entry["missing"]), entry


@pytest.mark.parametrize(("lab", "answer"), [
    # the wrong fix judged, not proposed
    ("kernel-fusion", FUSION + "Casting to bf16 would only halve the bytes and change the values; one fused kernel reads x "
                      "once and writes once."),
    ("diverging-control-flow", DIVERGE + DIVERGE_WHY + "No rank crashed. Fix: all_reduce the flag with MAX."),
])
def test_the_wrong_fix_judged_or_denied_passes(lab, answer):
    verdict = _diagnose(lab, answer)
    assert verdict["correct"], verdict["feedback"]
