"""The stage pasted back earns nothing: its question and the exhibit shown with it (measurements, logs,
py-spy dumps), in either language, for every open step of the mock interview. The exhibit's log lines
hold the very words of a diagnosis ("[rank5] torch.OutOfMemoryError … step 3072"): read clause by
clause they stated three of hang-oom-dead-rank's four points and the paste passed at 0.83. An answer that
quotes the same lines and says what they mean still passes."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tests.content.test_mock_rubrics import _open_steps
from tutor.grading.dispatch import grade
from tutor.grading.variant import draw
from tutor.interview.present import exhibit_markdown, step_markdown


def test_no_stage_pasted_back_earns_anything():
    passing = []
    for question, step_id in _open_steps():
        step = next(step for step in question.steps if step_id is None or step.id == step_id)
        variant = draw(question, 0)
        for lang in ("en", "zh"):
            for text in (step_markdown(question, step, variant, lang), exhibit_markdown(question, variant, lang)):
                if not text:
                    continue
                verdict = grade(question, text, step_id)
                if verdict.correct or verdict.score > 0.2:
                    passing.append(f"{question.id}/{step.id} {lang}: {verdict.score:.2f}")
    assert not passing, passing


LOG = ("[rank5] step 3072 batch: 4 packed sequences, longest 32768 tokens\n"
       "[rank5] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.00 GiB.\n")


@pytest.mark.parametrize(("answer", "right"), [
    (LOG + "So rank 5 died of OOM on that 32K-token batch; the other seven sit in backward waiting on the "
           "all-reduce and srun has no agent to kill them. The data order is fixed, so the same batch reaches "
           "rank 5 at step 3072 every run.", True),
    (LOG + "srun: error: node017: task 5: Exited with exit code 1", False),
])
def test_evidence_quoted_with_its_meaning_is_an_answer(answer, right):
    verdict = grade(library().question("hang-oom-dead-rank"), answer, "why")
    assert verdict.correct is right, (verdict.score, verdict.details)
