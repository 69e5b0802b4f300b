"""Safe YAML reading with line numbers, and the limits that keep hostile files cheap.

PyYAML's safe loader already refuses arbitrary tags; on top of it this module
- reads only regular files (a FIFO, a device, a folder named *.yaml is refused without being
  read: opened non-blocking, checked with fstat), inside the content tree when one is given
  (symlinks that lead out of it, or in a loop, are refused), and never more than MAX_BYTES + 1
  bytes (a symlink to /dev/urandom reports size 0 and would otherwise be read forever);
- refuses files that are too large, binary, or not UTF-8, before parsing;
- turns a scalar that YAML's constructors reject (`2024-02-30`, a 5,000-digit integer) into a
  `path:line` problem, not an exception;
- walks the event stream (iterative, so no recursion) to refuse deep nesting;
- builds Python values from the composed node graph itself, counting every node an alias
  expands to, so an alias bomb ("billion laughs") stops after a fixed budget instead of
  being materialised by a later pass;
- refuses duplicate mapping keys (PyYAML keeps the last one silently);
- records the line of every value, so schema errors can say `path:line`;
- drops control characters from every string (ESC, BEL, C1 codes; tab and newline stay), so no
  content can send escape sequences to a terminal through `tutor lessons` or the app.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

try:  # the C parser is much faster where libyaml is present; behaviour is the same
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the wheel
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 512 * 1024
MAX_DEPTH = 32
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
MAX_NODES = 20_000  # a 900-line lesson is ~2,000 values; anything near this is hostile

Path_ = tuple  # a location inside a document: keys and list indexes


class YamlProblem(Exception):
    """A file that cannot be read as content; `line` is 1-based."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class Document:
    """A parsed file: its value and the line of each location in it."""

    data: object
    lines: dict[Path_, int] = field(default_factory=dict)

    def line_of(self, location: Path_) -> int:
        """The line of `location`, or of its nearest enclosing value that exists."""
        for cut in range(len(location), -1, -1):
            line = self.lines.get(tuple(location[:cut]))
            if line is not None:
                return line
        return 1


def read_document(path: Path, tree: Path | None = None) -> Document:
    """Read and parse one YAML file, or raise YamlProblem. With `tree`, the file (after any
    symlinks) must lie inside that folder (the loader passes the folder the file is listed in,
    so a symlinked lessons/ folder works, a symlink from it to /etc does not)."""
    return parse_document(_decode(read_bounded(path, tree)))


def read_bounded(path: Path, tree: Path | None = None, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file, at most `limit` (refused above it), without ever blocking."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError) as error:  # RuntimeError: a symlink loop (Python 3.11)
        reason = getattr(error, "strerror", None) or "a symlink loop"
        raise YamlProblem(1, f"cannot read file: {reason}") from None
    if tree is not None and not real.is_relative_to(tree.resolve()):
        raise YamlProblem(1, f"a symlink to {real}, outside its folder {tree}; refused")
    try:
        descriptor = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise YamlProblem(1, f"cannot read file: {error.strerror}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode) \
                else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "a special file"
            raise YamlProblem(1, f"{kind}, not a regular file; content files are plain YAML files")
        if info.st_size > limit:
            raise YamlProblem(1, f"file is {info.st_size:,} bytes; content files are limited to {limit:,}")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(descriptor, min(1 << 16, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as error:
        raise YamlProblem(1, f"cannot read file: {error.strerror}") from None
    finally:
        os.close(descriptor)
    if total > limit:
        raise YamlProblem(1, f"file is over {limit:,} bytes; content files are limited to {limit:,}")
    return b"".join(chunks)


def _decode(raw: bytes) -> str:
    if b"\x00" in raw:
        raise YamlProblem(1, "binary file (contains NUL bytes); expected UTF-8 YAML text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise YamlProblem(line, "not valid UTF-8 text") from None


def parse_document(text: str) -> Document:
    _check_events(text)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as error:
        raise _syntax_problem(error) from None
    if node is None:
        raise YamlProblem(1, "empty file")
    document = Document(data=None)
    builder = _Builder(document.lines)
    document.data = builder.build(node, ())
    return document


def _check_events(text: str) -> None:
    """Reject deep nesting and multiple documents from the event stream, before composing."""
    depth = 0
    documents = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise YamlProblem(
                        _line(event),
                        f"nested more than {MAX_DEPTH} levels deep; content is never this deep",
                    )
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise YamlProblem(_line(event), "more than one YAML document in a file")
    except yaml.YAMLError as error:
        raise _syntax_problem(error) from None


def _line(event: yaml.Event) -> int:
    """The 1-based line an event starts on (the parser marks every event; the stubs allow None)."""
    return event.start_mark.line + 1 if event.start_mark is not None else 1


def _syntax_problem(error: yaml.YAMLError) -> YamlProblem:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    line = mark.line + 1 if mark is not None else 1
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    return YamlProblem(line, f"invalid YAML: {problem}")


class _Builder:
    """Turns composed nodes into plain values, recording lines and bounding alias expansion."""

    def __init__(self, lines: dict[Path_, int]):
        self.lines = lines
        self.nodes = 0
        self.scalars = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, location: Path_) -> object:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise YamlProblem(
                node.start_mark.line + 1,
                f"expands to more than {MAX_NODES:,} values (an alias bomb?); refused",
            )
        self.lines.setdefault(location, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, location)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, location + (index,)) for index, item in enumerate(node.value)]
        return self._scalar(node)

    def _scalar(self, node: yaml.Node) -> object:
        try:
            value = self.scalars.construct_object(node)
            return _CONTROL.sub("", value) if isinstance(value, str) else value
        except yaml.YAMLError as error:
            raise _syntax_problem(error) from None
        except (ValueError, OverflowError, TypeError) as error:  # 2024-02-30; an int of 5,000 digits
            shown = str(getattr(node, "value", ""))
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise YamlProblem(node.start_mark.line + 1, f"bad value {shown!r}: {str(error).split(chr(10))[0]}") from None

    def _mapping(self, node: yaml.MappingNode, location: Path_) -> dict:
        result: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlProblem(key_node.start_mark.line + 1, "mapping keys must be plain scalars")
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlProblem(key_node.start_mark.line + 1, "merge keys (<<) are not supported")
            key = self._scalar(key_node)
            if not isinstance(key, (str, int)):
                key = str(key)
            if key in result:
                raise YamlProblem(key_node.start_mark.line + 1, f"duplicate key {key!r}")
            self.lines[location + (key,)] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, location + (key,))
        return result
