"""Round 3 of hand-written lab diagnoses for the perf labs 12-18 (2026-12-03, s33-lperf3; none from
the labelled benchmark), in voices the earlier rounds did not try: pronouns ("it", "they", "the other
one"), relative clauses, appositives ("rank 1, the one with the long documents, ..."), the story in
time order, the fix first, the evidence quoted (trace-summary lines, the experiment's numbers), the
ranks written as "GPU 1", "worker 1", "process 1", "1号卡", the code named by itself
(`self.tokenizer.encode(...)`, `dist.all_reduce(param.grad)`), stack-trace style ("train.py:88 in
next_batch"), Chinese without spaces, mixed Chinese and English, a second valid fix; and wrong ones
(the wrong category, the wrong rank or every rank, a symptom fix, a right-sounding wrong cause).
Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

SLOW_DATALOADER = [
 ('slow-dataloader', "Fix first: tokenize the corpus once before the loop and have next_batch slice the stored ids. Why: it is data loading — the loader re-encodes every whole document each step, in pure Python, and no op can start until it is done; the trace shows each step idle for its first two thirds, and `--vary data` with synthetic batches makes the step much faster.", R),
 ('slow-dataloader', "train.py:88 in next_batch: `tokens = self.tokenizer.encode(self.texts[index])` — that line is where each step goes. The category is data loading. It runs the BPE merge over the whole document on every step just to cut SEQ + 1 tokens. Evidence: the step's first op starts late, ~65% of the step is before it; synthetic data removes it. Fix: encode every document once at startup and keep the ids.", R),
 ('slow-dataloader', "First the main thread sits in Tokenizer.encode for most of the step, then the forward, backward and all-reduce run in the remaining third. It is the input pipeline: a tokenizer that re-tokenizes whole documents every step. With SyntheticWindows the step time drops to just the compute. Fix: pre-tokenize offline and slice the cached token ids, which keeps the windows identical.", R),
 ('slow-dataloader', "Both processes, process 0 and process 1, are data-starved: they spend the start of every step waiting for a batch that the Python BPE is still building. Swapping in synthetic data makes it much faster. The fix is to tokenize once, before training, and reuse the stored ids; DataLoader workers with prefetch would also hide it on a GPU box.", R),
 ('slow-dataloader', "数据加载。每个step开头都在空等，第一个算子之前大概三分之二的时间；换成合成数据后快了很多。原因是next_batch每步都用纯Python的BPE把整篇文档重新分词。修复：训练前只分词一次，把token id存好，之后只切片。", R),
 ('slow-dataloader', "category: data loading。trace 里每个 step 开头都是 idle gap，第一个 op 之前什么都没跑；--vary data 换 synthetic data 之后 step time 只剩 compute。root cause：tokenizer 在 training loop 里每步重新 encode 整篇文档。fix：离线预处理，提前分词，next_batch 只切存好的 id。", R),
 ('slow-dataloader', "What the measurements say: \"idle before first op: 65% of step\" in the trace summary, and the synthetic-data experiment cuts the step time to the compute alone. So: data loading. It is the tokenizer, which encodes each document from scratch every step. Fix: cache the token ids once up front.", R),
 ('slow-dataloader', "The loader, the part nobody profiles, is the bottleneck: data loading. Every step it tokenizes each whole document again only to take one window, so the GPU-side work waits at the start of each step. Synthetic data: much faster. Two fixes that keep the results: tokenize once ahead of training and slice, or move the tokenization into DataLoader workers so it overlaps.", R),
 ('slow-dataloader', "Data loading. Each rank starts every step idle; the first operation comes late because next_batch calls encode() on whole documents in Python. Synthetic data makes the step faster. Fix: pretokenize the documents once and store the ids.", R),
 ('slow-dataloader', "数据加载：主线程每个step开头都在等batch，合成数据快很多。每步都在训练进程里重新分词。修法：提前分词，缓存token id。", R),
 ('slow-dataloader', "It's data loading. In each step nothing runs at the beginning, the step waits for its batch; with fake data it is much faster. The cause is that the documents are re-tokenized every step by a slow Python tokenizer. The fix: tokenize them once before training, cache the ids and only slice in next_batch.", R),
 ('slow-dataloader', "input-bound. The steps begin with a long idle gap and the synthetic run is much faster. They re-encode the docs every batch. Fix: a preprocessing pass that tokenizes the corpus once; next_batch reuses the stored tokens.", R),
 ('slow-dataloader', "Data loading: the gap at the start of every step, which synthetic data removes, is the tokenizer running over each whole document on every step. Fix: add DataLoader workers (num_workers=2) with prefetching so the tokenization runs in the background, off the critical path.", R),
 ('slow-dataloader', "零号和一号进程都一样：每个step开头空等，换成synthetic data后快很多。数据加载的问题，分词在训练循环里每步都做。修复：离线分词一次，只切片。", R),
 ('slow-dataloader', "communication: the ranks wait for each other in the gradient all-reduce at the start of each step. fix: use DDP to overlap it with backward.", W),
 ('slow-dataloader', "data loading: each step is idle at its start. fix: raise the timeout of the loader so it has more time.", W),
 ('slow-dataloader', "data loading: every step idles at the start and synthetic data is faster. the cause is the embedding lookup, which is slow. fix: make the model smaller.", W),
 ('slow-dataloader', "data loading: each step is idle before its first op; synthetic data is faster. The tokenizer is fine, it already runs once before training. fix: use a bigger batch.", W),
 ('slow-dataloader', "straggler: rank 1 is slower because its documents are longer; rank 0 waits for it. fix: balance the documents by tokens.", W),
 ('slow-dataloader', "data loading: the step waits at the start for its batch, synthetic data much faster; the tokenizer re-encodes every document each step. fix: buy faster disks so the data reads sooner.", W),
 ('slow-dataloader', "compute (launch-bound): thousands of tiny ops. fix: torch.compile.", W),
]

EXPOSED_COMM = [
 ('exposed-comm', "Fix first: wrap the model in DistributedDataParallel and delete average_gradients — DDP buckets the gradients and all-reduces each bucket asynchronously during backward. What it fixes: exposed communication. average_gradients runs `dist.all_reduce(param.grad)` once per parameter after backward, 53 blocking calls one after another; the trace summary has ~40% of the step in communication with nothing beside it, and one rank alone is much faster.", R),
 ('exposed-comm', "train.py:104 in average_gradients: `dist.all_reduce(param.grad)` inside `for param in self.model.parameters()`. That is the lost time — communication. They run after loss.backward() returns, serially, each paying gloo's fixed latency. One rank by itself steps much faster. Fix: DDP with gradient buckets so the all-reduces overlap backward.", R),
 ('exposed-comm', "First backward finishes, then the 53 all-reduces start, one after another, while the main thread waits; only after the last one does the optimizer step. Communication, not overlapped. Going from 1 rank to 2 the step gets much longer. Fix: let DDP launch bucketed all-reduces from its autograd hooks as the gradients become ready.", R),
 ('exposed-comm', "It is the communication that is exposed: the gradient sync, which runs only once backward ends, has no compute beside it (about 40% of each step). A single rank is faster per step. The cause: every parameter's gradient is all-reduced synchronously on its own. Fix: flatten the gradients into buckets and start each bucket's all-reduce asynchronously during backward, as DDP does.", R),
 ('exposed-comm', "通信。backward结束后每个参数单独做一次同步all_reduce，一个接一个，主线程在等，大约占step的40%；单卡每步快很多。修复：用DDP分桶，在backward过程中异步all_reduce，和计算重叠。", R),
 ('exposed-comm', "category 是 communication。trace 里 gloo 的 all_reduce 在 backward 之后串行跑，旁边没有计算；1 个 rank 比 2 个 rank 快很多。root cause：average_gradients 里每个 param 一次 blocking all_reduce，53 次。fix：换成 DDP，bucket 梯度，在 backward 过程中 async all_reduce。", R),
 ('exposed-comm', "GPU 0 and GPU 1 behave the same: the trace summary reads \"communication not overlapped: 40% of step\", all-reduce spans after backward one after another. Communication. 53 per-parameter all-reduces. Fix: DDP (bucketed, overlapped with backward).", R),
 ('exposed-comm', "The bottleneck is communication — a loop of small all-reduces that no compute hides. Each of the 53 parameter gradients gets its own synchronous all_reduce after backward, so the collective's latency is paid 53 times. One rank alone: much faster. A second fix: register_post_accumulate_grad_hook on each parameter that starts `dist.all_reduce(p.grad, async_op=True)`, and wait on the handles before optimizer.step(); that overlaps them with backward.", R),
 ('exposed-comm', "Communication. Process 0, the one I traced, shows the all-reduces lined up after backward with nothing running beside them; a world size 1 run is much quicker. Cause: all-reduce per parameter, blocking. Fix: DistributedDataParallel.", R),
 ('exposed-comm', "通信没被盖住。backward之后才逐个参数all_reduce，串行的，单rank快得多。修法：DDP，梯度分桶，backward的时候就异步发起all_reduce。", R),
 ('exposed-comm', "exposed comm. They (the all-reduces) come after backward, serialized, ~40% of the step, and adding a second rank makes the step slower. Cause: one all-reduce per parameter. Fix: bucket the grads and overlap the all-reduce with backward.", R),
 ('exposed-comm', "comm bound: each of the 53 gradients is all-reduced one by one once backward ends, nothing overlaps them; one process alone is far faster. fix: use DDP so the gradient buckets are reduced while backward is still running.", R),
 ('exposed-comm', "communication, exposed: all-reduces after backward with no compute beside them; a single rank is much faster per step. The manual loop reduces each parameter separately, blocking. Fix: coalesce the gradients into buckets and launch their all-reduce asynchronously as soon as backward fills each one.", R),
 ('exposed-comm', "类别：通信。all_reduce在backward之后一个接一个跑，单个rank快很多。原因：每个参数的梯度单独同步all_reduce。修复：DistributedDataParallel。", R),
 ('exposed-comm', "communication: the all-reduces after backward are exposed. fix: increase the process group timeout so they don't stall.", W),
 ('exposed-comm', "straggler: rank 1 is slower and rank 0 waits for it in every all-reduce. fix: give rank 1 less data.", W),
 ('exposed-comm', "communication: exposed all-reduce after backward; one rank faster. cause: the gradients are already bucketed into one all-reduce, which is too large. fix: split it into one all-reduce per parameter.", W),
 ('exposed-comm', "communication: the all-reduces are exposed after backward. fix: all-reduce only every 4th step.", W),
 ('exposed-comm', "data loading: each step waits for its batch before backward. fix: pre-tokenize the corpus.", W),
 ('exposed-comm', "communication: the per-parameter all-reduces after backward are exposed; one rank is faster. fix: switch gloo to NCCL.", W),
 ('exposed-comm', "communication: the all-reduce already overlaps with backward, the problem is its size. fix: compress the gradients to fp16.", W),
]

LAUNCH_BOUND = [
 ('launch-bound', "Fix first: run the 16 sequences as one micro-batch, use nn.LayerNorm, and read the loss once at the end instead of `loss.item()` per micro-batch. The diagnosis: compute, launch-bound — about 2,000 tiny ops per step, each shorter than its launch, and 16 host syncs.", R),
 ('launch-bound', "train.py:118 in step: `running += loss.item()` — a host sync per micro-batch, 16 per step. And train.py:111 `for index in range(micro_batches)`: 16 micro-batches of one sequence each, so every matmul is tiny. It is launch-bound compute. Fix: one micro-batch of 16 sequences, fused nn.LayerNorm, keep the losses on the device.", R),
 ('launch-bound', "First the loop runs micro-batch 0, one sequence, through a hand-written norm of eight elementwise ops, then calls .item(), then micro-batch 1, and so on sixteen times. Each op is a few microseconds and the launch overhead dominates: launch-bound. Fix: merge the micro-batches into one larger micro-batch (the mean loss is the same), use nn.LayerNorm, drop the per-micro-batch .item().", R),
 ('launch-bound', "The ops, which are thousands per step and each only ~10 µs, leave gaps between them: launch-bound. MFU is a few percent. The cause is a micro-batch of one sequence and an unfused normalisation. Fix: one big micro-batch and nn.LayerNorm; on a GPU torch.compile or CUDA graphs would cut the launches further.", R),
 ('launch-bound', "计算，launch-bound。每个step大概两千个很小的算子，中间有空隙，MFU很低；每个micro batch还有一次item同步。原因：16个单条序列的micro batch，加上手写的归一化。修复：合成一个micro batch，用nn.LayerNorm，loss最后再读。", R),
 ('launch-bound', "launch bound（compute）。trace summary 说每个 step ~2000 ops、median 12 µs，launch overhead 占了大头；还有 16 次 host sync（.item()）。root cause：micro batch 只有一条序列，norm 是手写的 elementwise。fix：一个更大的 micro batch + nn.LayerNorm + loss 留在 device 上。", R),
 ('launch-bound', "Quoting the summary: \"ops per step: 2,048, median op 11 µs, launch overhead: 70% of step\". That is compute, launch-bound. Sixteen one-sequence micro-batches make each op tiny. Fix: one larger micro-batch instead of 16 small ones.", R),
 ('launch-bound', "Worker 0, the one I profiled, spends its step launching tiny kernels: launch-bound. Every op is small and there are too many of them; .item() syncs with the host each micro-batch. It comes from micro-batches of one sequence and the hand-written layernorm. Fix: combine the 16 micro-batches into one and swap in nn.LayerNorm.", R),
 ('launch-bound', "Host-bound — dispatch overhead. Many tiny ops per step, low MFU. The norm is written as 8 separate elementwise ops and each micro batch holds a single sequence. A second fix besides the bigger micro-batch: torch.compile the model so the ops fuse and the launches drop.", R),
 ('launch-bound', "启动开销的问题：算子太小，太多，每个micro batch一次item同步。改成一个大的micro batch，换成nn.LayerNorm，loss留在gpu上。", R),
 ('launch-bound', "compute: it is launch-bound. They are tiny ops, thousands of them, with gaps between; the host syncs every micro-batch. Fix: raise the micro-batch to all 16 sequences at once and use the fused LayerNorm.", R),
 ('launch-bound', "launch overhead: lots of tiny kernels and low utilization, because each micro-batch is one sequence. fix: fewer, bigger micro-batches — one of 16 — and keep the losses as tensors until the end.", R),
 ('launch-bound', "Kernel launch overhead. Each of the ~2000 ops per step is too small to amortise its launch. Cause: micro batch of 1 and an unfused norm. Fix: one micro-batch holding the whole step, nn.LayerNorm.", R),
 ('launch-bound', "计算（launch-bound）：每步几千个小算子。原因：单条序列的micro batch。修复：16条序列并成一个micro batch，平均loss不变。", R),
 ('launch-bound', "communication: the gradient all-reduce after backward is exposed. fix: DDP.", W),
 ('launch-bound', "compute, launch-bound: thousands of tiny ops. fix: raise the NCCL timeout.", W),
 ('launch-bound', "launch-bound: tiny ops. fix: cut the step to 4 micro-batches of one sequence each.", W),
 ('launch-bound', "compute, launch-bound: the ops are large matmuls that saturate the device. fix: use a smaller model.", W),
 ('launch-bound', "launch-bound: tiny ops per step. fix: split into 32 micro-batches so each is smaller.", W),
 ('launch-bound', "data loading: the step waits for the tokenizer. fix: pretokenize.", W),
 ('launch-bound', "straggler: rank 1 has more tokens. fix: balance by tokens.", W),
]

STRAGGLER = [
 ('straggler', "Fix first: share the global batch by tokens — longest document first, to the rank with the fewest tokens so far — and pack each rank's documents into one row instead of padding. The problem: a straggler. Rank 1 computes longer every step, rank 0 waits for it in the gradient all-reduce; my_documents sorts the batch by length, so rank 1 always gets the long documents.", R),
 ('straggler', "train.py:66 in my_documents: `ordered = sorted(batch, key=len)` then contiguous shares — so the last rank gets the long docs, padded to the longest. Straggler: rank 1 is slower every step, rank 0 waits in the all-reduce. Fix: balance the documents by token count (greedy, least-loaded rank) and pack them.", R),
 ('straggler', "First both ranks get the sorted global batch; rank 0 takes the short half, rank 1 the long half; rank 0 finishes its forward and backward early, then sits in the all-reduce until rank 1 arrives. Every step, the same. Straggler, load imbalance. Fix: assign documents by tokens so both get the same load.", R),
 ('straggler', "Rank 1, the one that always receives the longest documents, is the straggler: it computes tens of ms longer per step, while the other one idles in the gradient all-reduce. The batch is sorted by length and cut into contiguous chunks. Fix: greedy longest-first assignment to the least-loaded rank, plus packing instead of padding.", R),
 ('straggler', "straggler。1号每个step都算得更久，0号在梯度all-reduce里等它。原因：global batch按长度排序后连续切分，1号总是拿到长文档，还要pad到最长。修复：按token数分配，最长的先分给当前负载最小的rank，再把文档拼成一行。", R),
 ('straggler', "category：straggler。trace 里 rank 1 每个 step 都 compute 更久，rank 0 在 all_reduce 里 idle。root cause：sorted by length + contiguous shares，rank 1 拿到 long documents。fix：按 token 数 balance，packing 代替 padding。", R),
 ('straggler', "GPU 1 is the slow one, every step; GPU 0 waits for it at the all-reduce. Load imbalance: the documents are sorted by length, so GPU 1 gets most of the tokens. Fix: split the batch by token count instead of by document count.", R),
 ('straggler', "From the trace summary: \"slowest rank: 1 (+38 ms compute per step)\", and rank 0's extra time is in the all-reduce. So a straggler. The sampler sorts by length and hands out contiguous shares. Fix: balance the tokens across ranks (longest first to the least loaded) and pack.", R),
 ('straggler', "Straggler. Process 1 lags in every step while process 0 waits for it in the gradient sync. The length-sorted batch gives process 1 the long documents, padded to the longest of them. Fix: pack each rank's documents into one row and distribute them by tokens.", R),
 ('straggler', "负载不均：1号卡每步都更慢，0号卡在all_reduce里空等。按长度排序，1号拿到长文档。修法：按token数配平。", R),
 ('straggler', "One rank is slower than the other: rank 1, and it is rank 1 every step; rank 0 waits in the all-reduce for it. Because they sort by length, it gets the long ones. Fix: round robin the sorted documents across the ranks, or better, greedy by tokens, so the work is even.", R),
 ('straggler', "straggler — the last rank always computes more tokens; everyone else waits for it at the gradient all-reduce. the shares are contiguous slices of a length-sorted batch. fix: token-balanced assignment and packing.", R),
 ('straggler', "imbalanced ranks. rank 1 takes longer each step and rank 0 waits for rank 1. sorted by length -> rank 1 gets the longest documents. fix: distribute the documents so the token counts are even; scale the loss by the global token count so the update is the same.", R),
 ('straggler', "straggler：rank 1最慢，rank 0等它。排序后连续切，rank 1拿的都是长文档。修复：按token数均衡分配。", R),
 ('straggler', "straggler: rank 0 computes longer every step and rank 1 waits for it. fix: balance by tokens.", W),
 ('straggler', "straggler: both ranks are equally slow. fix: balance by tokens.", W),
 ('straggler', "straggler: rank 1 is slower every step and rank 0 waits. fix: raise the all-reduce timeout.", W),
 ('straggler', "straggler: rank 1 is slower every step, rank 0 waits in the all-reduce. cause: rank 1 sits on a GPU with a slower clock. fix: replace the node.", W),
 ('straggler', "communication: the gradient all-reduce is exposed after backward. fix: DDP.", W),
 ('straggler', "straggler: rank 1 is slower, rank 0 waits. the documents are all the same length already; fix: give rank 1 fewer documents.", W),
 ('straggler', "data loading: rank 1 waits for its batch. fix: more loader workers.", W),
]

KERNEL_FUSION = [
 ('kernel-fusion', "Fix first: `@torch.compile(fullgraph=True)` on bias_gelu_dropout, so Inductor emits one Triton kernel. Why it helps: the call is memory-bound — its time is bytes over HBM bandwidth — and the three kernels each read and write the whole tensor; the fused one reads x once and writes once, a third of the traffic.", R),
 ('kernel-fusion', "It is memory-bound: each elementwise op reads its input from HBM and writes its output back, doing almost no arithmetic per byte. Three kernels, three round trips; fused into one kernel, one read and one write, so about 3x faster.", R),
 ('kernel-fusion', "First the add writes x + bias to HBM, then GeLU reads it back and writes its result, then dropout reads that and writes the output and a mask. Bandwidth-bound, all of it. One fused kernel keeps the intermediates in registers and never writes them, so the traffic drops to a third.", R),
 ('kernel-fusion', "Limited by HBM bandwidth: the measured time matches the bytes moved over the copy bandwidth. The intermediates, which the unfused version writes to HBM and reads back, can stay in registers in one fused kernel: a third of the bytes.", R),
 ('kernel-fusion', "受显存带宽限制，是memory bound的。三个kernel每个都要把整个张量读一遍写一遍，融合成一个kernel后只读一次写一次，流量只有三分之一，中间结果留在寄存器里。", R),
 ('kernel-fusion', "memory bound：每个 elementwise op 都要进出 HBM，算术很少。3 个 kernel = 3 次 round trip；fuse 成一个 kernel 只要一次读写，traffic 约三分之一，所以快约 3 倍。", R),
 ('kernel-fusion', "The run prints the measured time close to the memory-bound prediction, so HBM bandwidth sets it. Fusing: the add, GeLU and dropout become a single kernel with one pass over the data instead of three.", R),
 ('kernel-fusion', "bandwidth-bound. They (add, gelu, dropout) are three kernels and each crosses HBM: read x, write, read, write, read, write. One fused kernel: one read, one write. The arithmetic is the same; the bytes are a third.", R),
 ('kernel-fusion', "Bytes over bandwidth decides the time of this call, i.e. memory-bound. Fusion helps because the fused kernel does one round trip instead of three: the temporaries never go to HBM. A second way: write the fused kernel by hand in Triton, generating the dropout mask in-kernel.", R),
 ('kernel-fusion', "带宽瓶颈。每个算子都读写整个张量，三次往返；融合后只有一次，快三倍。", R),
 ('kernel-fusion', "It's limited by memory bandwidth: elementwise ops, every element read and written by each kernel. Fusing the three into one cuts the HBM traffic to a third.", R),
 ('kernel-fusion', "HBM bound. each op reads and writes the full tensor; fused kernel reads once, writes once. ~3x less traffic → ~3x faster.", R),
 ('kernel-fusion', "memory bound（HBM bandwidth）。三个 kernel 各读写一遍，融合成一个 kernel 流量三分之一。", R),
 ('kernel-fusion', "The kernel, like every elementwise op, is memory-bound; its time tracks the bytes moved. With the three fused into one kernel, x is read once and the output written once instead of three reads and three writes.", R),
 ('kernel-fusion', "it is compute-bound: GeLU's erf is expensive. fusing helps because it cuts the flops by 3x.", W),
 ('kernel-fusion', "memory bound. fix: run it in fp16 instead of fp32 to halve the bytes, keeping the three kernels as they are.", W),
 ('kernel-fusion', "memory-bound; the three kernels run in parallel and fight over HBM bandwidth, fusing serialises them.", W),
 ('kernel-fusion', "launch-bound: the three kernels are tiny and the GPU waits for their launches. fusing helps because it is one launch.", W),
 ('kernel-fusion', "memory bound, but fusing moves the same bytes; it only helps because it is one launch instead of three.", W),
 ('kernel-fusion', "compute bound: the tensor cores are saturated. fusing helps because one kernel uses more SMs.", W),
]

FP8_MATMUL = [
 ('fp8-matmul', "E4M3 for X and W in the forward GEMM, because it keeps one more mantissa bit (precision, max 448); E5M2 for dY in the input-gradient GEMM, because gradients span many orders of magnitude and need its range (max 57,344). Each tensor is scaled by max/amax before the cast.", R),
 ('fp8-matmul', "Activations and weights, which need precision, go in E4M3; gradients, which need range, go in E5M2. Every tensor is scaled into its format's range by its amax first, and _scaled_mm gets the inverse scales.", R),
 ('fp8-matmul', "forward: E4M3 × E4M3 (3 mantissa bits, more precise). dgrad: dY in E5M2 × W in E4M3 — the HYBRID recipe; E5M2 has 5 exponent bits, the range gradients need. Per-tensor scaling with amax.", R),
 ('fp8-matmul', "前向的激活和权重用E4M3，精度更高；梯度用E5M2，范围更大。每个张量cast之前按amax缩放到格式的范围里。", R),
 ('fp8-matmul', "forward 用 E4M3（尾数多，precision 更高），gradient 用 E5M2（exponent 多，dynamic range 大）。每个 tensor 先按 amax scale 到 range 里再 cast。", R),
 ('fp8-matmul', "E4M3 goes on the forward, E5M2 on the backward gradients. Why: E4M3 tops out at 448 but resolves finer steps; E5M2 reaches 57,344, which gradients with outliers need. Both need a scale factor per tensor.", R),
 ('fp8-matmul', "Weights and activations: E4M3, for precision. Gradients: E5M2, for its range. It works only with scaling: scale = 448 / amax for E4M3, 57344 / amax for E5M2.", R),
 ('fp8-matmul', "The gradient dY, which can be tiny or huge, is cast to E5M2 for its wider dynamic range; X and W, which need resolution, to E4M3. Scale each one by its amax so it fits.", R),
 ('fp8-matmul', "E4M3用在前向（激活、权重），因为尾数位多；E5M2用在梯度，因为指数位多、范围大。", R),
 ('fp8-matmul', "E4M3 for the fprop operands (more mantissa bits), E5M2 for the dgrad's dY (more exponent bits, wider range); delayed scaling from an amax history keeps each tensor in range.", R),
 ('fp8-matmul', "E4M3 for activations and weights — higher precision. E5M2 for gradients — larger range.", R),
 ('fp8-matmul', "X/W → E4M3, dY → E5M2. E4M3 is finer, E5M2 covers a bigger range; scaled per tensor (amax) before the cast.", R),
 ('fp8-matmul', "梯度用 E5M2，因为范围大；activation 和 weight 用 E4M3，因为精度高。", R),
 ('fp8-matmul', "E4M3 on the forward tensors for their precision, E5M2 on the gradients for range, each tensor scaled by its amax into the format.", R),
 ('fp8-matmul', "E5M2 for activations and weights, E4M3 for gradients, because gradients need precision.", W),
 ('fp8-matmul', "E4M3 everywhere, forward and backward; it has more range than E5M2.", W),
 ('fp8-matmul', "E4M3 for activations and weights, E5M2 for gradients. No scaling is needed: cast the bf16 tensors straight to fp8.", W),
 ('fp8-matmul', "E4M3 for the forward, E5M2 for the gradients, because E5M2 is more precise near zero.", W),
 ('fp8-matmul', "E4M3 for activations and weights, E5M2 for gradients.", W),
 ('fp8-matmul', "use bf16 for everything; fp8 loses too much precision.", W),
]

CUDA_GRAPHS = [
 ('cuda-graphs', "Fix first: capture the loop once with torch.cuda.graph into static buffers, then each call copies the input in and does g.replay(). Why: it is launch-bound — 192 kernels of a few µs each, each launched from Python, and the GPU idles between them; the graph replays all of them with one launch.", R),
 ('cuda-graphs', "It is launch-bound: the kernels are shorter than the time the CPU takes to launch them, so the device waits between kernels. A CUDA graph records the whole sequence once and replays it with a single launch, back to back.", R),
 ('cuda-graphs', "First Python launches kernel 1, the GPU runs it in 3 µs and then waits; then kernel 2 is launched, and so on, 192 times. The GPU sits idle in the gaps: launch overhead bound. With CUDA graphs the CPU records the loop once and every call is one replay, one launch.", R),
 ('cuda-graphs', "The trace shows the kernels' total time far below the call's time; what fills the rest is gaps between kernels, waiting for launches. Launch-bound. The graph, which is captured once because the shapes never change, replays all 192 kernels in one launch.", R),
 ('cuda-graphs', "launch bound。每个kernel只有几微秒，比CPU发射它的时间还短，GPU在kernel之间空转。CUDA graph把整个循环录制一次，之后一次launch重放全部kernel。", R),
 ('cuda-graphs', "launch-bound：GPU 在 kernel 之间 idle，等 CPU launch 下一个。CUDA Graphs 把 192 个 kernel capture 一次，之后一次 launch replay 整个 loop。", R),
 ('cuda-graphs', "The device is starved: it waits on the host's kernel launches. A second way besides hand-capturing: `torch.compile(mode=\"reduce-overhead\")`, which records the loop as a CUDA graph and replays it with one launch.", R),
 ('cuda-graphs', "Limited by kernel launches, not by the math. CUDA graphs change that: the kernels are recorded once and replayed all at once, so there is one launch per call instead of 192.", R),
 ('cuda-graphs', "CPU launch overhead dominates — each tiny kernel takes less GPU time than its launch. They fix it by capturing the whole loop once; each replay submits it in one go.", R),
 ('cuda-graphs', "受launch开销限制，GPU在等。graph录一次，之后只launch一次就重放整个循环。", R),
 ('cuda-graphs', "launch-bound: gaps between kernels on the device timeline. cuda graph: capture once, replay with one launch.", R),
 ('cuda-graphs', "The loop is launch bound; the GPU idles between the tiny kernels. Graphs record the sequence of kernels once and replay the whole thing with a single launch (static input buffer, copy_ in, replay, clone the output).", R),
 ('cuda-graphs', "Launch overhead is the bottleneck: 192 launches per call from Python. The graph replays the entire sequence with one launch.", R),
 ('cuda-graphs', "kernel launch 是瓶颈，GPU 空闲在等 launch；CUDA graph 录制一次，一次 launch 全部跑完。", R),
 ('cuda-graphs', "memory bound: the kernels are limited by HBM bandwidth. graphs help by fusing them.", W),
 ('cuda-graphs', "compute bound: the kernels are large matmuls. CUDA graphs give them more SMs.", W),
 ('cuda-graphs', "launch-bound. CUDA graphs still launch every kernel separately but compile them to faster code.", W),
 ('cuda-graphs', "the loop is slow because the batch is too small. fix: use a batch of 1024.", W),
 ('cuda-graphs', "launch bound.", W),
 ('cuda-graphs', "the GPU is busy all the time, compute bound; CUDA graphs run the kernels with more flops.", W),
]

# longer answers in an interviewer's hearing: "not X, it's Y", arrows and abbreviations, full-width Chinese
LONGER = [
 ('slow-dataloader', "It's not the network and it's not the model: it's data loading. Look at any step in Perfetto — the first two thirds are empty, nothing runs until next_batch returns. Swap in synthetic data and that emptiness goes away. What next_batch does is call encode() on each full document, every step, to take a 129-token window. I'd tokenize everything once at startup, keep the id lists, and slice.", R),
 ('slow-dataloader', "Data loading, and here's the proof: the synthetic-data experiment. Same model, same ranks, only the batches change, and the step gets much faster. In the trace each step starts with a long idle stretch before the first op. The loader re-runs the BPE tokenizer on the whole text of every document per step. Tokenize ahead of time and reuse the ids; same windows, same results.", R),
 ('slow-dataloader', "bottleneck = data loading. evidence: idle gap at start of every step (~2/3 of it), synthetic data → much faster. cause: encode() of whole docs in next_batch each step (pure-python bpe). fix: pre-tokenize once, store ids, slice in next_batch.", R),
 ('slow-dataloader', "The time goes before the first operation of each step: the main thread is busy tokenizing. So data loading. When I replaced the data with random tokens the step got much faster. The documents get tokenized again every step, all of them, in Python. Caching the token ids once before the training loop fixes it without changing a single window.", R),
 ('slow-dataloader', "数据加载是瓶颈：每个 step 的前三分之二都是空白，第一个算子很晚才开始；换成 synthetic data 以后 step 快了很多。next_batch 每一步都对整篇文档调用 tokenizer.encode，纯 Python，很慢。修复：训练前把所有文档分词一次，保存 token id，next_batch 里只切片。", R),
 ('slow-dataloader', "I'd call it data loading. Every step opens with an idle gap; with synthetic batches the step is much faster. Root cause: the tokenizer runs inside the training loop on each whole document. Fix: move tokenization out of the loop — do it once, offline — and slice the cached ids.", R),
 ('slow-dataloader', "data loading: the GPU (well, the CPU here) waits at the start of every step for next_batch, which re-tokenizes entire documents each time; synthetic data makes the step much faster. Fix: tokenize once up front.", R),
 ('slow-dataloader', "data loading: each step waits at the start. fix: use pinned memory and non_blocking copies.", W),
 ('slow-dataloader', "data loading: each step idles at the start because the disk is slow to read the documents. fix: put the corpus on an SSD.", W),
 ('exposed-comm', "It's communication, and it's exposed. After loss.backward() the code loops over the parameters and all-reduces each gradient by itself; those 53 small blocking calls run back to back with the main thread idle. The trace summary attributes about 40% of the step to communication not overlapped, and a one-rank run is much quicker. I'd use DDP: it buckets the gradients and launches the all-reduces from backward hooks, so they overlap.", R),
 ('exposed-comm', "The step pays for communication it could hide: average_gradients does dist.all_reduce on each param.grad, one at a time, after backward. So it is communication-bound. One rank on its own is far faster. DDP fixes it: bucketed gradient all-reduce started during backward.", R),
 ('exposed-comm', "bottleneck = communication (exposed). evidence: all-reduce spans after backward, serial, ~40% of step; 1 rank ≫ faster. cause: per-param sync all_reduce ×53. fix: DDP buckets + async all_reduce overlapped w/ backward.", R),
 ('exposed-comm', "通信是瓶颈：backward 完了以后，average_gradients 对每个参数的梯度挨个调用 dist.all_reduce，53 次，每次都要等上一次结束，主线程什么也不算，大约占每个 step 的 40%。单 rank 跑快很多。修复：用 DDP 包住模型，梯度分桶，在 backward 进行中就异步 all_reduce。", R),
 ('exposed-comm', "Communication. Nothing overlaps the gradient all-reduces: they start only when backward is done and go one parameter at a time. Single-rank steps are much faster. Fix: bucket the gradients and overlap the all-reduce with backward, e.g. DistributedDataParallel.", R),
 ('exposed-comm', "communication: the all-reduce is slow because gloo is slow. fix: use a faster network.", W),
 ('exposed-comm', "communication: exposed all-reduce after backward, per parameter. fix: move the all-reduce into a separate thread that runs after the optimizer step.", W),
 ('launch-bound', "It's compute, but not the arithmetic: it's launch-bound. The step is about two thousand operations of ten-odd microseconds each, so the fixed cost per op — Python, dispatch, autograd — is most of the time, and MFU sits at a few percent. Each of the 16 micro-batches holds a single sequence, the norm is hand-written as eight elementwise ops, and loss.item() syncs after every micro-batch. Run the 16 sequences as one micro-batch, use nn.LayerNorm, and read the loss once.", R),
 ('launch-bound', "bottleneck = compute / launch-bound. evidence: ~2k tiny ops/step, gaps between them, 16 .item() syncs, MFU few %. cause: 16 micro-batches × 1 seq + unfused norm. fix: 1 micro-batch of 16, nn.LayerNorm, no per-mb .item().", R),
 ('launch-bound', "计算类，launch-bound：trace 里每个 step 大约两千个很短的算子，每个十几微秒，启动开销占了大部分时间，MFU 只有百分之几；每个 micro batch 后面还有一次 loss.item() 同步。原因是 16 个 micro batch 每个只有一条序列，归一化又是手写的 8 个逐元素算子。修复：16 条序列合成一个 micro batch，用 nn.LayerNorm，loss 最后读一次。", R),
 ('launch-bound', "Launch-bound. The ops are tiny and there are thousands of them per step, and .item() forces a host sync sixteen times per step. That comes from running each sequence as its own micro-batch. The fix that keeps the results: one micro-batch with all sixteen sequences (the mean loss is the same) and the fused LayerNorm.", R),
 ('launch-bound', "compute, launch-bound. fix: keep the 16 micro-batches of one sequence and the hand-written norm, just remove .item().", W),
 ('launch-bound', "launch-bound: tiny ops. fix: use a faster CPU.", W),
 ('straggler', "It's a straggler, and it's always the same one: rank 1. In the side-by-side traces rank 1 computes tens of ms longer every step while rank 0 sits in the gradient all-reduce waiting. The reason is my_documents: it sorts the global batch by length and gives each rank a contiguous slice, so rank 1 always gets the long documents and pads to the longest. I'd assign documents greedily by token count and pack them.", R),
 ('straggler', "bottleneck = straggler (rank 1). evidence: r1 computes longer every step, r0 waits in all_reduce. cause: length-sorted batch cut into contiguous shares → r1 gets long docs + padding. fix: balance by tokens (longest-first greedy) + packing.", R),
 ('straggler', "straggler：rank 1 每一步都比 rank 0 多算几十毫秒，rank 0 就在梯度 all-reduce 里等着。my_documents 先 sorted(batch, key=len)，再连续切分，所以长文档全给了 rank 1，而且要 pad 到最长的那篇。修复：按 token 数分配（最长的先给负载最小的 rank），再用 packing 代替 padding。", R),
 ('straggler', "Load imbalance. The second rank gets all the long documents because the batch is sorted by length before it is split; it computes longer in every step and the first rank waits for it at the all-reduce. Fix: split by tokens, not by document count.", R),
 ('straggler', "straggler: rank 1 is slower every step, rank 0 waits for it. fix: add a barrier before the all-reduce so they start together.", W),
 ('straggler', "straggler: rank 1 is slower every step, rank 0 waits. fix: sort the batch by length descending instead of ascending.", W),
 ('kernel-fusion', "It's bandwidth, not math. bias add, GeLU and dropout are three elementwise kernels, and each one reads the whole activation from HBM and writes it back, so the call moves roughly three times the bytes it needs to and its time lines up with the memory-bound prediction. Fusing them — torch.compile emits a single Triton kernel — keeps the intermediates in registers: one read of x, one write of the output.", R),
 ('kernel-fusion', "bound = HBM bandwidth (memory-bound). unfused: 3 kernels × read+write of the full tensor (+ mask). fused: 1 read + 1 write ≈ 1/3 traffic → ~3× faster.", R),
 ('kernel-fusion', "这个调用受显存带宽限制（memory-bound）：每个 elementwise 算子几乎不做计算，却要把整个张量从 HBM 读进来再写回去。三个 kernel 就是三次往返；融合成一个 kernel，中间结果留在寄存器里，只读一次写一次，流量大约是三分之一。", R),
 ('kernel-fusion', "memory-bound. fusing helps because the fused kernel runs on tensor cores.", W),
 ('fp8-matmul', "Forward GEMM: X and W both in E4M3, since it has three mantissa bits and the values need precision more than range. Input-gradient GEMM: dY in E5M2 — five exponent bits, range up to 57,344 — times W in E4M3. Before casting, each tensor is multiplied by fp8_max / amax, and _scaled_mm gets the reciprocal as its scale.", R),
 ('fp8-matmul', "formats: fwd X,W → E4M3 (precision); bwd dY → E5M2 (range). scaling: per-tensor amax, scale = max/amax, inverse scale to _scaled_mm.", R),
 ('fp8-matmul', "前向 GEMM 的 X 和 W 用 E4M3：3 位尾数，精度高，最大 448；反向的 dY 用 E5M2：5 位指数，范围到 57344，梯度跨好几个数量级需要这个范围。每个张量 cast 之前按 最大值/amax 缩放。", R),
 ('fp8-matmul', "E4M3 for gradients because they are small; E5M2 for weights because they need range.", W),
 ('cuda-graphs', "Launch-bound. Each of the 192 kernels runs for a few microseconds, less than Python needs to launch the next one, so the device timeline is mostly gaps. A CUDA graph is recorded once — the shapes never change — and replayed with one launch per call; copy the input into the static buffer, replay, clone the output.", R),
 ('cuda-graphs', "bound = CPU launch overhead (GPU idle between kernels). graph: capture once, replay = 1 launch for all 192 kernels.", R),
 ('cuda-graphs', "这个循环是 launch-bound：每个 kernel 只跑几微秒，比 CPU 发射一个 kernel 的时间还短，GPU 大部分时间在等。CUDA Graph 把整个循环录制一次，以后每次调用一次 launch 就重放全部 192 个 kernel。", R),
 ('cuda-graphs', "launch-bound. CUDA graphs help because they let the kernels run on more streams in parallel.", W),
]


# another category named only to rule it out or to concede it ("it looks like communication, but ..."),
# and the ranks as "worker 1", "the first process", "零号"
TRAPS = [
 ('straggler', "It looks like communication at first, since rank 0 spends a lot of each step in the all-reduce, but it's a straggler: rank 0 is only waiting there for rank 1, which computes longer every step because the length-sorted batch hands it the long documents. Fix: share the batch by tokens and pack.", R),
 ('straggler', "Not communication: the all-reduce itself is quick, rank 0 just waits in it for rank 1, the straggler. Rank 1 gets the long documents since the batch is sorted by length. Fix: assign by tokens, longest first to the least-loaded rank.", R),
 ('straggler', "Everyone else waits for worker 1: worker 1 computes longer every step, the others idle in the gradient all-reduce. A straggler. Worker 1 receives the long documents of the length-sorted batch. Fix: token-balanced shares.", R),
 ('straggler', "1号卡是straggler：每个step都算得更久，零号在all-reduce里等它。按长度排序之后连续切分，长文档都到了1号卡。修复：按token数分配，拼接代替padding。", R),
 ('straggler', "The first process (rank 0) is fast and waits; the second (rank 1) computes longer every step. Straggler. Sorting by length puts the long documents on rank 1. Fix: balance the token counts.", R),
 ('straggler', "straggler: rank 0 and rank 1 both compute longer every step. fix: balance by tokens.", W),
 ('straggler', "communication: rank 0 spends much of its step in the all-reduce. fix: DDP with buckets to overlap it.", W),
 ('exposed-comm', "Not data loading — synthetic data changes nothing here — and not a straggler, both ranks look alike. It's communication: the per-parameter all-reduces after backward, with no compute beside them; one rank alone is much faster. Fix: DDP, bucketed and overlapped with backward.", R),
 ('exposed-comm', "The data loader is fine; it's the communication. After backward, `dist.all_reduce(param.grad)` runs for each of the 53 parameters, synchronously, and nothing overlaps it. A single rank is much faster. Fix: DistributedDataParallel with gradient buckets reduced during backward.", R),
 ('exposed-comm', "通信，不是数据加载（换合成数据没变化）。backward之后53个参数挨个同步all_reduce，没有重叠；单卡快很多。修复：DDP分桶，反向过程中异步all_reduce。", R),
 ('exposed-comm', "It looks like a straggler, but it's communication... no wait, it's a straggler: rank 1 is slower. fix: balance the data.", W),
 ('slow-dataloader', "Not communication: the all-reduce is short. Data loading: each step starts idle, waiting for next_batch; synthetic data makes it much faster. The tokenizer re-encodes the whole documents every step. Fix: tokenize once before training and slice the stored ids.", R),
 ('slow-dataloader', "零号进程和一号进程都一样，不是straggler。是数据加载：每步开头都在等数据，换成合成数据后快很多。next_batch每步重新分词整篇文档。修复：提前分词一次，存好id。", R),
 ('slow-dataloader', "Data loading or communication, one of the two: the step is idle at the start. fix: tokenize once.", W),
 ('launch-bound', "Not data loading (synthetic data is no faster) and not communication: compute, launch-bound. Thousands of tiny ops per step with gaps between them, a host sync per micro-batch. Fix: one micro-batch of all 16 sequences, nn.LayerNorm, read the loss once at the end.", R),
 ('launch-bound', "launch-bound计算：每步几千个小算子，每个micro batch都item同步一次。原因是单条序列的micro batch和手写的归一化。修复：合成一个大的micro batch，换nn.LayerNorm。", R),
 ('launch-bound', "compute, launch-bound: thousands of tiny ops. the cause is that the model is too deep. fix: fewer layers.", W),
 ('cuda-graphs', "It is not memory-bound, the kernels are tiny: it's launch-bound, the GPU idles between kernels waiting for the next launch. A CUDA graph captures the loop once and replays every kernel with one launch.", R),
 ('kernel-fusion', "Not compute-bound: there is almost no arithmetic per byte. It's memory-bound, each of the three kernels reads and writes the whole tensor in HBM; the fused kernel reads x once and writes once, a third of the bytes.", R),
 ('fp8-matmul', "Not E5M2 for the forward: activations and weights need the precision, so E4M3; gradients need the range, so E5M2. Each tensor scaled by amax first.", R),
]


# the reader rules this round added, both ways: a relative clause between a subject and its verb, "worker 1"
# and "零号" as ranks, "then waits" after its subject, the compute left over, 按 and 代替 as structure words
RULES = [
 ('fp8-matmul', "Gradients, which need range, go in E4M3; activations and weights, which need precision, go in E5M2. Scale by amax.", W),
 ('fp8-matmul', "The weights, which are small, are cast to E5M2; the gradients to E4M3. Scale each by its amax.", W),
 ('straggler', "Straggler. Worker 0 computes longer every step and worker 1 waits for it in the all-reduce. Fix: balance the tokens.", W),
 ('straggler', "Straggler: GPU 0, which gets the long documents, computes longer every step; GPU 1 waits for it. Fix: balance by tokens.", W),
 ('straggler', "straggler：零号每步都算得更久，1号在all reduce里等它。修复：按token数分配。", W),
 ('straggler', "Straggler. Process 1, which gets the long documents of the sorted batch, computes longer every step; process 0 waits in the all-reduce. Fix: share by tokens and pack.", R),
 ('straggler', "Straggler. Rank 0 finishes early, then waits in the all-reduce until rank 1 arrives; rank 1 holds the long half of the length-sorted batch. Fix: share the batch by tokens.", R),
 ('slow-dataloader', "Compute: with synthetic data the step is just as slow, so it is the model. fix: a smaller model.", W),
 ('slow-dataloader', "Data loading: synthetic data cuts the step down to the compute, the rest was next_batch re-tokenizing every document. Fix: tokenize once ahead of training.", R),
 ('exposed-comm', "communication：all_reduce 按参数逐个做。修复：按 bucket 合并梯度，在 backward 过程中异步发起，代替 backward 之后的同步 all_reduce。", R),
 ('launch-bound', "launch-bound：每步几千个小算子。修复：按 16 条序列组成一个 micro batch，代替 16 个单条的。", R),
]


# the evidence quoted: py-spy stacks, trace-summary lines, the timings the run prints
QUOTED = [
 ('exposed-comm', "py-spy on rank 0, sampled mid-step:\n  all_reduce (torch/distributed/distributed_c10d.py)\n  average_gradients (train.py:104)\n  step (train.py:97)\nIt is there most of the time, after backward. Communication, exposed: a blocking all-reduce per parameter with nothing overlapping it; world size 1 is much faster. Fix: DDP's bucketed all-reduce, launched during backward.", R),
 ('slow-dataloader', "py-spy dump of the main thread, taken mid-step:\n  _merge (train.py:62)\n  encode (train.py:58)\n  next_batch (train.py:88)\nThat is where the step is for most of its time: data loading. The step idles before its first op and synthetic data is much faster. Fix: encode each document once before training and slice the saved ids.", R),
 ('launch-bound', "From the summary: 'ops/step 2051, median 11 µs, host syncs/step 16, MFU 2.9%'. Compute, launch-bound. 16 micro-batches of one sequence, an 8-op hand-written norm and .item() in the loop. Fix: one micro-batch of 16 sequences, nn.LayerNorm, the losses kept as tensors and read at the end.", R),
 ('straggler', "Trace summary: 'slowest rank 1, +41 ms/step; rank 0 waits 41 ms in all_reduce'. That's a straggler, the same rank every step. sorted(batch, key=len) + contiguous split → rank 1 always has the long documents. Fix: greedy token balancing, longest document first to the least-loaded rank, and packing.", R),
 ('kernel-fusion', "Measured 4.1 ms per call against a memory-bound prediction of 4.0 ms at the measured copy bandwidth: the call is bandwidth-bound. Three kernels, each reading and writing the 16384×8192 tensor; the fused kernel reads it once and writes once, so about a third of the bytes.", R),
 ('cuda-graphs', "The trace: kernel time 0.4 ms out of a 2.1 ms call; the rest is gaps between kernels where the GPU waits for the next launch. Launch-bound. `torch.compile(mode=\"reduce-overhead\")` records the loop as a CUDA graph and replays all 192 kernels with a single launch.", R),
 ('fp8-matmul', "Transformer Engine's HYBRID recipe: E4M3 for the forward (X, W), E5M2 for the backward's dY. E4M3 trades range for precision, E5M2 the other way round, and gradients need the range. Every tensor gets a per-tensor scale from its amax.", R),
 ('exposed-comm', "py-spy on rank 0:\n  all_reduce (distributed_c10d.py)\n  average_gradients (train.py:104)\nCommunication. fix: set a longer timeout on the process group so the all-reduces stop stalling.", W),
 ('slow-dataloader', "py-spy: encode (train.py:58) ← next_batch (train.py:88). data loading. fix: run the tokenizer on the GPU.", W),
 ('kernel-fusion', "Measured 4.1 ms against the prediction of 4.0 ms: compute-bound, the GPU is doing all the GeLU math it can.", W),
]


# casual speech, lower case, pronouns for the thing just named ("they all happen after backward")
CASUAL = [
 ('slow-dataloader', "honestly it's the dataloader. every step sits there doing nothing at first, and if you feed it synthetic data it flies. it re-tokenizes the whole documents on every step. tokenize them once before training and it's fixed.", R),
 ('exposed-comm', "it's the comms. they all happen after backward, one param at a time, nothing overlapping them, and one rank on its own is way faster. use DDP and they overlap with backward in buckets.", R),
 ('launch-bound', "launch overhead, basically. way too many tiny ops, and an .item() sync every micro-batch. batch the 16 sequences into one micro-batch and use nn.LayerNorm; that's it.", R),
 ('straggler', "rank 1 is the straggler, it's slower every single step and rank 0 just waits for it at the all-reduce. it gets all the long docs because they sort by length. balance by tokens instead.", R),
 ('kernel-fusion', "it's memory-bound — three kernels, three trips through HBM. fuse them and you do one trip, so it's about 3x faster.", R),
 ('cuda-graphs', "launch-bound: the GPU keeps waiting for the CPU to launch the next tiny kernel. a CUDA graph captures them once and replays the lot in one launch.", R),
 ('fp8-matmul', "e4m3 for the forward stuff (activations, weights) because it's more precise, e5m2 for gradients because they need range. and scale everything by amax first.", R),
 ('straggler', "rank 1 is the straggler, slower every step, rank 0 waits. it's just a slow GPU. swap the hardware.", W),
 ('exposed-comm', "it's the comms, they're after backward. just turn on gradient compression.", W),
 ('kernel-fusion', "it's memory-bound. the fix is a bigger GPU with more HBM capacity.", W),
 ('kernel-fusion', "it's memory-bound. fuse them and you still do three trips through HBM.", W),
 ('kernel-fusion', "it's memory-bound. fusing them still does three round trips through HBM.", W),
]


# more Chinese without spaces, appositives, relative clauses and a second fix, for every lab
MORE = [
 ('cuda-graphs', 'GPU大部分时间在等CPU发射下一个kernel，是launch bound。用CUDA Graph把192个kernel录成一张图，每次调用只launch一次。', R),
 ('cuda-graphs', 'Each kernel is shorter than its launch, so the device starves. Record the loop into a graph once; replaying it costs one launch.', R),
 ('cuda-graphs', 'Launch-bound; the fix is to capture once and replay. With a graph the CPU submits the whole sequence with one call.', R),
 ('kernel-fusion', '显存带宽是瓶颈。三个算子各自读写一遍整个张量，融合后只读写一遍。', R),
 ('kernel-fusion', 'The op is HBM-bandwidth limited; three separate kernels mean three full reads and writes. A fused kernel does one read and one write.', R),
 ('kernel-fusion', "Its time is set by bytes moved, not FLOPs: memory-bound. Fusion removes the intermediate writes and reads, the add's and GeLU's outputs never go to HBM.", R),
 ('fp8-matmul', '前向用E4M3（精度），反向梯度用E5M2（范围）；每个张量按amax缩放。', R),
 ('fp8-matmul', 'E4M3: activations + weights, 3 mantissa bits. E5M2: gradients, 5 exponent bits for range. scale = 448/amax resp. 57344/amax.', R),
 ('fp8-matmul', 'Use E4M3 on X and W — it is the more precise one — and E5M2 on dY, whose values span a huge range.', R),
 ('launch-bound', 'It spends its time launching: ~2000 tiny ops per step and a sync per micro batch. Merge the 16 micro batches into one; use nn.LayerNorm; drop the per-micro-batch .item().', R),
 ('launch-bound', 'CPU-bound dispatch: many small kernels, low MFU. Cause: micro-batches of 1. Second fix: torch.compile the model after merging the micro-batches into one.', R),
 ('exposed-comm', 'The 53 all-reduces, which run after backward with nothing beside them, are the lost time: communication. A single rank runs much faster. Use DDP to bucket them and overlap with backward.', R),
 ('exposed-comm', 'GPU 0与GPU 1都一样：backward后逐个参数同步all_reduce，通信没有重叠。单卡快很多。修复：DDP分桶并在反向过程中异步all_reduce。', R),
 ('slow-dataloader', 'The loader, which re-tokenizes every document each step, is the bottleneck: data loading. Each step idles at its start; synthetic data makes it much faster. Tokenize once before training.', R),
 ('slow-dataloader', '数据加载慢：每步都在训练进程里用Python重新分词，step开头空等；合成数据快很多。改成离线预处理一次。', R),
 ('straggler', 'Rank 1, the straggler, computes longer every step; the other one waits in the all-reduce. The batch is sorted by length, so rank 1 gets the long documents. Pack and balance by tokens.', R),
 ('straggler', 'Straggler on GPU 1: it has the long documents every step because of the length sort; GPU 0 idles in the gradient all-reduce. Fix: assign by token count.', R),
 ('straggler', '不均衡：第二个rank（rank 1）每步都更久，第一个在all-reduce里等。按长度排序导致长文档都在rank 1。修复：按token数贪心分配并打包。', R),
 ('kernel-fusion', "memory-bound. the three kernels keep the intermediate writes and reads in HBM, fusing does not change that.", W),
 ('kernel-fusion', "memory-bound, three kernels each read and write HBM; fusing them does not reduce the bytes.", W),
]


CASES = SLOW_DATALOADER + EXPOSED_COMM + LAUNCH_BOUND + STRAGGLER + KERNEL_FUSION + FP8_MATMUL + CUDA_GRAPHS + LONGER + TRAPS + RULES + QUOTED + CASUAL + MORE


@pytest.mark.parametrize(("lab", "answer", "right"), CASES)
def test_hand_written_diagnoses_round3_lperf3(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
