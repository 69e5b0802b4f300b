"""`tutor validate` catches undeclared placeholders, unknown formulas and figures that do not render."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import REPO, run_tutor
from tutor.content.loader import load_content
from tutor.content.validate import validate

BAD = Path(__file__).resolve().parent / "fixtures" / "bad-figures"


def messages() -> list[str]:
    return [problem.message for problem in validate(load_content([BAD]))]


def test_an_undeclared_placeholder_is_reported():
    assert any("{{not_declared}} in the en text is not declared" in message for message in messages())


def test_an_unknown_formula_is_reported_with_the_closest_name():
    found = [message for message in messages() if "'typo_formula'" in message]
    assert found and any("model_state_byts" in message and "model_state_bytes" in message for message in found)


@pytest.mark.parametrize(("name", "reason"), [
    ("missing_input", "pp"),
    ("wrong_unit", "GB"),
    ("unknown_unit", "gigabytes"),
])
def test_a_figure_that_does_not_render_is_reported(name: str, reason: str):
    found = [message for message in messages() if f"figure {name!r} does not render" in message]
    assert len(found) == 1 and reason in found[0]


def test_a_figure_no_section_shows_is_reported():
    assert "figure 'never_shown' is declared but no section shows it" in messages()


@pytest.mark.timeout(60)
def test_the_command_prints_path_and_line_and_fails():
    result = run_tutor("validate", str(BAD.relative_to(REPO)))
    assert result.returncode == 1 and result.stderr == ""
    assert "lessons/01-bad.yaml:6: figure 'typo_formula' does not render" in result.stdout


def test_the_real_lessons_validate_cleanly():
    content = load_content([REPO])
    lesson_paths = {loaded.path for loaded in content.lessons.values()}
    assert [str(problem) for problem in validate(content) if problem.path in lesson_paths] == []
