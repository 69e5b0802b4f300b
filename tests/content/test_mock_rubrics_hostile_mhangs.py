"""Hang stages against near misses and right answers written by hand as a hostile candidate would
(2026-12-03; none from the labelled benchmark). Accepted before their contradictions: hang-checkpoint-rank0
with the roles reversed (rank 0 skips the gather) and its fix that moves the file write out of `if rank == 0`
but leaves the gather there; hang-oom-dead-rank with rank 5 "still alive and just slow", the survivors said to
have exited too, srun said to tear the job down, a network issue, and as fixes a bigger GPU, recomputation
turned off, NCCL buffers blamed for the 12 GiB, a raised timeout; hang-uneven-batches with the short shard put
on the other seven, "maybe the eval barrier is just slow", a barrier said to pair with the all-reduce, and as a
fix the batch count agreed by its maximum. A second round (the same day): the checkpoint step blamed on a memory
leak, the weights said not to fit, the OOM put on the other ranks, NCCL blamed, rank 5 said to rejoin after a
torchrun restart, rank 3's shard padded by hand; and refused before, a cap on the tokens per micro-batch and the
batch count all-reduced with MIN.
Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CK, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"

CASES = [
    (CK, "why", "Ranks 1-7 call an all_gather that rank 0 skips, and rank 0 went on to the gradient all-reduce, so "
                "they wait on each other. Step 1200 is the checkpoint step.", WRONG),
    (CK, "why", "Rank 0 is saving the checkpoint at step 1200 and the write to disk is slow, so the other ranks "
                "wait in the all-reduce until the watchdog fires.", WRONG),
    (CK, "why", "save_checkpoint on rank 0 takes longer than the NCCL timeout at step 1200, so the others' "
                "all-reduce times out before rank 0 finishes gathering.", WRONG),
    (CK, "why", "GPU utilization is 100%, so the GPUs are still computing: rank 0's all_gather of the full 1.3B "
                "state is just huge and takes a long time at the checkpoint step 1200.", WRONG),
    (CK, "why", "It could be that only rank 0 calls the all_gather, or it could be a bad GPU that freezes at step "
                "1200.", WRONG),
    (CK, "why", "If the all_gather were only called by rank 0 it would hang; step 1200 is probably just the "
                "checkpoint step.", WRONG),
    (CK, "why", "rank 0, all_gather, save_checkpoint, if rank == 0, all-reduce, deadlock, step 1200 checkpoint.", WRONG),
    (CK, "why", "The all_gather is not under if rank == 0, every rank calls it; rank 0 just reaches it late at the "
                "checkpoint step 1200, after the others time out.", WRONG),
    (CK, "why", "rank 0 在存 checkpoint，写盘太慢，其他 rank 在 all-reduce 里等到超时；1200 步正好是存 checkpoint 的步。", WRONG),
    (CK, "why", "At step 1200 the loss goes NaN on rank 0 and its all_gather of NaN gradients blocks, while the "
                "others wait in the all-reduce. It is the checkpoint step too.", WRONG),
    (CK, "why", "只有 rank 0 调用 all_gather 没错，但这不会 hang；hang 是因为第 1200 步 learning rate warmup 结束，loss 变 nan。", WRONG),
    (CK, "why", "Different collectives, yes, but the root cause is rank 0's GPU: a faulty NVLink makes its "
                "all_gather never finish, always at step 1200.", WRONG),
    (CK, "why", "The ranks are in different collectives because rank 0 runs the gather with a different tensor "
                "shape than the others; step 1200 is the checkpoint step.", WRONG),
    (CK, "why", "all_gather under if rank==0: only rank 0 calls it, ranks 1-7 are in the next step's all-reduce. "
                "Mismatched collectives; 1200 = checkpoint interval.", RIGHT),
    (CK, "why", "save_checkpoint 里的 all_gather 只有 rank 0 调用，其他 rank 跳过它进了下一步 backward 的 all-reduce，两边在不同的 "
                "collective 里互相等。1200 步是存 checkpoint 的步，是代码问题。", RIGHT),
    (CK, "why", "So looking at the stacks, rank 0 is sitting in save_checkpoint, gather_full_state, all_gather, "
                "while everybody else is in backward. My guess is the checkpoint code is wrapped in an if rank == "
                "0 block, which is fine for writing the file, but the gather inside it is a collective and the "
                "other seven ranks never call it: they went straight on to the next step, and DDP's gradient "
                "all-reduce there is waiting for rank 0. So each side waits on the other forever, that's the "
                "deadlock, and the 100% util is just NCCL spinning. It's always 1200 because that's when we "
                "checkpoint.", RIGHT),
    (CK, "why", "rank 0 自己进了 all_gather（在 if rank == 0 里），others skip it and sit in the gradient all-reduce，不匹配的 "
                "collective 互相等。1200 就是 checkpoint interval。", RIGHT),
    (CK, "why", "The gather in save_checkpoint runs only on rank 0; the other ranks never call it and block in "
                "DDP's all-reduce of the next step, so the two collectives never match. Step 1200 is simply the "
                "checkpoint step, deterministic code, not hardware.", RIGHT),
    (CK, "why", "rank 0 skipped the gather and is waiting in the next step's all-reduce, while ranks 1-7 sit in "
                "the all_gather; checkpoint step 1200.", WRONG),
    (CK, "why", "其他 rank 都调用了 all_gather，只有 rank 0 跳过了，进了下一步的 all-reduce，所以互相等；1200 步存 checkpoint。", WRONG),
    (CK, "why", "Only rank 0 calls the all_gather, ranks 1-7 skipped it and wait in the next step's all-reduce: "
                "different collectives. 1200 is the checkpoint step.", RIGHT),
    (CK, "fix", "Raise the NCCL timeout to an hour so rank 0 has time to finish the gather, and set "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL next time.", WRONG),
    (CK, "fix", "Add a dist.barrier() right after save_checkpoint so all ranks sync up before the next step; keep "
                "the timeout short with the flight recorder on.", WRONG),
    (CK, "fix", "Wrap save_checkpoint in a try/except and retry the gather, and auto-restart the job from the last "
                "checkpoint when the watchdog fires.", WRONG),
    (CK, "fix", "Either make every rank call the gather or just raise the timeout, both work; the flight recorder "
                "helps next time.", WRONG),
    (CK, "fix", "Maybe if every rank called the gather it would work, but I'd just restart the job for now.", WRONG),
    (CK, "fix", "every rank, all_gather, outside if rank == 0, sharded checkpoint, flight recorder, "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL.", WRONG),
    (CK, "fix", "把 NCCL timeout 调大到 2 小时，让 rank 0 有时间存完；下次开 TORCH_DISTRIBUTED_DEBUG=DETAIL 检查。", WRONG),
    (CK, "fix", "Only rank 0 should call the gather; make ranks 1-7 wait in a barrier in the else branch until "
                "rank 0 finishes, and keep the timeout short.", WRONG),
    (CK, "fix", "Make the checkpoint save async in a background thread on rank 0 so the training loop doesn't "
                "block on it; keep the timeout short with the flight recorder on.", WRONG),
    (CK, "fix", "Unset TORCH_NCCL_BLOCKING_WAIT so the collective doesn't block, and keep a short timeout with the "
                "flight recorder dumping on timeout.", WRONG),
    (CK, "fix", "Change the checkpoint interval from 1200 to 1000 steps so it doesn't land on the bad step, and "
                "run past step 1200 to verify.", WRONG),
    (CK, "fix", "Move the file write out of the if rank == 0 so every rank writes the checkpoint, and keep the "
                "gather on rank 0; short timeout plus flight recorder.", WRONG),
    (CK, "fix", "只让 rank 0 调用 gather，其他 rank 加一个 barrier 等它；timeout 设短，开 flight recorder。", WRONG),
    (CK, "fix", "Hoist the all_gather out of `if rank == 0` so all ranks call it, write only on rank 0. Short PG "
                "timeout + flight recorder dump, TORCH_DISTRIBUTED_DEBUG=DETAIL; save at step 10 to test.", RIGHT),
    (CK, "fix", "让所有 rank 都调用 gather，只在 rank 0 写文件；或者用 torch.distributed.checkpoint 存分片 checkpoint。timeout 设短，开 "
                "flight recorder，超时 dump；先提前存一次 checkpoint 验证。", RIGHT),
    (CK, "fix", "OK so the core problem is the gather is a collective and it lives inside the rank 0 branch, so "
                "the fix is to pull the gather out of that branch so that every rank calls it, and then only the "
                "actual torch.save stays under if rank == 0. Alternatively you'd switch to a sharded checkpoint "
                "where each rank writes its own piece. For next time, I'd keep the process group timeout at a few "
                "minutes, not the default, and turn on the flight recorder with dump on timeout, and I'd run a "
                "smoke test with TORCH_DISTRIBUTED_DEBUG=DETAIL which checks the collectives match. And verify it "
                "by checkpointing at step 5 and running past it.", RIGHT),
    (CK, "fix", "Use torch.distributed.checkpoint: every rank writes its own shard, so there is no rank-0-only "
                "collective. Run CI once with TORCH_DISTRIBUTED_DEBUG=DETAIL to catch mismatched collectives, and "
                "keep the timeout short with the flight recorder on.", RIGHT),
    (CK, "fix", "gather 挪到 if rank == 0 外面，all ranks call it, 只有写文件留在 rank 0。timeout 调小到几分钟 + flight recorder "
                "dump，CI 里跑一遍 checkpoint 逻辑。", RIGHT),
    (CK, "fix", "把写文件挪出 if rank == 0，每个 rank 都写 checkpoint，gather 还在 rank 0 上不动；timeout 设短。", WRONG),
    (CK, "fix", "Keep the gather on all ranks and only the write on rank 0: move the all_gather out of the if. "
                "Short timeout, flight recorder on.", RIGHT),
    (CK, "fix", "让所有 rank 都调用 gather 而写文件留在 rank 0；timeout 设短，开 flight recorder，提前存一次 checkpoint 验证。", RIGHT),
    (OOM, "why", "The other ranks' all-reduce hung first, and rank 5 then ran out of memory waiting for them at "
                 "step 3072; the 32K batch needs more memory and the data order is the same.", WRONG),
    (OOM, "why", "All ranks run out of memory on the 32K batch at step 3072, rank 5 is just the one that printed "
                 "it; same data order, same batch.", WRONG),
    (OOM, "why", "The NCCL timeout is too short for the 32K batch: rank 5 is slow on the long sequence, the "
                 "watchdog killed it, and the others wait under srun. Same data order every run.", WRONG),
    (OOM, "why", "Rank 5's GPU has an ECC error, that's why it died at step 3072 every time; the others wait for "
                 "it in the all-reduce.", WRONG),
    (OOM, "why", "Rank 5 leaks memory: fragmentation grows every step until it runs out at 3072, which is "
                 "deterministic because the leak grows at the same rate every run.", WRONG),
    (OOM, "why", "Maybe rank 5 ran out of memory, or maybe it is still alive and just slow on the long batch; hard "
                 "to say which.", WRONG),
    (OOM, "why", "If rank 5 died of OOM on the 32K batch the others would wait forever, but it is probably a "
                 "network issue on node017.", WRONG),
    (OOM, "why", "rank 5, OOM, 32K tokens, all-reduce, srun, no agent, same data order.", WRONG),
    (OOM, "why", "rank 5 显存泄漏，每次到第 3072 步刚好耗尽；其他 rank 在 all-reduce 里不停重试等它。", WRONG),
    (OOM, "why", "The 12 GiB allocation is NCCL's buffer for the all-reduce of the 34B gradients, which overflows "
                 "rank 5 at step 3072; the others then wait in the all-reduce, and srun does not stop them.", WRONG),
    (OOM, "why", "srun restarts rank 5 from the same checkpoint every time, so it OOMs again at step 3072 and the "
                 "others keep waiting.", WRONG),
    (OOM, "why", "Rank 5 ran out of memory and exited, and srun tears the whole job down right away; it is the "
                 "same step because the same data order gives the same 32K batch, which needs more activation "
                 "memory.", WRONG),
    (OOM, "why", "rank 5 OOM 了，但其他 rank 也已经跟着退出了，没有在等它；同一个 batch 有 32K token，显存更多，数据顺序固定。", WRONG),
    (OOM, "why", "Rank 5 OOM'd on the 32K-token packed batch and died; srun has no agent to kill the rest, so "
                 "seven ranks block in the all-reduce until the NCCL timeout. Fixed data order, so the same batch "
                 "lands at step 3072 every run.", RIGHT),
    (OOM, "why", "rank 5 在第 3072 步遇到最长 32768 token 的 batch，activation 随序列长度增长，显存不够退出了；srun 没有 agent 把任务停掉，其他 7 个 "
                 "rank 在 all-reduce 里一直等，直到 NCCL timeout。数据顺序固定，同一步就是同一个 batch，不是硬件。", RIGHT),
    (OOM, "why", "Right, so py-spy can't even find rank 5's process, and its log says CUDA out of memory while "
                 "allocating 12 GiB, on a batch whose longest sequence is 32768 tokens. Activations scale with "
                 "sequence length, so that particular batch just needs way more memory than the average one. Rank "
                 "5 dies, but the other seven have no idea, they're sitting in the gradient all-reduce waiting for "
                 "it, and since we launched with srun there's no agent watching that would tear the job down, so "
                 "they wait until the NCCL timeout. And it's the same step every run because the data order is "
                 "fixed, the same batch comes up at 3072, so it's the data, not the hardware.", RIGHT),
    (OOM, "why", "rank 5 爆显存了 (OOM on the 32K batch)，process 已经 exited；no agent under srun，others 卡在 all-reduce "
                 "一直等到 timeout。same data order → same batch，是数据不是硬件。", RIGHT),
    (OOM, "why", "Rank 5 died of OOM on the 32K batch, the others are still alive and wait in the all-reduce; "
                 "nothing tears the job down under srun, so it hangs until the timeout. Same data order, same "
                 "batch.", RIGHT),
    (OOM, "why", "Rank 5 OOMed on the 32K batch; srun kills the other ranks right after, so the job just stops; "
                 "same data order, same batch each run.", WRONG),
    (OOM, "why", "rank 5 只是算得慢，32K token 的 batch 要更多显存；其他 rank 在 all-reduce 里等它，srun 没人停掉任务。数据顺序固定。", WRONG),
    (OOM, "fix", "Raise the NCCL timeout so the others wait until rank 5 comes back, and cap the sequence length "
                 "at 8K when packing.", WRONG),
    (OOM, "fix", "Add automatic restarts: when rank 5 dies, srun relaunches it and it rejoins the all-reduce; "
                 "bucket sequences by length too.", WRONG),
    (OOM, "fix", "Call torch.cuda.empty_cache() every step and set expandable_segments to avoid fragmentation on "
                 "rank 5; launch with torchrun so a failure stops every worker.", WRONG),
    (OOM, "fix", "Either cap the sequence length or just give rank 5 a bigger GPU; torchrun or srun, both are "
                 "fine.", WRONG),
    (OOM, "fix", "torchrun, cap seq len, recompute, CP, short timeout, every rank's log.", WRONG),
    (OOM, "fix", "把 NCCL timeout 调大，等 rank 5 自己恢复；再把序列长度限制在 8K。", WRONG),
    (OOM, "fix", "The 12 GiB is NCCL's buffers, so lower bucket_cap_mb to cut the memory they reserve, and launch "
                 "with torchrun so a failure stops the job.", WRONG),
    (OOM, "fix", "Wrap the step in try/except torch.OutOfMemoryError and retry the batch on rank 5; keep the "
                 "process-group timeout short.", WRONG),
    (OOM, "fix", "Raise max_seq_len to 65536 so the packer handles the 32K sequence, and launch with torchrun so "
                 "its agent stops every worker when one fails.", WRONG),
    (OOM, "fix", "Turn off activation recomputation to save memory on the longest sequences, and launch with "
                 "torchrun so a dead rank ends the job.", WRONG),
    (OOM, "fix", "不用改数据，换成 torchrun 启动，一个 rank 挂了 agent 就停掉所有 worker，timeout 设短。", WRONG),
    (OOM, "fix", "Cap tokens per micro-batch when packing (or recompute / CP for the 32K sequences), launch with "
                 "torchrun so one dead rank kills the job, short PG timeout, collect all ranks' logs.", RIGHT),
    (OOM, "fix", "打包时限制序列长度或者按长度分桶，让最长的 batch 也放得下显存；用 torchrun 启动，一个 worker 失败 agent 就停掉所有 worker；timeout 设短；收集每个 "
                 "rank 的日志。", RIGHT),
    (OOM, "fix", "Well, two things really. The first one is that batch: a 32K-token packed sequence needs a lot "
                 "more activation memory, so I'd bound it, either truncate or cap the sequence length in the "
                 "packer, or bucket by length, or if we really need 32K context then turn on activation "
                 "recomputation or context parallel so the longest sequence fits. The second is the hang itself, "
                 "which is just because nobody kills the job; so launch with torchrun, its agent tears down all "
                 "workers when one fails, and keep the process group timeout short. Oh and gather every rank's "
                 "logs, we only saw the OOM because we looked at rank 5.", RIGHT),
    (OOM, "fix", "Bucket sequences by length so no micro-batch exceeds the memory budget, and run srun "
                 "--kill-on-bad-exit=1 so a dead task ends the step; keep the timeout short.", RIGHT),
    (OOM, "fix", "max_len 限制到 16K 或者开 recompute 给 longest sequence；launch with torchrun，one rank fails 就 kill "
                 "all；timeout 调小。", RIGHT),
    (OOM, "fix", "Raise the NCCL timeout so the others wait until rank 5 comes back, cap the sequence length at 8K "
                 "when packing, and launch with torchrun.", WRONG),
    (OOM, "fix", "把序列长度限制在 8K，或者给 rank 5 换一张显存更大的卡；用 torchrun 启动，一个 worker 失败就停掉所有 worker。", WRONG),
    (OOM, "fix", "Bucket sequences by length to reduce the peak memory, turn on recomputation for the longest "
                 "sequences, and launch with torchrun so one failure stops every worker.", RIGHT),
    (UNEVEN, "why", "Rank 3 has one batch more than the others, so it is still in the all-reduce while the rest "
                    "already went into evaluate()'s barrier; the sampler doesn't pad.", WRONG),
    (UNEVEN, "why", "Rank 3 is slower, its data loader lags behind, so it reaches evaluate()'s barrier late and "
                    "the others give up waiting in the all-reduce.", WRONG),
    (UNEVEN, "why", "The other seven ranks have one batch fewer, so they left the loop early and wait in "
                    "evaluate()'s barrier while rank 3 is still in the all-reduce.", WRONG),
    (UNEVEN, "why", "Maybe rank 3 has one batch fewer, or maybe the eval barrier is just slow; either way the "
                    "sampler doesn't pad.", WRONG),
    (UNEVEN, "why", "If rank 3's shard were one batch shorter it would hang like this, but I think it's an NCCL "
                    "bug in the barrier.", WRONG),
    (UNEVEN, "why", "rank 3, fewer batches, barrier, all-reduce, sampler, drop_last.", WRONG),
    (UNEVEN, "why", "rank 3 的 shard 多一个 batch，其他 rank 先跑完，进了 evaluate 的 barrier 等它；sampler 没有 pad。", WRONG),
    (UNEVEN, "why", "The barrier in evaluate() times out because eval takes too long on rank 3 and the others wait "
                    "in the all-reduce; the sampler has a remainder.", WRONG),
    (UNEVEN, "why", "The sampler uses drop_last, so rank 3 drops its last batch, runs out early and waits in the "
                    "barrier while the others wait in the all-reduce.", WRONG),
    (UNEVEN, "why", "Rank 3 has fewer batches, but a barrier and an all-reduce match each other, so that's fine; "
                    "the hang is a timing issue in evaluate.", WRONG),
    (UNEVEN, "why", "All ranks have the same number of batches; rank 3 just skipped a step because of a NaN loss "
                    "and waits in evaluate()'s barrier while the others wait in the all-reduce.", WRONG),
    (UNEVEN, "why", "rank 3 显存不够，evaluate 里 OOM 了，其他 rank 在 all-reduce 里等它；sampler 不 pad。", WRONG),
    (UNEVEN, "why", "Rank 3's shard is one batch short (the sampler neither pads nor drops the remainder), so it "
                    "exits the loop and sits in evaluate()'s barrier while the others wait in the gradient "
                    "all-reduce.", RIGHT),
    (UNEVEN, "why", "rank 3 那份数据少一个 batch，因为手写的 sampler 不 pad 也不丢余数；它提前跳出循环进了 evaluate 的 barrier，其他 rank 在 "
                    "backward 的 all-reduce 里等它，不是同一个 collective，谁都走不了。", RIGHT),
    (UNEVEN, "why", "OK, so looking at the dumps, seven ranks are in backward, in the DDP all-reduce, and rank 3 "
                    "is in evaluate, in a barrier. That means rank 3 thinks the epoch is over and the others "
                    "don't. The sampler is hand-written with no padding and no drop_last, so rank 3 simply got one "
                    "batch fewer than everybody else and left the training loop one step early. Then it waits in "
                    "the barrier, they wait in the all-reduce, different collectives, and it deadlocks.", RIGHT),
    (UNEVEN, "why", "rank 3 少一个 batch (sampler no pad / no drop_last)，提前退出 loop 进 evaluate barrier；others 在 "
                    "gradient all-reduce 等，collective 不匹配。", RIGHT),
    (UNEVEN, "why", "其他 rank 的 batch 少一个，先跑完进了 evaluate 的 barrier，rank 3 还在 all-reduce 里；sampler 不 pad。", WRONG),
    (UNEVEN, "why", "rank 3 has one batch fewer, so it waits in the barrier while the others wait in the "
                    "all-reduce: the barrier can't match the all-reduce, so it hangs; the sampler doesn't pad.", RIGHT),
    (UNEVEN, "why", "Rank 3 ran out of batches before the others and left the loop; it waits in evaluate()'s "
                    "barrier, they wait in the gradient all-reduce. The sampler has no padding or drop_last.", RIGHT),
    (UNEVEN, "why", "rank 3 少一个 batch，但 barrier 和 all-reduce 是能配对的，所以不是这个原因；是 evaluate 太慢了。", WRONG),
    (UNEVEN, "fix", "Raise the NCCL timeout to an hour so rank 3's barrier waits for the others, and use "
                    "DistributedSampler with drop_last later.", WRONG),
    (UNEVEN, "fix", "Remove the barrier in evaluate(), then every rank gets through the epoch; the sampler can "
                    "stay.", WRONG),
    (UNEVEN, "fix", "Skip evaluate() at the end of the epoch so rank 3 never waits in its barrier, and set "
                    "drop_last on rank 3.", WRONG),
    (UNEVEN, "fix", "Set drop_last=True on each rank's DataLoader so the partial batch is dropped and every rank "
                    "has the same number of batches.", WRONG),
    (UNEVEN, "fix", "Either pad the shards with DistributedSampler or just raise the timeout; both work.", WRONG),
    (UNEVEN, "fix", "If the sampler padded the shards it wouldn't hang; for now I'd add a barrier before "
                    "evaluate() so all ranks sync up.", WRONG),
    (UNEVEN, "fix", "DistributedSampler, drop_last, padding, Join, TORCH_DISTRIBUTED_DEBUG=DETAIL.", WRONG),
    (UNEVEN, "fix", "把 NCCL timeout 调大到一小时，再给 rank 3 单独开 drop_last。", WRONG),
    (UNEVEN, "fix", "Wrap evaluate() in DDP's Join context manager so its barrier waits for everyone; "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL next time.", WRONG),
    (UNEVEN, "fix", "Call dist.barrier() at the end of every step so the ranks stay in sync and reach the last "
                    "step together.", WRONG),
    (UNEVEN, "fix", "All-reduce the batch count with MAX up front so every rank runs the same number of steps, the "
                    "longest shard's.", WRONG),
    (UNEVEN, "fix", "在 evaluate 前面再加一个 barrier，让所有 rank 同步一下，step 数就一样了。", WRONG),
    (UNEVEN, "fix", "DistributedSampler(drop_last=True), or padding, so every rank gets the same number of "
                    "batches; or DDP's Join. TORCH_DISTRIBUTED_DEBUG=DETAIL names the mismatch next time.", RIGHT),
    (UNEVEN, "fix", "用带 drop_last 的 DistributedSampler（或者 pad），让每个 rank 的 step 数一样；也可以用 DDP 的 Join 上下文管理器。下次开 "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL 找出不匹配的 collective。", RIGHT),
    (UNEVEN, "fix", "So the root problem is the ranks disagree on how many steps the epoch has, and the "
                    "hand-written sampler is why. I'd throw it away and use DistributedSampler, and I'd pass "
                    "drop_last=True so that every rank gets exactly the same number of samples, or leave the "
                    "default padding, which repeats a few samples so the shards come out even. If you really want "
                    "to keep uneven shards, wrap the training loop in DDP's Join context manager. And next time, "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL would point straight at the mismatched collective.", RIGHT),
    (UNEVEN, "fix", "All-reduce each rank's batch count with MIN up front and stop every rank at that step, so "
                    "they all run the same number of steps.", RIGHT),
    (UNEVEN, "fix", "sampler 改成 pad 补齐 或 drop_last，every rank same number of batches；或者 Join context manager。", RIGHT),
    (UNEVEN, "fix", "各 rank 的 batch 数 all_reduce 取最大值，让所有 rank 跑一样多的 step。", WRONG),
    (UNEVEN, "fix", "Use DDP's Join context manager so the ranks with fewer batches shadow the collectives of the "
                    "longest shard; or pad with DistributedSampler so every rank has the same number of batches.", RIGHT),
    (CK, "why", "rank 0 is the only one in the all_gather; the others skipped it because of the rank check and "
                "wait in the next step's all-reduce. Deadlock. Checkpoint every 1200 steps.", RIGHT),
    (CK, "why", "Only rank 0 enters save_checkpoint, so its all_gather never gets partners, while ranks 1-7 wait "
                "in DDP's all-reduce; the hang lands on step 1200 since that's the checkpoint interval.", RIGHT),
    (CK, "why", "Rank 0 is in the all_gather and the others are in the all-reduce, which is fine because NCCL "
                "queues them; the real hang is the 100% GPU utilization at step 1200, a kernel spinning forever.", WRONG),
    (CK, "why", "只有 rank 0 调用 all_gather，其他 rank 在下一步 all-reduce 等，互相等；但 1200 步是因为显存泄漏到那一步刚好满了。", WRONG),
    (CK, "why", "The checkpoint write is on rank 0 only, which is the bug: writing a file from one rank hangs "
                "NCCL. Others wait in the all-reduce; step 1200 is the checkpoint step.", WRONG),
    (CK, "why", "Every rank calls the all_gather, but rank 0 calls it with a bigger tensor, so they mismatch and "
                "wait on each other at the checkpoint step 1200.", WRONG),
    (CK, "fix", "Wrap the all_gather in a timeout and retry it if it does not finish; keep the flight recorder on.", WRONG),
    (CK, "fix", "Put a dist.barrier() before save_checkpoint so every rank arrives at step 1200 together; run past "
                "1200 to verify.", WRONG),
    (CK, "fix", "Call gather_full_state on every rank outside the if, then only rank 0 does torch.save. Flight "
                "recorder on with a 10 minute timeout.", RIGHT),
    (CK, "fix", "每个 rank 都调用 all_gather，只有 rank 0 写盘；timeout 设短到几分钟，打开 flight recorder；把 checkpoint 提前到第 10 步验证。", RIGHT),
    (OOM, "why", "Rank 5 exited with CUDA OOM on the 32K-token batch; the others are still in the all-reduce and "
                 "nothing kills them because srun has no agent. Same data order, same batch at 3072.", RIGHT),
    (OOM, "why", "rank 5 OOM 退出了，其他 7 个 rank 还活着在 all-reduce 里等；srun 没有 agent，不会停掉任务。同一个 batch（32K）每次都在 3072 步。", RIGHT),
    (OOM, "why", "Rank 5 ran out of memory because 34B parameters don't fit on one GPU; the others wait in the "
                 "all-reduce under srun; it is the same step because the data order is fixed.", WRONG),
    (OOM, "why", "Rank 5 hit a CUDA OOM on the long batch, but that's unrelated: the others hang because NCCL "
                 "deadlocks on long sequences. Same data order each run.", WRONG),
    (OOM, "why", "The other ranks OOM first on the 32K batch and rank 5 waits for them; srun doesn't stop "
                 "anything; same data order.", WRONG),
    (OOM, "fix", "Switch from srun to torchrun so the agent restarts rank 5 automatically and it rejoins the "
                 "all-reduce; cap the sequence length too.", WRONG),
    (OOM, "fix", "Cap tokens per micro-batch at 16K in the packer, and use srun --kill-on-bad-exit=1 so one failed "
                 "task stops the whole step.", RIGHT),
    (OOM, "fix", "Lower the learning rate so the long batch doesn't blow up memory, and launch with torchrun so "
                 "the agent stops every worker when one fails.", WRONG),
    (UNEVEN, "why", "Rank 3 got one batch less from the sampler (no pad, no drop_last), so it's already in "
                    "evaluate()'s barrier while the others are still in the backward all-reduce.", RIGHT),
    (UNEVEN, "why", "rank 3 比其他 rank 少一个 batch，先跳出循环到了 evaluate 的 barrier；其他 rank 还在 all-reduce 里，collective "
                    "对不上。sampler 没 pad。", RIGHT),
    (UNEVEN, "why", "Rank 3 has one more batch than the rest and is still training while the others sit in the "
                    "barrier; the sampler doesn't pad.", WRONG),
    (UNEVEN, "why", "Rank 3 has fewer batches because its shard is smaller, but the hang itself comes from "
                    "evaluate() running out of GPU memory on rank 3.", WRONG),
    (UNEVEN, "fix", "Use DistributedSampler with drop_last=True so every rank gets the same number of batches.", RIGHT),
    (UNEVEN, "fix", "Pad rank 3's shard by hand with a copy of its last batch so it has as many batches as the "
                    "others.", WRONG),
    (UNEVEN, "fix", "Move evaluate() to rank 0 only, so rank 3 no longer waits in its barrier; every rank then "
                    "runs the same number of steps.", WRONG),
    (UNEVEN, "fix", "Compute the number of batches on each rank, all_reduce it with MIN and have every rank stop "
                    "at that step; or Join.", RIGHT),
    (CK, "why", "Rank 0 never skips the gather, it is the only one that calls it: ranks 1-7 skip it under the if "
                "rank == 0 and wait in the next step's all-reduce. Different collectives; 1200 is the checkpoint "
                "step, not a memory leak.", RIGHT),
    (CK, "fix", "Keep the file write on rank 0 but move the gather out of the if so every rank calls it; short "
                "timeout with the flight recorder; save a checkpoint early to test.", RIGHT),
    (OOM, "why", "Rank 5 is not slow, it is dead: CUDA OOM on the 32K batch. The other ranks did not exit, they "
                 "wait in the all-reduce; srun does not tear the job down, so they wait until the timeout. Same "
                 "data order, same batch.", RIGHT),
    (OOM, "why", "Rank 5 OOMs on the 32K-token batch and exits while the others wait in the all-reduce; the model "
                 "itself fits fine, it's the activations of that batch. No agent under srun, so nothing stops "
                 "them. Fixed data order, same batch every run.", RIGHT),
    (OOM, "fix", "Cap the sequence length in the packer so the longest batch fits in memory; torchrun restarts "
                 "every worker when one fails rather than letting the others hang, and keep the timeout short.", RIGHT),
    (OOM, "fix", "Don't turn off recomputation; turn it on for the longest sequences, or cap the length. Use "
                 "torchrun so a dead rank ends the job, and keep the timeout short.", RIGHT),
    (UNEVEN, "why", "Rank 3 has one batch fewer than the others have, so it's in evaluate()'s barrier while they "
                    "wait in the all-reduce; a barrier can't complete an all-reduce. The sampler doesn't pad.", RIGHT),
    (UNEVEN, "fix", "Use DistributedSampler with padding so every rank has the same number of batches, not a max "
                    "over ranks; or wrap the loop in DDP's Join.", RIGHT),
    (UNEVEN, "why", "The other ranks have one batch fewer than rank 3, so they already sit in evaluate()'s barrier "
                    "and rank 3 is still in the all-reduce.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
