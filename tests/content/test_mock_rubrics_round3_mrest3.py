"""Hang, debug, led, pitch and behavioural stages, third round (2026-12-03): wrong answers a real candidate would
type and an interviewer would refuse (an honest partial answer that leaves the stage's question unanswered, the
right vocabulary with one confident wrong claim, the right diagnosis with a harmful or symptom-only fix, a
whole-sentence negation of the right answer, the answer to a neighbouring step, fluent generic advice with the
keywords sprinkled in, Chinese with English terms) and right answers in voices not tried before (terse, rambling,
bullets, Chinese, numbers written differently). Written by hand, none from the labelled benchmark. Each case:
(scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CKPT, OOM, UNEVEN = "hang-checkpoint-rank0", "hang-oom-dead-rank", "hang-uneven-batches"
DATA, EXPOSED, LAUNCH, STRAG = "debug-data-loading", "debug-exposed-communication", "debug-launch-bound", "debug-straggler"
LED, PITCH, STORY = "led-dense-400b", "pitch-recipe", "behavioural-hang-story"

CASES = [
    # hang-checkpoint-rank0 / why
    (CKPT, "why", "Rank 0 is stuck in an all_gather inside save_checkpoint while ranks 1-7 are in backward. Step 1200 "
                  "is when we checkpoint.", WRONG),
    (CKPT, "why", "Only rank 0 calls the all_gather, since it sits under if rank == 0, and the other ranks went on to the "
                  "next step's all-reduce, so they wait on each other. It's always step 1200 because the NCCL timeout "
                  "is reached exactly at that step.", WRONG),
    (CKPT, "why", "I don't think it's a mismatch between ranks: rank 0 just takes a long time to gather the full state "
                  "of a 1.3B model at step 1200, and the others time out waiting.", WRONG),
    (CKPT, "why", "Move the all_gather out of the if rank == 0 so every rank calls it, and keep a short timeout with the "
                  "flight recorder on.", WRONG),
    (CKPT, "why", "Hangs like this are usually a collective mismatch somewhere. I'd look at the stacks, check NCCL logs, "
                  "enable debug output, and follow best practices around checkpointing; step 1200 is probably related "
                  "to the schedule or the data.", WRONG),
    (CKPT, "why", "rank 0 在 save_checkpoint 里的 all_gather，其他 rank 在 backward。1200 步是因为那一步 GPU 温度过高降频了。",
     WRONG),
    (CKPT, "why", "Ranks 1-7 call the all_gather in save_checkpoint and rank 0 never calls it, it went straight on to "
                  "the gradient all-reduce; step 1200 is the checkpoint interval.", WRONG),
    (CKPT, "why", "Only rank 0 calls the gather under if rank == 0, the others wait in the all-reduce of the next step — "
                  "a deadlock. Why 1200? My guess is a corrupted sample in the shard at that step.", WRONG),
    (CKPT, "why", "It hangs because the all_gather's tensors have different shapes on the different ranks at step 1200, "
                  "so NCCL can't match them.", WRONG),
    (CKPT, "why", "并不是只有 rank 0 调用了 gather 的问题，是 1200 步 checkpoint 写盘太慢，其他 rank 等超时了。", WRONG),
    (CKPT, "why", "The ranks are in different collectives: rank 0 in all_gather, the rest in all-reduce. That's the whole "
                  "story, they each wait for the other.", WRONG),
    (CKPT, "why", "if rank == 0 → only r0 enters the all_gather; r1-7 skip it, go on to next step's grad all-reduce → "
                  "different collectives, deadlock. 1200 = checkpoint interval (code, not hardware).", RIGHT),
    (CKPT, "why", "OK so looking at the dumps, rank zero is sitting in gather_full_state, which is an all_gather, and it "
                  "got there through save_checkpoint. That save is guarded by a rank-zero check, so only rank 0 ever "
                  "calls the gather. The other seven never call it; they just carry on into the next step's backward "
                  "and block in DDP's all-reduce. So two different collectives, each side waiting on the other forever. "
                  "And 1200 is just our save frequency, which is why it's the same step every run.", RIGHT),
    (CKPT, "why", "save_checkpoint 写在 if rank == 0 下面，所以里面的 all_gather 只有 rank 0 调用；rank 1 到 7 跳过了，进了下"
                  "一步 backward 的 all-reduce。两边进的不是同一个 collective，互相等，死锁。1200 正好是 checkpoint 间隔，"
                  "是代码问题，不是硬件。", RIGHT),
    (CKPT, "why", "- only rank 0 calls the all_gather (it's under the rank 0 guard)\n- ranks 1..7 skipped it, now in "
                  "the gradient all-reduce of step 1201\n- mismatched collectives → both sides wait forever\n- 1200 = "
                  "the checkpoint step, so same step every time", RIGHT),
    (CKPT, "why", "Rank 0 alone enters the all-gather in gather_full_state, because save_checkpoint only runs on rank 0; "
                  "the others never reach it and wait in the next backward's all-reduce. Different collectives, "
                  "deadlock. We save every 1200 steps, hence step 1200.", RIGHT),
    # hang-checkpoint-rank0 / fix
    (CKPT, "fix", "Raise the NCCL timeout to an hour so rank 0 has time to finish writing the checkpoint.", WRONG),
    (CKPT, "fix", "Move the all_gather out of the if rank == 0 so every rank calls it, and only rank 0 writes the file.",
     WRONG),
    (CKPT, "fix", "Make every rank call the gather. To catch it faster next time, set NCCL_DEBUG=INFO on rank 0 only.",
     WRONG),
    (CKPT, "fix", "Add a dist.barrier() in the else branch so ranks 1-7 pair with rank 0's gather, and keep a short "
                  "timeout with the flight recorder on.", WRONG),
    (CKPT, "fix", "Only rank 0 calls the all_gather, because it is under if rank == 0, and the others are in the "
                  "all-reduce; step 1200 is the checkpoint step.", WRONG),
    (CKPT, "fix", "I'd improve the checkpoint code in general, add monitoring and alerting, write more tests, use best "
                  "practices, and make sure every rank is healthy with good logging and a timeout that makes sense.",
     WRONG),
    (CKPT, "fix", "让所有 rank 都调用 gather 就行。下次想更快发现，就把 NCCL timeout 调大到 2 小时，免得误杀。", WRONG),
    (CKPT, "fix", "Keep the gather inside the if rank == 0 but wrap it in a try/except so rank 0 does not hang, then "
                  "turn on TORCH_DISTRIBUTED_DEBUG=DETAIL.", WRONG),
    (CKPT, "fix", "I don't think the gather needs to move; just checkpoint less often, say every 5000 steps, and the hang "
                  "will be rarer.", WRONG),
    (CKPT, "fix", "Every rank calls the gather, and disable the watchdog so long checkpoints never get killed.", WRONG),
    (CKPT, "fix", "all ranks call gather, only r0 writes. Next time: short PG timeout + flight recorder dump on "
                  "timeout, TORCH_DISTRIBUTED_DEBUG=DETAIL once. Verify: ckpt at step 10, run past it.", RIGHT),
    (CKPT, "fix", "所有 rank 都调用这个 all_gather，把它挪到 if 外面，只有写文件留在 rank 0。下次：process group 的 timeout 设"
                  "短一点，比如 5 分钟，开 flight recorder 超时 dump；再开 TORCH_DISTRIBUTED_DEBUG=DETAIL 跑一次，它会检查"
                  "collective 是否一致。", RIGHT),
    (CKPT, "fix", "Honestly the simplest thing is to use torch distributed checkpoint, a sharded checkpoint where each "
                  "rank writes its own piece, so there's no gather on one rank at all. And for next time, I'd keep the "
                  "timeout short, like ten minutes, with dump on timeout so we get the flight recorder trace straight "
                  "away instead of a silent cluster.", RIGHT),
    (CKPT, "fix", "- move the collective out of the rank 0 branch, every rank joins the gather\n- rank 0 keeps only the "
                  "file write\n- TORCH_DISTRIBUTED_DEBUG=DETAIL catches mismatched collectives next time\n- test: "
                  "save at step 5 and run past it", RIGHT),
    # hang-oom-dead-rank / why
    (OOM, "why", "Rank 5 ran out of GPU memory and died. The others are waiting in the all-reduce.", WRONG),
    (OOM, "why", "Rank 5 hit CUDA OOM on the batch at step 3072 with a 32K-token sequence; activations grow with "
                 "sequence length. Same data order, same batch, same step. The others would have been killed by "
                 "torchrun's agent, but it tore the job down too slowly.", WRONG),
    (OOM, "why", "Rank 5 has a faulty GPU that fails at step 3072, so it exited; srun does not stop the other ranks, "
                 "which wait in the all-reduce until the NCCL timeout.", WRONG),
    (OOM, "why", "Cap the sequence length when packing and launch with torchrun so a dead rank ends the job.", WRONG),
    (OOM, "why", "I don't think rank 5 ran out of memory; it's more likely the node's network dropped, so the "
                 "all-reduce never completes.", WRONG),
    (OOM, "why", "rank 5 OOM 挂了，因为 3072 那个 batch 有 32K 的长序列。其他 rank 在 all-reduce 里等，srun 下没人把任务停掉。"
                 "每次同一步是因为显存泄漏刚好在那步满了。", WRONG),
    (OOM, "why", "One rank died, as they do at scale. The fix is good monitoring: watch memory, watch the logs, use "
                 "best practices for data loading, and the job will be more robust; the step is whatever step it is.",
     WRONG),
    (OOM, "why", "Rank 5 ran out of memory on a long 32K sequence, because activation memory grows with the square of "
                 "the batch size; under srun the rest wait in the all-reduce until the timeout. Same data order, same "
                 "step.", WRONG),
    (OOM, "why", "Rank 5 is stuck in a different collective from the other seven, so they wait for each other; the data "
                 "order is deterministic.", WRONG),
    (OOM, "why", "Rank 0 ran out of memory on the long batch and exited; the others wait in the all-reduce because srun "
                 "doesn't tear it down. Same data, same step.", WRONG),
    (OOM, "why", "r5 gone: CUDA OOM on batch 3072 (longest seq 32k, acts ∝ seq len). srun, no agent → the other 7 sit in "
                 "all-reduce till NCCL timeout. Same data order → same batch → same step; data, not HW.", RIGHT),
    (OOM, "why", "So rank five isn't there any more: py-spy can't find the process, and its last log line is a CUDA "
                 "out of memory error. That's on the batch at step 3072, which has a 32 thousand token sequence, and "
                 "activation memory scales with sequence length, so that one batch needs way more memory. With srun "
                 "there's no torchrun agent to notice a rank exited, so the other seven just sit in the all-reduce "
                 "until the NCCL timeout fires. And since the data order is fixed, the same batch lands on the same "
                 "step every run.", RIGHT),
    (OOM, "why", "rank 5 显存不够（CUDA OOM）退出了：3072 步那个 batch 里有一条 32K token 的长序列，activation 随序列长度增长。"
                 "srun 没有 agent 监控，其他 7 个 rank 就一直在 all-reduce 里等，直到 NCCL timeout。数据顺序固定，所以每次"
                 "都是同一个 batch、同一步——是数据，不是硬件。", RIGHT),
    (OOM, "why", "- rank 5 died of OOM\n- batch 3072 has a 32K-token sequence; activations grow with length\n- srun: "
                 "no agent kills the others, they wait in the all-reduce till the timeout\n- fixed data order → same "
                 "step each run", RIGHT),
    # hang-oom-dead-rank / fix
    (OOM, "fix", "Launch with torchrun so a dead rank stops the job, and keep the timeout short.", WRONG),
    (OOM, "fix", "Cap the packed sequence length at 8K, and raise the NCCL timeout so the other ranks wait long enough "
                 "for rank 5 to recover.", WRONG),
    (OOM, "fix", "Rank 5 ran out of memory on the 32K batch and exited; under srun nothing stopped the others, and the "
                 "same data order gives the same step.", WRONG),
    (OOM, "fix", "Skip the batch at step 3072 and restart from the last checkpoint.", WRONG),
    (OOM, "fix", "Bucket the sequence lengths so no batch is much longer than the rest, and keep running under plain "
                 "srun; there's no need for torchrun or a shorter timeout.", WRONG),
    (OOM, "fix", "Replace the GPU on rank 5's node; it has bad memory. Then launch with torchrun.", WRONG),
    (OOM, "fix", "I don't think we need to touch the data; launching with torchrun and a short timeout is enough.",
     WRONG),
    (OOM, "fix", "把 batch size 调大一点让每个 batch 更均匀，再把 NCCL timeout 调大，避免误杀。", WRONG),
    (OOM, "fix", "Make the pipeline robust: add memory monitoring, use best practices for packing, review the logs "
                 "regularly, have a good on-call rotation, and make sure long sequences are handled well.", WRONG),
    (OOM, "fix", "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to reduce fragmentation, and use torchrun.",
     WRONG),
    (OOM, "fix", "cap/bucket seq len when packing (or recompute/CP for the 32K one); torchrun or srun "
                 "--kill-on-bad-exit=1 + short PG timeout so a dead rank kills the job; collect all ranks' logs.",
     RIGHT),
    (OOM, "fix", "两件事：一是把最长 batch 的显存压住——packing 时限制或者分桶 sequence length，或者对长序列开 recompute；二是让"
                 "死掉的 rank 结束整个任务——用 torchrun 启动，它的 agent 会在一个 worker 挂掉时停掉所有 worker，timeout 也设短。"
                 "另外要收集每个 rank 的日志，OOM 只在 rank 5 的日志里。", RIGHT),
    (OOM, "fix", "Well, first I'd make sure that one batch can't blow the memory again, so cap the sequence length "
                 "when we pack, or bucket by length. Then the hang part: I'd move off bare srun to torchrun, because "
                 "its agent kills all the workers when one dies, and keep a short process-group timeout so we find "
                 "out in minutes. Oh, and gather logs from every rank, since only rank 5 printed the OOM.", RIGHT),
    (OOM, "fix", "- bound the longest batch: bucket lengths, or activation recompute for 32K\n- fail fast: torchrun "
                 "agent stops all workers on a failure, short timeout\n- every rank's log collected", RIGHT),
    # hang-uneven-batches / why
    (UNEVEN, "why", "Rank 3 has fewer batches.", WRONG),
    (UNEVEN, "why", "Rank 3's shard has one batch fewer, so it leaves the loop a step early and waits in evaluate()'s "
                    "barrier while the others wait in the all-reduce. The fix is DistributedSampler with drop_last.",
     RIGHT),
    (UNEVEN, "why", "Rank 3's shard has one batch more than the others, so it runs an extra step and waits in the "
                    "all-reduce while the rest are in evaluate()'s barrier.", WRONG),
    (UNEVEN, "why", "Use DistributedSampler with drop_last so every rank has the same number of steps.", WRONG),
    (UNEVEN, "why", "The ranks are in different collectives: one in a barrier and the others in an all-reduce.", WRONG),
    (UNEVEN, "why", "I don't think the shards differ in length; the hand-written sampler gives every rank the same "
                    "number of batches, it's the evaluation that's slow on rank 3.", WRONG),
    (UNEVEN, "why", "rank 3 少一个 batch 提前退出循环，在 evaluate 的 barrier 里等；其他 rank 在 all-reduce 等。原因是 rank 3 "
                    "的 GPU 比别人慢。", WRONG),
    (UNEVEN, "why", "Rank 3 ran out of memory in evaluate() and crashed, so the others wait in the all-reduce.", WRONG),
    (UNEVEN, "why", "Epoch-end hangs are a classic. I'd check the sampler, make sure data loading is consistent, look at "
                    "the evaluation code, and in general follow best practices for DDP; ranks can end up in different "
                    "places.", WRONG),
    (UNEVEN, "why", "Rank 3's shard has one batch fewer; it leaves the loop early and waits in evaluate()'s barrier while "
                    "the others sit in the all-reduce. It's because drop_last=True dropped rank 3's last batch.", WRONG),
    (UNEVEN, "why", "r3's shard: 1 batch fewer (no pad, no drop_last) → exits loop a step early → evaluate() barrier; "
                    "r0-2,4-7 in grad all-reduce → different collectives, nobody moves.", RIGHT),
    (UNEVEN, "why", "rank 3 那份数据比别人少一个 batch（手写 sampler 既不 pad 也不 drop_last），所以最后一步它已经跳出训练循环，"
                    "在 evaluate() 的 barrier 里等；其他 7 个 rank 还在 backward 的 gradient all-reduce 里等它。不是同一个 "
                    "collective，谁也走不了。", RIGHT),
    (UNEVEN, "why", "Right, so the sampler is hand-written and it doesn't pad or drop the remainder, which means the "
                    "shards aren't the same length, and rank 3 ends up with one batch fewer than everyone else. On the "
                    "last step it's already done with training and goes into evaluate, which starts with a barrier. "
                    "Meanwhile the other seven are still in backward waiting on the gradient all-reduce for rank 3. "
                    "Barrier versus all-reduce, different collectives, so nobody proceeds.", RIGHT),
    (UNEVEN, "why", "- rank 3: one batch short, leaves the loop early\n- it waits in evaluate's barrier\n- the other "
                    "seven wait in the gradient all-reduce\n- mismatched collectives, so it hangs", RIGHT),
    # hang-uneven-batches / fix
    (UNEVEN, "fix", "Raise the NCCL timeout so rank 3 has time to catch up.", WRONG),
    (UNEVEN, "fix", "Rank 3 has one batch fewer, so it goes into evaluate()'s barrier while the others wait in the "
                    "all-reduce.", WRONG),
    # DistributedSampler pads when drop_last is off: every rank gets the same count
    (UNEVEN, "fix", "Use DistributedSampler with drop_last=False, so no data is lost.", RIGHT),
    (UNEVEN, "fix", "Set drop_last=True on rank 3's DataLoader only, so its short batch goes away.", WRONG),
    (UNEVEN, "fix", "Remove the barrier from evaluate() so rank 3 doesn't wait for anyone.", WRONG),
    (UNEVEN, "fix", "Turn on TORCH_DISTRIBUTED_DEBUG=DETAIL so the mismatch is named next time.", WRONG),
    (UNEVEN, "fix", "I wouldn't change the sampler; just set TORCH_DISTRIBUTED_DEBUG=DETAIL and restart the job.", WRONG),
    (UNEVEN, "fix", "Wrap the gradient all-reduce in a try/except, so when rank 3 is missing the others skip it and go "
                    "on to evaluate.", WRONG),
    (UNEVEN, "fix", "把 evaluate 挪到每个 rank 自己跑，不用 barrier；timeout 调大一点。", WRONG),
    (UNEVEN, "fix", "Just make the data pipeline more robust, add better logging, monitor the ranks and use best "
                    "practices for samplers and evaluation so that ranks stay in sync.", WRONG),
    (UNEVEN, "fix", "Restart from the last checkpoint with the same sampler; it'll get past it the second time.", WRONG),
    (UNEVEN, "fix", "DistributedSampler(drop_last=True) or pad → same #steps on all ranks; or DDP Join(); "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL to name it next time.", RIGHT),
    (UNEVEN, "fix", "让每个 rank 的 step 数一样：换成 DistributedSampler 并设 drop_last（或者 pad），或者训练前先 all-reduce 一下"
                    "大家的 batch 数取最小值。也可以用 DDP 的 Join context manager 处理不均匀的输入。", RIGHT),
    (UNEVEN, "fix", "The real fix is making sure every rank runs exactly the same number of steps, so swap the "
                    "hand-rolled sampler for DistributedSampler with drop_last, or pad the shards to the same length. "
                    "If you really want uneven inputs, DDP's Join context manager handles that. And flip on "
                    "TORCH_DISTRIBUTED_DEBUG=DETAIL so the next mismatch is named for you.", RIGHT),
    (UNEVEN, "fix", "- every rank gets the same step count: DistributedSampler + drop_last, or padding\n- or wrap the "
                    "loop in DDP's Join\n- flight recorder on for next time", RIGHT),
    # debug-data-loading / next
    (DATA, "next", "The step is input-bound: the GPU waits 41% of the step for the DataLoader, not for NCCL.", WRONG),
    (DATA, "next", "Raise num_workers from 8 to 32 and turn on pin_memory.", WRONG),
    (DATA, "next", "Swap in synthetic data to confirm the gap disappears, then add DataLoader workers; no need to "
                   "measure again afterwards, the synthetic run already proves it.", WRONG),
    (DATA, "next", "Turn on overlap_grad_reduce so the NCCL kernels hide behind backward, then measure MFU again.",
     WRONG),
    (DATA, "next", "I don't think it's the data loader: nvidia-smi shows 70-100% on every GPU, so the GPUs are busy. "
                   "I'd profile the kernels and measure again.", WRONG),
    (DATA, "next", "Increase the micro-batch size so each step does more compute per load, and re-measure the step "
                   "time.", WRONG),
    (DATA, "next", "I'd take a holistic approach: profile everything, monitor the GPUs and the CPUs, look at the "
                   "loader, follow best practices for data pipelines and for overlap, and keep measuring until "
                   "utilization is where it should be.", WRONG),
    (DATA, "next", "先用 synthetic data 跑一下确认是 loader 的问题，然后把 DataLoader 的 num_workers 调小到 2，减少 CPU 争抢，再"
                   "测一次 MFU。", WRONG),
    (DATA, "next", "Tokenize and pack the dataset offline so the workers only read tensors.", WRONG),
    (DATA, "next", "Add more GPUs: with 1024 instead of 512 the per-GPU load drops and the idle stretch shrinks; then "
                   "measure again.", WRONG),
    (DATA, "next", "synthetic batches → gap gone? confirms input-bound. Then more workers + pin_memory/prefetch, "
                   "tokenize+pack offline. Re-measure: pre-forward idle ≈0, step time ↓, MFU ↑.", RIGHT),
    (DATA, "next", "先用假数据（synthetic）或者缓存好的 tokenized batch 跑，看 forward 前的那 41% 空等是否消失。确认之后：多开 "
                   "DataLoader worker、打开 pin_memory 和 prefetch，再把 tokenize 挪到离线做。改完重新测 step time 和 MFU。",
     RIGHT),
    (DATA, "next", "So the main thread's stuck in the iterator and the workers are pegged decoding and tokenizing text, "
                   "which is pretty clearly the input pipeline. I'd first prove it by swapping in synthetic data and "
                   "checking the idle stretch disappears. Then the real fix is to stop tokenizing on the fly: "
                   "pre-tokenize and pack the data offline, and in the meantime bump the worker count. Then I'd run "
                   "the profiler again and check the idle before the first forward kernel is gone and the step time "
                   "dropped.", RIGHT),
    (DATA, "next", "- confirm: synthetic data, the gap should vanish\n- fix: more DataLoader workers, prefetch, and "
                   "offline tokenization\n- check: re-profile, idle before first forward gone, MFU up", RIGHT),
    # debug-exposed-communication / next
    (EXPOSED, "next", "Turn on --overlap-grad-reduce and --overlap-param-gather.", WRONG),
    (EXPOSED, "next", "The 27% is the DP reduce-scatter and all-gather left exposed after backward; overlap is off, the "
                      "network is fine.", WRONG),
    (EXPOSED, "next", "The fabric is slow: upgrade the InfiniBand, then turn on overlap and measure MFU again.", WRONG),
    (EXPOSED, "next", "Turn off --use-distributed-optimizer so there is no reduce-scatter and all-gather, then measure "
                      "MFU again and look at the trace.", WRONG),
    (EXPOSED, "next", "I don't think overlap would help here; the reduce-scatter is bound by the fabric, so reduce DP "
                      "from 32 to 16 and measure again.", WRONG),
    (EXPOSED, "next", "Raise the number of micro-batches to shrink the 7% pipeline bubble, then re-measure the step time.",
     WRONG),
    (EXPOSED, "next", "Enable overlap with --overlap-grad-reduce and --overlap-param-gather, and move TP across nodes "
                      "so it has more bandwidth; then measure MFU again and check the trace.", WRONG),
    (EXPOSED, "next", "打开 --overlap-grad-reduce 和 --overlap-param-gather，然后把 bucket 调成一个，越大越好，这样就没有暴露的"
                      "通信了。", WRONG),
    (EXPOSED, "next", "Communication problems need a systematic approach: profile the job, monitor the network, tune "
                      "NCCL environment variables, apply best practices for overlap and buckets, and keep measuring "
                      "MFU until it looks healthy.", WRONG),
    (EXPOSED, "next", "Run nccl-tests across all 128 nodes to find the slow link, then turn on overlap.", WRONG),
    (EXPOSED, "next", "--overlap-grad-reduce + --overlap-param-gather → RS/AG bucket by bucket during backward; tune "
                      "bucket size. Fabric is at rated BW, so it's scheduling. Check: new trace shows NCCL beside "
                      "backward kernels, MFU up.", RIGHT),
    (EXPOSED, "next", "这 27% 是 distributed optimizer 的 reduce-scatter 和 all-gather 在 backward 之后暴露出来，因为没开 overlap；"
                      "nccl-tests 说网络没问题。加上 --overlap-grad-reduce 和 --overlap-param-gather，调一下 bucket size。"
                      "之后重新抓 trace，看 NCCL kernel 是否和 backward 的 kernel 并行，再测一次 MFU。", RIGHT),
    (EXPOSED, "next", "Since the script came from a single-node job, nobody switched on overlap, so the gradient "
                      "reduce-scatter and the param all-gather just sit at the end with nothing to hide behind. I'd add "
                      "overlap-grad-reduce and overlap-param-gather, maybe play with the bucket size because the first "
                      "and last buckets are always exposed, and then take a fresh profile to make sure the NCCL kernels "
                      "are now running alongside backward, and compare MFU before and after.", RIGHT),
    (EXPOSED, "next", "- enable --overlap-grad-reduce / --overlap-param-gather\n- tune the DDP bucket size\n- not the "
                      "network: nccl-tests hits the rated bus bandwidth\n- verify: new trace, NCCL overlapping backward; "
                      "MFU measured again", RIGHT),
    # debug-launch-bound / next
    (LAUNCH, "next", "Use CUDA Graphs and torch.compile to cut the kernel launches.", WRONG),
    (LAUNCH, "next", "It's launch-bound: the CPU can't launch the tiny kernels fast enough.", WRONG),
    (LAUNCH, "next", "Capture the step in CUDA Graphs, then measure MFU again. Also drop the micro-batch to keep "
                     "kernels small so they launch faster.", WRONG),
    (LAUNCH, "next", "Add DataLoader workers so the GPU is fed faster, then measure MFU again.", WRONG),
    (LAUNCH, "next", "I don't think the launches are the problem, nvidia-smi says 100% utilization; the GEMMs are just "
                     "slow, so switch to FP8 and measure again.", WRONG),
    (LAUNCH, "next", "Turn on overlap for the 5% NCCL and log the loss every 100 steps, then re-measure.", WRONG),
    (LAUNCH, "next", "For small models you want to optimize end to end: profile, use best practices like "
                     "torch.compile where it makes sense, monitor GPU utilization, remove bottlenecks, and keep "
                     "measuring MFU.", WRONG),
    (LAUNCH, "next", "用 CUDA Graphs 和 torch.compile 减少 kernel launch，再把 micro-batch 调大。", WRONG),
    (LAUNCH, "next", "Add tensor parallelism so each GPU does less work per kernel, then measure MFU again.", WRONG),
    (LAUNCH, "next", "Log the loss every N steps instead of calling loss.item() every step, and measure again.", WRONG),
    (LAUNCH, "next", "launch-bound. CUDA Graphs + torch.compile (fusion), micro-batch 1 → 4, loss.item() every 50 "
                     "steps. Re-measure MFU after each.", RIGHT),
    (LAUNCH, "next", "这是 launch-bound：1.3B 的 kernel 太小，CPU 发射不过来。用 CUDA Graphs 和 torch.compile 做 kernel fusion "
                     "减少 launch，micro-batch 调大让每个 kernel 干更多活，loss 每 N 步才 .item() 一次。每改一步重新测 MFU。",
     RIGHT),
    (LAUNCH, "next", "OK so the CPU thread is launching kernels back to back the whole step and the kernels are tiny, "
                     "so we're launch-bound. I'd try torch.compile first to fuse things, and CUDA graphs to replay the "
                     "whole step with one launch. Bumping the micro-batch from one would give each kernel more work "
                     "too. And stop calling loss.item every step, that's a host sync. After each change I'd re-run the "
                     "profile and check MFU went up.", RIGHT),
    (LAUNCH, "next", "- fewer launches: CUDA Graphs, fused kernels via torch.compile\n- bigger micro-batch\n- no "
                     "per-step .item() sync, log every N\n- measure MFU again after each", RIGHT),
    # debug-straggler / next
    (STRAG, "next", "Drain the node with rank 213 and restart from the checkpoint.", WRONG),
    (STRAG, "next", "It's a straggler: rank 213's slow node makes every other rank wait in the reduce-scatter.", WRONG),
    (STRAG, "next", "Turn on overlap for the reduce-scatter so the 24% waiting hides behind backward, then measure MFU "
                    "again.", WRONG),
    (STRAG, "next", "Rank 213 is fine, it's the other ranks whose GPUs are slow: drain ranks 0 and 212's nodes and "
                    "measure MFU again.", WRONG),
    (STRAG, "next", "I don't think it's one node; the network must be congested, so I'd run nccl-tests and tune NCCL, "
                    "then measure again.", WRONG),
    (STRAG, "next", "Check rank 213's node for throttling and Xid errors, then reduce rank 213's micro-batch so it "
                    "keeps up, and re-measure.", WRONG),
    (STRAG, "next", "I would monitor all the nodes, set up dashboards, check the health of the cluster, follow best "
                    "practices for hardware, consider replacing anything slow, and measure again.", WRONG),
    (STRAG, "next", "把 rank 213 那台机器换掉，从 checkpoint 重启。因为代码没改，所以不用再测了。", WRONG),
    (STRAG, "next", "Raise the NCCL timeout so the other ranks can wait for rank 213 without failing.", WRONG),
    (STRAG, "next", "Compare step times across all 512 ranks to find the slow ones, and check rank 213's node clocks "
                    "and thermals.", WRONG),
    (STRAG, "next", "per-rank step times → confirm it's r213's node; nvidia-smi -q clocks/power/thermal, Xid/ECC, PCIe "
                    "width; cordon it, restart from ckpt on a spare. Re-measure: RS wait on others 24% → ~1%, MFU back.",
     RIGHT),
    (STRAG, "next", "这是 straggler：rank 213 那台机器 GPU 降频，每次最后进 reduce-scatter，其他 rank 都在等它。先比一下所有 rank "
                    "的 step time 确认只有这台，查 clocks、功耗和温度、Xid/ECC。然后把这台机器摘掉换一台，从 checkpoint 重启，"
                    "再测 MFU，其他 rank 在 reduce-scatter 里的等待应该明显变短。", RIGHT),
    (STRAG, "next", "It looks like a comms problem but it's really one slow box: rank 213 gets to the reduce-scatter "
                    "last every time, and its GPUs are clocked down. So I'd pull per-rank timings to make sure it's "
                    "just that node, look at why, thermal or power throttling, any Xid errors, then get it swapped out "
                    "for a healthy node and resume from the last checkpoint. Afterwards measure MFU again and the "
                    "reduce-scatter waiting on everyone else should mostly go away.", RIGHT),
    (STRAG, "next", "- straggler: r213's node, not the network\n- confirm: per-rank step times\n- check: clocks, "
                    "throttling, Xid\n- replace the node, resume from checkpoint\n- verify: MFU again, reduce-scatter "
                    "waits shrink", RIGHT),
    # led-dense-400b
    (LED, None, "400B dense on 8K H100s: TP 8 inside the node, PP 16 across nodes, DP the rest with the distributed "
                "optimizer. FP8, overlap, and watch MFU.", WRONG),
    (LED, None, "First the questions: how many tokens, by when, what sequence length. Memory: 16 bytes a parameter, "
                "6.4 TB of state, so dozens of GPUs for one copy. Layout: TP 8 in the node, PP 16 across nodes, DP the "
                "rest. That's the plan.", WRONG),
    (LED, None, "I'd ask about tokens and the deadline first. Memory: 16 bytes per parameter, so 6.4 TB, dozens of "
                "GPUs. Layout: TP 8 in node, PP 16 across nodes, DP for the rest. Time: 6ND at 40% MFU for 15T tokens "
                "is about 5 days. Failures: sharded async checkpoints from the MTBF, automatic restart. Monitor MFU, "
                "loss spikes and per-rank step time.", WRONG),
    (LED, None, "Ask: tokens, deadline, sequence length. Memory: 2 bytes per parameter, so 800 GB, which fits on one "
                "node of eight H100s. Layout: TP 8 in the node, DP across the rest. Time: 6ND over 8000 × 989 TFLOP/s at "
                "40% MFU, about 130 days for 15T. Reliability: sharded async checkpoints every hour or so from the MTBF, "
                "auto restart. Monitor MFU and loss spikes.", WRONG),
    (LED, None, "Clarify tokens and deadline. 16 bytes/param → 6.4 TB, so many GPUs per copy. Layout: TP 16 across two "
                "nodes to cut memory, PP 8, DP the rest. Time: 6ND / (8000 × 989T × 0.4) ≈ 130 days for 15T. Checkpoint "
                "sharded and async from the MTBF, auto restart. Monitor MFU, loss, grad norm.", WRONG),
    (LED, None, "I'd ask how many tokens and by when. Memory: 16 bytes per parameter, dozens of GPUs. TP 8, PP 16, DP "
                "the rest. 6ND at 40% MFU for 15T tokens is about 130 days. At 8,000 GPUs failures are rare, so a "
                "checkpoint once a day and a manual restart are fine. Monitor MFU and loss.", WRONG),
    (LED, None, "This is a big project, so I'd bring in a strong team, set clear goals, follow best practices from "
                "Llama 3, use Megatron with TP, PP and DP, monitor everything, checkpoint often, and make sure "
                "memory and time are under control. MFU matters, so I'd profile a lot.", WRONG),
    (LED, None, "我先问 token 数和截止时间。显存：每参数 16 字节，6.4 TB，要几十张卡。并行：机内 TP 8，跨机 PP 16，剩下 DP。时间："
                "6ND 除以 8000 × 989 TFLOP/s × 90% MFU，大概两个月。容错：按 MTBF 做分片异步 checkpoint，自动重启。监控 MFU 和 "
                "loss spike。", WRONG),
    (LED, None, "Clarify tokens and deadline. Memory 16 bytes a param, 6.4 TB. FSDP everywhere across all 8000 GPUs, no "
                "TP or PP needed. Time: 6ND at 40% MFU, ~130 days for 15T. Sharded async checkpoints from the MTBF, "
                "auto restart. Monitor MFU, loss and stragglers.", WRONG),
    (LED, None, "First: how many tokens, what deadline, what sequence length? Memory: 16 bytes per parameter, 6.4 TB, "
                "dozens of GPUs. TP 8 in node, PP 16 across nodes, DP the rest. Time: 2ND FLOPs for training at 40% MFU, "
                "about 45 days for 15T tokens. Sharded async checkpoints from the MTBF, automatic restart. Monitor MFU, "
                "loss spikes, per-rank step time.", WRONG),
    (LED, None, "Q's first: tokens (~15T?), deadline, seq len, IB? Mem: ~16 B/param → 6.4 TB + acts → dozens of GPUs per "
                "replica. Layout: TP8 in-node NVLink, PP16 across nodes, DP ≈ 62 w/ distributed optimizer (cf. Llama 3 "
                "405B). Time: 6·N·D ≈ 3.6e25 FLOPs at 40% MFU on 8k GPUs ≈ 130 days vs deadline. Reliability: failures "
                "every few hrs → sharded async ckpt from MTBF, auto restart. Monitor: MFU, loss/grad-norm spikes, "
                "per-rank step time.", RIGHT),
    (LED, None, "我会先问清楚：要训多少 token、什么时候要、序列多长、网络是什么。显存：model state 每参数大概 16 字节，400B 就是 "
                "6.4 TB，再加 activation，一份模型要几十张卡。并行：机内 TP 8 走 NVLink，跨机 PP 16，剩下的做 DP，用 "
                "distributed optimizer。时间：6ND，15T token 大约 3.6e25 FLOPs，除以 8000 张 × 989 TFLOP/s × 40% MFU，约 130 "
                "天，跟 deadline 对一下。可靠性：这个规模几个小时就坏一次，按 MTBF 定间隔做分片异步 checkpoint，自动重启。"
                "监控：MFU、loss 和 grad norm 尖峰、每个 rank 的 step time 抓 straggler。", RIGHT),
    (LED, None, "Before anything I'd want to know the token budget, the deadline and the sequence length, because they "
                "drive everything else. Then memory: weights, grads and Adam state are around sixteen bytes a parameter, "
                "so for four hundred billion that's six and a half terabytes before activations, which means a single "
                "copy is spread over dozens of GPUs. So the layout is tensor parallel eight inside each NVLink node, "
                "pipeline parallel across nodes, sixteen stages or so, and data parallel over whatever's left with the "
                "distributed optimizer, which is basically what Llama 3 did. For time, six N D: at fifteen trillion "
                "tokens and forty percent MFU that's something like a hundred and thirty days, and I'd check that "
                "against the deadline. At this scale a GPU fails every few hours, so asynchronous sharded checkpoints "
                "at an interval set from the MTBF, with automatic restart. And I'd monitor MFU, loss and grad-norm "
                "spikes, and per-rank step times to catch stragglers.", RIGHT),
    (LED, None, "1. clarify: tokens, deadline, seq length\n2. memory: 16 bytes/param × 400B = 6.4 TB + activations → "
                "dozens of GPUs\n3. layout: TP 8 in node, PP 16 across nodes, DP rest + distributed optimizer\n4. time: "
                "6ND / (8,000 × 989 TFLOP/s × 40% MFU) ≈ 130 days for 15T tokens, vs the deadline\n5. reliability: "
                "failure every few hours → sharded async checkpoints at an MTBF interval, auto-restart\n6. monitoring: "
                "MFU, loss & grad-norm spikes, per-rank step time", RIGHT),
    # pitch-recipe
    (PITCH, None, "Memory first, then TP, PP and DP, and make it fast.", WRONG),
    (PITCH, None, "Memory first: 16 bytes a parameter. TP across nodes, PP inside the node, DP with the distributed "
                  "optimizer. Overlap comms, FP8, 40% MFU. Slow: profile into data, comms, compute, stragglers. Hung: "
                  "find the rank not in the same collective.", WRONG),
    (PITCH, None, "Memory first: 16 bytes a parameter plus activations. TP 8 in the node, PP across nodes, DP the rest "
                  "with the distributed optimizer. Overlap, FP8, and aim for 90% MFU. If it hangs, find the rank not in "
                  "the same collective.", WRONG),
    (PITCH, None, "Memory first, 16 bytes per param. TP in node, PP across, DP the rest with ZeRO-1. Overlap, FP8, 40% "
                  "MFU. If it's slow, add more GPUs. If it hangs, raise the NCCL timeout.", WRONG),
    (PITCH, None, "I'd say it's all about best practices: pick a good framework like Megatron, use TP, PP and DP "
                  "sensibly, overlap where you can, use FP8, monitor MFU and everything else, and debug carefully "
                  "when things go wrong. Memory matters too.", WRONG),
    (PITCH, None, "先算显存，每参数 2 字节。TP 放在机内，PP 跨机，剩下 DP 加 distributed optimizer。overlap 通信，FP8，40% MFU。"
                  "慢了就 profile 分四类；hang 了找没进同一个 collective 的 rank。", WRONG),
    (PITCH, None, "Memory first: 16 bytes a parameter plus activations tells you how many GPUs per copy. TP inside the "
                  "node, at most eight, over NVLink. PP across nodes with m ≥ 4p, interleaved. CP for long sequences, "
                  "EP for MoE. Everything else is DP with the distributed optimizer.", WRONG),
    (PITCH, None, "Memory first, 16 bytes a param. TP in the node, PP across nodes with one micro-batch per stage, DP "
                  "the rest with the distributed optimizer. Overlap, FP8, 40% MFU. If hung, find the missing rank.",
     WRONG),
    (PITCH, None, "I don't start from memory; I start from the largest DP you can get, then FSDP over everything, no "
                  "TP or PP. Overlap, FP8, 40% MFU. Slow: profile. Hung: find the absent rank.", WRONG),
    (PITCH, None, "Memory first: 16 bytes per parameter. TP in the node, PP across nodes, DP the rest with the "
                  "distributed optimizer. Don't bother overlapping communication, it's not worth the complexity. FP8, "
                  "40% MFU.", WRONG),
    (PITCH, None, "Memory first: 16 B/param + acts → GPUs per copy. TP ≤ 8 in node, PP across nodes (m ≥ 4p, "
                  "interleaved), CP/EP only if needed, DP rest + distributed optimizer. Overlap, FP8, ~40% MFU. Slow → "
                  "profile into input/comms/compute/stragglers. Hang → find the rank missing from the collective.",
     RIGHT),
    (PITCH, None, "先算显存：每参数 16 字节加 activation，知道一份模型要几张卡。TP 放机内最多 8，PP 跨机、m ≥ 4p、interleaved，长"
                  "序列加 CP，MoE 加 EP，剩下是 DP 配 distributed optimizer。通信要 overlap，GEMM 用 FP8，目标 40% MFU。慢了先 "
                  "profile，分成数据、通信、计算、straggler 四类；hang 了就找那个没进同一个 collective 的 rank。", RIGHT),
    (PITCH, None, "So, memory comes first, sixteen bytes a parameter plus activations, that tells me how many GPUs hold "
                  "one copy. Tensor parallel inside the node, eight max. Pipeline across nodes, four micro-batches per "
                  "stage or more. Data parallel for the rest, distributed optimizer. Overlap comms, FP8, around forty "
                  "percent MFU. Slow, I profile and sort the time; hung, I find the rank that's not in the collective.",
     RIGHT),
    (PITCH, None, "Start with memory, about 16 bytes a parameter. TP within a node (≤8), PP between nodes, DP over the "
                  "rest with sharded optimizer state. Hide communication under compute, FP8 matmuls, target ~40% MFU. "
                  "If slow: profile into data, comms, compute, stragglers. If hung: the rank not in the same "
                  "collective.", RIGHT),
    # behavioural-hang-story
    (STORY, None, "We had a job hang once with an NCCL timeout. I looked into it and found it was a bug, and we fixed "
                  "it.", WRONG),
    (STORY, None, "On a 128-GPU pre-training run, the job froze at step 20,000 with an NCCL watchdog timeout. I raised "
                  "the timeout to two hours and restarted, and it got past it, so we moved on.", WRONG),
    (STORY, None, "A 64-GPU fine-tune hung at the end of the first epoch. I dumped every rank's stack with py-spy and "
                  "saw rank 3 in a barrier while the others were in the all-reduce. We never really found out why; it "
                  "went away after a restart.", WRONG),
    (STORY, None, "At my last job a 256-GPU run hit an NCCL timeout at step 41,000. I dumped the stacks with py-spy "
                  "and rank 0 was in an all_gather inside the checkpoint code under if rank == 0, while the others were "
                  "in the all-reduce.", WRONG),
    (STORY, None, "Hangs are usually about collectives. My approach is to be systematic: gather stacks, read NCCL logs, "
                  "use the flight recorder, communicate with the team, and apply best practices so it doesn't happen "
                  "again. It was a great learning experience about ownership.", WRONG),
    (STORY, None, "有一次 512 卡的训练在第 8000 步 NCCL timeout。我用 py-spy 看了每个 rank 的栈，发现大家都在 all-reduce 里。"
                  "最后发现是 timeout 设得太短了，调到 3 小时就好了。", WRONG),
    (STORY, None, "I would dump every rank's stack with py-spy, compare them, look for the rank in a different "
                  "collective, turn on the flight recorder, and fix the code; then add a test.", WRONG),
    (STORY, None, "A 1024-GPU run hung at step 3,000 every time. I compared py-spy stacks across ranks and found rank 17 "
                  "had died of an OOM on a long batch; the others waited in the all-reduce. I just restarted the job "
                  "with a retry loop and it kept going.", WRONG),
    (STORY, None, "We had a 32-node job where training hung at random steps. I didn't debug it myself, the infra team "
                  "swapped some nodes and it went away. Afterwards we added an alert on NCCL timeouts.", WRONG),
    (STORY, None, "有一个 64 卡的 SFT，每个 epoch 结束都 hang。我 py-spy 了每个 rank，rank 5 在 evaluate 的 barrier，其他在 "
                  "all-reduce。原因我也不太确定，可能是网络抖动。后来加了重试。", WRONG),
    (STORY, None, "256 GPUs, froze at step 41k, watchdog timeout twice in a week. py-spy on all ranks: 255 in the grad "
                  "all-reduce, rank 0 in an all_gather in the ckpt code under if rank == 0. Fixed by moving the gather "
                  "out, same day; lost ~14 h of cluster. After: dump-on-timeout on by default + a 2-rank test of the "
                  "save path.", RIGHT),
    (STORY, None, "去年我们一个 128 卡的 SFT 每次都在第一个 epoch 最后一步 hang，十分钟后 NCCL timeout。我用 py-spy 把每个 rank "
                  "的栈都 dump 下来对比：rank 3 在 evaluate 的 barrier 里，其他 7... 其他 127 个在 gradient all-reduce。原因是"
                  "手写的 sampler 不 pad 也不 drop_last，rank 3 少一个 batch。换成 DistributedSampler 加 drop_last 当天就好了，"
                  "前后浪费了大概两天。之后我们默认打开 flight recorder 的 dump on timeout，还加了一个不均匀数据的单测。",
     RIGHT),
    (STORY, None, "So this was a 34B run on 64 GPUs with long packed sequences, and it kept stalling at the exact same "
                  "step, 3072, every restart. I went through every rank with py-spy and one of them, rank 5, just wasn't "
                  "there: its log ended in a CUDA out of memory on a batch with a 32K sequence, and the other ranks were "
                  "sitting in the all-reduce because srun doesn't kill the job when one rank dies. We capped the packed "
                  "length and moved to torchrun, and the run went past 3072 that evening; we'd lost about a day and a "
                  "half. After that we made every rank's logs land in one place and added an alert on any rank "
                  "exiting.", RIGHT),
    (STORY, None, "- situation: 512-GPU pretrain, NCCL timeout at step 12,000, twice\n- action: py-spy every rank, "
                  "flight recorder dump, narrowed it to rank 300 being one collective behind\n- cause: an all_gather "
                  "in the eval hook called only on rank 0's branch\n- result: moved it out, job ran on the same day, "
                  "~8 hours lost\n- after: dump_on_timeout on by default, a CI test of the eval hook on 2 ranks",
     RIGHT),
    # second batch: more of the same kinds, per stage
    (CKPT, "why", "Only rank 0 calls the all_gather under if rank == 0 and the other ranks are in the all-reduce, so they "
                  "wait for each other. It's step 1200 because that's where the loss spikes.", WRONG),
    (CKPT, "why", "It's not that only rank 0 calls the gather; all ranks call it, rank 0 just arrives at it last. Step "
                  "1200 is the checkpoint step.", WRONG),
    (CKPT, "why", "rank 0 只在 save_checkpoint 里调用 all_gather，其他 rank 进了下一步的 all-reduce，互相等。1200 步是因为 "
                  "dataloader 在这一步换了 epoch。", WRONG),
    (CKPT, "why", "Because rank 0 is the master it has to write the file, and all_gather is blocking, so rank 0 is slow "
                  "and the rest give up at step 1200.", WRONG),
    (CKPT, "why", "Only rank 0 calls the gather (if rank == 0), ranks 1–7 never call it and sit in the next all-reduce "
                  "— each waits on the other. It's the checkpoint step, every 1200.", RIGHT),
    (CKPT, "fix", "Make every rank call the gather. And to make it show up faster, raise the timeout so the watchdog "
                  "doesn't fire on big checkpoints.", WRONG),
    (CKPT, "fix", "Move the all_gather out of the if so every rank calls it. Next time we'll catch it in code review.",
     WRONG),
    (CKPT, "fix", "Use rank 1 to save the checkpoint instead of rank 0, and turn on the flight recorder.", WRONG),
    (CKPT, "fix", "我不认为需要改 gather 的位置；把 checkpoint 改成异步保存就不会卡了，再开 flight recorder。", WRONG),
    (CKPT, "fix", "Every rank calls the all_gather, only rank 0 writes. Faster next time: TORCH_DISTRIBUTED_DEBUG=DETAIL "
                  "flags mismatched collectives.", RIGHT),
    (OOM, "why", "Rank 5 died of OOM on the 32K batch; the other seven wait in the all-reduce. It happens at 3072 "
                 "because the learning rate warmup ends there.", WRONG),
    (OOM, "why", "Rank 5 isn't dead, it is just slow computing the 32K-token batch, so the others wait in the "
                 "all-reduce.", WRONG),
    (OOM, "why", "All eight ranks ran out of memory at step 3072 on the 32K batch, and srun left them hanging.", WRONG),
    (OOM, "why", "rank 5 OOM 退出了，3072 那个 batch 有 32K 的序列。其他 rank 没人停，所以 hang。", WRONG),
    (OOM, "why", "Rank 5 OOM'd on the 32K-token batch and exited (activations scale with seq len). srun has no agent, "
                 "so the other 7 block in the all-reduce until the NCCL timeout. Same order, same batch, same step.",
     RIGHT),
    (OOM, "fix", "Lower the learning rate so step 3072 doesn't spike memory, and use torchrun.", WRONG),
    (OOM, "fix", "不用改数据，给 rank 5 换一张显存更大的卡，再用 torchrun 启动。", WRONG),
    (OOM, "fix", "Just restart the job from the last checkpoint with a different seed so the batch lands elsewhere.",
     WRONG),
    (OOM, "fix", "Bucket by length so the 32K batch fits, torchrun so one dead rank stops every worker, short timeout, "
                 "and read every rank's log.", RIGHT),
    (UNEVEN, "why", "Rank 3's shard has one batch fewer, so it leaves the loop early; it then hangs because the "
                    "evaluate() barrier has a shorter timeout than the all-reduce.", WRONG),
    (UNEVEN, "why", "Rank 3 has one batch fewer, so it's in evaluate's barrier, and that's fine, a barrier and an "
                    "all-reduce match each other; the hang is somewhere else.", WRONG),
    (UNEVEN, "why", "我不认为是 rank 3 少了 batch，各个 rank 的数据一样多；应该是 evaluate 太慢。", WRONG),
    (UNEVEN, "why", "The ranks disagree on the number of steps at the end of the epoch, that's all I can say.", WRONG),
    (UNEVEN, "why", "rank 3 runs out of batches one step before the others (sampler has no padding/drop_last), goes to "
                    "evaluate()'s barrier; the rest are blocked in the grad all-reduce. Barrier vs all-reduce: stuck.",
     RIGHT),
    (UNEVEN, "fix", "Use drop_last=True only in the evaluation DataLoader.", WRONG),
    (UNEVEN, "fix", "Add a dist.barrier() at the start of every training step so the ranks stay in lockstep.", WRONG),
    (UNEVEN, "fix", "把 rank 3 的 batch size 调小，让它多出一个 batch。", WRONG),
    (UNEVEN, "fix", "It's not the sampler; the fix is to evaluate only on rank 0, so the other ranks skip the barrier.",
     WRONG),
    (UNEVEN, "fix", "Make all ranks agree on the number of steps up front (all-reduce the min batch count), or use "
                    "DDP's Join.", RIGHT),
    (DATA, "next", "Confirm with synthetic data, then add more GPUs to the data loading. I'll know it worked when "
                   "nvidia-smi shows 100%.", WRONG),
    (DATA, "next", "Add more DataLoader workers and re-measure MFU. The 41% idle is NCCL waiting for the slowest rank.",
     WRONG),
    (DATA, "next", "It's not the input pipeline, the workers are at 100% CPU because the GPU is slow; I'd move to FP8 "
                   "and measure MFU again.", WRONG),
    (DATA, "next", "多开 DataLoader worker，然后看 nvidia-smi 的 utilization 有没有到 100%。", WRONG),
    (DATA, "next", "Pre-tokenize offline, raise num_workers, prefetch; done when the 41% idle before forward is near "
                   "zero and tokens/s go up.", RIGHT),
    (EXPOSED, "next", "Turn on --overlap-grad-reduce and --overlap-param-gather, and I'll know it worked when "
                      "nccl-tests shows higher bus bandwidth.", WRONG),
    (EXPOSED, "next", "Increase TP from 8 to 16 to cut the DP traffic, then measure MFU again.", WRONG),
    (EXPOSED, "next", "我不认为是 overlap 的问题，nccl-tests 已经满带宽了，所以应该是 PP bubble，增加 micro-batch 数再测。", WRONG),
    (EXPOSED, "next", "Set NCCL_ALGO=Tree and NCCL_MIN_NCHANNELS=32 to speed up the reduce-scatter, then re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "Overlap is off: add --overlap-grad-reduce --overlap-param-gather. Success = the 27% exposed NCCL "
                      "mostly gone in a new trace, MFU higher.", RIGHT),
    (LAUNCH, "next", "Turn on CUDA Graphs, and I'll know it worked when nvidia-smi shows 100% utilization.", WRONG),
    (LAUNCH, "next", "The GEMMs are memory-bound; use FP8 and a fused optimizer, then measure MFU again.", WRONG),
    (LAUNCH, "next", "我不认为是 launch 的问题，应该是 NCCL 的 5%，开 overlap 再测 MFU。", WRONG),
    (LAUNCH, "next", "Add more DataLoader workers and pin_memory, then re-measure MFU.", WRONG),
    (LAUNCH, "next", "torch.compile + CUDA graphs to kill the launch overhead, micro-batch up to 4, drop the per-step "
                     ".item(); MFU measured again after each.", RIGHT),
    (STRAG, "next", "Replace rank 213's node, then I'll know it worked when rank 213's compute share drops below 69%.",
     WRONG),
    (STRAG, "next", "It's the network on rank 213's node: replace the NIC and the cables, then measure MFU again.",
     WRONG),
    (STRAG, "next", "我不认为是 rank 213 的问题，所有 rank 都在等 reduce-scatter，说明是网络拥塞；调 NCCL 参数再测。", WRONG),
    (STRAG, "next", "Give rank 213 fewer layers in the pipeline so it keeps up, and measure MFU again.", WRONG),
    (STRAG, "next", "Drain 213's node, restart from checkpoint on a healthy one; check that the 24% reduce-scatter wait "
                    "on the other ranks drops and MFU goes back up.", RIGHT),
    (LED, None, "Memory: 16 bytes a parameter, 6.4 TB, dozens of GPUs. TP 8 in the node, PP 16, DP the rest. Time: 6ND "
                "at 40% MFU, about 130 days. Sharded async checkpoints from the MTBF, auto restart. Monitor MFU, loss, "
                "step time.", WRONG),
    (LED, None, "我先问 token 数和 deadline。显存每参数 16 字节，6.4 TB。TP 8 跨机，PP 8 在机内，剩下 DP。6ND 在 40% MFU 下"
                "约 130 天。按 MTBF 做分片异步 checkpoint，自动重启。监控 MFU 和 loss。", WRONG),
    (LED, None, "Ask tokens and deadline. 16 bytes a param, 6.4 TB. TP 8 in node, PP 16, DP the rest. 6ND at 40% MFU, "
                "~130 days. At this scale failures happen every few hours, so checkpoint every 12 hours, by hand. "
                "Monitor MFU and loss spikes.", WRONG),
    (LED, None, "First I'd ask the token budget and deadline. State is 16 bytes a param, 6.4 TB, so dozens of GPUs "
                "per copy. TP 8 in each node, PP 16 across nodes, DP over the rest with the distributed optimizer. "
                "6ND at 40% MFU on 8,000 H100s is about 130 days for 15T tokens, set against the deadline. Failures "
                "every few hours: sharded async checkpoints at an MTBF interval, automatic restart. Monitor MFU, loss "
                "spikes, per-rank step time.", RIGHT),
    (PITCH, None, "Memory first, 16 bytes a param. TP inside the node, PP across nodes, DP the rest with the "
                  "distributed optimizer. Overlap, FP8, 40% MFU. If it hangs, just restart from the checkpoint.",
     WRONG),
    (PITCH, None, "Memory first: 4 bytes a parameter. TP inside the node, PP across nodes, DP the rest with the "
                  "distributed optimizer. Overlap, FP8, 40% MFU.", WRONG),
    (PITCH, None, "TP in the node up to 16 GPUs, PP across nodes, DP the rest with ZeRO-1. Memory first, 16 bytes a "
                  "param. Overlap, FP8, 40% MFU.", WRONG),
    (PITCH, None, "我不会先算显存，直接把能开的 DP 开到最大，再看 OOM 调 TP。overlap、FP8、40% MFU。", WRONG),
    (PITCH, None, "Memory first: 16 bytes a param, plus activations. TP ≤ 8 on NVLink, PP across nodes, rest DP with "
                  "ZeRO-1. Overlap comms, FP8, ~40% MFU. Slow: profile, bucket the time. Hung: find the rank that "
                  "isn't in the collective.", RIGHT),
    (STORY, None, "A 512-GPU job hung at step 9,000. I dumped every rank with py-spy and found rank 12 never reached "
                  "the barrier. We raised the NCCL timeout to three hours and it ran again.", WRONG),
    (STORY, None, "A 256-GPU run froze at step 41k with a watchdog timeout. Everybody said NCCL is flaky, so we set "
                  "NCCL_P2P_DISABLE=1 and it ran again, we lost about 10 hours. Afterwards we added an alert.", WRONG),
    (STORY, None, "I haven't had a hang myself, but if one happened I'd dump every rank with py-spy, find the rank in "
                  "the wrong collective, fix it and add a test.", WRONG),
    (STORY, None, "有一次 128 卡训练在 5000 步 hang 了。我看了 rank 0 的日志，没发现什么，就换了一批机器，跑起来了，之后加了监控。",
     WRONG),
    (STORY, None, "128-GPU SFT, hung at the last step of epoch 1, NCCL timeout. py-spy on each rank: rank 7 in "
                  "evaluate's barrier, the rest in the all-reduce; its shard had one batch fewer (no drop_last). "
                  "DistributedSampler with drop_last fixed it in an hour, lost ~6 h. Then we added a test that "
                  "asserts equal batches per rank.", RIGHT),
    # third batch: a sixth right answer per stage, and a few more wrong ones
    (OOM, "fix", "Turn on expandable segments and empty the CUDA cache every step so rank 5 survives the long batch.",
     WRONG),
    (UNEVEN, "why", "Rank 3 leaves the loop early and waits in the barrier. It's the NCCL version, a known bug with "
                    "barriers.", WRONG),
    (LED, None, "Ask tokens/deadline first. Memory 16 B/param → 6.4 TB. TP 8 in node, PP 16, DP rest. Time 6ND @ 40% "
                "MFU ≈ 130 days. Failures every few hours → sharded async checkpoints from MTBF, auto-restart. "
                "Monitoring isn't needed at first, we add it later.", WRONG),
    (CKPT, "fix", "修复：gather 挪出 if rank == 0，每个 rank 都调用，rank 0 只负责写文件。以后：timeout 设成五分钟，打开 flight "
                  "recorder 超时自动 dump，很快就能看到谁卡在哪。", RIGHT),
    (OOM, "why", "Rank five OOM'd and exited — its log ends in CUDA out of memory on step three thousand seventy-two's "
                 "batch, which has a thirty-two-K sequence; activations grow with sequence length. Under srun no "
                 "agent ends the job, so the other seven block in the all-reduce until the timeout. Fixed data order, "
                 "same batch, same step.", RIGHT),
    (OOM, "fix", "1) cap the packed length (or bucket), recompute for the 32K tail; 2) torchrun, or srun "
                 "--kill-on-bad-exit=1, with a short timeout, so one dead rank ends the job; 3) collect every rank's "
                 "log.", RIGHT),
    (UNEVEN, "fix", "Same number of steps on every rank: drop the hand-written sampler for DistributedSampler(drop_last"
                    "=True), or pad every shard to the longest. Next time TORCH_DISTRIBUTED_DEBUG=DETAIL names the "
                    "mismatch.", RIGHT),
    (DATA, "next", "Input-bound (41% idle waiting on __next__, NCCL only 4%). Prove it with synthetic data, then "
                   "tokenize/pack offline and add workers. Success = the pre-forward idle near zero, throughput up "
                   "from 247K tokens/s.", RIGHT),
    (EXPOSED, "next", "先确认：网络没问题，nccl-tests 满带宽，问题是没开 overlap。打开 --overlap-grad-reduce 和 "
                      "--overlap-param-gather，bucket size 调一调。验证：新 trace 里 NCCL kernel 跟 backward 重叠，MFU 上去。",
     RIGHT),
    (LAUNCH, "next", "Launch-bound, so: (1) CUDA Graphs for the step, (2) torch.compile to fuse the small kernels, "
                     "(3) micro-batch from 1 to 8, (4) loss.item() only every 100 steps. Then measure MFU again; the "
                     "31% of gaps should shrink.", RIGHT),
    (STRAG, "next", "Confirm with per-rank step times that only rank 213's node is slow, check its clocks and Xid "
                    "errors, swap it out for a spare, and resume from the checkpoint. Then measure MFU again: "
                    "throughput should go back up to last week's.", RIGHT),
    (LED, None, "先问清楚 token 数、deadline、sequence length 和互联。显存：16 字节/参数 × 400B ≈ 6.4 TB，加上 activation，"
                "一份模型要几十张卡。并行：TP 8 机内，PP 16 跨机，剩余做 DP（distributed optimizer），参考 Llama 3 405B。"
                "时间：6ND ≈ 3.6e25 FLOPs，8000 张卡、40% MFU 大约 130 天，和 deadline 对。可靠性：几个小时坏一次，按 MTBF "
                "做分片异步 checkpoint，自动重启。监控 MFU、loss 和 grad norm 尖峰、每个 rank 的 step time。", RIGHT),
    (PITCH, None, "First memory: sixteen bytes a parameter and activations, that's how many GPUs one copy takes. Then "
                  "TP in the node, eight at most; PP across nodes, four micro-batches a stage or more; DP the rest, "
                  "distributed optimizer. Overlap, FP8, forty percent MFU. If it hangs, find the rank missing from "
                  "the collective.", RIGHT),
    (STORY, None, "Situation: 96 GPUs, 13B pretrain, hung at step 7,300 twice, NCCL timeout after 10 minutes. "
                  "Action: py-spy dump on all 96 ranks, flight recorder traces compared; one rank one collective "
                  "behind. Cause: a gather in the logging hook ran only on rank 0. Result: moved it out, fixed in two "
                  "hours, about 20 hours lost overall. Changed: dump-on-timeout on by default, a 2-rank test of the "
                  "hook.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round3_wrong_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
