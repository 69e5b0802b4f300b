"""The planner's fast path: a search's configurations evaluated on the compiled formulas
(`chains.planner_function`), memory for every configuration, bubble and slow-link traffic only for
the layouts a plan lists."""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from tutor.sizing.chains import Mode, activation_row, planner_factory, planner_function
from tutor.sizing.layout_space import Options
from tutor.sizing.plan_candidate import Candidate
from tutor.sizing.report import counts_mlp, stage_formula, trimmed_stages
from tutor.sizing.rules import budget
from tutor.sizing.specs import Hardware, Model

MEMORY = ("model_state", "activations", "activations_interleaved", "grads")
# What the ranking reads of a configuration that fits, besides its memory; and the slow-link traffic,
# evaluated only for the layouts a plan lists.
BUBBLES = ("bubble", "bubble_interleaved")
TRAFFIC = ("dp_grad_bytes", "tp_bytes_per_layer", "cp_bytes_per_layer", "pp_bytes_per_microbatch")
LAYOUT = ("tp", "pp", "cp", "ep", "dp", "vpp")


class LayoutEvaluator:
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
        return function, (picker(names), constants), _positions(outputs)

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
def picker(names: tuple[str, ...]):
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
