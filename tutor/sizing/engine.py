"""Evaluate and explain registry formulas.

Each formula is plain `math` code generated once from its SymPy expression by `sympy.lambdify`
(tutor/sizing/compiled_formulas.py, written by `python -m tutor.sizing.generate`), so evaluating
imports no SymPy and a call
costs a few microseconds and never runs SymPy `subs`. `explain()` writes the same expression
with the numbers standing in for its symbols, from SymPy's printing of it done ahead of time
(tutor/sizing/printed_formulas.py, tutor.sizing.rendering).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from tutor.sizing import compiled_formulas as generated
from tutor.sizing.display import format_auto
from tutor.sizing.errors import SizingError
from tutor.text import T
from tutor.units import CountError, parse_count

if TYPE_CHECKING:  # the specs' dataclasses are built only when a spec is used (a numeric check needs none)
    from tutor.sizing.rendering import Rendering
    from tutor.sizing.specs import Model

# Inputs that stand for several symbols at once: a model preset and a GPU from the catalog.
PRESET_KEYS = ("model", "gpu")
# Symbol kinds (tutor.sizing.symbols), repeated here so evaluating needs no SymPy.
COUNT, COUNT0, FRACTION = "count", "count0", "fraction"


class Value(float):
    """A float that remembers its unit, so `format_value` converts hours and days correctly."""

    __slots__ = ("unit",)
    unit: str

    def __new__(cls, number: float, unit: str) -> Value:
        value = super().__new__(cls, number)
        value.unit = unit
        return value


def compiled(name: str) -> Callable[..., float]:
    """The formula as a plain Python function of its inputs, in `Formula.symbols` order: the
    generated module (tutor.sizing.generate), so no SymPy is imported to evaluate a number."""
    try:
        function = cast("Callable[..., float]", generated.FUNCTIONS[name])  # generated code, typed here
    except KeyError:
        from tutor.sizing import registry

        registry.get(name)  # an unknown name: SizingError with the closest names
        raise SizingError(f"formula {name!r} is not in tutor/sizing/compiled_formulas.py: run "
                          "`python -m tutor.sizing.generate`") from None
    return function


def signature(name: str) -> tuple[tuple[str, ...], str]:
    """(input names in order, result unit) of formula `name`, without SymPy."""
    found = generated.FORMULAS.get(name)
    if found is None:
        compiled(name)  # raises the right error
        raise SizingError(f"formula {name!r} has no signature in tutor/sizing/compiled_formulas.py")
    return found


def evaluate(name: str, **inputs: object) -> Value:
    """The value of formula `name` (base units); SizingError on a missing, extra or bad input."""
    symbols, unit = signature(name)
    values = bind(name, inputs)
    return Value(compute(name, [values[symbol] for symbol in symbols]), unit)


def bind(name: str, inputs: Mapping[str, object]) -> dict[str, float]:
    """The checked value of each of the formula's inputs, presets expanded."""
    symbols, _ = signature(name)
    wanted = set(symbols)
    values: dict[str, object] = {}
    for key in PRESET_KEYS:
        if key in inputs:
            preset = preset_values(key, inputs[key], inputs.get("seq"))
            values.update({symbol: value for symbol, value in preset.items() if symbol in wanted})
    extra = sorted(set(inputs) - wanted - set(PRESET_KEYS))
    if extra:
        raise SizingError(f"{name} does not take {', '.join(extra)}; it takes {', '.join(symbols)}")
    values.update({key: value for key, value in inputs.items() if key not in PRESET_KEYS})
    missing = [symbol for symbol in symbols if symbol not in values]
    if missing:
        raise SizingError(f"{name} needs {', '.join(missing)} (inputs: {', '.join(symbols)})")
    return {symbol: check_input(symbol, values[symbol]) for symbol in symbols}


def check_input(symbol: str, value: object) -> float:
    """One input as a float, or SizingError saying what is wrong with it."""
    _, kind, _, limit, *_ = generated.SYMBOLS[symbol]
    if isinstance(value, str):
        try:
            value = parse_count(value)
        except CountError as error:
            raise SizingError(T(f"{symbol}: {error.text('en')}", f"{symbol}：{error.text('zh')}")) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SizingError(T(f"{symbol} must be a number, got {value!r}", f"{symbol} 要填数字，而不是 {value!r}"))
    number = float(value)
    if kind == COUNT0 and number == 0:
        return number
    if not math.isfinite(number) or number <= 0:
        raise SizingError(T(f"{symbol} must be a positive finite number, got {value!r}",
                            f"{symbol} 必须是大于 0 的有限数，这里是 {value!r}"))
    if kind in (COUNT, COUNT0) and not number.is_integer():
        raise SizingError(T(f"{symbol} must be a whole number, got {value!r}", f"{symbol} 必须是整数，这里是 {value!r}"))
    if kind == FRACTION and number > 1:
        raise SizingError(T(f"{symbol} is a fraction in (0, 1], got {value!r} (write 40% as 0.4)",
                            f"{symbol} 是 (0, 1] 之间的比例，这里是 {value!r}（40% 写作 0.4）"))
    if number > limit:
        from tutor.sizing.errors import too_large

        raise too_large(symbol, value, limit)
    return number


def compute(name: str, args: list[float]) -> float:
    """Formula `name` at positional `args` (in `Formula.symbols` order); SizingError if not finite."""
    try:
        result = compiled(name)(*args)
    except (ZeroDivisionError, OverflowError, ValueError) as error:
        raise SizingError(f"{name} cannot be computed for these inputs ({error})") from None
    result = float(result)
    if not math.isfinite(result):
        raise SizingError(f"{name} is not a finite number for these inputs")
    return result


def preset_values(key: str, preset: object, seq: object = None) -> dict[str, float]:
    """Symbol values a model preset or catalog GPU stands for."""
    if key == "gpu":
        from tutor.sizing.hardware import gpu_numbers

        if not isinstance(preset, str):
            from tutor.sizing.specs import Hardware

            if isinstance(preset, Hardware):
                return {"gpu_mem": preset.gpu_mem, "peak_flops": preset.peak_flops}
        memory, peak = gpu_numbers(str(preset))
        return {"gpu_mem": memory, "peak_flops": peak}
    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Model

    model = preset if isinstance(preset, Model) else model_preset(str(preset))
    return model_values(model, int(seq) if isinstance(seq, (int, float)) and not isinstance(seq, bool) else None)


@lru_cache(maxsize=256)
def model_values(model: Model, seq: int | None = None) -> dict[str, float]:
    """Everything known about a model as symbol values: shape, Ψ, and for MoE the expert and active Ψ."""
    values: dict[str, float] = {name: getattr(model, name) for name in
                                ("layers", "hidden", "heads", "ffn", "vocab", "experts", "top_k")
                                if getattr(model, name) is not None}
    if model.kv is not None:
        values["kv_heads"] = model.kv
    shape = model.architecture_inputs(seq)
    if shape is not None and model.arch == "gpt" and "seq" not in shape:
        shape = None  # GPT's learned positions need the sequence length
    if model.is_moe:
        if shape is None:
            raise SizingError(f"{model.name}: a mixture of experts needs its architecture "
                              "(arch, layers, hidden, heads, ffn, vocab) to split expert weights")
        if model.modern_moe:
            return {**values, **moe_values(model)}
        moe = {**shape, "experts": model.experts}
        values["params"] = evaluate(f"params_moe_{model.arch}", **moe)
        values["expert_params"] = evaluate(f"expert_params_{model.arch}", layers=model.layers, hidden=model.hidden,
                                           ffn=model.ffn, experts=model.experts)
        values["active_params"] = evaluate(f"active_params_moe_{model.arch}", **moe, top_k=model.top_k)
        return values
    if model.params is not None:
        values["params"] = model.params
    elif shape is not None:
        values["params"] = evaluate(f"params_{model.arch}", **shape)
    else:
        raise SizingError(f"{model.name}: give the parameter count or the full architecture "
                          "(arch, layers, hidden, heads, ffn, vocab)")
    values["active_params"] = values["params"]
    return values


def _needed(value: float | None, name: str) -> float:
    """A shape input a MoE's counts cannot do without (model_values checks the shape first)."""
    if value is None:
        raise SizingError(f"a mixture of experts needs its {name} (--{name})")
    return value


def moe_values(model: Model) -> dict[str, float]:
    """A Llama-style MoE counted by the general formulas: attention (GQA or MLA) per layer, leading
    dense layers, routed and shared experts of their own width."""
    if model.mla:
        attention = evaluate("attention_params_mla", hidden=model.hidden, heads=model.heads, q_rank=model.q_rank,
                             kv_rank=model.kv_rank, rope_dim=model.rope_dim, nope_dim=model.nope_dim,
                             v_dim=model.v_dim)
    else:
        attention = evaluate("attention_params_gqa", hidden=model.hidden, heads=model.heads, kv_heads=model.kv)
    shape: dict[str, float] = {
        "layers": _needed(model.layers, "layers"), "dense_layers": model.dense_layers,
        "hidden": _needed(model.hidden, "hidden"), "ffn": _needed(model.ffn, "ffn"),
        "expert_ffn": _needed(model.expert_ffn or model.ffn, "ffn"), "experts": model.experts,
        "shared_experts": model.shared_experts, "vocab": _needed(model.vocab, "vocab"),
        "attn_params": float(attention)}
    # The MLA latents a token stores (DeepSeek-V3's norm and up-projection recompute counts them).
    mla: dict[str, float] = {name: float(getattr(model, name)) for name in ("q_rank", "kv_rank", "rope_dim")} \
        if model.mla else {}
    return {**shape, **mla, "params": evaluate("params_moe", **shape),
            "active_params": evaluate("active_params_moe", **shape, top_k=model.top_k),
            "expert_params": evaluate("expert_params_moe", **{key: shape[key] for key in
                                                              ("layers", "dense_layers", "hidden", "expert_ffn",
                                                               "experts")})}


def step(step_id: str, name: str, values: Mapping[str, float], value: float, lang: str = "en",
         bound: str = "", rendering: Rendering | None = None) -> dict:
    """One derivation step {id, formula, substituted, value, unit} (DESIGN §5), written by `rendering`
    (default: the pre-rendered text, tutor.sizing.rendering, so no SymPy is imported)."""
    if rendering is None:
        from tutor.sizing.rendering import PRERENDERED

        rendering = PRERENDERED
    symbols, unit = signature(name)
    shown = rendering.substituted(name, {symbol: values[symbol] for symbol in symbols})
    return {"id": step_id, "formula": f"{name} = {rendering.formula(name)}",
            "substituted": f"{bound}{shown} = {format_auto(value, unit, 1, lang)}",
            "value": float(value), "unit": unit}


def explain(name: str, inputs: Mapping[str, object], lang: str = "en") -> list[dict]:
    """The steps to formula `name`: the formulas it builds on (if any), then itself."""
    from tutor.sizing.printed_formulas import STEPS

    signature(name)  # an unknown name: SizingError with the closest names
    values = bind(name, inputs)
    steps = []
    for part in STEPS[name] + (name,):
        needed, _ = signature(part)
        args = [values[symbol] for symbol in needed]
        steps.append(step(part, part, values, compute(part, args), lang))
    return steps
