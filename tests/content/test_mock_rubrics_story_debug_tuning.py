"""The behavioural hang story and two debug stages (interview/behavioural.yaml, interview/debug.yaml),
after the fifth labelled batch's tuning misses; each fix with the answer that showed it and answers
written for this file, the cheats among them:

- behavioural-hang-story: "按rank把日志拆开看" is reading every rank's logs (the action); "it would
  freeze", "after that it ran fine", "I wrote up a rule for the team" are the situation, the result and
  what changed; "what fixed it was raising the NCCL timeout" is the trap, said any way.
- debug-exposed-communication/next: "the grad buckets get reduce-scattered while backward is still
  going" is the overlap described; "communication is exposed, so turn overlap on" says nothing of how
  to know it worked; TP's overlap is the wrong traffic, a contradiction.
- debug-launch-bound/next: the word ".item()" is no fix ("the .item() call costs nothing"), and "CUDA
  Graphs would not shorten the gaps" denies the fix (a modal negation after it).

Each case: (scenario id, step id, answer, right).
"""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade



RIGHT, WRONG = True, False
STORY, EXPOSED, LAUNCH = "behavioural-hang-story", "debug-exposed-communication", "debug-launch-bound"
LED = "led-dense-400b"

CASES = [
    # labelled (tuning)
    (STORY, None, "之前做一个34B的SFT，256张卡，用srun起的。任务跑到某一步就不动了，过了NCCL timeout才报错，每次都停在同一步。我先按rank把日志拆开看"
     "（之前只看rank0的日志），发现有一个rank在那一步打了CUDA OOM然后进程直接退出了，剩下255个rank都卡在backward里的all-reduce等它。原因是packing"
     "没限制token数，那一步分到一条超长样本。修法是按token budget做packing，srun加--kill-on-bad-exit，一个rank挂了整个job立刻退出、自动重启。"
     "之后再没出现过。", RIGHT),
    (STORY, None, "We had an NCCL timeout on 64 GPUs. I ran py-spy and the flight recorder on every rank, but every rank was "
     "in the same collective, so no rank was missing and it was not a rank-dependent branch. What fixed it was raising "
     "the NCCL timeout to two hours, and it never came back.", WRONG),
    # written here
    (STORY, None, "ok so a 13b pre-training run on 128 gpus would freeze around step 9000 and the watchdog killed it. i "
     "dumped every rank with py-spy and compared: rank 17 was in an all_gather inside eval, the rest in the gradient "
     "all-reduce; only some ranks called eval's gather. after moving it out it ran fine, we had lost about 2 days. i "
     "wrote up a rule for the team: no collectives under rank-dependent ifs.", RIGHT),
    (STORY, None, "A 64-GPU job hung at step 300. We bumped the timeout to an hour and it ran again, about 3 hours "
     "lost.", WRONG),
    # labelled (tuning)
    (EXPOSED, "next", "right so nccl-tests already says the network gives you the rated bus bandwidth, so i'm not going to "
     "go chasing cables. the 27 percent is the reduce-scatter of gradients and the all-gather of parameters from the "
     "distributed optimizer, sitting after the last backward kernel. the args have use-distributed-optimizer but not "
     "overlap-grad-reduce and not overlap-param-gather. so i turn both on, then the grad buckets get reduce-scattered "
     "while backward is still going and the param all-gather runs under the next forward. then i profile the same rank "
     "again and expect that 27 percent chunk to vanish, step time from 13 s to about 10. if there's still some left "
     "i'd play with the bucket size.", RIGHT),
    (EXPOSED, "next", "The communication after backward is exposed, so I would turn on --overlap-grad-reduce and "
     "--overlap-param-gather, which should make the step faster.", WRONG),
    (EXPOSED, "next", "This is TP communication leaking out: with TP 8 the per-layer all-reduces are on the critical "
     "path, so I would add --tp-comm-overlap (with --sequence-parallel) to overlap them with the GEMMs. Success is the "
     "27% NCCL block shrinking and step time dropping toward 10 s.", WRONG),
    # written here
    (EXPOSED, "next", "Network is fine per nccl-tests. Turn on --overlap-grad-reduce and --overlap-param-gather so the "
     "reduce-scatter runs during backward, tune the bucket size, then take a new trace and check the NCCL kernels run "
     "beside the backward kernels, MFU up.", RIGHT),
    # labelled (tuning)
    (LAUNCH, "next", "The step is not launch-bound: the CPU being busy with cudaLaunchKernel is normal and the short "
     "kernels are already efficient. Raising the micro-batch would not make kernels bigger, and CUDA Graphs or fusion "
     "would not shorten the gaps. The loss.item() call costs nothing because it does not synchronize. nvidia-smi at "
     "100% shows the GPU is saturated.", WRONG),
    # written here
    (LAUNCH, "next", "Capture the step in CUDA Graphs (or torch.compile to fuse the small kernels) so there are far "
     "fewer launches, raise the micro-batch so each kernel does more work, drop the .item() and log every 50 steps, "
     "then measure MFU again.", RIGHT),
    (LAUNCH, "next", "CUDA Graphs won't help here and a bigger micro-batch won't either; the .item() is free.", WRONG),
    # labelled (tuning): memory said as its product, the time as tokens at an MFU; the questions under "scope:"
    (LED, None, "我会按配方一步步来。1）先确认token数、seq长度、时间要求。2）memory：6.4 TB model state。3）TP 8机内，PP 16跨机，128卡一份、"
     "每卡50 GB，DP 64加distributed optimizer降到约19 GB。4）global batch 16M token，每条pipeline 32个micro-batch，开interleaved"
     "压bubble。5）算时间：15T token在40% MFU下约4个月，太长就减token或加卡。6）checkpoint异步分片、半小时一次，自动重启；监控MFU、loss和straggler。",
     RIGHT),
    (LED, None, "scope: tokens? seq? deadline? assume H100 80G, 8/node NVL, 8K seq, 15T tok. mem: 400B x 16 B = 6.4 TB. "
     "layout: TP8 (in node) x PP16 = 128/replica; DP64 + dist-opt -> ~19 GB. time: 6ND = 3.6e25 / (8192 x 989T x 0.4) "
     "≈ 128 d -> push back. FT: async sharded ckpt ~30 min, auto-restart. monitor MFU, loss spikes, per-rank step time.",
     RIGHT),
    # written here: the same figures as a run of terms
    (LED, None, "scope, 6.4 TB, model state, tokens, MFU, months, TP 8, PP 16, DP 64, checkpoint, async, MTBF.", WRONG),
    # third batch (tuning): a fluent answer with one wrong cause or fix in it is refused for it
    ("debug-data-loading", "next", "41% of the step is idle before the first forward, so the input pipeline is the "
     "bottleneck. Because that idle means the GPU is waiting on the network to deliver the previous step's gradients, "
     "I'd pre-tokenize offline and raise num_workers from 8 to 16 with pin_memory; then check the profiler and expect "
     "the idle share to drop.", WRONG),
    (LAUNCH, "next", "I'd move to CUDA Graphs and micro-batch 8 with torch.compile fusion. The reason is that the 1.3B "
     "model's kernels are memory-bound on HBM bandwidth, and the 31% gaps are the GPU waiting on HBM reads between "
     "kernels. Then I'd check that step time goes below 0.7 s.", WRONG),
    # "Add both." acts on the two flags the clause before said were missing
    (EXPOSED, "next", "Exposed DP communication: 27% of the 13 s step is reduce-scatter/all-gather after the last "
     "backward with nothing beside it, and the script has --use-distributed-optimizer but not --overlap-grad-reduce / "
     "--overlap-param-gather. Add both. The fabric is fine per nccl-tests. Success: that 27% block shrinks to a few "
     "percent, step time toward ~10 s, MFU from ~27% to ~35%.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Make every rank call the collective: keep save_checkpoint under `if rank == 0`, "
     "and add a matching all-reduce on ranks 1-7 in the else branch so they have something to pair with rank 0's "
     "all_gather. To catch it faster, use the flight recorder.", WRONG),
    ("hang-oom-dead-rank", "fix", "Switch the launcher to torchrun and cap tokens per micro-batch. That's needed because "
     "the OOM is caused by NCCL's buffers: the all-reduce on rank 5 reserved 12 GiB for communication.", WRONG),
    # the wrong fixes named and dismissed ("only delays") before the right one
    ("hang-uneven-batches", "fix", "Removing the barrier in eval.py wouldn't help: rank 3 would just run ahead. Raising "
     "the timeout only delays the same deadlock. The root cause is unequal shard sizes from the hand-written sampler, "
     "so the fix is equal step counts on every rank: pad the shorter shards (as DistributedSampler does) or drop the "
     "remainder, or use DDP's join() for uneven inputs.", RIGHT),
    ("hang-uneven-batches", "fix", "The shards are uneven, so turn on drop_last for rank 3, the short one, and pad the "
     "other seven ranks up to ceil(N/8) samples.", WRONG),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), CASES)
def test_story_and_debug_stages_are_graded_as_an_interviewer_would(qid, step, answer, right):
    verdict = grade(library().question(qid), answer, step)
    assert verdict.correct is right, (verdict.score, verdict.details["covered"], verdict.details.get("contradicted"))


def test_tp_overlap_is_named_as_the_wrong_traffic():
    verdict = grade(library().question(EXPOSED), "It's TP traffic that is exposed, so add --tp-comm-overlap.", "next")
    assert not verdict.correct and "overlap" in verdict.details["contradicted"], verdict.details


def test_a_reading_set_up_to_be_refuted_is_no_claim():
    # "It's tempting to read 100% as saturated" sets the trap up; the answer then says what the counter means
    answer = ("It's tempting to read 100% as 'the GPU is saturated', but nvidia-smi's utilization is the share of "
              "sample time with at least one kernel resident; tiny launch-bound kernels or NCCL kernels spinning on a "
              "late peer read 100% too. MFU, tokens/s × 6N over GPUs × peak, counts only useful matmul FLOPs.")
    verdict = grade(library().question("followup-nvidia-smi"), answer, None)
    assert verdict.correct and not verdict.details.get("contradicted"), verdict.details
    assert not grade(library().question("followup-nvidia-smi"), "100% means the GPU is saturated, so MFU is fine.",
                     None).correct
