"""The low-utilization debug stages' "what next" step against near misses and right answers written
by hand as a hostile candidate would (2026-12-03; none from the labelled benchmark). The hole most
of them found: a contradiction denied states its point, and the readings of the trace that say
otherwise sat on the required fix, so "the network is not the problem, so I'd re-measure MFU"
stated the fix. They now sit on a diagnosis point of their own, worth too little to pass an answer
without the fix. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
DATA, EXPOSED = "debug-data-loading", "debug-exposed-communication"
LAUNCH, STRAGGLER = "debug-launch-bound", "debug-straggler"

CASES = [
    # debug-data-loading: accepted before were the knob turned the wrong way (a bare "num_workers" said
    # the fix), the hedge, the network or compute denied as the cause, and fewer workers denied
    (DATA, "next", "The workers are fighting the main thread for CPU, so I'd cut num_workers from 8 to 4, then "
                   "measure MFU again.", WRONG),
    (DATA, "next", "nvidia-smi already shows 70–100%, so the GPUs are busy; I'd just increase the batch size so each "
                   "step does more work, and check MFU again.", WRONG),
    (DATA, "next", "Turn on gradient-reduce overlap so the NCCL time hides under backward, then measure MFU again to "
                   "confirm.", WRONG),
    (DATA, "next", "GPU 在等网络把梯度送过来，先把 NCCL 超时调大，再重新测 MFU。", WRONG),
    (DATA, "next", "Could be the dataloader, could be the network — maybe add more workers, maybe not; I'd re-measure "
                   "MFU and see.", WRONG),
    (DATA, "next", "num_workers, pin_memory, prefetch, synthetic data, MFU.", WRONG),
    (DATA, "next", "Set num_workers=0 and pin_memory off so the data is loaded in the main thread without IPC "
                   "overhead, then check the idle stretch is gone.", WRONG),
    (DATA, "next", "The tokenizer runs on the GPU and stalls it; move tokenization into the DataLoader workers, then "
                   "re-measure step time.", WRONG),
    (DATA, "next", "增加 DataLoader worker 没用，CPU 已经满了，应该减少 worker 数量，然后再测 MFU。", WRONG),
    (DATA, "next", "Synthetic data makes the gap disappear, so train on synthetic data from now on and measure MFU "
                   "again.", WRONG),
    (DATA, "next", "The loader workers are probably stuck; restart the job and check afterwards that the idle stretch "
                   "is gone.", WRONG),
    (DATA, "next", "More workers won't help and pre-tokenizing isn't worth it; the real problem is compute, the GEMMs "
                   "are too slow, so re-profile.", WRONG),
    (DATA, "next", "I'd add more workers, but honestly the bottleneck is the NCCL communication, so re-measure "
                   "after.", WRONG),
    (DATA, "next", "Input-bound: swap in synthetic batches to confirm the 41% gap vanishes, then pre-tokenize offline "
                   "and add workers; re-measure MFU.", RIGHT),
    (DATA, "next", "先用合成数据跑一下，确认开头的空等消失；然后把 tokenize 挪到训练前离线做好，再多开几个 DataLoader "
                   "worker，最后重新测 MFU 和 step time。", RIGHT),
    (DATA, "next", "So the first thing I notice is the GPU sits idle for 41% of the step before the first forward, "
                   "and the workers are pegged decoding and tokenizing, so honestly this is the data pipeline, not "
                   "NCCL, which is only 4%. What I'd do is, well, first prove it by feeding random tensors of the "
                   "right shape; if the idle stretch goes away, that's confirmed. Then I'd move the tokenization "
                   "offline, pre-tokenize and pack the corpus into binary shards that we memory-map, so the workers "
                   "just read tokens, and bump num_workers and prefetch_factor a bit too. Then I'd look at the trace "
                   "again and expect the idle block at the start gone and the step time down to roughly 10 s.", RIGHT),
    (DATA, "next", "先 pre-tokenize 数据，离线存成 binary shards，worker 只读 token；改完再录一次 trace，看 forward "
                   "之前的空白没了，MFU 上去。", RIGHT),
    (DATA, "next", "The loader is the bottleneck: tokenize ahead of time and cache the tokens, raise num_workers, and "
                   "confirm with a new profile that the idle before forward is gone and step time drops.", RIGHT),
    (DATA, "next", "The network is not the problem, so I'd re-measure MFU.", WRONG),
    (DATA, "next", "NCCL 只占 4%，不是网络的问题；再测一次 MFU。", WRONG),
    (DATA, "next", "It's not compute and not the network; profile again to see.", WRONG),
    (DATA, "next", "Don't reduce num_workers; just re-measure MFU.", WRONG),
    (DATA, "next", "worker 不用加，问题在 NCCL 通信；开 overlap，再测 MFU。", WRONG),
    (DATA, "next", "先别动 worker，重启一下任务，看 forward 前的空白有没有消失。", WRONG),
    (DATA, "next", "把 pin_memory 关掉、prefetch 关掉，省 CPU，然后再测 MFU。", WRONG),
    # the new contradictions do not refuse these (a hedge is not "it might be tempting to …")
    (DATA, "next", "It might be tempting to blame the network, but NCCL is 4%; add workers, pre-tokenize offline, "
                   "re-measure MFU.", RIGHT),
    (DATA, "next", "Not the network (4%), it's the loader: tokenize offline, more workers, then measure MFU "
                   "again.", RIGHT),
    (DATA, "next", "I'd set num_workers to 16 and pin_memory=True, pre-tokenize, and re-profile: the idle before "
                   "forward should be gone.", RIGHT),
    (DATA, "next", "More workers will reduce the idle; also take tokenizing out of the loop by pre-tokenizing; "
                   "measure MFU again.", RIGHT),
    (DATA, "next", "It could be tempting to blame the network, but NCCL is only 4%: pre-tokenize offline, more "
                   "workers, measure MFU again.", RIGHT),
    (DATA, "next", "It might be the network as well; add more workers and re-measure MFU.", WRONG),
    # debug-exposed-communication: accepted before were TP's overlap as the fix, TP denied as the cause,
    # overlap read as already on (a bare "overlap" said the fix), and overlap put on the pipeline bubble
    (EXPOSED, "next", "The fabric is too slow for DP 32 across nodes; upgrade to 400G InfiniBand and re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "Overlap won't help since the reduce-scatter has to finish before the optimizer step; instead "
                      "make the buckets bigger, then take a new trace.", WRONG),
    (EXPOSED, "next", "Turn on --tp-comm-overlap so TP's all-reduce hides under the GEMMs, then measure MFU "
                      "again.", WRONG),
    (EXPOSED, "next", "打开 overlap 没用，通信本来就得等 backward 结束；应该把 DP 改成 16 减少通信量，再重新测 "
                      "MFU。", WRONG),
    (EXPOSED, "next", "Maybe turn on --overlap-grad-reduce, or maybe the network is the bottleneck; re-measure MFU to "
                      "see.", WRONG),
    (EXPOSED, "next", "If the network checks out we could try overlap; first I'd re-run nccl-tests and measure "
                      "again.", WRONG),
    (EXPOSED, "next", "--overlap-grad-reduce, --overlap-param-gather, bucket size, nccl-tests, MFU.", WRONG),
    (EXPOSED, "next", "TP overlap isn't the problem here; measure MFU again after.", WRONG),
    (EXPOSED, "next", "The network is not the problem since nccl-tests reach rated bandwidth, so I'd just re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "Turn off --use-distributed-optimizer so it's one plain all-reduce instead of reduce-scatter "
                      "plus all-gather; then check the new trace.", WRONG),
    (EXPOSED, "next", "Increase gradient accumulation so the reduce-scatter runs less often, then measure MFU "
                      "again.", WRONG),
    (EXPOSED, "next", "Set NCCL_ALGO=Tree and raise NCCL_BUFFSIZE so the collectives run faster; then re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "The script is fine; the real problem is PP 4's bubble, so raise the number of micro-batches "
                      "and re-measure.", WRONG),
    (EXPOSED, "next", "Overlap is already on with the distributed optimizer, so the exposed 27% must be the network — "
                      "check the switches and re-measure.", WRONG),
    (EXPOSED, "next", "网络带宽不够，跨机的 reduce-scatter 太慢；换更快的 IB 网卡，再测 MFU。", WRONG),
    (EXPOSED, "next", "Exposed DP comm: add --overlap-grad-reduce and --overlap-param-gather, tune the bucket size; a "
                      "new trace should show NCCL beside backward, MFU up.", RIGHT),
    (EXPOSED, "next", "是通信没盖住：加上 --overlap-grad-reduce 和 --overlap-param-gather，让 reduce-scatter 在 "
                      "backward 期间按 bucket 做；nccl-tests 达标，不是网络问题。改完重新测 MFU，再录 trace 确认 NCCL "
                      "kernel 和 backward 并行。", RIGHT),
    (EXPOSED, "next", "OK so 27% of the step is reduce-scatter and all-gather sitting after the last backward kernel "
                      "with nothing next to them, and the network itself is fine since nccl-tests hit the rated bus "
                      "bandwidth, so it's not a bandwidth problem, it's scheduling. The script came from a "
                      "single-node job and is missing the overlap flags, so I'd add --overlap-grad-reduce and "
                      "--overlap-param-gather, so gradients get reduce-scattered bucket by bucket while backward is "
                      "still running and the param all-gather hides under the next forward. Maybe tune the bucket "
                      "size after that. To know it worked, I'd take another profile and expect that 27% block to "
                      "mostly disappear, and the step time to drop toward 10 s.", RIGHT),
    (EXPOSED, "next", "开 overlap（--overlap-grad-reduce、--overlap-param-gather），bucket size 调一下；再 profile "
                      "一次，看 NCCL kernel 是不是跟 backward 同时跑，step time 降下来。", RIGHT),
    (EXPOSED, "next", "Missing overlap flags: turn both on, then re-measure MFU.", RIGHT),
    (EXPOSED, "next", "Don't bother with tp-comm-overlap; just measure MFU again.", WRONG),
    (EXPOSED, "next", "不是网络的问题；重新测一下 MFU。", WRONG),
    (EXPOSED, "next", "Turn on overlap for the DP reduce-scatter and all-gather, then measure MFU again.", RIGHT),
    (EXPOSED, "next", "打开 overlap，再重新测 MFU，trace 里 NCCL 应该和 backward 并行。", RIGHT),
    (EXPOSED, "next", "Turn on overlap between the pipeline stages to shrink the 7% bubble, then re-measure "
                      "MFU.", WRONG),
    (EXPOSED, "next", "Enable interleaved 1F1B so the bubble overlaps the reduce-scatter; re-measure MFU.", WRONG),
    (EXPOSED, "next", "不用开 overlap，把 bucket 调大就行，然后再录一次 trace 看 NCCL 变短。", WRONG),
    (EXPOSED, "next", "TP 没问题；再测 MFU。", WRONG),
    (EXPOSED, "next", "nccl-tests 达标说明网络没问题，所以通信也不是瓶颈；重新测 MFU 确认。", WRONG),
    # TP named as not the cause, beside the right fix
    (EXPOSED, "next", "TP is inside the node, so it's not TP; turn on --overlap-grad-reduce and "
                      "--overlap-param-gather, re-measure MFU.", RIGHT),
    (EXPOSED, "next", "Add the overlap flags: this is exposed DP traffic, TP traffic stays in the node. New trace: "
                      "NCCL beside backward, step time down.", RIGHT),
    (EXPOSED, "next", "Enable --overlap-grad-reduce so the reduce-scatter hides under backward (TP overlap wouldn't "
                      "help, TP is intra-node); check in a new trace that NCCL runs beside backward.", RIGHT),
    (EXPOSED, "next", "The network is fine, nccl-tests are at rated bandwidth; overlap is simply off. Turn on both "
                      "overlap flags and re-measure MFU.", RIGHT),
    (EXPOSED, "next", "Turn on --overlap-grad-reduce and --overlap-param-gather; the 7% pipeline bubble is a separate "
                      "matter. Re-measure MFU.", RIGHT),
    # debug-launch-bound: accepted before were the GEMMs or HBM denied as the cause, the tools turned
    # off, the tools' "off" denied, the hedge, and fusion of the collectives or of anything
    (LAUNCH, "next", "nvidia-smi reads 100%, so the GPU is saturated; the gaps must be NCCL, so turn on overlap and "
                     "re-measure MFU.", WRONG),
    (LAUNCH, "next", "The GEMMs aren't the problem; measure MFU again.", WRONG),
    (LAUNCH, "next", "HBM bandwidth isn't the bottleneck; profile again after the change.", WRONG),
    (LAUNCH, "next", "Add more DataLoader workers and prefetch so the GPU gets data faster, then check the gaps "
                     "disappear.", WRONG),
    (LAUNCH, "next", "Use a smaller micro-batch so each kernel is shorter and there are more of them to pipeline; "
                     "re-measure MFU.", WRONG),
    (LAUNCH, "next", "Disable torch.compile and CUDA Graphs, since they add compile overhead every step, then measure "
                     "step time again.", WRONG),
    (LAUNCH, "next", "CUDA graphs, torch.compile, micro-batch, item, MFU.", WRONG),
    (LAUNCH, "next", "Maybe CUDA Graphs, maybe not — it could just as well be memory-bound; re-measure MFU.", WRONG),
    (LAUNCH, "next", "kernel 太小说明是 memory-bound，应该换更快的 HBM 或者用 FP8 减少访存；再测 MFU。", WRONG),
    (LAUNCH, "next", "The CPU is the bottleneck, so move to nodes with faster CPUs and more cores per GPU, then "
                     "re-measure MFU.", WRONG),
    (LAUNCH, "next", "Remove the loss.item() in the logging and re-measure MFU.", WRONG),
    (LAUNCH, "next", "Fuse the NCCL all-reduces into one big bucket and re-measure MFU.", WRONG),
    (LAUNCH, "next", "Spread it over 128 GPUs so each one has less work per step; check MFU again.", WRONG),
    (LAUNCH, "next", "用 CUDA Graphs 没用，kernel launch 不是瓶颈，瓶颈是 GEMM 太慢；重新测 MFU。", WRONG),
    (LAUNCH, "next", "Launch-bound: CUDA Graphs / torch.compile to cut launches, bigger micro-batch, drop the "
                     "per-step .item(); re-measure MFU, the gaps should vanish.", RIGHT),
    (LAUNCH, "next", "这是 launch-bound：用 CUDA Graphs 和 torch.compile 把小 kernel 融合、减少发射次数，loss 每 N "
                     "步才打印一次，不要每步 .item()；改完重新测 MFU，kernel 之间的空隙应该消失。", RIGHT),
    (LAUNCH, "next", "Looking at it, the kernels are tiny, most under 20 µs, and there are gaps of a few µs between "
                     "them while the CPU is launching non-stop, so the GPU is basically waiting on the Python and "
                     "launch overhead; nvidia-smi's 100% is misleading here. I'd wrap the step in CUDA Graphs, or "
                     "torch.compile with reduce-overhead mode, which captures graphs, and fuse the elementwise ops, "
                     "and since the micro-batch is 1, bump it to 4 or 8 so each kernel has more work. Also get rid of "
                     "the loss.item() every step and log every 50 steps. Then re-profile: the gaps between kernels "
                     "should mostly be gone and MFU should go up.", RIGHT),
    (LAUNCH, "next", "先上 torch.compile + CUDA graphs 减少 kernel launch，micro-batch 从 1 加到 8；再跑一次 "
                     "profiler，看空隙是不是没了，MFU 上去。", RIGHT),
    (LAUNCH, "next", "Cut kernel launches with CUDA Graphs, then measure MFU again.", RIGHT),
    (LAUNCH, "next", "Don't disable torch.compile; measure MFU again.", WRONG),
    (LAUNCH, "next", "Fuse the loss.item() into the backward and re-measure MFU.", WRONG),
    (LAUNCH, "next", "GEMM 不慢，再测一次 MFU。", WRONG),
    (LAUNCH, "next", "micro-batch 调小到 1 以下不行，那就关掉 CUDA graph 再测 MFU。", WRONG),
    (LAUNCH, "next", "瓶颈是 GEMM，开 torch.compile 也没用；再测 MFU。", WRONG),
    # "turn off" beside the tools, about something else; the other causes denied
    (LAUNCH, "next", "Turn off per-step logging and turn on CUDA graphs; re-measure MFU, the gaps should "
                     "shrink.", RIGHT),
    (LAUNCH, "next", "It's not memory-bound or GEMM-bound, it's launch overhead: torch.compile with reduce-overhead "
                     "mode, then measure MFU again.", RIGHT),
    (LAUNCH, "next", "Use CUDA Graphs to launch the whole step at once; NCCL is only 5%, leave it. Check MFU again "
                     "after.", RIGHT),
    (LAUNCH, "next", "torch.compile to fuse the elementwise kernels, plus CUDA graphs; then re-measure MFU.", RIGHT),
    (LAUNCH, "next", "把小 kernel 融合成大 kernel（算子融合），减少 launch 次数；再测 MFU，空隙应该变小。", RIGHT),
    # debug-straggler: accepted before were the network denied as the cause, the hedge, and the trace
    # read backwards (213 taken for the healthy rank, ranks 0 and 212 replaced), and a
    # network part of the node replaced
    (STRAGGLER, "next", "The network is not the problem; measure MFU again.", WRONG),
    (STRAGGLER, "next", "NCCL 不是瓶颈，重新测一下 MFU。", WRONG),
    (STRAGGLER, "next", "The reduce-scatter is too slow: turn on overlap so it hides under backward, then re-measure "
                        "MFU.", WRONG),
    (STRAGGLER, "next", "Rank 213 is the fastest — it spends 92% computing and barely waits — so the others are slow; "
                        "replace the nodes of ranks 0 and 212 and re-measure.", WRONG),
    (STRAGGLER, "next", "Raise the NCCL timeout so the other ranks don't fail while they wait for rank 213, then "
                        "check MFU again.", WRONG),
    (STRAGGLER, "next", "Restart the job from the checkpoint on the same nodes so the clocks reset, then measure MFU "
                        "again.", WRONG),
    (STRAGGLER, "next", "Replace the InfiniBand switch on rank 213's rack and re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Could be rank 213's node, could be the network; maybe replace the node, maybe not — "
                        "re-measure MFU.", WRONG),
    (STRAGGLER, "next", "per-rank step times, DCGM, throttling, Xid, replace node, MFU.", WRONG),
    (STRAGGLER, "next", "网络太慢，reduce-scatter 在等数据；升级交换机，再测 MFU。", WRONG),
    (STRAGGLER, "next", "rank 213 没问题，它计算占 92% 说明它最快；把 rank 0 和 212 那两台换掉，再重新测 "
                        "MFU。", WRONG),
    (STRAGGLER, "next", "Give rank 213 a smaller share of the batch so it keeps up, then re-measure step "
                        "time.", WRONG),
    (STRAGGLER, "next", "Lower the clocks on all the other GPUs to match rank 213 so nobody waits; check the wait "
                        "shrinks.", WRONG),
    (STRAGGLER, "next", "Drain rank 212's node and restart from the checkpoint; re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Straggler: compare per-rank step times, check 213's node for thermal or power throttling "
                        "(DCGM, Xid), drain it and resume from the checkpoint on a spare; MFU should recover and the "
                        "reduce-scatter waits shrink.", RIGHT),
    (STRAGGLER, "next", "先对比所有 rank 的 step time，确认就是 rank 213 那台机器；查它的 GPU "
                        "频率、温度和功耗降频、Xid/ECC 报错；然后把这台机器下线，换备用节点从 checkpoint "
                        "续训。最后重新测 MFU，其他 rank 在 reduce-scatter 里的等待应该变短。", RIGHT),
    (STRAGGLER, "next", "So the tell here is that everybody's 24% inside the reduce-scatter is really just waiting "
                        "for 213, which is computing at 92%, and its clocks are low under load, so it's a hardware "
                        "issue on that one node, probably thermal or power throttling, not the network at all. I'd "
                        "first confirm by looking at per-rank step times across all 512 ranks to make sure it's only "
                        "that node, then pull its nvidia-smi -q and DCGM health and check for Xid errors. Then I'd "
                        "cordon that node, bring up a spare, and restart from the last checkpoint. To know it worked: "
                        "the step time should go back to last week's number and the reduce-scatter wait on the other "
                        "ranks should drop to near zero.", RIGHT),
    (STRAGGLER, "next", "把 rank 213 那台 node 踢掉，换 spare node 从 checkpoint 重启；之后再测 MFU，看 "
                        "reduce-scatter 的等待是不是降下来了。", RIGHT),
    (STRAGGLER, "next", "Replace the throttling node and re-measure: the other ranks' wait in the reduce-scatter "
                        "should drop.", RIGHT),
    (STRAGGLER, "next", "Swap the NIC on rank 213's node and re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Replace the network cables on 213's host, then measure MFU again.", WRONG),
    (STRAGGLER, "next", "网络没问题，再测 MFU。", WRONG),
    (STRAGGLER, "next", "把 rank 0 那台机器换掉，再测 MFU。", WRONG),
    (STRAGGLER, "next", "可能是网络，也可能是 213 那台；先换网卡，再测 MFU。", WRONG),
    # ranks 0 and 212 named as the ones whose wait shrinks, not replaced
    (STRAGGLER, "next", "It's not the network — likely thermal or power throttling on 213's node; drain it, restart "
                        "from the checkpoint on a spare, re-measure MFU.", RIGHT),
    (STRAGGLER, "next", "Swap rank 213's node for a spare and resume from the checkpoint; the waiting ranks 0 and 212 "
                        "should drop to about 1% wait, measure MFU again.", RIGHT),
    (STRAGGLER, "next", "rank 213 那台降频了，把它下线，换备机从 checkpoint 恢复；再测 MFU，rank 0 和 212 "
                        "的等待应该降到很小。", RIGHT),
    (STRAGGLER, "next", "Replace 213's node; afterwards rank 0 and rank 212 should stop waiting in the "
                        "reduce-scatter; re-measure MFU to confirm.", RIGHT),
    (STRAGGLER, "next", "It could be the switches too; drain 213's node and re-measure MFU.", WRONG),
    (STRAGGLER, "next", "Its clocks are low, so it's the GPUs and not the NIC: drain the node, resume from the "
                        "checkpoint on a spare, re-measure MFU.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
