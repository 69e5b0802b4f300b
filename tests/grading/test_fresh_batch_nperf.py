"""Perf-lab diagnoses written by hand (s33 nperf, 2026-12-03; none from the labelled benchmark),
beside the misses of the fresh labelled batches: a wrong fix that changes the experiment or drops a
feature said next to the right diagnosis (fewer sequences per step, the losses no longer recorded,
documents cut or dropped, dropout turned off, in-place ops for fusion, the FP8 scaling skipped, a
shorter window or fewer documents, a CUDA graph captured every step or fed new tensors), and right
answers told as a story, the category named at the end after the evidence. Each case: (lab,
answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

LAUNCH_BOUND = [
 ('launch-bound', 'Launch-bound compute: thousands of tiny ops per step and a .item() sync per micro-batch, because each micro-batch holds one sequence. Fix: lower SEQUENCES_PER_STEP to 4 and read the loss once at the end, so a step launches a quarter of the kernels.', W),
 ('launch-bound', 'Category: compute (launch overhead): thousands of tiny ops per step, a host sync per micro-batch from loss.item(). Fix: run the 16 sequences as one micro-batch and stop recording the losses, which removes the syncs.', W),
 ('launch-bound', '类别：compute（launch-bound）：每个 step 几千个小算子，每个 micro-batch 一次 .item() 同步。修法：把每步的序列数减到 4 条，loss 留在设备上最后再读。', W),
 ('launch-bound', 'Launch-bound compute: thousands of tiny ops per step and a .item() per micro-batch. Fix: run all 16 sequences as one micro-batch and drop the loss history, so there is no .item() left.', W),
 ('launch-bound', 'Category: compute, launch-bound: thousands of tiny ops per step and a .item() per micro-batch, since each of the 16 micro-batches holds one sequence. Fix: run the 16 sequences per step as one micro-batch, use nn.LayerNorm, and keep the losses on the device, reading them once at the end.', R),
 ('launch-bound', 'Launch-bound compute: thousands of tiny ops, a host sync per micro-batch. Cause: micro-batches of one sequence and a hand-written norm. Fix: drop the per-micro-batch .item() and keep the losses as tensors, one micro-batch of all 16 sequences, fused LayerNorm.', R),
]

STRAGGLER = [
 ('straggler', 'Straggler: rank 1 computes longer every step and rank 0 waits for it in the all-reduce. The batch is sorted by length, so rank 1 gets the long documents. Fix: truncate every document to 64 tokens so the load is balanced and no rank waits.', W),
 ('straggler', 'Straggler — rank 1 gets the longest documents after the length sort and rank 0 waits in the all-reduce. Fix: drop the documents longer than 128 tokens from the corpus so the shares are even.', W),
 ('straggler', 'straggler：rank 1 每步都算得更久，rank 0 在 all-reduce 里等它。按长度排序后最后一个 rank 拿到长文档。修法：把每篇文档截断到 64 个 token，这样每个 rank 的负载就均衡了。', W),
 ('straggler', 'Straggler: rank 1 computes longer every step, rank 0 waits for it in the all-reduce. The batch is sorted by length and cut into contiguous shares, so rank 1 gets the long documents. Fix: assign documents by tokens, longest first to the least-loaded rank, and pack them into one row instead of padding; no document is truncated or dropped.', R),
 ('straggler', 'Straggler: rank 1 always gets the long documents and rank 0 waits for it in the all-reduce. Fix: remove the padding by packing every document into one row and balance the tokens across ranks.', R),
]

KERNEL_FUSION = [
 ('kernel-fusion', 'It is memory-bound: three kernels each read and write the whole tensor in HBM. Fix: set p=0 so the dropout kernel and its mask go away, that saves a third of the traffic.', W),
 ('kernel-fusion', 'Memory-bound: each of the three elementwise kernels reads and writes the whole tensor. Use in-place ops (add_, gelu in place) so no new tensors are allocated and the bytes drop.', W),
 ('kernel-fusion', 'memory-bound：三个 kernel 每个都读写整个张量，时间由显存带宽决定。修法：去掉 dropout（p=0），少一个 kernel。', W),
 ('kernel-fusion', 'Memory-bound: three kernels each read and write the whole tensor in HBM. One fused kernel (torch.compile) reads x once and writes once, with the dropout mask made in registers, so no dropout mask goes to memory.', R),
 ('kernel-fusion', "It's memory-bound: the time is bytes over HBM bandwidth. Fusing the add, GeLU and dropout (p=0.1, set as before) into one kernel reads x once and writes once, a third of the traffic.", R),
 ('kernel-fusion', 'Memory-bound: three kernels each read and write the whole tensor in HBM. Fuse the add and GeLU into one kernel and leave out the dropout, a third of the traffic.', W),
 ('kernel-fusion', 'Memory-bound: three kernels each read and write the whole tensor in HBM. One fused kernel reads x once and writes once; run it in eval mode so dropout is skipped.', W),
 ('kernel-fusion', 'Memory-bound: three kernels each read and write the whole tensor in HBM. One fused kernel for add, GeLU and dropout (training=True, as before) reads x once and writes once.', R),
]

FP8_MATMUL = [
 ('fp8-matmul', 'E4M3 (3 mantissa bits, max 448) for activations and weights in the forward; E5M2 (max 57344) for gradients, which need range. Each tensor is scaled by max/amax before the cast. Only the GEMMs run in FP8, so the gain is below 2x. To keep it simple, skip the scaling and clamp values to 448 instead.', W),
 ('fp8-matmul', 'forward 的激活和权重用 e4m3，精度高；梯度用 e5m2，范围大，每个 tensor 按 amax 缩放。为了简单，也可以跳过缩放，直接把值截到 448。', W),
 ('fp8-matmul', 'E4M3 for activations and weights in the forward pass, E5M2 for the gradients because they need range; scale each tensor by max over amax before the cast and multiply back after the GEMM. Without the scaling, values past 448 would overflow.', R),
 ('fp8-matmul', 'E4M3 for activations and weights in the forward, E5M2 for gradients (range). Every tensor is scaled by max/amax before casting; clamping to 448 instead would lose the small values.', R),
]


SLOW_DATALOADER = [
 ('slow-dataloader', 'Category: data loading. Two thirds of every step pass before its first op, and with synthetic data the step drops to the compute alone. Cause: a pure-Python BPE over each whole document every step. Fix: tokenize each document once up front and cache the ids; also halve the sequence length so each window is cheaper.', W),
 ('slow-dataloader', 'Category: data loading. Two thirds of every step pass before its first op, and with synthetic data the step drops to the compute alone. Cause: a pure-Python BPE over each whole document every step. Fix: tokenize once before training and train on only the first 200 documents to save time.', W),
 ('slow-dataloader', '数据加载：每个 step 前三分之二的时间都在等，第一个算子之前空着。原因：每步都用纯 Python BPE 重新分词整篇文档。修法：训练前一次性分词，存好 id，再把序列长度减半。', W),
 ('slow-dataloader', 'Category: data loading. Two thirds of every step pass before its first op, and with synthetic data the step drops to the compute alone. Cause: a pure-Python BPE over each whole document every step. Fix: tokenize every document once before training and slice the stored ids; the windows, documents and sequence length stay the same.', R),
 ('slow-dataloader', '数据加载：每个 step 前三分之二的时间都在等。原因：每步都用纯 Python BPE 重新分词整篇文档。修法：训练前一次性分词，存好 id，直接切片，数据不变。', R),
]


CUDA_GRAPHS = [
 ('cuda-graphs', 'Launch-bound: each tiny kernel takes less GPU time than the CPU needs to launch it, so the GPU idles between kernels. A CUDA graph captures the loop and replays it with one launch; capture a new graph every iteration with fresh input tensors of whatever shape comes in.', W),
 ('cuda-graphs', 'Launch-bound: the GPU idles between kernels waiting for launches. A CUDA graph records the loop once and replays it with one launch; the input tensors can be new ones each call, the graph reads whatever you pass.', W),
 ('cuda-graphs', 'launch-bound：每个小 kernel 在 GPU 上的时间比 CPU 发射它还短，GPU 在 kernel 之间空转。CUDA graph 把整个循环录一次，之后一次 launch 重放；每步都重新录制，形状可以变。', W),
 ('cuda-graphs', 'Launch-bound: the GPU idles between kernels waiting for launches. A CUDA graph records the loop once and replays it with one launch; each call copies its inputs into the static input tensors, since shapes and buffers must stay fixed.', R),
 ('cuda-graphs', 'launch-bound：GPU 在 kernel 之间空转，等 CPU launch。CUDA graph 录制一次整个循环，之后一次 launch 重放；形状和缓冲区要固定，新的输入拷进固定的 tensor。', R),
]


EXPOSED_COMM = [
 ('exposed-comm', "I ran it on one rank and then on two: the compute per rank is the same, but the step gets much longer with two. In the trace, after backward the gloo all-reduces run one after another with nothing beside them, one per parameter. So the category is communication. Fix: wrap the model in DistributedDataParallel, which buckets the gradients and starts each bucket's all-reduce during backward.", R),
 ('exposed-comm', 'With one rank and with two the same compute is done per rank, yet two ranks are much slower. It is communication: the all-reduces run after backward, one per parameter, nothing overlapped. Fix: DDP with bucketed all-reduce overlapped with backward.', R),
 ('exposed-comm', '先对比了一个 rank 和两个 rank：每个 rank 的计算量一样，但 step 变长了很多。trace 里 backward 之后 all-reduce 一个接一个，主线程在等。所以类别是通信。修法：用 DDP 包住模型，分桶并在 backward 过程中发起 all-reduce。', R),
 ('exposed-comm', 'First I compared one rank with two: the step grows a lot. So the category is compute: thousands of tiny ops in backward. Fix: wrap the model in DDP.', W),
 ('exposed-comm', 'First I compared one rank with two: the compute per rank is identical, yet the step grows. So the category is communication or data loading. Fix: wrap the model in DDP so the bucketed all-reduce overlaps with backward.', W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), EXPOSED_COMM + LAUNCH_BOUND + STRAGGLER + KERNEL_FUSION + FP8_MATMUL + SLOW_DATALOADER + CUDA_GRAPHS)
def test_fresh_batch_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
