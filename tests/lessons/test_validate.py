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


@pytest.mark.parametrize(("name", "words"), [
    ("typo_formula", ("unknown formula 'model_state_byts'", "model_state_bytes")),
    ("missing_input", ("model_state_per_gpu", "pp")),
    ("wrong_unit", ("fraction", "'GB'")),
    ("unknown_unit", ("unknown unit 'gigabytes'",)),
    ("fact_in_unknown_unit", ("does not render", "fortnights")),
    ("fact_shown_as_bytes", ("does not render", "days", "GB")),
])
def test_each_figure_that_cannot_be_shown_is_reported_once(name: str, words: tuple[str, ...]):
    found = [message for message in messages() if f"figure {name!r}" in message]
    assert len(found) == 1, found
    assert all(word in found[0] for word in words), found[0]


def test_a_figure_no_section_shows_is_reported():
    assert "figure 'never_shown' is declared but no section shows it" in messages()


@pytest.mark.timeout(60)
def test_the_command_prints_path_and_line_and_fails():
    result = run_tutor("validate", str(BAD.relative_to(REPO)))
    assert result.returncode == 1 and result.stderr == ""
    assert "lessons/01-bad.yaml:7: figure 'typo_formula': unknown formula" in result.stdout


def test_the_real_lessons_validate_cleanly():
    content = load_content([REPO])
    lesson_paths = {loaded.path for loaded in content.lessons.values()}
    assert [str(problem) for problem in validate(content) if problem.path in lesson_paths] == []
