"""`tutor check` grades plain records from the content index, without pydantic (issue 18).

The records must be the models to the graders: the same fields as the pydantic models, the same
data, the same verdicts for right, wrong and unreadable answers on every shipped question; a
tampered index is refused as it is for the models; and the process never imports pydantic.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.content import index, records
from tutor.content.loader import load_content

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "min-gpus-for-model-state"


@pytest.fixture()
def content(tmp_path, monkeypatch):
    root = tmp_path / "content"
    shutil.copytree(ROOT / "questions", root / "questions")
    monkeypatch.setenv("TUTOR_CONTENT", str(root))
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "home"))
    return root


def test_the_record_table_has_every_question_model_and_its_fields():
    from tutor.content.models.base import ContentModel
    from tutor.content.models import question  # noqa: F401  (defines the question models)

    models, stack = {}, list(ContentModel.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__ in ("tutor.content.models.question", "tutor.content.models.base"):
            models[cls.__name__] = tuple(cls.model_fields)
    assert records.FIELDS == models


def test_every_question_as_records_dumps_and_grades_as_its_model(content):
    from tutor.grading.dispatch import grade, expected_answer
    from tutor.grading.variant import draw

    loaded = load_content([content])
    index._write(index.content_key(content), loaded)  # the index a miss writes, without a second full load
    assert type(index.plain_question(QUESTION)[0]) is records.Question  # a hit
    entries = json.loads(index.index_path().read_text())["questions"]  # read once: the rest from it
    kinds: dict[str, int] = {}
    for question_id, item in loaded.questions.items():
        model = item.model
        plain = index._decode_plain(json.loads(entries[question_id]))
        assert type(plain) is records.Question, question_id
        assert plain.model_dump() == model.model_dump() and plain.kind == model.kind, question_id
        assert plain.model_fields_set == model.model_fields_set, question_id
        for step, plain_step in zip(model.steps, plain.steps):
            kinds[step.kind] = kinds.get(step.kind, 0) + 1
            if step.kind in ("formula", "open", "clarify") and kinds[step.kind] > 3:
                continue  # SymPy and the rubric reader are slow; their dispatch is shared, a few suffice
            answers = ["", "banana", "12", "2 GB", "a, b"]
            if step.kind == "numeric":
                expected = expected_answer(model, step, draw(model, 0))
                answers += [str(expected["value"]), f"{expected['value'] * 1.5}"]
                assert expected_answer(plain, plain_step, draw(plain, 0)) == expected, question_id
            elif step.kind == "choice":
                answers += [option.id for option in step.options]
            elif step.kind == "formula":  # SymPy is slow: the right answer and a wrong one
                answers = [expected_answer(model, step, draw(model, 0))["formula"], "6*x"]
            elif step.kind in ("open", "clarify"):
                answers = ["", step.model_answer.en, step.points[0].phrases["en"][0]]
            for answer in answers:
                want = grade(model, answer, step.id, 0).to_json(True)
                got = grade(plain, answer, plain_step.id, 0).to_json(True)
                assert got == want, (question_id, step.id, answer)
    assert {"numeric", "choice", "config", "open", "formula"} <= set(kinds)


def test_a_tampered_index_is_refused_by_the_plain_reader(content):
    # A miss gives the validated model (and writes the index); an entry whose fields are not the model's is
    # refused, and the full load's model served and the index rebuilt. (An unknown class name: test_records_are_frozen.)
    model, _ = index.question(QUESTION)
    assert type(index.plain_question(QUESTION)[0]) is records.Question
    path = index.index_path()
    good = path.read_text()
    body = json.loads(good)
    entry = json.loads(body["questions"][QUESTION])
    del entry["f"]["title"]
    body["questions"][QUESTION] = json.dumps(entry)
    path.write_text(json.dumps(body))
    served, _ = index.plain_question(QUESTION)
    assert type(served) is not records.Question and served.model_dump() == model.model_dump()
    assert path.read_text() == good


def test_records_are_frozen():
    text = records.record("Text", {"en": "a", "zh": "b"}, ("en", "zh"))
    with pytest.raises(TypeError):
        text.en = "c"
    assert text.get("zh") == "b" and text.model_dump() == {"en": "a", "zh": "b"}
    with pytest.raises(AttributeError):
        text.nope  # noqa: B018
    with pytest.raises(ValueError):
        records.record("Popen", {}, ())


@pytest.mark.timeout(60)
def test_a_numeric_check_never_imports_pydantic_sympy_or_yaml(content, tmp_path):
    """The process, as the learner runs it: the first check fills the index, the second reads it."""
    probe = ("import sys, runpy; sys.argv = ['tutor', 'check', %r, '200', '--json']\n"
             "try:\n    runpy.run_module('tutor', run_name='__main__')\nexcept SystemExit as e:\n    code = e.code\n"
             "print(sorted(m for m in ('pydantic', 'sympy', 'yaml', 'textual') if m in sys.modules), code,"
             " file=sys.stderr)" % QUESTION)
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=50, cwd=ROOT)
            for _ in range(2)]
    assert json.loads(runs[1].stdout)["correct"] is True
    assert runs[0].stderr.strip().endswith("['pydantic', 'yaml'] 0")  # the miss loads and validates
    assert runs[1].stderr.strip().endswith("[] 0"), runs[1].stderr
