"""The mock interview's own open steps, answered as candidates type them (issue 14).

The 22 open steps of interview/*.yaml (the follow-ups, the debug scenarios' `next` steps, the hang
scenarios' `why` and `fix` steps, the pitch, the blank-page design, the behavioural story) are graded
by their rubrics alone. Each case was written from what the mock shows (prompt, numbers, exhibits),
wrong answers first: at least four strong answers a step (English, Chinese typed without spaces
around code words, terse shorthand, casual lower case) and four wrong ones (a partial answer that
misses the main reason, a bare list of terms, a negated answer, a fluent wrong one), then the
question pasted back and off-topic text. These are the dev set the rubrics were tuned on; the blind
batch (tests/grading/labelled/blind_*.yaml) is never read to write them.

Each case: (question id, step id or None for a one-step question, answer, right). One grading per
case, a few milliseconds each.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade



RIGHT, WRONG = True, False

MOCK_CASES = [
    # ---------------------------------------------------------------- behavioural-hang-story
    ("behavioural-hang-story", None, "On a 512-GPU pre-training run the job hung at step 20,000 and the NCCL watchdog "
     "timed out after 30 minutes. I took py-spy dumps of every rank and compared them: all ranks sat in the gradient "
     "all-reduce except rank 37, which was in a barrier in the eval code. The root cause was uneven batches: rank 37's "
     "shard had one batch fewer. We fixed the sampler with drop_last and the job ran again the same day; we had lost "
     "about 6 hours. Afterwards we added a test that checks every rank gets the same number of batches.", RIGHT),
    ("behavioural-hang-story", None, "我们一个256卡的预训练任务在第18000步卡住，半小时后报NCCL timeout。我用py-spy把每个rank的调用栈都dump"
     "下来对比，发现只有rank 0停在checkpoint里的all_gather，其余rank都在梯度all-reduce里等。根因是这个gather写在if rank==0里，"
     "只有rank 0调用。把它挪出分支当天就修好了，之前损失了大概10个小时。之后我们默认打开了flight recorder，还加了一个测试专门跑存档路径。",
     RIGHT),
    ("behavioural-hang-story", None, "70B run on 1k GPUs hung at step 9000, NCCL timeout. Dumped stacks of all ranks "
     "w/ py-spy: 1023 ranks in allreduce, r17 stuck in a send. Cause: a bad IB link on r17's node (flight recorder "
     "confirmed). Drained the node, resumed from ckpt, lost ~4 hours. Added nccl-tests to the node health check and "
     "an alert on per-rank step time.", RIGHT),
    ("behavioural-hang-story", None, "so we had a 128 gpu finetune that froze at step 3000 every time and then timed "
     "out. i ran py-spy on every rank and saw rank 5 was gone, its log said cuda oom on a really long batch. the cause "
     "was a rank that died from oom and nothing killed the job. we capped the sequence length and it ran again, took "
     "me about 2 hours. after that we switched to torchrun and added an alert for dead ranks", RIGHT),
    ("behavioural-hang-story", None, "Our job hung with an NCCL timeout at step 5000 on 64 GPUs. We raised the timeout "
     "to two hours and the job went through; it cost us a day.", WRONG),
    ("behavioural-hang-story", None, "NCCL timeout, py-spy, flight recorder, rank 0, all_gather, checkpoint, drop_last, "
     "runbook", WRONG),
    ("behavioural-hang-story", None, "I have never had a job hang; we did not dump any stacks and never looked at the "
     "ranks, and nothing changed afterwards.", WRONG),
    ("behavioural-hang-story", None, "Once a 256-GPU job hung at step 40,000. I figured the network was just slow, so "
     "we rebooted all the nodes and restarted it, and after that it worked. We never found out why.", WRONG),
    ("behavioural-hang-story", None, "A 256-GPU job hung at step 40,000 with an NCCL timeout. It turned out only rank 0 "
     "called the all_gather in the checkpoint code. Someone fixed it.", WRONG),
    ("behavioural-hang-story", None, "有一次任务hang了，报了NCCL timeout。我们把timeout调大到两个小时，后来就没再报错了。", WRONG),

    # ---------------------------------------------------------------- debug-data-loading / next
    ("debug-data-loading", "next", "It's input-bound: the GPU idles 41% of the step waiting in __next__ while the "
     "workers tokenize. I would pre-tokenize and pack the dataset offline so the loader only reads tensors, and raise "
     "num_workers with pin_memory and prefetching. To know it worked: a new trace should show the idle stretch before "
     "the first forward kernel gone, and step time should drop from 17 s toward 10 s with MFU up accordingly.", RIGHT),
    ("debug-data-loading", "next", "先用synthetic data跑几步，如果空等的41%消失，就确认是DataLoader的问题。然后离线提前tokenize并打包数据，"
     "再加num_workers、开pin_memory和prefetch。改完重新profile，看第一个forward之前的空白没了，step time降下来，MFU上去。", RIGHT),
    ("debug-data-loading", "next", "Confirm w/ synthetic batches -> idle gap should vanish. Fix: tokenize offline, more "
     "workers + prefetch_factor. Verify: re-profile, idle <5%, step time ~10 s, MFU up.", RIGHT),
    ("debug-data-loading", "next", "first i'd swap in random data to prove it's the loader, then move the tokenization "
     "offline and bump the number of dataloader workers. after that i'd measure mfu again and check the gap at the "
     "start of the step is gone", RIGHT),
    ("debug-data-loading", "next", "I would measure MFU again and take another profile to see how the step time "
     "breaks down.", WRONG),
    ("debug-data-loading", "next", "synthetic data, num_workers, pin_memory, prefetch, offline tokenize, MFU", WRONG),
    ("debug-data-loading", "next", "I would not add DataLoader workers or tokenize offline; synthetic data would not "
     "change anything here.", WRONG),
    ("debug-data-loading", "next", "The NCCL all-reduce is the bottleneck, so I'd turn on overlap of the gradient "
     "reduce with backward and tune the bucket size, then measure MFU again.", WRONG),
    ("debug-data-loading", "next", "数据加载是瓶颈。我会把global batch调大一点，让GPU多算一些，然后重新测一下MFU。", WRONG),

    # ---------------------------------------------------------------- debug-exposed-communication / next
    ("debug-exposed-communication", "next", "Communication is exposed: overlap is off, so the reduce-scatter and "
     "all-gather run after backward with nothing beside them. Turn on --overlap-grad-reduce and --overlap-param-gather "
     "so gradients are reduce-scattered bucket by bucket during backward and params gathered during forward. The "
     "fabric is fine (nccl-tests at rated bandwidth). Then take a new trace: the NCCL kernels should run beside the "
     "backward kernels, the 27% should mostly disappear and step time drop toward 10 s.", RIGHT),
    ("debug-exposed-communication", "next", "打开--overlap-grad-reduce和--overlap-param-gather，让reduce-scatter在backward期间按bucket做，"
     "all-gather和forward重叠。网络本身没问题，nccl-tests达标。改完再录一次trace，确认NCCL kernel和backward kernel并行，step time下降，"
     "再测MFU。", RIGHT),
    ("debug-exposed-communication", "next", "Add --overlap-grad-reduce --overlap-param-gather -> RS/AG hidden under "
     "bwd/fwd. Network's fine per nccl-tests. Check: new trace, NCCL overlaps compute, step time 13 s -> ~10 s.", RIGHT),
    ("debug-exposed-communication", "next", "the script never turned on overlap, so i'd add the overlap grad reduce "
     "and overlap param gather flags so the comms hide behind backward. then profile again and make sure the nccl "
     "kernels now sit next to the compute and the step gets faster", RIGHT),
    ("debug-exposed-communication", "next", "I would tune the bucket size a bit and check the network with nccl-tests "
     "again.", WRONG),
    ("debug-exposed-communication", "next", "overlap, buckets, reduce-scatter, all-gather, nccl-tests, MFU, trace", WRONG),
    ("debug-exposed-communication", "next", "Overlap would not help here; the communication cannot be hidden behind "
     "backward, so I would not turn it on.", WRONG),
    ("debug-exposed-communication", "next", "The InfiniBand fabric is the bottleneck: the reduce-scatter is slow "
     "because the network is too slow. I'd upgrade the links or move DP inside the node, then re-measure.", WRONG),
    ("debug-exposed-communication", "next", "通信太慢是因为网络带宽不够，我会换更快的InfiniBand，然后重新测MFU。", WRONG),

    # ---------------------------------------------------------------- debug-launch-bound / next
    ("debug-launch-bound", "next", "It's launch-bound: thousands of tiny kernels and the CPU can't issue them fast "
     "enough, so the GPU sits in small gaps. I'd capture the step in CUDA Graphs or use torch.compile to fuse kernels, "
     "raise the micro-batch from 1 so each kernel does more work, and log the loss every 100 steps instead of calling "
     ".item() every step. It worked if the gaps between kernels disappear in a new trace and MFU goes up.", RIGHT),
    ("debug-launch-bound", "next", "这是launch-bound：kernel太小，CPU发射跟不上。用CUDA Graph或者torch.compile做kernel融合，减少launch次数；"
     "micro-batch从1调大；loss别每步.item()，改成每100步打印一次。改完重新录trace，看kernel之间的空隙没了、MFU上去。", RIGHT),
    ("debug-launch-bound", "next", "CUDA graphs / torch.compile to cut launches, bigger micro-batch, drop the per-step "
     "loss.item() sync. Verify: re-profile, gaps gone, MFU up.", RIGHT),
    ("debug-launch-bound", "next", "the cpu can't keep up launching kernels, so i'd fuse them with torch.compile and "
     "wrap the step in a cuda graph, and stop syncing on loss.item() every step. then measure mfu again to see the "
     "gaps shrink", RIGHT),
    ("debug-launch-bound", "next", "Remove the loss.item() call from the logging code and measure MFU again.", WRONG),
    ("debug-launch-bound", "next", "CUDA graphs, torch.compile, fusion, micro-batch, item, MFU", WRONG),
    ("debug-launch-bound", "next", "CUDA Graphs and torch.compile would not reduce anything here, and a bigger "
     "micro-batch does not help either.", WRONG),
    ("debug-launch-bound", "next", "The data loader is the bottleneck, so I would add more DataLoader workers and "
     "tokenize offline, then measure MFU again.", WRONG),
    ("debug-launch-bound", "next", "通信没盖住，我会打开梯度all-reduce和backward的overlap，调大bucket，然后再测MFU。", WRONG),

    # ---------------------------------------------------------------- debug-straggler / next
    ("debug-straggler", "next", "Rank 213 is a straggler: everyone else waits for it in the reduce-scatter. I'd "
     "compare per-rank step times to confirm it's only that node, check its GPUs with nvidia-smi -q and DCGM for "
     "clock throttling (power or thermal), Xid and ECC errors, then drain the node, swap in a spare and restart from "
     "the last checkpoint. It worked when step time is back to last week's and the reduce-scatter waits on the other "
     "ranks shrink to a few percent.", RIGHT),
    ("debug-straggler", "next", "是rank 213拖慢了所有人。先对比所有rank的step time确认只有这台机器慢，再查它的GPU频率、功耗和温度降频、Xid、ECC。"
     "然后把这台机器下线，换一台备用节点，从checkpoint重启。重新测MFU，其他rank在reduce-scatter里的等待应该从24%降下来。", RIGHT),
    ("debug-straggler", "next", "Straggler = r213's node (low clocks). Confirm via per-rank step times, check "
     "throttling/Xid/ECC, cordon + replace node, resume from ckpt. Verify: RS wait on others 24% -> ~1%, step time back "
     "to last week.", RIGHT),
    ("debug-straggler", "next", "rank 213's node is throttling, so i'd pull that node out of the job and restart on a "
     "healthy one from the checkpoint, after checking its clocks and thermals. then check the step time is back to "
     "normal and the others stop waiting in the reduce-scatter", RIGHT),
    ("debug-straggler", "next", "I would compare the step times of all ranks to confirm that rank 213 is the slow one.",
     WRONG),
    ("debug-straggler", "next", "rank 213, throttling, clocks, Xid, ECC, drain, replace, checkpoint, MFU", WRONG),
    ("debug-straggler", "next", "I wouldn't replace the node or drain it; rank 213 is not the problem.", WRONG),
    ("debug-straggler", "next", "Every rank waits in the reduce-scatter, so it's exposed communication: turn on "
     "gradient reduce overlap and bigger buckets, and tune NCCL, then measure MFU again.", WRONG),
    ("debug-straggler", "next", "所有rank都在reduce-scatter里等，说明网络太慢了。我会调NCCL参数、换更快的网卡，然后重新测MFU。", WRONG),

    # ---------------------------------------------------------------- followup-why-not-more-pp
    ("followup-why-not-more-pp", None, "Doubling PP doubles the bubble (p-1)/m unless you also double the "
     "micro-batches, and m is capped by the global batch; more stages also means more point-to-point hops and a more "
     "uneven first stage with the embedding.", RIGHT),
    ("followup-why-not-more-pp", None, "PP翻倍以后bubble就是(p-1)/m，global batch不变的话m不会跟着变大，bubble直接变大；第一个stage还要存p个"
     "micro-batch的activation，省不了多少显存；stage多了也更难均衡，点对点传输更多。", RIGHT),
    ("followup-why-not-more-pp", None, "2x PP -> bubble (p-1)/m grows, m fixed by global batch. First stage still holds "
     "p microbatches of acts. More p2p hops, harder to balance.", RIGHT),
    ("followup-why-not-more-pp", None, "because the pipeline bubble gets bigger with more stages when the global batch "
     "is fixed, and the first stage still keeps activations for p micro batches so memory doesn't drop much", RIGHT),
    ("followup-why-not-more-pp", None, "Doubling PP does not make the bubble bigger; it is free.", WRONG),
    ("followup-why-not-more-pp", None, "PP bubble doubles stages micro-batches hops embedding", WRONG),
    ("followup-why-not-more-pp", None, "More stages make the stages harder to balance around the embedding and add "
     "point-to-point hops.", WRONG),
    ("followup-why-not-more-pp", None, "More PP stages would actually be better: each stage holds fewer layers, so the "
     "activations shrink by p as well and there is no real downside.", WRONG),
    ("followup-why-not-more-pp", None, "PP多切几段其实没有代价，bubble不会变大，反而显存更省。", WRONG),

    # ---------------------------------------------------------------- followup-why-not-fsdp
    ("followup-why-not-fsdp", None, "FSDP all-gathers every layer's weights over the whole DP group each step; at "
     "thousands of GPUs that is too much traffic over IB and the batch per GPU gets too small. TP keeps the heavy "
     "traffic on NVLink, PP only sends activations between nodes", RIGHT),
    ("followup-why-not-fsdp", None, "FSDP每一步都要all gather每层的权重，几千张卡的时候跨机通信太多；而且global batch分到每张卡上太少了。"
     "TP的通信放机内NVLink，PP只在机间传activation", RIGHT),
    ("followup-why-not-fsdp", None, "Pure FSDP => every GPU is a DP rank; global batch / 8k ranks = too few tokens per "
     "GPU to hide the per-layer weight all-gathers (~1.5x DDP bytes, across nodes). TP+PP shrink DP so each rank gets "
     "more tokens.", RIGHT),
    ("followup-why-not-fsdp", None, "with fsdp alone every gpu is a data parallel rank, and the global batch split over "
     "thousands of them leaves too few tokens per gpu, so the weight all gathers can't hide behind compute. tp and pp "
     "cut the dp degree. for a small model fsdp is fine", RIGHT),
    ("followup-why-not-fsdp", None, "FSDP all gather weights traffic IB global batch per GPU", WRONG),
    ("followup-why-not-fsdp", None, "The global batch is too small per GPU with thousands of DP ranks. FSDP doesn't "
     "gather the weights, the traffic is the same as DDP.", WRONG),
    ("followup-why-not-fsdp", None, "FSDP is just slower to code up, and TP and PP are what Megatron uses, so we go "
     "with what is known to work.", WRONG),
    ("followup-why-not-fsdp", None, "The global batch is not a limit and the all-gathers do not add traffic; FSDP "
     "would be just as fast.", WRONG),
    ("followup-why-not-fsdp", None, "FSDP不增加通信，和DDP一样的通信量，所以问题不在通信，主要是代码复杂。", WRONG),

    # ---------------------------------------------------------------- followup-why-not-bigger-tp
    ("followup-why-not-bigger-tp", None, "A node has eight GPUs on NVLink. TP 16 spans two nodes, so its all-reduces, "
     "several per layer on the critical path, would go over InfiniBand at about a ninth of NVLink's bandwidth. The "
     "GEMMs also get thinner, and with 8 KV heads TP 16 would have to replicate them. PP is the cheap way across "
     "nodes.", RIGHT),
    ("followup-why-not-bigger-tp", None, "一台机器只有8张卡走NVLink，TP16就要跨两台机器，每层的all-reduce都得走InfiniBand，带宽慢九倍左右；"
     "GEMM也会变窄，8个KV head也不够分。跨机用PP更便宜。", RIGHT),
    ("followup-why-not-bigger-tp", None, "TP16 = 2 nodes -> per-layer ARs over IB (~9x slower than NVLink). Thinner "
     "GEMMs, 8 KV heads can't split 16 ways. PP across nodes is cheaper.", RIGHT),
    ("followup-why-not-bigger-tp", None, "tp 16 would cross the node boundary, and tp's all reduces every layer would "
     "then run over infiniband instead of nvlink, which is way slower. pp only sends activations at stage boundaries "
     "so it's the one that should go across nodes", RIGHT),
    ("followup-why-not-bigger-tp", None, "With TP 16 the GEMMs get thinner, so there is less compute per byte.", WRONG),
    ("followup-why-not-bigger-tp", None, "TP 16, NVLink, InfiniBand, GEMM, KV heads, PP", WRONG),
    ("followup-why-not-bigger-tp", None, "TP 16 would not leave the node and would not touch InfiniBand, so it's fine.",
     WRONG),
    ("followup-why-not-bigger-tp", None, "TP 16 is fine as long as InfiniBand is fast; the only issue is that 16 does "
     "not divide the hidden size, so the matrices would be padded.", WRONG),
    ("followup-why-not-bigger-tp", None, "TP16其实可以，跨机也没问题，主要是PP太小的话bubble会变大。", WRONG),

    # ---------------------------------------------------------------- followup-when-cp-pays-off
    ("followup-when-cp-pays-off", None, "CP pays off when the sequence is long enough that activations don't fit even "
     "with TP and recompute, like 128K tokens; at 8K the attention all-gather of KV costs more than it saves, so use "
     "CP 1.", RIGHT),
    ("followup-when-cp-pays-off", None, "序列很长的时候才划算，比如128K，activation在TP 8加重计算之后还放不下，CP把序列切开，每个rank只存一段。"
     "代价是CP rank之间要交换KV（ring attention）；序列短的时候attention计算太少，藏不住这部分通信，开CP只会变慢。", RIGHT),
    ("followup-when-cp-pays-off", None, "Long seq (64K+) where acts don't fit even w/ TP8 + recompute -> CP splits the "
     "sequence. Cost: KV exchange (ring attn), hidden behind attention compute. Short seq (4K): can't hide it -> "
     "waste.", RIGHT),
    ("followup-when-cp-pays-off", None, "when the context is really long and activation memory blows up even with tp "
     "and recompute, cp splits the sequence across ranks. at short sequences the kv passing isn't hidden by attention "
     "so it just slows you down", RIGHT),
    ("followup-when-cp-pays-off", None, "CP never pays off at 8K or at 128K; it only adds KV traffic.", WRONG),
    ("followup-when-cp-pays-off", None, "CP, long sequence, ring attention, KV, DP x CP, short sequence", WRONG),
    ("followup-when-cp-pays-off", None, "CP costs an exchange of K/V between the ranks, which has to hide behind the "
     "attention compute.", WRONG),
    ("followup-when-cp-pays-off", None, "CP pays off for short sequences with a big batch, because it splits the batch "
     "across ranks; for long sequences it is a waste.", WRONG),
    ("followup-when-cp-pays-off", None, "序列短的时候开CP最划算，长序列反而是白费。", WRONG),

    # ---------------------------------------------------------------- followup-why-tp-in-node
    ("followup-why-tp-in-node", None, "TP communicates inside every layer, forward and backward, and those "
     "all-reduces sit on the critical path, so they can't be overlapped well. Inside a node NVLink gives about 450 "
     "GB/s per GPU versus about 50 on InfiniBand, so across nodes every layer would stall. That's why TP stays at 8 "
     "within the node.", RIGHT),
    ("followup-why-tp-in-node", None, "TP每一层都要通信，在关键路径上；NVLink比InfiniBand快十倍左右；一台机器8张卡，所以TP最多8；跨机的话"
     "这些通信藏不住。", RIGHT),
    ("followup-why-tp-in-node", None, "TP = 2 ARs/layer fwd + 2 bwd, blocking. NVLink ~450 GB/s vs IB ~50 -> only fast "
     "enough inside the 8-GPU node.", RIGHT),
    ("followup-why-tp-in-node", None, "because tp does an all reduce in every layer on the critical path, and nvlink "
     "inside the node is roughly ten times faster than infiniband between nodes. across nodes each layer would wait "
     "on the network", RIGHT),
    ("followup-why-tp-in-node", None, "TP doesn't communicate every layer and NVLink isn't faster.", WRONG),
    ("followup-why-tp-in-node", None, "TP, every layer, NVLink, InfiniBand, 8 GPUs, critical path", WRONG),
    ("followup-why-tp-in-node", None, "Because NVLink is about ten times faster than InfiniBand.", WRONG),
    ("followup-why-tp-in-node", None, "TP only communicates once per step, at the end of backward, so it could go "
     "across nodes; we keep it inside the node only because the node has eight GPUs.", WRONG),
    ("followup-why-tp-in-node", None, "TP每个step只通信一次，其实跨机也可以，放机内只是习惯。", WRONG),

    # ---------------------------------------------------------------- followup-why-m-4p
    ("followup-why-m-4p", None, "The 1F1B bubble is (p-1)/m of the ideal step, so more micro-batches shrink it; at "
     "m = 4p it is just under a quarter. Interleaving with v chunks divides it by v. But m is the global batch over DP "
     "times the micro-batch, so the global batch caps how big m can get.", RIGHT),
    ("followup-why-m-4p", None, "1F1B的bubble占比是(p-1)/m，m越大bubble越小；m=4p时bubble不到四分之一。interleave每卡v个chunk还能再除以v。"
     "但m等于global batch除以DP乘micro-batch，所以global batch限制了m。", RIGHT),
    ("followup-why-m-4p", None, "bubble = (p-1)/m -> m=4p keeps it <25%. Interleaved /v. m = GBS/(DP*mbs), so GBS caps "
     "it.", RIGHT),
    ("followup-why-m-4p", None, "the pipeline bubble is (p - 1)/m, so with at least 4p micro-batches it stays below "
     "about a quarter of the step. fewer micro-batches and the stages sit idle more", RIGHT),
    ("followup-why-m-4p", None, "Because the global batch limits m: m = global batch / (DP x micro-batch).", WRONG),
    ("followup-why-m-4p", None, "bubble, (p-1)/m, quarter, interleaving, global batch", WRONG),
    ("followup-why-m-4p", None, "The bubble does not shrink with more micro-batches; m only matters for memory.", WRONG),
    ("followup-why-m-4p", None, "Four micro-batches per stage are needed so that each stage has enough activation "
     "memory to run backward; with fewer the stage runs out of memory.", WRONG),
    ("followup-why-m-4p", None, "m≥4p是为了显存够用，每个stage要存4个micro-batch才能做backward。", WRONG),

    # ---------------------------------------------------------------- followup-nvidia-smi
    ("followup-nvidia-smi", None, "nvidia-smi's utilization is only the fraction of time some kernel was running, not "
     "how much of the GPU it used. A stream of tiny or memory-bound kernels reads 100% while the tensor cores mostly "
     "idle. MFU counts useful model FLOPs against the peak, so trust MFU and look at a profiler trace.", RIGHT),
    ("followup-nvidia-smi", None, "nvidia-smi的utilization只是有kernel在跑的时间占比，不代表算力用满了。一堆很小的或memory-bound的kernel也能"
     "显示100%，tensor core其实大部分时间闲着。MFU是有效FLOPs对比峰值，该看MFU，再用profiler看原因。", RIGHT),
    ("followup-nvidia-smi", None, "util% = share of time any kernel is active, not SM/tensor-core usage. Tiny/memory-"
     "bound kernels -> 100% util, low FLOPs. MFU = useful FLOPs / peak; trust that + a trace.", RIGHT),
    ("followup-nvidia-smi", None, "nvidia smi just says a kernel was running during the sample period, it doesn't say "
     "how much of the chip that kernel used. small memory bound kernels keep it at 100% while the tensor cores sit "
     "idle, so mfu is what you trust", RIGHT),
    ("followup-nvidia-smi", None, "MFU measures the useful FLOPs against the peak, so look at MFU and a profiler "
     "trace.", WRONG),
    ("followup-nvidia-smi", None, "utilization, kernel, tensor cores, MFU, FLOPs, profiler", WRONG),
    ("followup-nvidia-smi", None, "Utilization is not the share of time a kernel runs; nvidia-smi does measure how "
     "much of the GPU is used.", WRONG),
    ("followup-nvidia-smi", None, "nvidia-smi shows the tensor core efficiency, so 100% means the GPU is fully used; "
     "the MFU number must be computed wrong.", WRONG),
    ("followup-nvidia-smi", None, "nvidia-smi的利用率就是算力利用率，100%说明GPU用满了，是MFU算错了。", WRONG),

    # ---------------------------------------------------------------- followup-moving-hang
    ("followup-moving-hang", None, "A hang that moves is much more likely hardware or the network than code or data. "
     "I'd still find the missing rank with the flight recorder and py-spy, map it to its node and see if the same "
     "node shows up across runs. Then test it directly: nccl-tests between node pairs, Xid and ECC errors, "
     "NCCL_DEBUG=INFO, and drain the bad node and restart from the checkpoint.", RIGHT),
    ("followup-moving-hang", None, "每次hang的step都不一样，更像是硬件或网络问题，不是代码或数据。还是先用flight recorder和py-spy找到缺席的"
     "rank，对应到机器，看几次是不是同一台。然后两两节点跑nccl-tests，查Xid和ECC，最后把坏节点下线，从checkpoint恢复。", RIGHT),
    ("followup-moving-hang", None, "Moving hang -> suspect HW/network, not code. Find the absent rank (flight recorder), "
     "map to host, look for a common node across runs; nccl-tests on node pairs, check Xid/ECC; cordon it, resume.",
     RIGHT),
    ("followup-moving-hang", None, "if it moves around it's probably a flaky node or link rather than a code bug. i'd "
     "map the stuck rank to its host each time, find the node they share, run nccl-tests and check for xid errors "
     "there, then swap the node out", RIGHT),
    ("followup-moving-hang", None, "I'd look at the stacks with py-spy again and find which rank is missing.", WRONG),
    ("followup-moving-hang", None, "hardware, network, flight recorder, nccl-tests, Xid, ECC, drain node", WRONG),
    ("followup-moving-hang", None, "It is not hardware and not the network; nothing changes in how I investigate.",
     WRONG),
    ("followup-moving-hang", None, "A hang at a different step each time means a race in our code, so I'd bisect the "
     "recent commits and add barriers around the collectives until it stops.", WRONG),
    ("followup-moving-hang", None, "位置不固定说明是代码里的bug，我会二分最近的commit，再把timeout调大。", WRONG),

    # ---------------------------------------------------------------- followup-raise-timeout
    ("followup-raise-timeout", None, "The timeout isn't the bug: some rank never reached the collective the others "
     "are waiting in, and a longer timeout just means the whole cluster idles longer before we find out. I'd keep it "
     "short, turn on the flight recorder with dump on timeout, grab py-spy stacks, and fix the missing rank.", RIGHT),
    ("followup-raise-timeout", None, "超时不是原因，是有个rank缺席了，调大只会多等；整个集群都在空等；应该把timeout调短，超时时自动dump "
     "flight recorder和栈。", RIGHT),
    ("followup-raise-timeout", None, "Timeout = symptom, not cause: a rank is missing from the collective, so a longer "
     "timeout only waits longer and burns GPU-hours. Keep it short + dump flight recorder on timeout.", RIGHT),
    ("followup-raise-timeout", None, "no, raising it doesn't fix anything, it just hides the hang longer while every "
     "gpu sits idle. some rank isn't in the collective. keep the timeout short and dump the flight recorder when it "
     "fires so we see which rank", RIGHT),
    ("followup-raise-timeout", None, "Meanwhile the whole cluster idles and burns GPU-hours.", WRONG),
    ("followup-raise-timeout", None, "timeout rank missing collective idle cluster flight recorder dump", WRONG),
    ("followup-raise-timeout", None, "The timeout is the problem, and the ranks are all there; nothing is missing.",
     WRONG),
    ("followup-raise-timeout", None, "Sure, raising the timeout fixes it: big collectives at this scale just take "
     "longer than ten minutes sometimes, so give them an hour.", WRONG),
    ("followup-raise-timeout", None, "可以，把timeout调大就解决了，规模大了collective本来就慢。", WRONG),

    # ---------------------------------------------------------------- hang-checkpoint-rank0 / why
    ("hang-checkpoint-rank0", "why", "Only rank 0 calls the all_gather in save_checkpoint; the other ranks went on to "
     "the next step's gradient all-reduce, so they wait for each other forever.", RIGHT),
    ("hang-checkpoint-rank0", "why", "rank 0停在save_checkpoint里的all_gather，这个gather写在if rank==0下面，只有0号调用。其他rank跳过了它，"
     "进了下一步backward里DDP的梯度all-reduce，在等rank 0；两边进的不是同一个collective，所以永远等下去。1200步正好是存checkpoint的那一步，"
     "所以每次都在这里，是代码问题不是硬件。", RIGHT),
    ("hang-checkpoint-rank0", "why", "r0 in all_gather inside save_checkpoint (under if rank==0), r1-7 already in next "
     "step's backward allreduce -> mismatched collectives, deadlock. Step 1200 = checkpoint step, so deterministic.",
     RIGHT),
    ("hang-checkpoint-rank0", "why", "the checkpoint code does an all_gather that only rank 0 runs, because it's under "
     "if rank == 0. ranks 1 to 7 skip it and go into the next backward's all-reduce, so nobody matches. it's always "
     "step 1200 because that's when we save a checkpoint", RIGHT),
    ("hang-checkpoint-rank0", "why", "Step 1200 is the checkpoint step, so it's the same step every time: code, not "
     "hardware.", WRONG),
    ("hang-checkpoint-rank0", "why", "rank 0, all_gather, save_checkpoint, all-reduce, step 1200, checkpoint", WRONG),
    ("hang-checkpoint-rank0", "why", "It isn't that only rank 0 calls the all_gather; every rank calls it.", WRONG),
    ("hang-checkpoint-rank0", "why", "Rank 0 is slow because writing a 70B checkpoint to disk takes minutes, so the "
     "other ranks time out waiting; it's always step 1200 because the disk fills up there.", WRONG),
    ("hang-checkpoint-rank0", "why", "rank 0写checkpoint太慢了，磁盘IO是瓶颈，其他rank等超时了。", WRONG),

    # ---------------------------------------------------------------- hang-checkpoint-rank0 / fix
    ("hang-checkpoint-rank0", "fix", "Make every rank call the all_gather: move it out of the if rank == 0 branch and "
     "keep only the file write on rank 0, or use a sharded checkpoint where each rank writes its own shard. To catch "
     "the next one fast, keep the NCCL timeout short with the flight recorder dumping on timeout, and run with "
     "TORCH_DISTRIBUTED_DEBUG=DETAIL to flag mismatched collectives. Verify by saving a checkpoint at step 10 and "
     "running past it.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "把all_gather移出if rank==0，让所有rank都调用，只有写文件留在rank 0；或者改成分片checkpoint，每个rank写自己那份。"
     "下次想更快暴露：timeout设短，打开flight recorder超时自动dump，再用TORCH_DISTRIBUTED_DEBUG=DETAIL检查collective是否一致。"
     "验证时把checkpoint提前到第10步存一次，看能不能跑过去。", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Move the gather out of the rank-0 branch (all ranks call it, only r0 writes) or "
     "use torch.distributed.checkpoint. Faster detection: short PG timeout + flight recorder dump_on_timeout, "
     "TORCH_DISTRIBUTED_DEBUG=DETAIL. Test: ckpt at step 5, run past it.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "every rank has to call the gather, so take it out of the if and only let rank 0 "
     "write the file. and keep the timeout short with the flight recorder on so a hang dumps within minutes instead "
     "of hours", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Keep the timeout short and turn on the flight recorder so the next hang dumps "
     "quickly.", WRONG),
    ("hang-checkpoint-rank0", "fix", "all_gather, every rank, sharded checkpoint, timeout, flight recorder, DETAIL",
     WRONG),
    ("hang-checkpoint-rank0", "fix", "The other ranks should not call the gather; keep it under if rank == 0 and do "
     "not move it out.", WRONG),
    ("hang-checkpoint-rank0", "fix", "Raise the NCCL timeout to an hour so rank 0 has time to write the checkpoint, "
     "and write it to faster storage.", WRONG),
    ("hang-checkpoint-rank0", "fix", "把NCCL timeout调大到一小时，让rank 0有时间写完checkpoint，再换块更快的盘。", WRONG),

    # ---------------------------------------------------------------- hang-oom-dead-rank / why
    ("hang-oom-dead-rank", "why", "Rank 5 is gone: py-spy can't find its process and its log ends in CUDA out of "
     "memory on a batch whose longest sequence is 32K tokens, so activations needed far more memory. The other seven "
     "sit in the gradient all-reduce waiting for it, and under srun nothing kills the job until the NCCL timeout. "
     "Same data order, same batch at step 3072, so it's data, not hardware.", RIGHT),
    ("hang-oom-dead-rank", "why", "rank 5在第3072步OOM退出了，那个batch里有一条32768 token的长序列，activation随序列长度增长，显存不够。"
     "其他7个rank停在梯度all-reduce里等它；srun没有agent，没人把任务停掉，只能等NCCL timeout。数据顺序不变，每次都是同一个batch，所以是数据问题不是硬件。",
     RIGHT),
    ("hang-oom-dead-rank", "why", "r5 OOM'd on a 32K-token packed batch at step 3072 and exited; r0-4,6,7 stuck in "
     "allreduce waiting for it. srun = no agent to tear down. Same data order -> same batch -> same step.", RIGHT),
    ("hang-oom-dead-rank", "why", "rank 5 died with an out of memory error because that batch had a 32k sequence, "
     "way longer than usual. the rest are waiting in the all reduce for a rank that doesn't exist anymore, and srun "
     "doesn't kill them. same data order means the same batch hits the same step", RIGHT),
    ("hang-oom-dead-rank", "why", "The other ranks wait in the all-reduce, and under srun nothing tears the job down "
     "until the NCCL timeout.", WRONG),
    ("hang-oom-dead-rank", "why", "rank 5, OOM, 32K, all-reduce, srun, same data order", WRONG),
    ("hang-oom-dead-rank", "why", "Rank 5 did not run out of memory and did not exit; it is just slow.", WRONG),
    ("hang-oom-dead-rank", "why", "Rank 5's GPU is faulty, an ECC error took it down; it's a bad node, which is why "
     "it keeps happening on this machine.", WRONG),
    ("hang-oom-dead-rank", "why", "rank 5那张卡坏了，是硬件问题，换台机器就好。", WRONG),

    # ---------------------------------------------------------------- hang-oom-dead-rank / fix
    ("hang-oom-dead-rank", "fix", "Bound the memory of the worst batch: cap or bucket sequence lengths when packing, "
     "or plan activations for the longest sequence with recomputation or CP. Make a dead rank end the job: launch "
     "with torchrun, whose agent kills every worker when one fails (or srun --kill-on-bad-exit=1), keep the "
     "process-group timeout short, and collect every rank's log, not just rank 0's.", RIGHT),
    ("hang-oom-dead-rank", "fix", "打包时限制最大序列长度或者按长度分桶，保证最长的batch也放得下；或者开重计算、长序列开CP。改用torchrun启动，"
     "一个rank挂了agent会停掉所有rank；timeout设短。再收集每个rank的日志，OOM只在rank 5的日志里。", RIGHT),
    ("hang-oom-dead-rank", "fix", "Cap max seq len / bucket by length when packing (or recompute for the 32K case). "
     "torchrun (or srun --kill-on-bad-exit) so one dead rank kills the job; short PG timeout; per-rank logs.", RIGHT),
    ("hang-oom-dead-rank", "fix", "limit the packed sequence length so no batch blows past the memory, and launch with "
     "torchrun so when one rank dies the agent tears everything down instead of hanging. also keep all ranks' logs",
     RIGHT),
    ("hang-oom-dead-rank", "fix", "Launch with torchrun so that a dead rank ends the job, and keep the timeout short.",
     WRONG),
    ("hang-oom-dead-rank", "fix", "max length, bucket, recompute, torchrun, timeout, logs", WRONG),
    ("hang-oom-dead-rank", "fix", "Don't cap the sequence length and don't switch to torchrun; none of that is needed.",
     WRONG),
    ("hang-oom-dead-rank", "fix", "Raise the NCCL timeout and restart the job from the last checkpoint on a different "
     "node; it's a bad GPU.", WRONG),
    ("hang-oom-dead-rank", "fix", "把NCCL timeout调大一点，再换一台机器从checkpoint重启就行。", WRONG),

    # ---------------------------------------------------------------- hang-uneven-batches / why
    ("hang-uneven-batches", "why", "Rank 3's shard has one batch fewer because the hand-written sampler neither pads "
     "nor drops the remainder, so on the last step rank 3 leaves the loop and waits in evaluate()'s barrier while the "
     "other seven wait in the gradient all-reduce. Different collectives, nobody proceeds.", RIGHT),
    ("hang-uneven-batches", "why", "3号rank的数据少一个batch，手写的sampler既不pad也不drop_last，所以它提前一步跳出训练循环，进了evaluate里的"
     "barrier；其他7个rank还在backward里等梯度all-reduce。进的不是同一个collective，谁都走不了。", RIGHT),
    ("hang-uneven-batches", "why", "r3 runs out of data 1 step early (sampler: no pad, no drop_last) -> sits in eval "
     "barrier; r0-2,4-7 in backward allreduce. Mismatched collectives -> deadlock.", RIGHT),
    ("hang-uneven-batches", "why", "rank 3 got one batch less than the others since the sampler doesn't pad or drop "
     "the leftover, so it finishes the epoch early and goes into the eval barrier while everyone else is still in the "
     "all-reduce of the last backward", RIGHT),
    ("hang-uneven-batches", "why", "Rank 3 waits in the barrier in evaluate() while the other ranks wait in the "
     "all-reduce.", WRONG),
    ("hang-uneven-batches", "why", "rank 3, barrier, evaluate, all-reduce, sampler, drop_last", WRONG),
    ("hang-uneven-batches", "why", "Rank 3 does not have fewer batches; every rank has the same number of steps.",
     WRONG),
    ("hang-uneven-batches", "why", "Evaluation is slow on rank 3 because it runs the whole validation set alone, so "
     "the others time out waiting for it; its GPU is also slower.", WRONG),
    ("hang-uneven-batches", "why", "rank 3的GPU比较慢，eval跑得太久，其他rank等超时了。", WRONG),

    # ---------------------------------------------------------------- hang-uneven-batches / fix
    ("hang-uneven-batches", "fix", "Give every rank the same number of steps: use DistributedSampler with "
     "drop_last=True (or pad), or all-reduce the batch count and stop at the minimum. DDP's Join context manager also "
     "handles uneven inputs. Next time TORCH_DISTRIBUTED_DEBUG=DETAIL names the mismatched collective.", RIGHT),
    ("hang-uneven-batches", "fix", "让每个rank的batch数一样：换成DistributedSampler并设drop_last=True，或者pad到一样长；也可以用DDP的Join。"
     "下次开TORCH_DISTRIBUTED_DEBUG=DETAIL直接看到哪个collective不一致。", RIGHT),
    ("hang-uneven-batches", "fix", "DistributedSampler(drop_last=True) or pad so all ranks get equal #batches; or "
     "DDP Join(). DETAIL debug for next time.", RIGHT),
    ("hang-uneven-batches", "fix", "make sure every rank runs the same number of batches, e.g. drop the last partial "
     "batch with drop_last or pad the shards, then they all reach the eval barrier together", RIGHT),
    ("hang-uneven-batches", "fix", "Set TORCH_DISTRIBUTED_DEBUG=DETAIL so the mismatched collective is named next "
     "time.", WRONG),
    ("hang-uneven-batches", "fix", "DistributedSampler, drop_last, pad, Join, DETAIL", WRONG),
    ("hang-uneven-batches", "fix", "Don't use drop_last or padding, and the ranks don't need the same number of "
     "batches.", WRONG),
    ("hang-uneven-batches", "fix", "Remove the barrier from evaluate() and raise the NCCL timeout so rank 3 can wait "
     "longer.", WRONG),
    ("hang-uneven-batches", "fix", "把evaluate里的barrier删掉，再把timeout调大。", WRONG),

    # ---------------------------------------------------------------- led-dense-400b
    ("led-dense-400b", None, "First I'd ask how many tokens, the deadline, the sequence length and the interconnect. "
     "Memory: about 16 bytes per parameter of model state, so 6.4 TB plus activations, which is dozens of GPUs for "
     "one copy. Layout: TP 8 inside each NVLink node, PP 16 across nodes, the rest DP with the distributed optimizer, "
     "like Llama 3 405B. Time: 6ND FLOPs over 8,000 GPUs times 989 TFLOP/s times 40% MFU, checked against the "
     "deadline. Reliability: something fails every few hours, so sharded async checkpoints at an interval from the "
     "MTBF and automatic restart. Monitoring: MFU, loss spikes and per-rank step time for stragglers.", RIGHT),
    ("led-dense-400b", None, "我会先问：训多少token、什么时候要训完、序列多长、机间是什么互联。显存：每参数约16字节，400B就是6.4TB，再加activation，一份模型要几十张卡。"
     "并行：机内TP 8走NVLink，跨机PP 16，剩下的给DP，配distributed optimizer，对照Llama 3 405B。时间：6ND的FLOPs除以8000卡×989T×40%的MFU，和截止时间比。"
     "可靠性：这个规模几个小时就有故障，按MTBF定间隔做分片异步checkpoint，自动重启。监控：MFU、loss尖峰、每个rank的step time抓straggler。", RIGHT),
    ("led-dense-400b", None, "Ask: tokens? deadline? seq len? interconnect? Memory: 16 B/param -> 6.4 TB model state + "
     "acts. Layout: TP8 in-node, PP across nodes, DP rest + dist optimizer. Time: 6ND / (8k x 989T x 0.4 MFU) vs "
     "deadline. Reliability: async sharded checkpoints every ~30 min from the MTBF, auto-restart. Monitor MFU, loss, "
     "per-rank step time.", RIGHT),
    ("led-dense-400b", None, "i'd first ask how many tokens and by when, and what the network is. then memory, 16 "
     "bytes per parameter is 6.4 tb so one copy needs dozens of gpus. tp 8 inside the node, pp across nodes, rest "
     "data parallel. time is 6nd flops divided by gpus times peak times mfu around 40 percent. checkpoint async every "
     "half hour based on mtbf, and monitor mfu and loss spikes", RIGHT),
    ("led-dense-400b", None, "TP 8 inside the node, PP 16 across nodes, the rest DP with the distributed optimizer, "
     "and checkpoints every 30 minutes.", WRONG),
    ("led-dense-400b", None, "tokens, deadline, 16 bytes, TP 8, PP 16, DP, 6ND, MFU, checkpoint, MTBF, monitoring",
     WRONG),
    ("led-dense-400b", None, "No need to ask anything. The weights are 2 bytes per parameter, 800 GB, so TP 8 and PP "
     "2 fit; then we just train and restart if it crashes.", WRONG),
    ("led-dense-400b", None, "I'd just use FSDP across all 8,000 GPUs with TP 16 across two nodes; memory is not an "
     "issue at this scale, and we train for as long as it takes.", WRONG),
    ("led-dense-400b", None, "直接上8000卡FSDP，TP跨机开16，显存不是问题，训到收敛为止。", WRONG),

    # ---------------------------------------------------------------- pitch-recipe
    ("pitch-recipe", None, "Memory first: about 16 bytes per parameter plus activations tells me how many GPUs one "
     "copy needs. TP inside the node, up to 8 on NVLink; PP across nodes with at least 4p micro-batches, interleaved; "
     "CP for long sequences, EP for MoE; the rest is DP with the distributed optimizer. Overlap comms with compute, "
     "FP8 GEMMs, aim for 40% MFU. If slow, profile; if hung, find the missing rank.", RIGHT),
    ("pitch-recipe", None, "先算显存：每参数16字节加activation，得出一份模型要几张卡。TP放机内最多8卡走NVLink；PP跨机，m≥4p；长序列开CP，MoE开EP；"
     "剩下的给DP配distributed optimizer。通信和计算overlap，GEMM用FP8，MFU做到40%左右。慢了就profile分四类，hang了就找缺席的rank。", RIGHT),
    ("pitch-recipe", None, "Start from memory (16 B/param + acts) -> GPUs per copy. TP<=8 in-node, PP across nodes "
     "(m>=4p, interleaved), CP for long seq, EP for MoE, rest DP + ZeRO-1. Overlap comms, FP8, ~40% MFU. Slow -> "
     "profile; hang -> find the absent rank.", RIGHT),
    ("pitch-recipe", None, "i start with memory, 16 bytes a parameter plus activations, which sets how many gpus one "
     "copy needs. then tp inside the node, pp across nodes, cp only for long context, and the rest is data parallel "
     "with a sharded optimizer. overlap comms, fp8 gemms, target 40% mfu", RIGHT),
    ("pitch-recipe", None, "TP inside the node, PP across nodes, the rest DP with ZeRO-1; overlap communication and "
     "use FP8.", WRONG),
    ("pitch-recipe", None, "memory TP PP CP EP DP ZeRO overlap FP8 MFU profile hang", WRONG),
    ("pitch-recipe", None, "I don't start from memory; TP isn't inside the node and PP isn't across nodes.", WRONG),
    ("pitch-recipe", None, "Start from memory: 2 bytes per parameter. Put TP across nodes over InfiniBand and DP "
     "inside the node, PP as large as possible, and don't bother with overlap.", WRONG),
    ("pitch-recipe", None, "先看显存，TP跨机开16，DP放机内，PP越大越好。", WRONG),
]

# Second batch, still before any rubric change: the wordings a rubric is weakest against — strong answers
# in words the rubric does not list, and wrong ones that reuse its words in the wrong sense.
MOCK_CASES += [
    ("behavioural-hang-story", None, "At my last job a 2,048-GPU run stalled at step 61k and died on the NCCL "
     "watchdog. I collected py-spy stacks from all ranks: everyone was inside all_reduce except one rank inside "
     "all_gather, a logging helper called under an if on rank 0. Root cause: a collective only one rank called. I "
     "moved it out of the branch; the run was back within 3 hours, after losing about a day. Then I added a CI test "
     "that runs the logging path on two ranks.", RIGHT),
    ("behavioural-hang-story", None, "有一次512卡训练在第3万步hang住，NCCL watchdog超时。我先用py-spy抓了所有rank的栈，发现rank 12停在一个"
     "barrier，其他rank都在all-reduce；一查是那台机器的IB网卡坏了，链路时断时续。我们把节点下线，从checkpoint恢复，损失了大约5个小时。"
     "之后在启动前加了nccl-tests的健康检查。", RIGHT),
    ("behavioural-hang-story", None, "A job hung. I looked at it for a while and it turned out to be NCCL. We restarted "
     "and it was fine after that.", WRONG),
    ("behavioural-hang-story", None, "Our 1,024-GPU job kept hitting NCCL timeouts at random steps. I bumped the "
     "timeout to two hours, set NCCL_IB_TIMEOUT higher and added retries; after that the job ran for a week and we "
     "were happy with it.", WRONG),

    ("debug-data-loading", "next", "The loader can't keep up: tokenizing on the fly in 8 workers costs 41% of every "
     "step. Tokenize the corpus once ahead of training into packed binary shards and just memory-map them; that takes "
     "the CPU work off the critical path. Success looks like the profiler showing the forward starting right away and "
     "throughput going from 247K to around 420K tokens/s.", RIGHT),
    ("debug-data-loading", "next", "把tokenize挪到训练之前做，预处理成打包好的二进制文件，训练时只读数据；worker数也加上去。然后重新跑profiler，"
     "看forward前那段41%的空等是不是没了，吞吐从24.7万涨到四十万左右。", RIGHT),
    ("debug-data-loading", "next", "I'd run with synthetic data to confirm the loader is the problem, and that's it.",
     WRONG),
    ("debug-data-loading", "next", "The GPUs are 70-100% busy, so the loader is fine; the real issue is the NCCL "
     "kernels. Use synthetic data to show the gap stays, then overlap the gradient reduce.", WRONG),

    ("debug-exposed-communication", "next", "The 27% after backward is the gradient reduce-scatter and param "
     "all-gather running serially. Since nccl-tests shows the links at rated speed, it's not bandwidth, it's "
     "scheduling: enable --overlap-grad-reduce and --overlap-param-gather. A new profile should show NCCL kernels "
     "concurrent with backward GEMMs and the step shrinking from 13 s to about 10.", RIGHT),
    ("debug-exposed-communication", "next", "it's the missing overlap flags. add both so grad reduce-scatter "
     "overlaps backward and the param all-gather overlaps forward, then check the trace again and the step time",
     RIGHT),
    ("debug-exposed-communication", "next", "Buckets are too small, so I would make the buckets bigger and measure "
     "MFU again.", WRONG),
    ("debug-exposed-communication", "next", "Turn off the distributed optimizer so there is no reduce-scatter and "
     "all-gather at all, just an all-reduce, then measure again with a new trace.", WRONG),

    ("debug-launch-bound", "next", "The GPU is starved by the CPU: kernels under 20 µs with gaps between them. Capture "
     "the forward and backward with CUDA graphs so one launch replays the whole sequence, and increase the micro-batch "
     "to 8 so there is no gradient accumulation and every kernel is 8x bigger. Check a new trace: the gaps should be "
     "gone and MFU up several-fold.", RIGHT),
    ("debug-launch-bound", "next", "用CUDA Graph把整个step录下来一次launch重放，再把micro-batch加大到8，每个kernel活多一点；loss.item()改成每100步"
     "同步一次。重新测MFU，kernel之间的空隙应该消失。", RIGHT),
    ("debug-launch-bound", "next", "Log less often: call loss.item() only every 100 steps, and measure again.", WRONG),
    ("debug-launch-bound", "next", "It's compute-bound, the GEMMs are too slow; I'd switch to FP8 and use fused "
     "attention kernels, then measure MFU again.", WRONG),

    ("debug-straggler", "next", "One slow node is holding back 511 ranks. I'd confirm with per-rank timings, then "
     "look at that node's GPUs: nvidia-smi -q throttle reasons, temperatures, power caps, any Xid in dmesg. Swap it "
     "for a healthy node and resume from checkpoint. Afterwards the 24% wait in the reduce-scatter should drop to "
     "about 1% and step time return to last week's.", RIGHT),
    ("debug-straggler", "next", "rank 213那台机器降频了，我会把它从任务里踢掉，换一台好的，从checkpoint继续训，再确认step time回到上周的水平。", RIGHT),
    ("debug-straggler", "next", "Check the node's clocks and thermals with DCGM to see why it throttles.", WRONG),
    ("debug-straggler", "next", "Rank 213 is fine; it's the other 511 ranks whose reduce-scatter is slow. Replace "
     "the network switches and re-run nccl-tests, then measure MFU.", WRONG),

    ("followup-why-not-more-pp", None, "We'd pay in pipeline bubble: (p-1)/m goes up when p doubles and the global "
     "batch fixes m, and halving DP only gets m back to where it was. Memory doesn't improve as much as you'd think "
     "because stage one still holds p micro-batches of activations.", RIGHT),
    ("followup-why-not-more-pp", None, "bubble跟p成正比，p翻倍而m不变，空转时间就翻倍；而且stage越多越难均衡。", RIGHT),
    ("followup-why-not-more-pp", None, "Because more stages need more memory per GPU, and each stage then holds more "
     "layers, which makes the bubble smaller but the memory worse.", WRONG),
    ("followup-why-not-more-pp", None, "More PP is better in general: the bubble is hidden by interleaving anyway, so "
     "the only cost is more point-to-point hops.", WRONG),

    ("followup-why-not-fsdp", None, "At this scale the global batch is set by convergence, say 16M tokens; spread over "
     "8,000 FSDP ranks that's 2K tokens per GPU, far too little compute to hide gathering every layer's parameters "
     "over InfiniBand. TP and PP shrink the data-parallel degree so each replica gets a real batch.", RIGHT),
    ("followup-why-not-fsdp", None, "FSDP全用的话每张卡都是DP rank，global batch固定，分到几千张卡上每卡token太少，藏不住每层weight的all-gather。"
     "用TP和PP把DP降下来，每卡token就多了。", RIGHT),
    ("followup-why-not-fsdp", None, "FSDP is memory-limited: it cannot shard the weights, only the optimizer state, "
     "so the global batch per GPU is too small for it to fit.", WRONG),
    ("followup-why-not-fsdp", None, "Because FSDP needs less communication than TP and PP, which means the global "
     "batch gets divided over fewer GPUs, so we add TP and PP to use more of them.", WRONG),

    ("followup-why-not-bigger-tp", None, "Sixteen GPUs don't fit in one H100 box: TP 16 would put its per-layer "
     "collectives on the inter-node fabric, roughly 50 GB/s instead of 450. That's on the critical path of every "
     "layer. Cross nodes with PP instead, which sends one activation per micro-batch.", RIGHT),
    ("followup-why-not-bigger-tp", None, "TP16要跨机，TP的all-reduce每层都有，跨机走IB比NVLink慢一个数量级，GEMM也会变窄。", RIGHT),
    ("followup-why-not-bigger-tp", None, "TP 16 needs 16 KV heads and we only have 8, so it can't be done; the network "
     "is not an issue.", WRONG),
    ("followup-why-not-bigger-tp", None, "TP 16 is over two nodes, and that is actually fine on InfiniBand, which is as "
     "fast as NVLink; PP smaller is better for the bubble.", WRONG),

    ("followup-when-cp-pays-off", None, "When a single sequence's activations won't fit: at 128K tokens even TP 8 with "
     "full recomputation overflows, and CP gives each rank a slice of the tokens. It's a waste at 4K-8K, where the "
     "ring attention KV passing can't be covered by so little attention math.", RIGHT),
    ("followup-when-cp-pays-off", None, "上下文特别长、activation放不下的时候，比如128k，开CP把序列切成几段；序列短的时候kv通信藏不住，纯属浪费。", RIGHT),
    ("followup-when-cp-pays-off", None, "CP pays off when the sequence length is short, because then the KV exchange "
     "is small and cheap.", WRONG),
    ("followup-when-cp-pays-off", None, "Use CP when the batch is too large: it splits the batch dimension so each rank "
     "has fewer sequences; sequence length doesn't matter.", WRONG),

    ("followup-why-tp-in-node", None, "Its collectives are synchronous and happen in every transformer block, forward "
     "and backward, so they can't hide behind compute. NVLink gives each GPU ~450 GB/s; InfiniBand is ~50. Out of the "
     "node each layer would stall.", RIGHT),
    ("followup-why-tp-in-node", None, "TP每层前向反向都有all-reduce，在关键路径上没法overlap；机内NVLink带宽是IB的十倍左右，所以只能放在一台机器的8张卡里。", RIGHT),
    ("followup-why-tp-in-node", None, "TP does a single all-reduce at the end of each step, and a node has 8 GPUs on "
     "NVLink, so that is where it goes.", WRONG),
    ("followup-why-tp-in-node", None, "Because TP needs the memory of all 8 GPUs in the node to hold the weights, and "
     "InfiniBand can't share memory between nodes.", WRONG),

    ("followup-why-m-4p", None, "Pipeline fill and drain cost p-1 micro-batch slots per step, so idle is (p-1)/m; "
     "with m at least 4p that's under 25%, and interleaving cuts it further by v.", RIGHT),
    ("followup-why-m-4p", None, "m太小的话pipeline灌满排空的空泡占比(p-1)/m很大；m≥4p时空泡不到25%。", RIGHT),
    ("followup-why-m-4p", None, "Because the bubble is a memory bubble: each stage needs four micro-batches of "
     "activations in flight to keep memory balanced.", WRONG),
    ("followup-why-m-4p", None, "With more micro-batches the bubble grows, but the global batch gets bigger, which "
     "helps convergence, so 4p is the compromise.", WRONG),

    ("followup-nvidia-smi", None, "The utilization column only samples whether the GPU had any kernel in flight; "
     "one tiny kernel at a time counts as 100%. It says nothing about SM occupancy or tensor-core throughput, which "
     "is what MFU captures: achieved model FLOPs over peak.", RIGHT),
    ("followup-nvidia-smi", None, "nvidia-smi只看采样期间有没有kernel在跑，一个小kernel也算100%；算力到底用了多少要看MFU。", RIGHT),
    ("followup-nvidia-smi", None, "nvidia-smi shows the GPU is busy, which means the tensor cores are all in use; MFU is "
     "low because the FLOPs formula is wrong.", WRONG),
    ("followup-nvidia-smi", None, "It's the memory: nvidia-smi reports memory utilization at 100% because the "
     "activations fill HBM, and MFU is low because the GPU is swapping.", WRONG),

    ("followup-moving-hang", None, "Then I stop suspecting our code: a deterministic bug hangs at the same step. A "
     "moving one points at a flaky GPU, NIC or switch port. I'd record which rank goes missing each time, map ranks to "
     "hosts and look for the common node, run nccl-tests and DCGM diagnostics on it, and take it out of the pool.",
     RIGHT),
    ("followup-moving-hang", None, "hang的位置不固定，基本就不是代码问题了，多半是某台机器或者网络链路有问题。找出每次缺席的rank对应哪台机器，"
     "看有没有共同的节点，跑nccl-tests、查xid，然后把那台机器换掉。", RIGHT),
    ("followup-moving-hang", None, "It means the network config in our code is wrong, so I'd read through the code "
     "for a race between threads.", WRONG),
    ("followup-moving-hang", None, "Nothing really changes: I'd take py-spy stacks, find the missing rank, and look at "
     "what the code does at that step.", WRONG),

    ("followup-raise-timeout", None, "That treats the symptom. The watchdog fires because one rank never joined the "
     "collective; an hour-long timeout just keeps 1,000 GPUs idle for an hour. Better keep it at minutes, dump the "
     "flight recorder when it fires, find the absent rank and fix that.", RIGHT),
    ("followup-raise-timeout", None, "调大timeout治标不治本：是某个rank没进collective，等多久都不会来，只会让整个集群空等更久。我会把timeout设短，"
     "超时自动dump flight recorder，找出是哪个rank。", RIGHT),
    ("followup-raise-timeout", None, "A longer timeout means the job waits longer, which is fine; I'd raise it to an "
     "hour and keep the flight recorder off to save memory.", WRONG),
    ("followup-raise-timeout", None, "Agreed, raise it: the ranks are all in the collective, just slow, and the "
     "timeout is what kills the job.", WRONG),

    ("hang-checkpoint-rank0", "why", "save_checkpoint gathers the full state with an all_gather, but it's called "
     "inside if rank == 0, so rank 0 waits for seven peers that never join; they're already in step 1201's DDP "
     "all-reduce waiting for rank 0. It's always step 1200 because that's the save interval.", RIGHT),
    ("hang-checkpoint-rank0", "why", "只有0号rank进了gather_full_state里的all_gather，1到7号已经去做下一步backward的all-reduce了，collective对不上，死锁。"
     "1200步是存checkpoint的步数。", RIGHT),
    ("hang-checkpoint-rank0", "why", "Only rank 0 writes the checkpoint, and writing 70B to disk takes longer than the "
     "NCCL timeout, so the others time out in the all-reduce; step 1200 is the checkpoint interval.", WRONG),
    ("hang-checkpoint-rank0", "why", "Rank 0 has a bad GPU that fails at step 1200 every time; the others wait for "
     "each other in the all-reduce.", WRONG),

    ("hang-checkpoint-rank0", "fix", "The gather is a collective, so it has to run on all eight ranks: call "
     "gather_full_state on every rank and wrap only torch.save in the rank-0 check, or switch to "
     "torch.distributed.checkpoint with per-rank shards. Then set a short process-group timeout and dump on timeout "
     "so it surfaces in minutes.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "gather要所有rank一起调，把它挪到if外面，只让rank 0写盘。再开flight recorder，timeout设短一点。", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Raise the timeout so every rank waits long enough for rank 0's write, and turn on "
     "the flight recorder.", WRONG),
    ("hang-checkpoint-rank0", "fix", "Add a barrier before save_checkpoint on every rank so they line up, and keep the "
     "all_gather under if rank == 0.", WRONG),

    ("hang-oom-dead-rank", "why", "The dead one is rank 5: its process is gone and its last log is a CUDA OOM while "
     "allocating 12 GiB for a packed batch with a 32,768-token sequence. Nobody is watching under srun, so the seven "
     "survivors block in all-reduce until the watchdog. Deterministic because the data order is fixed.", RIGHT),
    # why at the same step on every run left unanswered: refused since round 3 (2026-12-03)
    ("hang-oom-dead-rank", "why", "5号rank在第3072步爆显存挂了，那个batch里有32k的长序列；其他rank在all-reduce里等一个已经不在的rank。", WRONG),
    ("hang-oom-dead-rank", "why", "Rank 5 crashed on a hardware ECC error; under srun nothing stops the others, which "
     "wait until the timeout.", WRONG),
    ("hang-oom-dead-rank", "why", "The packed batch at step 3072 is too long, so every rank runs out of memory and "
     "the job freezes.", WRONG),

    ("hang-oom-dead-rank", "fix", "Make the worst case fit: cap the packed length (e.g. 16K per sequence) or bucket by "
     "length, or turn on activation checkpointing sized for the 32K batch. And stop relying on the timeout: run "
     "srun --kill-on-bad-exit=1 or torchrun so one rank's exit kills all of them.", RIGHT),
    ("hang-oom-dead-rank", "fix", "打包的时候把最长序列截断到16k，或者按长度分桶，保证最坏的batch显存也够；启动改成torchrun，一个rank挂了就全部退出。", RIGHT),
    ("hang-oom-dead-rank", "fix", "Keep the packing as it is and move to a node with more GPU memory; also raise the "
     "timeout.", WRONG),
    ("hang-oom-dead-rank", "fix", "Set a max timeout, collect every rank's log and restart from the checkpoint.",
     WRONG),

    ("hang-uneven-batches", "why", "The shards don't divide evenly and nothing pads or drops the tail, so rank 3 gets "
     "one batch fewer. It finishes the epoch first and enters the barrier in evaluate(), while the other seven are "
     "still in their last step's backward all-reduce, waiting for rank 3.", RIGHT),
    ("hang-uneven-batches", "why", "数据分得不均匀，rank 3比别人少一个batch，提前进了eval的barrier，其他rank在all-reduce里等它。", RIGHT),
    ("hang-uneven-batches", "why", "The load is uneven: rank 3 is slower, so it is still in the barrier while the "
     "others move on.", WRONG),
    ("hang-uneven-batches", "why", "Rank 3 has more batches than the others, so it is still training while they wait "
     "in the eval barrier.", WRONG),

    ("hang-uneven-batches", "fix", "Make the step count identical across ranks: either drop the remainder so every "
     "shard has floor(N/8) batches, or pad the short shards; a DistributedSampler with drop_last=True does exactly "
     "that.", RIGHT),
    ("hang-uneven-batches", "fix", "sampler加上drop_last，或者把每个rank的数据pad到一样多，保证每个rank的step数相同。", RIGHT),
    ("hang-uneven-batches", "fix", "Give rank 3 more data by re-shuffling, and turn on the flight recorder.", WRONG),
    ("hang-uneven-batches", "fix", "Put a barrier at the end of every step so the ranks stay in lockstep, and use "
     "TORCH_DISTRIBUTED_DEBUG=DETAIL.", WRONG),

    ("led-dense-400b", None, "Before any math I'd want the token budget, the deadline, the sequence length and the "
     "network. Then memory: mixed-precision Adam is ~16 bytes/param, so 400B is 6.4 TB of state, about 80 H100s' "
     "worth before activations. TP 8 within a node, PP across nodes, DP for the rest with ZeRO-1. Training time is "
     "6ND over cluster FLOPs at ~40% MFU. At 8k GPUs expect a failure every few hours: async checkpoints and "
     "auto-restart. Watch MFU, loss and grad-norm spikes, per-rank step time.", RIGHT),
    ("led-dense-400b", None, "Layout: TP 8 in the node, PP 16, DP 64. Memory: 16 bytes per parameter. Checkpoint "
     "every hour. That's it, we train.", WRONG),
    ("led-dense-400b", None, "I'd ask about the tokens and the deadline. Memory is 2 bytes per parameter, so 800 GB "
     "fits on 10 GPUs; TP across nodes over InfiniBand, and no need for checkpoints.", WRONG),

    ("pitch-recipe", None, "Size memory first, ~16 bytes/param plus activations, to get GPUs per replica; TP within "
     "the 8-GPU node, PP between nodes with m ≥ 4p, CP only for long context, EP for MoE, remaining GPUs are DP "
     "with ZeRO-1. Overlap communication, FP8, target ~40% MFU; slow means profile, hung means find the rank missing "
     "from the collective.", RIGHT),
    ("pitch-recipe", None, "Pick the biggest TP you can, even across nodes, then PP, then DP; use FP8 and overlap "
     "communication, and aim for 40% MFU.", WRONG),
]

# Third batch, written after the first rubric changes and measured before any further one (an estimate of
# how the changes generalise): the question pasted back, off-topic text, more wordings.
MOCK_CASES += [
    ("behavioural-hang-story", None, "Tell me about a time a distributed training job hung or hit an NCCL timeout and "
     "you found out why.", WRONG),
    ("behavioural-hang-story", None, "I'd use TP inside the node and PP across nodes, the rest DP, with FP8 and 40% "
     "MFU.", WRONG),
    ("behavioural-hang-story", None, "去年我们64卡的SFT任务每次跑到一个epoch结束就卡死，30分钟后NCCL超时。我对每个rank跑了py-spy dump，发现有一个"
     "rank在eval的barrier里，其他都在all-reduce。原因是sampler没有drop_last，这个rank少一个batch。改成DistributedSampler加drop_last之后"
     "当天就恢复了，前后浪费了大概8个小时。之后在CI里加了一个检查各rank batch数的测试。", RIGHT),
    ("behavioural-hang-story", None, "we had 4k gpus stuck at step 120k with a watchdog timeout. i pulled py-spy "
     "stacks from every rank and the flight recorder dump; one node's ranks never entered the reduce-scatter. turned "
     "out a NIC on that node was flapping. we cordoned it and resumed from the checkpoint within 2 hours, lost about "
     "3 hours total, and added a pre-flight nccl-tests check on every node", RIGHT),

    ("debug-data-loading", "next", "What do you do next, and how will you know it worked?", WRONG),
    ("debug-data-loading", "next", "Tokenization is slow, so the GPU waits.", WRONG),
    ("debug-data-loading", "next", "先离线把数据tokenize好存成二进制，训练时直接读；DataLoader的worker从8加到16。验证：profile里forward前的空等"
     "从41%降到接近0，吞吐上去。", RIGHT),
    ("debug-data-loading", "next", "move tokenization out of the training loop (pre-tokenize the corpus once), give the "
     "loader more worker processes and prefetch, and re-run the profiler: the 41% idle at step start should be gone "
     "and tokens/s should go up by about 1.6x", RIGHT),

    ("debug-exposed-communication", "next", "What do you do next, and how will you know it worked?", WRONG),
    ("debug-exposed-communication", "next", "Reduce DP from 32 to 16 and use a bigger TP so there is less gradient "
     "traffic, then measure again.", WRONG),
    ("debug-exposed-communication", "next", "没开overlap，所以通信全暴露在backward后面。加上--overlap-grad-reduce和--overlap-param-gather，"
     "让梯度的reduce-scatter跟backward重叠。再profile一次，看NCCL是不是跟计算并行了，step time应该降到10秒左右。", RIGHT),
    ("debug-exposed-communication", "next", "Overlap is off. Enable overlap-grad-reduce and overlap-param-gather so the "
     "gradient reduce-scatter runs during backward; confirm with a fresh trace that the 27% tail is gone.", RIGHT),

    ("debug-launch-bound", "next", "What do you do next, and how will you know it worked?", WRONG),
    ("debug-launch-bound", "next", "The model is too small for 64 GPUs; use fewer GPUs.", WRONG),
    ("debug-launch-bound", "next", "kernel太碎，CPU launch不过来。上torch.compile融合kernel或者CUDA Graph，一次launch整段；micro-batch从1调到8。"
     "然后看trace里kernel间的空隙有没有消失，MFU有没有上去。", RIGHT),
    ("debug-launch-bound", "next", "Fuse the small ops (torch.compile, fused optimizer and norms) and capture with CUDA "
     "graphs so launches stop gating the GPU; verify in a new profile that the 31% of gaps is gone.", RIGHT),

    ("debug-straggler", "next", "What do you do next, and how will you know it worked?", WRONG),
    ("debug-straggler", "next", "I would increase the NCCL buffer size and the number of channels so the "
     "reduce-scatter runs faster.", WRONG),
    ("debug-straggler", "next", "rank 213所在节点GPU降频，是straggler。先看各rank的step time确认，再查这台机器的温度、功耗和时钟；把它从资源池里"
     "摘掉换备机，从checkpoint恢复。确认其他rank在reduce-scatter里的等待从24%降下来。", RIGHT),
    ("debug-straggler", "next", "Pull rank 213's node out of the job and restart from the last checkpoint on a "
     "replacement; the reduce-scatter waits should fall from 24% to about 1% and the step back to ~12.5 s.", RIGHT),

    ("followup-why-not-more-pp", None, "Follow-up: your layout fits. Why not double PP and halve TP or DP instead?",
     WRONG),
    ("followup-why-not-more-pp", None, "Because PP is harder to implement and debug than TP.", WRONG),
    ("followup-why-not-more-pp", None, "Halving DP gives back m, but at fixed m doubling p almost doubles the bubble "
     "(p-1)/m; stage 1 still buffers p micro-batches of activations, so memory barely improves.", RIGHT),
    ("followup-why-not-more-pp", None, "stage多一倍，bubble也差不多多一倍，除非micro-batch也翻倍，可global batch是固定的。", RIGHT),

    ("followup-why-not-fsdp", None, "Follow-up: FSDP alone would also fit this model. Why TP and PP?", WRONG),
    ("followup-why-not-fsdp", None, "FSDP is only for fine-tuning; for pre-training you always need TP and PP.", WRONG),
    ("followup-why-not-fsdp", None, "纯FSDP的话DP就是几千，global batch是固定的，每卡分到的token太少，每层参数的all-gather跨机又多，藏不住。TP+PP把DP降下来。",
     RIGHT),
    ("followup-why-not-fsdp", None, "Tokens per GPU: with DP = 8,192 the fixed global batch gives each GPU too little "
     "work to cover the weight gathers; TP and PP reduce the DP degree.", RIGHT),

    ("followup-why-not-bigger-tp", None, "Follow-up: why not TP 16, so that PP can be smaller?", WRONG),
    ("followup-why-not-bigger-tp", None, "TP 16 uses more memory per GPU than TP 8.", WRONG),
    ("followup-why-not-bigger-tp", None, "TP 16 would span 2 nodes: its per-layer all-reduces would run on IB, ~9x "
     "slower than NVLink, on the critical path.", RIGHT),
    ("followup-why-not-bigger-tp", None, "tp16得跨机，每层的all-reduce走IB，比NVLink慢好几倍；而且GEMM切得更碎。跨机让PP来做，只传activation。", RIGHT),

    ("followup-when-cp-pays-off", None, "Follow-up: when does context parallelism (CP) pay off, and when is it a waste?",
     WRONG),
    ("followup-when-cp-pays-off", None, "CP is useful for MoE models, where the experts are split across GPUs.", WRONG),
    ("followup-when-cp-pays-off", None, "It pays off at very long context (think 128K) where the activations won't fit "
     "even at TP 8 with recompute; it's a waste at 8K, where there isn't enough attention compute to hide the KV ring "
     "exchange.", RIGHT),
    ("followup-when-cp-pays-off", None, "长上下文（比如128k）activation放不下时才值得开CP；短序列的话KV交换藏不住，白费。", RIGHT),

    ("followup-why-tp-in-node", None, "Follow-up: why must tensor parallelism stay inside one node?", WRONG),
    ("followup-why-tp-in-node", None, "Because the model weights must stay on one machine for checkpointing.", WRONG),
    ("followup-why-tp-in-node", None, "TP's all-reduces happen twice per layer in forward and twice in backward, "
     "blocking the next op; only NVLink (~450 GB/s per GPU vs ~50 on IB) makes that cheap.", RIGHT),
    ("followup-why-tp-in-node", None, "tp每一层都要同步激活，卡在关键路径上，只有机内nvlink够快，跨机ib慢十倍。", RIGHT),

    ("followup-why-m-4p", None, "Follow-up: why does the recipe want at least four micro-batches per pipeline stage "
     "(m ≥ 4p)?", WRONG),
    ("followup-why-m-4p", None, "Because four is the number of GPUs per pipeline stage.", WRONG),
    ("followup-why-m-4p", None, "Idle fraction of 1F1B is (p-1)/m, so m = 4p caps the bubble near 25%; below that "
     "the GPUs idle too long.", RIGHT),
    ("followup-why-m-4p", None, "bubble占比(p-1)/m，micro-batch越多越小；m≥4p差不多是25%以内。", RIGHT),

    ("followup-nvidia-smi", None, "Follow-up: nvidia-smi shows close to 100% utilization on every GPU, yet MFU is low. "
     "How can both be true?", WRONG),
    ("followup-nvidia-smi", None, "Because nvidia-smi is broken on H100s.", WRONG),
    ("followup-nvidia-smi", None, "The 100% only means a kernel was resident during each sample; a GPU running one "
     "small memory-bound kernel at a time is '100% utilized' with its tensor cores idle. MFU measures achieved FLOPs "
     "over peak.", RIGHT),
    ("followup-nvidia-smi", None, "nvidia-smi的100%只说明有kernel在跑，不代表SM和tensor core都在干活；小kernel、memory-bound的kernel也是100%。看MFU。",
     RIGHT),

    ("followup-moving-hang", None, "Follow-up: now the hang happens at a different step on every run. What changes in "
     "your investigation?", WRONG),
    ("followup-moving-hang", None, "I would lower the learning rate, because a moving hang means the loss is "
     "unstable.", WRONG),
    ("followup-moving-hang", None, "Non-deterministic step -> probably a bad node, GPU or link, not code. Find which "
     "rank is missing each time, map ranks to hosts, see which host repeats, run nccl-tests and DCGM diag on it, "
     "drain it.", RIGHT),
    ("followup-moving-hang", None, "不固定的hang多半是硬件或网络，代码和数据的bug会每次卡在同一步。查每次缺席rank所在的机器有没有重合，对它跑nccl-tests，查Xid。",
     RIGHT),

    ("followup-raise-timeout", None, "Follow-up: a colleague suggests raising the NCCL timeout so the job stops "
     "failing. What do you say?", WRONG),
    ("followup-raise-timeout", None, "I'd say we should use a bigger batch size so the job is faster.", WRONG),
    ("followup-raise-timeout", None, "No: the timeout is the symptom; a rank never joined the collective, and waiting "
     "longer just burns GPU-hours. Keep the timeout short and make it dump the flight recorder.", RIGHT),
    ("followup-raise-timeout", None, "不行，timeout只是症状，是某个rank没进collective，调大只会白等、浪费GPU时长。应该超时就自动dump flight recorder，"
     "找出那个rank。", RIGHT),

    ("hang-checkpoint-rank0", "why", "Why does it hang, and why always at step 1200?", WRONG),
    ("hang-checkpoint-rank0", "why", "The learning rate warm-up ends at step 1200 and the loss spikes.", WRONG),
    ("hang-checkpoint-rank0", "why", "Rank 0 is waiting in an all_gather that only it issues (save_checkpoint under "
     "if rank == 0); the others are in DDP's all-reduce for the next step. Different collectives -> both sides wait "
     "forever; 1200 is the checkpoint step, so it's deterministic.", RIGHT),
    ("hang-checkpoint-rank0", "why", "只有rank 0会走到save_checkpoint里的all_gather，其他rank直接进了下一步backward的all-reduce，两边等的不是同一个"
     "collective。1200是checkpoint的步数，所以每次都一样。", RIGHT),

    ("hang-checkpoint-rank0", "fix", "What is the fix, and how do you make the next such bug show up faster?", WRONG),
    ("hang-checkpoint-rank0", "fix", "Save the checkpoint less often, every 5,000 steps instead of 1,200.", WRONG),
    ("hang-checkpoint-rank0", "fix", "Call gather_full_state on all ranks and keep only the torch.save under "
     "if rank == 0; set the process-group timeout to a few minutes with the flight recorder dumping on timeout.",
     RIGHT),
    ("hang-checkpoint-rank0", "fix", "让每个rank都调gather，把它从if rank==0里拿出来，只有写盘留在rank 0；timeout设短，开flight recorder，"
     "下次几分钟就能看到。", RIGHT),

    ("hang-oom-dead-rank", "why", "Why does it hang, and why at the same step on every run?", WRONG),
    ("hang-oom-dead-rank", "why", "The NCCL timeout is too short for 34B on long sequences.", WRONG),
    ("hang-oom-dead-rank", "why", "rank 5 OOMed on the 32K-token batch at step 3072 and its process exited; the "
     "other seven block in all-reduce waiting for a rank that no longer exists, and srun has no agent to kill them. "
     "The data order is fixed, so the same batch lands on the same step.", RIGHT),
    # why at the same step on every run left unanswered: refused since round 3 (2026-12-03)
    ("hang-oom-dead-rank", "why", "5号rank遇到一个32k长序列的batch，显存爆了，进程退出；剩下7个rank在all-reduce里等它，srun不会杀掉它们。", WRONG),

    ("hang-oom-dead-rank", "fix", "What is the fix?", WRONG),
    ("hang-oom-dead-rank", "fix", "Lower the learning rate and restart.", WRONG),
    ("hang-oom-dead-rank", "fix", "Cap the packed sequence length (or bucket by length) so the worst batch fits, and "
     "use torchrun so one rank's exit kills the whole job instead of hanging.", RIGHT),
    ("hang-oom-dead-rank", "fix", "限制打包后的最大序列长度，保证最长的batch也放得下；用torchrun，一个rank退出就全停。", RIGHT),

    ("hang-uneven-batches", "why", "Why does it hang?", WRONG),
    ("hang-uneven-batches", "why", "The eval dataset is too big, so evaluate() takes longer than the NCCL timeout.",
     WRONG),
    ("hang-uneven-batches", "why", "Uneven shards: rank 3 has one batch fewer (no padding, no drop_last), so on "
     "the last step it is in evaluate()'s barrier while the other seven wait in the backward all-reduce. Mismatched "
     "collectives.", RIGHT),
    ("hang-uneven-batches", "why", "rank 3的shard少一个batch，最后一步它已经跳出循环去eval的barrier了，别的rank还在all-reduce里等它。", RIGHT),

    ("hang-uneven-batches", "fix", "What is the fix?", WRONG),
    ("hang-uneven-batches", "fix", "Evaluate less often, every two epochs.", WRONG),
    ("hang-uneven-batches", "fix", "Every rank must run the same number of steps: DistributedSampler with "
     "drop_last=True or pad the last batch.", RIGHT),
    ("hang-uneven-batches", "fix", "保证各rank的batch数相等：DistributedSampler加drop_last，或者把短的pad齐。", RIGHT),

    ("led-dense-400b", None, "We want to pre-train a dense model of about 400B parameters on roughly 8,000 H100s. Walk "
     "me through how you would do it.", WRONG),
    ("led-dense-400b", None, "First I'd ask about the tokens, the deadline and the network. Model state is about 16 "
     "bytes per parameter, 6.4 TB, plus activations: dozens of GPUs per copy. TP 8 inside each node, PP 16 across "
     "nodes, rest DP with the distributed optimizer. 6ND at 40% MFU gives the days. Async sharded checkpoints "
     "every ~30 min with automatic restart; monitor MFU, loss spikes and per-rank step time.", RIGHT),

    ("pitch-recipe", None, "In thirty seconds: how do you lay out and run the training of a large model on a big GPU "
     "cluster?", WRONG),
    ("pitch-recipe", None, "先算memory：每参数约16字节加activation，一份模型要几张卡。TP机内最多8，PP跨机，m≥4p，长序列CP，MoE上EP，剩下DP加ZeRO-1。"
     "通信overlap，FP8，MFU四成左右；慢就profile，hang就找缺席的rank。", RIGHT),
]

# Fourth batch, measured before the changes it led to: more strong wordings (where the third batch found the
# rubrics weakest) and fluent wrong answers that sound like the right ones.
MOCK_CASES += [
    ("behavioural-hang-story", None, "Situation: 1,536 GPUs, 175B run, froze twice a week around the eval step, then "
     "NCCL watchdog. Action: py-spy on all ranks plus TORCH_DISTRIBUTED_DEBUG=DETAIL; rank 0 was in a broadcast the "
     "others never called. Cause: an eval-only broadcast under if rank == 0. Result: fixed in a day, ~30 GPU-days "
     "lost. After: a two-rank test of the eval path and dump-on-timeout by default.", RIGHT),
    ("behavioural-hang-story", None, "一次训练hang住了，我们看了日志，重启了几次，后来换了个NCCL版本就好了。", WRONG),
    ("behavioural-hang-story", None, "We had a hang on 512 GPUs at step 30k. I dumped all the stacks and saw that one "
     "rank was missing from the all-reduce. We restarted the job.", WRONG),

    ("debug-data-loading", "next", "Make the input pipeline cheap: tokenize and pack everything offline into "
     "pre-tokenized shards, so the loader only slices tensors. Verify with the profiler that the idle stretch before "
     "the first forward is gone and that throughput rises.", RIGHT),
    ("debug-data-loading", "next", "把num_workers从8调到32，打开pin_memory和prefetch；再重新profile一次，确认第一个forward前的空白没了，MFU上去了。", RIGHT),
    ("debug-data-loading", "next", "The step is compute-bound: 52% is GEMMs, so I'd switch to FP8 and measure MFU again.",
     WRONG),

    ("debug-exposed-communication", "next", "Enable the overlap flags (--overlap-grad-reduce, --overlap-param-gather); "
     "it's not the network, nccl-tests is at rated bandwidth. Success: NCCL kernels overlap backward in the new trace "
     "and step time falls by roughly the 27%.", RIGHT),
    ("debug-exposed-communication", "next", "开overlap：加--overlap-grad-reduce和--overlap-param-gather。验证：新的trace里NCCL和backward的kernel同时跑，step time下降。",
     RIGHT),
    ("debug-exposed-communication", "next", "Switch the distributed optimizer off and use plain DDP with a bigger bucket "
     "size; then the all-reduce will overlap by itself.", WRONG),

    ("debug-launch-bound", "next", "torch.compile with mode='reduce-overhead' (it uses CUDA graphs) to collapse the "
     "launches, and micro-batch 8 instead of 1 with no accumulation. Then MFU should jump and the kernel gaps vanish "
     "from the trace.", RIGHT),
    ("debug-launch-bound", "next", "cuda graph录一次整步，之后一次launch重放；loss别每步item。然后重测MFU。", RIGHT),
    ("debug-launch-bound", "next", "The gaps are the NCCL all-reduce waiting; turn on overlap and it will go away.",
     WRONG),

    ("debug-straggler", "next", "Straggler, not the network: rank 213 runs at low clocks. Confirm it by comparing "
     "per-rank compute times, read its throttle reasons (power, thermal) in nvidia-smi -q, then cordon the node, bring "
     "in a spare and resume from the checkpoint. Done when the others' reduce-scatter waits drop back to ~1%.", RIGHT),
    ("debug-straggler", "next", "把rank 213那台机器换掉，从checkpoint重启，然后看其他rank在reduce-scatter里的等待是不是降下来了。", RIGHT),
    ("debug-straggler", "next", "Rank 213 is the fast one — it has 92% compute — so the other ranks are slow; "
     "replace the other nodes' GPUs.", WRONG),

    ("followup-why-not-more-pp", None, "Because PP needs more GPUs per stage and the network is too slow for it.", WRONG),

    ("followup-why-not-fsdp", None, "Scale. FSDP alone means DP over all GPUs; the global batch can't grow with it, so "
     "each GPU gets a tiny batch and the per-layer parameter all-gathers, across nodes, can't be hidden. TP and PP "
     "keep DP small.", RIGHT),
    ("followup-why-not-fsdp", None, "FSDP can't fit a model this size; it only shards gradients, so we need TP and PP "
     "to split the weights.", WRONG),

    ("followup-why-not-bigger-tp", None, "An H100 node has 8 GPUs. TP 16 crosses to a second node, and TP's "
     "all-reduces, several per layer, would go over InfiniBand, roughly 9x less bandwidth than NVLink.", RIGHT),
    ("followup-why-not-bigger-tp", None, "TP16会跨机，TP每层的通信得走IB，比NVLink慢一个数量级；跨机交给PP，只传activation。", RIGHT),
    ("followup-why-not-bigger-tp", None, "Because 16 does not divide the number of layers, so TP 16 is not allowed.",
     WRONG),

    ("followup-when-cp-pays-off", None, "CP is for sequences so long that one sequence's activations don't fit, even "
     "with TP 8 and recompute, e.g. 128K+. Below ~16K the attention math is too small to hide the K/V exchange, so "
     "it's pure overhead.", RIGHT),
    ("followup-when-cp-pays-off", None, "CP把序列切到多张卡上，长序列（几十k以上）activation放不下时才开；短序列时KV通信盖不住，只会拖慢。", RIGHT),
    ("followup-when-cp-pays-off", None, "CP pays off whenever you have more GPUs than you can use with DP; it is a "
     "waste when the model is small.", WRONG),

    ("followup-why-tp-in-node", None, "Because TP is on the critical path of every layer: each block does "
     "all-reduces in forward and backward that nothing can overlap. Over IB (~50 GB/s/GPU vs ~450 NVLink) every "
     "layer would wait, so TP ≤ 8 within the node.", RIGHT),
    ("followup-why-tp-in-node", None, "TP每层都要all-reduce，forward和backward都有，在关键路径上；NVLink大约450GB/s，IB大约50GB/s，跨机每层都卡。",
     RIGHT),
    ("followup-why-tp-in-node", None, "Because TP shards the optimizer state, which must stay on one node; the "
     "communication is the same as DP.", WRONG),

    ("followup-why-m-4p", None, "With p stages the pipeline spends p-1 micro-batch slots filling and draining, so "
     "the bubble is (p-1)/m of the step. m ≥ 4p keeps that under a quarter.", RIGHT),
    ("followup-why-m-4p", None, "m越大bubble越小，bubble=(p-1)/m，4p的时候大约是1/4。", RIGHT),
    ("followup-why-m-4p", None, "Because with fewer than 4p micro-batches the gradients are too noisy to converge.",
     WRONG),

    ("followup-nvidia-smi", None, "Utilization in nvidia-smi is time-based: the percent of samples where any kernel "
     "was executing. It does not care how many SMs or tensor cores the kernel used. Small, memory-bound kernels keep "
     "it at 100% while MFU, useful FLOPs over peak, stays low.", RIGHT),
    ("followup-nvidia-smi", None, "utilization只统计时间：只要有kernel在跑就算忙，不管kernel用了多少SM。所以小kernel一个接一个也是100%，MFU却很低。",
     RIGHT),
    ("followup-nvidia-smi", None, "nvidia-smi measures memory bandwidth, and MFU measures compute; the model is "
     "memory-bound, that's all.", WRONG),

    ("followup-moving-hang", None, "A moving hang is the signature of hardware or the fabric, since code and data "
     "bugs are deterministic. I'd collect the flight recorder from each run, note which rank/host stalls, look for the "
     "host in common, then nccl-tests that node and check dmesg for Xid; drain it.", RIGHT),
    ("followup-moving-hang", None, "每次停的step不同，我会怀疑硬件：找出每次缺席的rank在哪台机器，看是不是同一台，对它跑nccl-tests和DCGM，最后下线。",
     RIGHT),
    ("followup-moving-hang", None, "It moves because the data is shuffled differently each run, so it's a data bug; "
     "I'd fix the seed.", WRONG),

    ("followup-raise-timeout", None, "I'd push back. A timeout firing means some rank isn't in the collective; "
     "raising it doesn't fix that, it only hides it longer while every GPU idles. I'd rather keep it short and dump "
     "the flight recorder on timeout to see which rank.", RIGHT),
    ("followup-raise-timeout", None, "调大timeout解决不了问题，只是掩盖：有rank没进collective，集群空转更久。我会保持timeout短一点，开flight recorder自动dump。",
     RIGHT),
    ("followup-raise-timeout", None, "Fine by me: a longer timeout gives slow ranks time to catch up, and that "
     "solves it.", WRONG),

    ("hang-checkpoint-rank0", "why", "All_gather is called only on rank 0 (inside if rank == 0 in save_checkpoint). "
     "Ranks 1-7 skip it, start step 1201 and block in DDP's gradient all-reduce; rank 0 blocks in all_gather. "
     "Mismatched collectives, so neither finishes. 1200 is a checkpoint step.", RIGHT),
    ("hang-checkpoint-rank0", "why", "Rank 0 is gathering the full state for the checkpoint, which is slow for a "
     "70B model, so everyone waits a long time at step 1200.", WRONG),

    ("hang-checkpoint-rank0", "fix", "Move the all_gather out of the rank-0 branch so all ranks join it, write the "
     "file on rank 0 only. For next time: TORCH_DISTRIBUTED_DEBUG=DETAIL in CI to catch mismatched collectives, and a "
     "short timeout with flight-recorder dumps.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Make only rank 0 call the all_gather and the others wait at a barrier until it "
     "finishes.", WRONG),

    ("hang-oom-dead-rank", "why", "Rank 5 died of a CUDA OOM on the step-3072 batch, which packs a 32K-token "
     "sequence; activations scale with sequence length. The remaining ranks are stuck in all-reduce for a dead "
     "peer, and with srun nobody tears them down. Same data order, same step.", RIGHT),
    ("hang-oom-dead-rank", "why", "Rank 5 is slow because it got the longest batch, and the others wait for it to "
     "finish.", WRONG),

    ("hang-oom-dead-rank", "fix", "Bucket or cap sequence lengths when packing so no batch exceeds memory, or size "
     "recomputation for the 32K worst case; add srun --kill-on-bad-exit=1 so a dead rank ends the job.", RIGHT),
    ("hang-oom-dead-rank", "fix", "Give rank 5 a GPU with more memory and keep everything else the same.", WRONG),

    ("hang-uneven-batches", "why", "The sampler leaves the remainder, so rank 3 gets one batch fewer and exits "
     "the loop a step early; it's then in evaluate()'s barrier while the rest are in the gradient all-reduce. "
     "Different collectives, so it deadlocks.", RIGHT),
    ("hang-uneven-batches", "why", "The barrier in evaluate() is broken: it waits for ranks that have already "
     "evaluated.", WRONG),

    ("hang-uneven-batches", "fix", "Equalize the number of batches: DistributedSampler(drop_last=True), or pad, or "
     "all-reduce the per-rank count and stop everyone at the minimum.", RIGHT),
    ("hang-uneven-batches", "fix", "Call the barrier on rank 3 only, so the others don't wait.", WRONG),

    ("led-dense-400b", None, "Clarify first: token budget, time to train, sequence length, interconnect. Memory: 400B "
     "x 16 bytes = 6.4 TB for weights, grads and Adam, plus activations, so a copy spans ~10 nodes. Layout: TP 8 "
     "intra-node, PP 16 across nodes, DP for the rest with a sharded optimizer. Time: 6ND / (8k GPUs x 989 TFLOP/s x "
     "40% MFU). Failures every few hours at this size, so async checkpoints and auto-restart. Monitor MFU, loss and "
     "grad norm, per-rank step times.", RIGHT),
    ("led-dense-400b", None, "I'd start with TP 8 and PP 16, then figure out memory later, and checkpoint once a day.",
     WRONG),

    ("pitch-recipe", None, "Memory decides the GPUs per copy: ~16 bytes a parameter plus activations. TP within a "
     "node (≤8, NVLink), PP across nodes with ≥4 micro-batches per stage, CP only for long sequences, DP outermost "
     "with ZeRO-1. Overlap comms, FP8, about 40% MFU. Slow: profile. Hung: find the rank missing from the "
     "collective.", RIGHT),
    ("pitch-recipe", None, "I'd put DP inside the node and TP across nodes, then use ZeRO-3 everywhere.", WRONG),
]


# Fifth batch, terse shorthand (numbered steps, arrows, abbreviations), measured before the changes it led to:
# 6 of 45 misgraded; three of them the reader's, not a rubric's (KNOWN_MISREADS).
MOCK_CASES += [
    ("behavioural-hang-story", None, "- Situation: 8x8 H100 pretrain, hung at step 77k, NCCL watchdog after 10 min. - Action: py-spy dump "
     "of every rank; 63 in all_reduce, one in recv. - Cause: a pipeline stage skipped a send on an empty "
     "batch. - Result: fixed same day, ~5h lost. - After: added a unit test for empty batches.", RIGHT),
    ('behavioural-hang-story', None, '我们的任务在第5万步卡住了，我查了很久，最后发现是网络问题，重启之后好了。', WRONG),
    ("debug-data-loading", "next", "1) pretokenize offline 2) num_workers 8->32, prefetch 3) re-profile: idle 41% -> ~0, step 17s -> "
     "~10s", RIGHT),
    ("debug-data-loading", "next", "Check whether the GPUs are really idle with nvidia-smi, since it shows 70-100%.", WRONG),
    ('debug-data-loading', 'next', '数据加载慢，我会离线做tokenize。', WRONG),
    ("debug-exposed-communication", "next", "1) turn on --overlap-grad-reduce + --overlap-param-gather 2) re-trace: NCCL now under backward, step"
     " 13 s -> ~10 s", RIGHT),
    ('debug-exposed-communication', 'next', 'Lower the TP degree from 8 to 4 so there is less communication.', WRONG),
    ('debug-launch-bound', 'next', 'Add more GPUs so each one has less work.', WRONG),
    ("debug-straggler", "next", "1) per-rank step time to confirm r213 2) nvidia-smi -q -d PERFORMANCE on its node (throttle) 3) "
     "drain + replace, resume from ckpt 4) RS wait back to ~1%", RIGHT),
    ('debug-straggler', 'next', '所有rank都在等，说明是集体通信的问题，把NCCL的算法换成tree。', WRONG),
    ("followup-why-not-more-pp", None, "more stages = bigger bubble at fixed m (global batch fixed), plus first stage memory doesn't shrink "
     "much", RIGHT),
    ('followup-why-not-more-pp', None, "Because the layers don't divide evenly by more stages.", WRONG),
    ("followup-why-not-fsdp", None, "global batch / #GPUs -> too few tokens per GPU under pure FSDP; per-layer weight all-gathers over IB"
     " can't hide. TP/PP cut DP.", RIGHT),
    ('followup-why-not-fsdp', None, 'FSDP uses more memory than TP and PP.', WRONG),
    ('followup-why-not-bigger-tp', None, 'TP 16 is too much memory.', WRONG),
    ("followup-when-cp-pays-off", None, "long ctx (128k) where acts OOM even w/ TP8+recompute -> CP. short seq -> KV exchange not hidden -> "
     "waste", RIGHT),
    ('followup-when-cp-pays-off', None, 'CP pays off when you want a bigger global batch.', WRONG),
    ("followup-why-tp-in-node", None, "TP: all-reduce per layer, fwd+bwd, blocking -> needs NVLink (450 GB/s) not IB (50).", RIGHT),
    ('followup-why-tp-in-node', None, 'TP stays inside the node because the node has the CPU memory.', WRONG),
    ('followup-why-m-4p', None, 'bubble frac = (p-1)/m; m >= 4p -> < 25%', RIGHT),
    ('followup-why-m-4p', None, 'So that each GPU has four copies of the model.', WRONG),
    ("followup-nvidia-smi", None, "util = % of time a kernel is running, not how busy the SMs are. tiny kernels -> 100% util, low MFU.", RIGHT),
    ('followup-nvidia-smi', None, 'MFU is computed per step and nvidia-smi per second, so they disagree.', WRONG),
    ("followup-moving-hang", None, "moving -> HW/fabric suspect. map stuck rank -> host each run, find common host, nccl-tests + Xid "
     "check, drain it.", RIGHT),
    ('followup-moving-hang', None, "I'd raise the timeout so it stops moving.", WRONG),
    ("followup-raise-timeout", None, "no. timeout = symptom; a rank is missing. longer timeout = longer idle. keep it short, dump flight "
     "recorder.", RIGHT),
    ('followup-raise-timeout', None, 'Yes, a longer timeout helps big jobs.', WRONG),
    ("hang-checkpoint-rank0", "why", "rank0 only -> all_gather in save_checkpoint; ranks 1-7 -> next step's allreduce. mismatch = "
     "deadlock. 1200 = ckpt step.", RIGHT),
    ('hang-checkpoint-rank0', 'why', 'Because rank 0 runs out of memory when it gathers the full 70B state.', WRONG),
    ("hang-checkpoint-rank0", "fix", "all ranks call the gather, only rank 0 writes; short PG timeout + flight recorder dump on timeout.", RIGHT),
    ('hang-checkpoint-rank0', 'fix', 'Use a faster disk for the checkpoint.', WRONG),
    ("hang-oom-dead-rank", "why", "r5 OOM (32k seq in batch 3072) -> exited; others block in allreduce; srun doesn't kill them. same "
     "data order -> same step.", RIGHT),
    ('hang-oom-dead-rank', 'why', 'The data loader on rank 5 is slow on long sequences.', WRONG),
    ("hang-oom-dead-rank", "fix", "cap seq len when packing + torchrun (agent kills all on failure) + short timeout", RIGHT),
    ('hang-oom-dead-rank', 'fix', 'Restart the job; it was a one-off.', WRONG),
    ("hang-uneven-batches", "why", "r3: 1 batch fewer (no pad/drop_last) -> eval barrier; others -> allreduce. mismatch -> hang.", RIGHT),
    ('hang-uneven-batches', 'why', "Rank 3's eval is slower than training.", WRONG),
    ('hang-uneven-batches', 'fix', 'drop_last=True (DistributedSampler) or pad -> same #steps on all ranks.', RIGHT),
    ('hang-uneven-batches', 'fix', 'Give rank 3 a faster GPU.', WRONG),
    ('led-dense-400b', None, '我会先问token数和截止时间。显存每参数2字节，800GB，十张卡就够；TP跨机开16。', WRONG),
    ("pitch-recipe", None, "mem first (16 B/param + acts) -> GPUs/copy; TP<=8 in node; PP across nodes, m>=4p; CP long ctx; EP "
     "MoE; rest DP+ZeRO-1; overlap comms; FP8; ~40% MFU; slow->profile; hang->missing rank", RIGHT),
    ('pitch-recipe', None, 'Use as many GPUs as possible with DP and hope for the best.', WRONG),
]


# Sixth batch, the calibration of short answers: the main reason alone is not right, the main reason with its
# consequence is (0 of 44 misgraded when written).
MOCK_CASES += [
    ("behavioural-hang-story", None, "A 128-GPU run hung at step 2000. I looked at py-spy stacks on all ranks and found rank 7 in a "
     "different collective.", WRONG),
    ("behavioural-hang-story", None, "Our 64-GPU job froze at step 800 with an NCCL timeout. I compared py-spy stacks of every rank: rank "
     "2 was in a barrier the others never reached. The cause was a collective only some ranks called in "
     "the eval code. We fixed it that afternoon and lost about 3 hours; afterwards I added a test that "
     "runs eval on two ranks.", RIGHT),
    ("debug-data-loading", "next", "I'd add more DataLoader workers.", WRONG),
    ("debug-data-loading", "next", "Profile the DataLoader workers to see where the CPU time goes.", WRONG),
    ("debug-data-loading", "next", "Add DataLoader workers and prefetching so batches are ready before the GPU asks; success is the idle"
     " gap before the first forward disappearing from the trace.", RIGHT),
    ("debug-exposed-communication", "next", "Turn on overlap.", WRONG),
    ("debug-exposed-communication", "next", "Turn on --overlap-grad-reduce and --overlap-param-gather, then check the new trace shows NCCL beside"
     " the backward kernels.", RIGHT),
    ("debug-exposed-communication", "next", "The nccl-tests look fine, so I would check the NCCL environment variables and the topology file.", WRONG),
    ("debug-launch-bound", "next", "Use CUDA graphs.", WRONG),
    ("debug-launch-bound", "next", "Increase the learning rate warm-up and measure MFU again.", WRONG),
    ("debug-launch-bound", "next", "Cut the launch overhead with CUDA graphs, then confirm in a new trace that the small gaps between "
     "kernels are gone.", RIGHT),
    ("debug-straggler", "next", "Replace rank 213's node.", WRONG),
    ("debug-straggler", "next", "Replace rank 213's node and restart from the checkpoint; then check that the other ranks' wait in "
     "the reduce-scatter drops.", RIGHT),
    ("debug-straggler", "next", "Turn on overlap for the reduce-scatter so the wait is hidden behind backward, then re-measure.", WRONG),
    ("followup-why-not-more-pp", None, "More stages make the bubble bigger.", WRONG),
    ("followup-why-not-more-pp", None, "More stages make the bubble bigger, (p-1)/m, because the global batch fixes m.", RIGHT),
    ("followup-why-not-fsdp", None, "FSDP over thousands of GPUs leaves too few tokens per GPU.", WRONG),
    ("followup-why-not-fsdp", None, "FSDP over thousands of GPUs leaves too few tokens per GPU from the fixed global batch, so the "
     "per-layer weight all-gathers across nodes can't be hidden.", RIGHT),
    ("followup-why-not-bigger-tp", None, "TP 16 spans two nodes.", WRONG),
    ("followup-when-cp-pays-off", None, "CP is for long sequences.", WRONG),
    ("followup-when-cp-pays-off", None, "CP pays off for long sequences whose activations don't fit even with TP 8 and recompute; for short "
     "ones the KV exchange can't be hidden, so it's a waste.", RIGHT),
    ("followup-why-tp-in-node", None, "TP communicates in every layer.", WRONG),
    ("followup-why-m-4p", None, "To make the bubble smaller.", WRONG),
    ("followup-why-m-4p", None, "The bubble is (p-1)/m, so at m = 4p it is under a quarter of the step.", RIGHT),
    ("followup-nvidia-smi", None, "nvidia-smi only shows that a kernel is running.", WRONG),
    ("followup-nvidia-smi", None, "nvidia-smi only shows that some kernel is running, not how much of the GPU it uses; MFU compares "
     "useful FLOPs with the peak.", RIGHT),
    ("followup-moving-hang", None, "It's probably hardware.", WRONG),
    ("followup-moving-hang", None, "It's probably hardware or the network rather than code; I'd map the missing rank to its node on each"
     " run and look for the node they share.", RIGHT),
    ("followup-raise-timeout", None, "The timeout is not the cause.", WRONG),
    ("followup-raise-timeout", None, "The timeout is not the cause: a rank is missing from the collective. Keep the timeout short and dump"
     " the flight recorder when it fires.", RIGHT),
    ("hang-checkpoint-rank0", "why", "Only rank 0 calls the all_gather.", WRONG),
    ("hang-checkpoint-rank0", "why", "Only rank 0 calls the all_gather in save_checkpoint, so the others never join it; step 1200 is when "
     "the checkpoint is saved.", RIGHT),
    ("hang-checkpoint-rank0", "fix", "Move the all_gather out of the if.", WRONG),
    ("hang-checkpoint-rank0", "fix", "Move the all_gather out of the if rank == 0 so every rank calls it, and keep the timeout short with "
     "the flight recorder on.", RIGHT),
    ("hang-oom-dead-rank", "why", "Rank 5 ran out of memory.", WRONG),
    # why at the same step on every run left unanswered: refused since round 3 (2026-12-03)
    ("hang-oom-dead-rank", "why", "Rank 5 ran out of memory on the batch with the 32K sequence and exited, and the other ranks wait for"
     " it in the all-reduce.", WRONG),
    ("hang-oom-dead-rank", "fix", "Cap the sequence length.", WRONG),
    ("hang-oom-dead-rank", "fix", "Cap the sequence length when packing so the longest batch fits, and launch with torchrun so a dead "
     "rank stops the job.", RIGHT),
    ("hang-uneven-batches", "why", "Rank 3 has one batch fewer.", WRONG),
    ("hang-uneven-batches", "why", "Rank 3 has one batch fewer, so it waits in evaluate()'s barrier while the others wait in the "
     "all-reduce.", RIGHT),
    ("hang-uneven-batches", "fix", "Use drop_last.", RIGHT),
    ("led-dense-400b", None, "First I'd ask about tokens and the deadline. Then 16 bytes per parameter, so 6.4 TB.", WRONG),
    ("pitch-recipe", None, "Memory first, 16 bytes a parameter. TP inside the node.", WRONG),
    ("pitch-recipe", None, "Memory first: 16 bytes a parameter plus activations give the GPUs per copy. TP inside the node, PP "
     "across nodes, the rest DP with the distributed optimizer. Overlap communication and aim for 40% MFU.", RIGHT),
]


def test_a_formula_in_brackets_is_read_whole():
    """It was cut at its bracket ("so (p-1)/m goes up" read "so m goes up" and "p 1") until the
    reader kept a bracket glued to an operator (s27-grade2); a KNOWN_MISREADS case before."""
    answer = ("Bubble. At fixed global batch, m per pipeline doesn't grow when you add stages, so (p-1)/m goes up; "
              "halving DP just restores m. And 1F1B's first stage keeps p micro-batches of activations, so the "
              "memory win is smaller than it looks.")
    assert grade(library().question("followup-why-not-more-pp"), answer, None).correct


@pytest.mark.parametrize(("qid", "answer", "point"), [
    # the walkthrough's M8 misses, point by point
    ("pitch-recipe", "Memory first, TP in node, PP across nodes, DP for the rest.", "tp-in-node"),
    ("followup-when-cp-pays-off", "CP divides s.", "divides-sequence"),
])
def test_the_walkthroughs_terse_points_are_credited(qid, answer, point):
    assert point in grade(library().question(qid), answer, None).details["covered"]


# Read wrongly once (KNOWN_MISREADS), each by a general rule of the reader: a numbered list read as
# one bare clause (each "N)" item is its own clause now, boundaries.py), and more below.
MOCK_CASES += [
    ('debug-launch-bound', 'next',
     '1) CUDA graphs / torch.compile 2) mbs 1 -> 8 3) log loss every 50 steps. Then MFU should go up, verify with a new trace.',
     RIGHT),
    # glued "TP16", and a clause whose comparison of two figures made a long run of terms
    ('followup-why-not-bigger-tp', None,
     'TP16 leaves the NVLink domain: per-layer all-reduces over IB (~50 vs 450 GB/s). Use PP across nodes instead.',
     RIGHT),
    ('followup-why-not-bigger-tp', None,
     'TP NVLink IB domain node 50 vs 450 GB/s all-reduce per layer PP nodes DP overlap', WRONG),
]


@pytest.mark.parametrize("answer", [
    "把NCCL timeout调大到一个小时，再把TORCH_NCCL_BLOCKING_WAIT关掉就不会hang了。",  # typed in tmux
    "Raise the NCCL timeout to an hour so the last step has time to finish.",
])
def test_raising_the_timeout_as_the_fix_is_named_not_just_scored_zero(answer):
    verdict = grade(library().question("hang-uneven-batches"), answer, "fix")
    assert not verdict.correct and verdict.details["contradicted"] == ["same-steps"], verdict.details


MOCK_CASES += [
    # a whiteboard plan: "Q first:" heads the questions, "Time:" the 6ND formula it is for (was the last
    # strict xfail, KNOWN_MISREADS)
    ('led-dense-400b', None,
     'Q first: tokens, deadline, seq len, network. Mem: 16 bytes/param x 400B = 6.4 TB + acts. Layout: TP8 in node, PP16 across, DP rest + ZeRO-1. Time: 6ND/(8k*989T*0.4). Reliability: async ckpt ~30 min (MTBF), auto-restart. Monitor: MFU, loss/grad-norm spikes, per-rank step time.',
     RIGHT),
    ('led-dense-400b', None, 'Q first tokens deadline seq len network 6ND time MFU TP8 PP16 ZeRO-1 ckpt MTBF restart', WRONG),
    ('led-dense-400b', None, 'No questions first, just assume. Time does not matter, skip 6ND. TP 8 PP 16, checkpoints.', WRONG),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), MOCK_CASES,
                         ids=[f"{q}-{s or 'main'}-{i}" for i, (q, s, _, _) in enumerate(MOCK_CASES)])
def test_a_mock_step_reads_the_answer_as_an_interviewer_would(qid, step, answer, right):
    verdict = grade(library().question(qid), answer, step)
    assert verdict.correct is right, (verdict.score, verdict.details["covered"], verdict.feedback["en"])


@lru_cache(maxsize=1)
def _open_steps():
    """(question, step id or None) of every open step of the interview's own scenarios."""
    from pathlib import Path

    import yaml

    loader = yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader
    root = Path(__file__).resolve().parents[2] / "interview"
    steps = []
    for path in sorted(root.glob("*.yaml")):
        for entry in yaml.load(path.read_text(encoding="utf-8"), Loader=loader):
            if "id" not in entry:
                continue
            question = library().question(entry["id"])
            steps += [(question, step.id if len(question.steps) > 1 else None) for step in question.steps
                      if step.kind == "open"]
    return tuple(steps)


def test_every_mock_open_step_is_tried_four_ways_each():
    """Four strong answers and four wrong ones a step at least, for every open step of interview/*.yaml: a
    new scenario's rubric is tried as candidates answer before it ships."""
    steps = {(question.id, step_id) for question, step_id in _open_steps()}
    assert len(steps) >= 22
    short = []
    for qid, step_id in sorted(steps, key=str):
        rights = sum(1 for q, s, _, right in MOCK_CASES if (q, s) == (qid, step_id) and right)
        wrongs = sum(1 for q, s, _, right in MOCK_CASES if (q, s) == (qid, step_id) and not right)
        if rights < 4 or wrongs < 4:
            short.append(f"{qid}/{step_id}: {rights} right, {wrongs} wrong")
    assert not short, short


def test_every_mock_model_answer_passes_its_own_rubric_in_both_languages():
    """The scenario files test_topic_rubrics does not cover (debug, hangs, follow-ups): a model answer its
    own rubric turns down would teach the learner that the grader is wrong."""
    failing = []
    for question, step_id in _open_steps():
        step = next(step for step in question.steps if step_id is None or step.id == step_id)
        for lang in ("en", "zh"):
            verdict = grade(question, getattr(step.model_answer, lang), step_id)
            if not verdict.correct or verdict.score < 1:
                failing.append(f"{question.id}/{step.id} {lang}: {verdict.details['missing']}")
    assert not failing, failing
