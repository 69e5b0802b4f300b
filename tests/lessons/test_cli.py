"""`tutor lesson` and `tutor lessons` from the command line (subprocesses, as a learner runs them)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_tutor

pytestmark = pytest.mark.timeout(60)


def test_lesson_in_chinese_prints_rendered_markdown():
    result = run_tutor("lesson", "recipe", "--lang", "zh")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# 拼出完整配置")
    assert "约 43 天" in result.stdout and "{{" not in result.stdout
    assert "`tutor lesson choosing-config`" in result.stdout


def test_one_section_as_json():
    result = run_tutor("lesson", "recipe", "--section", "trillion-design", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert [section["id"] for section in payload["sections"]] == ["trillion-design"]
    assert payload["figures"]["t_days"]["text"] == "43 days"
    assert payload["figures"]["t_days"]["formula"] == "train_days"
    assert payload["figures"]["h100_mem"]["source"].startswith("facts.md")
    assert set(payload["figures"]) == set(payload["sections"][0]["figures"])


def test_unknown_lesson_is_one_line_and_exit_2():
    result = run_tutor("lesson", "recipie")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["tutor: no lesson 'recipie'; did you mean 'recipe'?"]


def test_lessons_lists_the_main_lesson_and_its_deep_dives():
    result = run_tutor("lessons", "--json")
    assert result.returncode == 0, result.stderr
    lessons = json.loads(result.stdout)["lessons"]
    assert lessons[0]["id"] == "recipe" and lessons[0]["kind"] == "lesson"
    assert sum(lesson["kind"] == "deep-dive" for lesson in lessons) == 5
