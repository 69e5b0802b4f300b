"""The formula registry: every named formula of the engine, by name.

    from tutor.sizing import registry
    registry.get("distopt_bytes").expr      # 6*params + 12*params/n_shard
    registry.names()
"""

from __future__ import annotations

import difflib

from tutor.sizing.errors import SizingError
from tutor.sizing.formula import Formula
from tutor.sizing.formulas import MODULES


def _collect() -> dict[str, Formula]:
    found: dict[str, Formula] = {}
    for module in MODULES:
        for item in module.FORMULAS:
            if item.name in found:
                raise ValueError(f"formula {item.name} is declared twice")
            found[item.name] = item
    for item in found.values():
        for step in item.steps:
            if step not in found or not set(found[step].symbols) <= set(item.symbols):
                raise ValueError(f"formula {item.name}: step {step} is unknown or needs other inputs")
    return found


_FORMULAS = _collect()


def names() -> list[str]:
    """All formula names, sorted."""
    return sorted(_FORMULAS)


def get(name: str) -> Formula:
    """The formula called `name`; SizingError (with the closest names) when there is none."""
    try:
        return _FORMULAS[name]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(name), _FORMULAS, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `tutor.sizing.registry.names()`"
        raise SizingError(f"unknown formula {name!r}{hint}") from None


def exists(name: str) -> bool:
    return name in _FORMULAS
