"""The labs on offer: `labs/NN-name/lab.yaml` loaded as `Lab` models, found by name."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from tutor.content.models.lab import Lab
from tutor.errors import UserInputError


@dataclass(frozen=True)
class LabEntry:
    name: str
    """The folder name without its `NN-` prefix."""
    folder: Path
    lab: Lab

    @property
    def program(self) -> Path:
        return self.folder / self.lab.program

    @property
    def solution(self) -> Path:
        return self.folder / self.lab.solution

    @property
    def checker(self) -> Path | None:
        return self.folder / self.lab.checker if self.lab.checker else None

    @property
    def world_sizes(self) -> list[int]:
        return sorted(set(self.lab.world_sizes) | {self.lab.world_size})


def all_labs() -> dict[str, LabEntry]:
    from tutor.content import load

    content = load()
    entries = {name: LabEntry(name, loaded.path.parent, loaded.model) for name, loaded in content.labs.items()}
    return dict(sorted(entries.items(), key=lambda item: item[1].folder.name))


def get_lab(name: str) -> LabEntry:
    labs = all_labs()
    if name in labs:
        return labs[name]
    close = difflib.get_close_matches(name, list(labs), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; see `tutor lab list` ({len(labs)} labs)"
    hint_zh = f"；你是想找 {close[0]!r} 吗？" if close else f"；见 `tutor lab list`（共 {len(labs)} 个实验）"
    raise UserInputError(f"no lab named {name!r}{hint}", zh=f"没有叫 {name!r} 的实验{hint_zh}")
