"""Mock stages against near misses and right answers written by hand as a hostile candidate would
(2026-12-02; none from the labelled benchmark): agreeing with the colleague and raising the timeout,
the memory of 1F1B put on m, and the bubble as a share of the whole step ((p − 1)/(m + p − 1), under
a fifth at m = 4p). Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.claims.folding import fold
from tutor.grading.claims.matching import pattern
from tutor.grading.dispatch import grade
from tutor.grading.normalize import LONG_LIMIT, clean

RIGHT, WRONG = True, False
TIMEOUT, M4P = "followup-raise-timeout", "followup-why-m-4p"

CASES = [
    (TIMEOUT, None, "I'd agree: the default 10 minutes is too short for big jobs, so raising it to an hour fixes the "
                    "timeout, and we can check with py-spy later if it still hangs.", WRONG),
    (TIMEOUT, None, "Good idea, bump it to 2 hours; most hangs are slow checkpoints, and if it still hangs we dump the "
                    "flight recorder.", WRONG),
    (TIMEOUT, None, "同意同事的建议，timeout调到2小时就不会报错了，真hang了再py-spy看。", WRONG),
    (TIMEOUT, None, "I agree it makes the error go away, but it's not the fix: the timeout is the symptom of a rank "
                    "missing from the collective, a longer one only waits longer while the cluster idles. Keep it "
                    "short, dump the flight recorder on timeout, fix the missing rank.", RIGHT),
    (M4P, None, "m ≥ 4p keeps the pipeline bubble (p−1)/m around 25%. Also 1F1B needs at least 4p micro-batches in "
                "flight per stage, so memory grows with m — you trade memory for bubble.", WRONG),
    (M4P, None, "Because the bubble is (p-1)/(m+p-1), and m ≥ 4p brings it under 20%. Going higher keeps shrinking "
                "it, but each micro-batch gets smaller, so the GPU runs less efficient kernels; 4p is the knee.", RIGHT),
    (M4P, None, "The bubble is (p-1)/m of the step, so at m = 4p it is under a quarter. Memory does not grow with m "
                "under 1F1B: at most p micro-batches are in flight.", RIGHT),
    (M4P, None, "The bubble is (p−1)/(m·p), so with m = 4p and p = 16 it is 15/1024, about 1.5%: negligible.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right


@pytest.mark.parametrize(("phrase", "text", "found"), [
    ("1/4", "we use 14 gpus", False),
    ("1/5", "it is 15/1024", False),
    ("1/4", "about 1/4 of the step", True),
    ("all reduce", "the allreduce waits", True),
])
def test_two_numbers_of_a_phrase_never_run_together(phrase, text, found):
    assert bool(pattern(phrase).search(fold(clean(text, LONG_LIMIT)))) is found


@pytest.mark.parametrize(("scenario", "answer"), [
    # a negation in the first half of an "and" does not reach a second half with a subject of its own
    ("hang-uneven-batches", "The job hangs because the dataset size isn't divisible evenly and rank 3 simply got one "
                            "batch fewer, so it left the training loop early and waits in the barrier while the others "
                            "wait in the all-reduce."),
    # "don't just X" dismisses X as a fix; it is not "not only X but Y"
    ("followup-moving-hang", "Don't just raise the timeout or restart on the same nodes: a hang that moves between "
                             "steps and ranks points at a flaky node or link. Map each run's missing rank to its node "
                             "with the flight recorder; if it's the same node, drain it."),
])
def test_negations_that_reach_only_their_own_half(scenario, answer):
    model = library().question(scenario)
    step = "why" if len(model.steps) > 1 else None
    assert grade(model, answer, step).correct


@pytest.mark.parametrize(("phrase", "text", "found"), [
    # a silent e goes before -ing: "replacing", "using", "tokenizing"
    ("replace", "after replacing 213's node", True),
    ("use", "using bf16 everywhere", True),
    ("tokenize", "tokenizing every document", True),
    ("replace", "it was replaced", True),
    # not a short word's: "the" is not "thing", "are" not "aring"
    ("the", "one thing at a time", False),
    ("free", "freeing the buffers", True),
])
def test_a_verb_with_a_silent_e_is_found_with_ing(phrase, text, found):
    assert bool(pattern(phrase).search(fold(clean(text, LONG_LIMIT)))) is found


def test_a_replacement_said_before_its_effect_is_the_fix():
    model = library().question("debug-straggler")
    answer = "After replacing 213's node, rank 0 and rank 212 should stop waiting in the reduce-scatter; re-measure MFU to confirm."
    assert grade(model, answer, "next").correct


@pytest.mark.parametrize(("answer", "right"), [
    # advice under a condition is advice: its wrong fixes are read as said
    ("Start with memory, 16 bytes a parameter. TP 8 inside the node, PP across nodes, interleaved; rest is DP with "
     "distributed optimizer; FP8 and overlap for ~40% MFU. If it's slow add more GPUs; if it hangs, raise the NCCL "
     "timeout and restart from the checkpoint.", WRONG),
    ("Memory first: 16 bytes a parameter. TP 8 inside the node, PP across nodes with m ≥ 4p, the rest DP with ZeRO-1; "
     "overlap the communication, FP8, about 40% MFU. If it's slow, find the cause with a trace before adding anything; "
     "if it hangs, dump the flight recorder and find the missing rank.", RIGHT),
])
def test_advice_under_a_condition(answer, right):
    assert grade(library().question("pitch-recipe"), answer, None).correct is right


def test_a_supposition_is_still_no_claim():
    from tutor.grading.claims.matching import _asserted

    text = "if tp went across nodes every layer would wait"
    assert not _asserted(text, [(3, 5), (11, 23)], False)
    text = "if it hangs raise the nccl timeout"
    assert _asserted(text, [(12, 17), (27, 34)], False)


def test_a_wrong_figure_inside_a_list_is_still_said():
    # "时间：6ND 除以 8000 × 989T × 90% MFU" is read as a list of terms, which earns nothing; its 90% MFU is still said
    answer = ("先问 token 数、截止时间和互联。显存：每参数 16 字节，400B 就是 6.4 TB。并行：TP 8 机内，PP 跨机，剩下 DP。"
              "时间：6ND 除以 8000 × 989T × 90% MFU，大概 20 天。可靠性：分片异步 checkpoint、自动重启。监控 loss 和 step time。")
    assert not grade(library().question("led-dense-400b"), answer, None).correct


def test_an_adjective_with_bu_is_no_negation_cue():
    # "不固定的 hang" is a varying hang (jieba cuts 不|固定): its 不 does not cancel the 不是 after it as a double negative
    answer = ("换了思路：不固定的 hang 一般不是代码问题，而是某块 GPU 或者 IB 链路不稳。先找出每次卡住的 rank 在哪台机器上，"
              "如果总是同一台，就拿 nccl-tests 测一下，确认后把它踢出去，从最近的 checkpoint 继续。")
    assert grade(library().question("followup-moving-hang"), answer, None).correct
    wrong = "换了思路：不固定的 hang 一般就是代码问题，某个 rank 有竞态。把 NCCL timeout 调大再重跑。"
    assert not grade(library().question("followup-moving-hang"), wrong, None).correct


@pytest.mark.parametrize(("text", "folded"), [
    # a thousands separator joins its number: "1,300 days" is not "300 days"
    ("8,000 H100s", "8000 h100 s"),
    ("roughly 1,300 days", "roughly 1300 days"),
    ("1,000,000 tokens", "1000000 tokens"),
    # a list of numbers stays a list
    ("ranks 1,2,3", "ranks 1 3"),
    ("sizes 9,10,7", "sizes 9 10 7"),
])
def test_a_thousands_separator_joins_its_number(text, folded):
    assert fold(text) == folded


def test_a_figure_with_a_thousands_separator_is_read_whole():
    answer = ("First I'd ask for the token budget, the deadline and the interconnect. Memory: 16 bytes a parameter, "
              "6.4 TB of state. Layout: TP 8 inside each node, PP 16 across nodes, the rest DP with the distributed "
              "optimizer. Time: 6ND over {gpus} H100s at 40% MFU is roughly {days} days. Reliability: sharded async "
              "checkpoints every 30 minutes, automatic restart, spare nodes.")
    model = library().question("led-dense-400b")
    assert grade(model, answer.format(gpus="8,000", days="1,300"), None).score == \
        grade(model, answer.format(gpus="8000", days="1300"), None).score


def test_a_story_whose_cause_is_a_guess_is_refused():
    answer = ("Our 128-GPU run hung at step 4k, NCCL timeout. py-spy on every rank: all in the same all-reduce, so it was "
              "a bad link somewhere, probably. We restarted on other nodes and it ran again in an hour; added an alert.")
    assert not grade(library().question("behavioural-hang-story"), answer, None).correct
