"""An English answer is graded without loading jieba (~1.7 CPU-s for its dictionary on every
`tutor check` of an open question, because the question's Chinese prompt was segmented to tell a
copied-back question); a Chinese answer still loads it."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROGRAM = """
import sys
from tutor.content import load
from tutor.grading.dispatch import grade
question = load().questions["why-dp-outermost"]
question = getattr(question, "model", question)
verdict = grade(question, sys.argv[1], question.steps[0].id)
print(verdict.correct, "jieba" in sys.modules)
"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("answer", "loaded"), [
    ("DP goes outermost: one gradient all-reduce per step, overlapped with backward", "False"),
    ("DP 放最外层：每步只做一次梯度 all-reduce，和反向重叠", "True"),
])
def test_jieba_is_loaded_for_chinese_answers_only(answer, loaded):
    result = subprocess.run([sys.executable, "-c", PROGRAM, answer], capture_output=True, text=True, timeout=50)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", loaded]
