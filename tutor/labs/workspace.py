"""The learner's working copies: TUTOR_HOME/labs/NAME/, made by `tutor lab start`.

Only the program and the files it needs are copied; the solution and the checker stay in the
lab folder. `reset` keeps the previous copy as NAME.previous/ rather than deleting the
learner's work outright.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tutor.labs.catalog import LabEntry
from tutor.paths import home_dir


def workspace_dir(name: str) -> Path:
    return home_dir() / "labs" / name


def working_program(entry: LabEntry) -> Path | None:
    """The learner's copy of the program, if the lab was started."""
    path = workspace_dir(entry.name) / Path(entry.lab.program).name
    return path if path.is_file() else None


def start(entry: LabEntry) -> tuple[Path, bool]:
    """(path of the working copy of the program, whether it was created now)."""
    existing = working_program(entry)
    if existing is not None:
        return existing, False
    folder = workspace_dir(entry.name)
    folder.mkdir(parents=True, exist_ok=True)
    for relative in (entry.lab.program, *entry.lab.files):
        source, target = entry.folder / relative, folder / Path(relative).name
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target)
    return folder / Path(entry.lab.program).name, True


def reset(entry: LabEntry) -> tuple[Path, Path | None]:
    """A fresh copy; returns (program path, where the previous copy was kept or None)."""
    folder = workspace_dir(entry.name)
    kept = None
    if folder.exists():
        kept = folder.with_name(entry.name + ".previous")
        if kept.exists():
            shutil.rmtree(kept)
        folder.rename(kept)
    program, _ = start(entry)
    return program, kept


def watched_files(entry: LabEntry) -> list[Path]:
    """The files whose changes the watch mode reacts to."""
    folder = workspace_dir(entry.name)
    return sorted(path for path in folder.rglob("*.py")) if folder.is_dir() else [entry.program]

