"""Round 4 of hand-written lab diagnoses (2026-12-03, s33-dfr2; none from the labelled benchmark) for
slow-dataloader, exposed-comm, launch-bound, straggler, kernel-fusion, fp8-matmul, cuda-graphs, group-order,
exit-hang, stalled-loader and busy-rank, in voices that brush against the contradictions added today without
making them: the wrong idea named and rejected ("not X", "rather than X", "X would not help", "people often X,
but ...", "不是 X", "而不是 X"), the candidate's own first guess corrected ("I first thought it was compute,
but ..."), another setting (on a GPU cluster, an H100), numbers written differently (~3x, 1/3, 2k, 57,344),
the right fix plus a harmless extra, glosses in brackets ("started (forked)"), terse shorthand, rambling speech,
Chinese with English terms, bullets, evidence first; the logging rank placed by its process group alone ("rank 1
waits in group 2"); and 3 wrong ones per lab as guards. Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False


SLOW_DATALOADER = [
 ('slow-dataloader', "Not communication and not launch overhead: it is data loading. About 2/3 of each step passes before the first op runs, and with --vary data (synthetic) the step is ~3x faster. The loader re-tokenizes each whole document in Python every step. Fix: tokenize once up front and slice the saved ids.", R),
 ('slow-dataloader', "People often blame the all-reduce here, but the trace says otherwise: data loading. The step sits idle before its first operation; synthetic data removes that gap. Cause: BPE encode of full documents inside next_batch on every step. Fix: pre-tokenize the corpus offline and keep the token ids.", R),
 ('slow-dataloader', "data loading. idle ~65% before 1st op; synthetic data -> step drops to compute only. cause: python tokenizer re-encodes whole docs each step. fix: tokenize once before training, slice cached ids.", R),
 ('slow-dataloader', "I first thought it was compute, but the MFU is low because the step is starving: data loading. Each step the main thread tokenizes whole documents before any op can start; synthetic batches make it much faster. Tokenizing once beforehand and slicing the stored ids fixes it, and the windows stay the same.", R),
 ('slow-dataloader', "不是通信问题，而是数据加载。每个 step 的第一个 op 之前有三分之二的时间在空等，换成 synthetic data 之后 step 快了 3 倍左右。原因是 next_batch 每步都用 Python 的 BPE 重新对整篇文档分词。修复：训练前一次性分词，保存 token id，之后只做切片。", R),
 ('slow-dataloader', "- category: data loading\n- evidence: the first op of each step starts late (most of the step is before it); --vary data with synthetic data is far faster\n- cause: tokenizer runs over every whole document each step\n- fix: tokenize once ahead of time and cache the ids (plus, harmlessly, log the step time)", R),
 ('slow-dataloader', "So, um, looking at the trace, each step there's this big empty stretch at the start, like two thirds of it, before forward even begins, and when I ran the synthetic-data experiment that stretch was gone. That's data loading. The loader re-runs the pure-Python tokenizer on the entire document each step just to cut one window. I'd tokenize everything once before the loop and then just slice the token ids.", R),
 ('slow-dataloader', "Evidence first: synthetic data makes the step ~3x faster, and the trace shows no operation in the first ~65% of each step. Category: data loading. Cause: the documents are encoded from scratch each step. Fix: encode them once at startup and reuse the ids, rather than shrinking the batch.", R),
 ('slow-dataloader', "Data loading. The step waits for its batch: nothing runs before the first op for most of the step, and fake data is much faster. A faster model would not help; the tokenizer in next_batch re-encodes full documents every step. Fix: cache the token ids from a one-time tokenization pass.", R),
 ('slow-dataloader', "数据加载（data loading）。trace 里每步开头空着，合成数据快很多。不是模型算得慢，而是每步都在重新分词整篇文档。修复：预先分词一次，存 token ids，next_batch 只切片。", R),
 ('slow-dataloader', "On a GPU cluster I would add DataLoader workers, but here the core problem is data loading: every step re-tokenizes whole documents in Python before the first op can start, and synthetic data shows the step without it is much faster. Fix: tokenize once before training and slice the ids.", R),
 ('slow-dataloader', "Data loading: the batch is the bottleneck. Step idle until the first op (~2/3 of it); synthetic data removes the idle time. Cause: re-tokenization of each document per step. Fix: offline preprocessing — tokenize once, store ids, slice.", R),
 ('slow-dataloader', "It's communication: the all-reduce after backward takes most of the step. Fix: use bigger buckets.", W),
 ('slow-dataloader', "Data loading: the step waits at the start. Fix: use fewer documents and shorter sequences so tokenization is quicker.", W),
 ('slow-dataloader', "Data loading. The model forward is slow, so the next batch waits. Fix: a smaller model.", W),
]

EXPOSED_COMM = [
 ('exposed-comm', "Communication, not data loading: ~40% of each step is all-reduce that runs after backward, one per parameter, with the main thread waiting. One rank alone is much faster. Fix: wrap the model in DDP so gradients are bucketed and all-reduced while backward runs.", R),
 ('exposed-comm', "Communication. The gloo all-reduces come after backward, serialised, 53 of them, nothing overlapping. With --vary ranks the single rank is far quicker. Each parameter's gradient is reduced on its own after backward. Fix: DistributedDataParallel, buckets overlapped with backward.", R),
 ('exposed-comm', "comm, exposed. allreduce spans after bwd, back to back, main thread idle; 1 rank >> faster. cause: per-param sync allreduce after backward. fix: DDP (bucketing + overlap).", R),
 ('exposed-comm', "通信问题，而不是计算。trace 里 all-reduce 都在 backward 之后一个接一个地跑，主线程在等；单 rank 快得多。原因：每个参数的梯度在 backward 之后单独同步 all-reduce。修复：用 DDP，把梯度分桶，在 backward 过程中异步 all-reduce。", R),
 ('exposed-comm', "People often think more bandwidth is the answer, but these all-reduces are tiny and latency-bound: communication, exposed after backward, one per parameter. Trace: the collectives follow backward with no compute beside them; one rank alone is faster. Fix: DDP buckets the grads and overlaps the reduction with backward.", R),
 ('exposed-comm', "Evidence: trace summary ~40% of the step in non-overlapped communication; the all-reduce spans start only after backward ends. Category: communication. Cause: manual averaging loop calls all_reduce per param synchronously. Fix: DistributedDataParallel instead of the manual loop.", R),
 ('exposed-comm', "- category: communication\n- shows: all-reduces after backward, sequential, main thread waiting; one rank alone much faster\n- cause: every grad all-reduced separately after backward, paying latency each time\n- fix: DDP with gradient buckets overlapped with backward", R),
 ('exposed-comm', "I'd call it communication. Overlap is what's missing: the gradient all-reduce happens strictly after backward, param by param. Compare 1 rank vs 2: the step grows a lot. Wrap in DDP so the buckets are reduced asynchronously during backward.", R),
 ('exposed-comm', "是通信：梯度 all-reduce 没有和 backward 重叠，在 backward 之后逐个参数同步。单卡快很多。修法：换成 DistributedDataParallel，梯度分桶，边 backward 边 all-reduce。", R),
 ('exposed-comm', "Communication. The all-reduces run one after another after backward while nothing computes; a single rank runs much faster. Each of the 53 parameters is reduced on its own, each paying the fixed latency. Fix: use DDP, which buckets and overlaps; the averaged gradient is the same. I'd also print the bucket count, harmless.", R),
 ('exposed-comm', "Well, so the trace, right, you see backward finish and then this train of little all-reduce spans, each one waiting on the last, and the main thread just sits. And one rank by itself is way faster. So communication, exposed. The code averages each gradient by hand after backward. DDP would bucket them and overlap with backward.", R),
 ('exposed-comm', "Communication: exposed gradient all-reduce after backward (no overlap), one per parameter; ~40% of the step. Fix: DDP buckets overlapped with backward, like Megatron's overlap-grad-reduce.", R),
 ('exposed-comm', "Data loading: the step waits for the batch. Fix: prefetch.", W),
 ('exposed-comm', "Communication: the all-reduce is already overlapped with backward, but the network is slow. Fix: compress the gradients to fp16.", W),
 ('exposed-comm', "Communication. Fix: all-reduce only every other step to halve the traffic.", W),
]

LAUNCH_BOUND = [
 ('launch-bound', "Compute, but launch-bound rather than FLOP-bound: ~2,000 tiny ops per step, median ~10 µs, and 16 .item() syncs; MFU a few %. Cause: 16 one-sequence micro-batches, a hand-written norm of 8 elementwise ops, .item() per micro-batch. Fix: one micro-batch of 16 sequences, nn.LayerNorm, read the loss once at the end.", R),
 ('launch-bound', "Not data loading, not comm: launch overhead. The trace is thousands of microsecond ops with gaps between them, plus a host sync per micro-batch. Fix: run the whole step as a single micro-batch (same mean loss), use nn.LayerNorm, and keep losses as tensors until the end.", R),
 ('launch-bound', "launch-bound. ~2k ops/step, each ~10-15us; 16 x .item() per step; MFU tiny. cause: 16 micro-batches of 1 seq + manual layernorm + item() each mb. fix: 1 micro-batch, nn.LayerNorm, single .item() at end.", R),
 ('launch-bound', "计算类，但是 launch-bound：每步大约 2000 个很小的 op，每个十几微秒，还有 16 次 .item() 同步，MFU 很低。原因：16 个只含一个序列的 micro-batch、手写的归一化、每个 micro-batch 都 .item()。修复：整个 step 用一个 micro-batch，换 nn.LayerNorm，loss 最后再读一次。", R),
 ('launch-bound', "Evidence first: op count ~2000 per step, median op ~12 µs, 16 host syncs; MFU a few percent of peak. So compute, launch-bound. The fixed cost of each launch dominates the tiny matmuls. Fix: batch the 16 sequences into one micro-batch, nn.LayerNorm instead of the hand-written norm, accumulate the loss on-device. On a GPU CUDA Graphs would help too.", R),
 ('launch-bound', "People often reach for more micro-batches, but that only adds launches. This is launch-bound: thousands of tiny ops, .item() after every micro-batch. Fix: merge into one micro-batch of 16 sequences, use nn.LayerNorm, and read the loss once.", R),
 ('launch-bound', "- category: compute (launch-bound)\n- evidence: ~2,000 ops/step, ~10 µs each; 16 .item() host syncs; MFU tiny\n- cause: 16 one-sequence micro-batches, 8-op hand-rolled norm, per-micro-batch .item()\n- fix: one micro-batch, nn.LayerNorm, losses kept as tensors, read at the end", R),
 ('launch-bound', "The ops are tiny, so the per-op overhead (dispatch, autograd, Python) is what costs: launch-bound compute. Trace: ~2000 ops, median 10-15us, 16 syncs. Fix: a single micro-batch with all 16 sequences (the same mean loss, same update), nn.LayerNorm, no .item() in the loop.", R),
 ('launch-bound', "launch-bound 的计算：op 太多太小，每步两千个左右，还每个 micro-batch 都 .item() 同步一次。修法：16 条序列合成一个 micro-batch，用 nn.LayerNorm，loss 留在 device 上最后读一次。", R),
 ('launch-bound', "Hmm so MFU is like 2%, yet the CPU is pegged; trace shows a swarm of little ops, 2k a step, each ~10 µs, and a host sync every micro-batch. That's launch-bound. Why: sixteen micro-batches of one sequence, a layer norm written by hand, and loss.item() each time. Fix: one micro-batch of sixteen, nn.LayerNorm, and only one .item() at the end.", R),
 ('launch-bound', "Compute, launch-bound (overhead-bound). Many small ops (~2000/step, ~10µs median) and 16 .item() per step. Fix: a single micro-batch per step, fused nn.LayerNorm, one host sync at the end; plus torch.compile on a GPU.", R),
 ('launch-bound', "Launch-bound: thousands of tiny kernels, syncs each micro-batch. Fixing it means one micro-batch (the mean over the 16 sequences is the same loss), nn.LayerNorm, and keeping losses as tensors.", R),
 ('launch-bound', "Compute-bound: the matmuls are big and saturate the cores. Fix: a smaller model.", W),
 ('launch-bound', "Launch-bound: many tiny ops. Fix: use 32 micro-batches so each one is even smaller.", W),
 ('launch-bound', "Launch-bound. Fix: drop .item() entirely and stop logging the loss; train on fewer sequences per step.", W),
]

STRAGGLER = [
 ('straggler', "Straggler, not communication: rank 1 computes tens of ms longer each step and rank 0 waits for it in the gradient all-reduce, every step. Cause: the batch is sorted by length and split contiguously, so rank 1 gets the long documents, padded. Fix: assign documents by tokens (longest first to the least-loaded rank) and pack them, loss scaled by the global token count.", R),
 ('straggler', "A straggler. Rank 1 is the slow one in every step; rank 0 spends that time idle in the all-reduce. The sampler gives the last rank the longest docs and pads to the longest. Fix: balance by token count, greedy longest-first, and pack each rank's documents into one row.", R),
 ('straggler', "straggler. r1 slowest every step (+tens of ms), r0 waits in grad allreduce. cause: sorted batch cut contiguously -> r1 gets long docs + padding. fix: token-balanced assignment + packing, global token count loss scale.", R),
 ('straggler', "是 straggler，而不是通信慢：rank 1 每一步都比 rank 0 多算几十毫秒，rank 0 在梯度 all-reduce 里等它。原因：global batch 按长度排序后连续切分，最后一个 rank 拿到最长的文档，还要 pad 到最长。修复：按 token 数分配（最长的先给 token 最少的 rank），并把文档 pack 成一行。", R),
 ('straggler', "Evidence first: trace summary names rank 1 the slowest, every step; rank 0 waits in the all-reduce meanwhile. Category: straggler. Cause: contiguous shares of a length-sorted batch, padded to the longest document, so rank 1 has most of the token positions. Fix: balance the shares by tokens and pack instead of padding.", R),
 ('straggler', "Rank 0 isn't slow — people often think the waiting rank is the problem, but the one waiting is rank 0, and the straggler is rank 1, which computes longer every step. The sampler's contiguous split sends it the long documents. Fix: split by tokens, longest first to the rank with the fewest, then pack.", R),
 ('straggler', "- category: straggler\n- which: rank 1, in every step; rank 0 waits in the gradient all-reduce\n- cause: sorted-by-length batch cut into contiguous shares, padded to the longest\n- fix: token-balanced greedy assignment, pack documents, scale loss by global token count", R),
 ('straggler', "So if you line the two traces up, rank 1 is always still in forward/backward when rank 0 already sits in the all-reduce, every single step. Classic straggler. It's the sampler: sorted by length, contiguous halves, so rank 1 gets all the long documents and pads them. Balance by tokens, pack them, and the update stays the same.", R),
 ('straggler', "straggler：1号卡每步都最慢，0号卡在 all-reduce 里等它。排序后连续切分，长文档都给了 1 号，还 pad。修法：按 token 数平衡分配，并 pack 成一行，loss 按全局 token 数缩放。", R),
 ('straggler', "Straggler: rank 1 computes ~40ms longer per step than rank 0, which waits at the all-reduce; same rank every step. Cause: length-sorted contiguous shares give rank 1 the long, padded documents. Fix: assign by tokens and pack. (On a real cluster I'd also compare per-node step times.)", R),
 ('straggler', "The lost time is a straggler. Rank 1 always finishes its compute last and rank 0 idles in the all-reduce for it. The cause is the contiguous share of the sorted batch. Fix: longest-first to the least-loaded rank by tokens, and pack rather than pad.", R),
 ('straggler', "Straggler: rank 0 is the slow one every step, rank 1 waits for it. Fix: balance by tokens.", W),
 ('straggler', "Straggler: rank 1 is slow because its CPU is slower. Fix: move rank 1 to another machine.", W),
 ('straggler', "Straggler on rank 1, it gets the long documents. Fix: truncate every document to the same length.", W),
]


KERNEL_FUSION = [
 ('kernel-fusion', "Memory-bound, not compute-bound: each of the three kernels reads and writes every element to HBM, so the time is bytes / bandwidth. Fusing keeps the intermediates in registers and reads x once and writes once, ~1/3 of the traffic, so ~3x faster.", R),
 ('kernel-fusion', "The FLOPs don't matter here, the bytes do: it's memory-bandwidth bound. Three separate kernels = three round trips to HBM; one fused kernel does one read and one write, a third of the traffic.", R),
 ('kernel-fusion', "memory-bound (HBM bw). 3 kernels -> 3 reads + 3 writes per element; fused -> 1 read + 1 write, ~3x less traffic => ~3x faster.", R),
 ('kernel-fusion', "访存受限（memory-bound），而不是算力受限：三个 kernel 每个都要把整个张量从 HBM 读一遍再写回去。融合成一个 kernel 之后只读一次 x、写一次，中间结果留在寄存器里，流量只有原来的三分之一。", R),
 ('kernel-fusion', "People often assume fusion saves arithmetic, but the math is the same; the win is memory traffic. The call is memory-bound: time ≈ bytes / HBM bandwidth. Fused, each element crosses HBM twice instead of six times.", R),
 ('kernel-fusion', "- limit: HBM bandwidth (memory-bound elementwise ops)\n- now: 3 kernels, each reading and writing the full tensor\n- fused: one read of x, one write, intermediates in registers\n- result: ~1/3 the bytes, ~3x faster; torch.compile generates it", R),
 ('kernel-fusion', "Evidence first: the measured time matches the memory-bound prediction at the copy bandwidth. So it's bandwidth-limited. Fusion cuts the HBM round trips from three to one, so a third of the bytes move and it gets about 3x faster.", R),
 ('kernel-fusion', "It's limited by memory bandwidth. Bias-add, GeLU and dropout each write their output to HBM and the next reads it back. A single fused kernel keeps values in registers, reads once and writes once, so far less traffic.", R),
 ('kernel-fusion', "受 HBM 带宽限制。三个 elementwise kernel 各自读写一遍显存，融合后只读一次写一次，中间值放寄存器，访存量降到约 1/3，所以快了差不多 3 倍。", R),
 ('kernel-fusion', "On an H100 at ~3 TB/s, the call takes bytes / 3 TB/s, which is what we measure: memory-bound. Fusing the three ops into one kernel avoids writing and rereading the intermediates, so the traffic is about a third.", R),
 ('kernel-fusion', "So the thing is, the arithmetic per element is trivial, right, so you're waiting on memory. Three kernels, each goes out to HBM and back. Fuse them and you go out once, read x, write y, the rest stays in registers. Memory-bound, and fusion cuts the traffic roughly 3x.", R),
 ('kernel-fusion', "Memory-bound. Fusion: one pass instead of three over HBM, so about a third of the bytes; it does the same FLOPs, not fewer.", R),
 ('kernel-fusion', "Compute-bound: GeLU's erf is expensive. Fusing lets the kernels share the ALUs.", W),
 ('kernel-fusion', "Memory-bound. Fusion helps because it does fewer FLOPs.", W),
 ('kernel-fusion', "Memory-bound; but fusing changes nothing since the traffic stays the same. Use bf16 instead.", W),
]

FP8_MATMUL = [
 ('fp8-matmul', "E4M3 for activations and weights in the forward (3 mantissa bits, max 448: precision); E5M2 for gradients (2 mantissa bits, max 57,344: range, gradients span many orders of magnitude). Scale each tensor by max/amax before the cast and undo it in the GEMM.", R),
 ('fp8-matmul', "Forward: E4M3 x E4M3, not E5M2, because activations and weights need precision more than range. Backward input-gradient: dY in E5M2 x W in E4M3, since gradients need dynamic range. Per-tensor scale = max/amax.", R),
 ('fp8-matmul', "fwd X,W -> e4m3 (more mantissa, precision, max 448). grads dY -> e5m2 (more exponent, range, max 57344). scale each by fmax/amax, pass inverse scale to _scaled_mm.", R),
 ('fp8-matmul', "前向的激活和权重用 E4M3，因为它多一位尾数，精度更高（最大 448）；梯度用 E5M2，而不是 E4M3，因为梯度跨越很多数量级，需要更大的指数范围（最大 57344）。每个张量先按 max/amax 缩放再转换。", R),
 ('fp8-matmul', "People sometimes use E5M2 everywhere for safety, but that wastes precision. E4M3 for the forward operands (precision), E5M2 for gradients (range). Scaling by amax puts each tensor into its format's range.", R),
 ('fp8-matmul', "- E4M3: activations + weights, forward; 3 mantissa bits -> precision; max 448\n- E5M2: gradients; 5 exponent bits -> range; max 57,344\n- scaling: scale = max/amax per tensor, 1/scale passed to the GEMM", R),
 ('fp8-matmul', "Transformer Engine's HYBRID recipe: E4M3 in the forward for X and W because they need precision, E5M2 for dY because gradients need range more than precision. Each tensor is scaled by its amax before casting.", R),
 ('fp8-matmul', "E4M3 用在 forward 的 activation 和 weight 上（precision 更好），E5M2 用在 gradient 上（dynamic range 更大）。每个 tensor 按 amax 做 scaling 再 cast。", R),
 ('fp8-matmul', "Activations and weights go in E4M3 — precision matters there. Gradients go in E5M2, which trades a mantissa bit for an exponent bit: range. Both tensors scaled into range by amax.", R),
 ('fp8-matmul', "E4M3 forward (precision), E5M2 for the gradient (range); per-tensor amax scaling.", R),
 ('fp8-matmul', "E5M2 for the forward activations and weights, E4M3 for the gradients, since gradients need precision.", W),
 ('fp8-matmul', "E4M3 for the forward, E5M2 for gradients because E5M2 has more precision.", W),
 ('fp8-matmul', "E4M3 for activations and weights, E5M2 for gradients. No scaling is needed; just cast with .to(torch.float8_e4m3fn).", W),
]

CUDA_GRAPHS = [
 ('cuda-graphs', "Launch-bound, not compute-bound: each tiny kernel runs shorter than the CPU takes to launch it, so the GPU idles between kernels. A CUDA graph captures the whole loop once and replays it with one launch, so kernels run back to back; shapes and buffers must stay fixed.", R),
 ('cuda-graphs', "The GPU is starved by the CPU: kernel launch overhead dominates, the device timeline is mostly gaps. CUDA Graphs record the sequence once, then g.replay() issues it as a single launch; we copy inputs into the static input buffer.", R),
 ('cuda-graphs', "launch-bound. kernels << launch cost, gaps between kernels. graph: capture once, replay = 1 launch, static in/out buffers, fixed shapes.", R),
 ('cuda-graphs', "是 launch-bound，而不是算力不够：每个小 kernel 在 GPU 上跑的时间比 CPU 发射它的时间还短，GPU 在 kernel 之间空等。CUDA Graph 把整个循环录一次，之后一次 launch 重放，kernel 紧挨着执行；输入要拷到固定的 buffer 里，形状不能变。", R),
 ('cuda-graphs', "Evidence first: the kernels' total time is a fraction of the call's time; the rest of the device timeline is idle gaps. So it's CPU launch overhead. CUDA Graphs remove the per-kernel launches: one capture, then one replay launch per call.", R),
 ('cuda-graphs', "People often try a bigger GPU, but that would not help: the loop is launch-bound. With a CUDA graph the whole kernel sequence is replayed from one launch instead of hundreds, so the GPU no longer waits for the CPU.", R),
 ('cuda-graphs', "- bound: kernel launch overhead (CPU side)\n- symptom: gaps between kernels, GPU mostly idle\n- graphs: record once, replay with a single launch; static input/output tensors; same shapes each call", R),
 ('cuda-graphs', "So in the trace the kernels are these tiny slivers and between them there's nothing; the CPU just can't issue them fast enough. Launch-bound. A CUDA graph bakes the whole sequence in once and then each call is a single replay, the kernels go back to back.", R),
 ('cuda-graphs', "瓶颈是 kernel launch 开销（launch-bound），GPU 大部分时间在等 CPU。CUDA Graphs 把所有 kernel 录下来，一次 replay 就执行完，只需要一次 launch；要用 static input 和 static output。", R),
 ('cuda-graphs', "Launch-bound: ~5 µs of CPU launch per kernel vs ~2 µs of GPU work. Graph capture turns N launches into one replay, so the device runs the kernels back to back. torch.compile(mode='reduce-overhead') does the same.", R),
 ('cuda-graphs', "It's limited by launches: each kernel costs the CPU more than the GPU. CUDA Graphs replay the recorded kernels with one launch, removing the per-kernel CPU cost.", R),
 ('cuda-graphs', "Launch overhead bound. Graph = capture once, replay in one launch, kernels back to back; needs fixed shapes and buffers.", R),
 ('cuda-graphs', "Compute-bound: the matmuls fill the GPU. CUDA Graphs make the kernels faster.", W),
 ('cuda-graphs', "Launch-bound. CUDA Graphs still launch each kernel, but from the GPU instead of the CPU.", W),
 ('cuda-graphs', "Launch-bound. Capture a new graph on each call with new input tensors.", W),
]


GROUP_ORDER = [
 ('group-order', "Every rank waits in the grads all-reduce, but not on the same group: on rank 1, the logging rank, grads is process group 2, on ranks 0, 2, 3 it is group 1. Rank 1's MetricsWriter calls new_group for the metrics group before the gradient group is created. Fix: create both groups on every rank in the same order, before the writer, and pass the metrics group to the writer.", R),
 ('group-order', "- where: all 4 ranks in the grads all_reduce in average_gradients\n- but: rank 1's grads is pg 2, ranks 0,2,3 are on pg 1 -> different groups\n- why: on rank 1 the MetricsWriter creates the metrics group before make_groups\n- fix: create both groups in one order on every rank before the writer; pass the group in", R),
 ('group-order', "So they all look like they're in the same all-reduce on grads, right, but the flight recorder says rank 1's grads is pg 2 and everyone else's is pg 1. Different group, so they never match. That's because rank 1, the logger, builds a MetricsWriter which creates its own group first. I'd make the groups on all ranks first, same order, and give the writer the metrics group.", R),
 ('group-order', "All ranks are in the same grads group (pg 1) but the all-reduce is slow. Fix: increase the timeout.", W),
 ('group-order', "rank 1's grads is a different group (pg 2). Fix: swap the two new_group calls on rank 1.", W),
 ('group-order', "rank 0's grads is pg 2 and the others are pg 1, because rank 0 creates the metrics group first.", W),
]

EXIT_HANG = [
 ('exit-hang', "Rank 1, the uploading rank, is still there; rank 0 exited 0. Its main thread has returned and waits at interpreter exit to join the non-daemon thread checkpoint-uploader, which waits in queue.get() for its next item. main calls close() only in `except BaseException`, so after a normal end nobody sends the stop item. Fix: close the uploader in a finally.", R),
 ('exit-hang', "Not a training hang: training finished. Rank 1 stays alive because its uploader thread is non-daemon and blocked in queue.get(); Python joins non-daemon threads at exit. close() (which puts None and joins) runs only on the exception path. Fix: call close() in a finally so it runs on every path. A daemon thread would lose the last upload.", R),
 ('exit-hang', "r1 alive, r0 exit 0. r1 main thread done, waiting in threading._shutdown to join checkpoint-uploader (non-daemon) stuck in queue.get(). close() only in except -> no stop sentinel on normal exit. fix: try/finally: uploader.close().", R),
 ('exit-hang', "rank 1 的进程还在，rank 0 已经正常退出（exit code 0）。rank 1 的主线程已经跑完，在解释器退出时等待非 daemon 线程 checkpoint-uploader 结束，这个线程卡在 queue.get() 等下一项。close() 只在 except 里调用，正常结束时没人发停止信号。修复：在 finally 里调用 close()，而不是改成 daemon 线程或者 os._exit。", R),
 ('exit-hang', "- still alive: rank 1 (uploader); rank 0 exited with 0\n- main thread: finished, joining threads at interpreter shutdown\n- checkpoint-uploader thread: non-daemon, waiting in queue.get()\n- why: stop item (None) only sent by close(), only called in except\n- fix: close() in a finally", R),
 ('exit-hang', "People often make such a thread a daemon, but then the last checkpoint may never be uploaded. The process that remains is rank 1: its main thread waits to join the uploader thread, which sits in queue.get() forever because close() is only called when an exception happens. Fix: close on every path with finally.", R),
 ('exit-hang', "Evidence first: rank 0 exit 0, rank 1 no exit code; rank 1's stack shows MainThread in _wait_for_tstate_lock and checkpoint-uploader in queue.get. So rank 1 is kept alive by its non-daemon uploader thread. It never gets the stop item because close() is in the except branch only. Fix: finally: uploader.close().", R),
 ('exit-hang', "So training actually finished everywhere, and rank 0 went away cleanly, but rank 1, the one that uploads checkpoints, just doesn't die. Its main thread is done and the interpreter is trying to join the uploader thread, which is still blocked on queue.get(). Nobody ever puts the None in the queue on the happy path, because close() only runs in the except. Put it in a finally.", R),
 ('exit-hang', "rank 1 没退出：主线程在等 non-daemon 的 uploader thread，thread 卡在 queue.get()。close() 只写在 except BaseException 里，正常路径不会调用。fix：用 finally 调用 close()，先发 None 再 join。", R),
 ('exit-hang', "Rank 1 lingers. Non-daemon checkpoint-uploader thread blocked in queue.get(); the interpreter won't exit until it ends. The stop sentinel is only queued by close(), which main calls only on an exception. Fix: call close() in finally (or use the Uploader as a context manager).", R),
 ('exit-hang', "The uploading rank (rank 1) is still there, kept alive by its uploader thread waiting in queue.get(). close() is only called on the exception path; move it into a finally.", R),
 ('exit-hang', "Rank 1 is stuck in a collective at the end of training, waiting for rank 0. Fix: add a barrier.", W),
 ('exit-hang', "Rank 1 stays alive because of its uploader thread in queue.get(). Fix: make the thread a daemon.", W),
 ('exit-hang', "Rank 1 stays alive because its uploader thread waits in queue.get(). Fix: call os._exit(0) at the end of main.", W),
]

STALLED_LOADER = [
 ('stalled-loader', "Rank 1, the writer rank, is not in any collective: its main thread waits in its DataLoader for the first batch of the new epoch, and its two workers wait in TokenCache.encode for the cache lock. Rank 0 waits at the end of loss.backward() in DDP's gradient all-reduce. The lock was held by the background writer thread when the workers were forked; fork copies the held lock but not the thread that would release it. Fix: hold the lock only to copy the cache, write the copy without it.", R),
 ('stalled-loader', "Not a slow collective and not a dead worker: rank 1's DataLoader workers are alive, blocked on a lock no thread in their process holds. save_in_background takes the lock and the writer thread releases it later; the next epoch's workers are forked while it is held. Rank 0 waits in the gradient all-reduce. Fix: persistent_workers=True so the workers are forked once, before any write.", R),
 ('stalled-loader', "r1 main: waiting on DataLoader next batch (no collective). r1 workers: TokenCache.encode -> lock acquire. r0: DDP allreduce in backward. why: fork while writer thread holds the lock -> child has a locked copy, no owner thread. fix: copy cache under lock, write without lock.", R),
 ('stalled-loader', "rank 1（写 cache 的 rank）没有进 collective，主线程在 DataLoader 里等新 epoch 的第一个 batch，两个 worker 卡在 TokenCache.encode 拿锁。rank 0 在 backward 末尾的梯度 all-reduce 里等。原因：后台写线程持有锁的时候 DataLoader fork 了 worker，fork 只复制了被持有的锁，不会复制释放它的线程。修复：只在拷贝 cache 时持锁，写盘时不持锁。", R),
 ('stalled-loader', "- odd one: rank 1, main thread in DataLoader waiting for a batch\n- its workers: waiting for the cache lock in TokenCache.encode\n- rank 0: gradient all-reduce at the end of backward\n- why: workers forked while the writer thread held the lock; the copy is locked forever\n- fix: lock only to copy the cache, write outside the lock", R),
 ('stalled-loader', "People's first idea is num_workers=0, but that only hides it and costs throughput. What happens: rank 1's workers are forked while the background save holds the lock, so in each worker the lock is held by a thread that doesn't exist there. Rank 1 waits for its batch; rank 0 waits in the all-reduce. Fix: hold the lock just to snapshot the cache and write the snapshot unlocked.", R),
 ('stalled-loader', "Evidence first: rank 0's stack is in loss.backward / DDP all-reduce; rank 1's main thread is idle in the DataLoader's select, and its worker stacks sit in TokenCache.encode acquiring the lock. Cause: fork copied a held lock — the writer thread holding it stayed in the parent. Fix: persistent workers (forked once before any write), or copy-then-write outside the lock.", R),
 ('stalled-loader', "So rank 0 is just sitting in the gradient all-reduce waiting, and rank 1 never got there, because it's waiting for a batch from its own loader. And the loader's workers are stuck on the cache's lock. That lock was taken by the background save thread, and the epoch's workers were forked right then, so each child got a locked lock with nobody to unlock it. Only hold the lock while copying the cache.", R),
 ('stalled-loader', "rank 1 卡在 DataLoader 等 batch，worker 在等 lock；rank 0 在 backward 的 all-reduce 里等。fork 的时候 writer thread 正拿着锁，子进程里的锁永远不会被释放。fix：持锁只复制 cache，写文件不持锁；或者 persistent_workers。", R),
 ('stalled-loader', "Rank 1 is in its DataLoader, not in a collective; rank 0 waits for the gradient all-reduce. The workers were started (forked) while another thread held the cache lock, so their copy of the lock is held forever. Fix: shorten the critical section to a copy of the cache and write without the lock.", R),
 ('stalled-loader', "Writer rank (1): main thread waits for its first batch; workers block on the TokenCache lock. Rank 0 in DDP's all-reduce. fork copies a held lock without the owner thread. Fix: persistent_workers=True.", R),
 ('stalled-loader', "Rank 1's workers crashed, so its DataLoader waits forever. Fix: restart the workers.", W),
 ('stalled-loader', "Rank 1 waits in its DataLoader because the workers wait for the lock held at fork time. Fix: num_workers=0.", W),
 ('stalled-loader', "Rank 0 is the odd one, waiting in its DataLoader; rank 1 waits in the all-reduce. Fix: increase the timeout.", W),
]

BUSY_RANK = [
 ('busy-rank', "Rank 1 is active in Python, in pieces() called from make_batch, and never reaches backward; rank 0 is idle at the end of loss.backward(), in DDP's gradient all-reduce. The table is one sentence of 40 tokens, longer than the 24-token context, so no sentence end fits: end walks back to start, start = end keeps start in place, and the loop spins forever. Fix: when no sentence end fits, cut at the context (end = start + max_len).", R),
 ('busy-rank', "Not a deadlock in a collective: rank 1 is busy (active+gil) in pieces(), an infinite loop; rank 0 is idle waiting in the gradient all-reduce. The page has a table longer than the context with no sentence end, so the cut falls back to start and start never advances. Fix: cut such a sentence at the context length instead of skipping the page.", R),
 ('busy-rank', "r1 active in pieces() (train.py:62) <- make_batch; r0 idle in DDP allreduce in backward. cause: sentence (table, 40 tok) > context (24) -> no end fits -> end == start -> start never moves -> infinite loop. fix: if no end fits, end = start + max_len.", R),
 ('busy-rank', "rank 1 在 pieces() 里跑 Python（active），一直出不来，没有进 backward；rank 0 在 backward 末尾等梯度 all-reduce（idle）。原因：表格是一个 40 个 token 的句子，比 24 的 context 还长，找不到能放下的句子结尾，end 退回到 start，start = end 不前进，死循环。修复：放不下时在 context 处截断，而不是跳过这个页面。", R),
 ('busy-rank', "- busy: rank 1, active in Python, pieces() from make_batch\n- waiting: rank 0, idle in the gradient all-reduce at the end of backward\n- why: the table is longer than the context, no sentence end fits, start never advances\n- fix: cut at the context when no sentence end fits", R),
 ('busy-rank', "People often raise the timeout for this, but rank 1 would spin forever anyway. Rank 1 is active in pieces(); rank 0 waits idle in DDP's all-reduce. The loop only advances when a sentence end fits in the window; the table is one sentence longer than max_len, so start = end leaves start where it was. Fix: cut at start + max_len.", R),
 ('busy-rank', "Evidence first: py-spy marks rank 1's MainThread active+gil in pieces (train.py:62), rank 0's idle in backward. So rank 1 loops while rank 0 waits in the gradient all-reduce. The loop variable start never changes because the table sentence is longer than the context. Fix: fall back to a cut at the context length.", R),
 ('busy-rank', "So rank 0 is parked in the all-reduce, idle, and rank 1 is burning CPU in pieces(). Its batch has that page with the table, and the table's one giant sentence, longer than the 24-token window, so there's no sentence end to cut at, the cut goes back to where it started, and it loops on the same spot forever. Cut it at the context length instead.", R),
 ('busy-rank', "rank 1 在 pieces() 里死循环（active），rank 0 在梯度 all-reduce 里 idle。表格这个句子比 context 长，没有句子结尾能放进窗口，start 一直不变。fix：放不下的时候在 context 处切断。", R),
 ('busy-rank', "Rank 1 is running Python in pieces() (never leaves make_batch); rank 0 waits in the DDP all-reduce of backward. A 40-token sentence in a 24-token context: no end fits, so end falls back to start and start doesn't move. Fix: cut at the context: end = start + max_len.", R),
 ('busy-rank', "The busy rank is rank 1, spinning in pieces(); rank 0 waits in the gradient all-reduce. The table is a sentence longer than the context, so the cut goes back to the start and the loop never advances. Fix: cut the long sentence at the context.", R),
 ('busy-rank', "Rank 1 is stuck in a collective, waiting for rank 0 which is slow. Fix: longer timeout.", W),
 ('busy-rank', "Rank 1 loops in pieces() because the table is longer than the context. Fix: skip the page with the table.", W),
 ('busy-rank', "Rank 0 is active in pieces(), rank 1 waits in the all-reduce.", W),
]


# a second batch, after the fixes: the same voices, other wordings
EXTRA = [
 ('slow-dataloader', "Rather than a bigger batch or more ranks, the fix is in the loader: data loading. The first op of every step comes ~65% into it, and synthetic data is several times faster. It tokenizes each document from scratch per step; tokenize once, keep the ids.", R),
 ('slow-dataloader', "数据加载，而不是计算。每个 step 开头 2/3 的时间没有 op，synthetic data 快了约 3×。next_batch 每步重新 tokenize 整篇文档。修复：训练前 tokenize 一次，存 token ids。", R),
 ('slow-dataloader', "If this were a GPU cluster I'd add DataLoader workers with prefetch too. Here: data loading — steps start idle, fake data is faster, and the cause is per-step BPE over whole documents. Fix: pre-tokenize once and slice.", R),
 ('exposed-comm', "Not the network bandwidth: the all-reduces are small and serialised. Communication, exposed: after backward, 53 all-reduces one by one, main thread idle; 1 rank is ~2x faster. Fix: DDP buckets (25 MiB) reduced asynchronously during backward.", R),
 ('exposed-comm', "通信（communication），而不是数据加载。backward 结束之后才一个一个 all-reduce，主线程空等；1 个 rank 比 2 个快很多。原因：手写的逐参数同步 all-reduce。修法：用 DDP，分桶并和 backward 重叠。", R),
 ('exposed-comm', "Gradient compression would not help much here. It's communication: the per-parameter all-reduces run after backward with nothing to overlap them, ~40% of the step. Fix: DistributedDataParallel, which buckets and overlaps with backward.", R),
 ('launch-bound', "Launch-bound compute rather than big-matmul compute: ~2k ops/step at ~10 µs each, 16 syncs, MFU ~2%. Fix: one micro-batch of all 16 sequences, nn.LayerNorm, one .item() at the end.", R),
 ('launch-bound', "不是数据加载，也不是通信：是 launch-bound。每步 2000 个左右的小 op，16 次 .item()。修复：16 个序列合成一个 micro-batch，用 nn.LayerNorm，loss 最后统一读。", R),
 ('launch-bound', "A bigger GPU would not help: launch-bound. Thousands of tiny ops, each ~10-15 µs, host sync per micro-batch. Fix: single micro-batch, nn.LayerNorm, keep the losses as tensors.", R),
 ('straggler', "A faster network would not help: it's a straggler. Rank 1 computes longer every step, rank 0 waits in the all-reduce. Sorted contiguous shares give rank 1 the long padded docs. Fix: token-balanced greedy assignment and packing.", R),
 ('straggler', "straggler，而不是通信慢：rank 1 每步都最慢，rank 0 在 all-reduce 里等它。排序后连续切分，长文档都在 rank 1。修法：按 token 分配（longest first 给 token 最少的 rank），再 pack。", R),
 ('straggler', "It's a straggler: rank 1, every step, tens of ms longer; rank 0 idles in the all-reduce. Cause: contiguous split of the length-sorted batch plus padding. Fix: balance by tokens and pack each rank's documents into one row.", R),
 ('kernel-fusion', "Not compute-bound — memory-bound. Each of the three kernels reads and writes the tensor, so ~3x the bytes of one fused pass; fused, it reads x once and writes once.", R),
 ('kernel-fusion', "不是算力受限，而是 memory-bound：每个 kernel 都读写一遍 HBM。融合后只读一次写一次，traffic 约 1/3。", R),
 ('kernel-fusion', "Bandwidth-bound (HBM). Three kernels = three round trips; one fused kernel = one round trip, intermediates in registers. Dropout stays, same values.", R),
 ('fp8-matmul', "不是 E5M2 用在前向，而是 E4M3：activation 和 weight 需要 precision，用 E4M3（最大 448）；gradient 用 E5M2（最大 57,344），因为需要 range。每个 tensor 按 amax 缩放。", R),
 ('fp8-matmul', "E4M3 for X and W in the forward — precision matters there, not range. E5M2 for dY, gradients need range. Each tensor scaled by max/amax; the GEMM gets 1/scale.", R),
 ('fp8-matmul', "E4M3: activations & weights (precision). E5M2: gradients (range, up to 57,344). Scale each tensor by its amax.", R),
 ('cuda-graphs', "不是 compute bound，而是 launch-bound：GPU 在 kernel 之间空等 CPU。CUDA Graph 录制一次，之后一次 launch 重放整个循环。", R),
 ('cuda-graphs', "Launch-bound rather than memory-bound: the kernels are tiny, the gaps between them are the CPU launching the next. A graph captures the loop once and replays it with one launch; static input/output buffers.", R),
 ('cuda-graphs', "A faster GPU would not help: the loop is launch-bound, the device idles between kernels. CUDA Graphs record once and replay all kernels with a single launch.", R),
 ('group-order', "所有 rank 都卡在 grads 的 all-reduce，但 rank 1 在 2号 process group，其他在 1号 process group。rank 1 的 MetricsWriter 先调用 new_group，创建顺序不同。修复：每个 rank 用同一个顺序创建所有 group，再把 metrics group 传给 writer。", R),
 ('exit-hang', "Not a deadlock in a collective: rank 1's non-daemon uploader thread waits in queue.get(), and the interpreter joins it at exit. close() is only called in the except. Fix: close() in a finally, rather than a daemon thread.", R),
 ('exit-hang', "rank 1 没退出，而不是卡在 collective 里：非 daemon 的 uploader 线程在 queue.get() 里等，解释器退出时要 join 它。close() 只在 except 里调用。修复：在 finally 里 close()。", R),
 ('stalled-loader', "A longer timeout would not help. Rank 1's main thread waits in the DataLoader for a batch, its workers wait for the cache lock; rank 0 waits in DDP's all-reduce. The workers were forked while the writer thread held the lock. Fix: copy the cache under the lock, write it without the lock.", R),
 ('stalled-loader', "rank 1 的 DataLoader worker 在等锁，而不是 crash 了；rank 1 主线程在等 batch，rank 0 在梯度 all-reduce 里等。fork 的时候锁被后台写线程持有，子进程里没有线程会释放它。修复：persistent_workers=True。", R),
 ('busy-rank', "Not a deadlock: rank 1 is busy in pieces() (active), rank 0 idle in the gradient all-reduce. The 40-token table is longer than the 24-token context, no sentence end fits, start never moves. Fix: cut at the context, rather than skipping the page.", R),
 ('busy-rank', "rank 1 在 pieces() 里死循环，而不是在等 collective；rank 0 在 all-reduce 里等。表格比 context 还长，start 永远不动。修复：在 context 处切断（end = start + max_len）。", R),
]

CASES = SLOW_DATALOADER + EXPOSED_COMM + LAUNCH_BOUND + STRAGGLER + KERNEL_FUSION + FP8_MATMUL + CUDA_GRAPHS + GROUP_ORDER + EXIT_HANG + STALLED_LOADER + BUSY_RANK + EXTRA


@pytest.mark.parametrize(("lab", "answer", "right"), CASES)
def test_round4_dfr2_diagnosis(lab: str, answer: str, right: bool) -> None:
    assert bool(diagnose(lab, answer)["correct"]) is right, answer
