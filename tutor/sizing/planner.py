"""`plan()`: the lesson's recipe (§recipe) as a search over every divisor layout of the GPUs.

Recipe: size memory first; TP inside the node (≤ 8); the smallest PP that fits, with m ≥ 4p and
the interleaved schedule; CP for long sequences, across nodes only as far as the memory needs it;
EP for MoE; the rest to DP with the distributed optimizer, or gradients sharded too (ZeRO-2, as
Llama 3's FSDP) where the distributed optimizer does not fit; full recompute only when nothing fits
without it. Every layout is evaluated on the
compiled fast path (`chains.planner_function`); the recipe is the ranking key, so the best
layout is the one the recipe picks and the alternatives follow in the recipe's order, each
with its headroom, bubble and traffic on slow links.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from tutor.sizing.chains import Mode, activation_row, planner_factory, planner_function
from tutor.sizing.engine import model_values
from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.plan_text import plan_steps
from tutor.sizing.report import counts_mlp, size, stage_formula, trimmed_stages
from tutor.sizing.specs import Hardware, Model, Parallel, Throughput, Train, check_number
from tutor.sizing.rules import RESERVE, budget, recompute_levels
from tutor.sizing.validate import MIN_TOKENS_PER_CP_RANK, validate_config

# The reserve and the hard rules are shared with the layout grader (tutor.sizing.rules). CP splits
# a sequence only down to MIN_TOKENS_PER_CP_RANK tokens per rank (validate.py warns below it).
# Interleave at most 4 ways (the lesson's v = 4): beyond that the bubble is already small and the
# pipeline's point-to-point traffic keeps growing v-fold (Narayanan et al. 2021 §2.2.2).
MAX_VPP = 4
RECOMPUTE_RANK = {"none": 0, "selective": 1, "full": 2}
SHARDINGS = ("distopt", "none", "zero1", "zero2", "zero3")
# Sharding a plan may choose when none is asked for, in order of preference. Megatron-LM's
# distributed optimizer keeps a full fp32 gradient buffer (6 + 12/d bytes per parameter,
# docs/user-guide/features/dist_optimizer.md); sharding the gradients too (ZeRO-2: 2 + 14/d,
# Rajbhandari et al. 2020 Fig. 1) is what Llama 3 ran ("FSDP" that shards optimizer state and
# gradients and keeps the weights after forward, arXiv 2407.21783 §3.3.2) and what Megatron-FSDP's
# `optim_grads` strategy does. It ranks second: with m micro-batches the sharded gradients are
# reduce-scattered after each of them, not once per step (see _slow_link_bytes).
AUTO_SHARDINGS = ("distopt", "zero2")
SHARDING_NAMES = {"none": ("no sharding", "不切分"), "zero1": ("ZeRO-1", "ZeRO-1"),
                  "distopt": ("the distributed optimizer", "distributed optimizer"), "zero2": ("ZeRO-2", "ZeRO-2"),
                  "zero3": ("ZeRO-3", "ZeRO-3")}
SHARDING_RANK = {name: rank for rank, name in enumerate(("none", "zero1", "distopt", "zero2", "zero3"))}


@dataclass(frozen=True)
class Options:
    """What a plan may use (`tutor plan` switches): sharding over DP × CP (None: the distributed
    optimizer, or ZeRO-2 for a dense model where it does not fit), recompute (None: the lightest that fits), FlashAttention, sequence parallelism, memory kept free, and the EP and TP
    sizes to try (None: all; DeepSeek-V3 trained without TP, arXiv 2412.19437 §3.2)."""

    sharding: str | None = None
    recompute: str | None = None
    flash: bool = True
    sp: bool = True
    reserve: float = RESERVE
    ep: tuple[int, ...] | None = None
    tp: tuple[int, ...] | None = None
    moments: str = "fp32"
    """"bf16": DeepSeek-V3's BF16 AdamW moments (specs.Parallel.moments); only layouts with DP × CP > 1."""
    savings: tuple[str, ...] = ()
    """DeepSeek-V3's activation savings (specs.Parallel.savings), off by default."""


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs a setattr call per field
class Candidate:
    tp: int
    pp: int
    cp: int
    ep: int
    dp: int
    vpp: int
    recompute: str
    microbatches: int
    below_4p: bool
    total: float
    headroom: float
    uneven: bool
    sharding: str = "distopt"
    node: int = 8
    evaluator: _Evaluator | None = field(default=None, repr=False, compare=False)

    @property
    def bubble(self) -> float:
        """The schedule's bubble fraction, from the registry formula; worked out only when asked."""
        return self._evaluated().bubble(self)

    @property
    def slow_link_bytes(self) -> float:
        """Worked out only when asked (the listed layouts): the ranking does not read it."""
        return self._evaluated().traffic(self)

    def _evaluated(self) -> _Evaluator:
        if self.evaluator is None:
            raise SizingError("this layout was not evaluated by a search (no evaluator)")
        return self.evaluator

    @property
    def cp_across_nodes(self) -> int:
        """The CP size when the TP × CP group spills out of one node, else 1."""
        return self.cp if self.tp * self.cp > self.node else 1

    def key(self) -> tuple:
        """The recipe as an order: m ≥ 4p, no recompute, even stages, no more CP across nodes than needed,
        the sharding that moves least, smallest PP, then TP, CP, EP, bubble, headroom. The layout fixes
        DP and m, so the bubble (p − 1)/(v·m) only differs by v here: the key orders by the largest v,
        the same order, without evaluating the bubble of every layout that fits.

        CP across nodes before PP: Llama 3 orders its dimensions [TP, CP, PP, DP] by the bandwidth they
        need (arXiv 2407.21783 §3.3.2): CP exchanges K/V in every layer, forward and backward (an
        all-gather on the critical path in Llama 3), PP one activation per micro-batch at a stage
        boundary. Meta ran CP 1 at 8K and CP 16 at 128K, each with PP 16, not a smaller PP with more CP.
        Sharding before PP: ZeRO-2 reduce-scatters every gradient over DP, the slowest links, after each
        of the m micro-batches, more traffic than the distributed optimizer's once per step and than a
        larger PP's point-to-point sends.
        Not done: Megatron-LM's MoE tuning guide (megatron/core/transformer/moe/README.md, "Tuning Guide
        of Parallel Mappings") prefers PP before TP and EP once a MoE spans nodes, and EP over TP. Taking
        the smallest TP first for every MoE was tried and reverted: Mixtral on 16 H100 became TP 1 PP 16
        EP 1, against the guide's own "minimise model parallelism" and the grader's EP > 1 rule."""
        return (self.below_4p, RECOMPUTE_RANK[self.recompute], self.uneven,
                self.cp if self.tp * self.cp > self.node else 1,  # cp_across_nodes, inline: the sort's hot path
                SHARDING_RANK[self.sharding], self.pp, self.tp, self.cp, self.ep, -self.vpp, -self.headroom)


def divisors(number: int) -> list[int]:
    return list(_divisors(number))


@lru_cache(maxsize=4096)
def _divisors(number: int) -> tuple[int, ...]:
    """Computed once per number: the search asks for the same few thousand times."""
    small = [d for d in range(1, int(number**0.5) + 1) if number % d == 0]
    return tuple(sorted(set(small + [number // d for d in small])))


def candidates(model: Model, train: Train, gpus: int, hardware: Hardware, flash: bool = True,
               options: Options | None = None) -> tuple[list, int, int]:
    """Every configuration that fits with the reserve and keeps the hard rules (TP in a node, m ≥ p), ranked;
    how many divisor layouts were considered; how many configurations were evaluated."""
    options = options or Options(flash=flash)
    shardings = sharding_choices(model, options)
    values = dict(model_values(model, train.seq))
    values.update(seq=train.seq, micro_batch=train.micro_batch, global_batch=train.global_batch, gpus=gpus)
    recomputes = recompute_levels(options.flash, options.recompute)
    found: list[Candidate] = []
    considered = evaluated = 0
    limit = budget(hardware.gpu_mem, options.reserve)
    evaluate = _Evaluator(model, values, hardware, options, limit)
    # The rules are checked where they apply (TP's in the TP loop, CP's in the CP loop), so a layout a
    # rule excludes costs a count, not a check; every divisor triple is still counted as considered.
    batch, micro = train.global_batch, train.micro_batch
    layers = model.layers if model.layers is not None else gpus
    experts: dict[int, list[int]] = {}  # DP × CP -> EP sizes (the same few per search)
    sharded_only = options.moments != "fp32"  # BF16 moments are modelled with the distributed optimizer only
    chunks: dict[tuple, list[int]] = {}  # (PP, p divides m) -> interleaving choices
    for tp in _divisors(gpus):
        if options.tp is not None and tp not in options.tp:
            continue
        if not _tp_allowed(model, hardware, tp):
            considered += _triples(gpus // tp)
            continue
        for cp in _divisors(gpus // tp):
            pps = _divisors(gpus // (tp * cp))
            considered += len(pps)
            # m = B·TP·CP·PP/(G·b), so m ≥ p holds for every PP of this (TP, CP) or for none (rules.pipeline_ok)
            if batch * tp * cp < gpus * micro or not _cp_allowed(train, cp):
                continue
            for pp in pps:
                if pp > layers:
                    break  # divisors ascend
                dp = gpus // (tp * cp * pp)
                if batch % (dp * micro) or (sharded_only and dp * cp == 1):
                    continue
                m = batch // (dp * micro)
                eps = experts.get(dp * cp)
                if eps is None:
                    eps = experts[dp * cp] = _expert_sizes(model, dp * cp, options.ep)
                vpps = chunks.get((pp, m % pp == 0))  # _chunk_counts reads m only through m mod p
                if vpps is None:
                    vpps = chunks[(pp, m % pp == 0)] = _chunk_counts(model, pp, m)
                for ep in eps:
                    for vpp in vpps:
                        evaluated += evaluate.layout(tp, pp, cp, ep, dp, vpp, m, recomputes, shardings, limit, found)
    found.sort(key=Candidate.key)
    return found, considered, evaluated


def sharding_choices(model: Model, options: Options) -> tuple[str, ...]:
    """The shardings a search tries, in order: the one asked for, else AUTO_SHARDINGS (the distributed
    optimizer only for MoE, whose ZeRO stages the engine does not model)."""
    if options.sharding is not None:
        return (options.sharding,)
    return AUTO_SHARDINGS[:1] if model.is_moe or options.moments != "fp32" else AUTO_SHARDINGS


def _check_asked_sizes(model: Model, hardware: Hardware, gpus: int, options: Options) -> None:
    """`--tp` / `--ep` sizes none of which can be used: one line saying why, before a search that would
    evaluate nothing and blame the global batch (`--tp 3` on 64 GPUs, `--ep 3` for 8 experts)."""
    if options.tp is not None and not any(gpus % tp == 0 and _tp_allowed(model, hardware, tp) for tp in options.tp):
        asked = ", ".join(map(str, options.tp))
        heads = f", divide the {model.heads} heads" if model.heads is not None else ""
        raise SizingError(
            f"--tp {asked}: no TP size asked for can be used on {gpus:,} GPUs (TP must divide the GPU count{heads} and "
            f"stay within one {hardware.gpus_per_node}-GPU node)",
            zh=f"--tp {asked}：给出的 TP 在 {gpus:,} 张卡上都用不了（TP 要整除卡数"
               f"{f'、整除 {model.heads} 个 head' if model.heads is not None else ''}，并且不超出一个 "
               f"{hardware.gpus_per_node} 卡的节点）")
    if options.ep is not None:
        asked = ", ".join(map(str, options.ep))
        if not model.is_moe:
            if set(options.ep) != {1}:
                raise SizingError(f"--ep {asked}: expert parallelism needs a mixture-of-experts model",
                                  zh=f"--ep {asked}：expert parallel 只用于 MoE 模型")
        elif not any(model.experts % ep == 0 and gpus % ep == 0 for ep in options.ep):
            raise SizingError(f"--ep {asked}: EP must divide the {model.experts} experts and the {gpus:,} GPUs",
                              zh=f"--ep {asked}：EP 要整除 {model.experts} 个 expert 和 {gpus:,} 张卡")


def _allowed(model: Model, train: Train, hardware: Hardware, tp: int, cp: int, pp: int) -> bool:
    return (_tp_allowed(model, hardware, tp) and _cp_allowed(train, cp)
            and (model.layers is None or pp <= model.layers))


def _tp_allowed(model: Model, hardware: Hardware, tp: int) -> bool:
    if tp > hardware.gpus_per_node:
        return False
    if model.heads is not None and model.heads % tp:
        return False
    kv = model.kv_heads
    # TP above the KV heads replicates them (validate: kv-replicated)
    return kv is None or not (kv % tp and tp % kv)


def _cp_allowed(train: Train, cp: int) -> bool:
    return cp == 1 or not (train.seq % (2 * cp) or train.seq // cp < MIN_TOKENS_PER_CP_RANK)


@lru_cache(maxsize=1024)
def _triples(number: int) -> int:
    """How many (CP, PP) pairs divide `number`: the layouts one excluded TP stands for."""
    return sum(len(_divisors(number // cp)) for cp in _divisors(number))


def _expert_sizes(model: Model, dp_cp: int, allowed: tuple[int, ...] | None = None) -> list[int]:
    if not model.is_moe:
        return [1]
    return [ep for ep in _divisors(model.experts) if dp_cp % ep == 0 and (allowed is None or ep in allowed)]


def _chunk_counts(model: Model, pp: int, m: int) -> list[int]:
    """1, and the v ≤ MAX_VPP whose p·v chunks split the layers evenly or as Llama 3 trims them."""
    layers = model.layers
    if pp == 1 or layers is None or m % pp:
        return [1]
    return [1] + [v for v in range(2, MAX_VPP + 1) if layers % (pp * v) == 0 or trimmed_stages(model, pp, v)]


MEMORY = ("model_state", "activations", "activations_interleaved", "grads")
# What the ranking reads of a configuration that fits, besides its memory; and the slow-link traffic,
# evaluated only for the layouts a plan lists.
BUBBLES = ("bubble", "bubble_interleaved")
TRAFFIC = ("dp_grad_bytes", "tp_bytes_per_layer", "cp_bytes_per_layer", "pp_bytes_per_microbatch")
LAYOUT = ("tp", "pp", "cp", "ep", "dp", "vpp")


class _Evaluator:
    """Evaluates configurations of one search: the mode, its compiled function and where each of its
    inputs comes from are worked out once per distinct mode (sharding over one rank or more, the
    activation row, the stage formula), not once per configuration. Only the outputs the ranking
    reads are computed (chains.planner_function: memory, then FIGURES for what fits): the same derivation `tutor size`
    runs, the planner's ~100,000 configurations/s (benchmarks/bench_planner.py) depend on it."""

    def __init__(self, model: Model, values: dict, hardware: Hardware, options: Options,
                 limit: float | None = None) -> None:
        self.model, self.values, self.options = model, values, options
        self.limit = budget(hardware.gpu_mem, options.reserve) if limit is None else limit
        self.gpu_mem, self.node = hardware.gpu_mem, hardware.gpus_per_node
        self.shape_known = model.layers is not None and model.hidden is not None
        self.mlp = counts_mlp(model)
        self.layers = model.layers
        self.stages: dict[tuple, tuple] = {}  # (pp, v) -> (stage formula, trimmed, uneven)
        self.stage_formulas: dict[int, str | None] = {}  # pp -> the most loaded stage's formula
        self.rows: dict[tuple, str | None] = {}  # (tp, recompute) -> activation row
        self.modes: dict[tuple, tuple] = {}  # the mode's distinct parts -> compiled functions
        self.constants: dict[tuple, tuple] = {}  # a function's input names past the layout -> their values
        self.entries: dict[tuple, tuple] = {}  # (tp > 1, pp, v, recompute, sharding) -> functions, uneven
        # The last configuration's memory less its gradients: a lower bound on the same layout under
        # ZeRO-2, whose weights and sharded optimizer state are the distributed optimizer's and whose
        # gradients are fewer, so a layout above the limit even so is never costed (or compiled) again.
        self.without_grads = 0.0
        # Bubble and traffic do not depend on sharding, recompute or the stage formula: one function
        # for the whole search (compiling one per mode would double a cold `tutor plan`).
        plain = Mode(moe=model.is_moe, attention=self.shape_known, heads=self.shape_known and model.heads is not None,
                     positions=model.positions)
        self.figures = self._sources(planner_function(plain, BUBBLES))
        self.traffic_function = self._sources(planner_function(plain, TRAFFIC))

    def _stage(self, pp: int, vpp: int) -> tuple:
        model = self.model
        trimmed = trimmed_stages(model, pp, vpp)
        uneven = self.layers is not None and self.layers % pp != 0 and not trimmed
        if pp not in self.stage_formulas:  # one per PP (stage_formula's cache hashes the whole Model, ~7 µs)
            self.stage_formulas[pp] = stage_formula(model, pp, self.values["seq"])
        found = self.stages[(pp, vpp)] = (self.stage_formulas[pp], trimmed, uneven)
        return found

    def _row(self, tp: int, recompute: str) -> str | None:
        options = self.options
        row = activation_row(tp, options.sp, options.flash, recompute, self.mlp, options.savings) \
            if self.shape_known else None
        self.rows[(tp, recompute)] = row
        return row

    def _compile(self, key: tuple) -> tuple:
        """(function of the layout, model_state, activations and grads positions) of one mode: the compiled
        factory comes from `_memory_function`, shared by every search; the constants are this one's, bound
        once (Derivation.specialised)."""
        model = self.model
        make, constant_names, state_at, activations_at, grads_at = _memory_function(
            *key, model.is_moe, self.shape_known, self.shape_known and model.heads is not None, model.params is None,
            model.positions, self.options.moments)
        constants = self.constants.get(constant_names)
        if constants is None:
            constants = self.constants[constant_names] = tuple(self.values[name] for name in constant_names)
        entry = self.modes[key] = (make(*constants), state_at, activations_at, grads_at)
        return entry

    def _sources(self, compiled: tuple) -> tuple:
        """(function, its arguments from a layout tuple, output positions by name). The arguments are
        picked by one C-level itemgetter from the layout followed by the search's constants, instead
        of a Python loop over the inputs per configuration."""
        outputs, names, function = compiled
        constants = tuple(self.values[name] for name in names if name not in LAYOUT)
        return function, (_picker(names), constants), _positions(outputs)

    def traffic(self, candidate: Candidate) -> float:
        function, (pick, constants), where = self.traffic_function
        layout = (candidate.tp, candidate.pp, candidate.cp, candidate.ep, candidate.dp, candidate.vpp)
        out = function(*pick(layout + constants))
        return _slow_link_bytes(out, where, layout, self.layers, candidate.microbatches, self.node,
                                candidate.sharding)

    def _entry(self, key: tuple, tp: int, vpp: int) -> tuple:
        _, pp, _, recompute, sharding = key
        first_stage, trimmed, uneven = self.stages.get((pp, vpp)) or self._stage(pp, vpp)
        row = self.rows[(tp, recompute)] if (tp, recompute) in self.rows else self._row(tp, recompute)
        mode_key = (sharding, row, first_stage, trimmed, vpp > 1)
        entry = self.entries[key] = (*(self.modes.get(mode_key) or self._compile(mode_key)), uneven)
        return entry

    def layout(self, tp: int, pp: int, cp: int, ep: int, dp: int, vpp: int, m: int, recomputes: tuple[str, ...],
               shardings: tuple[str, ...], limit: float, found: list) -> int:
        """Evaluates one layout under each recompute, lightest first, with the first sharding that fits
        (the later ones move more bytes); appends what fits to `found`; returns how many configurations
        it evaluated. The body of `__call__` inline: this loop is the search's hot path."""
        evaluated = 0
        sharded = dp * cp > 1
        entries = self.entries
        for recompute in recomputes:
            without_grads = 0.0  # a bound from this configuration only
            for sharding in shardings:
                if sharding == "zero2" and without_grads > limit:
                    break  # even with no gradient bytes at all it would not fit: not costed
                evaluated += 1
                key = (tp > 1, pp, vpp, recompute, sharding if sharded else "none")
                function, state_at, activations_at, grads_at, uneven = entries.get(key) or self._entry(key, tp, vpp)
                out = function(tp, pp, cp, ep, dp, vpp)
                total = out[state_at] if activations_at is None else out[state_at] + out[activations_at]
                if total > limit:
                    without_grads = total - out[grads_at]
                    continue
                found.append(Candidate(tp, pp, cp, ep, dp, vpp, recompute, m, pp > 1 and m < 4 * pp, total,
                                       1 - total / self.gpu_mem, uneven, sharding, self.node, self))
                break
        return evaluated

    def __call__(self, tp: int, pp: int, cp: int, ep: int, dp: int, vpp: int, recompute: str, m: int,
                 limit: float, sharding: str = "distopt") -> Candidate | None:
        """The configuration as a Candidate when its memory is within `limit`, else None."""
        # What the functions depend on besides the layout's numbers: TP only through TP > 1 (the activation
        # row), so one entry serves every TP > 1 of a PP and v (the planner's ~100,000 configurations/s); v
        # itself, as whether the chunks are trimmed depends on p·v.
        key = (tp > 1, pp, vpp, recompute, sharding if dp * cp > 1 else "none")
        function, state_at, activations_at, grads_at, uneven = self.entries.get(key) or self._entry(key, tp, vpp)
        out = function(tp, pp, cp, ep, dp, vpp)
        total = out[state_at] if activations_at is None else out[state_at] + out[activations_at]
        if total > limit:
            self.without_grads = total - out[grads_at]
            return None
        return Candidate(tp, pp, cp, ep, dp, vpp, recompute, m, pp > 1 and m < 4 * pp, total, 1 - total / self.gpu_mem,
                         uneven, sharding, self.node, self)

    def lighter_total(self, candidate: Candidate, recompute: str) -> float | None:
        """The memory the same layout would need with a lighter recompute (the reason it ranks where it
        does, said in `why_after`); None where that recompute has no activation row here."""
        if not self.shape_known:
            return None
        found = self(candidate.tp, candidate.pp, candidate.cp, candidate.ep, candidate.dp, candidate.vpp, recompute,
                     candidate.microbatches, float("inf"), candidate.sharding)
        return None if found is None else found.total

    def bubble(self, candidate: Candidate) -> float:
        function, (pick, constants), where = self.figures
        layout = (candidate.tp, candidate.pp, candidate.cp, candidate.ep, candidate.dp, candidate.vpp)
        out = function(*pick(layout + constants))
        return out[where["bubble_interleaved" if candidate.vpp > 1 else "bubble"]]


@lru_cache(maxsize=None)
def _memory_function(sharding: str, row: str | None, first_stage: str | None, trimmed: bool, interleaved: bool,
                     moe: bool, shape_known: bool, heads: bool, stage_memory: bool, positions: int | None,
                     moments: str = "fp32") -> tuple:
    """The memory function of one mode (memory first, for every configuration; one function for both
    schedules, so a mode compiles once) as the factory a search binds its constants to
    (chains.planner_factory), the names of those constants, and where model state, the schedule's activations and the gradients are in its output. Cached for
    the process: building the Mode and looking its function up cost ~100 µs, once per mode per search
    otherwise, a fifth of a search."""
    mode = Mode(sharding=sharding, activation_row=row, moe=moe, attention=shape_known, heads=heads,
                first_stage=first_stage, stage_memory=stage_memory, trimmed=trimmed, positions=positions,
                moments=moments)
    outputs, constant_names, make = planner_factory(mode, MEMORY)
    where = _positions(outputs)
    return (make, constant_names, where["model_state"],
            where.get("activations_interleaved" if interleaved else "activations"), where["grads"])


@lru_cache(maxsize=None)
def _picker(names: tuple[str, ...]):
    """The function that picks a compiled function's arguments from (layout..., constants...)."""
    positions, extra = [], len(LAYOUT)
    for name in names:
        if name in LAYOUT:
            positions.append(LAYOUT.index(name))
        else:
            positions.append(extra)
            extra += 1
    if len(positions) > 1:
        return itemgetter(*positions)
    if positions:
        only = positions[0]
        return lambda row: (row[only],)  # itemgetter of one index returns no tuple
    return lambda row: ()


@lru_cache(maxsize=None)
def _positions(outputs: tuple[str, ...]) -> dict[str, int]:
    return {name: index for index, name in enumerate(outputs)}


def _slow_link_bytes(out, where: dict, layout: tuple, layers: int | None, m: int, node: int,
                     sharding: str = "distopt") -> float:
    """Bytes per GPU per step on links between nodes (ranks ordered TP, CP, DP, PP as in Megatron).
    Sharded gradients (ZeRO-2/3) are reduce-scattered after each of the m micro-batches, as
    DeepSpeed's stage 2 and FSDP without no_sync do, and the weights gathered once: (m + 1)/2 times
    the all-reduce's bytes (a reduce-scatter and an all-gather each move half of it)."""
    tp, pp, cp, _, dp, vpp = layout
    layers_per_stage = (layers or pp) / pp
    total = 0.0
    if tp > node and "tp_bytes_per_layer" in where:
        total += out[where["tp_bytes_per_layer"]] * layers_per_stage * m
    if tp * cp > node and "cp_bytes_per_layer" in where:
        total += out[where["cp_bytes_per_layer"]] * layers_per_stage * m
    if tp * cp * dp > node:
        total += out[where["dp_grad_bytes"]] * ((m + 1) / 2 if sharding in ("zero2", "zero3") else 1)
    if pp > 1 and tp * cp * dp >= node and "pp_bytes_per_microbatch" in where:
        total += out[where["pp_bytes_per_microbatch"]] * m * vpp  # interleaving multiplies P2P traffic by v
    return total


def plan(model: Model, train: Train | None = None, gpus: int = 8, hardware: Hardware | None = None,
         throughput: Throughput | None = None, alternatives: int = 10, lang: str = "en",
         options: Options | None = None) -> dict:
    """The `tutor plan --json` report: best layout, ranked alternatives (each with `why` it ranks
    after the best), the recipe's steps."""
    train, hardware = train or Train(), hardware or gpu("h100-80gb")
    options = options or Options()
    if options.sharding is not None and options.sharding not in SHARDINGS:
        raise SizingError(f"sharding must be one of {', '.join(SHARDINGS)}, got {options.sharding!r}")
    if not 0 <= options.reserve < 1:
        raise SizingError(f"the reserve is a fraction of memory in [0, 1), got {options.reserve:g}")
    if model.is_moe and (options.sharding or "").startswith("zero"):
        stage = (options.sharding or "")[-1:]
        raise SizingError(
            f"--zero {stage}{' (FSDP)' if stage == '3' else ''} is not modelled for MoE models: their memory is the distributed optimizer's "
            "(Megatron's ZeRO-1-style sharding of the optimizer state, fp32 gradients; DeepSeek-V3's \"ZeRO-1 DP\"); "
            "leave out --zero to plan with it",
            zh=f"MoE 模型不支持 --zero {stage}：它们的 memory 按 distributed optimizer 算（Megatron 的 "
               "ZeRO-1 式 optimizer state 切分，fp32 gradient；即 DeepSeek-V3 的 “ZeRO-1 DP”）；去掉 --zero 即按它规划")
    if options.moments != "fp32" and options.sharding not in (None, "distopt"):
        raise SizingError("BF16 AdamW moments (--moments bf16) are modelled with the distributed optimizer only")
    if "norm_up" in options.savings and not model.mla:
        raise SizingError("recomputing the MLA up-projections needs multi-head latent attention (DeepSeek-V3's)")
    Parallel(moments=options.moments, savings=options.savings)  # checks their values, one clear line
    gpus = int(check_number("gpus", gpus))
    _check_asked_sizes(model, hardware, gpus, options)
    ranked, considered, evaluated = candidates(model, train, gpus, hardware, options=options)
    best_per_shape: dict[tuple, Candidate] = {}
    for candidate in ranked:
        best_per_shape.setdefault((candidate.tp, candidate.pp, candidate.cp, candidate.ep, candidate.recompute),
                                  candidate)
    chosen = [c for c in best_per_shape.values()
              if validate_config(model, train, _parallel(c, gpus, options), hardware, throughput).ok][:alternatives + 1]
    reports = [_report(model, train, c, gpus, hardware, throughput, lang, options) for c in chosen]
    for candidate, report in zip(chosen[1:], reports[1:]):
        report["why"] = why_after(chosen[0], candidate, lang)
    return {"best": reports[0] if reports else None, "alternatives": reports[1:],
            "steps": plan_steps(model, train, gpus, hardware, chosen, reports, (considered, evaluated, len(ranked)),
                                lang, options.reserve, chosen[0].sharding if chosen else "distopt", options.moments,
                                options.savings)}


def why_after(best: Candidate, other: Candidate, lang: str = "en") -> str:
    """In words, the first rule of the recipe's order by which `other` ranks after `best`."""
    zh = lang == "zh"
    shown = f"TP {best.tp} PP {best.pp} CP {best.cp}" + (f" EP {best.ep}" if best.ep > 1 else "")
    if other.below_4p and not best.below_4p:
        return (f"m = {other.microbatches} < 4p = {4 * other.pp}: 气泡更大；{shown} 做到了 m ≥ 4p" if zh else
                f"m = {other.microbatches} is below 4p = {4 * other.pp}, a larger bubble; {shown} keeps m ≥ 4p")
    if RECOMPUTE_RANK[other.recompute] > RECOMPUTE_RANK[best.recompute]:
        evaluator = other._evaluated()
        lighter = evaluator.lighter_total(other, best.recompute)
        budget_gb = evaluator.limit / 1e9
        if zh:
            how = "不重算" if best.recompute == "none" else f"用 {best.recompute} recompute"
            need = "" if lighter is None else f"：{how}最满的 stage 要 {lighter / 1e9:.1f} GB，预算只有 {budget_gb:.1f} GB"
            return f"要 {other.recompute} recompute 才放得下{need}（多算一遍 forward）；{shown} 不用"
        how = "without recompute" if best.recompute == "none" else f"with {best.recompute} recompute"
        need = "" if lighter is None else f" ({how} its fullest stage needs {lighter / 1e9:.1f} GB of the " \
                                          f"{budget_gb:.1f} GB budget)"
        return (f"fits only with {other.recompute} recompute{need}, an extra forward; {shown} fits with "
                f"{best.recompute}")
    if other.uneven and not best.uneven:
        return (f"PP {other.pp} 分不匀层，最满的 stage 决定速度；{shown} 分得匀" if zh else
                f"PP {other.pp} splits the layers unevenly, the fullest stage sets the pace; {shown} splits evenly")
    if other.cp_across_nodes > best.cp_across_nodes:
        return (f"CP {other.cp} 跨机（TP × CP = {other.tp * other.cp} > {other.node}）：每层的 K/V 交换走慢网络；"
                f"{shown} 用更多 PP 就放得下" if zh else
                f"CP {other.cp} spans nodes (TP × CP = {other.tp * other.cp} > {other.node}): its K/V exchange in every "
                f"layer crosses the slow network; {shown} fits with less CP across nodes")
    if SHARDING_RANK[other.sharding] > SHARDING_RANK[best.sharding]:
        mine, theirs = SHARDING_NAMES[other.sharding][zh], SHARDING_NAMES[best.sharding][zh]
        return (f"要 {mine} 才放得下（每个 micro-batch 之后都要沿 DP reduce-scatter gradient）;{shown} 用 {theirs} "
                "就放得下" if zh else f"fits only with {mine} (gradients reduce-scattered over DP after every "
                f"micro-batch); {shown} fits with {theirs}")
    order = (("pp", "PP"), ("tp", "TP"))
    for name, label in (*order, ("cp", "CP"), ("ep", "EP")):
        mine, theirs = getattr(other, name), getattr(best, name)
        if mine > theirs:
            return (f"{label} {mine} 比需要的大：{shown} 用 {label} {theirs} 就放得下，通信更少" if zh else
                    f"{label} {mine} is more than needed: {shown} fits with {label} {theirs}, less traffic")
        if mine < theirs:
            first, second = order[0][1], order[1][1]
            return (f"{shown} 按配方顺序（先小 {first}，再 {second}、CP、EP）排在前面" if zh else
                    f"{shown} ranks first on an earlier rule of the recipe order (smaller {first}, then {second}, "
                    "CP, EP)")
    if other.bubble > best.bubble:
        return (f"bubble {other.bubble:.1%} 大于 {best.bubble:.1%}" if zh else
                f"a larger bubble, {other.bubble:.1%} against {best.bubble:.1%}")
    return ("余量更小" if zh else f"less memory headroom ({other.headroom:.0%} against {best.headroom:.0%})")


def _parallel(candidate: Candidate, gpus: int, options: Options) -> Parallel:
    return Parallel(gpus=gpus, tp=candidate.tp, pp=candidate.pp, cp=candidate.cp, ep=candidate.ep, dp=candidate.dp,
                    vpp=candidate.vpp, sharding=candidate.sharding, sp=options.sp, recompute=candidate.recompute,
                    flash=options.flash, moments=options.moments, savings=options.savings)


def _report(model: Model, train: Train, candidate: Candidate, gpus: int, hardware: Hardware,
            throughput: Throughput | None, lang: str, options: Options) -> dict:
    report = size(model, train, _parallel(candidate, gpus, options), hardware, throughput, lang)
    layout = {"tp": candidate.tp, "pp": candidate.pp, "cp": candidate.cp, "ep": candidate.ep, "dp": candidate.dp,
              "vpp": candidate.vpp, "recompute": candidate.recompute, "sharding": candidate.sharding,
              "headroom": candidate.headroom,
              "slow_link_bytes": candidate.slow_link_bytes}
    return {**layout, **report}

