"""Round 4 (2026-12-03), right answers refused after the round's new contradictions: thirteen stages (the three
hang scenarios' why and fix, the four debug stages' next step, led-dense-400b, pitch-recipe, behavioural-hang-story),
answered in voices not tried before — the wrong idea named and set aside ("people often blame a bad GPU, but",
"rather than torchrun", "I wouldn't just buy bigger GPUs", "someone might plan on 90% MFU"), numbers bound to
something else ("40% MFU, ~100 days"), bullets, arrows, terse shorthand, rambling speech, Chinese with English
terms — plus wrong answers as guards. Written by hand, none from the labelled benchmark. Each case: (scenario id,
step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CK, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"
DL, EXP, LB, ST = "debug-data-loading", "debug-exposed-communication", "debug-launch-bound", "debug-straggler"
LED, PITCH, STORY = "led-dense-400b", "pitch-recipe", "behavioural-hang-story"

CASES = [
    # checkpoint rank 0 / why
    (CK, "why", "Rank 0 is not stuck in backward like the others; it sits in an all_gather inside save_checkpoint, a "
                "collective only rank 0 calls. Ranks 1-7 are in backward's all-reduce. Different collectives, so nobody "
                "completes. Step 1200 is the checkpoint interval, not a hardware fault.", RIGHT),
    (CK, "why", "Evidence first: rank0 stack = all_gather <- gather_full_state <- save_checkpoint; ranks 1..7 = "
                "backward (DDP all-reduce). So a collective called under `if rank == 0` — the others never join it "
                "and rank 0 never joins their all-reduce. 1200 = save_every, that's the first checkpoint.", RIGHT),
    (CK, "why", "People often blame a bad GPU or the network when it's always the same step, but this is deterministic: "
                "the checkpoint runs every 1200 steps, and the save path does an all_gather that only rank 0 enters, "
                "while the other seven are waiting in the gradient all-reduce.", RIGHT),
    (CK, "why", "rank 0 在 save_checkpoint 里调了 all_gather，只有 rank 0 进了这个 collective；其他 7 个 rank 在 backward 的 "
                "all-reduce 里等。两边等的不是同一个 collective，所以互相卡死。总是 1200 步是因为那是存 checkpoint 的步数。", RIGHT),
    (CK, "why", "- rank 0: all_gather in gather_full_state / save_checkpoint, a path only rank 0 runs\n- ranks 1-7: backward, i.e. the DDP "
                "all-reduce\n- mismatched collectives -> deadlock until the watchdog\n- step 1200: checkpoint every "
                "1200 steps", RIGHT),
    (CK, "why", "So the 100% utilization is a red herring, it's NCCL spinning, not compute. What's really going on: "
                "only rank zero goes into the checkpoint code, and that code does an all_gather to collect the full "
                "state. The other ranks never call it; they move on into the next backward and wait in the "
                "all-reduce. Each side is waiting for a collective the other side never starts. And 1200 is just "
                "the save interval, so it's the first time that branch runs.", RIGHT),
    (CK, "why", "It isn't the timeout picking step 1200 — the watchdog only fires minutes later. The step is 1200 "
                "because that's when the first checkpoint is saved; rank 0 alone calls all_gather in "
                "save_checkpoint, the other ranks are in the backward all-reduce, so they hang.", RIGHT),
    (CK, "why", "The loss is fine (2.31), so it's not a divergence. Rank 0 enters an all_gather in the checkpoint "
                "save that ranks 1-7 never call; they're blocked in the gradient all-reduce. Mismatch = hang, and "
                "it's at 1200 because that's the checkpointing cadence.", RIGHT),
    (CK, "why", "Rank 0 alone does the checkpoint gather (all_gather), the rest are in the DDP all-reduce of the next "
                "backward; the collectives don't match so everyone waits forever. Always 1200 since checkpoints are "
                "written every 1200 steps — same code path each run, hence same step.", RIGHT),
    (CK, "why", "Rank 0 是在 checkpoint 的 all_gather 里（这段代码只有 rank 0 会走），别的卡在反向的 all-reduce 里，collective 对不上就 hang 住了。每次 1200 步，"
                "因为 checkpoint 的间隔就是 1200 步，不是硬件问题。", RIGHT),
    (CK, "why", "Mismatched collectives. Rank 0: all_gather from save_checkpoint, which is guarded by rank == 0. "
                "Ranks 1–7: all-reduce in backward. 1200 is the save step.", RIGHT),
    (CK, "why", "Even if the interconnect were flaky you'd see it at random steps, not exactly 1200. Here rank 0 is "
                "inside the checkpoint's all_gather, which the other seven ranks never enter — they're waiting in "
                "backward's all-reduce — and step 1200 is when the checkpoint is taken.", RIGHT),
    (CK, "why", "Rank 0 is slower because it writes the checkpoint to disk, so the others wait for it; step 1200 is "
                "when the checkpoint happens.", WRONG),
    (CK, "why", "All ranks are in the all-reduce, NCCL deadlocked; 1200 is when the NCCL timeout is reached.", WRONG),
    (CK, "why", "Rank 0 is in an all_gather in save_checkpoint, others in backward. It's at 1200 because the "
                "learning-rate warmup ends there.", WRONG),
    # checkpoint rank 0 / fix
    (CK, "fix", "Make every rank call the gather: move gather_full_state out of the rank-0 branch so all ranks enter "
                "the all_gather, and only rank 0 writes the file. Set a short NCCL timeout and "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL so a mismatch is reported right away, and check it by running with "
                "checkpoint every 10 steps.", RIGHT),
    (CK, "fix", "Fix: collective outside `if rank == 0`, i.e. all 8 ranks call all_gather, rank 0 alone saves. "
                "Faster next time: timeout=timedelta(minutes=2) in init_process_group + TORCH_DISTRIBUTED_DEBUG=DETAIL. "
                "Verify: save_every=5, confirm it gets past the save.", RIGHT),
    (CK, "fix", "Rather than wrapping the save in a barrier — a barrier wouldn't help, rank 0 would still be in an "
                "all_gather the others don't call — have every rank enter gather_full_state, then let rank 0 alone "
                "write to disk. Lower the NCCL timeout, turn on TORCH_DISTRIBUTED_DEBUG=DETAIL, and run a short job "
                "that checkpoints early to confirm.", RIGHT),
    (CK, "fix", "所有 rank 都要调用 all_gather（gather_full_state 挪到 rank 0 判断外面），只有 rank 0 写文件。timeout 调短，"
                "打开 TORCH_DISTRIBUTED_DEBUG=DETAIL，下次 collective 对不上马上报错。验证：把 checkpoint 间隔改成 10 步跑一下。", RIGHT),
    (CK, "fix", "- all ranks call the gather; only rank 0 writes\n- short timeout (a few minutes, not 30)\n"
                "- TORCH_DISTRIBUTED_DEBUG=DETAIL to catch mismatched collectives\n- test: checkpoint at step 10, "
                "job must pass it", RIGHT),
    (CK, "fix", "Well, the root problem is the collective is called by one rank. So I'd restructure the save so "
                "every rank participates in the all_gather and then only rank zero actually writes the checkpoint. "
                "And to catch the next one faster I'd drop the NCCL timeout to something like five minutes and set "
                "TORCH_DISTRIBUTED_DEBUG to DETAIL, which checks that ranks call matching collectives. Then I'd "
                "prove it by setting the checkpoint interval to a few steps and seeing the job sail through.", RIGHT),
    (CK, "fix", "Don't raise the timeout, that just makes the hang longer. Every rank calls all_gather, rank 0 "
                "saves; keep the timeout short; TORCH_DISTRIBUTED_DEBUG=DETAIL; verify with an early checkpoint.", RIGHT),
    (CK, "fix", "Use torch.distributed.checkpoint (DCP) so every rank saves its own shard collectively — all ranks "
                "take part, no rank-0-only collective. Short NCCL timeout plus TORCH_DISTRIBUTED_DEBUG=DETAIL for the "
                "next one, and a run with checkpoint_every=20 to confirm it passes the save.", RIGHT),
    (CK, "fix", "All ranks enter the all_gather, only rank 0 writes. Timeout down to ~2 min, DETAIL debug mode on. "
                "Check: save at step 3 in a smoke test, plus the flight recorder dump on timeout as a bonus.", RIGHT),
    (CK, "fix", "让每个 rank 都进 all_gather，只让 rank 0 存盘；NCCL timeout 设短一点，比如 5 分钟；加 TORCH_DISTRIBUTED_DEBUG=DETAIL；"
                "最后用一个很早就存 checkpoint 的小任务确认不再 hang。", RIGHT),
    (CK, "fix", "Move the all_gather out of the rank-0 branch so all ranks run it, rank 0 alone writes. Shorter "
                "timeout, TORCH_DISTRIBUTED_DEBUG=DETAIL. Verify by checkpointing after 5 steps.", RIGHT),
    (CK, "fix", "Raise the NCCL timeout so rank 0 has enough time to write the checkpoint.", WRONG),
    (CK, "fix", "Add a barrier before save_checkpoint so all ranks sync up, then rank 0 saves.", WRONG),
    (CK, "fix", "Have only rank 0 call all_gather but wrap it in a try/except; set a short timeout and DETAIL "
                "debug; verify with an early checkpoint.", WRONG),
    # oom dead rank / why
    (OOM, "why", "Rank 5 ran out of memory on the long 32K-token batch at step 3072 and exited. Launched by srun, "
                 "there's no agent to notice and kill the others, so the seven survivors sit in the all-reduce "
                 "waiting for a rank that's gone, until the NCCL timeout. Same step every run because the data "
                 "order is fixed: the same long batch lands on rank 5 at 3072.", RIGHT),
    (OOM, "why", "Evidence first: py-spy can't find rank 5's process, and its last log lines are a CUDA OOM. The "
                 "others are in backward's all-reduce. So rank 5 died of OOM on an unusually long packed sequence; "
                 "with srun rather than torchrun nothing tears the job down, the rest wait forever. Deterministic "
                 "step because the shuffle seed is fixed, so the same batch comes at 3072.", RIGHT),
    (OOM, "why", "It's not a network problem and not a bad node — a flaky link wouldn't hit the same step each "
                 "time. Rank 5 OOMed on the 32K sequence and is dead; srun has no agent watching, so the seven "
                 "others keep waiting in the collective. Fixed data order means the long batch always arrives at "
                 "step 3072.", RIGHT),
    (OOM, "why", "rank 5 在 3072 步遇到一条 32K token 的长序列，OOM 退出了。srun 启动，没有 torchrun 的 agent 去杀其他进程，"
                 "剩下 7 个 rank 在 all-reduce 里等一个已经不存在的 rank。每次都在同一步，因为数据顺序是固定的，同一个长 batch "
                 "每次都在 3072 步分到 rank 5。", RIGHT),
    (OOM, "why", "- rank 5: OOM on the 32K-token batch, process gone\n- ranks 0-4, 6, 7: all-reduce, waiting for it\n"
                 "- srun, no torchrun agent -> nobody kills the job\n- same step: data order is fixed, same long batch "
                 "every run", RIGHT),
    (OOM, "why", "So, um, the thing that stands out is rank 5 — py-spy can't even find the process, and its log ends "
                 "with CUDA out of memory. The batch at 3072 has one huge 32K sequence, activations scale with "
                 "sequence length, and it blew past the GPU's memory. Because we launch with srun directly there's "
                 "no elastic agent, so the other ranks aren't told; they just wait in the all-reduce until the "
                 "watchdog. And it repeats at 3072 because the data order is deterministic.", RIGHT),
    (OOM, "why", "Rank 5 OOM'd: the step-3072 batch holds a 32K-token sequence, roughly 8x the usual length, so the "
                 "activations were ~8x. It died, the others wait in all-reduce because srun has no agent to stop "
                 "them. Same step since the data order is fixed.", RIGHT),
    (OOM, "why", "Had this been torchrun, its agent would have seen rank 5 exit and killed the others at once. "
                 "Here it's srun, so nothing does. Rank 5 died of OOM on the long 32K batch, the survivors hang in "
                 "the all-reduce. The step repeats because the data order does.", RIGHT),
    (OOM, "why", "Rank 5 ran out of memory on an extra-long packed sequence (32K tokens) and exited; the other ranks "
                 "wait in the all-reduce for it forever since srun doesn't tear the job down. It's always 3072 "
                 "because we use the same seed, so the same batch order.", RIGHT),
    (OOM, "why", "Rank 5 挂了：py-spy 找不到进程，日志最后是 CUDA OOM，因为 3072 步那个 batch 里有一条 32K 的超长序列。srun 没有 agent，"
                 "其他 rank 不知道它挂了，一直在 all-reduce 里等。数据顺序固定，所以每次同一步。", RIGHT),
    (OOM, "why", "The growth isn't from the batch size — that's fixed — it's the sequence length: one 32K-token "
                 "sample at 3072 made rank 5 OOM and die. srun, no agent, survivors wait in all-reduce. The data "
                 "order is fixed, so same step every run.", RIGHT),
    (OOM, "why", "OOM on rank 5 (32K-token batch) → process exits → no torchrun agent under srun → 7 ranks block "
                 "in all-reduce until timeout. Same step: fixed data order, same long batch.", RIGHT),
    (OOM, "why", "Rank 5's GPU is faulty and drops off the bus at step 3072; the others wait in the all-reduce.", WRONG),
    (OOM, "why", "Rank 5 OOMed on the long batch and died, so the others wait in all-reduce. It happens at 3072 "
                 "because that's when the learning rate warmup ends.", WRONG),
    (OOM, "why", "Rank 5 is slow on the long batch, so the others wait for it in the all-reduce; fixed data order "
                 "makes it the same step.", WRONG),
    # oom dead rank / fix
    (OOM, "fix", "Cap the tokens per batch: pack to a fixed max length (e.g. 8K or a token budget) so no batch can be "
                 "32K. Make a dead rank kill the job fast: launch with torchrun, or srun --kill-on-bad-exit=1, plus "
                 "a short NCCL timeout. And have every rank log to its own file so the OOM is visible.", RIGHT),
    (OOM, "fix", "- bound sequence length / tokens per micro-batch so the long batch can't OOM\n- fail fast: "
                 "torchrun agent or srun --kill-on-bad-exit, short timeout\n- per-rank logs (every rank writes its "
                 "own log)", RIGHT),
    (OOM, "fix", "Not more memory per se — rather than buying headroom, bound the batch: truncate or split "
                 "sequences over a max length, or bucket by tokens so each micro-batch has the same token budget. "
                 "Then fail fast: --kill-on-bad-exit on srun or move to torchrun, NCCL timeout of a few minutes. "
                 "Log every rank, not only rank 0.", RIGHT),
    (OOM, "fix", "限制每个 batch 的 token 数（max seq len 或 token budget），让 32K 的序列被截断或拆开，不会 OOM。启动改成 torchrun，"
                 "或者 srun 加 --kill-on-bad-exit，一个 rank 挂了整个任务马上退出；timeout 调短。每个 rank 都写自己的日志。", RIGHT),
    (OOM, "fix", "Three things. One, cap the packed length at something like 8K tokens so the outlier batch can't "
                 "blow memory. Two, make failure loud: srun --kill-on-bad-exit=1 or torchrun, so one rank dying "
                 "stops everyone instead of a silent hang. Three, per-rank log files, so next time we see the OOM "
                 "line right away.", RIGHT),
    (OOM, "fix", "Well, I'd first make sure no batch can be that long — a max-tokens-per-batch limit in the packer, "
                 "and I could add activation checkpointing as a bit of extra headroom. Then, since srun won't kill "
                 "the rest, add --kill-on-bad-exit or use torchrun's agent, and keep the NCCL timeout short. Every "
                 "rank should log, with its rank in the prefix, so a crash on rank 5 isn't invisible.", RIGHT),
    (OOM, "fix", "Bound tokens per batch (token budget, truncate >8K). torchrun / srun --kill-on-bad-exit + short "
                 "timeout → fail fast. Every rank logs to its own file.", RIGHT),
    (OOM, "fix", "按 token 数限制 batch（比如每个 micro-batch 最多 8K token），超长的截断；srun 加 --kill-on-bad-exit=1 或者换 "
                 "torchrun，有 rank 挂了就立刻全部退出；每个 rank 都要打日志，别只看 rank 0。", RIGHT),
    (OOM, "fix", "Raise the NCCL timeout so rank 5 has time to recover from the OOM.", WRONG),
    (OOM, "fix", "Give rank 5 a GPU with more memory and rerun.", WRONG),
    (OOM, "fix", "Skip step 3072 by changing the seed; and keep logging only on rank 0.", WRONG),
    # uneven / why
    (UNEVEN, "why", "Rank 3's shard has one batch fewer: the hand-written sampler neither pads nor drops the "
                    "remainder. So rank 3 leaves the training loop a step early and waits in evaluate()'s barrier, "
                    "while the other seven run one more step and wait in the backward all-reduce. Different "
                    "collectives, so it hangs.", RIGHT),
    (UNEVEN, "why", "Evidence: rank 3's stack is in evaluate -> barrier, everyone else is in backward (DDP "
                    "all-reduce). Rank 3 got fewer batches because the dataset isn't divisible by 8 and the sampler "
                    "has no padding or drop_last, so it finished the epoch first. Mismatched collectives.", RIGHT),
    (UNEVEN, "why", "It's not that rank 3 is slow or dead — it's alive, sitting in evaluate()'s barrier. Its shard "
                    "is one batch shorter (no pad, no drop_last in the custom sampler), so it exits the loop early; "
                    "the others are in the all-reduce of their last step. Two different collectives.", RIGHT),
    (UNEVEN, "why", "rank 3 分到的数据少一个 batch，因为手写的 sampler 不 pad 也不 drop_last。它提前一步跳出训练循环，进了 evaluate "
                    "里的 barrier；其他 7 个 rank 还在最后一步的 backward all-reduce 里等它。两边进的不是同一个 collective，所以 hang。", RIGHT),
    (UNEVEN, "why", "- rank 3: evaluate() barrier\n- ranks 0-2, 4-7: last step's gradient all-reduce\n- why: rank 3's "
                    "shard has one batch fewer, sampler doesn't pad or drop_last\n- different collectives -> hang", RIGHT),
    (UNEVEN, "why", "Okay so what I see is rank 3 is the odd one out, it's already in the evaluation barrier. The "
                    "others are still in backward, doing the gradient all-reduce. That happens because the sampler "
                    "splits the dataset without padding, so when the length isn't a multiple of eight, rank 3 ends "
                    "up with one fewer batch and leaves the epoch a step early. The barrier and the all-reduce "
                    "never match up.", RIGHT),
    (UNEVEN, "why", "Not an NCCL bug. Uneven shards: rank 3 has N-1 batches, the others N, because the sampler "
                    "neither pads nor drops. Rank 3 goes to evaluate's barrier, the rest to the all-reduce — "
                    "mismatched collectives.", RIGHT),
    (UNEVEN, "why", "If the sampler padded (like DistributedSampler does) this wouldn't happen. Here rank 3 gets one "
                    "batch fewer, finishes early and waits in the barrier in evaluate, while the other ranks wait in "
                    "the all-reduce. Different collectives, nobody can make progress.", RIGHT),
    (UNEVEN, "why", "Rank 3 ran out of data one step before everyone else (its shard is 1 batch shorter — the "
                    "sampler doesn't pad or drop_last), so it's in evaluate()'s barrier while the others are in the "
                    "DDP all-reduce. They wait on each other forever.", RIGHT),
    (UNEVEN, "why", "rank 3 的 shard 少一个 batch（sampler 没有 padding 也没有 drop_last），它先进了 evaluate() 的 barrier，别的 rank "
                    "在 all-reduce 里，collective 对不上，互相等。", RIGHT),
    (UNEVEN, "why", "Uneven shards. Rank 3: one batch fewer → evaluate barrier. Others: backward all-reduce. "
                    "Different collectives → deadlock. Sampler has no pad/drop_last.", RIGHT),
    (UNEVEN, "why", "Rank 3's shard is shorter — one batch fewer since the sampler doesn't drop the remainder — so "
                    "it enters the barrier early; the other seven are in the all-reduce. Rank 3 is not crashed, "
                    "it's waiting.", RIGHT),
    (UNEVEN, "why", "Rank 3 ran out of memory in evaluate() and crashed, so the others wait in the all-reduce.", WRONG),
    (UNEVEN, "why", "Rank 3 is slower than the others, so they wait for it at the all-reduce.", WRONG),
    (UNEVEN, "why", "Rank 3 leaves the loop early and waits in the barrier; it's a known NCCL bug with barriers.", WRONG),
    # uneven / fix
    (UNEVEN, "fix", "Give every rank the same number of steps: use DistributedSampler with drop_last=True (or pad "
                    "to a multiple of the world size). Alternatively wrap the loop in DDP's Join context manager so "
                    "ranks that run out early shadow the collectives. Set TORCH_DISTRIBUTED_DEBUG=DETAIL to catch "
                    "mismatched collectives next time.", RIGHT),
    (UNEVEN, "fix", "- same steps per rank: DistributedSampler(drop_last=True) or pad the dataset\n- or "
                    "torch.distributed.algorithms.Join for uneven inputs\n- TORCH_DISTRIBUTED_DEBUG=DETAIL to flag "
                    "the mismatch", RIGHT),
    (UNEVEN, "fix", "Not a longer timeout, that just waits longer. Make the shards even: replace the hand-written "
                    "sampler with DistributedSampler, padding or drop_last so each rank gets the same number of "
                    "batches. Join() is the other option if you need uneven inputs. DETAIL debug mode as a check.", RIGHT),
    (UNEVEN, "fix", "让每个 rank 的 step 数一样：换成 DistributedSampler，drop_last=True 或者 pad 到 world size 的整数倍；也可以用 "
                    "DDP 的 Join context manager 处理不均匀的输入。再开 TORCH_DISTRIBUTED_DEBUG=DETAIL，下次 collective 对不上直接报错。", RIGHT),
    (UNEVEN, "fix", "Pad or drop so the per-rank batch count is identical — DistributedSampler does this; or use the "
                    "Join context manager. TORCH_DISTRIBUTED_DEBUG=DETAIL for next time.", RIGHT),
    (UNEVEN, "fix", "So the cleanest fix is to make sure everybody does the same number of training steps. I'd swap "
                    "the custom sampler for DistributedSampler with drop_last on for the training loader, or pad the "
                    "last batch. If uneven inputs are genuinely needed, DDP has a Join context manager that handles "
                    "ranks finishing early. And I'd turn on TORCH_DISTRIBUTED_DEBUG=DETAIL, which checks collectives "
                    "match across ranks.", RIGHT),
    (UNEVEN, "fix", "Same number of steps per rank (drop the remainder or pad; DistributedSampler). Join as an "
                    "alternative. DETAIL debug to detect mismatched collectives. Also add a unit test that checks "
                    "len(sampler) is equal on all ranks.", RIGHT),
    (UNEVEN, "fix", "每个 rank 步数相同（sampler 丢掉余数或者补齐）；或者 Join；TORCH_DISTRIBUTED_DEBUG=DETAIL 检查 collective 是否一致。", RIGHT),
    (UNEVEN, "fix", "Put a barrier at the end of the training loop so all ranks sync before evaluate.", WRONG),
    (UNEVEN, "fix", "Use drop_last=True only in the evaluation DataLoader.", WRONG),
    (UNEVEN, "fix", "Raise the NCCL timeout and restart the job.", WRONG),
    # data loading
    (DL, "next", "The 41% idle before the first forward kernel, with the workers pegged at 100% CPU, says we're "
                 "input-bound. First confirm: rerun with synthetic data (random tokens on the GPU) — if the step "
                 "drops to ~10 s, it's the loader. Then pre-tokenize the corpus offline so the workers only read "
                 "token ids. Done when the idle gap is near zero and the step time falls by about 40%.", RIGHT),
    (DL, "next", "Not the network and not more GPUs — the NCCL share is only 4%. It's the data path: tokenizing "
                 "text in 8 workers can't keep up. Swap in a synthetic batch to prove it, then tokenize offline "
                 "into packed binary shards and raise num_workers. Re-profile: the pre-forward idle should vanish "
                 "and tokens/s should go from 247K toward ~400K.", RIGHT),
    (DL, "next", "- symptom: 41% idle before forward, workers 100% CPU, main thread in __next__ => input-bound\n"
                 "- test: synthetic data, same step otherwise\n- fix: pre-tokenize offline, more workers / prefetch\n"
                 "- check: re-run profiler, idle ~0, step ~10 s", RIGHT),
    (DL, "next", "先用 synthetic data（GPU 上直接造随机 token）跑一下，如果 step time 从 17 秒降到 10 秒左右，就确认是 data loader 的问题，"
                 "是 input-bound。然后把 tokenize 挪到线下提前做好，训练时只读 token id。修好的标志：profiler 里 forward 前的空等消失，"
                 "吞吐明显上升。", RIGHT),
    (DL, "next", "People often reach for more DataLoader workers first, but the CPUs are already saturated, so the "
                 "real fix is to take tokenization out of the loop: pre-tokenize offline. Before that, a synthetic "
                 "data run confirms the loader is the bottleneck. Afterwards re-measure: the idle share should drop "
                 "from 41% to a few percent.", RIGHT),
    (DL, "next", "So what I'd do, um, the GPU is sitting there waiting at the start of each step, and the CPU "
                 "workers are flat out decoding and tokenizing. That's the data pipeline being the bottleneck. I'd "
                 "prove it with fake data, just random tensors of the right shape, and if the step gets ~40% "
                 "faster that's it. The fix is to tokenize the dataset ahead of time, offline, and store it as "
                 "token ids, so the loader just memory-maps it. Then profile again and check the idle gap is gone.", RIGHT),
    (DL, "next", "Input-bound (41% of the step idle, loader workers at 100%). Synthetic-data A/B to confirm; "
                 "pre-tokenize offline; re-measure step time (expect ~17 s → ~10 s) and GPU idle share.", RIGHT),
    (DL, "next", "If this were a comm problem the NCCL share would be large, it's 4%. Here the GPU waits for the "
                 "data loader. I'd confirm with synthetic inputs, then preprocess offline — tokenize once, write "
                 "packed token files — and maybe bump prefetch_factor as a harmless extra. Success = the pre-forward "
                 "gap disappears in the profile and throughput rises ~1.7x.", RIGHT),
    (DL, "next", "数据加载是瓶颈（input-bound）：worker CPU 100%，主线程停在 __next__。下一步：synthetic data 对比确认；离线预先 "
                 "tokenize；再 profile 一次，forward 前 41% 的空等应该接近 0。", RIGHT),
    (DL, "next", "Rather than tuning NCCL or the parallel layout, fix the input pipeline: the loader is the "
                 "bottleneck. Run once with synthetic data to confirm, tokenize offline, then check the profiler "
                 "shows no idle before forward and the step time drops.", RIGHT),
    (DL, "next", "Step one: a synthetic data run. If the idle 41% vanishes, the loader's to blame. Step two: "
                 "offline pre-tokenization and storing tokens as uint16/int32 shards. Step three: measure again — "
                 "step time, tokens/s, idle share.", RIGHT),
    (DL, "next", "The GPUs wait on input: 41% idle before forward while DataLoader workers max out the CPU "
                 "tokenizing. Confirm with synthetic data; pre-tokenize the data offline; rerun the profiler and "
                 "compare tokens/s against 247K.", RIGHT),
    (DL, "next", "Enable overlap of the gradient all-reduce with backward and re-measure the step time.", WRONG),
    (DL, "next", "Increase the micro-batch size so the GPU has more work per step, then re-profile.", WRONG),
    (DL, "next", "It's input-bound; add more GPUs so each rank loads less data.", WRONG),
    # exposed comm
    (EXP, "next", "Turn on --overlap-grad-reduce and --overlap-param-gather so the DP reduce-scatter and all-gather "
                  "run under backward and forward instead of after them. The 27% is exposed DP communication, not a "
                  "slow fabric — nccl-tests hits rated bandwidth. Tune the bucket size if overlap is partial. "
                  "Re-profile: the 27% should shrink to a few percent, step from 13 s toward ~10 s.", RIGHT),
    (EXP, "next", "The network is fine (nccl-tests at rated bus bandwidth), so don't chase the fabric. The 27% "
                  "after the last backward kernel is the data-parallel gradient reduce-scatter + param all-gather, "
                  "fully exposed because overlap is off. Add the two overlap flags, adjust --ddp-bucket-size, then "
                  "measure again: the exposed NCCL share should fall and throughput rise from 645K tokens/s.", RIGHT),
    (EXP, "next", "- the exposed 27% = DP grad reduce-scatter / param all-gather, nothing overlapped\n- fabric OK "
                  "(nccl-tests at rated BW)\n- fix: --overlap-grad-reduce --overlap-param-gather, tune bucket size\n"
                  "- check: re-profile, exposed comm ~0, step ↓ ~25%", RIGHT),
    (EXP, "next", "打开 --overlap-grad-reduce 和 --overlap-param-gather，让 DP 的 reduce-scatter / all-gather 和 backward、forward "
                  "重叠。网络没问题（nccl-tests 达到标称带宽），这 27% 是 DP 通信没 overlap 暴露出来的。必要时调 bucket size。验证：再 "
                  "profile 一次，这 27% 应该降到几个百分点，step time 从 13 秒往 10 秒降。", RIGHT),
    (EXP, "next", "A bigger TP or a faster network would not help here: the fabric already reaches its rated "
                  "bandwidth. What's wrong is that the DP collectives run after backward with nothing beside them. "
                  "Enable overlap-grad-reduce and overlap-param-gather, tune bucket sizes, and re-measure step time "
                  "and the exposed-NCCL share.", RIGHT),
    (EXP, "next", "So the launch script came from a single-node job, and it just never turned on overlap. The "
                  "distributed optimizer's reduce-scatter and all-gather for data parallel are sitting at the end, "
                  "exposed, 27% of the step. The links are healthy, nccl-tests says so. I'd add overlap-grad-reduce "
                  "and overlap-param-gather, maybe play with the bucket size so the first bucket starts early, and "
                  "then profile again to see that chunk go away and the step time drop to about 10 seconds.", RIGHT),
    (EXP, "next", "Exposed DP comm (27%), fabric OK. Add --overlap-grad-reduce --overlap-param-gather; bucket size; "
                  "re-measure (13 s → ~9.5-10 s, exposed NCCL → <5%).", RIGHT),
    (EXP, "next", "It isn't the pipeline bubble (7%) or TP; it's the data-parallel reduce-scatter/all-gather left "
                  "un-overlapped. Turn on both overlap flags and tune the bucket size. nccl-tests shows the fabric "
                  "is fine. Verify by re-profiling: the NCCL-after-backward block should mostly disappear.", RIGHT),
    (EXP, "next", "DP 通信暴露了（27%），网络是好的。加 overlap-grad-reduce、overlap-param-gather 两个参数，调一下 bucket 大小；"
                  "重新 profile，看暴露的 NCCL 时间是不是降下来、step time 是不是变短。", RIGHT),
    (EXP, "next", "Overlap the DP gradient reduce-scatter with backward (--overlap-grad-reduce) and the parameter "
                  "all-gather with forward (--overlap-param-gather). Bandwidth is at the rated value, so it's "
                  "scheduling, not the network. Tune bucket size. Then re-run the profiler and compare step time.", RIGHT),
    (EXP, "next", "Enable the overlap flags and, as a harmless extra, log the per-step NCCL time. The 27% is "
                  "data-parallel communication exposed after backward; the fabric is at rated bandwidth. Adjust "
                  "the bucket size, then re-measure the step: expect ~13 s → ~10 s.", RIGHT),
    (EXP, "next", "The 27% is exposed DP comm with the fabric fine; turn on the overlap flags, tune buckets, "
                  "and re-profile to confirm the exposed share drops.", RIGHT),
    (EXP, "next", "The network is slow; replace the InfiniBand cables and re-run nccl-tests.", WRONG),
    (EXP, "next", "Increase TP to 16 so there's less DP communication, then re-measure.", WRONG),
    (EXP, "next", "Turn off the distributed optimizer to avoid the reduce-scatter, then re-profile.", WRONG),
    # launch bound
    (LB, "next", "It's launch-bound: kernels under 20 µs with gaps between them, the CPU launching back to back. "
                 "Cut the number of launches: torch.compile / CUDA Graphs / fused kernels, and raise the "
                 "micro-batch from 1 to 4-8 so each kernel does more work. Drop the per-step loss.item() sync, "
                 "log every 50 steps. Re-profile: the gaps should shrink and step time fall well below 0.7 s.", RIGHT),
    (LB, "next", "The GPU isn't slow, the CPU can't feed it — cudaLaunchKernel back to back, 31% gaps. The data "
                 "loader is idle, so it's not input. Fewer, bigger kernels: CUDA Graphs or torch.compile, bigger "
                 "micro-batch. Remove the loss.item() each step (it syncs host and device). Then measure tokens/s "
                 "vs 1.5M.", RIGHT),
    (LB, "next", "- launch-bound: tiny kernels (<20 µs), gaps 31%, CPU busy launching\n- fewer launches: CUDA "
                 "Graphs, torch.compile, fusion\n- micro-batch 1 → 4 or 8\n- no loss.item() every step (host "
                 "sync)\n- verify: re-profile, gaps → small, throughput ↑", RIGHT),
    (LB, "next", "是 launch-bound：kernel 都很短（<20 µs），CPU 一直在 cudaLaunchKernel，GPU 在等 CPU。减少 kernel launch：CUDA Graphs、"
                 "torch.compile 做 fusion；micro-batch 从 1 调到 4 或 8；去掉每步的 loss.item()，改成每 100 步打印一次。验证：重新 "
                 "profile，kernel 之间的空隙变小，吞吐上去。", RIGHT),
    (LB, "next", "Not a data problem — the loader waits with full queues — and not communication, NCCL is 5%. "
                 "It's CPU launch overhead for a small model. I'd capture the step in CUDA Graphs or use "
                 "torch.compile to fuse, bump micro-batch size, and stop calling loss.item() every step. Check with "
                 "the profiler that the inter-kernel gaps are gone.", RIGHT),
    (LB, "next", "Okay so with a 1.3B model at micro-batch 1, each kernel is tiny, the GPU finishes it before the "
                 "CPU can launch the next one. That's launch-bound. So I'd make fewer launches — torch.compile, "
                 "CUDA graphs, fused optimizers — and give each kernel more work with a larger micro-batch, 4 or 8. "
                 "The loss.item() every step forces a sync, so log less often. Then re-profile, the gaps should "
                 "mostly disappear.", RIGHT),
    (LB, "next", "Launch-bound. CUDA Graphs/compile; mbs 1→8; no per-step .item(); re-measure step time (0.7 s → "
                 "~0.45 s?) and gap share.", RIGHT),
    (LB, "next", "Even nvidia-smi at 100% doesn't mean busy SMs; here the kernels are tiny and the CPU launch is "
                 "the limit. Fewer launches via CUDA Graphs or fusion, larger micro-batch, avoid the host sync from "
                 "loss.item(). Re-profile and compare throughput.", RIGHT),
    (LB, "next", "CPU 发射 kernel 跟不上（launch-bound）。用 CUDA Graphs 或 torch.compile 减少 launch 次数，micro-batch 调大，别每步 "
                 "loss.item()。最后再跑 profiler 看空隙和吞吐。", RIGHT),
    (LB, "next", "Rather than more data workers (the loader's idle), reduce kernel launches: torch.compile or CUDA "
                 "Graphs. Raise the micro-batch to 4. Remove the per-step loss.item() host sync. Re-measure: gaps "
                 "and step time should drop.", RIGHT),
    (LB, "next", "The kernels are shorter than the launch cost, so the CPU is the bottleneck. Fuse with "
                 "torch.compile / capture CUDA Graphs, use a bigger micro-batch, and log the loss asynchronously "
                 "instead of loss.item() every step. Then profile again.", RIGHT),
    (LB, "next", "Launch-bound, so: CUDA Graphs, micro-batch up, drop the per-step loss.item(), and re-profile "
                 "to confirm the gaps close and tokens/s rises.", RIGHT),
    (LB, "next", "Add more DataLoader workers and enable pinned memory, then re-profile.", WRONG),
    (LB, "next", "Turn on overlap-grad-reduce to hide the NCCL time, then re-measure.", WRONG),
    (LB, "next", "Use tensor parallelism across 8 GPUs to make each kernel faster.", WRONG),
    # straggler
    (ST, "next", "Rank 213 is a straggler: it enters the reduce-scatter last every step, with low GPU clocks "
                 "under load. Look per rank at step timing to confirm it's just that node, then check the node: "
                 "nvidia-smi -q for clocks, temperature, power, throttle reasons. Drain it and replace it with a "
                 "spare, restart from checkpoint. Done when the wait in the reduce-scatter drops from 24% and the "
                 "step time is back to last week's.", RIGHT),
    (ST, "next", "Not a code change — nothing changed — and not NCCL tuning: the others wait because one rank is "
                 "late. Rank 213's node throttles (clocks well below the rest). Compare per-rank compute times, "
                 "run nvidia-smi -q -d PERFORMANCE on that node to see the throttle reason, cordon the node and "
                 "swap in a healthy one. Re-measure: step time back down, reduce-scatter wait ~1% everywhere.", RIGHT),
    (ST, "next", "- straggler: rank 213 (92% compute, enters RS last), clocks low\n- per-rank timings to confirm "
                 "one node\n- check node: nvidia-smi -q, DCGM, thermals/power\n- exclude/replace node, resume from "
                 "ckpt\n- verify: step time back to last week, RS wait gone", RIGHT),
    (ST, "next", "rank 213 是 straggler：每步最后进 reduce-scatter，负载下 GPU 频率偏低。先看每个 rank 的 step 耗时确认只是这台机器，"
                 "再查这台机器（nvidia-smi -q 看 clock、温度、功耗、throttle 原因），把它从任务里摘掉换一台好的，从 checkpoint 重启。"
                 "验证：其他 rank 在 reduce-scatter 里的等待从 24% 降下来，step time 恢复到上周。", RIGHT),
    (ST, "next", "People often re-tune NCCL in this situation, but the comm isn't slow, the others are waiting "
                 "for rank 213. Its GPUs run at lower clocks, so it's a hardware/thermal issue on that node. Check "
                 "per-rank step times, inspect the node (temps, power capping, throttle reasons), and replace it. "
                 "Measure again: 16 s step should drop back.", RIGHT),
    (ST, "next", "So everyone's waiting in the reduce-scatter, but really they're waiting on one guy, rank 213, "
                 "which shows 92% compute and goes into the collective last. And its clocks are low under load, so "
                 "probably thermal throttling or a power cap on that box. I'd pull per-rank timings to make sure "
                 "it's only that node, look at the node's GPUs with nvidia-smi or DCGM, and then just take it out "
                 "of the pool and restart on a spare. Then step time should be back to what it was last week.", RIGHT),
    (ST, "next", "Straggler = rank 213 (clock-throttled). Per-rank timing → node check (nvidia-smi -q, DCGM diag) "
                 "→ swap node → re-measure (16 s → last week's number, RS wait 24% → ~1%).", RIGHT),
    (ST, "next", "If it were the network, all ranks would show similar compute; here rank 213 computes 92% of the "
                 "step and arrives last. Its node's clocks are low. I'd confirm with per-rank step timings, check "
                 "that node's thermals and throttle reasons, replace it with a spare, and verify the step time and "
                 "the reduce-scatter wait return to normal.", RIGHT),
    (ST, "next", "一个慢节点拖累所有人：rank 213 算得最慢、最后进 reduce-scatter。按 rank 看 step 时间，查那台机器的 GPU 频率和温度，"
                 "把节点换掉，再测 step time 是否回到上周水平。", RIGHT),
    (ST, "next", "Rank 213 is the straggler. Rather than touching the code or NCCL settings, check the node "
                 "(clocks, temperature, power, ECC), replace it, and compare per-rank timings before and after; "
                 "the reduce-scatter wait on the other ranks should drop to ~1%.", RIGHT),
    (ST, "next", "The low clocks on rank 213's node make it late to every reduce-scatter. Log per-rank step times, "
                 "run a DCGM diagnostic on that node, drain and replace it, then check the step time is back and "
                 "the 24% wait disappears.", RIGHT),
    (ST, "next", "Straggler on rank 213 — check that node's GPUs, swap it for a healthy node, and re-measure the "
                 "step and per-rank waits.", RIGHT),
    (ST, "next", "Increase the NCCL buffer size and number of channels to speed up the reduce-scatter.", WRONG),
    (ST, "next", "Enable overlap-grad-reduce so the reduce-scatter is hidden under backward.", WRONG),
    (ST, "next", "Rank 213 is fine; ranks 0 and 212 are slow in the reduce-scatter, so replace their nodes.", WRONG),
    (LED, None, "First I'd ask: how many tokens, what sequence length, what deadline? Say 15T tokens at 8K. Memory: "
                "400B params with Adam in mixed precision is ~16 bytes/param, 6.4 TB, so we shard: TP 8 inside the "
                "node, PP 8 or so across nodes, the distributed optimizer over DP. Layout: TP8 × PP8 = 64 GPUs per "
                "replica, DP 125 on 8,000 GPUs. Time: 6 × 400e9 × 15e12 = 3.6e25 FLOPs; at 40% MFU of ~1e15 per "
                "H100 that's ~4e18 FLOP/s over 8,000 GPUs, about 100 days. Reliability: at that scale expect "
                "failures daily, so checkpoint often, async, and auto-restart. Monitoring: loss, grad norm, MFU, "
                "per-rank step times to catch stragglers.", RIGHT),
    (LED, None, "- clarify: token budget (~10T?), seq len, deadline, H100 count exact\n- memory: 400B × 16 B = 6.4 "
                "TB of weights+grads+Adam → must shard; activations need recompute\n- layout: TP 8 in node, PP 8 "
                "across nodes, DP ~125 with ZeRO-1 / distributed optimizer\n- time: 6·N·D = 6·4e11·1e13 = 2.4e25 "
                "FLOPs; 8,000 × 989 TFLOPs × 0.4 MFU ≈ 3.2e18/s → ~87 days\n- reliability: checkpoint every ~30 "
                "min, hot spares, auto-restart\n- monitoring: loss spikes, grad norm, MFU, straggler detection", RIGHT),
    (LED, None, "我会先问清楚：训练多少 token、序列多长、多久要训完。假设 10T token、seq 8K。显存：400B 参数用 Adam 混合精度大约每参数 16 "
                "字节，总共 6.4 TB，必须切：机内 TP 8，跨机 PP 8，DP 上用 distributed optimizer。8,000 卡 / 64 = DP 125。时间：6 × "
                "4e11 × 1e13 = 2.4e25 FLOPs，按 40% MFU、每卡约 1e15 FLOP/s，约 3.2e18 FLOP/s，大概 90 天。可靠性：这么大规模每天都会"
                "坏卡，要频繁存 checkpoint、自动重启。监控：loss、grad norm、MFU、每个 rank 的 step time。", RIGHT),
    (LED, None, "Before any layout I'd pin down the token budget — Chinchilla would say ~8T for 400B, but people "
                "train longer now, so let's say 15T — and the sequence length. Memory first: weights, grads and "
                "Adam come to about 16 bytes per parameter, 6.4 TB, way beyond 80 GB, so TP 8 within a node over "
                "NVLink, PP 16 across nodes, and DP over the rest with the distributed optimizer. That's 128 GPUs a "
                "replica, DP ~62. Compute: 6ND ≈ 3.6e25; at 40% MFU on 8,000 H100s, ~100 days. Then reliability: "
                "frequent async checkpoints and automatic restart, because something fails every day. And "
                "monitoring of loss, grad norm, MFU and per-rank timings.", RIGHT),
    (LED, None, "Questions first: tokens, context length, timeline. Memory: ~16 B/param → 6.4 TB, so not plain "
                "FSDP across 8,000 GPUs but TP 8 in-node, PP across nodes, ZeRO-1 over DP. Layout TP8/PP8/DP125. "
                "Time: 6·N·D with 10T tokens = 2.4e25 FLOPs, at ~40% MFU (≈400 TFLOP/s per GPU) → ~85 days. "
                "Reliability: expect a failure every few hours, checkpoint every 30 min, auto-resume, spare nodes. "
                "Monitoring: loss/grad-norm spikes, MFU, per-rank step time for stragglers.", RIGHT),
    (LED, None, "Okay, so, I'd start by asking what the token budget and the deadline are, because that decides "
                "everything — let's assume 10 trillion tokens at 4K sequence. Then memory: 400 billion parameters, "
                "mixed precision Adam, sixteen bytes each, 6.4 terabytes, so no single node holds it. Tensor "
                "parallel 8 inside each node on NVLink, pipeline parallel maybe 8 across nodes, data parallel on "
                "top, with the optimizer sharded over DP. Time: six times N times D, 2.4e25 FLOPs; if we hit 40% "
                "MFU, that's roughly three months on 8,000 GPUs. At that size hardware fails daily, so checkpoints "
                "every half hour and automatic restarts. And I'd watch loss, gradient norm, MFU and which rank is "
                "slow.", RIGHT),
    (LED, None, "Clarify: tokens (say 12T), seq 8K, when it must finish. Memory: 6.4 TB of model+optimizer state "
                "(16 B/param), activations on top with recompute. Layout: TP 8 (NVLink), PP 12 across nodes, DP "
                "~83, distributed optimizer. Time: 6 × 4e11 × 1.2e13 ≈ 2.9e25 FLOP / (8,000 × 4e14 effective) ≈ "
                "9e6 s ≈ 105 days. Reliability: MTBF at 8K GPUs is hours, so async checkpointing + auto-restart. "
                "Monitoring: loss, grad norm, throughput, per-rank step time.", RIGHT),
    (LED, None, "I'd ask about data size and schedule first; assume 10T tokens. 400B × 16 bytes = 6.4 TB of "
                "training state, so shard it: TP 8 within the node, PP 8 between nodes, DP 125 with the "
                "distributed optimizer. FLOPs 6ND = 2.4e25; 8,000 GPUs at 40% MFU ≈ 3.2e18 FLOP/s → ~87 days. "
                "Checkpoint frequently and restart automatically since nodes will fail; monitor loss, grad norm, "
                "MFU and per-rank times.", RIGHT),
    (LED, None, "Use FSDP across all 8,000 GPUs, it shards everything so memory is fine. Train for as long as it "
                "takes and checkpoint at the end.", WRONG),
    (LED, None, "TP 64 across eight nodes so each GPU holds 400B/64 of the weights, DP 125. Time: a few weeks. "
                "Checkpoint daily.", WRONG),
    (LED, None, "Ask about tokens. Memory: 400B × 2 bytes = 800 GB, fits on 10 GPUs, so DP over 8,000 GPUs with "
                "TP 8. Time: 6ND ≈ 2.4e25 FLOPs, ~90 days at 40% MFU. Checkpoint and monitor loss.", WRONG),
    # pitch
    (PITCH, None, "Memory first: fit weights, grads, optimizer and activations. TP inside the node on NVLink, PP "
                  "across nodes, CP or EP only when long context or MoE needs it, then DP with the distributed "
                  "optimizer. Overlap communication with compute, use FP8, aim for 40%+ MFU. And when it hangs, "
                  "find the absent rank.", RIGHT),
    (PITCH, None, "Start from memory. TP within a node, PP across nodes, CP for long sequences, EP for MoE, DP "
                  "over the rest with ZeRO-1. Overlap the DP comm, BF16 or FP8, target ~40% MFU, and debug hangs "
                  "by finding which rank never joined the collective.", RIGHT),
    (PITCH, None, "先算显存放不放得下；TP 放在机内 NVLink，PP 跨机，长序列才开 CP，MoE 才开 EP，剩下的给 DP 加 distributed "
                  "optimizer。通信和计算 overlap，上 FP8，MFU 目标 40% 以上。hang 了先找没进 collective 的那个 rank。", RIGHT),
    (PITCH, None, "- memory budget first\n- TP in node (NVLink)\n- PP across nodes\n- CP / EP only if needed\n- DP "
                  "+ distributed optimizer\n- overlap comm, FP8\n- MFU ~40%\n- hangs: find the missing rank", RIGHT),
    (PITCH, None, "Not TP across nodes — TP stays in the node. Memory decides: model state plus activations. PP "
                  "between nodes, CP/EP when sequence or experts demand, DP outermost with sharded optimizer. "
                  "Overlap comms, FP8 where it's stable, 40% MFU target, and for hangs look for the absent rank.", RIGHT),
    (PITCH, None, "So, first figure out what fits in memory. Then tensor parallel inside a node, pipeline across "
                  "nodes, context or expert parallel only if you need them, data parallel with a distributed "
                  "optimizer on top. Hide communication behind compute, FP8, shoot for 40-50% MFU, and when "
                  "something hangs, the first question is which rank is missing.", RIGHT),
    (PITCH, None, "Memory math first. TP8 in-node, PP inter-node, CP/EP as needed, DP + ZeRO-1. Overlap, FP8, "
                  "MFU ≥ 40%. Hang → find the rank that isn't in the collective.", RIGHT),
    (PITCH, None, "显存先算清楚；机内 TP，跨机 PP；CP 和 EP 按需；DP 配 distributed optimizer；通信 overlap；FP8；MFU 40%；hang "
                  "的时候找缺席的那个 rank。", RIGHT),
    (PITCH, None, "Use TP across all nodes, as big as possible, and DP on top. Turn on FP8. That's it.", WRONG),
    (PITCH, None, "FSDP everywhere, no TP or PP needed. Raise the NCCL timeout when it hangs.", WRONG),
    (PITCH, None, "PP inside the node, TP across nodes, DP on top; aim for 90% MFU.", WRONG),
    # behavioural story
    (STORY, None, "Situation: a 70B pre-training run on 512 GPUs hung at random steps, NCCL watchdog timeouts "
                  "after 30 minutes, a couple of times a day. Action: I turned on the flight recorder and "
                  "py-spy-dumped every rank at the next hang; all ranks were in the all-reduce except one, which "
                  "was stuck in a host-side eval callback. Cause: a rank-0-only metric computation issued a "
                  "collective the others never called. Result: I moved the collective out of the rank-0 branch; "
                  "the hangs stopped and we recovered about 8% of wasted GPU-hours. What I changed: we added "
                  "TORCH_DISTRIBUTED_DEBUG=DETAIL to CI and cut the timeout to 5 minutes.", RIGHT),
    (STORY, None, "在上一家公司，一个 128 卡的 SFT 任务每个 epoch 结束都会 hang，等 NCCL timeout。我对所有 rank 跑了 py-spy dump，"
                  "发现有一个 rank 停在 evaluate 的 barrier，其他 rank 还在 backward 的 all-reduce 里。原因是手写的 sampler "
                  "没有 pad，这个 rank 少了一个 batch。我换成 DistributedSampler 加 drop_last，hang 就没了，每个 epoch 省了 30 "
                  "分钟的空等。之后我们把 timeout 调短到 5 分钟，并且在 CI 里加了检查每个 rank batch 数一致的测试。", RIGHT),
    (STORY, None, "So at my last job we had a 34B run on 256 H100s that would freeze at the same step every time. "
                  "The NCCL timeout fired after 30 minutes. I grabbed py-spy stacks from every rank and one rank's "
                  "process was simply gone — its log ended in a CUDA OOM, a 32K-token packed sequence. Since we "
                  "launched with srun there was no agent to kill the rest. I capped the tokens per batch and added "
                  "--kill-on-bad-exit; the run got past that step and finished; the hang had cost us about nine hours. Afterwards we made every rank log to "
                  "its own file and lowered the timeout to 10 minutes.", RIGHT),
    (STORY, None, "- situation: 1,024-GPU pre-train, hung every ~6 h, NCCL timeout\n- action: flight recorder + "
                  "py-spy on all ranks, compared collective sequence numbers\n- cause: one node's NIC flapping, its "
                  "rank never reached the all-reduce\n- result: drained the node, hangs stopped, ~15% more "
                  "goodput\n- changed: added a pre-flight nccl-tests check per node and automatic node exclusion", RIGHT),
    (STORY, None, "Situation: 8-GPU fine-tune froze at step 1200 every run. Action: py-spy on each rank — rank 0 "
                  "in all_gather inside save_checkpoint, the others in backward's all-reduce. Cause: the gather was "
                  "under `if rank == 0`. Result: made every rank call it, rank 0 writes; fixed it in an afternoon, after losing two days of runs. "
                  "Changed: TORCH_DISTRIBUTED_DEBUG=DETAIL in our smoke tests and a short timeout, and a checkpoint "
                  "at step 10 in CI.", RIGHT),
    (STORY, None, "It wasn't the network, though that's what everyone assumed at first. We had a 512-GPU job "
                  "timing out in NCCL after a few hours. I dumped the flight recorder and saw one rank was two "
                  "collectives behind; py-spy showed it stuck in a data loader worker reading from a hung NFS mount. "
                  "We moved the dataset to local NVMe, the timeouts went away, and the team now alerts on per-rank "
                  "step-time skew so we catch a lagging rank before it times out.", RIGHT),
    (STORY, None, "I once had a job that hung. I think it was NCCL. We restarted it and it worked.", WRONG),
    (STORY, None, "A job hung with an NCCL timeout, so I raised the timeout to two hours and it finished. We kept "
                  "that setting afterwards.", WRONG),
    (STORY, None, "We had a 512-GPU job that hung. I looked at the logs and it was a bad GPU, probably. We "
                  "replaced some nodes.", WRONG),
    (CK, "fix", "A longer timeout would not help: rank 0 would still wait in a gather nobody else calls. Every rank "
                "calls gather_full_state, only rank 0 writes; a 3-minute timeout and TORCH_DISTRIBUTED_DEBUG=DETAIL "
                "flag the next mismatch; a smoke run saving at step 5 proves it.", RIGHT),
    (OOM, "fix", "Raising the timeout wouldn't help — rank 5 is gone and never comes back. Instead: a token budget per "
                 "micro-batch so a 32K sequence is split or truncated, srun --kill-on-bad-exit=1 so the job dies with "
                 "the rank, and a log file per rank.", RIGHT),
    (OOM, "fix", "I wouldn't just buy bigger GPUs; bound the length — max 8K tokens per packed sequence. Fail fast "
                 "with torchrun (its agent kills the others when one exits) and a short NCCL timeout. Every rank "
                 "logs, with its rank id.", RIGHT),
    (OOM, "fix", "1/ cap tokens per batch at the length we tested (8K), drop or split anything longer; 2/ srun "
                 "--kill-on-bad-exit or torchrun so a dead rank ends the job in seconds; 3/ each rank writes its own "
                 "log.", RIGHT),
    (OOM, "fix", "把超长序列切开或者截断，每个 batch 限定 token 上限；不要只调大 timeout。用 torchrun 或 srun --kill-on-bad-exit，"
                 "一个 rank 挂了全体退出；每个 rank 都打自己的日志。", RIGHT),
    (UNEVEN, "fix", "Rather than the hand-written sampler, use DistributedSampler with drop_last=True on the training "
                    "loader so every rank runs the same number of steps; Join() is the fallback for uneven inputs. "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL to report mismatched collectives.", RIGHT),
    (UNEVEN, "fix", "A barrier wouldn't help, rank 3 is already in one. Equalize the steps: pad the shards (or "
                    "drop_last) so all 8 ranks see N batches. Or DDP's Join context manager. And "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL.", RIGHT),
    (UNEVEN, "fix", "Give all ranks the same number of batches — e.g. drop the last len(dataset) % 8 samples, or pad "
                    "with repeats as DistributedSampler does. Join() handles it if you can't. DETAIL debug catches "
                    "a mismatch next time.", RIGHT),
    (UNEVEN, "fix", "不是调 timeout，是让每个 rank 的 batch 数一样：训练的 sampler 换成 DistributedSampler（drop_last 或 pad），或者用 "
                    "Join。再开 TORCH_DISTRIBUTED_DEBUG=DETAIL 检查 collective。", RIGHT),
    (LED, None, "Start with questions: token budget, seq length, deadline. State: 16 bytes/param → 6.4 TB, so "
                "sharding is a must. TP 8 inside each node (NVLink 900 GB/s vs ~50 GB/s IB per GPU, ~18x), PP 8 "
                "across nodes, DP 125 with ZeRO-1. Time: 6ND for 10T tokens = 2.4e25; 8,000 × ~400 TFLOP/s "
                "achieved (40% MFU) → ~87 days. Failures: checkpoint every 30 min, auto-restart, spares. Watch "
                "loss, grad norm, MFU, straggler ranks.", RIGHT),
    (LED, None, "先问：多少 token、多长序列、什么时候要。显存：每参数约 16 字节，400B 就是 6.4 TB，不能纯 DP。机内 TP 8，跨机 PP 8，"
                "DP 125，optimizer 按 DP 切。时间：6ND，10T token 是 2.4e25 FLOPs，8000 卡 × 40% MFU 约 3e18/s，三个月左右。可靠性："
                "每 30 分钟 checkpoint、自动重启。监控：loss、grad norm、MFU、每个 rank 的 step time。", RIGHT),
    (LED, None, "Not FSDP over everything — at 8,000 GPUs that's too much traffic. Clarify tokens (~10T), seq "
                "8K, deadline. Memory 16 B/param = 6.4 TB. TP 8 in node, PP 16 across, DP ~62 with distributed "
                "optimizer. 6ND = 2.4e25 FLOPs at ~40% MFU → ~90 days. Checkpoint often, restart automatically. "
                "Monitor loss, grad norm, MFU, per-rank step time.", RIGHT),
    (LED, None, "Clarify first (tokens, seq len, deadline). Memory ~16 B per param = 6.4 TB. Layout: TP 8 in node, PP 8 "
                "across nodes, DP 125. Time: 6ND; someone might plan on 90% MFU but 40% is realistic → 2.4e25 / 3.2e18 ≈ 87 "
                "days. Reliability: async checkpoints + auto-resume. Monitoring: loss, grad norm, MFU.", RIGHT),
    (PITCH, None, "Fit memory first. TP in the node (NVLink), PP across nodes — never TP over InfiniBand. CP for "
                  "long context, EP for MoE, DP with distributed optimizer outside. Overlap comms, FP8, ~40% MFU. "
                  "Hangs: find the absent rank rather than raising the timeout.", RIGHT),
    (PITCH, None, "Memory first; TP within a node; PP across nodes; CP/EP only when needed; DP + distributed "
                  "optimizer; overlap; FP8; MFU target 40%, not 90%; for a hang find the missing rank.", RIGHT),
    (PITCH, None, "内存先算；TP 不跨机，放机内；PP 跨机；CP、EP 按需；DP 加 distributed optimizer；overlap 通信；FP8；MFU 做到 40% "
                  "左右；hang 了别调大 timeout，找缺席的 rank。", RIGHT),
    (PITCH, None, "Memory sets the layout: TP inside nodes over NVLink, pipeline across nodes, CP for long "
                  "sequences and EP for MoE, DP outermost with the distributed optimizer. Overlap, FP8, about 40% "
                  "MFU. A hang means one rank is absent — find it.", RIGHT),
    (STORY, None, "Situation: 256-GPU SFT hung at the last step of every epoch, NCCL timeout 30 min later. Action: "
                  "py-spy on every rank — one rank in evaluate()'s barrier, the rest in the gradient all-reduce. "
                  "Cause: the custom sampler gave that rank one batch fewer. Result: DistributedSampler with "
                  "drop_last fixed it the same day; we had lost about 6 hours per epoch. Afterwards I added a test "
                  "that asserts len(sampler) matches on all ranks.", RIGHT),
    (STORY, None, "At my last team a 1,024-GPU pre-train kept timing out in NCCL every few hours. I didn't just "
                  "restart it: I turned on the flight recorder and found one rank was always a collective behind; "
                  "its node had NVLink errors, xid 74 in dmesg. We drained the node, the timeouts stopped, we'd "
                  "lost about two days. Afterwards we added a pre-flight NVLink health check and an alert on xid "
                  "errors.", RIGHT),
    (STORY, None, "我们有个 512 卡的预训练，每次在第 3072 步 hang，NCCL timeout 之后挂掉。我用 py-spy 看了所有 rank，发现一个 rank "
                  "进程没了，日志里是 OOM，那一步有一条 32K 的超长序列；srun 没有 agent，其他 rank 就一直等。我加了每个 batch 的 "
                  "token 上限，当天就修好了，之前浪费了大概 20 个小时。之后加了告警，每个 rank 都写日志。", RIGHT),
    (OOM, "fix", "Lower the learning rate so the long batch doesn't blow up, and raise the timeout.", WRONG),
    (UNEVEN, "fix", "Set drop_last=True in the evaluation data loader and add a barrier.", WRONG),
    (CK, "fix", "Raise the timeout to an hour and add a barrier before the save.", WRONG),
    (LED, None, "Pure data parallel over 8,000 GPUs, 400B at 2 bytes per param fits on one node, done in a week.",
     WRONG),
    (PITCH, None, "TP across nodes to 64, PP in node, raise the timeout on hangs.", WRONG),
    (STORY, None, "A job hung once. We restarted it and it was fine, never found out why.", WRONG),
    (STORY, None, "- situation: 64-GPU fine-tune froze at step 1200 every run, watchdog timeout after 30 min\n"
                  "- action: py-spy on all ranks; rank 0 in all_gather, the rest in the all-reduce\n- cause: the "
                  "gather sat under if rank == 0, only rank 0 called it\n- result: moved it out, fixed the same "
                  "day; we'd lost about 10 hours\n- changed: added a two-rank test of the save path", RIGHT),
    (STORY, None, "Hmm, the one I remember: a 128-GPU run that hung at random steps with NCCL timeouts. People "
                  "first blamed the network, but I dumped the stacks of every rank with py-spy and one rank was "
                  "stuck in a barrier the others never called — a logging helper only some ranks ran. Moving the "
                  "barrier out fixed it in two hours, after we'd wasted about a day of GPU time. Afterwards we "
                  "added a lint check for collectives under rank conditions.", RIGHT),
    (STORY, None, "情况：一个 1,024 卡的预训练每隔几个小时就 NCCL 超时。行动：打开 flight recorder，对比每个 rank 的 collective 序号，"
                  "发现一个 rank 总是落后一个。原因：那台机器的 NVLink 有错误（xid 74）。结果：把节点下线，当天就修好了，之前损失了"
                  "大约 30 个小时。之后加了上线前的 NVLink 健康检查和 xid 告警。", RIGHT),
    (STORY, None, "Our 512-GPU job hung, it was the network probably, so we set NCCL_IB_DISABLE=1 and it ran.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round4_right_answers_and_guards(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
