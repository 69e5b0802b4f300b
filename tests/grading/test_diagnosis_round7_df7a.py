"""Lab diagnoses written by hand, round 7 (s36 df7a, 2026-12-04; none from the labelled benchmark): wrong
post-mortems that name the right ranks and the right cause, then end the hang by a fix that drops what
the lab requires or only hides the bug, each idea said the ways other candidates would say it (terse,
spoken, an analogy, a counterfactual, en and zh, zh with and without spaces around Latin words), beside
near misses that must still pass (the right fix, the wrong fix refused, the run described in the same
words). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

# the ranks and the cause said right, so a case turns on its fix
CK = "Rank 0 waits in the all_gather in data_positions (train.py:42), called from save_checkpoint under `if ctx.rank == 0`; ranks 1-3 wait in the DDP all-reduce in backward. Only rank 0 calls the gather, so it never completes. "
CK_ZH = "rank 0 停在 data_positions 的 all_gather（train.py:42），它在 save_checkpoint 的 if ctx.rank == 0 下面；rank 1-3 停在 backward 的 DDP all-reduce 里。只有 rank 0 调用这个 gather，所以它永远完成不了。"
PP = "Both rank 0 and rank 1 wait in recv at train.py:109 in sync_tied_embedding, each for the other's send. Both call recv before send, so neither send is reached; it only starts at step 4 because the sync only runs once the embedding is unfrozen. "
PP_ZH = "rank 0 和 rank 1 都卡在 train.py:109 sync_tied_embedding 的 recv 上，等对方 send。两边都是先 recv 后 send，谁都到不了 send；从第4步开始是因为 embedding 解冻之后才调用这个同步。"
CR = "Rank 0 failed first: OutOfMemoryError in the forward of step 5 (train.py:56). Ranks 1-3 were waiting in the gradient all-reduce in backward. Rank 0 appends every step's logits to predictions for the accuracy, so its memory grows each step until the OOM. "
CR_ZH = "rank 0 最先失败：第5步 forward 里 OOM（train.py:56）。rank 1-3 在 backward 的梯度 all-reduce 里等它。rank 0 为了算准确率把每一步的 logits 存进 predictions，显存每步都在涨，直到 OOM。"
UB = "Rank 0 waits in the gradient all-reduce at train.py:50 in backward; ranks 1-3 have left the loop and wait in the all_gather in trainer.finish() at train.py:52. "
UB_ZH = "rank 0 卡在 backward 的梯度 all_reduce（train.py:50）；rank 1-3 已经跑完循环，卡在 trainer.finish() 里的 all_gather（train.py:52）。"
UB_WHY = "Shard 0 holds one document more, so rank 0 has one batch more. "
UB_WHY_ZH = "shard 0 多一篇文档，所以 rank 0 多一个 batch。"
UB_FIX = " Fix: drop the remainder so every rank has the same number of batches."
UB_FIX_ZH = "修法：丢掉多出来的，让每个 rank 的 batch 数一样多。"
DV = "Rank 0 left the loop at step 5 and waits in the all_gather in trainer.finish(); ranks 1-3 go on and wait in the gradient all-reduce in backward. Rank 0's loss was NaN (an empty batch), and dist.reduce gives the flag only to dst=0, so the other ranks never learn to stop. "
DV_ZH = "rank 0 在第5步离开循环，停在 trainer.finish() 的 all_gather；rank 1-3 继续，停在 backward 的梯度 all-reduce。rank 0 的 loss 是 NaN（空 batch），reduce 只把结果给 rank 0，其他 rank 不知道要停。"
CO = "Rank 0 waits in dist.broadcast of the learning rate in sync_schedule; ranks 1-3 wait in the all_gather of token counts (gather_tokens). Rank 0's branch broadcasts before it gathers, the other branch the other way round, so the collectives are called in a different order. "
CO_ZH = "rank 0 停在 sync_schedule 里学习率的 broadcast；rank 1-3 停在 token 计数的 all_gather（gather_tokens）。rank 0 的分支先 broadcast 后 gather，另一个分支反过来，所以 collective 的调用顺序不一样。"
GS = "The rank in torchrun's root cause died of SIGABRT inside gloo, with no Python traceback. Each rank skips the documents too short to score, so each rank scored a different number of documents and passes a tensor of a different size to all_gather. "
GS_ZH = "torchrun 的 root cause 那个 rank 在 gloo 里 SIGABRT 死掉，没有 Python traceback。每个 rank 跳过太短没法打分的文档，所以打分的文档数不一样，传给 all_gather 的 tensor 大小不同。"
LB = "Rank 1 ran out of memory in the forward pass of step 4; ranks 0, 2 and 3 were waiting in that step's gradient all-reduce. Rank 1's batch at step 4 holds the 600-token document, and make_batch pads the whole batch to it. "
LB_ZH = "rank 1 在第4步的 forward 里 OOM；rank 0、2、3 在这一步的梯度 all-reduce 里等它。rank 1 第4步的 batch 里有那篇 600 token 的文档，make_batch 把整个 batch pad 到它的长度。"
TI = "The .item() is only where the wait surfaced: it waits for an earlier asynchronous collective. The real hang is the cut-tokens all_reduce in Metrics.add under 'if cut:', issued only by rank 1, whose batch had a document cut at step 1. It is issued under a rank-local condition, so the metrics group's collectives are off by one. "
TI_ZH = "报错在 .item()，但它只是在等前面的异步 collective。真正卡住的是 Metrics.add 里 if cut: 下面的截断 token all_reduce，只有 rank 1 发了（它第1步截断了一篇文档）。这个 collective 在 rank 本地条件下才发起，metrics 组上的集合通信错位了。"

# checkpoint-rank0: a fix that drops the gather leaves a checkpoint with rank 0's position only
CHECKPOINT_WITHOUT_THE_OTHERS = [
 ('checkpoint-rank0', CK + 'Fix: remove the all_gather; rank 0 writes only its own position.', W),
 ('checkpoint-rank0', CK + "Fix: delete the gather from data_positions and save rank 0's loader position.", W),
 ('checkpoint-rank0', CK + "Just get rid of the gather: save_checkpoint stores rank 0's own position, nothing to wait for.", W),
 ('checkpoint-rank0', CK + "Fix: don't gather at all, data_positions = [loader.position].", W),
 ('checkpoint-rank0', CK + 'The checkpoint does not need a collective: rank 0 can store just its own loader.position.', W),
 ('checkpoint-rank0', CK + 'Had rank 0 saved just its own position, the job would have finished.', W),
 ('checkpoint-rank0', CK + 'Think of it as a roll call only the teacher attends; easiest is to drop the gather and let rank 0 record its own position.', W),
 ('checkpoint-rank0', CK_ZH + '修法：去掉 all_gather，rank 0 只存自己的 loader.position。', W),
 ('checkpoint-rank0', CK_ZH + '修：把 data_positions 里的 all_gather 删掉，checkpoint 里只写 rank0 自己的 position。', W),
 ('checkpoint-rank0', CK_ZH + '修复：不用gather了，直接存rank 0自己的位置。', W),
 ('checkpoint-rank0', CK_ZH + '修法:checkpoint 里不要 collective,rank 0 只保存它自己的 position 就行。', W),
 # near misses: the right fix, the wrong one refused, the others' own positions gathered
 ('checkpoint-rank0', CK + 'Fix: call data_positions on every rank, write the file on rank 0 only.', R),
 ('checkpoint-rank0', CK + 'Fix: move the all_gather out of the `if ctx.rank == 0` block so every rank gathers; only rank 0 writes.', R),
 ('checkpoint-rank0', CK + "Fix: don't drop the gather, the checkpoint needs every rank's position; call it on all ranks and write on rank 0.", R),
 ('checkpoint-rank0', CK + 'Fix: every rank calls data_positions with its own position, and only rank 0 writes the file.', R),
 ('checkpoint-rank0', CK_ZH + '修法：所有 rank 都调用 data_positions，各自交出自己的 position，只有 rank 0 写文件。', R),
 ('checkpoint-rank0', CK_ZH + '修法：不能把 all_gather 删掉（那样 checkpoint 里只有 rank 0 的位置），要让所有 rank 都进 gather，只在 rank 0 写文件。', R),
 # ... and the wrong fixes of earlier rounds still fail
 ('checkpoint-rank0', CK + 'Fix: raise the timeout.', W),
 ('checkpoint-rank0', CK + 'Fix: add a dist.barrier() before save_checkpoint so all ranks arrive together.', W),
]

# pp-sendrecv: untying the weights (or deleting the sync) drops the tied model the lab requires
UNTIED_WEIGHTS = [
 ('pp-sendrecv', PP + 'Fix: set tied=False so the embedding and the head have separate weights, and drop sync_tied_embedding.', W),
 ('pp-sendrecv', PP + 'Untie them: give the output layer its own weight, then no sync is needed.', W),
 ('pp-sendrecv', PP + 'Fix: delete the sync_tied_embedding call.', W),
 ('pp-sendrecv', PP + "Fix: just don't share the weight between the first and the last stage.", W),
 ('pp-sendrecv', PP + 'Remove the tied-embedding sync entirely; each stage keeps its own copy.', W),
 ('pp-sendrecv', PP + 'Two people each waiting for the other to speak: simplest is to turn weight tying off, then nobody has to talk.', W),
 ('pp-sendrecv', PP_ZH + '修法：不再共享权重，embedding 和输出层各自一份，删掉 sync_tied_embedding。', W),
 ('pp-sendrecv', PP_ZH + '修：tied 设成 False，去掉同步。', W),
 ('pp-sendrecv', PP_ZH + '修复：把 sync_tied_embedding 这个调用删了就不卡了。', W),
 ('pp-sendrecv', PP_ZH + '修法：把tied改成False，不共享weight就不用同步了。', W),
 # near misses
 ('pp-sendrecv', PP + 'Fix: rank 0 sends first and rank 1 receives first, keeping the weights tied.', R),
 ('pp-sendrecv', PP + "Fix: don't untie the weights, order the pair instead: one side sends first, the other receives first.", R),
 ('pp-sendrecv', PP + 'Fix: rank 0 sends first and rank 1 receives first; untying the weights would only hide the hang.', R),
 ('pp-sendrecv', 'The first and the last stage each hold their own copy of the tied weight and add up their gradients after backward. ' + PP + 'Fix: rank 0 sends first, rank 1 receives first.', R),
 ('pp-sendrecv', PP_ZH + '修法：rank 0 先 send 后 recv，rank 1 先 recv 后 send，权重照样共享。', R),
]

# pp-sendrecv: an embedding kept frozen never trains, and the lab says it must
KEPT_FROZEN = [
 ('pp-sendrecv', PP + 'Fix: never unfreeze the embedding.', W),
 ('pp-sendrecv', PP + 'Fix: keep requires_grad=False on the embedding for all steps.', W),
 ('pp-sendrecv', PP + 'Fix: set --unfreeze-at past the last step so the embedding never trains.', W),
 ('pp-sendrecv', PP + "Fix: don't unfreeze it.", W),
 ('pp-sendrecv', PP_ZH + '修:embedding 一直冻结,不再 unfreeze (requires_grad_ 始终设成 False)。', W),
 ('pp-sendrecv', PP_ZH + '修：requires_grad 始终设成 False。', W),
 ('pp-sendrecv', PP_ZH + '修复：把 unfreeze_at 设得比总步数大，embedding 就不会解冻。', W),
 ('pp-sendrecv', PP_ZH + '修法：别让 embedding 解冻了。', W),
 ('pp-sendrecv', PP_ZH + '修法：embedding不要unfreeze，一直冻着。', W),
 # near misses: the freeze described as the run has it
 ('pp-sendrecv', 'rank 0 和 rank 1 都卡在 train.py:109 sync_tied_embedding 的 recv 上，等对方 send。前几步 embedding 一直是冻结的，不调用这个同步；第4步解冻后才调用。两边都是先 recv 后 send，谁都到不了 send。修法：rank 0 先 send 后 recv，rank 1 先 recv 后 send。', R),
 ('pp-sendrecv', 'Both rank 0 and rank 1 wait in recv at train.py:109 in sync_tied_embedding. Both call recv before send, so neither send is reached. The embedding stays frozen for the first three steps, so the sync is not called until step 4. Fix: use batch_isend_irecv for the pair.', R),
 ('pp-sendrecv', PP + "Fix: don't keep the embedding frozen forever; order the pair, rank 0 sends first.", R),
 ('pp-sendrecv', PP_ZH + '修法：不能解开共享权重，也不能一直冻结；应该一边先发一边先收，或者用 batch_isend_irecv。', R),
]

# crashed-rank: more memory (or a smaller batch) only moves the OOM; every step runs on the same small device
MORE_MEMORY = [
 ('crashed-rank', CR + 'Fix: run with --device-memory-kib 1024 so rank 0 has room for all 12 steps of logits; the accuracy code can stay as it is.', W),
 ('crashed-rank', CR + "Fix: --device-memory-kib 2048, enough room for every step's logits.", W),
 ('crashed-rank', CR + 'Fix: give rank 0 a bigger GPU.', W),
 ('crashed-rank', CR + 'Fix: run rank 0 on a device with more memory.', W),
 ('crashed-rank', CR + 'Fix: more memory for rank 0, so the kept logits fit.', W),
 ('crashed-rank', CR + 'Fix: reduce the batch size so the logits fit.', W),
 ('crashed-rank', CR_ZH + '修法：启动时加 --device-memory-kib 1024，让 rank 0 放得下 12 步的 logits。', W),
 ('crashed-rank', CR_ZH + '修：给 rank 0 换一张显存更大的卡。', W),
 ('crashed-rank', CR_ZH + '修复：把 batch size 调小。', W),
 # near misses
 ('crashed-rank', CR + 'Fix: keep running counts of correct and total tokens from detached logits, and report the accuracy at the end.', R),
 ('crashed-rank', CR + 'Fix: more memory would only delay it; keep two counts instead of the logits.', R),
 ('crashed-rank', CR + "You could give it more memory but it'd still run out later; keep counts instead of logits.", R),
 ('crashed-rank', 'Rank 0 failed first: OutOfMemoryError in the forward of step 5. Ranks 1-3 were waiting in the gradient all-reduce in backward. With --device-memory-kib 160 every rank has the same small device, and rank 0 appends every step\'s logits for the accuracy, so its memory grows each step. Fix: keep two running counts instead of the logits.', R),
 ('crashed-rank', CR_ZH + '修法：每步只累加预测对的 token 数和真实 token 数（用 detach 后的 logits），最后算整个 run 的准确率。', R),
]

# crashed-rank: the accuracy of the last step only is not the run's accuracy
LAST_STEP_ACCURACY = [
 ('crashed-rank', CR + "Fix: keep only the last step's logits and compute the accuracy from them.", W),
 ('crashed-rank', CR + 'Fix: overwrite predictions each step instead of appending to it.', W),
 ('crashed-rank', CR + "Only store the final batch's logits, and report the accuracy on that batch.", W),
 ('crashed-rank', CR + 'Fix: compute the token accuracy from the last step only.', W),
 ('crashed-rank', CR + 'Fix: predictions = [(logits, targets, mask)] at every step, so only the latest one stays alive.', W),
 ('crashed-rank', CR_ZH + '修:只保留最后一步的 (logits, targets, mask),每步覆盖 predictions = [...],最后用最后一步算 token accuracy。', W),
 ('crashed-rank', CR_ZH + '修：只留最后一步的 logits，用它算 token accuracy。', W),
 ('crashed-rank', CR_ZH + '修复：accuracy 只算最后一个 step 的就行。', W),
 ('crashed-rank', CR_ZH + '修法：predictions每步覆盖，不再append。', W),
 # near misses
 ('crashed-rank', CR + "Fix: at each step add the step's correct and real tokens to two counters, then drop the logits.", R),
 ('crashed-rank', CR + "Fix: don't keep only the last step, that would be one batch's accuracy; keep two counts over every step instead.", R),
 ('crashed-rank', CR_ZH + '修法：不能只留最后一步（那只是一个 batch 的准确率），要每步累加两个计数。', R),
 ('crashed-rank', CR + 'Fix: detach the logits and turn them into two numbers at every step; the accuracy at the end covers the whole run.', R),
]

# uneven-batches: the gather's sizes are not the cause (rank 0 never reaches it); padding its tensor fixes nothing
GATHER_SIZES = [
 ('uneven-batches', UB + "The all_gather fails because rank 0's tensor has a different size, since shard 0 has one more document." + UB_FIX, W),
 ('uneven-batches', UB + 'Shape mismatch in the final all_gather: rank 0 has one batch more, so it gathers a bigger tensor.' + UB_FIX, W),
 ('uneven-batches', UB + 'Shard 0 holds one document more, so the gathered tensors have mismatched sizes.' + UB_FIX, W),
 ('uneven-batches', UB + "It's the gather: rank 0 has one extra batch and the tensor sizes differ across ranks." + UB_FIX, W),
 ('uneven-batches', UB + UB_WHY + "Fix: pad rank 0's tensor to the others' size before the all_gather.", W),
 ('uneven-batches', UB + 'Rank 0 has one extra batch. Fix: pad the tensors passed to all_gather so every rank has the same number.', W),
 ('uneven-batches', UB_ZH + '问题出在 all_gather：rank 0 多训练了一篇文档，它给 all_gather 的 tensor 大小和别人不一样，所以凑不齐。修：把 rank 0 参与 all_gather 的 tensor pad 到和其他 rank 一样大。', W),
 ('uneven-batches', UB_ZH + 'shard 0 多一篇文档，all_gather 的形状不匹配。' + UB_FIX_ZH, W),
 ('uneven-batches', UB_ZH + 'rank 0 多一个batch，gather的张量尺寸不同。' + UB_FIX_ZH, W),
 ('uneven-batches', UB_ZH + UB_WHY_ZH + '修：all_gather 之前把 tensor 补齐。', W),
 # near misses
 ('uneven-batches', UB + 'Shard 0 holds one document more, so rank 0 has one batch more and runs one more step; the tensors in the gather are the same size.' + UB_FIX, R),
 ('uneven-batches', UB + 'Shard 0 holds one document more, so rank 0 has one extra batch. It is not a size mismatch in the gather: rank 0 never reaches it. Fix: DistributedSampler(drop_last=True).', R),
 ('uneven-batches', UB_ZH + 'shard 0 多一篇文档，所以 rank 0 多一个 batch，多跑一步；不是 all_gather 的大小不一样，rank 0 根本没走到 gather。' + UB_FIX_ZH, R),
 ('uneven-batches', UB + 'The shards differ in size by one document, so rank 0 has one batch more.' + UB_FIX, R),
]

# diverging-control-flow: a continue drops the guard that must stop every rank at that step (skipping empty batches
# beside the all_reduce is harmless, so hiding the trigger is not refused on its own)
GUARD_DROPPED = [
 ('diverging-control-flow', DV + 'Fix: change the break to continue, so the NaN step skips backward and step and training goes on.', W),
 ('diverging-control-flow', DV + 'Fix: replace break with continue.', W),
 ('diverging-control-flow', DV + 'Fix: skip the bad step and keep training instead of stopping.', W),
 ('diverging-control-flow', DV + 'Fix: on a NaN loss just skip that step and carry on with the next one.', W),
 ('diverging-control-flow', DV_ZH + '修:把 break 改成 continue,NaN 的那一步跳过 backward 和 step,继续训练后面的步,这样 rank 0 不会提前退出循环。', W),
 ('diverging-control-flow', DV_ZH + '修法：break换成continue。', W),
 ('diverging-control-flow', DV_ZH + '修复：遇到 NaN 就跳过这一步，接着训练。', W),
 # near misses
 ('diverging-control-flow', DV + 'Fix: all_reduce the flag with MAX so every rank stops together; do not turn the break into a continue.', R),
 ('diverging-control-flow', DV + 'Fix: use dist.all_reduce(bad, op=MAX) instead of dist.reduce(bad, dst=0).', R),
 ('diverging-control-flow', DV + 'Fix: all_reduce(MAX) of the flag; extra: skip empty batches too.', R),
 ('diverging-control-flow', 'Rank 0 left the loop at step 5 and waits in the all_gather in trainer.finish(); the other ranks keep training and wait in the gradient all-reduce in backward. Its loss was NaN, and dist.reduce gives the flag only to dst=0. Fix: all_reduce the flag with MAX.', R),
 ('diverging-control-flow', DV_ZH + '修法：用 all_reduce(MAX) 代替 reduce(dst=0)，让每个 rank 在同一步一起停。', R),
]

# timeout-at-item: dropping the cut count removes what the lab's log must keep
CUT_COUNT_DROPPED = [
 ('timeout-at-item', TI + 'Fix: delete the cut-token all_reduce and the cut counter from Metrics; the log then shows the loss only, and every rank issues the same stats all_reduce.', W),
 ('timeout-at-item', TI + 'Fix: stop counting cut tokens, and every rank issues the same loss all_reduce at each log.', W),
 ('timeout-at-item', TI + 'Fix: just drop the cut count from Metrics, so every rank issues the same all_reduce.', W),
 ('timeout-at-item', TI + 'Fix: every rank issues one all_reduce of loss and tokens at every log; log only the loss.', W),
 ('timeout-at-item', TI + 'Fix: remove the cut counter so Metrics.add has no collective; every rank issues the same all_reduce at each log.', W),
 ('timeout-at-item', TI_ZH + '修法：删掉 Metrics 里的截断计数和它的 all_reduce，日志只打 loss，每次 log 时所有 rank 都发起同一个 all_reduce。', W),
 ('timeout-at-item', TI_ZH + '修：不再统计截断的 token，每次 log 所有 rank 都做一个 all reduce。', W),
 ('timeout-at-item', TI_ZH + '修复：把cut计数去掉，所有rank每次都做同一个all_reduce。', W),
 # near misses
 ('timeout-at-item', TI + 'Fix: remove the cut all_reduce from Metrics.add, sum the cut count locally, and all-reduce loss, tokens and cut together at every log on every rank.', R),
 ('timeout-at-item', TI + 'Fix: every rank issues the same all_reduce at every log, keeping the cut count; do not drop the cut counter.', R),
 ('timeout-at-item', TI_ZH + '修法：Metrics.add 里只做本地累加，每次 log 时所有 rank 对 [loss, tokens, cut] 做一次 all_reduce，截断计数照样保留。', R),
 ('timeout-at-item', TI + 'Fix: raise the timeout, and every rank issues the same all_reduce at each log.', W),
 ('timeout-at-item', 'Rank 0 only logs the loss and the cut count every 3 steps. ' + TI + 'Fix: every rank issues the same all_reduce of loss, tokens and cut at every log.', R),
]

# collective-order: a rate from each rank's own count is not the job's, nor the same everywhere; a longer timeout
# said beside the right order is still a wrong fix
OWN_COUNT_RATE = [
 ('collective-order', CO + 'Fix: drop the broadcast, each rank computes the learning rate from its own token count.', W),
 ('collective-order', CO + 'Fix: all_gather first, then broadcast on every rank, or simply let each rank set the lr from its own tokens.', W),
 ('collective-order', CO + 'Fix: no sync at all, every rank derives its lr from its local token count.', W),
 ('collective-order', CO + "Each rank knows its own tokens; had it computed the rate from its own count, nobody would wait.", W),
 ('collective-order', CO + 'Fix: the same order on every rank: all_gather first, then broadcast; also raise the timeout.', W),
 ('collective-order', CO_ZH + '修法：去掉 broadcast，每个 rank 用自己的 token 数算学习率。', W),
 ('collective-order', CO_ZH + '修：每个rank按自己的token数算lr，就不用broadcast了。', W),
 ('collective-order', CO_ZH + '修法：统一顺序，先 gather 再 broadcast，再把超时调长。', W),
 # near misses
 ('collective-order', CO + 'Fix: the same order on every rank: all_gather first, then broadcast.', R),
 ('collective-order', CO + 'Fix: all_gather first, then broadcast, on every rank; a longer timeout would only wait longer.', R),
 ('collective-order', CO + "Fix: drop the broadcast: every rank gathers every rank's count and computes the same lr itself.", R),
 ('collective-order', CO + "Fix: every rank gathers first, then rank 0 computes the rate from the job's tokens and broadcasts it; not each rank's own tokens.", R),
 ('collective-order', CO_ZH + '修法：所有 rank 先 gather 再 broadcast。', R),
]

# gather-sizes: the padding left in the median, or the short documents scored after all, changes the metric
PADDING_OR_SHORT_IN_METRIC = [
 ('gather-sizes', GS + 'Fix: pad to the max with zeros and take the median over the whole gathered tensor, padding included.', W),
 ('gather-sizes', GS + 'Fix: gather the counts first, pad to the max and gather; no need to trim, the zeros barely move the median.', W),
 ('gather-sizes', GS + "Fix: pad every rank to the largest count and all_gather; don't trim.", W),
 ('gather-sizes', GS + 'Fix: pad to the largest, gather, and compute p90 over the padded tensor.', W),
 ('gather-sizes', GS_ZH + '修法：先交换数量，补齐到最大再 gather，不用截取，直接算中位数。', W),
 ('gather-sizes', GS_ZH + '修：pad到最大后all_gather，连padding一起算p90。', W),
 ('gather-sizes', GS + 'Fix: gather the counts first, pad to the max, gather, trim; and score the short documents too so nothing is skipped.', W),
 ('gather-sizes', GS + 'Fix: stop skipping the short documents, and pad to the max before the gather.', W),
 ('gather-sizes', GS + "Fix: don't skip short documents; gather the counts first and pad to the largest.", W),
 ('gather-sizes', GS + 'Had nothing been skipped, every rank would hold as many losses; so stop skipping and pad to the max to be safe.', W),
 ('gather-sizes', GS_ZH + '修法：不再跳过短文档，再先交换数量，补齐到最大。', W),
 ('gather-sizes', GS_ZH + '修：短文档也打分，然后 pad 到最大再 gather。', W),
 # near misses: the trim said, the skip kept, and a rank that skips nothing described
 ('gather-sizes', GS + 'Fix: gather the counts first, pad to the max, gather, then trim each part to its count; the padding must not enter the median.', R),
 ('gather-sizes', GS + 'Fix: all_gather the counts, pad to the largest, gather, drop the padding before the median. Scoring the short documents would change the set.', R),
 ('gather-sizes', GS_ZH + '修法：先交换数量，pad 到最大，gather 后截取；短文档照样跳过。', R),
 ('gather-sizes', "The rank in torchrun's root cause died of SIGABRT inside gloo. On rank 3 nothing is skipped, rank 1 skips two, so each rank scored a different number of documents and passes a tensor of a different size to all_gather. Fix: gather the counts first, pad to the max, gather, trim.", R),
 ('gather-sizes', 'torchrun 的 root cause 那个 rank 在 gloo 里 SIGABRT 死掉。每个 rank 打分的文档数不一样：rank 3 不跳过任何文档，rank 1 跳过两篇，所以 all_gather 的 tensor 大小不同。修法：先交换数量，补齐到最大，gather，再截取。', R),
]

# long-batch: a larger memory limit beside the right cut, or the one long document dropped, breaks "the same device,
# no document dropped"
LONG_BATCH_EXTRAS = [
 ('long-batch', LB + 'Fix: cut every document to max_len in make_batch, and raise --device-memory-kib to be safe.', W),
 ('long-batch', LB + 'Fix: run with --device-memory-kib 4096.', W),
 ('long-batch', LB + 'Fix: give the job more headroom on device memory.', W),
 ('long-batch', LB + 'Fix: split long documents into windows of max_len, or just skip document 70.', W),
 ('long-batch', LB + 'Fix: cut to max_len, or simply drop doc 70.', W),
 ('long-batch', LB_ZH + '修法：每篇文档截到 max_len，再把 --device-memory-kib 调大一点。', W),
 ('long-batch', LB_ZH + '修：截到max_len，或者干脆跳过第70篇。', W),
 ('long-batch', LB_ZH + '修法：显存上限调高一点，再截断到 max_len。', W),
 # near misses
 ('long-batch', LB + 'Fix: cut every document to max_len in make_batch.', R),
 ('long-batch', LB + 'Fix: split long documents into windows; bumping the device memory would only hide it.', R),
 ('long-batch', 'Rank 1 ran out of memory in the forward pass of step 4 and uses far more device memory than the others; ranks 0, 2 and 3 were waiting in the gradient all-reduce. Its batch holds the 600-token document, and make_batch pads the whole batch to it. Fix: cut every document to max_len.', R),
 ('long-batch', LB_ZH + '修法：把每篇文档截到 max_len（或切成窗口），不丢任何文档。', R),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CHECKPOINT_WITHOUT_THE_OTHERS + UNTIED_WEIGHTS + KEPT_FROZEN + MORE_MEMORY
                         + LAST_STEP_ACCURACY + GATHER_SIZES + GUARD_DROPPED + CUT_COUNT_DROPPED + OWN_COUNT_RATE
                         + PADDING_OR_SHORT_IN_METRIC + LONG_BATCH_EXTRAS)
def test_round7_wrong_fixes(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
