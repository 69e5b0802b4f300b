"""The symbolic sizing engine: every number the learner sees comes from here (DESIGN §4).

Each name is imported from the module that defines it (see docs/sizing.md); this package file
imports nothing, so `tutor.sizing.display` stays importable without SymPy:

    from tutor.sizing import registry                       # registry.get(name) -> Formula; registry.names()
    tutor.sizing.engine: evaluate(name, **inputs) -> float  # base units; SizingError on bad input
                         explain(name, inputs, lang="en")   # [{id, formula, substituted, value, unit}]
    tutor.sizing.display: format_value(value, unit, digits=1, lang="en")   # "39.4 GB" (GB = 1e9 bytes)
    tutor.sizing.specs: Model, Train, Parallel, Hardware, Throughput, Reliability   # frozen dataclasses
    tutor.sizing.presets: MODELS, model_preset(name); tutor.sizing.hardware: GPUS, gpu(name)
    tutor.sizing.report: size(model, train, parallel, hardware, throughput) -> dict   # `tutor size --json`
    tutor.sizing.validate: validate_config(...) -> Findings   # errors and warnings with clear messages
    tutor.sizing.planner: plan(model, train, gpus, hardware) -> dict   # `tutor plan --json`
    tutor.sizing.errors: SizingError
"""
