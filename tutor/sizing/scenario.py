"""A sizing scenario as flat settings (what the playground edits and lessons preset), to specs.

Settings are the `tutor size` flags without dashes: model, params, layers, hidden, heads,
kv_heads, ffn, vocab, arch, experts, top_k, seq, micro_batch, global_batch, tokens, gpus, tp, pp,
cp, ep, dp, vpp, sharding, recompute, sp, flash, gpu, mfu. Missing ones take the defaults of the
specs (a model preset supplies its architecture; `gpu` defaults to h100).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from tutor.sizing.errors import SizingError

MODEL_FIELDS = ("params", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "arch", "experts", "top_k")
TRAIN_FIELDS = ("seq", "micro_batch", "global_batch", "tokens")
PARALLEL_FIELDS = ("gpus", "tp", "pp", "cp", "ep", "dp", "vpp", "sharding", "recompute", "sp", "flash")
SETTINGS = ("model", "gpu", "mfu") + MODEL_FIELDS + TRAIN_FIELDS + PARALLEL_FIELDS


def specs(settings: Mapping[str, object]):
    """(Model, Train, Parallel, Hardware, Throughput | None) for the settings; SizingError if unusable."""
    from tutor.sizing.hardware import gpu
    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Model, Parallel, Throughput, Train

    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise SizingError(f"unknown setting(s) {', '.join(unknown)}; known: {', '.join(SETTINGS)}")
    model = model_preset(str(settings["model"])) if settings.get("model") else Model()
    # Any: the settings are whatever the playground or a lesson holds; the specs check every value's type
    # and range when built (specs._Checked), with a one-line SizingError.
    given: dict[str, Any] = {name: value for name, value in settings.items() if value is not None}
    overrides = {name: given[name] for name in MODEL_FIELDS if name in given}
    if overrides:
        model = replace(model, **overrides)
    train = Train(**{name: given[name] for name in TRAIN_FIELDS if name in given})
    parallel = Parallel(**{name: given[name] for name in PARALLEL_FIELDS if name in given})
    hardware = gpu(str(given.get("gpu") or "h100"))
    throughput = Throughput(mfu=given["mfu"]) if "mfu" in given else None
    return model, train, parallel, hardware, throughput


def report(settings: Mapping[str, object], lang: str = "en") -> dict:
    """The `tutor size` report for the settings."""
    from tutor.sizing.report import size

    model, train, parallel, hardware, throughput = specs(settings)
    return size(model, train, parallel, hardware, throughput, lang=lang)


def check_scenarios(content) -> Iterable:
    """`tutor validate`: every lesson scenario builds and passes the validator without errors."""
    for loaded in content.lessons.values():
        for index, section in enumerate(loaded.model.sections):
            for position, scenario in enumerate(section.scenarios):
                where = ("sections", index, "scenarios", position)
                try:
                    result = report(scenario.settings)
                except SizingError as error:
                    yield loaded.problem(f"scenario {scenario.id!r}: {error}", *where, "settings")
                    continue
                for found in result["errors"]:
                    message = found["en"] if isinstance(found, dict) else str(found)
                    yield loaded.problem(f"scenario {scenario.id!r}: {message}", *where, "settings")


CHECKS = [check_scenarios]
