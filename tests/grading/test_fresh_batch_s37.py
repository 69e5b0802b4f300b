"""What a fresh batch of answers, written blind to the rubrics (free_text_labs12 / free_text_mock13,
2026-12-06), found graded against its label on its tuning part, each with the near miss that must
still fail. Before the fixes every `right` case below was refused."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose
from tests.grading.labelled.cases import interview_step, interview_verdict


def _lab(name: str, answer: str) -> bool:
    return diagnose(name, answer)["correct"]


def _mock(target: str, answer: str) -> bool:
    return interview_verdict(target, answer).correct


FP8_RIGHT = [
    # the value is said of the thing nearest it: E4M3 of W, not of the dY further on
    "Forward operands in E4M3 because activations and weights need the extra mantissa bit; the gradient dY in E5M2 "
    "because gradients span a huge dynamic range. W stays E4M3 in dX = dY·W. Per-tensor scaling into each format's range.",
    # a modal between the parts is why the gradients do not take E4M3
    "E4M3 for the activations and the weights, E5M2 for the gradient, because E4M3 has more precision and E5M2 more "
    "range. With one scale per tensor, E4M3 would flush the small end of a gradient tensor to zero.",
]
FP8_WRONG = [
    "Forward operands in E4M3 because activations and weights need the extra mantissa bit, and E5M2 too for range. "
    "dY stays E4M3 in dX = dY·W. Per-tensor scaling into each format's range.",
    "E4M3 for the activations and the weights, E5M2 for the weights' range, and I would use E4M3 for the gradients "
    "because they need precision. Per-tensor scaling.",
]


@pytest.mark.parametrize("answer", FP8_RIGHT)
def test_fp8_formats_said_of_their_own_tensors_pass(answer):
    assert _lab("fp8-matmul", answer)


@pytest.mark.parametrize("answer", FP8_WRONG)
def test_fp8_gradients_in_e4m3_still_fail(answer):
    assert not _lab("fp8-matmul", answer)


def test_cuda_graphs_one_replay_is_the_replay():
    assert _lab("cuda-graphs", "Launch-bound (host side). Graph capture turns 192 launches into one replay; same "
                               "kernels, no gaps. Copy input into the static buffer, replay, clone the output.")
    assert not _lab("cuda-graphs", "Compute-bound: the kernels are big. Graph capture turns 192 launches into one replay.")


def test_long_batch_the_rest_is_a_clause_of_its_own():
    """"rank 1 at step 4, the rest in loss.backward()": the others were joined to rank 1's clause."""
    from tutor.labs.run_diagnosis import clauses

    assert clauses("rank 1 at step 4, the rest in loss.backward() waiting on it", ", ") == [
        "rank 1 at step 4", "the rest in loss.backward() waiting on it"]
    assert len(clauses("rank 0 and rank 1, both wait in recv", ", ")) == 1  # a bare subject still joins its verb


@pytest.mark.parametrize(("target", "answer", "right"), [
    # the alternative set aside is not claimed: "where the alternative is ... TP across nodes"
    ("i:followup-when-cp-pays-off/main",
     "CP pays off when activations are what breaks memory: long sequences of 32K to 128K, where even TP 8 with SP and "
     "selective recompute leaves too much per GPU, or where the alternative is full recompute or TP across nodes. It "
     "splits the sequence, each rank keeps its share of the activations, and the K/V exchange hides behind attention "
     "compute; at short sequences there is too little compute to hide it.", True),
    ("i:followup-when-cp-pays-off/main",
     "CP pays off at long sequences of 32K to 128K: TP goes across nodes first, then CP splits the sequence, and the "
     "K/V exchange hides behind attention compute; at short sequences there is too little compute to hide it.", False),
    # waiting longer changes nothing: the point said as the wait, not the timeout
    ("i:followup-raise-timeout/main",
     "- No: a timeout means a rank didn't enter the collective (or died); waiting longer doesn't change that.\n"
     "- Cost: default NCCL timeout is already 10 min; more means more idle GPU-hours per failure and fewer failures to "
     "learn from.\n- The timeout + flight recorder dump is the diagnostic; keep it, maybe shorten it.\n"
     "- Do: py-spy all ranks, flight recorder diff, TORCH_DISTRIBUTED_DEBUG=DETAIL; fix the root cause.", True),
    ("i:followup-raise-timeout/main",
     "Yes, raise it to an hour; waiting longer doesn't change the result, the job just stops failing and the GPUs keep "
     "training.", False),
])
def test_mock_answers_from_the_fresh_batch(target, answer, right):
    assert _mock(target, answer) is right


def test_a_terse_bullet_comparing_two_figures_is_a_statement():
    from tutor.grading.claims.clauses import read
    from tutor.grading.normalize import clean

    bullets = clean("- TP: 2 all-reduces fwd + 2 bwd per layer, blocking.\n- NVLink ~450 GB/s/dir/GPU vs IB ~50 "
                    "GB/s/GPU (~9×).\n- Node = 8 GPUs → TP ≤ 8.", 4000)
    nvlink = next(clause for clause in read(bullets, ()).clauses if "nvlink" in clause.fragments[0].text)
    assert not nvlink.bare
    # a run of terms with the figures in it stays one
    assert read(clean("TP NVLink IB domain node 50 vs 450 GB/s all-reduce per layer PP nodes DP overlap", 4000), ()).bare


@pytest.mark.parametrize(("lab", "answer", "right"), [
    # a state said of a rank is its predicate: "r1 still alive" is not a bare subject waiting for "r0 exited 0"
    ("exit-hang", "r1 still alive, r0 exited 0. uploader thread never gets the None stop item -> queue.get forever, "
                  "and python won't exit with a live non-daemon thread. close() is except-only; move it into finally "
                  "so it drains + joins on every path.", True),
    ("exit-hang", "r0 still alive, r1 exited 0. uploader thread never gets the None stop item -> queue.get forever, "
                  "and python won't exit with a live non-daemon thread. close() is except-only; move it into finally "
                  "so it drains + joins on every path.", False),
    ("exit-hang", "r1 still alive, r0 exited 0. The uploader is a daemon thread, so python does not wait for it. "
                  "close() is except-only; move it into finally so it drains + joins on every path.", False),
    # 另一张卡: the other one of two
    ("stalled-loader", "1号卡(负责写 cache 的那个)主线程卡在 next(batches),两个 worker 卡在 cache.lock(train.py:54);"
                       "另一张卡在 backward 里等 all_reduce。worker 是在后台写线程持锁期间 fork 出来的,锁的状态被复制了但"
                       "释放它的线程没有。修:持锁只做拷贝,写拷贝不持锁。", True),
    ("stalled-loader", "0号卡主线程卡在 next(batches),两个 worker 卡在 cache.lock(train.py:54);另一张卡在 backward 里等 "
                       "all_reduce。worker 是在后台写线程持锁期间 fork 出来的,锁的状态被复制了但释放它的线程没有。修:持锁只做"
                       "拷贝,写拷贝不持锁。", False),
])
def test_two_rank_runs_said_tersely(lab, answer, right):
    assert _lab(lab, answer) is right


_LAUNCH_EVIDENCE = (": thousands of tiny ops per step with gaps between them, and a .item() host sync per micro-batch. "
                    "Use one micro-batch of 16 and drop the per-step .item().")


@pytest.mark.parametrize(("category", "right"), [
    ("Launch-bound compute", True),
    ("It's launch-bound compute, not a straggler", True),
    # two categories hedged in one statement: the perf labs ask for exactly one (both passed before)
    ("It's either launch-bound compute or a straggler", False),
    ("Probably partly launch-bound compute and partly communication", False),
])
def test_exactly_one_category_even_in_a_long_clause(category, right):
    assert _lab("launch-bound", category + _LAUNCH_EVIDENCE) is right


@pytest.mark.parametrize(("answer", "right"), [
    ("1)澄清:dense、8192×H100、token 数(假设 15T)、seq 4K、deadline。2)memory:16 B/param → 6.4 TB。3)TP 8 机内 × PP 16 "
     "跨机 = 128 卡/份,DP 64 + distributed optimizer。", True),  # the layout without TP across nodes
    ("TP 16 跨机, PP 8 机内。", False),
    ("TP 8 across nodes and PP inside the node.", False),
])
def test_across_nodes_said_of_pp_is_not_tp_across_nodes(answer, right):
    """"TP 8 机内 × PP 16 跨机" was read as TP across nodes: 跨机 is said of PP."""
    from tutor.grading.claims.points import judge
    from tutor.grading.claims.clauses import read
    from tutor.grading.normalize import clean
    from tutor.grading.rubric import stating

    scenario, step = interview_step("i:led-dense-400b/main")
    layout = next(point for point in step.points if point.id == "layout")
    contradiction = judge(layout, stating(read(clean(answer, 4000), ()))).contradiction
    assert (contradiction is not None and contradiction.id == "tp-across-nodes") is not right


