"""The symbolic sizing engine: every number the learner sees comes from here (DESIGN §4).

Public API (see docs/sizing.md):

    from tutor.sizing import registry                 # registry.get(name) -> Formula; registry.names()
    evaluate(name, **inputs) -> float                 # base units; SizingError on bad input
    explain(name, inputs, lang="en") -> [step]        # {id, formula, substituted, value, unit}
    format_value(value, unit, digits=1, lang="en")    # "39.4 GB" (GB = 1e9 bytes)
    Model, Train, Parallel, Hardware, Throughput, Reliability   # specs (frozen dataclasses)
    MODELS, model_preset(name); GPUS, gpu(name)       # presets and the hardware catalog, with sources
    size(model, train, parallel, hardware, throughput) -> dict   # the `tutor size --json` report
    validate_config(...) -> Findings                  # errors and warnings with clear messages
    plan(model, train, gpus, hardware) -> dict        # the `tutor plan --json` report

Attributes load on first use, so `tutor.sizing.display` stays importable without SymPy.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the same names, eagerly, for type checkers and editors (never at run time)
    from tutor.sizing import registry as registry
    from tutor.sizing.engine import evaluate as evaluate, explain as explain, Value as Value
    from tutor.sizing.display import format_value as format_value, format_auto as format_auto
    from tutor.sizing.errors import SizingError as SizingError
    from tutor.sizing.specs import (
        Model as Model, Train as Train, Parallel as Parallel, Hardware as Hardware, Throughput as Throughput,
        Reliability as Reliability,
    )
    from tutor.sizing.presets import MODELS as MODELS, model_preset as model_preset
    from tutor.sizing.hardware import GPUS as GPUS, gpu as gpu
    from tutor.sizing.report import size as size
    from tutor.sizing.validate import validate_config as validate_config, Findings as Findings
    from tutor.sizing.planner import plan as plan

_EXPORTS = {
    "registry": "tutor.sizing.registry",
    "evaluate": "tutor.sizing.engine", "explain": "tutor.sizing.engine", "Value": "tutor.sizing.engine",
    "format_value": "tutor.sizing.display", "format_auto": "tutor.sizing.display",
    "SizingError": "tutor.sizing.errors",
    "Model": "tutor.sizing.specs", "Train": "tutor.sizing.specs", "Parallel": "tutor.sizing.specs",
    "Hardware": "tutor.sizing.specs", "Throughput": "tutor.sizing.specs", "Reliability": "tutor.sizing.specs",
    "MODELS": "tutor.sizing.presets", "model_preset": "tutor.sizing.presets",
    "GPUS": "tutor.sizing.hardware", "gpu": "tutor.sizing.hardware",
    "size": "tutor.sizing.report", "validate_config": "tutor.sizing.validate", "Findings": "tutor.sizing.validate",
    "plan": "tutor.sizing.planner",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str) -> object:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'tutor.sizing' has no attribute {name!r}")
    module = import_module(module_name)
    value = module if module_name.endswith("." + name) else getattr(module, name)
    globals()[name] = value
    return value
