"""Engine figures the lab checks compare their measurements with.

A checker reports a measurement with the name of a sizing-engine formula and its inputs; the
expected value is computed here, in the core, by `tutor.sizing`. The few formulas the labs
use are also written out below, with their sources, for a build where the engine does not
(yet) declare them: `source` in the result says which one answered. Isolated here so that
this fallback is easy to delete once the engine is everywhere.
"""

from __future__ import annotations

from collections.abc import Callable


def tp_bytes_per_layer(seq: float, micro_batch: float, hidden: float, tp: float) -> float:
    """Tensor-parallel traffic per layer and micro-batch per GPU: 8·b·s·h·(t−1)/t.

    Two all-reduces forward and two backward of b·s·h values, each a ring all-reduce sending
    2(t−1)/t of the buffer (Narayanan et al. 2021 §3.2).
    """
    return 8 * micro_batch * seq * hidden * (tp - 1) / tp


def bubble_fraction(pp: float, microbatches: float) -> float:
    """1F1B pipeline bubble relative to the ideal step, (p−1)/m (Narayanan et al. 2021 §2.2.1)."""
    return (pp - 1) / microbatches


def zero1_bytes(params: float, n_shard: float) -> float:
    """ZeRO stage 1 model state per GPU, 4Ψ + 12Ψ/N (Rajbhandari et al. 2020 §5.1, K = 12)."""
    return 4 * params + 12 * params / n_shard


def weight_bytes(params: float) -> float:
    """16-bit weights, 2Ψ (Rajbhandari et al. 2020 §3.1)."""
    return 2 * params


def grad_bytes(params: float) -> float:
    """16-bit gradients, 2Ψ (Rajbhandari et al. 2020 §3.1)."""
    return 2 * params


FALLBACK: dict[str, Callable[..., float]] = {
    function.__name__: function
    for function in (tp_bytes_per_layer, bubble_fraction, zero1_bytes, weight_bytes, grad_bytes)
}


class UnknownFormula(LookupError):
    pass


def evaluate(formula: str, inputs: dict) -> tuple[float, str]:
    """(value, source) of `formula` at `inputs`; extra inputs are ignored."""
    try:
        from tutor.sizing import evaluate as engine_evaluate
        from tutor.sizing import registry
    except ImportError:
        registry = None
    if registry is not None and formula in registry.names():
        symbols = registry.get(formula).symbols
        return float(engine_evaluate(formula, **{key: inputs[key] for key in symbols if key in inputs})), "engine"
    function = FALLBACK.get(formula)
    if function is None:
        raise UnknownFormula(f"no formula {formula!r} in the engine or the labs' fallback")
    names = function.__code__.co_varnames[: function.__code__.co_argcount]
    return float(function(**{key: inputs[key] for key in names})), "labs fallback"


def expected_value(formula: str, inputs: dict, subtract: list[str] | tuple[str, ...] = ()) -> tuple[float, str]:
    """`formula` minus each of `subtract`, all at the same inputs (e.g. ZeRO-1 state minus weights)."""
    value, source = evaluate(formula, inputs)
    for other in subtract:
        value -= evaluate(other, inputs)[0]
    return value, source
