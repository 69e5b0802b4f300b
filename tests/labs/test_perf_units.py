"""The perf labs' core pieces without processes: trace summary, metrics from the engine, busbw."""

from __future__ import annotations

import json

import pytest

from tutor.labs import measure
from tutor.labs.trace_summary import combine, rank_steps, subtract, summarize_files, union

MS = 1000.0  # chrome traces count microseconds


def op(name, start_ms, dur_ms, tid=1, cat="cpu_op", **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": start_ms * MS, "dur": dur_ms * MS,
            "args": args}


def step(number, start_ms, dur_ms, tid=1):
    return op(f"ProfilerStep#{number}", start_ms, dur_ms, tid=tid, cat="user_annotation")


def cpu_trace(data_ms=0.0, comm_ms=0.0, tiny_ops=0, compute_ms=50.0, extra_ms=0.0, steps=2, syncs=0):
    """Steps of 100 ms + extra_ms: a data gap, one big op, `tiny_ops` 10 µs ops 10 µs apart, a gloo span."""
    events, length = [], 100.0 + extra_ms
    for index in range(steps):
        s0 = index * length
        events.append(step(index + 1, s0, length))
        cursor = s0 + data_ms
        events.append(op("aten::addmm", cursor, compute_ms + extra_ms))
        events.append(op("aten::mm", cursor + 1, 2))  # nested: belongs to the addmm
        cursor += compute_ms + extra_ms
        for _ in range(tiny_ops):
            events.append(op("aten::add", cursor + 0.01, 0.01))
            cursor += 0.02
        for _ in range(syncs):
            events.append(op("aten::item", cursor, 0.005))
            events.append(op("aten::_local_scalar_dense", cursor + 0.001, 0.003))
            cursor += 0.01
        if comm_ms:
            events.append(op("c10d::allreduce_", cursor, 0.05))
            events.append(op("gloo:all_reduce", cursor, comm_ms, tid=7, cat="user_annotation"))
    return events


def test_interval_arithmetic():
    assert union([(0, 2), (1, 3), (5, 6), (4, 4)]) == [(0, 3), (5, 6)]
    assert subtract([(0, 10)], [(2, 3), (5, 7)]) == [(0, 2), (3, 5), (7, 10)]
    assert subtract([(0, 2)], [(0, 5)]) == []


def test_a_cpu_step_is_cut_into_data_wait_communication_launch_and_compute():
    steps = rank_steps(cpu_trace(data_ms=30, comm_ms=15, tiny_ops=100))
    first = steps[0]
    assert first["step"] == 1 and first["duration_s"] == pytest.approx(0.1)
    assert first["data"] == pytest.approx(0.030)
    assert first["exposed"] == pytest.approx(0.015, abs=1e-4)
    assert first["ops"] == 101  # the nested mm is not a top-level op
    # 100 tiny ops of 10 µs with 10 µs gaps (2 ms), then the rest of the step idle after the comm
    assert first["launch"] == pytest.approx(0.1 - 0.030 - 0.050 - 0.015, abs=1e-4)
    assert first["compute"] == pytest.approx(0.050, abs=1e-4)


def test_comm_hidden_behind_compute_is_not_exposed():
    events = cpu_trace(comm_ms=0)
    events.append(op("gloo:all_reduce", 10, 20, tid=7, cat="user_annotation"))  # inside the addmm
    assert rank_steps(events)[0]["exposed"] == 0


@pytest.mark.parametrize("kwargs, category, finding, words", [
    ({"data_ms": 60, "compute_ms": 30}, "data-loading", "data wait", "waits 60.0 ms"),
    ({"comm_ms": 45, "compute_ms": 40}, "communication", "exposed communication", "not overlapped"),
    ({"tiny_ops": 2000, "compute_ms": 20}, "compute", "launch-bound", "tiny ops"),
    ({"compute_ms": 95}, "compute", "compute-bound", "compute-bound"),
])
def test_the_largest_category_over_its_threshold_names_the_problem(kwargs, category, finding, words):
    summary = combine({0: rank_steps(cpu_trace(**kwargs)), 1: rank_steps(cpu_trace(**kwargs))})
    assert (summary["category"], summary["finding"]) == (category, finding), summary["message"]
    assert words in summary["message"]


def test_a_straggler_is_the_rank_that_computes_longer_while_the_others_wait():
    fast = cpu_trace(compute_ms=20, comm_ms=75)  # waits 75 ms in the collective for rank 1
    slow = cpu_trace(compute_ms=90, comm_ms=5)
    summary = combine({0: rank_steps(fast), 1: rank_steps(slow)})
    assert summary["category"] == "straggler"
    assert summary["slowest_rank"]["rank"] == 1 and summary["slowest_rank"]["by_s"] == pytest.approx(0.07, abs=1e-3)
    # the true communication cost is what the last rank to arrive waits, not the others' wait
    assert summary["exposed_comm_s"] == pytest.approx(0.005, abs=1e-4)
    assert "rank 1 computes 70.0 ms longer" in summary["message"]



def test_on_cpu_a_rank_late_only_in_wall_clock_is_no_straggler_and_a_real_one_still_is():
    from tutor.labs.measure import measurements_message
    from tutor.labs.trace_summary import restate_straggler

    # Rank 1 shares its core with another process: busy 70 ms longer in every traced step, so the
    # traces call it a straggler over the launch overhead that is the program's own problem.
    fast = cpu_trace(compute_ms=20, comm_ms=75, tiny_ops=1000)
    slow = cpu_trace(compute_ms=90, comm_ms=5, tiny_ops=1000)
    traced = combine({0: rank_steps(fast), 1: rank_steps(slow)})
    assert traced["category"] == "straggler", traced["message"]
    # ... but both ranks used the same CPU time per step in the timed rounds.
    even = restate_straggler(traced, {0: 0.040, 1: 0.041}, 0.001)
    assert (even["category"], even["finding"]) == ("compute", "launch-bound"), even["message"]
    assert even["straggler_s"] == 0.001 and "slowest minus fastest rank's CPU time 1.0 ms" in measurements_message(even)
    # A rank that does more work uses more CPU time too: still the straggler, said in CPU time.
    uneven = restate_straggler(traced, {0: 0.020, 1: 0.090}, 0.070)
    assert uneven["category"] == "straggler" and uneven["slowest_rank"]["rank"] == 1
    assert "rank 1 computes 70.0 ms of CPU time longer per step than rank 0" in uneven["message"]
    assert restate_straggler(traced, {0: 0.04}, 0.0) is traced  # one rank: nothing to compare


def test_host_syncs_are_counted_per_step():
    summary = combine({0: rank_steps(cpu_trace(syncs=16))})
    assert summary["host_syncs_per_step"] == 16 and summary["slowest_rank"] is None


def gpu_trace(idle_ms=0.0, gap_ms=0.0, nccl_ms=0.0):
    """Two steps; kernels launched by cudaLaunchKernel with correlation ids, on the device timeline."""
    events, correlation = [], 0
    for index in range(2):
        h0 = index * 100.0
        events.append(step(index + 1, h0, 100))
        device = h0 + idle_ms
        for _ in range(4):
            correlation += 1
            events.append(op("cudaLaunchKernel", h0 + 0.1 * correlation, 0.005, cat="cuda_runtime",
                             correlation=correlation))
            events.append(op("ampere_sgemm", device, 10, tid=7, cat="kernel", correlation=correlation))
            device += 10 + gap_ms
        if nccl_ms:
            correlation += 1
            events.append(op("cudaLaunchKernel", h0 + 1, 0.005, cat="cuda_runtime", correlation=correlation))
            events.append(op("ncclDevKernel_AllReduce_Sum_f32_RING_LL", device, nccl_ms, tid=8, cat="kernel",
                             correlation=correlation))
    return events


def test_device_timeline_idle_at_the_start_gaps_and_nccl():
    idle = rank_steps(gpu_trace(idle_ms=30))
    assert idle[0]["data"] == pytest.approx(0.030) and idle[0]["compute"] == pytest.approx(0.040)
    gaps = rank_steps(gpu_trace(gap_ms=5))
    assert gaps[1]["launch"] == pytest.approx(0.015, abs=1e-6)  # three 5 ms gaps between four kernels
    comm = combine({0: rank_steps(gpu_trace(nccl_ms=30))})
    assert comm["category"] == "communication" and comm["exposed_comm_s"] == pytest.approx(0.030)


def test_summarize_files_reads_one_trace_per_rank_and_skips_a_torn_one(tmp_path):
    for rank in (0, 1):
        (tmp_path / f"rank{rank}.trace.json").write_text(json.dumps({"traceEvents": cpu_trace(data_ms=50)}))
    (tmp_path / "rank2.trace.json").write_text('{"traceEvents": [')
    summary = summarize_files(sorted(tmp_path.glob("*.json")))
    assert summary["category"] == "data-loading" and summary["ranks"] == [0, 1]
    assert len(summary["trace_files"]) == 2


def test_metrics_come_from_the_engine_with_measured_and_published_peaks():
    metrics = {"step_time_s": 0.5, "tokens_per_step": 8192, "params": 1e9, "peak_flops_measured": 800e12,
               "device_name": "NVIDIA H100 80GB HBM3", "peak_matmul": "8192x8192x8192 bfloat16"}
    added = measure.perf_metrics(metrics, world_size=8)
    tokens_per_s = 8192 / 0.5
    assert added["tokens_per_s"] == tokens_per_s
    assert added["mfu"] == pytest.approx(tokens_per_s * 6e9 / (8 * 800e12))
    assert added["peak_flops_published"] == 989e12
    assert added["mfu_published"] == pytest.approx(tokens_per_s * 6e9 / (8 * 989e12))
    assert added["achieved_flops_per_rank"] == pytest.approx(tokens_per_s * 6e9 / 8)
    assert measure.perf_metrics({"step_time_s": 0.1}, 2) == {}
    cpu = measure.perf_metrics({**metrics, "device_name": "cpu"}, 2)
    assert "mfu_published" not in cpu and "mfu" in cpu
    assert measure.catalog_gpu("NVIDIA A100-SXM4-40GB").name == "a100-40gb"


def test_enrich_sets_the_runs_category_and_keeps_a_checks_traces_apart(tmp_path):
    for rank in (0, 1):
        (tmp_path / f"rank{rank}.trace.json").write_text(json.dumps({"traceEvents": cpu_trace(comm_ms=60,
                                                                                                compute_ms=30)}))
    files = [str(path) for path in sorted(tmp_path.glob("*.json"))]
    run = measure.enrich({"outcome": "ok", "world_size": 2, "summary": {"category": "ok", "message": "done"},
                          "metrics": {"profiled_steps": [1, 2, 3]}, "trace_files": files})
    assert run["summary"]["category"] == "communication" and run["summary"]["run"] == "done"
    check = measure.enrich({"outcome": "ok", "world_size": 2, "summary": {"category": "ok", "message": "done"},
                            "metrics": {}, "trace_files": [f.replace("rank", "yours-rank") for f in files]})
    assert check["summary"]["category"] == "ok" and set(check["summary"]["traces"]) == {"yours"}
    broken = measure.enrich({"outcome": "ok", "metrics": {"step_time_s": "x", "tokens_per_step": 1, "params": 1}})
    assert "metrics_error" in broken["metrics"]


def test_busbw_is_nccl_tests_factor_of_algbw():
    from tutor.sizing.engine import evaluate

    assert evaluate("coll_algbw", message_bytes=1e9, coll_time=0.1) == pytest.approx(10e9)
    assert evaluate("allreduce_busbw", message_bytes=1e9, coll_time=0.1, ranks=8) == pytest.approx(10e9 * 2 * 7 / 8)
    assert evaluate("allgather_busbw", message_bytes=1e9, coll_time=0.1, ranks=8) == pytest.approx(10e9 * 7 / 8)
    assert evaluate("allreduce_busbw", message_bytes=1e9, coll_time=0.1, ranks=1) == 0


def hook_trace(blocking: bool) -> list[dict]:
    """One 100 ms step: backward (an AccumulateGrad op, 10-70 ms) holding a gradient hook that
    calls an all-reduce at 20 ms; gloo runs it for 30 ms on its own thread. Blocking, the hook
    waits for it inside AccumulateGrad; async, backward computes meanwhile (an mm at 21-50 ms)."""
    events = [step(1, 0, 100), op("autograd::engine::evaluate_function: AccumulateGrad", 10, 60),
              op("c10d::allreduce_", 20, 0.1), op("gloo:all_reduce", 20.1, 30, tid=2, cat="user_annotation")]
    if not blocking:
        events.append(op("aten::mm", 21, 29))
    return events


def test_a_wait_for_a_collective_inside_an_op_is_exposed_communication_not_compute():
    # Findings D3: a blocking all-reduce in the gradient hook, timed only after backward, looked
    # like perfect overlap. On the timeline, the wait inside the op is as exposed as any.
    blocking, overlapped = (combine({0: rank_steps(hook_trace(flag))}) for flag in (True, False))
    assert blocking["exposed_comm_s"] == pytest.approx(0.030, abs=1e-3)
    assert overlapped["exposed_comm_s"] < 0.002  # the 1 ms before backward computes again, and the tail


def test_blind_keeps_the_measurements_and_drops_the_category(tmp_path):
    # Issue 19: `tutor lab run` named the category ("data loading: each step waits …") before
    # the learner had diagnosed anything.
    from tutor.store import Store, record_lab_run
    from tutor.labs.report import for_learner, run_text

    for rank in (0, 1):
        (tmp_path / f"rank{rank}.trace.json").write_text(json.dumps({"traceEvents": cpu_trace(data_ms=60,
                                                                                                compute_ms=30)}))
    files = [str(path) for path in sorted(tmp_path.glob("*.json"))]
    evidence = measure.enrich({"lab": "slow-dataloader", "outcome": "ok", "world_size": 2, "elapsed_s": 1.0,
                               "backend": "gloo", "run_dir": str(tmp_path), "summary": {"message": "done"},
                               "metrics": {"profiled_steps": [1, 2]}, "trace_files": files})
    assert evidence["summary"]["category"] == "data-loading"
    with Store() as store:
        shown = for_learner(store, evidence, "slow-dataloader", "perf")
    text = json.dumps(shown) + "\n".join(run_text(shown))
    assert "data-loading" not in text and "data loading" not in text and "category" not in shown["summary"]
    assert "before the first op 60.0 ms (60%)" in shown["summary"]["message"]
    assert shown["summary"]["data_wait_s"] == pytest.approx(0.060)
    assert evidence["summary"]["category"] == "data-loading"  # the recorded evidence keeps it
    with Store() as store:
        record_lab_run(store, "slow-dataloader", "diagnose", "incorrect", passed=False)
        assert for_learner(store, evidence, "slow-dataloader", "perf")["summary"]["category"] == "data-loading"


def test_a_hang_summary_does_not_group_the_ranks_before_a_diagnosis():
    from tutor.labs.report import for_learner

    evidence = {"outcome": "hang", "summary": {
        "category": "hang", "message": "no rank made progress for 10 s: rank 0 in all_gather (train.py:42); "
                                       "ranks 1-3 in all_reduce (train.py:65)",
        "waiting_in": {"in all_gather (train.py:42)": [0]}}}
    shown = for_learner(None, evidence, "checkpoint-rank0", "hang")
    assert shown["summary"]["message"].startswith("no rank made progress for 10 s: where each rank waits is below")
    assert "train.py:42" not in json.dumps(shown["summary"])


def test_the_data_experiment_compares_best_timed_steps_so_one_burst_of_load_does_not_clear_the_loader():
    from tutor.labs.experiments import best_step_time, message, vary_data  # noqa: F401 (vary_data: the caller)

    # Steps 0 (warm-up) and the profiled 1..4 are not timed; rank 1's fastest timed step is the job's best.
    metrics = {"step_time_s": 0.12, "profiled_steps": [1, 2, 3, 4],
               "per_rank_step_times_s": {"0": [0.01, 0.01, 0.01, 0.01, 0.01, 0.12, 0.09, 0.30],
                                         "1": [0.01, 0.01, 0.01, 0.01, 0.01, 0.11, 0.10, 0.25]}}
    assert best_step_time(metrics) == 0.10
    assert best_step_time({"step_time_s": 0.2}) == 0.2
    # A median inflated by a burst in the synthetic run still reads as loader-bound from the best steps.
    real = {"step_time_s": 0.098, "best_step_time_s": 0.095}
    synthetic = {"step_time_s": 0.066, "best_step_time_s": 0.027}
    result = {"experiment": "data", "runs": [real, synthetic], "speedup_with_synthetic": 0.095 / 0.027}
    assert message(result).en.startswith("synthetic data makes the step 3.52× as fast (95.0 → 27.0 ms")
    # A row from before rows kept their best step (the history) is read from its median.
    old = {"experiment": "data", "runs": [{"step_time_s": 0.12}, {"step_time_s": 0.04}], "speedup_with_synthetic": 3.0}
    assert "(120.0 → 40.0 ms" in message(old).en


@pytest.mark.parametrize("rounds, speedup", [
    # CI, slow-dataloader's solution: the shipped program's only light round was its first (112 ms);
    # by best rounds 1.67x, though each later round read 3.07x and 2.32x (paired median 2.32x)
    ([(0.1124, 0.0700), (0.2060, 0.0671), (0.2000, 0.0862)], 0.2000 / 0.0862),
    # load in most of one program's rounds (three lab jobs at once): the best rounds still read it
    ([(0.150, 0.200), (0.300, 0.100), (0.160, 0.210)], 0.150 / 0.100),
])
def test_the_speedup_is_read_robustly_to_either_kind_of_load(rounds, speedup):
    from tutor.labs.rank.perfcheck import measured_speedup

    best, paired, read = measured_speedup([{"shipped": shipped, "yours": yours} for shipped, yours in rounds])
    assert read == pytest.approx(speedup) and read == max(best, paired)


def test_a_fix_that_is_not_faster_reads_slow_by_both():
    from tutor.labs.rank.perfcheck import measured_speedup

    rounds = [{"shipped": shipped, "yours": yours} for shipped, yours in [(0.10, 0.11), (0.21, 0.10), (0.10, 0.20)]]
    assert measured_speedup(rounds)[2] < 1.1


@pytest.mark.parametrize("rounds, disagree", [
    # CI: the shipped exposed-comm program against itself, every shipped round slowed, one of its twin's not
    ([(0.0839, 0.0516), (0.0900, 0.0870), (0.0850, 0.0880), (0.0920, 0.0900), (0.0870, 0.0860)], True),
    # an honest fix read fast by both, and a no-op read slow by both: no more rounds
    ([(0.150, 0.050), (0.160, 0.055), (0.150, 0.060)], False),
    ([(0.10, 0.11), (0.21, 0.10), (0.10, 0.20)], False),
])
def test_readings_that_disagree_ask_for_more_rounds(rounds, disagree):
    from tutor.labs.rank.perfcheck import readings_disagree

    assert readings_disagree([{"shipped": shipped, "yours": yours} for shipped, yours in rounds], 1.6) is disagree
