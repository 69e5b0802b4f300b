"""Content: YAML files -> frozen models (DESIGN §6), the loader and the validator.

This file holds `load()`, the installed content loaded once per process; every other name is
imported from the module that defines it:

    tutor.content.loader: load_content(roots) -> Content; Content, Loaded, Problem
    tutor.content.models.base, .question, .lesson, .lab, .interview: the models (see tutor.content.models)
    tutor.content.index: one question from the validated index, without the loader (`tutor check`)
    tutor.content.validate: validate(content) -> [Problem]; tutor.content.render: render_lesson(...)

The loader (and PyYAML with it) is imported on the first `load()`, so a command that reads one
question from the index or only needs the models does not pay for it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the annotation only: importing the loader here would bring PyYAML to every command
    from tutor.content.loader import Content


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
