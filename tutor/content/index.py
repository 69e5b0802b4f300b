"""A validated index of the questions, so `tutor check` and `tutor ask` load one question, not all content.

Loading every lesson, question and lab through the YAML reader and pydantic costs most of a
`tutor check` (issue 18: 5.7× `tutor --version`). The index keeps each question as the JSON of its
validated model, in the learner's data folder, under a key made from the bytes of every content
file (read with the loader's own bounded reader), the tutor's version and the source of the
loader and the models. Any edit to a content file or to the code that reads it changes the key,
so a stale index is never used (the file's mtime alone could repeat after a restore or a copy).
A hit is rebuilt from the names of the content models only (below), as models (`question`) or,
for `tutor check`, as plain records without importing pydantic (`plain_question`,
tutor.content.records): the index is data, never code (JSON, no pickle), and a corrupt or
tampered one is refused and rebuilt from the content files.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

INDEX_FORMAT = 1
MAX_FILE_BYTES = 512 * 1024  # yamlsafe.MAX_BYTES: larger files are left to the full load, which refuses them
INDEX_NAME = "content-index.json"
_CODE = Path(__file__).resolve().parent
_CODE_FILES = ("loader.py", "yamlsafe.py", "index.py", "records.py", "models/__init__.py", "models/base.py",
               "models/question.py", "models/lab.py", "models/lesson.py")


def content_files(root: Path) -> list[Path]:
    """The files `load_content` reads, in its order."""
    files = sorted((root / "lessons").glob("*.yaml")) + sorted((root / "questions").glob("*.yaml"))
    labs = root / "labs"
    return files + (sorted(labs.glob("*/lab.yaml")) if labs.is_dir() else [])


def content_key(root: Path) -> str | None:
    """The hash of every content file's name and bytes and of the reading code; None when a file
    cannot be read safely (a FIFO, a link out of its folder: the full load reports it)."""
    from tutor import __version__

    digest = hashlib.sha256(f"{INDEX_FORMAT} {__version__}\n".encode())
    for name in _CODE_FILES:
        digest.update(name.encode() + b"\0" + (_CODE / name).read_bytes())
    for path in content_files(root):
        data = _regular_file_bytes(path)
        if data is None:
            return None
        digest.update(str(path.relative_to(root)).encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def _regular_file_bytes(path: Path) -> bytes | None:
    """The bytes of a regular file inside its folder, never blocking; None for anything else (the
    full load then reads it with yamlsafe.read_bounded and reports why). Written here rather than
    calling read_bounded so that a hit does not import PyYAML."""
    try:
        if not path.resolve(strict=True).is_relative_to(path.parent.resolve()):
            return None
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, RuntimeError):
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return None
        data = os.read(descriptor, MAX_FILE_BYTES + 1)
        return data if len(data) <= MAX_FILE_BYTES and len(data) == info.st_size else None
    except OSError:
        return None
    finally:
        os.close(descriptor)


def index_path() -> Path:
    from tutor.paths import home_dir

    return home_dir() / "cache" / INDEX_NAME


def question(question_id: str):
    """(the question's model or None, how many content problems the full load found), from the
    index when it is current, else from a full load that rebuilds it."""
    return _question(question_id, plain=False)


def plain_question(question_id: str):
    """As `question`, but a hit comes back as plain records (tutor.content.records) without importing
    pydantic: what `tutor check` grades. A miss gives the validated model, as `question` does."""
    return _question(question_id, plain=True)


def _question(question_id: str, plain: bool):
    from tutor.paths import content_root

    root = content_root()
    key = content_key(root)
    if key is not None:
        found = _from_index(key, question_id, plain)
        if found is not None:
            return found
    from tutor.content.loader import load_content

    content = load_content([root])  # this root's, not a per-process cache that may hold another's
    if key is not None:
        _write(key, content)
    loaded = content.questions.get(question_id)
    return (loaded.model if loaded is not None else None), len(content.problems)


def _from_index(key: str, question_id: str, plain: bool = False):
    """(model or None, problems) from a current index; None when there is none or it cannot be used."""
    try:
        index = json.loads(index_path().read_text(encoding="utf-8"))
        if not isinstance(index, dict) or index.get("key") != key:
            return None
        problems, questions = int(index["problems"]), index["questions"]
        if question_id not in questions:
            return None, problems
        entry = json.loads(questions[question_id])
        if plain:
            from tutor.content import records

            found = _decode_plain(entry)
            return (found, problems) if type(found) is records.Question else None
        found = _decode(entry, _model_classes())
        from tutor.content.models.question import Question

        return (found, problems) if isinstance(found, Question) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _write(key: str, content) -> None:
    """Write the index atomically (a reader sees the old one or the new one); a data folder that
    cannot be written only costs the speed."""
    try:
        body = {"key": key, "problems": len(content.problems),
                "questions": {qid: json.dumps(_encode(loaded.model), ensure_ascii=False)
                              for qid, loaded in content.questions.items()}}
    except TypeError:  # a value the index cannot hold: no index, the full load each time
        return
    try:
        target = index_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, target)
    except OSError:
        pass


# The index holds each model as {"$m": class name, "f": fields, "s": fields set} and tuples as
# {"$t": items}, so a hit is rebuilt with `model_construct` from the names of the content model
# classes only (unknown names are refused): no pydantic schema is built and no validator runs,
# which is what a `tutor check` would otherwise spend most of its time on. The models were
# validated when the index was written, from the files whose bytes make the key.

def _encode(value):
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return {"$m": type(value).__name__, "s": sorted(value.model_fields_set),
                "f": {name: _encode(getattr(value, name)) for name in type(value).model_fields}}
    if isinstance(value, tuple):
        return {"$t": [_encode(item) for item in value]}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict) and all(isinstance(name, str) and not name.startswith("$") for name in value):
        return {name: _encode(item) for name, item in value.items()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"the content index cannot hold a {type(value).__name__}")


def _decode(value, classes: dict):
    if isinstance(value, list):
        return [_decode(item, classes) for item in value]
    if isinstance(value, dict):
        if "$t" in value:
            return tuple(_decode(item, classes) for item in value["$t"])
        if "$m" in value:
            cls = classes[value["$m"]]
            fields = {name: _decode(item, classes) for name, item in value["f"].items()}
            if set(fields) != set(cls.model_fields) or not set(value["s"]) <= set(fields):
                raise ValueError("the index does not match the model")
            return cls.model_construct(_fields_set=set(value["s"]), **fields)
        return {name: _decode(item, classes) for name, item in value.items()}
    return value


def _decode_plain(value):
    """`_decode` into tutor.content.records, for the same index entries."""
    from tutor.content.records import record

    if isinstance(value, list):
        return [_decode_plain(item) for item in value]
    if isinstance(value, dict):
        if "$t" in value:
            return tuple(_decode_plain(item) for item in value["$t"])
        if "$m" in value:
            fields = {name: _decode_plain(item) for name, item in value["f"].items()}
            return record(value["$m"], fields, value["s"])
        return {name: _decode_plain(item) for name, item in value.items()}
    return value


def _model_classes() -> dict:
    from tutor.content.models.base import ContentModel
    from tutor.content.models.question import Question  # noqa: F401  (defines the question models)

    found, stack = {}, [ContentModel]
    while stack:
        cls = stack.pop()
        found[cls.__name__] = cls
        stack.extend(cls.__subclasses__())
    return found
