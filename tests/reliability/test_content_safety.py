"""Content that must not take the tutor down (issue 17 item 5): special files, symlinks out of the
tree or in loops, values YAML's constructors reject, lab paths outside the lab. Each is one
`path:line` problem; the rest of the tree still loads."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.helpers import FIXTURES
from tutor.cli import main
from tutor.content.loader import load_content

LESSON = (FIXTURES / "content" / "lessons" / "01-basics.yaml").read_text()


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(FIXTURES / "content", root)
    return root


def _validate(root: Path, capsys) -> tuple[int, str]:
    started = time.monotonic()
    code = main(["validate", str(root)])
    assert time.monotonic() - started < 10
    output = capsys.readouterr()
    assert "internal error" not in output.err and "Traceback" not in output.err, output.err
    return code, output.out


def _lesson_with(text: str, tree: Path, name: str = "02-bad.yaml") -> Path:
    path = tree / "lessons" / name
    path.write_text(LESSON.replace("id: basics", "id: bad", 1) + text)
    return path


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("make", "says"), [
    (lambda path: os.mkfifo(path), "FIFO"),
    (lambda path: path.symlink_to("/dev/urandom"), "outside"),
    (lambda path: path.symlink_to("/dev/zero"), "outside"),
    (lambda path: path.mkdir(), "folder"),
    (lambda path: path.symlink_to(path), "symlink loop"),
])
def test_special_files_are_refused_without_reading_them(tree, capsys, make, says):
    make(tree / "lessons" / "02-special.yaml")
    code, out = _validate(tree, capsys)
    assert code == 1 and "02-special.yaml:1:" in out and says in out, out
    assert "1 lessons" in out  # the good lesson still loads


def test_a_symlink_out_of_the_tree_is_reported_not_skipped_silently(tree, tmp_path, capsys):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(LESSON.replace("id: basics", "id: elsewhere", 1))
    (tree / "lessons" / "02-link.yaml").symlink_to(outside)
    code, out = _validate(tree, capsys)
    assert code == 1 and "02-link.yaml:1:" in out and "outside" in out, out


@pytest.mark.parametrize(("text", "says"), [
    ("released: 2024-02-30\n", "day is out of range"),
    ("2024-02-30: x\n", "day is out of range"),
    ("params: " + "9" * 5000 + "\n", "digits"),
])
def test_a_value_yaml_cannot_construct_is_one_path_line_problem(tree, capsys, text, says):
    path = _lesson_with(text, tree)
    line = len(path.read_text().splitlines())
    code, out = _validate(tree, capsys)
    assert code == 1 and f"02-bad.yaml:{line}: bad value" in out and says in out, out
    assert load_content([tree]).lessons.keys() == {"basics"}  # the app loads the rest


def test_lab_paths_outside_the_lab_are_refused_at_load(tree, capsys):
    lab = tree / "labs" / "01-demo" / "lab.yaml"
    lab.write_text(lab.read_text() + "files: [/etc/hostname]\n")
    text = lab.read_text()
    lab.write_text(text.replace("program: train.py", "program: ../../../../../../../../etc/passwd")
                   if "program: train.py" in text else text)
    content = load_content([tree])
    assert "demo" not in content.labs
    assert any("outside the lab folder" in problem.message for problem in content.problems)
    code, out = _validate(tree, capsys)
    assert code == 1 and "outside the lab folder" in out


@pytest.mark.parametrize(("vary", "says"), [
    ("{min: 1, max: 1.0e+300, step: 1.0e-300}", "more than"),
    ("{min: 1, max: .inf, step: 1}", "finite"),
])
def test_a_vary_range_the_engine_cannot_draw_from_is_a_problem(tree, capsys, vary, says):
    questions = tree / "questions" / "basics.yaml"
    text = questions.read_text()
    assert "vary:" in text or "given:" in text
    import yaml

    data = yaml.safe_load(text)
    question = next(item for item in data if item.get("given"))
    name = next(iter(question["given"]))
    question["vary"] = {name: yaml.safe_load(vary)}
    questions.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    code, out = _validate(tree, capsys)
    assert code == 1 and says in out, out


def test_escape_codes_in_content_never_reach_the_terminal(tree, monkeypatch, capsys):
    lesson = tree / "lessons" / "01-basics.yaml"
    lesson.write_text(lesson.read_text().replace("en: Sizing basics", 'en: "\\e[2J\\e]0;owned\\aSizing\\x9b basics"', 1))
    monkeypatch.setenv("TUTOR_CONTENT", str(tree))
    from tutor.content import load

    load.cache_clear()
    try:
        assert main(["lessons"]) == 0
    finally:
        load.cache_clear()
    out = capsys.readouterr().out
    assert "Sizing" in out
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
