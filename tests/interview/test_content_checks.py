"""`tutor validate` on interview content: the shipped files pass; each kind of mistake is named with its line."""

from __future__ import annotations

import shutil

import pytest

from tutor.content.loader import load_content
from tutor.interview.content_checks import check_interview


def _problems(root) -> list[str]:
    found = check_interview(load_content([root]))
    return [f"{problem.path.name}:{problem.line}: {problem.message}" for problem in found]


def test_the_fixture_passes(interview_content):
    assert _problems(interview_content) == []


def test_the_shipped_interview_content_passes(monkeypatch):
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    monkeypatch.setenv("TUTOR_CONTENT", str(repo))
    assert _problems(repo) == []


BROKEN = [
    ("- id: fixture-pitch\n", "- id: memory-total\n", "scenario id 'memory-total' is also a bank question"),
    ("- question: design-small\n", "- question: design-huge\n", "unknown bank question 'design-huge'"),
    ("- question: design-small\n", "- question: memory-total\n", "has one step; the design format asks a multi-step"),
    ('      - {rank: 2, stack: "Thread 102', '      - {rank: 9, stack: "Thread 102',
     "exhibit.stacks must list ranks 0..7 once each, in order"),
    ("The GPU idles 41% of", "The GPU idles {idle} of", "{idle} in the en exhibit is not an input"),
    ("  topics: [hangs, slow-training]\n", "", "a follow-up needs `topics`"),
    ("formula: mfu_from_tokens", "formula: mfu_from_vibes", "unknown engine formula 'mfu_from_vibes'"),
    ("  section: basics/hangs\n  tags: [hangs]\n  source: fixture\n  exhibit:",
     "  section: basics/nowhere\n  tags: [hangs]\n  source: fixture\n  exhibit:", "has no section 'nowhere'"),
    ("  format: pitch\n", "  format: followup\n  topics: [memory]\n", "nothing to ask in the 'pitch' format"),
    ("  format: pitch\n", "  format: quiz\n", "format: input should be"),
    ("  structure: [clarify, memory, layout]\n", "  structure: [clarify, memory, numbers]\n",
     "structure names 'numbers', which is not a point of the open step"),
    ("  structure: [clarify, memory, layout]\n", "", "a candidate-led round needs `structure`"),
    ("  format: behavioural\n", "  format: behavioural\n  probes: strong\n", "`probes` is for follow-ups"),
    ("  format: behavioural\n", "  format: behavioural\n  structure: [situation]\n",
     "`structure` is for candidate-led rounds"),
]


@pytest.mark.parametrize(("old", "new", "message"), BROKEN, ids=[case[2][:40] for case in BROKEN])
def test_each_mistake_is_reported_with_its_line(interview_content, tmp_path, old, new, message):
    root = tmp_path / "content"
    shutil.copytree(interview_content, root)
    path = root / "interview" / "formats.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    found = _problems(root)
    assert any(message in problem for problem in found), found
    assert all(problem.split(":")[1].isdigit() for problem in found)


def test_an_interview_file_must_be_a_list(interview_content, tmp_path):
    root = tmp_path / "content"
    shutil.copytree(interview_content, root)
    (root / "interview" / "extra.yaml").write_text("id: not-a-list\n", encoding="utf-8")
    assert "extra.yaml:1: an interview file is a YAML list of scenarios and references" in _problems(root)


def test_content_without_an_interview_folder_is_not_checked(fixture_content):
    assert _problems(fixture_content) == []
