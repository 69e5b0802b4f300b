"""The content index `tutor check` reads one question from (tutor.content.index, issue 18).

Hostile cases first: a stale index (a file edited, even with its size and mtime put back), a
corrupt or tampered index (class names that are not content models, fields that do not match),
an unknown id. Each must give the full load's answer, never the index's."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tutor.content import index
from tutor.content.loader import load_content

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "min-gpus-for-model-state"


@pytest.fixture()
def content(tmp_path, monkeypatch):
    """A private copy of the shipped questions (all the index holds; lessons and labs only add to the
    key and the load time) and a fresh data folder."""
    root = tmp_path / "content"
    shutil.copytree(ROOT / "questions", root / "questions")
    monkeypatch.setenv("TUTOR_CONTENT", str(root))
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "home"))
    return root


def full_load(root: Path):
    return load_content([root])


def test_every_question_comes_back_from_the_index_as_loaded(content):
    loaded = full_load(content)
    classes = index._model_classes()
    for question_id, item in loaded.questions.items():
        rebuilt = index._decode(json.loads(json.dumps(index._encode(item.model))), classes)
        assert rebuilt == item.model and type(rebuilt) is type(item.model), question_id
        assert rebuilt.model_fields_set == item.model.model_fields_set, question_id
    first, problems = index.question(QUESTION)  # a miss: full load, index written
    assert index.index_path().is_file() and problems == len(loaded.problems)
    second, _ = index.question(QUESTION)  # a hit
    assert first == second == loaded.questions[QUESTION].model


def test_an_edited_file_is_never_served_from_a_stale_index(content):
    old, _ = index.question(QUESTION)
    path = next(p for p in (content / "questions").glob("*.yaml") if f"id: {QUESTION}" in p.read_text())
    before = os.stat(path)
    text = path.read_text()
    # One ASCII letter of the question's first English text changes case: the same size, and the mtime is
    # put back below, so a key made of mtimes and sizes would serve the old text.
    at = text.index("en:", text.index(f"id: {QUESTION}")) + 3
    at = next(i for i in range(at, len(text)) if text[i].isascii() and text[i].isalpha())
    edited = text[:at] + text[at].swapcase() + text[at + 1:]
    assert len(edited.encode()) == len(text.encode())
    path.write_text(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    served, _ = index.question(QUESTION)
    fresh = full_load(content).questions[QUESTION].model
    assert served == fresh and served != old


def test_a_corrupt_or_tampered_index_is_refused_and_rebuilt(content):
    expected = full_load(content).questions[QUESTION].model
    index.question(QUESTION)
    path = index.index_path()
    good = path.read_text()
    for tamper in ("not json", "class", "fields", "key"):
        body = json.loads(good)
        entry = json.loads(body["questions"][QUESTION])
        if tamper == "not json":
            path.write_text("{\"key\": ")
        else:
            if tamper == "class":
                entry["$m"] = "Popen"  # not a content model: refused, whatever it names
            elif tamper == "fields":
                entry["f"]["unexpected"] = 1
            else:  # an index for other content, forged to say something else
                body["key"] = "0" * 64
                entry["f"]["title"] = {"$m": "Text", "s": ["en", "zh"], "f": {"en": "forged", "zh": "forged"}}
            body["questions"][QUESTION] = json.dumps(entry)
            path.write_text(json.dumps(body))
        served, _ = index.question(QUESTION)
        assert served == expected, tamper
        assert path.read_text() == good, tamper  # rebuilt


def test_an_unknown_id_is_none_and_a_fifo_falls_back_to_the_full_load(content):
    assert index.question("no-such-question")[0] is None
    fifo = content / "questions" / "zz-pipe.yaml"
    os.mkfifo(fifo)
    assert index.content_key(content) is None  # never blocks on it
    served, problems = index.question(QUESTION)
    assert served == full_load(content).questions[QUESTION].model and problems >= 1
