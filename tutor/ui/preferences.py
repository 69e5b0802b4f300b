"""The learner's interface preferences (language, theme), kept between sessions.

A small JSON file beside the database: these are settings, not history, and a damaged file just
falls back to the defaults.
"""

from __future__ import annotations

from pathlib import Path

FILE_NAME = "preferences.json"


def _path() -> Path:
    from tutor.paths import home_dir

    return home_dir() / FILE_NAME


def load() -> dict:
    # json is imported only when there is a file to read: the app reads this before its first
    # frame, and json's import (it compiles its regexes) is start-up time that a learner who never
    # changed a preference need not pay.
    try:
        saved = _path().read_text(encoding="utf-8")
    except OSError:
        return {}
    import json

    try:
        data = json.loads(saved)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def save(**changes: object) -> None:
    import json

    data = {**load(), **changes}
    path = _path()
    temporary = path.with_suffix(".tmp")
    try:
        temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        temporary.replace(path)  # atomic: a reader never sees half a file
    except OSError:
        pass  # preferences are a convenience; never fail the app over them
