"""`tutor validate` rejects questions that cannot be graded (issue 4 Done-when), with the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_tutor
from tutor.content.loader import load_content
from tutor.content.validate import validate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "content"
LESSON = (FIXTURE / "lessons" / "drill.yaml").read_text(encoding="utf-8")

GOOD_NUMERIC = """\
- id: {id}
  title: {{en: t, zh: t}}
  prompt: {{en: "{{params}}", zh: "{{params}}"}}
  section: drill/memory
  tags: [t]
  source: test
  given: {{params: 70B, tp: 4, pp: 4}}
  vary: {{params: {{choices: [8B, 70B]}}}}
  steps:
    - kind: numeric
      answer: {{formula: {formula}, inputs: {inputs}, unit: {unit}{tolerance}}}
"""


def problems(tmp_path: Path, questions: str) -> list[str]:
    (tmp_path / "lessons").mkdir()
    (tmp_path / "questions").mkdir()
    (tmp_path / "lessons" / "drill.yaml").write_text(LESSON, encoding="utf-8")
    (tmp_path / "questions" / "q.yaml").write_text(questions, encoding="utf-8")
    return [str(problem) for problem in validate(load_content([tmp_path]))]


def numeric(formula="model_state_per_gpu", inputs="{params: params, tp: tp, pp: pp}", unit="GB",
            tolerance=", tolerance: 0.05", question_id="q") -> str:
    return GOOD_NUMERIC.format(id=question_id, formula=formula, inputs=inputs, unit=unit, tolerance=tolerance)


def test_a_good_question_has_no_problem(tmp_path):
    assert problems(tmp_path, numeric()) == []


def test_fixture_bank_is_clean():
    assert [str(problem) for problem in validate(load_content([FIXTURE]))] == []


@pytest.mark.parametrize(("question", "message", "line"), [
    (numeric(formula="no_such_formula"), "unknown engine formula 'no_such_formula'", 11),
    (numeric(inputs="{params: params}"), "cannot be computed", 11),
    (numeric(inputs="{params: params, tp: tp, pp: pp, dp: 2}"), "does not take dp", 11),
    (numeric(inputs="{params: -5, tp: tp, pp: pp}"), "cannot be computed", 11),
    (numeric(tolerance=""), "missing required key 'tolerance'", 11),
    (numeric(unit="days"), "unit 'days' cannot show model_state_per_gpu", 11),
    (numeric(unit="furlongs"), "unit 'furlongs' is not one the engine shows", 11),
    (numeric().replace("zh: t}", "}", 1), "missing zh text", 2),
    (numeric().replace("  vary: {params: {choices: [8B, 70B]}}\n", ""), "must be parametric", 1),
    (numeric().replace('zh: "{params}"', 'zh: "{params} {tp}"'), "en and zh prompts use different inputs", 3),
])
def test_ungradable_questions_are_rejected_with_their_line(tmp_path, question, message, line):
    found = problems(tmp_path, question)
    assert any(message in problem for problem in found), found
    assert any(problem.split(":")[1] == str(line) for problem in found if message in problem), found


def test_undeclared_mistake_needs_feedback(tmp_path):
    question = numeric() + "      mistakes: [{id: my-own}]\n"
    assert any("needs feedback" in problem for problem in problems(tmp_path, question))


@pytest.mark.timeout(60)
def test_cli_validate_exits_1_and_names_the_file(tmp_path):
    problems(tmp_path, numeric(formula="no_such_formula"))
    result = run_tutor("validate", str(tmp_path))
    assert result.returncode == 1 and "q.yaml:11: unknown engine formula" in result.stdout
    assert "Traceback" not in result.stderr
