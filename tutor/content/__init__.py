"""Content: YAML files -> frozen models (DESIGN §6), the loader and the validator.

The loader (and PyYAML with it) is imported on first use, so a command that reads one question
from the index (tutor.content.index) or only needs the models does not pay for it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.content.loader import Content, Loaded, Problem, load_content


def load() -> Content:
    """The installed content, loaded once per process and content folder.

    Keyed by the folder `TUTOR_CONTENT` names at the call: a process (a test, `tutor serve`'s
    tabs) that points it elsewhere gets that folder's content, never the last one's.
    """
    from tutor.paths import content_root

    return _load(content_root())


@lru_cache(maxsize=4)
def _load(root) -> Content:
    from tutor.content.loader import load_content

    return load_content([root])


load.cache_clear = _load.cache_clear  # type: ignore[attr-defined]  # the tests' reset, as before


def __getattr__(name: str):
    if name in ("Content", "Loaded", "Problem", "load_content"):
        from tutor.content import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'tutor.content' has no attribute {name!r}")


__all__ = ["Content", "Loaded", "Problem", "load", "load_content"]
