"""Engine figures the lab checks compare their measurements with.

A checker reports a measurement with the name of a sizing-engine formula and its inputs; the
expected value is computed here, in the core, by `tutor.sizing` (never in the lab program).
"""

from __future__ import annotations


class UnknownFormula(LookupError):
    pass


def evaluate(formula: str, inputs: dict) -> tuple[float, str]:
    """(value, source) of `formula` at `inputs`; extra inputs are ignored."""
    from tutor.sizing import evaluate as engine_evaluate
    from tutor.sizing import registry

    if formula not in registry.names():
        raise UnknownFormula(f"no formula {formula!r} in the sizing engine")
    symbols = registry.get(formula).symbols
    return float(engine_evaluate(formula, **{key: inputs[key] for key in symbols if key in inputs})), "engine"


def expected_value(formula: str, inputs: dict, subtract: list[str] | tuple[str, ...] = ()) -> tuple[float, str]:
    """`formula` minus each of `subtract`, all at the same inputs (e.g. ZeRO-1 state minus weights)."""
    value, source = evaluate(formula, inputs)
    for other in subtract:
        value -= evaluate(other, inputs)[0]
    return value, source
