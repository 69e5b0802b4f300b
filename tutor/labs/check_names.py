"""Chinese names of the checks and measurements a lab's check reports (issue 16).

A checker runs in a rank process and names each property in English (`ctx.check(name, ...)`,
`ctx.measure(name, ...)`, `ctx.verify(name, ...)`); the name travels in the run's events and is
what `tutor lab check` and the Labs screen list. Rather than give every checker a second
argument, the names are translated here, where they are shown: a table keyed by the English
name. A name the checker builds with an f-string is keyed by its template, each `{}` standing for
one interpolated value (`set {}: rank 0 has every document's loss`); the Chinese side numbers the
values (`第 {0} 组：…`), and each value is itself looked up (a perf category, a GEMM's name), so
"time lost to data-loading is gone" reads "浪费在数据加载上的时间消除了".

tests/unit/test_check_names.py reads every checker's source and fails on a name missing here,
so a new check cannot reach a Chinese learner in English. A name that is still missing (a
learner's own `ctx.verify` in a lab without a checker) is shown as it is.
"""

from __future__ import annotations

import re

ZH: dict[str, str] = {
    # the core's own checks (tutor/labs/checks.py)
    "runs to completion": "运行到结束",
    "steps completed": "完成的步数",
    "checker reported": "检查程序有报告",
    # 01 tp-mlp
    "forward output equals one process": "前向输出与单进程一致",
    "input gradient equals one process": "输入梯度与单进程一致",
    "weight gradients equal one process": "权重梯度与单进程一致",
    "collectives per layer per step": "每层每步的集合通信次数",
    "each rank holds its slice, not the block": "每个 rank 只持有自己的切片，而不是整个块",
    "TP traffic per layer per step (values sent per rank, ring all-reduce)":
        "每层每步的 TP 通信量（每个 rank 发送的数值个数，ring all-reduce）",
    "block output": "块的输出",
    "input gradient": "输入梯度",
    "MLP fc1 weight gradient": "MLP fc1 的权重梯度",
    # 02 dp-overlap
    "gradients equal one process on the full batch": "梯度与单进程跑完整个 batch 一致",
    "all-reduces start during backward and are waited for after it": "all-reduce 在反向传播期间启动，反向结束后才等待",
    "exposed communication drops against the shipped program": "暴露的通信时间比原始程序少",
    "the step's collectives move every gradient once": "这一步的集合通信把每个梯度正好搬运一次",  # wt-labfix
    # 03 pp-1f1b and 24 pp-interleaved
    "schedule runs each pass once, backward after forward": "调度让每次前向、反向各跑一次，且反向在前向之后",
    "every pass runs through the stage's layers": "每次前向和反向都经过本 stage 的各层",
    "loss equals the unpipelined model": "loss 与不切流水线的模型一致",
    "gradients equal the unpipelined model": "梯度与不切流水线的模型一致",
    "pipeline bubble at p={}, m={} (stage idle / busy time, {} ms of overhead per micro-batch removed)":
        "p={0}、m={1} 时的流水线气泡（stage 空闲时间 / 忙碌时间，已扣除每个 micro-batch {2} ms 的开销）",
    "idle time per micro-batch stays small beside a forward and backward pass":
        "每个 micro-batch 的空闲时间远小于一次前向加反向",
    "activations in flight stay within 1F1B's bound": "在途的激活不超过 1F1B 的上限",
    "placement and schedule run each chunk's passes once, backward after forward":
        "放置和调度让每个 chunk 的前向、反向各跑一次，且反向在前向之后",
    "every pass runs through the chunks' layers": "每次前向和反向都经过各 chunk 的层",
    "pipeline bubble at p={}, v={}, m={} (rank idle / busy time, less the overhead per micro-batch)":
        "p={0}、v={1}、m={2} 时的流水线气泡（rank 空闲时间 / 忙碌时间，已扣除每个 micro-batch 的开销）",
    "idle time per micro-batch stays small beside its passes": "每个 micro-batch 的空闲时间远小于它的前向和反向",
    "activations in flight stay within interleaved 1F1B's bound": "在途的激活不超过交错 1F1B 的上限",
    # 04 zero1-memory
    "update equals unsharded Adam": "更新结果与不分片的 Adam 一致",
    "optimizer state per rank": "每个 rank 的优化器状态",
    "model state per rank: bf16 weights + bf16 gradients + optimizer": "每个 rank 的模型状态：bf16 权重 + bf16 梯度 + 优化器",
    # 05 checkpoint-rank0 and the other fix checks (tutor/labs/rank/fixcheck.py)
    "every step ran on every rank": "每个 rank 都跑完了每一步",
    "checkpoint written": "checkpoint 已写出",
    "checkpoint loads into a fresh model and optimizer": "checkpoint 能载入新建的模型和优化器",
    "checkpoint holds the weights of its step": "checkpoint 保存的是它那一步的权重",
    "checkpoint holds the optimizer state": "checkpoint 保存了优化器状态",
    "checkpoint holds every rank's data position": "checkpoint 保存了每个 rank 的数据位置",
    "every step runs on the brief's device": "每一步都在说明指定的设备上运行",
    "memory held does not grow from step to step": "占用的内存不随步数增长",
    # 06 pp-sendrecv
    "every step ran": "每一步都跑了",
    "the tied embedding trains from --unfreeze-at": "共享的 embedding 从 --unfreeze-at 开始训练",
    # 07 crashed-rank and the replays (tutor/labs/rank/replay.py)
    "rank 0 still reports the token accuracy": "rank 0 仍然报告 token 准确率",
    "weights equal a one-process replay of every rank's batches": "权重与单进程重放所有 rank 的 batch 一致",
    "every rank trained the same steps": "每个 rank 训练的步数相同",
    # 08 long-batch, 09 uneven-batches, 10 diverging-control-flow, 11 collective-order
    "every document is trained on": "每篇文档都参与了训练",
    "the long document is still trained on": "长文档仍然参与训练",
    "the epoch still covers the data": "一个 epoch 仍然覆盖全部数据",
    "the guard still stops the run": "保护逻辑仍然能让运行停下",
    "every rank stops at the same step, before its update": "每个 rank 都停在同一步，且在更新之前",
    "the learning rate follows the job's tokens": "学习率跟随整个作业的 token 数",
    # the perf labs' fix check (tutor/labs/rank/perfcheck.py)
    "results unchanged": "结果没有变",
    "the step does the model's work": "每一步都做了模型该做的计算",
    "your program is idle while the shipped one is timed": "给原始程序计时时，你的程序处于空闲",
    "time lost to {} is gone": "浪费在{0}上的时间消除了",
    "faster than the shipped program": "比原始程序快",
    # 16 kernel-fusion, 17 fp8-matmul, 18 cuda-graphs
    "without dropout, GeLU(x + bias)": "不加 dropout 时等于 GeLU(x + bias)",
    "the share dropped is p": "被丢弃的比例是 p",
    "kept elements are GeLU(x + bias) / (1 − p)": "保留的元素等于 GeLU(x + bias) / (1 − p)",
    "faster than the three kernels": "比三个 kernel 快",
    "{}: FP8 operands {} × {}": "{0}：FP8 操作数 {1} × {2}",
    "{}: error within FP8's": "{0}：误差在 FP8 的范围内",
    "{}: faster than bf16": "{0}：比 bf16 快",
    "same outputs as the eager loop": "输出与 eager 循环相同",
    "faster than the eager loop": "比 eager 循环快",
    # 19 fsdp-zero3
    "training equals one process on the full batch": "训练结果与单进程跑完整个 batch 一致",
    "parameters gathered per layer, forward and backward; gradients reduce-scattered":
        "前向和反向都逐层 all-gather 参数；梯度做 reduce-scatter",
    "bytes each rank sends per step: the forward all-gathers and the gradient reduce-scatters (ring), "
    "as much as DDP's all-reduce":
        "每个 rank 每步发送的字节数：前向的 all-gather 加梯度的 reduce-scatter（ring），与 DDP 的 all-reduce 一样多",
    "bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)":
        "一步之后模型仍占用的字节数（bf16 权重和梯度；SGD 不保存状态）",
    "full parameters live one layer at a time": "完整参数一次只存在一层",
    # 20 no-sync-accumulation
    "every replica holds the same weights": "每个副本的权重都相同",
    "weights equal one process on the whole global batch": "权重与单进程跑整个 global batch 一致",
    "gradients all-reduced once per optimizer step": "每个优化器步只做一次梯度 all-reduce",
    # 21 ring-attention
    "output equals causal attention over the whole sequence": "输出与整条序列上的因果注意力一致",
    "K/V pass around the ring, neighbour to neighbour": "K/V 沿环在相邻 rank 之间传递",
    "K/V bytes each rank sends, forward, × 3 (the engine counts forward and backward)":
        "每个 rank 前向发送的 K/V 字节数 × 3（引擎把前向和反向一起算）",
    # 22 moe-expert-parallel
    "routed output equals the dense layer with every expert": "路由后的输出与包含所有专家的稠密层一致",
    "all-to-all sizes follow the routing: dispatch, then combine": "all-to-all 的大小跟随路由：先 dispatch，再 combine",
    "no collective but the two all-to-alls moves tokens or weights": "除了两次 all-to-all，没有别的集合通信搬运 token 或权重",
    # 23 sequence-parallel
    "output slice equals the whole block in one process": "输出切片与单进程跑整个块一致",
    "gradients equal the whole block in one process": "梯度与单进程跑整个块一致",
    "the LayerNorm runs on this rank's sequence slice only": "LayerNorm 只在本 rank 的序列切片上运行",
    "all-gather and reduce-scatter along the sequence, no all-reduce": "沿序列维做 all-gather 和 reduce-scatter，不做 all-reduce",
    "values each rank sends for the block, forward and backward, × 2 (the engine's layer has two such blocks)":
        "每个 rank 为这个块在前向和反向中发送的数值个数 × 2（引擎的一层有两个这样的块）",
    "LayerNorm input each rank holds (16-bit bytes, the engine's unit)": "每个 rank 持有的 LayerNorm 输入（16 位字节数，引擎的单位）",
    # 25 gather-sizes
    "set {}: each rank scores only its own documents": "第 {0} 组：每个 rank 只给自己的文档打分",
    "set {}: rank 0 has every document's loss": "第 {0} 组：rank 0 拿到了每篇文档的 loss",
    "set {}: median and p90 are the whole set's": "第 {0} 组：中位数和 p90 是整组数据的",
    # 26 timeout-at-item
    "{}: weights equal one process training on every rank's batches": "{0}：权重与单进程用所有 rank 的 batch 训练的结果一致",
    "{}: the log has each interval's loss over all ranks": "{0}：日志里每个区间的 loss 是所有 rank 上的",
    "{}: the log counts the tokens cut on every rank": "{0}：日志统计了每个 rank 上被截掉的 token",
    # 27-31, written in parallel this session (wt-labnew, wt-serve): here so that the merge finds them
    "{}: rank 0 logs the whole held-out set's loss at every evaluation": "{0}：rank 0 在每次评估时记录整个 held-out 集的 loss",
    "{}: each rank scores only its own share of the held-out set": "{0}：每个 rank 只给 held-out 集里自己那一份打分",
    "{}: every held-out document is scored": "{0}：每篇 held-out 文档都打了分",
    "{}: the logging rank logs each interval's loss over all ranks": "{0}：负责记日志的 rank 记录每个区间在所有 rank 上的 loss",
    "{}: gradients on the gradient group, metrics on the metrics group": "{0}：梯度走梯度组，指标走指标组",
    "{}: each checkpoint holds the weights of its step": "{0}：每个 checkpoint 保存的都是它那一步的权重",
    "{}: every checkpoint is in the store when main returns": "{0}：main 返回时每个 checkpoint 都已在存储里",
    "{}: no thread of the program is left running when main returns": "{0}：main 返回时程序没有留下还在运行的线程",
    "{}: the writer's cache file holds every document it tokenized": "{0}：写入方的缓存文件里有它 tokenize 过的每篇文档",
    "{}: the loader reads in worker processes (rank {})": "{0}：loader 在 worker 进程里读取（rank {1}）",
    "{}: every rank trains on its documents in every epoch, in order": "{0}：每个 rank 在每个 epoch 都按顺序训练自己的文档",
    "{}: every page is trained on whole, in order": "{0}：每一页都完整、按顺序参与训练",
    "{}: pieces end at the last sentence end that fits (a longer sentence at the context)":
        "{0}：每段在能放下的最后一个句末处结束（更长的句子在上下文长度处截断）",
}

# Values a checker puts into a name's template: perf categories (perfcheck's `category`), the
# FP8 lab's GEMMs, the timeout lab's labels. Numbers and identifiers need no entry.
PARTS: dict[str, str] = {
    "data-loading": "数据加载",
    "communication": "通信",
    "compute": "计算",
    "straggler": "慢 rank",
    "forward": "前向",
    "input_grad": "输入梯度",
    "long document on rank {}": "长文档在 rank {0} 上",
    "every {} steps, {} held-out documents": "每 {0} 步，{1} 篇 held-out 文档",
    "rank {} logging": "rank {0} 记日志",
    "rank {} uploading every {} steps": "rank {0} 每 {1} 步上传一次",
    "writer rank {}": "写入方 rank {0}",
    "table in page {} (rank {}, step {})": "第 {0} 页里的表格（rank {1}，第 {2} 步）",
    # the perf fix check's labels and units (tutor/labs/trace_summary.CATEGORY_TIME, perfcheck.py)
    "data wait": "等数据的时间",
    "exposed communication": "暴露的通信时间",
    "straggler time (slowest rank's extra compute)": "慢 rank 时间（最慢 rank 多出的计算）",
    "straggler time (slowest rank's extra CPU time per step, timed rounds)": "慢 rank 时间（计时轮次里最慢 rank 每步多出的 CPU 时间）",
    "launch overhead (gaps between and inside tiny ops)": "启动开销（小算子之间和内部的空隙）",
    "ms per step": "ms/步",
    "ms of the slowest rank's CPU time per step": "ms/步（最慢 rank 的 CPU 时间）",
    "; work per rank: {} MFLOP, the busiest minus the least busy {} vs {} shipped (needs ≤ {})":
        "；每个 rank 的计算量：{0} MFLOP，最忙与最闲之差 {1}，原始程序 {2}（至多 {3}）",
    ", busy per rank {}": "，各 rank 忙碌时间 {0}",
    # values the checkers put into their details: the ranks a run summary names (tutor/labs/evidence.py),
    # which program, what a GEMM or a thread is, the gradients sequence-parallel compares
    " at {}": "（位置 {0}）",
    "signal {}": "信号 {0}",
    "ranks {}-{}": "rank {0} 到 {1}",
    "yours": "你的程序",
    "shipped": "原始程序",
    "none": "无",
    "none (never called)": "无（从没被调用）",
    "no file": "没有文件",
    "daemon": "守护线程",
    "not a daemon": "非守护线程",
    "input slice": "输入切片",
    "W1 shard": "W1 分片",
    "b1 shard": "b1 分片",
    "W2 shard": "W2 分片",
    # dp-overlap's bucket sweep (labs/02-dp-overlap/check.py bucket_sweep): the last size is the whole model
    "{}, {}, one bucket {}": "{0}，{1}，整个模型一个 bucket {2}",
}

# Details: the core's own (tutor/labs/checks.py judge and _compare) and the run's summary, the shared
# helpers' every checker reports (compare, replay, fixcheck, perfcheck, measure), and checkers' own,
# lab by lab, with the words a rank stops with (`raise SystemExit("…")`). tests/unit/test_check_names.py
# reads them all from the sources. A clause a check adds (`detail += "; also …"`) is its own entry.
DETAILS: dict[str, str] = {
    "all {} ranks finished in {} s": "全部 {0} 个 rank 在 {1} 秒内跑完",
    "{} of {} steps": "完成 {0} 步，共需 {1} 步",
    "the job finished without reporting any check; nothing was verified": "作业结束了，但没有报告任何检查；什么都没验证",
    "measured {}, engine {} = {} at {} (rank {}; relative tolerance {})":
        "实测 {0}，引擎 {1} = {2}（{3}；rank {4}，相对容差 {5}）",
    "measured {}, engine {} = {} at {}": "实测 {0}，引擎 {1} = {2}（{3}）",
    # the run's summary line (tutor/labs/evidence.py), shown under its outcome and as a failed
    # "runs to completion" detail; the hang, crash, wrong and slow summaries stay English
    "stopped before the end": "运行结束前就停止了",
    "all {} ranks finished": "全部 {0} 个 rank 都跑完了",
    "all {} ranks finished {} steps": "全部 {0} 个 rank 都跑完了 {1} 步",
    # the shared comparison (tutor/labs/rank/context.compare), which most checkers report as it is
    "shape {} instead of {}": "形状是 {0}，应为 {1}",
    "dtype {} instead of {}": "dtype 是 {0}，应为 {1}",  # main's compare (b5d15c6), here so that the merge finds it
    "max abs error {} (values up to {})": "最大绝对误差 {0}（数值最大到 {1}）",
    "matches (max abs error {})": "一致（最大绝对误差 {0}）",
    # the data-parallel replay and the fix checks (tutor/labs/rank/replay.py, fixcheck.py)
    "no weights to compare": "没有可比较的权重",
    "{} on rank {}: {}": "rank {1} 上的 {0}：{2}",
    "{} steps on each of {} ranks": "{1} 个 rank 每个都跑了 {0} 步",
    "steps per rank: {}": "每个 rank 的步数：{0}",
    "expected {} steps on each rank; ran {}": "每个 rank 应跑 {0} 步；实际：{1}",
    "no checkpoint at {}": "{0} 处没有 checkpoint",
    "{}, {} bytes": "{0}，{1} 字节",
    "model and optimizer state_dicts load": "模型和优化器的 state_dict 都能加载",
    "no replay of step {} to compare with": "没有第 {0} 步的重放可供比较",
    "step {} (expected {}); weights vs replay: {}": "第 {0} 步（应为第 {1} 步）；权重与重放相比：{2}",
    "{} of {} momentum buffers": "{1} 个 momentum buffer 里有 {0} 个",
    "saved {}, expected {}": "保存的是 {0}，应为 {1}",
    "the device was given {}; the brief's device has {} KiB": "给设备的是 {0}；题目里的设备有 {1} KiB",
    "the simulated device counted no activations: the model is not on it": "模拟设备没有记到任何激活：模型不在它上面",
    "every step on the {} KiB device (peak {} KiB of activations)": "每一步都在 {0} KiB 的设备上跑完（激活峰值 {1} KiB）",
    "tensors held after each step (KiB, without weights, gradients, optimizer state and the harness's batches): {}":
        "每步之后仍持有的张量（KiB，不含权重、梯度、优化器状态和框架的 batch）：{0}",
    "tensors held after each step (KiB, without weights, gradients, optimizer state and the harness's batches): "
    "{}; {} KiB more every step: something keeps each step's tensors":
        "每步之后仍持有的张量（KiB，不含权重、梯度、优化器状态和框架的 batch）：{0}；每步多 {1} KiB：有东西留住了每一步的张量",
    # the perf labs' fix check (tutor/labs/rank/perfcheck.py) and its trace line (tutor/labs/measure.py)
    "your result() has no {}": "你的 result() 里没有 {0}",
    "{} differs from the shipped program's after {} steps: {}": "{0} 在 {1} 步之后与原始程序不同：{2}",
    "{} equal the shipped program's after every round ({} steps; largest difference {}; rtol {}, atol {})":
        "{0} 每一轮都与原始程序一致（{1} 步；最大差 {2}；rtol {3}，atol {4}）",
    "one step of yours: {} MFLOP over all ranks, the shipped program's {} (counted by torch's FlopCounterMode; "
    "needs ≥ {})": "你的一步：所有 rank 共 {0} MFLOP，原始程序 {1}（用 torch 的 FlopCounterMode 计数；至少要 {2}）",
    "one step of yours: {} MFLOP over all ranks, the shipped program's {} (counted by torch's FlopCounterMode; "
    "needs ≥ {}): the work the result depends on is done outside the step":
        "你的一步：所有 rank 共 {0} MFLOP，原始程序 {1}（用 torch 的 FlopCounterMode 计数；至少要 {2}）："
        "结果依赖的计算放到了 step 之外",
    "your process used {} ms of CPU during the shipped program's {} ms of timed rounds (allowed {})":
        "原始程序计时的 {1} ms 里，你的进程用了 {0} ms CPU（允许 {2}）",
    "your process used {} ms of CPU during the shipped program's {} ms of timed rounds (allowed {}): work in a "
    "background thread slows the baseline and is not timed":
        "原始程序计时的 {1} ms 里，你的进程用了 {0} ms CPU（允许 {2}）：后台线程里的计算拖慢了基线，自己却不计时",
    "{}: {} ms per step, shipped {} ms (needs ≤ {} of the shipped){}; the shipped program's trace, {}; yours, {}":
        "{0}：每步 {1} ms，原始程序 {2} ms（至多为原始程序的 {3}）{4}；原始程序的 trace：{5}；你的：{6}",
    "{} vs {} {} shipped in each one's best round: {}×; round by round {}, median {}× (needs ≥ {}× by either; "
    "interleaved rounds of {} steps and the result(){})":
        "各取最好一轮：你的 {0}，原始程序 {1}（{2}）：{3}×；逐轮 {4}，中位数 {5}×（两种读法任一至少要 {6}×；"
        "{7} 步交替各轮连同 result(){8}）",
    "; the rounds doubled: the two readings disagreed": "；两种读法结论不一，轮数加倍",
    "per profiled step: {} ms; before the first op {} ms{}; collectives not overlapped with compute {} ms{}; "
    "gaps and tiny ops {} ms{}; slowest minus fastest rank's busy time {} ms{}; {} ops, {} host syncs per step{}":
        "每个 profile 的 step：{0} ms；第一个算子之前 {1} ms{2}；没和计算重叠的集合通信 {3} ms{4}；"
        "空隙和小算子 {5} ms{6}；最慢与最快 rank 忙碌时间之差 {7} ms{8}；每步 {9} 个算子、{10} 次 host 同步{11}",
    # 01 tp-mlp
    "{} got no gradient": "{0} 没有拿到梯度",
    "every weight and bias slice matches": "每个权重和偏置的切片都一致",
    "the block's parameters hold {} values on this rank; Megatron's layout at {} ranks holds {} (the one-process "
    "block has {})": "本 rank 上块的参数共 {0} 个数值；Megatron 在 {1} 个 rank 时的布局应为 {2} 个（单进程的块有 {3} 个）",
    "{} parameter values on this rank (1/{} of the split layers); tensors held in this rank's process besides the "
    "checker's: {} B, parameters and gradients {} B":
        "本 rank 上有 {0} 个参数值（切分层的 1/{1}）；除检查程序自己的以外，本 rank 进程持有的张量 {2} B，"
        "其中参数和梯度 {3} B",
    "{} parameter values on this rank (1/{} of the split layers); tensors held in this rank's process besides the "
    "checker's: {} B, parameters and gradients {} B: something keeps more of the block than its slice":
        "本 rank 上有 {0} 个参数值（切分层的 1/{1}）；除检查程序自己的以外，本 rank 进程持有的张量 {2} B，"
        "其中参数和梯度 {3} B：有东西留住了比切片更多的块",
    "forward {} all-reduce(s), backward {}; Megatron's layout needs 2 and 2 per layer (one per attention and one "
    "per MLP, each way)": "前向 {0} 次 all-reduce，反向 {1} 次；Megatron 的布局每层前向、反向各需 2 次"
                         "（attention 和 MLP 各一次）",
    "also {}, which this layout does not need": "另外还有 {0}，这个布局用不着",
    # the core's other details (tutor/labs/checks.py) and the run's summary when it did not end well
    # (tutor/labs/evidence.py summary, report.for_learner): a failed "runs to completion"
    "cannot compute {}: {}": "无法计算 {0}：{1}",
    "rank {} failed: {}: {} at {}:{} in {}": "rank {0} 出错：{1}: {2}（{3} 第 {4} 行，{5} 里）",
    "rank {} failed: {}: {}{}": "rank {0} 出错：{1}: {2}{3}",
    "rank {} died of {} (exit code {}){}": "rank {0} 因 {1} 终止（退出码 {2}）{3}",
    "then rank {} failed: {}": "随后 rank {0} 出错：{1}",
    "rank {} exited with code {}": "rank {0} 以退出码 {1} 退出",
    "{} did not finish (see the launcher's output)": "{0} 没有跑完（见启动器的输出）",
    "ran to the end, but {} is wrong on rank {}: {}": "跑到了最后，但 {0} 在 rank {1} 上不对：{2}",
    "did not finish within the wall-clock limit": "没有在墙钟时间限制内跑完",
    "no rank made progress for {} s": "{0} 秒内没有任何 rank 取得进展",
    "no rank made progress for {} s: {}": "{0} 秒内没有任何 rank 取得进展：{1}",
    "the process-group timeout fired": "进程组超时触发了",
    "the process-group timeout fired: {}": "进程组超时触发了：{0}",
    "the process-group timeout fired (rank {}: {} at {}:{} in {}): {}":
        "进程组超时触发了（rank {0}：{1}，{2} 第 {3} 行，{4} 里）：{5}",
    "the process-group timeout fired (rank {}: {}): {}": "进程组超时触发了（rank {0}：{1}）：{2}",
    # the lead a learner reads before a diagnosis (tutor.labs.report.for_learner), the error quoted as torch wrote it
    "the process-group timeout fired (rank {}: {} at {}:{} in {})": "进程组超时触发了（rank {0}：{1}，{2} 第 {3} 行，{4} 里）",
    "the process-group timeout fired (rank {}: {})": "进程组超时触发了（rank {0}：{1}）",
    "in {} ({})": "卡在 {0}（{1}）",
    "outside any collective": "不在任何集合通信里",
    "{} in {} ({})": "{0} 卡在 {1}（{2}）",
    "{} outside any collective": "{0} 不在任何集合通信里",
    "{}: where each rank waits is below; `tutor lab evidence {}` lines them up":
        "{0}：每个 rank 卡在哪里见下方；`tutor lab evidence {1}` 会把它们对齐列出",
    "out of memory: this rank reached its cap of {} MB ({}) {}": "内存不足：这个 rank 用到了 {0} MB 的上限（{1}）{2}",
    # Python's own words for what a learner's file most often lacks (the message of a failed rank)
    "module 'lab_program' has no attribute '{}'": "你的程序里没有 '{0}'",  # the checker's name for it (checking.py)
    "module '{}' has no attribute '{}'": "模块 '{0}' 里没有 '{1}'",
    "No module named '{}'": "没有名为 '{0}' 的模块",
    "name '{}' is not defined": "名字 '{0}' 没有定义",
    # a rank process that cannot start (tutor/labs/rank/context.py, checking.py), or a GPU lab on a CPU
    "--backend nccl needs {} CUDA GPU(s) on this node; found {}": "--backend nccl 需要本节点有 {0} 块 CUDA GPU；只找到 {1} 块",
    "run this program with torchrun, e.g. `torchrun --nproc-per-node 2 {}`, or through `tutor lab run`":
        "请用 torchrun 运行这个程序，例如 `torchrun --nproc-per-node 2 {0}`，或者通过 `tutor lab run` 运行",
    "cannot load {}": "无法加载 {0}",
    "{} is not set: run checkers through `tutor lab check`": "没有设置 {0}：检查程序要通过 `tutor lab check` 运行",
    "kernel-fusion needs a CUDA GPU": "kernel-fusion 需要 CUDA GPU",
    "fp8-matmul needs a CUDA GPU": "fp8-matmul 需要 CUDA GPU",
    "cuda-graphs needs a CUDA GPU": "cuda-graphs 需要 CUDA GPU",
    "kernel-fusion needs a CUDA GPU (tutor lab run kernel-fusion --backend nccl)":
        "kernel-fusion 需要 CUDA GPU（tutor lab run kernel-fusion --backend nccl）",
    "fp8-matmul needs a CUDA GPU (tutor lab run fp8-matmul --backend nccl)":
        "fp8-matmul 需要 CUDA GPU（tutor lab run fp8-matmul --backend nccl）",
    "cuda-graphs needs a CUDA GPU (tutor lab run cuda-graphs --backend nccl)":
        "cuda-graphs 需要 CUDA GPU（tutor lab run cuda-graphs --backend nccl）",
    # the memory fix check's device (tutor/labs/rank/fixcheck.py)
    "no training.Trainer was built, so no step ran on the simulated device":
        "没有构建 training.Trainer，所以没有一步是在模拟设备上跑的",
    "a trainer ran without the simulated device (memory=None or another kind): the brief's device has room for {} "
    "KiB of activations": "有个 trainer 没用模拟设备（memory=None 或别的类型）：题目里的设备能放下 {0} KiB 的激活",
    # 02 dp-overlap
    "every gradient matches, two steps running": "连续两步，每个梯度都一致",
    "step {}, {}: {}": "第 {0} 步，{1}：{2}",
    "the recorder saw no torch.distributed.all_reduce in a step": "记录器在一步里没有看到任何 torch.distributed.all_reduce",
    "{} of {} all-reduces started before backward returned": "{1} 次 all-reduce 中有 {0} 次在反向传播返回之前启动",
    "the rest waited for the whole backward pass": "其余的等到整个反向传播结束才启动",
    "{} of them blocking (async_op=False): backward waits for each": "其中 {0} 次是阻塞的（async_op=False）：反向传播要等每一次做完",
    "{} waited for inside backward: nothing overlaps": "{0} 次在反向传播内部就等待了：没有任何重叠",
    "{} B in {} collective(s) ({}) per step; the gradients are {} B": "每步 {1} 次集合通信（{2}）共 {0} B；梯度共 {3} B",
    "{} of your communication is exposed ({} ms per step), {} of the shipped program's ({} ms): ratio {} (needs ≤ "
    "{}; communication not covered by compute on the profiler's timeline of whole steps, traces yours-rankN and "
    "shipped-rankN); exposed by bucket size: {}":
        "你的通信有 {0} 暴露在外（每步 {1} ms），原始程序是 {2}（{3} ms）：比值 {4}（至多 {5}；按 profiler 整步时间线上"
        "没被计算覆盖的通信算，trace 为 yours-rankN 和 shipped-rankN）；各 bucket 大小下暴露的比例：{6}",
    # 03 pp-1f1b and 24 pp-interleaved
    "every F and B once, each B after its F": "每个 F 和 B 各一次，每个 B 都在对应的 F 之后",
    "{} virtual stages placed once each; every F and B once, each B after its F":
        "{0} 个虚拟 stage 各放置一次；每个 F 和 B 各一次，每个 B 都在对应的 F 之后",
    "m={}: {}": "m={0} 时：{1}",
    "unknown step {}": "未知的步骤 {0}",
    "F{} appears twice": "F{0} 出现了两次",
    "B{} appears twice": "B{0} 出现了两次",
    "B{} comes before F{}": "B{0} 出现在 F{1} 之前",
    "no backward for micro-batch(es) {}": "micro-batch {0} 没有反向",
    "F of chunk {}, micro-batch {} appears twice": "chunk {0}、micro-batch {1} 的 F 出现了两次",
    "B of chunk {}, micro-batch {} appears twice": "chunk {0}、micro-batch {1} 的 B 出现了两次",
    "B of chunk {}, micro-batch {} comes before its F": "chunk {0}、micro-batch {1} 的 B 出现在它的 F 之前",
    "no backward for (chunk, micro-batch) {}{}": "这些 (chunk, micro-batch) 没有反向：{0}{1}",
    "rank {} chunk {} is placed at {}, not a stage 0..{}": "rank {0} 的 chunk {1} 被放在 {2}，而不是 0..{3} 中的某个 stage",
    "stage {} is placed twice: rank {} chunk {} and rank {} chunk {}":
        "stage {0} 被放置了两次：rank {1} 的 chunk {2} 和 rank {3} 的 chunk {4}",
    "{} forward and {} backward passes of {} micro-batches seen through the layers handed to run_pipeline":
        "在交给 run_pipeline 的层上看到 {0} 次前向、{1} 次反向（{2} 个 micro-batch）",
    "{} forward and {} backward passes seen through the {} chunks handed to run_pipeline; {} chunks × {} "
    "micro-batches = {} of each": "在交给 run_pipeline 的 {2} 个 chunk 上看到 {0} 次前向、{1} 次反向；"
                                  "{3} 个 chunk × {4} 个 micro-batch = 各 {5} 次",
    "every weight and bias of this stage matches": "本 stage 的每个权重和偏置都一致",
    "every weight and bias of this rank's chunks matches": "本 rank 各 chunk 的每个权重和偏置都一致",
    "no gradient": "没有梯度",
    "stage {} {}: {}": "stage {0} 的 {1}：{2}",
    "stage {}: {} ms idle per micro-batch beyond the bubble, {} of a forward + backward pass ({} ms); at most 50%":
        "stage {0}：除气泡之外，每个 micro-batch 空闲 {1} ms，是一次前向 + 反向（{3} ms）的 {2}；至多 50%",
    "rank {}: {} ms idle per micro-batch beyond the bubble, {} of the micro-batch's {} forward + backward passes "
    "({} ms); at most 50%": "rank {0}：除气泡之外，每个 micro-batch 空闲 {1} ms，是它 {3} 次前向 + 反向（{4} ms）"
                            "的 {2}；至多 50%",
    "stage {} held up to {} micro-batches' activations at once (m up to {}); 1F1B holds at most p − stage = {}":
        "stage {0} 同时最多持有 {1} 个 micro-batch 的激活（m 最大到 {2}）；1F1B 至多持有 p − stage = {3} 个",
    "rank {} held up to {} chunk activations at once (m up to {}); interleaved 1F1B holds at most "
    "2(p − rank − 1) + (v − 1)·p + 1 = {}": "rank {0} 同时最多持有 {1} 份 chunk 激活（m 最大到 {2}）；"
                                            "交错 1F1B 至多持有 2(p − rank − 1) + (v − 1)·p + 1 = {3} 份",
    # 04 zero1-memory
    "after step {}: {}": "第 {0} 步之后：{1}",
    "bf16 weights match plain Adam after {} steps": "{0} 步之后，bf16 权重与普通 Adam 的一致",
    # 06 pp-sendrecv
    "{} of {} steps on the first stage": "第一个 stage 上跑了 {0} 步，共 {1} 步",
    "frozen in steps {}, then trained": "在这些步里冻结：{0}，之后参与训练",
    "the embedding never changed": "embedding 一直没变",
    # 07 crashed-rank
    "reported {}, replay {}": "报告的是 {0}，重放得到 {1}",
    # 08 long-batch
    "all {} documents": "全部 {0} 篇文档",
    "{} never trained, e.g. {}": "{0} 篇从没参与训练，例如 {1}",
    "{} of its tokens trained (the context holds {} targets)": "它有 {0} 个 token 参与了训练（上下文能放 {1} 个目标）",
    # 09 uneven-batches
    "{} of {} documents trained once each; {} left for the next epoch (fewer than one global batch of {})":
        "{1} 篇文档中有 {0} 篇各训练了一次；{2} 篇留给下一个 epoch（不到一个 {3} 的 global batch）",
    "{} documents trained twice, {} left out (at most {} may be)": "{0} 篇文档训练了两次，{1} 篇被漏掉（最多只能漏 {2} 篇）",
    # 10 diverging-control-flow
    "rank 0 stopped at step {} (the first non-finite loss is at step {}, on rank {})":
        "rank 0 停在第 {0} 步（第一个非有限的 loss 在第 {1} 步，rank {2} 上）",
    "updates per rank: {} (expected {})": "每个 rank 的更新次数：{0}（应为 {1}）",
    # 11 collective-order
    "{} steps, lr {} at the end": "{0} 步，最后 lr 为 {1}",
    "lr per step {}, expected {}": "每步的 lr：{0}，应为 {1}",
    # 16 kernel-fusion, 17 fp8-matmul, 18 cuda-graphs
    "{} dropped, p = {}": "丢弃了 {0}，p = {1}",
    "{} ms vs {} ms: {}× (needs ≥ {}×; per round {}); one fused kernel at the measured {} TB/s would take {} ms":
        "{0} ms 对 {1} ms：{2}×（至少要 {3}×；逐轮 {4}）；按实测的 {5} TB/s，一个融合 kernel 要 {6} ms",
    "FP8 GEMMs seen: {}": "看到的 FP8 GEMM：{0}",
    "relative error {} (at most {}; bf16 gives {})": "相对误差 {0}（至多 {1}；bf16 是 {2}）",
    "{} TFLOP/s vs {} in bf16: {}× (needs ≥ {}×; per round {})": "{0} TFLOP/s，bf16 是 {1}：{2}×（至少要 {3}×；逐轮 {4}）",
    "input {}: {}": "第 {0} 个输入：{1}",
    "{} µs vs {} µs per call: {}× (needs ≥ {}×; per round {})": "每次调用 {0} µs 对 {1} µs：{2}×（至少要 {3}×；逐轮 {4}）",
    # 19 fsdp-zero3
    "outputs, every gradient shard and every weight shard match, {} steps":
        "{0} 步里，输出、每个梯度分片和每个权重分片都一致",
    "step {}, output: {}": "第 {0} 步，输出：{1}",
    "step {}, gradient of layer {}: {}": "第 {0} 步，第 {1} 层的梯度：{2}",
    "after step {}, weights of layer {}: {}": "第 {0} 步之后，第 {1} 层的权重：{2}",
    "forward: {} all-gather(s); backward: {} all-gather(s) and {} reduce-scatter(s); ZeRO-3 with {} layers needs {}, "
    "{} and {}, each all-gather of one shard ({} B) and each reduce-scatter of one layer's gradient":
        "前向：{0} 次 all-gather；反向：{1} 次 all-gather 和 {2} 次 reduce-scatter；{3} 层的 ZeRO-3 需要 {4}、{5} 和 {6} 次，"
        "每次 all-gather 一个分片（{7} B），每次 reduce-scatter 一层的梯度",
    "also {}, which ZeRO-3 does not need": "另外还有 {0}，ZeRO-3 用不着",
    "some were not one layer's shard or gradient in size": "有些的大小不是一层的分片或梯度",
    "up to {} gathered layer(s) alive at once in a step, of {} (ZeRO-3 keeps one, two with prefetch)":
        "一步里同时最多有 {0} 个 gather 后的层存活，共 {1} 层（ZeRO-3 只留一个，预取时两个）",
    # 20 no-sync-accumulation
    "the ranks' weights are identical": "各 rank 的权重完全相同",
    "the ranks' weights differ by up to {} after {} steps: the replicas have drifted apart":
        "{1} 步之后各 rank 的权重相差最多 {0}：副本之间已经分叉",
    "{}, after {} steps of {} micro-batches on each of {} ranks": "{0}，{3} 个 rank 每个都跑了 {1} 步、每步 {2} 个 micro-batch",
    "{} gradient all-reduce(s) by DDP in {} steps of {} micro-batches (one per step is enough)":
        "{1} 步（每步 {2} 个 micro-batch）里 DDP 做了 {0} 次梯度 all-reduce（每步一次就够）",
    "{} gradient all-reduce(s) by DDP in {} steps of {} micro-batches (one per step is enough); also {}":
        "{1} 步（每步 {2} 个 micro-batch）里 DDP 做了 {0} 次梯度 all-reduce（每步一次就够）；另外还有 {3}",
    # 21 ring-attention
    "{} send(s) of {} B in all, to rank(s) {}; {} receive(s) from rank(s) {}; a ring passes one K/V chunk ({} B) to "
    "rank {} and takes one from rank {}, N − 1 = {} time(s)":
        "共 {0} 次 send，{1} B，发给 rank {2}；{3} 次 receive，来自 rank {4}；环形传递每次把一块 K/V（{5} B）"
        "发给 rank {6}、从 rank {7} 收一块，共 N − 1 = {8} 次",
    "also {}, which the ring does not need": "另外还有 {0}，环形传递用不着",
    # 22 moe-expert-parallel
    "rank {}'s tokens route {} copies to ranks 0..{} and it receives {}; its all-to-alls of token rows sent {} and "
    "received {}; wanted dispatch then combine: sent {}, received {}":
        "rank {0} 的 token 按路由向 rank 0..{2} 发送 {1} 份，收到 {3} 份；它的 token 行 all-to-all 发送 {4}、接收 {5}；"
        "应先 dispatch 再 combine：发送 {6}，接收 {7}",
    "an all-to-all of {} integers": "一次 {0} 个整数的 all-to-all",
    "{} of {} B ({})": "一次 {0}，共 {1} B（{2}）",
    "{} all-to-all(s) of token rows, {} of integer metadata, {} other small collective(s) of integers":
        "{0} 次 token 行的 all-to-all，{1} 次整数元数据的，另有 {2} 次整数的小集合通信",
    # 23 sequence-parallel
    "the input slice's and every shard's gradient match": "输入切片和每个分片的梯度都一致",
    "the LayerNorm handed over saw inputs of shape {}; this rank's slice is [{}, {}, {}] of the [{}, {}, {}] sequence":
        "交给它的 LayerNorm 看到的输入形状是 {0}；本 rank 的切片是 [{1}, {2}, {3}]，整条序列是 [{4}, {5}, {6}]",
    "forward: {}; backward: {}; sequence parallelism makes one all-gather and one reduce-scatter each way":
        "前向：{0}；反向：{1}；序列并行在前向和反向各做一次 all-gather 和一次 reduce-scatter",
    # 25 gather-sizes
    "rank {} scored {} documents, its share is {}": "rank {0} 给 {1} 篇文档打了分，它的份额是 {2}",
    "{} losses, expected {} (ranks scored {})": "{0} 个 loss，应为 {1} 个（各 rank 打分的数量 {2}）",
    "{} losses, expected {} (ranks scored {}): {}": "{0} 个 loss，应为 {1} 个（各 rank 打分的数量 {2}）：{3}",
    "reported {}, expected {}": "报告的是 {0}，应为 {1}",
    # 26 timeout-at-item, 27 eval-rank0, 28 group-order
    "logged {}, expected {}": "记录的是 {0}，应为 {1}",
    "cut tokens so far {}, expected {}": "到目前为止截掉的 token：{0}，应为 {1}",
    "rank {} scored {} held-out documents, each {} times (its share is at most {} of {}, once per evaluation)":
        "rank {0} 给 {1} 篇 held-out 文档打了分，每篇 {2} 次（它的份额至多是 {4} 篇中的 {3} 篇，每次评估一遍）",
    "rank {} scored {} held-out documents ({} forwards over {} evaluations); its share is at most {} of {}, once "
    "per evaluation": "rank {0} 给 {1} 篇 held-out 文档打了分（{3} 次评估共 {2} 次前向）；它的份额至多是 {5} 篇中的 "
                      "{4} 篇，每次评估一遍",
    "{} of {} documents scored over all ranks": "所有 rank 合计给 {1} 篇文档中的 {0} 篇打了分",
    "no training report to replay": "没有可重放的训练报告",
    "no training report to replay (the program's trainer.finish() did not run)":
        "没有可重放的训练报告（程序的 trainer.finish() 没有运行）",
    "rank {} logged {}, expected {}": "rank {0} 记录的是 {1}，应为 {2}",
    "rank {}: all_reduce on {}, reduce on {} (groups by description)": "rank {0}：all_reduce 走 {1}，reduce 走 {2}（按描述区分的组）",
    # 29 exit-hang
    "rank {}: none left": "rank {0}：没有剩下的",
    "thread {} ({})": "线程 {0}（{1}）",
    "rank {}: {} still running after main returned: a non-daemon thread keeps the process from exiting, a daemon "
    "one dies with what it was doing": "rank {0}：main 返回后仍在运行：{1}；非守护线程会让进程退不出去，"
                                       "守护线程则会连同手头的事一起被杀掉",
    "rank {}: {}, expected {}": "rank {0}：{1}，应为 {2}",
    "{} checkpoints equal the replay": "{0} 个 checkpoint 都与重放一致",
    "step {}: {}": "第 {0} 步：{1}",
    "step {}: {}: {}": "第 {0} 步：{1}: {2}",
    # 30 stalled-loader
    "DataLoader iterators with {} workers, {} in the main process": "DataLoader 迭代器：worker 数 {0}，在主进程里读的 {1} 个",
    "{}: {} (not written by this run)": "{0}：{1}（不是这次运行写的）",
    "{} documents written": "写了 {0} 篇文档",
    "{} documents, each as tokenized": "{0} 篇文档，每篇都与 tokenize 的结果一致",
    "rank {} trained on {}, expected {}": "rank {0} 训练的是 {1}，应为 {2}",
    "{} epochs of {} batches on each of {} ranks": "{2} 个 rank 每个都跑了 {0} 个 epoch，每个 epoch {1} 个 batch",
    # 31 busy-rank
    "every token of every page": "每一页的每个 token 都在",
    "every piece as expected, at most {} tokens": "每一段都符合预期，最多 {0} 个 token",
    "rank {}, step {}: the rows do not add up to its pages": "rank {0}，第 {1} 步：这些行拼起来不等于它的那些页",
    "rank {}, step {}: pieces of {} tokens, expected {}": "rank {0}，第 {1} 步：各段的 token 数是 {2}，应为 {3}",
}


def check_name(name: str, lang: str) -> str:
    """A check's or measurement's name in `lang` (the English name when there is no entry)."""
    if lang != "zh":
        return name
    return _translate(name, ZH) or name


def check_detail(detail: str, lang: str) -> str:
    """A check's detail in `lang`: the core's, the shared helpers' (compare, replay, fix checks,
    perf checks) and the checkers' listed here; one not listed is shown as it is. A detail that is
    a name and a listed detail ("fc1.weight: max abs error …") keeps the name; one a check wrote
    as clauses joined by "; " (a clause per problem found) is read clause by clause."""
    if lang != "zh":
        return detail
    failed_on = _FAILED_ON.fullmatch(detail)  # the core appends the rank a check failed on
    if failed_on:
        inner = check_detail(failed_on.group(1), lang)
        if inner != failed_on.group(1):
            return f"{inner}（rank {failed_on.group(2)}）"
    return _detail(detail) or detail


def _detail(text: str) -> str | None:
    """`text` in Chinese, or None when no entry reads it."""
    found = _whole(text)
    if found is None and "; " in text:
        found = _clauses(text.split("; "))
    return found


def _whole(text: str) -> str | None:
    found = _translate(text, DETAILS)
    if found is None:
        head, colon, tail = text.partition(": ")
        inner = _translate(tail, DETAILS) if colon and head and " " not in head else None
        found = f"{head}：{inner}" if inner is not None else None
    return found


def _clauses(clauses: list[str]) -> str | None:
    """Clauses joined by "; ", the longest run that is one entry first (an entry may hold a "; "
    itself); a clause no entry reads is kept as it is, so long as another is read."""
    shown, start, read = [], 0, False
    while start < len(clauses):
        for end in range(len(clauses), start, -1):
            found = _whole("; ".join(clauses[start:end])) if clauses[start] else None
            if found is not None:
                shown.append(found)
                read, start = True, end
                break
        else:
            shown.append(clauses[start])
            start += 1
    return "；".join(shown) if read else None


_FAILED_ON = re.compile(r"(.+) \(rank (\d+)\)", re.S)


def _translate(text: str, table: dict[str, str]) -> str | None:
    if "{}" not in text and text in table:
        return table[text]
    for pattern, chinese, clauses in _TEMPLATES[id(table)]:
        found = pattern.fullmatch(text)
        # a value does not span the "; " between a detail's clauses unless the entry has clauses
        # itself ("3 of 4 …; 2 of them blocking" is two clauses, not one "{} of them blocking")
        if found and (clauses or table is not DETAILS or not any("; " in value for value in found.groups())):
            return _BETWEEN_HAN.sub("", chinese.format(*(_value(value, table) for value in found.groups())))
    return None


# The space a template keeps around a value for an English word ("但 {0} 在") is dropped when the
# value read in Chinese too ("但块的输出在").
_BETWEEN_HAN = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])")


def _value(value: str, table: dict[str, str]) -> str:
    """A value in a template, itself looked up: a label or unit (PARTS), a check's name (ZH), or in a detail a helper's
    detail quoted inside another ("weights vs replay: max abs error …"), before a label's template
    ("ranks {}-{}") that could swallow it."""
    if value in PARTS:
        return PARTS[value]
    if value in ZH:  # a check's name inside a detail ("ran to the end, but block output is wrong …")
        return ZH[value]
    return (_detail(value) if table is DETAILS else None) or _translate(value, PARTS) or value


def _compiled(table: dict[str, str]) -> list[tuple[re.Pattern, str, bool]]:
    """The table's templates as patterns, longest first ("measured … (rank …)" before its shorter form)."""
    return [(re.compile("(.*?)".join(re.escape(piece) for piece in english.split("{}")), re.S), chinese,
             "; " in english)
            for english, chinese in sorted(table.items(), key=lambda item: -len(item[0])) if "{}" in english]


_TEMPLATES = {id(table): _compiled(table) for table in (ZH, PARTS, DETAILS)}
