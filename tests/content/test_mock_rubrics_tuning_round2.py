"""Mock stages after the seventh labelled batch's tuning misses (interview/hangs.yaml, followups.yaml,
followups-tradeoffs.yaml, debug.yaml, behavioural.yaml); each fix with the answer that showed it and
answers written for this file, the cheats among them:

- hang-oom-dead-rank/why: "the watchdog restarts the job from the same checkpoint" is not why the step
  repeats, and "the others are retrying the all-reduce" is not what the survivors do (contradictions);
  "same step" and "timeout" alone no longer credit a point; "rank 5: process gone" is the dead rank.
- hang-checkpoint-rank0: "save_checkpoint is only called on rank 0" and "call the gathering part on all
  8 ranks" are the points, said another way; TORCH_DISTRIBUTED_DEBUG=DETAIL named in a list is not its
  use ("run once with it", "in that test: the checks fail" are).
- hang-uneven-batches/fix: the same number of steps is the goal, and the question asks how (the sampler's
  padding or drop_last, or a count agreed across ranks); drop_last on each rank's DataLoader is a wrong
  fix, named.
- followup-moving-hang: "a code bug would repeat on schedule" is the inference; "it still points at the
  code at a fixed step" contradicts it.
- followup-raise-timeout: "torchfrtrace shows which rank never joined" says nothing of why a longer
  timeout does not help.
- debug-launch-bound/next and followup-why-not-fsdp: what the step asks (how you will know it worked;
  what FSDP costs on the wire) is required.
- debug-straggler/next, followup-why-not-bigger-tp, debug-exposed-communication/next, the hang story:
  strong answers in other words ("take that node out", "onto InfiniBand at 50 GB/s", "I add both
  flags", "用torchfrtrace对比三次的dump", "写进了值班手册").
- led-dense-400b: the scope said out loud as an assumption ("Assuming ~10T tokens at 8K: …") names the
  settings the questions would ask; "just assume" names none.

Each case: (scenario id, step id, answer, right).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade



RIGHT, WRONG = True, False
OOM, RANK0, UNEVEN = "hang-oom-dead-rank", "hang-checkpoint-rank0", "hang-uneven-batches"
MOVING, TIMEOUT, FSDP, TP = "followup-moving-hang", "followup-raise-timeout", "followup-why-not-fsdp", "followup-why-not-bigger-tp"
LAUNCH, STRAGGLER, EXPOSED, STORY = "debug-launch-bound", "debug-straggler", "debug-exposed-communication", "behavioural-hang-story"
LED = "led-dense-400b"

CASES = [
    # labelled (tuning)
    (OOM, "why", "- ranks 0–4, 6, 7: in backward (train_step, train.py:142) = DDP gradient all-reduce, waiting "
     "(TORCH_NCCL_BLOCKING_WAIT=1).\n- rank 5: process gone (\"No such process\"); its log: step 3072, 4 packed sequences, "
     "longest 32,768 tokens, OOM asking for 12.00 GiB with 9.31 GiB free of 79.10 GiB, exit code 1.\n- Nothing tears the "
     "job down: srun without a torchrun agent leaves the survivors blocked until the NCCL watchdog fires.\n- Same step "
     "each run: fixed data order, so the same long batch lands on rank 5 at step 3072; the memory peak is data-driven.\n"
     "- Not hardware or network: a deterministic step and an explicit OOM in the log.", RIGHT),
    (OOM, "why", "The seven surviving ranks hang because their NCCL timeout is longer than the job's progress monitor; "
     "rank 5 crashed once with an OOM, and the others are retrying the all-reduce. It's the same step each time because "
     "the NCCL watchdog restarts the job from the same checkpoint.", WRONG),
    # written here
    (OOM, "why", "Rank 5 hit a CUDA OOM on the batch with the 32K-token sequence and its process exited; under srun "
     "nothing tears the job down, so the other seven wait in the all-reduce until the timeout. The data order is fixed, "
     "so that batch lands on rank 5 at step 3072 every run.", RIGHT),
    (OOM, "why", "rank 5 OOM 退出了，其他 rank 一直在重试 all-reduce；每次同一步是因为任务从同一个 checkpoint 重启。", WRONG),
    (OOM, "why", "It's the same step each time and the timeout fires; rank 5 died.", WRONG),
    (OOM, "why", "Rank 5 OOMed and its process is gone; nobody is watching under srun, so the other seven block in the "
     "all-reduce until the watchdog fires. Deterministic because the data order is fixed.", RIGHT),
    # labelled (tuning)
    (RANK0, "why", "It's not a slow disk or a bad GPU: a slow write would show rank 0 in file I/O, not in all_gather, "
     "and a hardware fault wouldn't hit the same step on every run. The dumps show rank 0 in all_gather inside "
     "gather_full_state under save_checkpoint, and ranks 1–7 already in backward of the next step, waiting in DDP's "
     "gradient all-reduce. save_checkpoint is only called on rank 0, but it gathers the full state with a collective, "
     "so rank 0 waits for seven ranks that never come and they wait for rank 0. Step 1200 is simply when the first "
     "checkpoint is due.", RIGHT),
    (RANK0, "fix", "- Fix: call the gathering part of save_checkpoint on all 8 ranks (the all_gather must be "
     "collective), write the file only on rank 0.\n- Simpler for DDP: params are identical on every rank, so rank 0 "
     "can save model.state_dict() with no collective at all.\n- Faster next time: a CI/smoke test that checkpoints at "
     "step 2 (save_every=2) so the save path runs in seconds, not at step 1200.\n- TORCH_DISTRIBUTED_DEBUG=DETAIL in "
     "that test: per-collective consistency checks fail immediately on mismatched ops.\n- In production: flight "
     "recorder on (TORCH_NCCL_TRACE_BUFFER_SIZE=2000, TORCH_NCCL_DUMP_ON_TIMEOUT=1) and a shorter timeout for this "
     "one-node job, so the dump names the missing ranks within a minute or two.\n- Review rule: no collective inside a "
     "rank-conditional branch.", RIGHT),
    # written here
    (RANK0, "why", "The gather is only called on rank 0 inside save_checkpoint, so rank 0 waits in all_gather for "
     "ranks that are already in the next step's all-reduce; step 1200 is the first save.", RIGHT),
    (RANK0, "fix", "Run the gather on all eight ranks and keep only the file write on rank 0; next time a save_every=2 "
     "smoke test with TORCH_DISTRIBUTED_DEBUG=DETAIL catches it in seconds.", RIGHT),
    (RANK0, "fix", "Move the all_gather out of the if so every rank calls it, only rank 0 writes. Next time: "
     "TORCH_DISTRIBUTED_DEBUG=DETAIL in a smoke test that saves at step 2.", RIGHT),
    (RANK0, "fix", "让所有 rank 都调用 gather，只有 rank 0 写文件；下次用 TORCH_DISTRIBUTED_DEBUG=DETAIL 跑一次，再提前存一次 checkpoint 验证。",
     RIGHT),
    # labelled (tuning): the debug flag named in a run of terms is not its use
    (RANK0, "fix", "all ranks call gather_full_state, only rank 0 writes, no collective under if rank == 0, DDP "
     "state_dict, save_every=2 smoke test, TORCH_DISTRIBUTED_DEBUG=DETAIL, flight recorder, timeout 60 s.", WRONG),
    # written here
    (RANK0, "fix", "Every rank calls the gather, only rank 0 writes; TORCH_DISTRIBUTED_DEBUG, detail.", WRONG),
    # labelled (tuning)
    (UNEVEN, "fix", "The eight ranks have to run exactly the same number of training steps in the epoch; as long as "
     "rank 3 runs out one batch early, it reaches evaluate while the others still wait for it in the all-reduce, so the "
     "sampler has to change.", WRONG),
    (UNEVEN, "fix", "For this dataset I'd give rank 3 the missing batch by repeating a few of its samples, so it runs "
     "the same number of steps as ranks 0–2 and 4–7 and reaches the last all-reduce with them.", WRONG),
    (UNEVEN, "fix", "Set drop_last=True on each rank's DataLoader; the last partial batch is dropped on every rank, so "
     "all ranks end the epoch on a full batch and the final all-reduce has matching inputs.", WRONG),
    # written here
    (UNEVEN, "fix", "Use DataLoader(ds, sampler=DistributedSampler(ds, drop_last=True)) so every rank gets the same "
     "number of batches.", RIGHT),
    (UNEVEN, "fix", "Replace the sampler with DistributedSampler(drop_last=True) so every rank has the same number of "
     "batches, or wrap the loop in DDP's Join.", RIGHT),
    (UNEVEN, "fix", "换成 DistributedSampler，pad 到每个 rank 的 batch 数一样。", RIGHT),
    (UNEVEN, "fix", "每个 rank 的 DataLoader 设 drop_last=True，最后不满的 batch 丢掉就行。", WRONG),
    (UNEVEN, "fix", "Every rank must run the same number of steps.", WRONG),
    # labelled (tuning)
    (MOVING, None, "Re-reading the code at the step where it died, the way I would for a fixed-step hang, won't get "
     "far, because the step changes every run and a rank-dependent if or a bad batch would repeat on schedule. What "
     "changes is that I treat each hang as a sample: dump the flight recorder and py-spy on every occurrence, find the "
     "missing rank and its host, and look for a pattern. A repeating host sends me to Xid/ECC logs, NVLink/IB counters "
     "and a per-node nccl-tests or DCGM run, and I confirm by draining it; no pattern sends me to races such as "
     "side-thread collectives or unseeded per-rank branches.", RIGHT),
    (MOVING, None, "A hang that moves between steps does not change anything: it still points at the code at a fixed "
     "step rather than hardware, there is no need to record which rank or host is missing each time, and Xid logs, "
     "link counters or draining a node would tell us nothing.", WRONG),
    # written here
    (MOVING, None, "A code bug would repeat on schedule, at the same step every run; this one moves, so I map the "
     "missing rank to its node each time, run nccl-tests and check Xid on the common node, and drain it.", RIGHT),
    (MOVING, None, "还是代码的问题，只是每次 step 不一样；照样用 py-spy 找缺席的 rank，跑 nccl-tests。", WRONG),
    # labelled (tuning)
    (TIMEOUT, None, "I'd rather keep the timeout at the default and use it: with TORCH_NCCL_TRACE_BUFFER_SIZE=2000 and "
     "TORCH_NCCL_DUMP_ON_TIMEOUT=1 every rank writes its recent collectives when it fires, and torchfrtrace shows which "
     "rank never joined.", WRONG),
    (TIMEOUT, None, "I can see the appeal, the error goes away from the dashboard, but a hang from a rank that died or "
     "skipped a collective never finishes, so a 2-hour timeout just converts a 10-minute failure into a 2-hour one with "
     "the whole allocation idle. The timeout is the tool that tells us something is missing; I'd leave it, turn on the "
     "flight recorder dump on timeout and py-spy every rank, find which rank isn't in the collective and why, and fix "
     "that. Raising it is only right when we know the op is slow but finite, and then for that op.", RIGHT),
    # written here
    (TIMEOUT, None, "A bigger timeout doesn't fix anything: one rank is missing from the collective and will never "
     "arrive, so we'd just wait longer. Keep it short and dump the flight recorder on timeout.", RIGHT),
    (TIMEOUT, None, "Keep the default and turn on dump-on-timeout; the flight recorder shows the rank that is missing.",
     WRONG),
    (TIMEOUT, None, "No: raising it doesn't fix anything, it only hides the hang longer while every GPU idles. Keep the "
     "timeout short and dump the flight recorder when it fires.", RIGHT),
    # labelled (tuning)
    (LAUNCH, "next", "I'd wrap the model in torch.compile with mode=\"reduce-overhead\" so the step runs as CUDA Graphs "
     "and fused kernels, and increase the micro-batch from 1 to 8 so there are fewer launches per step.", WRONG),
    # written here
    (LAUNCH, "next", "用 CUDA Graphs 把整步 capture 下来，micro-batch 调大，去掉每步的 .item()，然后重新测 MFU。", RIGHT),
    (LAUNCH, "next", "Capture the step in CUDA Graphs and raise the micro-batch; success is MFU up and the gaps gone "
     "from the trace.", RIGHT),
    (LAUNCH, "next", "I'd use torch.compile and CUDA Graphs, and a bigger micro-batch.", WRONG),
    # labelled (tuning)
    (FSDP, None, "With pure FSDP you need at least one sequence per GPU, so on thousands of GPUs the global batch gets "
     "huge, well past the critical batch size; TP and PP let you use the same GPUs with a smaller DP degree.", WRONG),
    # written here
    (FSDP, None, "FSDP over all 8K GPUs leaves the global batch divided into too few tokens per GPU, and it all-gathers "
     "every layer's weights across nodes in forward and backward, about 1.5x DDP's traffic, which that little compute "
     "can't hide. TP and PP cut the DP degree.", RIGHT),
    (FSDP, None, "纯 FSDP 每张卡至少一条序列，global batch 会太大，超过 critical batch。", WRONG),
    # labelled (tuning)
    (STRAGGLER, "next", "Tuning NCCL or the fabric would be the wrong move: the reduce-scatter looks long on ranks 0 and "
     "212 only because they sit in it for 24% of the step waiting, while rank 213, which arrives last, spends just 1% "
     "there. Rank 213 needs 92% of the step for the same compute the others do in 69%, and its node's GPU clocks are "
     "low under load, so the node is throttling. I'd confirm the throttle reason with nvidia-smi/DCGM, take that node "
     "out and resume on a spare from the checkpoint, then check that all ranks' waits fall to ~1% and the step drops "
     "from 16 s to about 12 s.", RIGHT),
    # written here
    (STRAGGLER, "next", "Rank 213's node throttles; check the clocks with DCGM, move the job onto a spare node from the "
     "last checkpoint, and confirm every rank's wait drops to about 1% and the step to ~12 s.", RIGHT),
    # labelled (tuning)
    (TP, None, "An H100 node has 8 GPUs, so TP 16 puts TP's four per-layer collectives, which sit on the critical path, "
     "onto InfiniBand at ~50 GB/s per GPU instead of NVLink at ~450 GB/s, about 9× slower, and it also halves each GEMM "
     "again and no longer divides 8 KV heads. PP across nodes only sends one activation per stage boundary per "
     "micro-batch and its bubble is controlled by m ≥ 4p and interleaving, so keeping PP is much cheaper than crossing "
     "the node with TP.", RIGHT),
    # written here
    (TP, None, "PP goes onto InfiniBand anyway; TP 16 is fine.", WRONG),
    # labelled (tuning)
    (EXPOSED, "next", "Someone will want to open a ticket with the network team, but nccl-tests between two nodes "
     "already reaches the rated bus bandwidth, so the links aren't slow; the collectives are just exposed. The run has "
     "--use-distributed-optimizer without --overlap-grad-reduce or --overlap-param-gather, which leaves the "
     "reduce-scatter and all-gather as a 27% block after the last backward kernel. I add both flags, re-profile the "
     "same stage-0 rank, and expect that block to mostly disappear: ~3.5 s off a 13 s step, from 645K toward ~850K "
     "tokens/s, with identical loss.", RIGHT),
    # written here
    (EXPOSED, "next", "Both overlap flags are off, so I add both flags.", WRONG),
    # labelled (tuning)
    (STORY, None, "去年做一个34B的继续预训练，256张H100，跑到大约第4万步就报NCCL timeout，重启后换了个step又挂，所以我没先怀疑代码。"
     "我开了TORCH_NCCL_TRACE_BUFFER_SIZE=2000和TORCH_NCCL_DUMP_ON_TIMEOUT=1，用torchfrtrace对比三次的dump，每次缺席的rank都在同一台机器"
     "node-113上；dmesg里有Xid 79，nvidia-smi -q看到这张卡的NVLink有错误计数。把这台机器踢出、用备机从最近的checkpoint续训，之后三周没再"
     "hang，我们也把“每次hang先记录缺席rank所在的host”写进了值班手册。", RIGHT),
    (STORY, None, "- Situation: 13B SFT on 4 nodes / 32 A100s, froze at the end of epoch 1 on every run, then the "
     "10-minute NCCL watchdog killed it.\n- Action: py-spy dump on all 32 ranks; 31 were inside backward (DDP "
     "all-reduce), rank 19 was in a barrier inside evaluate().\n- Root cause: our custom sampler split 1,000,003 "
     "samples without padding, so rank 19 had one batch fewer and left the loop early.\n- Fix: switched to "
     "DistributedSampler with padding, plus an all_gather of len(loader) at epoch start that asserts every rank has the "
     "same count.\n- Result: epoch boundary passes; the assert caught a second dataset with the same problem a month "
     "later in seconds instead of 10 minutes.", RIGHT),
    # written here
    (STORY, None, "A 64-GPU job hung at step 300. We bumped the timeout to an hour and it never hung again for weeks.",
     WRONG),
    # labelled (tuning)
    (LED, None, "Assuming ~10T tokens at 8K: 400B × 16 B = 6.4 TB of state, so TP 8 in the node × PP 16 = 128 GPUs per "
     "replica (50 GB each), DP 64 on 8,192 GPUs with the distributed optimizer (~19 GB/GPU) plus SP and selective "
     "recompute, interleaved 1F1B to keep the bubble near 10%; 6ND = 2.4e25 FLOPs at 40% MFU is ~86 days (~1.35M "
     "tokens/s), with async sharded checkpoints every ~25 min, automatic node replacement and per-rank step-time, loss "
     "and grad-norm monitoring.", RIGHT),
    # written here
    (LED, None, "假设 10T token、8K 序列：400B × 16 B = 6.4 TB，TP 8 机内、PP 16，DP 64 用 distributed optimizer 到每卡约 19 GB；"
     "6ND = 2.4e25 FLOPs，40% MFU 约 86 天；异步分片 checkpoint，每 25 分钟一次，自动换节点重启，监控每个 rank 的 step time。", RIGHT),
    (LED, None, "Just assume whatever and go: 400B × 16 B = 6.4 TB, TP 8 × PP 16, DP 64, checkpoints, monitoring.", WRONG),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), CASES)
def test_mock_stages_are_graded_as_an_interviewer_would(qid, step, answer, right):
    verdict = grade(library().question(qid), answer, step)
    assert verdict.correct is right, (verdict.score, verdict.details["covered"], verdict.details.get("contradicted"))


@pytest.mark.parametrize(("qid", "step", "answer", "point"), [
    (OOM, "why", "Rank 5 ran out of memory; the NCCL watchdog restarts the job from the same checkpoint, so it is the "
     "same step.", "data-deterministic"),
    (OOM, "why", "Rank 5 OOMed and the other ranks keep retrying the all-reduce.", "oom"),
    (UNEVEN, "fix", "Set drop_last=True on each rank's DataLoader.", "same-steps"),
    (MOVING, None, "It still points at the code, just at a different step.", "hardware-network"),
])
def test_the_wrong_claim_is_named(qid, step, answer, point):
    verdict = grade(library().question(qid), answer, step)
    assert not verdict.correct and point in verdict.details["contradicted"], verdict.details
