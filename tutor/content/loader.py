"""Load content files into models, collecting every problem instead of stopping at the first.

Layout (under the content root): `lessons/*.yaml` (one lesson each), `questions/*.yaml` (a
list of questions each), `labs/NN-name/lab.yaml`, `interview/*.yaml` (a list of interview
scenarios and references to bank questions each). One loader for all four kinds.
"""

from __future__ import annotations

import difflib
import re
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from tutor.content.models.interview import BankRef, InterviewScenario
from tutor.content.models.lab import Lab
from tutor.content.models.lesson import Lesson
from tutor.content.models.question import Question
from tutor.content.yamlsafe import Document, YamlProblem, read_document

M = TypeVar("M", bound=BaseModel)
LAB_DIR = re.compile(r"^(\d{2})-([a-z0-9][a-z0-9-]*)$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a content file, printed as `path:line: message`."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{_display(self.path)}:{self.line}: {self.message}"


@dataclass
class Loaded(Generic[M]):
    """A model with where it came from, so later checks can point at a line."""

    model: M
    path: Path
    document: Document
    location: tuple = ()

    def line(self, *location: object) -> int:
        return self.document.line_of(self.location + tuple(location))

    def problem(self, message: str, *location: object) -> Problem:
        return Problem(self.path, self.line(*location), message)


@dataclass
class InterviewContent:
    """Scenarios and references loaded from `interview/` folders, with the problems found."""

    scenarios: dict[str, Loaded[InterviewScenario]] = field(default_factory=dict)
    refs: list[Loaded[BankRef]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


@dataclass
class Content:
    """Everything loaded from one or more content roots, with the problems found loading it
    (the interview files' problems are in `interview.problems`, checked by `tutor validate`)."""

    lessons: dict[str, Loaded[Lesson]] = field(default_factory=dict)
    questions: dict[str, Loaded[Question]] = field(default_factory=dict)
    labs: dict[str, Loaded[Lab]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    roots: list[Path] = field(default_factory=list)
    _interview: InterviewContent | None = field(default=None, repr=False)

    @property
    def interview(self) -> InterviewContent:
        """The roots' `interview/*.yaml`, read on first use: only the mock interview, the review
        queue and `tutor validate` need them (~0.2 s of a 1.2 s load)."""
        if self._interview is None:
            self._interview = InterviewContent()
            for root in self.roots:
                load_interview(root / "interview", self._interview)
        return self._interview

    def skipped(self) -> int:
        """How many problems left content out, the interview files' included (which this reads)."""
        return len(self.problems) + len(self.interview.problems)



def load_content(roots: list[Path]) -> Content:
    content = Content(roots=list(roots))
    for root in roots:
        for path in sorted((root / "lessons").glob("*.yaml")):
            load_lesson_file(path, content)
        for path in sorted((root / "questions").glob("*.yaml")):
            load_question_file(path, content)
        labs = root / "labs"
        for path in sorted(labs.glob("*/lab.yaml")) if labs.is_dir() else []:
            load_lab_file(path, content)
    return content


def load_interview(folder: Path, into: InterviewContent | None = None) -> InterviewContent:
    """Every `*.yaml` in `folder` (missing folder: nothing), added to `into` (default: a new one)."""
    loaded = into if into is not None else InterviewContent()
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            document = read_document(path)
        except YamlProblem as problem:
            loaded.problems.append(Problem(path, problem.line, problem.message))
            continue
        if not isinstance(document.data, list):
            loaded.problems.append(Problem(path, 1, "an interview file is a YAML list of scenarios and references"))
            continue
        for index, item in enumerate(document.data):
            if isinstance(item, dict) and "question" in item:
                ref = _validate(BankRef, document, (index,), path, loaded, data=item)
                if ref is not None:
                    loaded.refs.append(Loaded(ref, path, document, (index,)))
                continue
            scenario = _validate(InterviewScenario, document, (index,), path, loaded, data=item)
            if scenario is None:
                continue
            _add_once(loaded.scenarios, "scenario", scenario.id, Loaded(scenario, path, document, (index,)),
                      loaded.problems)
    return loaded


def load_lesson_file(path: Path, content: Content) -> None:
    document = _read(path, content)
    if document is None:
        return
    lesson = _validate(Lesson, document, (), path, content)
    if lesson is None:
        return
    _add_once(content.lessons, "lesson", lesson.id, Loaded(lesson, path, document), content.problems)


def load_question_file(path: Path, content: Content) -> None:
    document = _read(path, content)
    if document is None:
        return
    if not isinstance(document.data, list):
        content.problems.append(Problem(path, 1, "a questions file is a YAML list of questions"))
        return
    for index, item in enumerate(document.data):
        question = _validate(Question, document, (index,), path, content, data=item)
        if question is None:
            continue
        _add_once(content.questions, "question", question.id, Loaded(question, path, document, (index,)),
                  content.problems)


def load_lab_file(path: Path, content: Content) -> None:
    match = LAB_DIR.match(path.parent.name)
    if not match:
        content.problems.append(
            Problem(path, 1, f"lab folder {path.parent.name!r} must be named NN-name (e.g. 01-tp-mlp)")
        )
        return
    document = _read(path, content)
    if document is None:
        return
    lab = _validate(Lab, document, (), path, content)
    if lab is None:
        return
    outside = _lab_paths_outside(lab, path.parent)
    if outside:  # refused here, so `tutor lab start` can never copy from outside the lab
        for relative, location in outside:
            content.problems.append(Problem(path, document.line_of(location),
                                            f"{relative!r} is outside the lab folder {path.parent.name}/; lab skipped"))
        return
    name = match.group(2)
    if name in content.labs:
        other = content.labs[name]
        content.problems.append(Problem(path, 1, f"lab name {name!r} is also used by {_display(other.path.parent)}"))
        return
    content.labs[name] = Loaded(lab, path, document)


def _add_once(table: dict[str, Loaded[Any]], kind: str, item_id: str, entry: Loaded[Any],
              problems: list[Problem]) -> None:
    """Add `entry` under its id, or say where the id is already used (the first one stays)."""
    other = table.get(item_id)
    if other is None:
        table[item_id] = entry
        return
    problems.append(entry.problem(f"{kind} id {item_id!r} is also used at {_display(other.path)}:{other.line('id')}",
                                  "id"))


def _read(path: Path, content: Content) -> Document | None:
    try:
        return read_document(path, path.parent)
    except YamlProblem as problem:
        content.problems.append(Problem(path, problem.line, problem.message))
        return None


def _lab_paths_outside(lab: Lab, folder: Path) -> list[tuple[str, tuple[str | int, ...]]]:
    """Lab paths that lead out of the lab's folder (`../../etc/passwd`, `/etc/hostname`)."""
    outside: list[tuple[str, tuple[str | int, ...]]] = []
    for key in ("program", "solution", "checker"):
        relative = getattr(lab, key)
        if relative is not None and not (folder / relative).resolve().is_relative_to(folder.resolve()):
            outside.append((str(relative), (key,)))
    for index, relative in enumerate(lab.files):
        if not (folder / relative).resolve().is_relative_to(folder.resolve()):
            outside.append((str(relative), ("files", index)))
    return outside


def _validate(model: type[M], document: Document, location: tuple, path: Path,
              content: Content | InterviewContent, data: object = None) -> M | None:
    data = document.data if data is None else data
    try:
        return model.model_validate(data)
    except ValidationError as error:
        for item in error.errors(include_url=False):
            where = _data_location(data, item["loc"])
            line = document.line_of(location + where)
            content.problems.append(Problem(path, line, _describe(model, data, where, item)))
        return None


def _data_location(data: object, loc: tuple) -> tuple:
    """Pydantic's error location, minus the union tags it inserts (`steps.0.numeric.answer`)."""
    where: list = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and node.get("kind") == part:
            continue  # the discriminator tag
        elif isinstance(node, dict) and isinstance(part, str) and part.startswith(("function-", "lax-")):
            continue
        else:
            where.append(part)
            node = None
            continue
        where.append(part)
    return tuple(where)


def _field_path(where: tuple) -> str:
    text = ""
    for part in where:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _describe(model: type[BaseModel], data: object, where: tuple, item: ErrorDetails) -> str:
    kind, field_path = item["type"], _field_path(where)
    prefix = f"{field_path}: " if field_path else ""
    if kind == "missing":
        name = where[-1] if where else "?"
        parent = _field_path(where[:-1])
        if name in ("en", "zh"):
            return f"{parent or 'text'}: missing {name} text (every learner-facing text needs en and zh)"
        return f"{parent + ': ' if parent else ''}missing required key {name!r}"
    if kind == "extra_forbidden":
        name = str(where[-1]) if where else "?"
        parent = _field_path(where[:-1])
        known = _known_keys(model, data, where[:-1])
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else (f"; known keys: {', '.join(known)}" if known else "")
        return f"{parent + ': ' if parent else ''}unknown key {name!r}{hint}"
    if kind == "union_tag_invalid":
        context = item.get("ctx", {})
        return f"{prefix}unknown kind {context.get('tag')!r}; expected one of {context.get('expected_tags')}"
    if kind == "union_tag_not_found":
        return f"{prefix}missing 'kind' (one of numeric, formula, config, choice, open, clarify)"
    if kind == "string_pattern_mismatch" and where and where[-1] in ("id", "section"):
        return f"{prefix}{item['input']!r} is not a valid id (lowercase letters, digits and '-'; section as lesson/section)"
    if kind == "value_error":
        message = str(item.get("ctx", {}).get("error", item["msg"]))
        return f"{prefix}{message}"
    return f"{prefix}{item['msg'][0].lower()}{item['msg'][1:]}"


def _known_keys(model: type[BaseModel], data: object, where: tuple) -> list[str]:
    """The keys allowed at `where`, found by walking the model's fields along the data."""
    annotation: object = model
    node = data
    for part in where:
        if isinstance(part, str):
            current = _model_in(annotation, node)
            field = current.model_fields.get(part) if current else None
            if field is None:
                return []
            annotation = field.annotation
        node = _child(node, part)
    current = _model_in(annotation, node)
    return sorted(current.model_fields) if current else []


def _child(node: object, part: object) -> object:
    if isinstance(node, dict):
        return node.get(part)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return None


def _model_in(annotation: object, node: object) -> type[BaseModel] | None:
    """The model inside list[X] / dict[str, X] / Union / Annotated that fits the mapping `node`."""
    stack, candidates = [annotation], []
    while stack:
        item = stack.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            candidates.append(item)
        else:
            stack.extend(typing.get_args(item))
    kind = node.get("kind") if isinstance(node, dict) else None
    for candidate in candidates:
        field = candidate.model_fields.get("kind")
        if field is not None and kind in typing.get_args(field.annotation):
            return candidate
    return candidates[0] if candidates else None


def _display(path: Path) -> str:
    try:  # the folder is resolved, not the file: it may be a symlink loop or lead elsewhere
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def load_path(path: Path, content: Content) -> bool:
    """Load one file or folder by where it sits; False when its kind cannot be told."""
    if path.is_dir():
        if any((path / name).is_dir() for name in ("lessons", "questions", "labs")):
            loaded = load_content([path])
            _merge(content, loaded)
        elif (path / "lab.yaml").is_file():
            load_lab_file(path / "lab.yaml", content)
        elif path.name in ("lessons", "questions", "labs"):
            _merge(content, _load_kind_folder(path))
        else:
            return False
        return True
    if path.name == "lab.yaml":
        load_lab_file(path, content)
    elif path.parent.name == "lessons":
        load_lesson_file(path, content)
    elif path.parent.name == "questions":
        load_question_file(path, content)
    else:
        return False
    return True


def _load_kind_folder(folder: Path) -> Content:
    loaded = Content()
    if folder.name == "labs":
        for path in sorted(folder.glob("*/lab.yaml")):
            load_lab_file(path, loaded)
    else:
        loader = load_lesson_file if folder.name == "lessons" else load_question_file
        for path in sorted(folder.glob("*.yaml")):
            loader(path, loaded)
    return loaded


def _merge(into: Content, other: Content) -> None:
    into.problems.extend(other.problems)
    for attribute, label in (("lessons", "lesson id"), ("questions", "question id"), ("labs", "lab name")):
        mine, theirs = getattr(into, attribute), getattr(other, attribute)
        for key, loaded in theirs.items():
            if key in mine:
                first = mine[key]
                into.problems.append(loaded.problem(f"{label} {key!r} is also used at {_display(first.path)}:{first.line('id')}", "id"))
            else:
                mine[key] = loaded
