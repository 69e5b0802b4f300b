"""Content: YAML files -> frozen models (DESIGN §6), the loader and the validator.

The loader (and PyYAML with it) is imported on first use, so a command that reads one question
from the index (tutor.content.index) or only needs the models does not pay for it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.content.loader import Content, Loaded, Problem, load_content


@lru_cache(maxsize=1)
def load() -> Content:
    """The installed content, loaded once per process."""
    from tutor.content.loader import load_content
    from tutor.paths import content_root

    return load_content([content_root()])


def __getattr__(name: str):
    if name in ("Content", "Loaded", "Problem", "load_content"):
        from tutor.content import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'tutor.content' has no attribute {name!r}")


__all__ = ["Content", "Loaded", "Problem", "load", "load_content"]
