"""What round 14's fresh batches, written blind to the rubrics (free_text_mock14 / free_text_labs13,
2026-12-06), found graded against their labels on their tuning parts, each with the near miss that
must still fail. Before the fixes every `right` case below was refused (or, for a `wrong` one, passed)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose
from tests.grading.labelled.cases import interview_step, interview_verdict


def _lab(name: str, answer: str) -> bool:
    return diagnose(name, answer)["correct"]


def _point(target: str, point_id: str, answer: str):
    """The judgement of one point, as an open step reads it (self-answered questions as labels)."""
    from tutor.grading.claims.clauses import read
    from tutor.grading.claims.points import judge
    from tutor.grading.claims.self_answered import as_labels
    from tutor.grading.rubric import stating

    _, step = interview_step(target)
    point = next(point for point in step.points if point.id == point_id)
    return judge(point, stating(read(as_labels(answer))))


STRAGGLER_QA = ("Who? rank 213, last into every reduce-scatter. Why? its node's GPUs throttle (low clocks under load), "
                "compute ~14.7 s vs ~11 s. Next? confirm the throttle reason with nvidia-smi/DCGM, drain the node, spare "
                "in, resume. Worked? RS wait ~1% on all ranks, step 16 -> ~12 s, ~340K tok/s.")
CHECKPOINT_QA = ("who? rank 0, the only stack that's different. where? all_gather <- gather_full_state (ckpt.py:41) <- "
                 "save_checkpoint (ckpt.py:67) <- train.py:188. and the rest? ranks 1–7 are at train.py:181 -> train_step "
                 "-> backward, i.e. they never entered the save and are already in the next step, blocked on DDP's "
                 "bucketed gradient all-reduce. why 1200? the save is step-triggered and 1200 is the first step where "
                 "the condition is true.")


@pytest.mark.parametrize(("target", "answer", "right"), [
    # a question asked and answered at once is the label of its answer
    ("i:debug-straggler/next", STRAGGLER_QA, True),
    ("i:debug-straggler/next", STRAGGLER_QA.replace("drain the node, spare in", "drain rank 212's node, spare in"), False),
    ("i:hang-checkpoint-rank0/why", CHECKPOINT_QA, True),
    ("i:hang-checkpoint-rank0/why", CHECKPOINT_QA.replace("they never entered the save", "rank 0 skipped the all_gather"),
     False),
    # a question in brackets glosses its sentence
    ("i:followup-nvidia-smi/main", "Util is time-based (was any kernel running?), MFU is work-based (model FLOPs / 989 TF "
                                   "peak). A GPU busy with elementwise ops or NCCL waits is \"busy\", not productive.", True),
    ("i:followup-nvidia-smi/main", "Util means the tensor cores are fully used (are they?), so MFU must be wrong.", False),
    # "instead of 10" rejects the 10, not the cost said after it; "ends the same way" is a longer wait that changes nothing
    ("i:followup-raise-timeout/main",
     "I'd push back. No healthy collective comes near 10 minutes, so when it fires the job isn't slow, it's deadlocked: a "
     "rank died, or it's sitting in a different collective. Letting a 1,024-GPU job sit 60 minutes instead of 10 costs "
     "about 850 GPU-hours per incident and ends exactly the same way.", True),
    ("i:followup-raise-timeout/main", "Sure, raise it to 60 minutes instead of 10; the rank will eventually arrive.", False),
    # terse shapes of the exposed-communication check and cause
    ("i:debug-exposed-communication/next", "加上--overlap-grad-reduce和--overlap-param-gather(distributed optimizer已经开了)。"
                                           "重录trace:backward后面那27%裸跑的NCCL缩到几个点,step 13s→~10s。", True),
    ("i:debug-exposed-communication/next", "加上--tp-comm-overlap。重录trace:backward后面那27%裸跑的NCCL缩到几个点。", False),
    ("i:hang-checkpoint-rank0/why",
     "看py-spy：rank 0停在save_checkpoint→gather_full_state→all_gather，rank 1–7都在train.py:181的train_step里做backward，"
     "也就是已经进了下一步，在等DDP的gradient all-reduce。说明gather只有rank 0调了（写在if rank==0里），其他rank直接跳过。"
     "每次都是1200，是因为checkpoint按步数触发，1200是第一次存盘。", True),
    # the FP8 peak taken for BF16 is named; the sparse figure said as such is not
    ("i:led-dense-400b/main",
     "Clarify first, assume 15T tokens at 8K. 400B x 16 bytes = 6.4 TB, so TP 8 in the node, PP 16 across nodes, DP 62, "
     "distributed optimizer, ~19 GB per GPU. Compute is 6ND = 3.6e25 FLOPs; the H100 does 1,979 TFLOP/s in BF16, so "
     "8,000 x 1,979 TF x 40% is about 66 days. Async checkpoints every 30 minutes and hot spares.", False),
])
def test_mock_answers_from_round_14(target, answer, right):
    assert interview_verdict(target, answer).correct is right


def test_the_sparse_peak_said_as_such_is_no_contradiction():
    verdict = interview_verdict("i:led-dense-400b/main",
                    "How many tokens, and what deadline? Assume 15T. 400B x 16 bytes = 6.4 TB. TP 8 in the node, PP 16 "
                    "across nodes, DP for the rest with the distributed optimizer. 6ND = 3.6e25 over 8,000 x 989 TFLOP/s "
                    "BF16 dense (1,979 is with sparsity) x 40% MFU is about 130 days. Sharded async checkpoints every "
                    "30 min, auto restart.")
    assert verdict.details["contradicted"] == [] and verdict.correct


@pytest.mark.parametrize(("target", "point", "answer", "said"), [
    # "instead of" rejects its own short object, not what the main clause says after it
    ("i:followup-raise-timeout/main", "wastes-gpus", "60 min instead of 10 just idles every GPU 50 more minutes.", True),
    ("i:followup-raise-timeout/main", "wastes-gpus", "raise it to 60 instead of the cluster idling", False),
    ("i:followup-raise-timeout/main", "wastes-gpus", "keep it at 10 instead of wasting gpu hours", False),
    # a rank named alone before a comma is the subject after it
    ("i:debug-straggler/next", "straggler", "rank 213, last into every reduce-scatter.", True),
    ("i:debug-straggler/next", "straggler", "Who? rank 213, last into every reduce-scatter.", True),
    ("i:debug-straggler/next", "straggler", "rank 212, last into every reduce-scatter.", False),
])
def test_a_point_read_in_one_clause(target, point, answer, said):
    assert _point(target, point, answer).said is said


def test_a_clarify_step_s_questions_still_ask():
    """Questions answered at once become labels only where statements are graded: a clarify step's
    "How many tokens? 15T, I assume." still asks about the tokens (labels would state, not ask)."""
    from tutor.content import load
    from tutor.grading.claims.self_answered import as_labels
    from tutor.grading.rubric import grade_rubric

    assert as_labels("Who? rank 213.") == "Who: rank 213."
    assert as_labels("How many tokens? And what deadline?") == "How many tokens? And what deadline?"
    assert as_labels("Input-bound? No — compute-bound.") == "Input-bound? No — compute-bound."  # a guess ruled out
    step = next(step for step in load().questions["clarify-gpu-count"].model.steps if step.id == "main")
    assert grade_rubric(step, "How many tokens? 15T, I assume. What deadline? Three months.").details["covered"] == [
        "tokens", "deadline"]
    assert grade_rubric(step, "Tokens: 15T. Deadline: three months.").details["covered"] == []


@pytest.mark.parametrize(("text", "read"), [
    ("the others are at train.py:181 -> train_step -> backward, i.e.", "the others are at train.py:181 train_step backward, i.e."),
    ("r0 in save_checkpoint() -> others wait in backward", "r0 in save_checkpoint() so others wait in backward"),
    ("the index doesn't advance -> infinite loop", "the index doesn't advance so infinite loop"),
    ("broadcast -> all_gather", "broadcast then all_gather"),
])
def test_an_arrow_between_frames_is_a_call_chain_not_so(text, read):
    from tutor.grading.claims.folding import expand_shorthand

    assert expand_shorthand(text) == read


@pytest.mark.parametrize(("lab", "answer", "right"), [
    # a hedge between two limits is not the limit
    ("kernel-fusion", "Somewhere between memory-bound and launch-bound, likely some of each: three kernels means three "
                      "trips to HBM and three launches. One fused kernel helps both ways, hard to say which part matters.",
     False),
    ("kernel-fusion", "Memory-bound, not launch-bound: three kernels cross HBM three times, one fused kernel once, so "
                      "about 3x faster.", True),
    # a category said to be too small to matter is ruled out, not named
    ("launch-bound", "Thousands of tiny ops per step with gaps between them, and a .item() sync per micro-batch. DDP "
                     "only syncs on the last micro-batch thanks to no_sync, so comm is small. That's the launch-bound "
                     "compute category. Fix: MICRO_BATCH = 16 (one pass), nn.LayerNorm, read the loss once.", True),
    ("launch-bound", "It's communication: the all-reduce is small but exposed after every micro-batch. Fix: one "
                     "micro-batch of 16.", False),
    # the replay said to launch every kernel still is the graph misread
    ("cuda-graphs", "Launch-bound, yes, but CUDA Graphs don't remove the per-kernel launch cost: the replay still issues "
                    "each of the 192 kernels from the CPU one at a time, it only skips Python's part of it.", False),
    ("cuda-graphs", "Launch-bound: without a graph the CPU launches the 192 tiny kernels one at a time and the GPU idles "
                    "between them. A CUDA graph captures the loop once and replays it with one launch.", True),
])
def test_perf_lab_answers_from_round_14(lab, answer, right):
    assert _lab(lab, answer) is right


EXIT_HANG_ZH = ("还没退出的是rank 1(upload rank),rank 0已经exit 0。rank 1的主线程已经跑完main,在join剩下的线程;"
                "checkpoint-uploader线程不是daemon,卡在Queue.get(train.py:64)等下一个item。原因:只有close()会往队列里放None让"
                "线程结束,可close()只写在except BaseException里,正常结束的路径上根本没调用。修:用try/finally,在finally里调"
                "uploader.close()。")
EXIT_HANG_TERSE = ("r1 alive (r0 exit 0). main thread done, joining threads; uploader thread idle in queue.get "
                   "(train.py:64), no sentinel ever sent: close() only in except. try/finally close().")


@pytest.mark.parametrize(("answer", "right"), [
    # "alive" alone is the rank left; "rank 0已经exit 0" is a clause of its own, not a subject of the next
    (EXIT_HANG_TERSE, True),
    (EXIT_HANG_TERSE.replace("r1 alive (r0 exit 0)", "r0 alive (r1 exit 0)"), False),
    (EXIT_HANG_ZH, True),
    (EXIT_HANG_ZH.replace("还没退出的是rank 1(upload rank),rank 0已经exit 0。rank 1", "还没退出的是rank 0,rank 1已经exit 0。rank 0"),
     False),
])
def test_exit_hang_said_tersely_or_in_chinese(answer, right):
    assert _lab("exit-hang", answer) is right


@pytest.mark.parametrize(("lab", "answer", "right"), [
    # the fix said in two words: everybody evaluates, rank 0 logs
    ("eval-rank0", "Rank 0 hangs in the all_reduce (53) inside evaluate, which only it calls (line 72-73 guard); ranks "
                   "1-3 sit in step 4's backward. Fix: all evaluate, rank 0 logs.", True),
    ("eval-rank0", "Rank 0 hangs in the all_reduce (53) inside evaluate, which only it calls (line 72-73 guard); ranks "
                   "1-3 sit in step 4's backward. Fix: rank 0 alone evaluates and logs, raise the timeout.", False),
    # the extra collective named by what it carries
    ("timeout-at-item", "Metrics group desync, not .item(): r1 cut a doc at step 1 → extra 1-elem AR (l.74); r0/2/3's "
                        "first is the 2-elem stats AR (l.77). Fix: one unconditional AR.", True),
    ("timeout-at-item", "Metrics group desync, not .item(): r1 cut a doc at step 1 → extra 1-elem AR (l.74); r0/2/3's "
                        "first is the 2-elem stats AR (l.77). Fix: raise the metrics group's timeout.", False),
])
def test_hang_lab_fixes_said_tersely(lab, answer, right):
    assert _lab(lab, answer) is right
