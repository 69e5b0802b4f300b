"""Hang stages, second round (2026-12-03): honest partial answers (one or two true things, the question's
reason missing), answers right on one point and wrong on another, and strong answers in the ways candidates
talk (terse, rambling, Chinese mixed with English, bullets, synonyms). None from the labelled benchmark.
Graded wrong before the round-2 rubric changes are named in interview/hangs.yaml ("round 2").
Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CK, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"

CASES = [
    (CK, "why", "Rank 0 is stuck in an all_gather inside save_checkpoint while the other ranks are in backward.", WRONG),
    (CK, "why", "It's a deadlock: the ranks are waiting on each other in different collectives.", WRONG),
    (CK, "why", "Step 1200 is the checkpoint step, so it's something in the checkpoint code, not the hardware.", WRONG),
    (CK, "why", "Distributed hangs are almost always a collective mismatch: some rank did something different at "
                "step 1200.", WRONG),
    (CK, "why", "Only rank 0 calls the all_gather in save_checkpoint, so the others wait in the all-reduce; it is "
                "at 1200 because the dataloader hits a corrupt sample there.", WRONG),
    (CK, "why", "Only rank 0 calls the gather, and ranks 1-7 have already exited, so rank 0 waits forever. 1200 is "
                "the checkpoint step.", WRONG),
    (CK, "why", "The checkpoint is only saved by rank 0, which is normal; step 1200 is the checkpoint step.", WRONG),
    (CK, "why", "Collective inside a rank-0-only branch. Others never enter it, they're in the next step's DDP "
                "all-reduce. Mismatch = deadlock. 1200 = save interval.", RIGHT),
    (CK, "why", "So, hmm, the thing is... rank 0's stack shows gather_full_state, so it's gathering the full state "
                "dict, and I bet that whole save is guarded by if rank == 0, which, you know, is the classic "
                "pattern, only rank 0 should write. But the gather is a collective, so the other seven never show "
                "up for it; they've gone on into backward and are blocked in the gradient allreduce. Both sides "
                "block. And 1200, that's just our save frequency, it's deterministic.", RIGHT),
    (CK, "why", "gather_full_state 是个 collective，但被包在 if rank == 0 里，所以只有 rank 0 进去了；rank 1~7 没进，直接跑到下一个 step 的 "
                "backward，在 DDP 的 allreduce 上等。两边等的不是同一个 collective，就死锁了。1200 是 checkpoint 频率。", RIGHT),
    (CK, "why", "- rank 0: all_gather in save_checkpoint, only called under rank==0\n- ranks 1-7: next step's "
                "backward, gradient all-reduce\n- mismatched collectives -> deadlock\n- 1200 = save_every", RIGHT),
    (CK, "why", "The state gather is a collective that only the master rank executes; the worker ranks bypass it "
                "and block on the gradient reduction in backward. Nobody can make progress. Step 1200 is when we "
                "save, so it's reproducible: a code bug, not flaky hardware.", RIGHT),
    (CK, "why", "Rank zero alone enters the all-gather because of the rank guard; the remaining seven ranks are "
                "already in the next iteration's all-reduce, so they're stuck in different collectives. It happens "
                "at 1200 as that's the checkpoint cadence.", RIGHT),
    (CK, "why", "只有 rank 0 进了 save_checkpoint 里的 all_gather，其他 7 个 rank 根本没调用它，已经在下一步的 all-reduce 里了，两边互相等。第 1200 "
                "步就是保存 checkpoint 的那一步。", RIGHT),
    (CK, "fix", "Move the all_gather out of the if rank == 0 so every rank calls it.", WRONG),
    (CK, "fix", "Make every rank call the gather, and raise the NCCL timeout so slow saves don't trip it.", WRONG),
    (CK, "fix", "Keep the timeout short with the flight recorder dumping on timeout, and run once with "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL.", WRONG),
    (CK, "fix", "Have every rank call the gather; to catch it sooner, add more logging on rank 0.", WRONG),
    (CK, "fix", "Make every rank call the gather, and disable the NCCL watchdog so it never kills a long job "
                "again; verify by running past 1200.", WRONG),
    (CK, "fix", "Make every rank call the gather, and verify by running past step 1200.", WRONG),
    (CK, "fix", "Move the gather out of the if so all ranks call it, and turn off TORCH_NCCL_BLOCKING_WAIT so the "
                "collective returns right away; run past step 1200 to check.", WRONG),
    (CK, "fix", "A collective must be called by every rank, so find the one that isn't and fix it; keep logs from "
                "every rank.", WRONG),
    (CK, "fix", "Gather on all ranks, torch.save on rank 0 only. Short PG timeout + flight recorder; DETAIL debug "
                "in CI.", RIGHT),
    (CK, "fix", "Right, so, um, the actual fix is boring: the gather has to happen on every rank, so hoist it "
                "above the rank check and leave just the file write inside it. And the second part, making it show "
                "up faster... honestly the default 30 minute timeout is what hurts, so I'd set the process group "
                "timeout to something like two minutes and turn on the flight recorder so we get a dump of who's "
                "in which collective. Oh and run a few steps with TORCH_DISTRIBUTED_DEBUG=DETAIL in CI.", RIGHT),
    (CK, "fix", "把 all_gather 从 rank 0 的分支里拿出来，让 8 个 rank 都调用，只在 rank 0 上 torch.save。下次：init_process_group 的 "
                "timeout 设成几分钟，开 flight recorder，CI 里用 TORCH_DISTRIBUTED_DEBUG=DETAIL 跑一遍 checkpoint。", RIGHT),
    (CK, "fix", "- fix: call gather_full_state on every rank; only rank 0 writes\n- faster: short NCCL timeout (5 "
                "min) + flight recorder dump on timeout\n- CI: save at step 2 so the checkpoint path runs in "
                "minutes", RIGHT),
    (CK, "fix", "Use DCP (torch.distributed.checkpoint) so each rank saves its own shard and nothing collective is "
                "rank-gated; lower the process group timeout and enable the NCCL flight recorder so the next hang "
                "produces a trace within minutes.", RIGHT),
    (CK, "fix", "Collectives must be called by all ranks: do the all-gather unconditionally, gate only the write. "
                "Then TORCH_DISTRIBUTED_DEBUG=DETAIL would have flagged the mismatch right away, and a 5-minute "
                "timeout with the flight recorder makes it fail fast.", RIGHT),
    (CK, "fix", "所有 rank 一起做 gather，写盘只在 rank 0；timeout 从默认的 30 分钟改成 5 分钟，flight recorder 打开，超时自动 dump 各 rank 在哪个 "
                "collective。", RIGHT),
    (OOM, "why", "Rank 5 died, its log says CUDA out of memory.", WRONG),
    (OOM, "why", "Rank 5 OOMed on the 32K-token batch.", WRONG),
    (OOM, "why", "Rank 5 ran out of memory on the long batch: 32768 tokens need far more activation memory.", WRONG),
    (OOM, "why", "The others are stuck in the all-reduce because rank 5 never arrives; it's the same step because "
                 "the data order is fixed.", WRONG),
    (OOM, "why", "Rank 5 ran out of memory on the 32K-token batch and the others wait in the all-reduce; it "
                 "repeats at 3072 because GPU 5 has less free memory than the other GPUs.", WRONG),
    (OOM, "why", "Rank 5 OOM'd on the long 32K batch and the others are stuck in the all-reduce since srun doesn't "
                 "kill them; it's the same step because fragmentation builds up until 3072.", WRONG),
    (OOM, "why", "Rank 5 hit CUDA OOM on the 32K batch; the other ranks crash right after it and srun restarts "
                 "them, which is why it's always 3072.", WRONG),
    (OOM, "why", "A rank went away and the collective can't complete, so everyone waits; it's deterministic.", WRONG),
    (OOM, "why", "r5 OOM on the 32K seq batch -> dead; no torchrun agent under srun, so the other 7 block in AR "
                 "until NCCL timeout. Fixed data order => same batch, same step.", RIGHT),
    (OOM, "why", "Hmm, so, the thing that jumps out is py-spy says No such process for rank 5, so it's not hung, "
                 "it's dead. And its log, yeah, CUDA OOM trying to grab 12 GiB, on a batch where the longest "
                 "sequence is 32768. Long packed sequences mean big activations, they all scale with the length, "
                 "so that batch blows past the 80 GB. Meanwhile everyone else is sitting in the all-reduce for the "
                 "gradients, and since we used srun there's no agent noticing a worker died, so they just sit "
                 "there till the NCCL timeout. Same step every time because the data order is the same, so it's "
                 "the same batch, data, not a bad GPU.", RIGHT),
    (OOM, "why", "rank 5 因为 32K 长序列的 batch activation 太大 OOM 挂了；srun 不会 kill 其他 rank，所以剩下 7 个 rank 卡在 all-reduce "
                 "直到 NCCL timeout。shuffle seed 固定，3072 步永远是同一个 batch。", RIGHT),
    (OOM, "why", "- rank 5: CUDA OOM (12 GiB alloc) on a batch with a 32768-token sequence, process gone\n- ranks "
                 "0-4, 6, 7: alive, blocked in the gradient all-reduce\n- srun: no agent, nothing tears it down, "
                 "so it hangs until the timeout\n- same step: the fixed data order puts that batch at 3072", RIGHT),
    (OOM, "why", "The job isn't deadlocked so much as orphaned: rank 5 hit an out-of-memory error on an unusually "
                 "long packed sample (32K tokens, activation memory scales with length) and terminated. The "
                 "surviving seven are parked in the gradient all-reduce, and srun doesn't propagate the failure, "
                 "so they wait for the NCCL timeout. Deterministic data ordering means the same sample arrives at "
                 "step 3072 each time.", RIGHT),
    (OOM, "why", "Rank 5 is dead, not stuck: OOM on the batch with a 32K-token sequence, whose activations are "
                 "several times bigger. The other seven wait for it in the all-reduce forever, since under srun "
                 "nobody kills them. Same data order, so the same batch every run.", RIGHT),
    (OOM, "why", "5 号卡 OOM 退出了（那个 batch 最长 32768 token，activation 跟序列长度成正比）；srun 下没人把 job 杀掉，其余 7 张卡一直在 allreduce "
                 "里等，等到 NCCL 超时。数据顺序没变，所以每次都是同一个 batch、同一步，不是硬件问题。", RIGHT),
    (OOM, "fix", "Cap the sequence length at 16K when packing.", WRONG),
    (OOM, "fix", "Cap the sequence length at 16K when packing, and collect every rank's log, not only rank 0's.", WRONG),
    (OOM, "fix", "Launch with torchrun so a dead rank ends the job, and keep the process-group timeout short.", WRONG),
    (OOM, "fix", "Shuffle the data differently every run so the long batch doesn't always land on step 3072, and "
                 "launch with torchrun so one failure stops all workers.", WRONG),
    (OOM, "fix", "Cap the sequence length at 32K so that batch fits, and launch with torchrun so one dead rank "
                 "stops the others.", WRONG),
    (OOM, "fix", "Catch the OOM exception on rank 5, skip that batch and carry on; launch with torchrun so a real "
                 "failure stops every worker.", WRONG),
    (OOM, "fix", "Turn on recomputation for the longest sequences, and collect the logs of all ranks.", WRONG),
    (OOM, "fix", "Make sure one rank dying can't hang the others.", WRONG),
    (OOM, "fix", "max_seq_len 8K (or length-bucketed packing); torchrun so one dead worker kills the rest; 5-min "
                 "PG timeout; aggregate all ranks' stderr.", RIGHT),
    (OOM, "fix", "OK so two things, really. First, the actual memory problem: that one batch with the 32K "
                 "sequence, we need to stop it being a surprise, so either cap the packed length, say at 16K, or "
                 "if we actually need long context, turn on activation checkpointing or context parallel so the "
                 "long sequence fits. Second, and this is the part that made it a hang instead of a crash: srun "
                 "with no agent. I'd launch with torchrun so when a worker dies the agent tears down the others, "
                 "or at least srun --kill-on-bad-exit=1. And shorter NCCL timeouts while we're at it.", RIGHT),
    (OOM, "fix", "packing 时把 max length 限制到 16K 或按长度分桶；换成 torchrun 启动，一个 worker 挂了 agent 会把其他的都停掉；NCCL timeout "
                 "设短一点；收集所有 rank 的 log。", RIGHT),
    (OOM, "fix", "- memory: truncate or bucket sequences so no micro-batch exceeds ~16K tokens, or enable "
                 "activation recomputation for the long ones\n- hang: torchrun (the agent kills all workers on a "
                 "failure) or srun --kill-on-bad-exit=1\n- short process-group timeout", RIGHT),
    (OOM, "fix", "Put a token budget on each packed micro-batch so the worst case is bounded, or use selective "
                 "activation checkpointing for the long context; and run under an elastic launcher that fails the "
                 "whole job when any worker exits, with a short collective timeout.", RIGHT),
    (OOM, "fix", "Limit packed sequences to 8192 tokens, a quarter of the 32768 that blew up, and let torchrun's "
                 "agent kill every worker when one dies.", RIGHT),
    (OOM, "fix", "把最长序列截到 8K（原来 32K 的四分之一），或者给长序列开重计算；用 torchrun，一个 rank 挂了就全停，timeout 设短。", RIGHT),
    (OOM, "fix", "把最大长度限制在 32K，用 torchrun 启动，一个 rank 挂了就全停。", WRONG),
    (OOM, "fix", "把 32K 的长序列限制到 8K，用 torchrun 启动，一个 rank 挂了就全停。", RIGHT),
    (UNEVEN, "why", "Rank 3 has one batch fewer, because the hand-written sampler doesn't pad.", WRONG),
    (UNEVEN, "why", "Rank 3 is in evaluate()'s barrier while the others are in the all-reduce: different "
                    "collectives.", WRONG),
    (UNEVEN, "why", "The dataset size isn't divisible by 8 and the sampler doesn't handle the remainder.", WRONG),
    (UNEVEN, "why", "Rank 3 has one batch fewer and waits in evaluate()'s barrier while the others wait in the "
                    "all-reduce; that's because the sampler uses drop_last.", WRONG),
    (UNEVEN, "why", "Rank 3 got one batch fewer because its DataLoader worker crashed; it waits in evaluate's "
                    "barrier while the others wait in the all-reduce.", WRONG),
    (UNEVEN, "why", "Rank 3 finished the epoch first because its GPU is the fastest; it waits in the barrier while "
                    "the others are still in the all-reduce.", WRONG),
    (UNEVEN, "why", "Some rank ran out of data, so the collectives don't line up at the end of the epoch.", WRONG),
    (UNEVEN, "why", "Rank 3 has one batch fewer, so it sits in the barrier, and the barrier's timeout is shorter "
                    "than the all-reduce's, so it gives up first.", WRONG),
    (UNEVEN, "why", "Uneven shards: rank 3 gets N-1 batches (no pad or drop_last), exits the loop early into "
                    "evaluate's barrier; the other 7 sit in the backward all-reduce. Barrier != all-reduce, "
                    "deadlock.", RIGHT),
    (UNEVEN, "why", "So what's going on, I think, is the classic uneven-data thing. The sampler is hand-rolled and "
                    "it just splits the indices, so when the dataset size doesn't divide by eight, some ranks get "
                    "one more batch than others, and here rank 3 is the unlucky one with one less. So, on the last "
                    "step, rank 3 has nothing left, it falls out of the for loop and goes to evaluate, which "
                    "starts with a barrier. Everyone else still has a batch, does forward, backward, and backward "
                    "does the DDP all-reduce, which needs rank 3. Rank 3's barrier needs them. Nobody moves.", RIGHT),
    (UNEVEN, "why", "数据集大小不能被 8 整除，手写 sampler 又没做 padding / drop_last，rank 3 分到的 batch 比别人少一个。最后一步 rank 3 已经 break "
                    "出 loop 进 evaluate() 的 barrier，其他 7 个 rank 还在 backward 的 all-reduce，collective 对不上，deadlock。", RIGHT),
    (UNEVEN, "why", "- rank 3's shard: one batch short (sampler: no pad, no drop_last)\n- rank 3: done with the "
                    "epoch, so evaluate() and its barrier\n- ranks 0-2, 4-7: last step's backward, gradient "
                    "all-reduce\n- a barrier and an all-reduce never pair, so it hangs", RIGHT),
    (UNEVEN, "why", "Rank 3 exhausted its iterator one iteration before its peers, since the custom sampler leaves "
                    "the remainder unevenly distributed. It then blocks in the evaluation barrier, while its peers "
                    "block in DDP's gradient reduction, a collective rank 3 will never issue.", RIGHT),
    (UNEVEN, "why", "rank 3 has 1 fewer step than everyone else (like 124 vs 125) since the sampler neither pads "
                    "nor drops; so it's already in evaluate's barrier while the rest are in the grad all-reduce of "
                    "step 125. mismatched collectives, hang.", RIGHT),
    (UNEVEN, "why", "3 号 rank 的数据少了一个 batch（sampler 不补齐也不丢尾巴），提前结束训练循环，卡在 evaluate 的 barrier；别的 rank 在等梯度 "
                    "all-reduce，两边等的不是同一个通信操作。", RIGHT),
    (UNEVEN, "why", "Rank 3 has one batch fewer since the sampler neither pads nor uses drop_last; it waits in "
                    "evaluate's barrier while the others wait in the all-reduce.", RIGHT),
    (UNEVEN, "fix", "Make sure every rank runs the same number of steps.", WRONG),
    (UNEVEN, "fix", "Use DistributedSampler with drop_last=True, and raise the NCCL timeout for the barrier too.", WRONG),
    (UNEVEN, "fix", "Give every rank the same number of batches by padding, and wrap evaluate() in DDP's Join so "
                    "its barrier can't hang.", WRONG),
    (UNEVEN, "fix", "Shuffle the data before sharding so the shards come out even.", WRONG),
    (UNEVEN, "fix", "Use no_sync() on the last step so DDP skips the all-reduce there and every rank reaches "
                    "evaluate().", WRONG),
    (UNEVEN, "fix", "Catch the NCCL timeout, then restart from the last checkpoint; turn on "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL next time.", WRONG),
    (UNEVEN, "fix", "Set TORCH_DISTRIBUTED_DEBUG=DETAIL and the flight recorder so the mismatch is named next "
                    "time.", WRONG),
    (UNEVEN, "fix", "Pad every shard with DistributedSampler so every rank has the same number of batches, and put "
                    "evaluate() on rank 0 only.", WRONG),
    (UNEVEN, "fix", "DistributedSampler(drop_last=True) -> equal steps per rank. Or pad. Or Join.", RIGHT),
    (UNEVEN, "fix", "Hmm, so the root cause is the sampler, so that's what I'd fix. Honestly I'd just delete the "
                    "hand-rolled one and use torch's DistributedSampler, which by default pads by repeating a few "
                    "indices, so every rank ends up with exactly ceil(N/8) samples, or pass drop_last=True if "
                    "you'd rather throw the remainder away. Either way the step count is identical across ranks. "
                    "If for some reason the shards have to stay uneven, DDP has the Join context manager for "
                    "exactly this. And I'd turn on TORCH_DISTRIBUTED_DEBUG=DETAIL in the smoke test.", RIGHT),
    (UNEVEN, "fix", "换成 DistributedSampler，drop_last=True 或者默认的 padding，保证 8 个 rank 的 step 数完全一致；不想改 sampler 的话就用 "
                    "DDP 的 Join。", RIGHT),
    (UNEVEN, "fix", "- sampler: pad to a multiple of world_size (or drop_last)\n- every rank: same number of "
                    "batches\n- alt: model.join() for uneven inputs\n- CI: TORCH_DISTRIBUTED_DEBUG=DETAIL", RIGHT),
    (UNEVEN, "fix", "Trim the dataset so its length is divisible by world_size times batch_size, so each rank gets "
                    "an identical number of iterations; alternatively use DDP's Join so finished ranks shadow the "
                    "collectives.", RIGHT),
    (UNEVEN, "fix", "Compute steps_per_epoch as the min over ranks (all_reduce with ReduceOp.MIN) and break every "
                    "rank's loop at that step.", RIGHT),
    (UNEVEN, "fix", "每个 rank 的 batch 数 all_reduce 取最小值，大家都只跑这么多步；或者让 sampler 补齐到 8 的倍数。", RIGHT),
    (CK, "why", "Classic rank-gated collective. ckpt gather runs only on r0, r1-r7 are in bwd AR of step 1201. "
                "Deadlock. 1200 % save_interval == 0.", RIGHT),
    (CK, "why", "rank 0 在做 checkpoint 的 gather，其他卡在 backward；是死锁。", WRONG),
    (CK, "why", "Only rank 0 calls the all_gather; the others wait for it in the all-reduce, and it's step 1200 "
                "because that's when the learning rate warmup ends.", WRONG),
    (CK, "why", "Only rank 0 enters the all_gather; the other ranks are in the all-reduce of step 1201. The hang "
                "is at 1200 because rank 0's GPU overheats there.", WRONG),
    (CK, "fix", "Gather on every rank and save on rank 0; TORCH_DISTRIBUTED_DEBUG=DETAIL catches it in a 2-GPU "
                "test.", RIGHT),
    (CK, "fix", "Put the gather behind a dist.barrier() so the others wait for rank 0 before they start the next "
                "step, and turn on the flight recorder.", WRONG),
    (CK, "fix", "Every rank calls the gather. Then raise the timeout to 2 hours so the next one has time to show "
                "up in the flight recorder.", WRONG),
    # why at the same step on every run left unanswered: refused since round 3 (2026-12-03)
    (OOM, "why", "Rank 5 OOMs on the 32K batch; the other 7 sit in the all-reduce waiting for a rank that's gone.", WRONG),
    (OOM, "why", "rank 5 被 OOM 杀掉了。", WRONG),
    (OOM, "why", "rank5 OOM（32K 长序列，activation 暴涨）→ 进程没了；其他 rank 傻等在 allreduce，srun 不管；数据顺序固定所以每次 3072。", RIGHT),
    (OOM, "fix", "Use torchrun, or srun --kill-on-bad-exit=1, so the job dies instead of hanging; and bucket by "
                 "length so no batch goes past 16K tokens.", RIGHT),
    (OOM, "fix", "Reduce the global batch size by 4x (a quarter) so everything fits, and launch with torchrun.", WRONG),
    (OOM, "fix", "Lower the micro-batch token budget to a quarter (8K instead of 32K) and have torchrun stop every "
                 "worker on failure.", RIGHT),
    (OOM, "fix", "Drop the long sequences from the dataset, and switch to torchrun so a dead rank stops the job; "
                 "short NCCL timeout.", RIGHT),
    (UNEVEN, "why", "rank 3 is short one batch, so it's sitting in the eval barrier while ranks 0-2 and 4-7 are in "
                    "the last backward's all-reduce. A barrier can't satisfy an all-reduce.", RIGHT),
    (UNEVEN, "why", "Data imbalance across ranks.", WRONG),
    (UNEVEN, "fix", "Make the sampler pad, every rank then sees ceil(N/8) samples.", RIGHT),
    (UNEVEN, "fix", "Use DDP's Join context manager around the training loop; it's built for uneven inputs.", RIGHT),
    (UNEVEN, "fix", "Add a dist.barrier() at the top of evaluate() on the other ranks too so they all meet there.", WRONG),
    (CK, "why", "It hangs because the GPUs are all at 100% and the NCCL watchdog eventually times out, at step "
                "1200 every run.", WRONG),
    (CK, "why", "嗯，我看一下……rank 0 的栈是 save_checkpoint -> gather_full_state -> all_gather，其他 rank 都在 backward。那基本就是 "
                "gather 被写在 if rank == 0 里了，只有 rank 0 在调这个 collective，其他人早就进了下一步的梯度 all-reduce，双方都在等对方。至于为什么总是 "
                "1200，因为 checkpoint 每 1200 步存一次嘛。", RIGHT),
    (CK, "fix", "Honestly, first thing: the gather. It's a collective, so, you know, it can't live inside if rank "
                "== 0. Pull it out, every rank does the gather, rank 0 alone does torch.save. Then for catching "
                "these faster: I'd drop the NCCL timeout from 30 min to like 3 min and have the flight recorder on "
                "so the dump tells me who is in which collective.", RIGHT),
    (CK, "fix", "Switch from NCCL to gloo for the checkpoint gather so it can't hang, and keep the timeout short.", WRONG),
    (OOM, "why", "It stops at step 3072 on every run because the data order doesn't change.", WRONG),
    (OOM, "why", "- rank 5 is gone (no such process), CUDA OOM in its log\n- the 32K-token batch: activations "
                 "scale with sequence length\n- the others block in the all-reduce; srun has no agent to kill "
                 "them\n- same data order every run", RIGHT),
    (OOM, "fix", "Honestly the main thing is that one dead rank shouldn't freeze seven others, so torchrun, or "
                 "srun with --kill-on-bad-exit. Oh, and the memory: bucket by sequence length or cap it at 16K so "
                 "that 32K batch can't happen.", RIGHT),
    (OOM, "fix", "Give rank 5 more memory by moving part of its layers to the other GPUs, and use torchrun.", WRONG),
    (UNEVEN, "why", "The last step of the epoch hangs because one rank is in a different place than the others.", WRONG),
    (UNEVEN, "why", "嗯……其实就是数据没分匀：手写 sampler 没 pad，rank 3 比别人少一个 batch，先退出 loop 去 evaluate 里的 barrier 等着了；其他 7 个 "
                    "rank 还在最后一步 backward 的 all-reduce 里等 rank 3，两边互相等。", RIGHT),
    (UNEVEN, "fix", "So, the clean fix: make the step count identical on every rank. DistributedSampler does that "
                    "for you: by default it pads, repeating a handful of samples, or with drop_last=True it trims. "
                    "I'd go with that.", RIGHT),
    (UNEVEN, "fix", "Rewrite the sampler so rank 3 gets the remainder samples too.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_partial_answers_and_right_answers_in_candidates_words(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
