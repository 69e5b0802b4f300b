"""Mystery mode's neutral program: nothing in it names the scenario, it keeps the drawn values,
and an answer that uses its neutral names is graded like one that uses the lab's own names."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from tutor.labs import mystery
from tutor.labs.catalog import get_lab
from tutor.labs.neutral import SHARED_FLAGS, neutralise, restore

EVIDENCE = Path(__file__).resolve().parents[1] / "grading" / "labelled" / "evidence"
SCENARIOS = sorted(mystery.scenarios())


def _cases(lab: str) -> list[mystery.Mystery]:
    cases = [case for case in (mystery.draw(seed) for seed in range(200)) if case.lab == lab]
    assert cases, lab
    return cases[:3]


def _own_names(source: str) -> set[str]:
    tree = ast.parse(source)
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    return names - {"main", "parse"}


def _comments_and_docstrings(source: str) -> list[str]:
    found = [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            found.append(ast.get_docstring(node))
    return found


def _defaults(source: str) -> dict[str, str]:
    """--flag -> the default its add_argument gives, read from the syntax tree (nothing is run)."""
    defaults = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
            for keyword in node.keywords:
                if keyword.arg == "default" and isinstance(keyword.value, ast.Constant):
                    defaults[node.args[0].value] = keyword.value.value
    return defaults


@pytest.mark.parametrize("lab", SCENARIOS)
def test_the_neutral_program_names_nothing_of_its_scenario(lab, tutor_home):
    original = get_lab(lab).program.read_text()
    functions = _own_names(original)
    flags = set(re.findall(r'"(--[a-z-]+)"', original)) - SHARED_FLAGS
    assert functions and flags, lab
    for case in _cases(lab):
        neutral = mystery.neutral_program(case)
        compile(neutral.source, "train.py", "exec")
        assert not _comments_and_docstrings(neutral.source)
        # Identifiers: a checkpoint's "data_positions" key is what the program writes, not a name.
        identifiers = {token.string for token in tokenize.generate_tokens(io.StringIO(neutral.source).readline)
                       if token.type == tokenize.NAME}
        assert not functions & identifiers, (lab, functions & identifiers)
        assert not {flag for flag in flags if flag in neutral.source}, lab
        assert lab not in neutral.source and lab not in json.dumps(case.public())
        assert all(arg in SHARED_FLAGS or not arg.startswith("--") for arg in neutral.args)
        # Every drawn value reaches the program: as a kept flag, or as its neutral flag's default.
        defaults = _defaults(neutral.source)
        for flag, value in zip(case.args[::2], case.args[1::2]):
            if flag in SHARED_FLAGS:
                assert neutral.args[neutral.args.index(flag) + 1] == value
            else:
                knob = "--" + next(new for new, old in neutral.names.items() if old == flag[2:].replace("-", "_"))
                assert defaults[knob.replace("_", "-")] == value
        path = mystery.spec(case).program
        assert path.read_text() == neutral.source and lab not in str(path)


@pytest.mark.parametrize("lab", SCENARIOS)
def test_an_answer_in_the_neutral_names_grades_like_one_in_the_labs_names(lab, tutor_home):
    # Today's rubrics place the culprit from the evidence and read the call by its collective, so
    # they pass either way; this holds the line for a rubric that comes to lean on a function name.
    evidence = json.loads((EVIDENCE / f"{lab}.json").read_text())
    case = _cases(lab)[0]
    names = mystery.neutral_program(case).names
    to_neutral = {old: new for new, old in names.items()}
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, sorted(to_neutral, key=len, reverse=True))) + r")(?![A-Za-z0-9_])")
    for lang in ("en", "zh"):
        answer = " ".join(item.model_answer.get(lang) for item in get_lab(lab).lab.diagnosis)
        neutral_answer = pattern.sub(lambda match: to_neutral[match.group(1)], answer)
        assert restore(neutral_answer, names) == answer
        assert mystery.grade(case, neutral_answer, evidence, lang) == mystery.grade(case, answer, evidence, lang)


def test_restore_maps_whole_names_only_and_next_to_chinese():
    names = {"part_1": "data_positions", "part_12": "save_checkpoint"}
    assert restore("停在part_12里，part_1 之后; part_123 不是", names) == "停在save_checkpoint里，data_positions 之后; part_123 不是"
    assert restore("nothing to map", {}) == "nothing to map"


def test_drawn_values_become_defaults_under_neutral_flags():
    source = '''"""Names the bug."""
import argparse
LIMIT = 3  # tells


def parse(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--save-every", type=int, default=5, help="names it too")
    return parser.parse_args(argv)


def save_checkpoint(args):
    """Tells."""
    return {"save_every": args.save_every, "limit": LIMIT}
'''
    neutral = neutralise(source, ("--steps", "9", "--save-every", "4"))
    assert neutral.args == ("--steps", "9")
    assert "save" not in neutral.source and "LIMIT" not in neutral.source and "help" not in neutral.source
    assert _defaults(neutral.source) == {"--steps": 12, "--knob-1": "4"}
    namespace: dict = {}
    exec(compile(neutral.source, "neutral", "exec"), namespace)  # the test's own source, not learner text
    args = namespace["parse"](list(neutral.args))
    assert (args.steps, args.knob_1) == (9, 4)
    assert namespace["part_1"](args) == {"knob_1": 4, "limit": 3}

