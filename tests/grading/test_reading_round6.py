"""Reader rules of round 6 (2026-12-03, session 35), each general over rubrics: a quoted reading turned
down ("…" No.) states nothing, and a later item of a comparison's object is compared, not asserted. Each
rule comes with the answers that must still fail: the quoted reading agreed with, and the same words
said as a plain statement. Written by hand, none from the labelled benchmark."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.claims.clauses import read
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
SMI, CP, TP = "followup-nvidia-smi", "followup-when-cp-pays-off", "followup-why-not-bigger-tp"


def _mock(scenario: str, answer: str):
    return grade(library().question(scenario), answer, None, 0)


CASES = [
    # a quoted reading turned down is not the candidate's claim
    (SMI, 'The naive reading is "100% utilization means the tensor cores are saturated." Wrong. The counter only says '
          "some kernel was running in each sample; a stream of tiny kernels or an NCCL kernel spinning on an exposed "
          "all-reduce keeps it at 100%. MFU counts the model's useful FLOPs against peak, so trust MFU and open a trace.",
     RIGHT),
    (SMI, "新人常说“100% 就是算力打满了”。不对。nvidia-smi 的 utilization 只是采样时间里有 kernel 在跑的比例，一串很小的 kernel "
          "或者等通信的 NCCL kernel 都会显示 100%，tensor core 其实大部分时间空着。MFU 才是有用 FLOPs 占峰值的比例，要看 MFU 和 trace。",
     RIGHT),
    # ... agreed with, or said plainly, it is still the wrong reading
    (SMI, '"100% utilization means the tensor cores are saturated." Yes, that is how I read it: the GPUs are maxed out, '
          "so the low MFU must be a measurement error.", WRONG),
    (SMI, "100% utilization means the tensor cores are saturated. The GPUs are maxed out, so the low MFU must be a "
          "measurement error.", WRONG),
]


@pytest.mark.parametrize(("scenario", "answer", "right"), CASES)
def test_round6_readings(scenario, answer, right):
    assert _mock(scenario, answer).correct is right


@pytest.mark.parametrize(("text", "kept"), [
    ('The tempting read: "TP goes across nodes." No. TP stays on NVLink.', "tp stays on nvlink"),
    ("“TP 可以跨机”——不对，TP 要留在机内。", "tp 要留在机内"),
])
def test_a_quoted_reading_turned_down_states_nothing(text, kept):
    fragments = [fragment.text for clause in read(text).clauses for fragment in clause.fragments]
    assert any(kept in fragment for fragment in fragments)
    assert not any("across" in fragment or "跨机" in fragment for fragment in fragments)


def test_a_quoted_reading_agreed_with_is_still_read():
    fragments = [fragment.text for clause in read('"TP goes across nodes." Exactly.').clauses for fragment in clause.fragments]
    assert any("tp goes across nodes" in fragment for fragment in fragments)


@pytest.mark.parametrize(("answer", "contradicted"), [
    # a later item of the comparison's object is compared, not put across nodes
    ("For long sequences CP is cheaper than full recompute or pushing TP past the node: it splits the sequence so each "
     "GPU keeps a share of the activations, and the K/V exchange hides behind attention.", False),
    # said on its own, TP past the node is still the contradiction
    ("For long sequences, push TP past the node to 16 instead of using CP.", True),
])
def test_a_comparisons_later_item_is_not_asserted(answer, contradicted):
    verdict = _mock(CP, answer)
    assert bool(verdict.details["contradicted"]) is contradicted


HANG = "behavioural-hang-story"
STORY_END = (" I dumped all eight ranks: seven in backward, and rank 5's process was gone; its log ended in a CUDA OOM on a "
             "batch with one 32K-token packed sequence. Cause: a dead rank with nothing to tear the job down. Fix: capped "
             "tokens per micro-batch and turned on srun --kill-on-bad-exit. Since then an OOM kills the job in seconds "
             "instead of hanging for ten minutes.")


@pytest.mark.parametrize(("answer", "right"), [
    # a predicate cut from its subject by a relative clause is read with the subject, not alone
    ("Situation: a 34B run on srun froze at the same step every time. The tempting move, which a teammate had already "
     "done, was to raise the NCCL timeout; it just made us wait longer." + STORY_END, RIGHT),
    # ... where the subject is the speaker, the raise is still the candidate's action
    ("Situation: a 34B run on srun froze at the same step every time. My first move, which took a minute, was to raise "
     "the NCCL timeout to an hour, and that was the fix: the run got past the step.", WRONG),
])
def test_a_predicate_after_a_relative_clause_keeps_its_subject(answer, right):
    assert _mock(HANG, answer).correct is right
