"""The engine's formulas, one module per topic; `tutor.sizing.registry` collects them."""

from tutor.sizing.formulas import activations, architecture, collectives, comm, flops, memory, pipeline, reliability

MODULES = (memory, activations, pipeline, flops, architecture, reliability, comm, collectives)
