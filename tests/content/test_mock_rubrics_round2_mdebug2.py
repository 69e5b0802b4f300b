"""The low-utilization debug stages' "what next" step, second round (2026-12-03): honest partial answers
(one or two true things, the fix missing or only half of it, or right on one point and wrong on another)
and right answers written the way candidates talk (terse, rambling, bullets, Chinese with English terms,
numbers written as fractions or percentages, synonyms). None from the labelled benchmark; the first
round's cases are in test_mock_rubrics_hostile_mdebug.py. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
DATA, EXPOSED = "debug-data-loading", "debug-exposed-communication"
LAUNCH, STRAGGLER = "debug-launch-bound", "debug-straggler"

CASES = [
    # debug-data-loading: accepted before were pin_memory and prefetching alone as the fix (the workers are
    # CPU-bound tokenizing; a deeper queue does not make them faster); refused were "scale up the worker pool",
    # tokenizing in "a separate preprocessing job" and "the step should fall by roughly 40%"
    # partial / half-wrong
    (DATA, "next", "It's the data pipeline: the GPU is starved by the loader, not the network. Re-measure MFU after "
                   "fixing it.", WRONG),
    (DATA, "next", "Swap in synthetic batches: if the 41% idle vanishes, it's confirmed to be the loader, and MFU "
                   "goes up.", WRONG),
    (DATA, "next", "Speed up the data loading, then check MFU again.", WRONG),
    (DATA, "next", "Turn on pin_memory and raise prefetch_factor, then measure MFU again.", WRONG),
    (DATA, "next", "Pre-tokenize the corpus offline, and since the workers eat CPU, cut num_workers to 2; "
                   "re-measure MFU.", WRONG),
    (DATA, "next", "Add more DataLoader workers, and also turn on overlap because NCCL is the real bottleneck; "
                   "measure MFU again.", WRONG),
    (DATA, "next", "GPU utilization is low because the GPU is idle 41% of the step; we need to make the GPU busy "
                   "and then check MFU again.", WRONG),
    (DATA, "next", "Use a bigger global batch so the loader's cost is amortized over more tokens, then measure "
                   "MFU again.", WRONG),
    (DATA, "next", "The main thread waits in __next__, so the DataLoader is the bottleneck; I'd confirm with a new "
                   "profile.", WRONG),
    # right, in candidates' styles
    (DATA, "next", "Input-bound. Pre-tokenize offline + more workers; verify the idle goes to ~0 and MFU rises.", RIGHT),
    (DATA, "next", "So, hmm, the thing is, the 8 workers are pegged at 100% doing decode and tokenize, and the main "
                   "thread is just sitting in __next__, so the GPU is starved, right? NCCL is a rounding error at 4%. "
                   "What I'd actually do: first a quick sanity check with random token tensors of the right shape, "
                   "and if the gap goes away we know. Then, and this is the real fix, tokenize the whole corpus once "
                   "up front in a preprocessing job, store token ids, and have the loader just read them. I might "
                   "also raise the worker count. Success looks like the step dropping from 17 s to something like "
                   "10 s.", RIGHT),
    (DATA, "next", "瓶颈是 data loading：把 tokenization 挪到 offline 预处理，存成 token id；num_workers 从 8 调到 "
                   "32；然后重新 profile，forward 前面那 41% 的 idle 应该没了，step time 从 17s 降到 10s 左右。", RIGHT),
    (DATA, "next", "- confirm: feed synthetic batches, the idle should vanish\n- fix: num_workers 8 -> 32, read "
                   "pre-tokenized shards\n- verify: idle before forward ~0, step ~10 s", RIGHT),
    (DATA, "next", "The idle is about two fifths of the step; tokenize the corpus once ahead of time and give the "
                   "loader more processes, and the step should fall by roughly 40%, from 17 s to about 10 s.", RIGHT),
    (DATA, "next", "Scale up the dataloader worker pool and move tokenization into a separate preprocessing job; "
                   "then re-profile to see the GPU no longer stalls on __next__.", RIGHT),
    (DATA, "next", "Cache the tokenized dataset to disk as a numpy memmap so the loader only slices arrays, double "
                   "the workers, and check the timeline: the first forward kernel should start right away.", RIGHT),
    (DATA, "next", "先用 dummy data 跑一下确认；然后 worker 加到 16、预先 tokenize 好存成 .bin；改完 step time "
                   "应该掉四成左右，MFU 明显上去。", RIGHT),
    (DATA, "next", "Set pin_memory=True and use non_blocking copies so the host-to-device transfer overlaps; check "
                   "the idle shrinks.", WRONG),
    (DATA, "next", "先开 prefetch 和 pin_memory，再把 num_workers 加倍；重新测 MFU。", RIGHT),
    (DATA, "next", "Add workers (8 → 32) and prefetch_factor 4; done when the idle share drops from 41% to near "
                   "0%.", RIGHT),
    (DATA, "next", "开 pin_memory、prefetch 调大到 8，再测 MFU。", WRONG),
    (DATA, "next", "num_workers 调到 64，再重新 profile 一次，看空白没了。", RIGHT),
    (DATA, "next", "把num_workers从8调到2，再测 MFU。", WRONG),
    # debug-data-loading, second pass: the fix with no check after it was accepted (synthetic data confirms the
    # diagnosis, not the fix); "the 41% idle should drop to near zero" was refused
    (DATA, "next", "Pre-tokenize and pack the corpus into binary shards, memory-map them, and raise num_workers.", WRONG),
    (DATA, "next", "Add more DataLoader workers and confirm with synthetic data that the loader was the cause.", WRONG),
    (DATA, "next", "tokenize 挪到线下做，存成 token 文件；worker 数翻倍；改完以后 GPU 开头那 41% 的 idle 应该没了。", RIGHT),
    (DATA, "next", "Honestly the fix is boring: do the tokenization once, offline, and have the loader read "
                   "pre-tokenized shards. Then check the profiler again: no more idle block before the first forward.",
     RIGHT),
    (DATA, "next", "Add more workers. The 41% idle should drop to near zero.", RIGHT),
    # debug-exposed-communication: accepted before were the right flags with no check that they worked, and
    # the right flags beside a wrong change (TP moved across nodes, overlap with the optimizer step, DP cut,
    # PP raised); refused was the step "about 1/4 shorter, 13 s down to about 9.5 s"
    (EXPOSED, "next", "Turn on --overlap-grad-reduce and --overlap-param-gather; the network is fine, and tune the "
                      "bucket size.", WRONG),
    (EXPOSED, "next", "The 27% is exposed DP communication because overlap is off; the network is fine per "
                      "nccl-tests, so it's scheduling.", WRONG),
    (EXPOSED, "next", "Turn on overlap and also swap the layout, DP inside the node and TP across nodes, so the "
                      "gradient traffic rides NVLink; measure MFU again.", WRONG),
    (EXPOSED, "next", "Overlap the reduce-scatter with the optimizer step so they run concurrently, then measure MFU "
                      "again.", WRONG),
    (EXPOSED, "next", "Enable --overlap-grad-reduce, then run nccl-tests again to confirm the bus bandwidth is at "
                      "the rated value.", WRONG),
    (EXPOSED, "next", "Make the buckets larger so there are fewer reduce-scatters; the network is fine. Re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "Turn on overlap, and cut DP from 32 to 16 to halve the gradient traffic; re-measure MFU.", WRONG),
    (EXPOSED, "next", "Turn on overlap, and also raise PP to 8 so the bubble shrinks; check MFU again.", WRONG),
    (EXPOSED, "next", "Communication is 27% of the step; reduce it and check MFU again.", WRONG),
    # right
    (EXPOSED, "next", "Overlap's off. --overlap-grad-reduce --overlap-param-gather; expect the ~27% NCCL tail gone, "
                      "step ≈ 9.5 s.", RIGHT),
    (EXPOSED, "next", "Right, so, hmm, the thing is the reduce-scatter and all-gather are just sitting there after "
                      "backward, 27% of the step, nothing running beside them. And it's not the fabric, nccl-tests "
                      "were fine. The launch script came from a single-node job, so, yeah, nobody turned on the "
                      "overlap flags, which on one node you'd never notice. I'd add --overlap-grad-reduce and "
                      "--overlap-param-gather, maybe play with the bucket size. Then take another trace and I'd "
                      "expect the NCCL kernels stacked under the backward kernels instead of after them.", RIGHT),
    (EXPOSED, "next", "DP 的 reduce-scatter/all-gather 完全 exposed，因为没开 overlap。加上 --overlap-grad-reduce、"
                      "--overlap-param-gather，让梯度同步和 backward 重叠；之后 step time 应该少掉差不多四分之一，"
                      "profile 里 NCCL 和 compute kernel 叠在一起。", RIGHT),
    (EXPOSED, "next", "- cause: DP comm exposed, overlap flags missing\n- fix: --overlap-grad-reduce, "
                      "--overlap-param-gather\n- check: new trace, NCCL alongside backward; step 13 s -> ~10 s", RIGHT),
    (EXPOSED, "next", "Roughly a quarter of the step is un-hidden gradient sync. Turn on grad-reduce and param-gather "
                      "overlap; the step should get about 1/4 shorter, 13 s down to about 9.5 s.", RIGHT),
    (EXPOSED, "next", "Overlap the gradient sync with the backward pass (Megatron's overlap-grad-reduce) and prefetch "
                      "the parameter all-gather during forward; re-profile: the communication should be hidden "
                      "behind compute.", RIGHT),
    (EXPOSED, "next", "Enable async gradient reduction, overlap_grad_reduce=True and overlap_param_gather=True in the "
                      "DDP config; confirm the timeline shows the NCCL stream concurrent with the backward GEMMs.",
     RIGHT),
    (EXPOSED, "next", "把 overlap 打开（grad reduce 和 param gather 两个都开），再 profile 一下，NCCL 应该藏到 backward "
                      "下面去了，MFU 能涨 25% 左右。", RIGHT),
    (EXPOSED, "next", "Keep TP 8 inside the node and DP 32 across nodes, the layout is fine; turn on both overlap "
                      "flags and re-measure MFU.", RIGHT),
    (EXPOSED, "next", "Don't raise PP or cut DP; add --overlap-grad-reduce and --overlap-param-gather and take a new "
                      "trace: NCCL should sit under backward.", RIGHT),
    (EXPOSED, "next", "把 TP 放到跨机、DP 放到机内，让梯度走 NVLink；再打开 overlap，重新测 MFU。", WRONG),
    (EXPOSED, "next", "打开 overlap，再把 DP 减半，通信量就少一半；重新测 MFU。", WRONG),
    (EXPOSED, "next", "打开 --overlap-grad-reduce 和 --overlap-param-gather，网络没问题，bucket 大小也调一下。", WRONG),
    # debug-launch-bound: accepted before were the right fix beside a wrong reading of the trace (the loader
    # as the bottleneck, the 6% .item() as the real problem, memory-bound and FP8, NCCL as the biggest win);
    # refused was "the step time should fall by roughly 30%"
    (LAUNCH, "next", "Use CUDA Graphs.", WRONG),
    (LAUNCH, "next", "It's launch-bound: the CPU can't launch the tiny kernels fast enough. Re-measure MFU after "
                     "fixing it.", WRONG),
    (LAUNCH, "next", "Use CUDA Graphs, and add more DataLoader workers because the loader is the bottleneck; "
                     "re-measure MFU.", WRONG),
    (LAUNCH, "next", "Use CUDA Graphs and check that nvidia-smi utilization goes up.", WRONG),
    (LAUNCH, "next", "Use CUDA Graphs and re-measure MFU; the real problem is the 6% loss.item() gap, the rest is "
                     "noise.", WRONG),
    (LAUNCH, "next", "Grow the model to 7B so the kernels get bigger, then re-measure MFU.", WRONG),
    (LAUNCH, "next", "Remove the per-step loss.item() and re-profile; the gaps should be gone.", WRONG),
    (LAUNCH, "next", "Wrap the step in CUDA Graphs, and since it's memory-bound, switch to FP8 too; measure MFU "
                     "again.", WRONG),
    (LAUNCH, "next", "Use CUDA Graphs; NCCL overlap is the biggest win here; check MFU again.", WRONG),
    # right
    (LAUNCH, "next", "Launch-bound → CUDA Graphs + torch.compile, mb 1→8, log every 100 steps. Success = gaps gone, "
                     "MFU up.", RIGHT),
    (LAUNCH, "next", "Hmm, OK, so the GPU is at '100%' but that's a lie, right, nvidia-smi just says a kernel was "
                     "running at some point. The kernels are tiny, under 20 µs, and the CPU is calling "
                     "cudaLaunchKernel back to back, so the Python side simply can't issue them fast enough. That's "
                     "the whole story, the loader is idle. So: capture the step with CUDA Graphs, or torch.compile "
                     "in reduce-overhead mode which does that for you, and while at it raise the micro-batch so "
                     "each kernel does real work. The .item() in the logging I'd move to every 50 steps. Then "
                     "profile again and the little gaps should be mostly gone.", RIGHT),
    (LAUNCH, "next", "CPU launch 不过来，典型 launch-bound。上 CUDA Graph 把整个 step capture 下来一次 replay，"
                     "micro-batch 从 1 提到 8，loss 不要每步 .item()；然后再跑 profiler，kernel 之间的 gap "
                     "应该基本没了，step time 降三成左右。", RIGHT),
    (LAUNCH, "next", "- diagnosis: launch-bound (tiny kernels, CPU launching nonstop)\n- fix: CUDA Graphs, "
                     "torch.compile, micro-batch 8, no per-step .item()\n- check: new trace, gaps ~0, step "
                     "0.7 s -> ~0.45 s", RIGHT),
    (LAUNCH, "next", "Almost a third of the step (31%) is gaps between kernels. Capture the step in a CUDA graph and "
                     "the step time should fall by roughly 30%, from 0.7 s to about 0.5 s.", RIGHT),
    (LAUNCH, "next", "Capture the step with cudagraphs (graph replay) so the host issues one launch instead of "
                     "thousands; check the timeline gaps close up and MFU goes up.", RIGHT),
    (LAUNCH, "next", "Raise the micro-batch from 1 to 8 (no more gradient accumulation), so there are 8x fewer kernel "
                     "launches per step; drop the per-step .item(); re-measure MFU.", RIGHT),
    (LAUNCH, "next", "用 torch.compile 做算子融合，把一堆小 kernel 合成几个大的，launch 次数少很多；然后重新 "
                     "profile，空隙应该消失。", RIGHT),
    (LAUNCH, "next", "CUDA Graphs are the biggest win here; NCCL is only 5%, leave it. The loader is idle, not the "
                     "problem. Re-measure MFU.", RIGHT),
    (LAUNCH, "next", "It's not memory-bound, it's launch overhead: CUDA graphs, and the .item() is a smaller issue; "
                     "re-measure MFU.", RIGHT),
    (LAUNCH, "next", "上 CUDA Graphs，再换 FP8 加速 GEMM；重新测 MFU。", WRONG),
    (LAUNCH, "next", "用 torch.compile，再多开几个 dataloader worker；重新测 MFU。", WRONG),
    # debug-straggler: accepted before were the fix with no check after it (comparing the ranks' step times
    # "to confirm it is that node" read as the new measurement), and the fix beside overlap or bigger
    # buckets for the wait, or the node's NIC as the slow part; refused were "step back to last week's"
    # and "the step should get roughly 1/4 shorter, 16 s down to about 12 s"
    (STRAGGLER, "next", "Replace rank 213's node, check its clocks, and compare per-rank step times.", WRONG),
    (STRAGGLER, "next", "It's a straggler: rank 213 is slow and everyone waits for it in the reduce-scatter. Check its "
                        "DCGM for throttling.", WRONG),
    (STRAGGLER, "next", "Check rank 213's node for thermal throttling and Xid errors, then re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Replace 213's node and turn on overlap so the reduce-scatter hides under backward; re-measure "
                        "MFU.", WRONG),
    (STRAGGLER, "next", "Rank 213's NIC is slow, so its gradients arrive late; drain the node and re-measure MFU.",
     WRONG),
    (STRAGGLER, "next", "Roll the driver and the container back to last week's versions and re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Everyone waits in the reduce-scatter 24% of the step; shrink that wait and check MFU "
                        "again.", WRONG),
    (STRAGGLER, "next", "Drain 213's node and move to a spare; then also raise the bucket size so the reduce-scatter "
                        "is faster, which is the main cost; re-measure MFU.", WRONG),
    (STRAGGLER, "next", "把 213 那台换掉，顺便打开 overlap 把 reduce-scatter 藏到 backward 里；再测 MFU。", WRONG),
    # right
    (STRAGGLER, "next", "Straggler on 213. Cordon it, resume from ckpt on a spare; expect the others' RS wait "
                        "24%→~1%, step back to last week's.", RIGHT),
    (STRAGGLER, "next", "OK so, hmm, the thing is, this looks like a comms problem, everyone's sitting 24% in the "
                        "reduce-scatter, but it's really one slow box: 213 is computing 92% of the step and its clocks "
                        "are low under load, so it's throttling, probably power or cooling, and everybody else waits "
                        "on it. I'd sanity-check with per-rank step times that it's just that one node, look at "
                        "nvidia-smi -q for the throttle reasons, and then, you know, just take the node out of the job "
                        "and restart from the last checkpoint on a healthy one. Afterwards the reduce-scatter waits "
                        "should basically disappear and the step go back to what it was last week.", RIGHT),
    (STRAGGLER, "next", "213 这台 node 是 straggler，GPU clock 偏低，大概率是 thermal/power throttling。先 nvidia-smi -q "
                        "看一下 clocks_throttle_reasons，然后把它 drain 掉、用 spare node 从最新 checkpoint resume；"
                        "之后 step time 应该回到上周的水平，其他 rank 在 reduce-scatter 里的 wait 从 24% 降到 1% "
                        "左右。", RIGHT),
    (STRAGGLER, "next", "- confirm: per-rank step times, only 213 is slow\n- check: DCGM / nvidia-smi throttle "
                        "reasons, Xid\n- fix: drain the node, restart from checkpoint on a spare\n- verify: "
                        "reduce-scatter wait on other ranks ~1%, step time back to last week", RIGHT),
    (STRAGGLER, "next", "The other ranks lose about a quarter of each step waiting for 213. Swap that node for a spare "
                        "and restart from the checkpoint; the step should get roughly 1/4 shorter, 16 s down to about "
                        "12 s.", RIGHT),
    (STRAGGLER, "next", "Evict the bad host from the job, bring up a replacement from the pool, and reload the latest "
                        "checkpoint; then the collective wait on the healthy ranks should go away and throughput "
                        "should return to last week's.", RIGHT),
    (STRAGGLER, "next", "Blacklist that machine in the scheduler (slurm --exclude) and relaunch from the last "
                        "checkpoint; check that the reduce-scatter waits on the other ranks drop and MFU recovers.",
     RIGHT),
    (STRAGGLER, "next", "rank 213 的 GPU 降频了。把这台机器从任务里剔除，换一台好的从 checkpoint 接着训；"
                        "再看 MFU，应该回到上周的水平。", RIGHT),
    (STRAGGLER, "next", "Verify with per-rank step times that it's only 213, then drain its node and restart from "
                        "the checkpoint on a spare.", WRONG),
    (STRAGGLER, "next", "Confirm with per-rank step times that only 213 is slow, check its clocks, then cordon the "
                        "node.", WRONG),
    (STRAGGLER, "next", "Cordon 213's node and resume on a spare from the checkpoint; check MFU.", RIGHT),
    (STRAGGLER, "next", "Overlap or bigger buckets won't help, nothing can hide a wait for the slowest rank; drain "
                        "213's node and re-measure MFU.", RIGHT),
    (STRAGGLER, "next", "Its clocks are low, not its NIC: swap the node for a spare, restart from the checkpoint, "
                        "verify the reduce-scatter wait on the other ranks drops to ~1%.", RIGHT),
    # all four stages, second pass: the check said as the number that should move ("throughput should go up
    # from 1.5M to about 2.2M tokens/s", "MFU should go back up to last week's level") or under a "success ="
    # label was refused; "it'll be faster" names no number and stays refused. The straggler's NIC or a bad
    # link named as the cause is a contradiction (accepted at 0.75 beside the right fix)
    (EXPOSED, "next", "Add --overlap-grad-reduce and --overlap-param-gather. It worked if the NCCL block after "
                      "backward shrinks to a few percent.", RIGHT),
    (EXPOSED, "next", "overlap 两个参数加上；成功的标准：throughput 从 64.5 万涨到 85 万左右。", RIGHT),
    (EXPOSED, "next", "Flip on grad-reduce overlap and param-gather overlap; success = the 27% exposed comm drops "
                      "to ~3% in the profile.", RIGHT),
    (EXPOSED, "next", "Enable overlap for the DP collectives; throughput should rise by about a third, toward 850K "
                      "tokens/s.", RIGHT),
    (EXPOSED, "next", "Turn both overlap flags on; then MFU should go up from about 27% to about 35%.", RIGHT),
    (EXPOSED, "next", "Turn on --overlap-grad-reduce and --overlap-param-gather, and the step should be faster.", WRONG),
    (LAUNCH, "next", "CUDA Graphs. Done when the gaps between kernels are gone in a fresh profile.", RIGHT),
    (LAUNCH, "next", "torch.compile(mode='reduce-overhead') 把 step 包起来；tokens/s 应该涨 40% 以上。", RIGHT),
    (LAUNCH, "next", "Use CUDA Graphs; throughput should go up from 1.5M to about 2.2M tokens/s.", RIGHT),
    (LAUNCH, "next", "Use CUDA Graphs, and it'll be faster.", WRONG),
    (STRAGGLER, "next", "Drain 213's node, resume on a spare; success = ranks 0 and 212 spend ~1% in the "
                        "reduce-scatter instead of 24%.", RIGHT),
    (STRAGGLER, "next", "把 213 那台 drain 掉、换 spare 从 checkpoint 恢复；然后 throughput 应该回到 34 万 tokens/s "
                        "左右。", RIGHT),
    (STRAGGLER, "next", "Swap 213's node for a spare and restart from the checkpoint; MFU should go back up to last "
                        "week's level.", RIGHT),
    (STRAGGLER, "next", "Replace the node, restart from the checkpoint, and it should be fast again.", WRONG),
    (DATA, "next", "Pre-tokenize offline, more workers; success = throughput up to ~420K tokens/s.", RIGHT),
    (DATA, "next", "Pre-tokenize offline and add workers, and it'll be faster.", WRONG),
    (STRAGGLER, "next", "213's node is the cause, not the network: drain it, resume on a spare, re-measure MFU.", RIGHT),
    (STRAGGLER, "next", "The cause is its GPUs' low clocks, not a bad link: drain the node, resume on a spare, "
                        "re-measure MFU.", RIGHT),
    (STRAGGLER, "next", "Drain 213's node; the cause is its NIC. Re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Drain 213's node and resume on a spare; a bad link on it is the cause. Re-measure MFU.", WRONG),
    # third pass: "Verify: the timeline shows back-to-back kernels, MFU up" and "expect a roughly 40% shorter
    # step" were refused
    (DATA, "next", "数据管线是瓶颈 → 离线 tokenize + num_workers 调大；验证：trace 里 forward 前的 idle 消失，step time "
                   "17s → ~10s。", RIGHT),
    (DATA, "next", "Move to a pre-tokenized indexed dataset (Megatron-style .bin/.idx) so the workers only copy "
                   "tokens; expect a roughly 40% shorter step.", RIGHT),
    (DATA, "next", "多开 worker 就行，然后看 MFU 有没有上去。", RIGHT),
    (DATA, "next", "Re-measure MFU after adding pin_memory; that's all it needs.", WRONG),
    (EXPOSED, "next", "这 27% 是 DP 的 RS/AG 没 overlap。开 --overlap-grad-reduce --overlap-param-gather，重新 profile "
                      "看 NCCL 和 backward 是否重叠，step time 应该降到 10s 左右。", RIGHT),
    (EXPOSED, "next", "Switch from the distributed optimizer to FSDP so the gathers overlap automatically; re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "So, the honest answer: the flags. Both overlap flags are off because the script came from a "
                      "single node, where nobody would notice. Turn them on. And then I'd want to see it, so a new "
                      "trace, where the reduce-scatter should now sit under the backward kernels.", RIGHT),
    (LAUNCH, "next", "Kernel launch overhead dominates: capture with torch.cuda.CUDAGraph, fuse elementwise ops via "
                     "torch.compile, mbs 1→4. Verify: the timeline shows back-to-back kernels, MFU up.", RIGHT),
    (LAUNCH, "next", "Move the logging to a separate thread so .item() doesn't block, then re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Cordon the node (scontrol drain), restart from the last ckpt with a hot spare; verify the "
                        "per-rank RS wait is ~1% and the step ~12 s.", RIGHT),
    (STRAGGLER, "next", "Reset 213's GPU clocks with nvidia-smi -rgc and keep going; re-measure MFU.", WRONG),
    (STRAGGLER, "next", "It's a straggler; I'd exclude that host and relaunch from the checkpoint, then make sure the "
                        "reduce-scatter waits on the others have dropped.", RIGHT),
    (STRAGGLER, "next", "Open a hardware ticket for rank 213's node and re-measure MFU next week.", WRONG),
    # the new contradictions denied, beside the right fix, do not refuse it; restated diagnoses stay refused
    (EXPOSED, "next", "Don't move TP across nodes, it needs NVLink; turn on both overlap flags and re-measure "
                      "MFU.", RIGHT),
    (EXPOSED, "next", "Hide the reduce-scatter under backward, not under the optimizer step, which needs the "
                      "gradients: --overlap-grad-reduce, plus --overlap-param-gather; new trace after.", RIGHT),
    (LAUNCH, "next", "The loader is idle, so more workers won't help; use CUDA Graphs and re-measure MFU.", RIGHT),
    (LAUNCH, "next", "The data loader isn't the bottleneck (its queues are full): torch.compile + CUDA graphs, then "
                     "profile again.", RIGHT),
    (LAUNCH, "next", "The GPUs are at 100%, so they're busy; add more GPUs and re-measure MFU.", WRONG),
    (STRAGGLER, "next", "No NCCL tuning will help, neither bigger buckets nor overlap: the others wait for 213. Drain "
                        "it, resume on a spare, re-measure MFU.", RIGHT),
    (STRAGGLER, "next", "It's not a bad link or the NIC, the clocks are low: drain the node, resume on a spare, "
                        "re-measure MFU.", RIGHT),
    (STRAGGLER, "next", "Rank 213 is the straggler, the others wait for it; re-measure MFU.", WRONG),
    (DATA, "next", "The GPU waits for data, which is why utilization is low; re-measure MFU once the data pipeline "
                   "is faster.", WRONG),
    (EXPOSED, "next", "The communication is not overlapped, so it's exposed; fix that and take a new trace.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round2_partial_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
