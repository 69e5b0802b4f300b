"""The configuration validator (issue 3 item 4): errors and warnings, each one clear line, en and zh.

`resolve()` fills in a missing DP or GPU count (or says in one line why it cannot);
`validate_config()` checks the combination; `validate_split()` the part of it that needs no DP.
Memory over capacity needs the computed figures and is reported by `tutor.sizing.report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tutor.sizing.errors import SizingError
from tutor.sizing.specs import Hardware, Model, Parallel, Throughput, Train
from tutor.text import T

# Published MFU of large dense runs tops out in the 40s (Llama 3 405B 38–43%, facts.md §7).
HIGH_MFU = 0.6
# Below this many tokens per CP rank, ring attention's chunks are too short to hide their transfers
# (a planning floor, not a published limit: the lesson's 70B runs 4K per rank, Llama 3 8K per rank
# at 128K). The planner does not split further; a given layout that does is warned about.
MIN_TOKENS_PER_CP_RANK = 4096
ASSUMED = {
    "global_batch": T("global batch not given: assumed {value} sequences (micro-batches, bubble and step time depend "
                     "on it; give --global-batch)",
                     "没给 global batch：按 {value} 条序列假设（micro-batch 数、bubble、step 时间都取决于它；"
                     "请给 --global-batch）"),
    "ffn": T("--ffn not given: the GPT MLP width is assumed to be 4h = {value}",
            "没给 --ffn:GPT 的 MLP 宽度按 4h = {value} 假设"),
}


@dataclass(frozen=True)
class Finding:
    code: str
    message: T

    def text(self, lang: str = "en") -> str:
        return self.message.get(lang)


@dataclass
class Findings:
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def error(self, code: str, message: T) -> None:
        self.errors.append(Finding(code, message))

    def warn(self, code: str, message: T) -> None:
        self.warnings.append(Finding(code, message))

    @property
    def ok(self) -> bool:
        return not self.errors


def resolve(parallel: Parallel) -> Parallel:
    """The layout with both GPUs and DP known: DP = GPUs/(TP·PP·CP), or GPUs = TP·PP·CP·DP."""
    model_parallel = parallel.tp * parallel.pp * parallel.cp
    if parallel.dp is not None and parallel.gpus is not None:
        return parallel
    if parallel.gpus is None:
        return replace(parallel, dp=parallel.dp or 1, gpus=model_parallel * (parallel.dp or 1))
    if parallel.gpus % model_parallel:
        raise _not_divisible(parallel.gpus, parallel.tp, parallel.pp, parallel.cp, model_parallel)
    return replace(parallel, dp=parallel.gpus // model_parallel)


def _not_divisible(gpus: int, tp: int, pp: int, cp: int, model_parallel: int) -> SizingError:
    """Why `gpus` cannot be split over TP × PP × CP and what to type instead (one GPU is one, not "1 GPUs")."""
    layout = f"TP {tp} × PP {pp} × CP {cp}"
    if gpus < model_parallel:
        return SizingError(
            T(f"{gpus:,} GPU{'s' if gpus != 1 else ''} cannot hold {layout} = {model_parallel:,} GPUs of model parallelism: "
            f"give at least {model_parallel:,} GPUs (a multiple of {model_parallel:,}), or a smaller TP, PP or CP",
               f"{gpus:,} 张卡放不下 {layout} = {model_parallel:,} 张卡的模型并行：至少给 {model_parallel:,} 张卡"
               f"（{model_parallel:,} 的倍数），或者调小 TP、PP 或 CP"))
    lower, upper = gpus // model_parallel * model_parallel, (gpus // model_parallel + 1) * model_parallel
    return SizingError(
        T(f"{gpus:,} GPUs cannot be split as {layout} × DP: {gpus:,} is not divisible by {model_parallel:,}; "
        f"use {lower:,} or {upper:,} GPUs, or a TP × PP × CP that divides {gpus:,}",
           f"{gpus:,} 张卡无法切成 {layout} × DP：{gpus:,} 不能被 {model_parallel:,} 整除；改用 {lower:,} 或 "
           f"{upper:,} 张卡，或者选一个能整除 {gpus:,} 的 TP × PP × CP"))


def resolved(value: int | None) -> int:
    """DP or the GPU count of a layout after `resolve()`, which always sets both."""
    if value is None:
        raise SizingError("the layout is not resolved: DP and the GPU count must both be known")
    return value


def validate_config(model: Model, train: Train, parallel: Parallel, hardware: Hardware,
                    throughput: Throughput | None = None) -> Findings:
    """Every rule the layout breaks; errors make it unusable, warnings make it slow or unusual."""
    found = Findings()
    par = resolve(parallel)
    _layout(found, par, hardware)
    _model_split(found, model, par)
    _batches(found, train, par)
    _moe(found, model, par)
    _features(found, train, par)
    _assumed(found, model, train)
    if throughput is not None and throughput.mfu is not None and throughput.mfu > HIGH_MFU:
        found.warn("high-mfu", T(f"MFU {throughput.mfu:.0%} is above any published large run (Llama 3 405B: 38–43%)",
                   f"MFU {throughput.mfu:.0%} 高于所有公开的大规模训练（Llama 3 405B:38–43%）"))
    return found


def validate_split(model: Model, train: Train, parallel: Parallel) -> Findings:
    """The errors that need no DP: heads and KV heads over TP, layers over PP, experts over EP, the
    sequence over 2·CP. The grader judges them on a layout whose DP cannot be derived (the GPUs do
    not divide by TP × PP × CP), so the learner hears them with that error, not after fixing it."""
    found = Findings()
    _model_split(found, model, parallel)
    _experts(found, model, parallel)
    _sequence(found, train, parallel)
    return found


def _layout(found: Findings, par: Parallel, hardware: Hardware) -> None:
    product = par.tp * par.pp * par.cp * resolved(par.dp)
    if product != par.gpus:
        found.error("gpu-product", T(f"TP × PP × CP × DP = {par.tp} × {par.pp} × {par.cp} × {par.dp} = {product}, "
                    f"not the {par.gpus} GPUs (EP does not multiply the GPU count)",
                    f"TP × PP × CP × DP = {par.tp} × {par.pp} × {par.cp} × {par.dp} = {product}，"
                    f"不等于 {par.gpus} 张卡（EP 不额外乘卡数）"))
    if par.tp > hardware.gpus_per_node:
        found.warn("tp-node", T(f"TP {par.tp} spans more than one {hardware.gpus_per_node}-GPU node: its 4 all-reduces "
                   "per layer leave NVLink",
                   f"TP {par.tp} 超过一台机器的 {hardware.gpus_per_node} 张卡：每层 4 次 all-reduce 要走出 NVLink"))


def _assumed(found: Findings, model: Model, train: Train) -> None:
    for name, spec in (("ffn", model), ("global_batch", train)):
        if name in spec.assumed:
            found.warn(f"assumed-{name.replace('_', '-')}", ASSUMED[name].filled(value=getattr(spec, name)))


def _model_split(found: Findings, model: Model, par: Parallel) -> None:
    if model.heads is not None and model.heads % par.tp:
        found.error("heads-tp", T(f"{model.heads} heads are not divisible by TP {par.tp}",
                    f"{model.heads} 个 heads 不能被 TP {par.tp} 整除"))
    kv = model.kv_heads
    if kv is not None and model.heads is not None and (kv > model.heads or model.heads % kv):
        found.error("kv-heads-heads", T(f"{kv} KV heads do not divide the {model.heads} heads (each KV head serves "
                    "a whole group of query heads)",
                    f"{kv} 个 KV heads 不能整除 {model.heads} 个 heads（每个 KV head 服务一整组 query head）"))
    elif kv is not None and kv % par.tp and par.tp % kv:
        found.error("kv-heads-tp", T(f"{kv} KV heads are not divisible by TP {par.tp}, nor TP by them",
                    f"{kv} 个 KV heads 不能被 TP {par.tp} 整除，TP 也不是它的整数倍"))
    elif kv is not None and kv % par.tp:
        found.warn("kv-replicated", T(f"TP {par.tp} is more than the {kv} KV heads: each KV head is replicated on "
                   f"{par.tp // kv} TP ranks (as Megatron-LM and vLLM do), so K/V weights are not split {par.tp} ways",
                   f"TP {par.tp} 多于 {kv} 个 KV heads：每个 KV head 在 {par.tp // kv} 个 TP rank 上各存一份"
                   f"（Megatron-LM、vLLM 都这样做），K/V 的 weight 没有切成 {par.tp} 份"))
    if model.heads is not None and model.hidden is not None and model.hidden % model.heads:
        found.error("hidden-heads", T(f"hidden {model.hidden} is not divisible by {model.heads} heads",
                    f"hidden {model.hidden} 不能被 {model.heads} 个 head 整除"))
    if par.vpp > 1 and par.pp == 1:
        found.error("vpp-pp", T("interleaving (v > 1) needs pipeline parallelism (PP > 1)",
                    "interleaved（v > 1）需要 PP > 1"))
    if model.layers is not None and model.layers % (par.pp * par.vpp):
        if par.vpp > 1 and trimmed_stages(model, par.pp, par.vpp):
            n = (model.layers + 2) // (par.pp * par.vpp)
            found.warn("layers-pp-trimmed", T(f"{model.layers} layers over PP {par.pp} × v {par.vpp}: counted as Llama 3 "
                       f"splits them, {n} layers per chunk and {n - 1} in the first and the last (the embedding and "
                       "the output layer take a layer's place)",
                       f"{model.layers} 层分到 PP {par.pp} × v {par.vpp}:按 Llama 3 的切法算，每段 {n} 层，第一段和最后一段"
                       f"各 {n - 1} 层（embedding 和输出层各占一层的位置）"))
        elif par.vpp > 1:
            found.error("layers-pp",
                        T(f"{model.layers} layers do not split into PP × v = {par.pp * par.vpp} equal chunks",
                        f"{model.layers} 层分不成 PP × v = {par.pp * par.vpp} 个相等的段"))
        elif trimmed_stages(model, par.pp):
            n = (model.layers + 2) // par.pp
            found.warn("layers-pp-trimmed", T(f"{model.layers} layers over PP {par.pp}: counted as Llama 3 splits them, "
                       f"{n} layers per middle stage and {n - 1} on the first and last (the embedding and the output "
                       "layer take a layer's place)",
                       f"{model.layers} 层分到 PP {par.pp}:按 Llama 3 的切法算，中间每个 stage {n} 层，首尾各 {n - 1} 层"
                       "（embedding 和输出层各占一层的位置）"))
        else:
            found.warn("layers-pp", T(f"{model.layers} layers do not split evenly over PP {par.pp}: the fullest stage "
                       "sets the pace (Llama 3 trims a layer from the first and last stage)",
                       f"{model.layers} 层不能均分到 PP {par.pp}:最满的 stage 决定速度（Llama 3 从首尾 stage 各去掉一层）"))
    if model.layers is not None and par.pp > model.layers:
        found.error("pp-layers", T(f"PP {par.pp} is more stages than the {model.layers} layers",
                    f"PP {par.pp} 比 {model.layers} 层还多"))


def _batches(found: Findings, train: Train, par: Parallel) -> None:
    per_step = resolved(par.dp) * train.micro_batch
    if train.global_batch % per_step:
        found.error("batch-split", T(f"global batch {train.global_batch} is not divisible by DP × micro-batch = "
                    f"{par.dp} × {train.micro_batch} = {per_step}",
                    f"global batch {train.global_batch} 不能被 DP × micro-batch = {par.dp} × {train.micro_batch} "
                    f"= {per_step} 整除"))
        return
    m = train.global_batch // per_step
    if par.pp > 1 and m < par.pp:
        found.warn("m-below-p", T(f"m = {m} micro-batches per pipeline is fewer than PP {par.pp}: stages sit idle, "
                   f"bubble (p−1)/m = {(par.pp - 1) / m:.0%} of the compute time",
                   f"每条 pipeline 只有 m = {m} 个 micro-batch，少于 PP {par.pp}:有 stage 空转，"
                   f"bubble (p−1)/m = {(par.pp - 1) / m:.0%}"))
    elif par.pp > 1 and m < 4 * par.pp:
        found.warn("m-below-4p", T(f"m = {m} is below 4p = {4 * par.pp}: the bubble (p−1)/m = {(par.pp - 1) / m:.0%} "
                   "is large", f"m = {m} 小于 4p = {4 * par.pp}:bubble (p−1)/m = {(par.pp - 1) / m:.0%} 偏大"))
    if par.vpp > 1 and m % par.pp:
        found.warn("interleaved-m", T(f"interleaving wants m a multiple of PP (m = {m}, PP = {par.pp}); "
                   "Megatron relaxed this in 2024", f"interleaved 要求 m 是 PP 的整数倍（m = {m},PP = {par.pp}）;"
                   "Megatron 2024 年放宽了这一限制"))


def _experts(found: Findings, model: Model, par: Parallel) -> None:
    if par.ep > 1 and not model.is_moe:
        # Said without the CLI's flag: the playground's learner picks a model, not --experts.
        found.error("ep-dense", T(f"EP {par.ep} needs a mixture-of-experts model; this one is dense",
                    f"EP {par.ep} 只用于 MoE 模型，这个模型是 dense 的"))
    elif model.is_moe and model.experts % par.ep:
        found.error("experts-ep", T(f"{model.experts} experts are not divisible by EP {par.ep}",
                    f"{model.experts} 个 expert 不能被 EP {par.ep} 整除"))


def _moe(found: Findings, model: Model, par: Parallel) -> None:
    _experts(found, model, par)
    if not model.is_moe:
        return
    dp_cp = resolved(par.dp) * par.cp
    if par.ep > dp_cp:
        found.error("ep-dpcp", T(f"EP {par.ep} is larger than DP × CP = {dp_cp}: folding reuses those ranks",
                    f"EP {par.ep} 大于 DP × CP = {dp_cp}:folding 复用的就是这些卡"))
    elif dp_cp % par.ep:
        found.error("ep-dpcp", T(f"DP × CP = {dp_cp} is not divisible by EP {par.ep}",
                    f"DP × CP = {dp_cp} 不能被 EP {par.ep} 整除"))
    if par.sharding.startswith("zero"):
        found.error("moe-zero", T("ZeRO stages are not modelled for MoE; use --distributed-optimizer (Megatron's ZeRO-1-style "
                    "sharding of the optimizer state, as DeepSeek-V3's \"ZeRO-1 DP\")",
                    "MoE 不按 ZeRO stage 计算；请用 --distributed-optimizer"))


def _sequence(found: Findings, train: Train, par: Parallel) -> None:
    if par.cp > 1 and train.seq % (2 * par.cp):
        found.error("seq-cp", T(f"sequence {train.seq} is not a multiple of 2 × CP = {2 * par.cp} (Megatron splits it "
                    "into 2·CP chunks)", f"序列长度 {train.seq} 不是 2 × CP = {2 * par.cp} 的倍数"
                    "（Megatron 把序列切成 2·CP 块）"))


def _features(found: Findings, train: Train, par: Parallel) -> None:
    _sequence(found, train, par)
    if par.cp > 1 and train.seq / par.cp < MIN_TOKENS_PER_CP_RANK:
        found.warn("cp-tokens", T(f"{train.seq / par.cp:g} tokens per CP rank: ring attention's chunks are too short to "
                   f"hide their transfers (the planner keeps at least {MIN_TOKENS_PER_CP_RANK})",
                   f"每个 CP rank 只有 {train.seq / par.cp:g} 个 token:ring attention 的块太短，通信藏不住"
                   f"（planner 至少留 {MIN_TOKENS_PER_CP_RANK} 个）"))
    if par.cp > 1 and not par.flash:
        found.warn("cp-flash", T("context parallelism runs with FlashAttention-style kernels; without them the "
                   "activation figures are rough", "CP 依赖 FlashAttention 类的 kernel；不开时 activation 只是粗估"))
    if par.sharding == "zero3" and par.pp > 1:
        found.warn("zero3-pp", T("ZeRO-3 with pipeline parallelism gathers the weights again for every micro-batch",
                   "ZeRO-3 配 PP 时每个 micro-batch 都要重新 all-gather weight"))
    if par.sharding != "none" and resolved(par.dp) * par.cp == 1:
        found.warn("shard-one", T(f"{par.sharding} shards over DP × CP = 1 rank: nothing is saved, counted as no "
                   "sharding (16 bytes per parameter)",
                   f"{par.sharding} 沿 DP × CP = 1 张卡切分：什么也没省，按不切分算（每个参数 16 字节）"))


def trimmed_stages(model: Model, pp: int, vpp: int = 1) -> bool:
    """Whether the layers split as Llama 3 split them (arXiv 2407.21783 §3.3.2): they do not split
    evenly over PP, but one layer fewer on the first and the last stage (the embedding and the output
    layer in its place) does, L + 2 = n·p. Megatron-LM does the same with
    account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split (transformer_config.py).
    Interleaved (v > 1), the same over the p·v chunks: L + 2 = n·p·v with n ≥ 2, one layer fewer in the
    first and the last chunk. Dense Llama-style models with a counted Ψ only."""
    layers = model.layers
    if not (model.arch == "llama" and not model.is_moe and model.params is None and layers is not None):
        return False
    if vpp > 1:
        chunks = pp * vpp
        return pp > 1 and layers % chunks != 0 and (layers + 2) % chunks == 0 and (layers + 2) // chunks >= 2
    return pp > 2 and layers % pp != 0 and (layers + 2) % pp == 0
