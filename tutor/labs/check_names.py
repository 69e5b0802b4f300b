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
}

# Details: the core's own (tutor/labs/checks.py judge and _compare), the shared helpers' every
# checker reports (compare, replay, fixcheck, perfcheck, measure), and checkers' own, lab by lab.
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
    "{} vs {} {} shipped: {}× (needs ≥ {}×; best of the interleaved rounds of {} steps and the result(); "
    "round by round {})": "你的 {0}，原始程序 {1}（{2}）：{3}×（至少要 {4}×；取 {5} 步交替各轮连同 result() 的"
                          "最好一轮；逐轮 {6}）",
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
    "forward {} all-reduce(s), backward {}; Megatron's layout needs 2 and 2 per layer (one per attention and one "
    "per MLP, each way); also {}, which this layout does not need":
        "前向 {0} 次 all-reduce，反向 {1} 次；Megatron 的布局每层前向、反向各需 2 次（attention 和 MLP 各一次）；"
        "另外还有 {2}，这个布局用不着",
}


def check_name(name: str, lang: str) -> str:
    """A check's or measurement's name in `lang` (the English name when there is no entry)."""
    if lang != "zh":
        return name
    return _translate(name, ZH) or name


def check_detail(detail: str, lang: str) -> str:
    """A check's detail in `lang`: the core's, the shared helpers' (compare, replay, fix checks,
    perf checks) and the checkers' listed here; one not listed is shown as it is. A detail that is
    a name and a listed detail ("fc1.weight: max abs error …") keeps the name."""
    if lang != "zh":
        return detail
    failed_on = _FAILED_ON.fullmatch(detail)  # the core appends the rank a check failed on
    if failed_on:
        inner = check_detail(failed_on.group(1), lang)
        if inner != failed_on.group(1):
            return f"{inner}（rank {failed_on.group(2)}）"
    found = _translate(detail, DETAILS)
    if found is None:
        head, colon, tail = detail.partition(": ")
        inner = _translate(tail, DETAILS) if colon and head and " " not in head else None
        found = f"{head}：{inner}" if inner is not None else None
    return found or detail


_FAILED_ON = re.compile(r"(.+) \(rank (\d+)\)", re.S)


def _translate(text: str, table: dict[str, str]) -> str | None:
    if "{}" not in text and text in table:
        return table[text]
    for pattern, chinese in _TEMPLATES[id(table)]:
        found = pattern.fullmatch(text)
        if found:
            # each value is itself looked up: a label or unit (PARTS), or a helper's detail
            # quoted inside another ("weights vs replay: max abs error …")
            return chinese.format(*(_translate(value, PARTS) or (_translate(value, DETAILS) if table is DETAILS
                                                                 else None) or value
                                    for value in found.groups()))
    return None


def _compiled(table: dict[str, str]) -> list[tuple[re.Pattern, str]]:
    """The table's templates as patterns, longest first ("measured … (rank …)" before its shorter form)."""
    return [(re.compile("(.*?)".join(re.escape(piece) for piece in english.split("{}")), re.S), chinese)
            for english, chinese in sorted(table.items(), key=lambda item: -len(item[0])) if "{}" in english]


_TEMPLATES = {id(table): _compiled(table) for table in (ZH, PARTS, DETAILS)}
