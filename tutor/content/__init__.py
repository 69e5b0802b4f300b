"""Content: YAML files -> frozen models (DESIGN §6), the loader and the validator."""

from __future__ import annotations

from functools import lru_cache

from tutor.content.loader import Content, Loaded, Problem, load_content


@lru_cache(maxsize=1)
def load() -> Content:
    """The installed content, loaded once per process."""
    from tutor.paths import content_root

    return load_content([content_root()])


__all__ = ["Content", "Loaded", "Problem", "load", "load_content"]
