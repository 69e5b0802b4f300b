"""`tutor lab ... --lang zh` says everything in Chinese (issue 16): every action takes --lang, argparse's
own errors, the commands' refusals, headings and labels; `--json` keeps its English.

In-process (`cli.main`) and on made-up evidence: no lab runs here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutor import cli

FIXTURE = Path(__file__).resolve().parents[1] / "labs" / "fixtures"
CJK = re.compile(r"[\u3400-\u9fff]")
# English words of the lab CLI's own sentences; what may stay English (ids, paths, commands in
# backticks, torch's op names, units) does not use them.
ENGLISH = re.compile(r"\b(the|of|in|at|on|your|ranks|step|steps|hint|copy|more|model answer|evidence|failed|"
                     r"checking|watching|changed|passed|not yet|right|score|started|only|metadata|skipped|"
                     r"must|between|takes|empty|yet|first|ok|hang|crash|parallel|perf|rank\(s\))\b", re.I)


def _cells(text: str) -> int:
    """Terminal columns: a CJK character or full-width bracket takes two."""
    from unicodedata import east_asian_width

    return sum(2 if east_asian_width(char) in "WF" else 1 for char in text)


def _english_left(text: str) -> list[str]:
    """English words left in `text` outside `commands`, quoted values, paths, flags and lab names."""
    text = re.sub(r"`[^`]*`|'[^']*'|\S*[-/]\S*", "", text)
    return ENGLISH.findall(text)


@pytest.fixture
def demo(monkeypatch):
    """The fixture content: one hang lab (hang-demo), so that no real lab's state matters."""
    monkeypatch.setenv("TUTOR_CONTENT", str(FIXTURE))
    from tutor.content import load

    load.cache_clear()
    yield
    load.cache_clear()


def test_every_lab_action_takes_lang():
    lab = cli.build_parser("lab")._subparsers._group_actions[0].choices["lab"]
    actions = lab._subparsers._group_actions[0].choices
    assert {"list", "show", "start", "run", "check", "diagnose", "reset", "experiment", "bandwidth", "evidence",
            "mystery", "selfcheck"} <= set(actions)
    assert [name for name, parser in actions.items() if "--lang" not in parser._option_string_actions] == []


@pytest.mark.parametrize("args, prog, chinese", [
    (("lab", "check", "hang-demo", "--backend", "xyz"), "tutor lab check",
     "参数 --backend 不接受 'xyz'（可选：'auto', 'gloo', 'nccl'）"),
    (("lab", "run", "hang-demo", "--world-size", "abc"), "tutor lab run", "参数 --world-size 要一个整数，不能是 'abc'"),
    (("lab", "run", "hang-demo", "--timeout", "一秒"), "tutor lab run", "参数 --timeout 要一个数，不能是 '一秒'"),
    (("lab", "check"), "tutor lab check", "缺少必需的参数：name"),
    (("lab", "frob"), "tutor lab", "参数 ACTION 不接受 'frob'"),
    (("lab", "experiment", "hang-demo", "--vary", "gpus"), "tutor lab experiment", "参数 --vary 不接受 'gpus'"),
    (("lab", "list", "--colour"), "tutor", "不认识的参数：--colour"),
])
def test_argparse_errors_are_one_chinese_line_under_lang_zh(demo, tutor_here, args, prog, chinese):
    code, out, err = tutor_here(*args, "--lang", "zh")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"{prog}：错误：{chinese}") and err.endswith(f"（见 `{prog} --help`）\n")
    assert "Traceback" not in err and not _english_left(err.replace("error", "")), err


def test_argparse_errors_follow_tutor_lang_and_stay_english_by_default(demo, tutor_here, monkeypatch):
    monkeypatch.setenv("TUTOR_LANG", "zh")
    assert "参数 --backend 不接受 'xyz'" in tutor_here("lab", "run", "hang-demo", "--backend", "xyz")[2]
    monkeypatch.delenv("TUTOR_LANG")
    code, _, err = tutor_here("lab", "run", "hang-demo", "--backend", "xyz")
    assert code == 2 and err == ("tutor lab run: error: argument --backend: invalid choice: 'xyz' (choose from "
                                 "'auto', 'gloo', 'nccl') (see `tutor lab run --help`)\n")
    # a program argument that reads `--lang zh` after `--` is the program's, not the tutor's
    assert tutor_here("lab", "run", "hang-demo", "--backend", "xyz", "--", "--lang", "zh")[2].startswith("tutor lab run: error")


@pytest.mark.parametrize("args, code, chinese", [
    (("lab", "show", "hang-demo", "--hint", "-1"), 2, "--hint 要从 1 开始的提示编号，不能是 -1"),
    (("lab", "show", "hang-demo", "--reveal"), 1, "参考答案要等你自己的副本通过"),
    (("lab", "run", "hang-demo", "--world-size", "0"), 2, "--world-size 必须在 1 到 64 之间，不能是 0"),
    (("lab", "run", "hang-demo", "--world-size", "99999999999999999999"), 2, "不能是 99999999999999999999"),
    (("lab", "run", "hang-demo", "--timeout", "0"), 2, "--timeout 必须大于 0 秒、至多 3600 秒，不能是 0"),
    (("lab", "run", "hang-demo", "--nnodes", "0"), 2, "--nnodes 必须在 1 到 64 之间，不能是 0"),
    (("lab", "run", "hang-demo", "--nnodes", "99999999999999999999", "--rdzv-endpoint", "h:1", "--print-launch"), 2,
     "--nnodes 必须在 1 到 64 之间，不能是 99999999999999999999"),  # printed a command per node, without end
    (("lab", "run", "hang-demo", "--node-rank", "3"), 2, "--node-rank 必须在 0 到 0 之间（--nnodes 1），不能是 3"),
    (("lab", "run", "张量并行"), 2, "没有叫 '张量并行' 的实验"),
    (("lab", "check", ""), 2, "没有叫 '' 的实验"),
    (("lab", "diagnose", "hang-demo"), 2, "写下你的诊断"),
    (("lab", "diagnose", "hang-demo", "   "), 2, "答案是空的"),
    (("lab", "evidence", "hang-demo"), 1, "hang-demo 还没运行过：先 `tutor lab run hang-demo`"),
    (("lab", "experiment", "hang-demo", "--vary", "ranks"), 2, "控制变量实验只用于性能类实验；hang-demo 是卡死类的"),
    (("lab", "bandwidth", "--sizes", "一兆"), 2, "--sizes 要的是字节数"),
    (("lab", "bandwidth", "--sizes", "2G"), 2, "--sizes：每个 buffer 最多 1G"),
    (("lab", "bandwidth", "--world-size", "1"), 2, "--world-size 必须在 2 到 64 之间，不能是 1"),
    (("lab", "bandwidth", "--iters", "0"), 2, "--iters 必须在 1 到 1000 之间，不能是 0"),
    (("lab", "mystery", "--reveal"), 2, "还没有谜题"),
    (("lab", "selfcheck", "nope"), 2, "没有叫 'nope' 的实验"),
    (("lab", "selfcheck", ""), 2, "没有叫 '' 的实验"),  # ran every lab's self-check
])
def test_lab_refusals_are_one_chinese_line_under_lang_zh(demo, tutor_here, args, code, chinese):
    got, out, err = tutor_here(*args, "--lang", "zh")
    assert got == code and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert chinese in err and not _english_left(err), err


def test_a_node_rank_past_nnodes_0_names_nnodes_in_english_too(demo, tutor_here):
    # was "--node-rank must be between 0 and -1", for --nnodes 0
    assert tutor_here("lab", "run", "hang-demo", "--nnodes", "0")[2] == "tutor: --nnodes must be between 1 and 64, not 0\n"


def test_list_and_show_are_chinese_and_their_json_is_not(demo, tutor_here):
    code, out, _ = tutor_here("lab", "list", "--lang", "zh")
    assert code == 0 and out == "hang-demo              卡死      未开始   卡住示例\n"
    code, out, _ = tutor_here("lab", "show", "hang-demo", "--hint", "1", "--lang", "zh")
    assert code == 0 and out.splitlines()[0] == "卡住示例（卡死，2 个 rank）"
    assert "你的副本：还没开始——`tutor lab start hang-demo`" in out and "提示 1/2：对比各 rank 的 collective。" in out
    assert "还有 1 条提示" in out and "诊断：哪个 rank 在别处?停在哪个调用?" in out and not _english_left(out), out
    assert tutor_here("lab", "list", "--json", "--lang", "zh")[1] == tutor_here("lab", "list", "--json")[1]
    assert json.loads(tutor_here("lab", "list", "--json", "--lang", "zh")[1])["labs"][0]["status"] == "new"


def test_start_reset_and_give_up_are_chinese(demo, tutor_here):
    assert tutor_here("lab", "start", "hang-demo", "--lang", "zh")[0] == 0
    again = tutor_here("lab", "start", "hang-demo", "--lang", "zh")[1]
    assert "（已经开始过了：你的修改都保留着" in again
    assert "（你之前的副本在 " in tutor_here("lab", "reset", "hang-demo", "--lang", "zh")[1]
    code, out, _ = tutor_here("lab", "diagnose", "hang-demo", "--give-up", "--lang", "zh")
    assert code == 0 and "  参考答案：rank 0 在第 2 步多调用的 broadcast 里等" in out and not _english_left(out), out


def test_a_wrong_diagnosis_is_told_in_chinese(demo, tutor_here):
    code, out, _ = tutor_here("lab", "diagnose", "hang-demo", "不知道", "--lang", "zh")
    assert code == 1 and out.startswith("还不对：得分 ") and "通过之后才能看参考答案，或者用 --give-up。" in out
    assert not _english_left(out), out


def _evidence(tmp_path, outcome="hang") -> dict:
    return {
        "lab": "hang-demo", "outcome": outcome, "elapsed_s": 4.2, "world_size": 2, "backend": "gloo",
        "run_dir": str(tmp_path), "program": "/x/train.py",
        "summary": {"message": "no rank made progress for 3 s: rank 0 in broadcast (train.py:9); rank 1 in all_reduce "
                               "(train.py:12)"},
        "ranks": [
            {"rank": 0, "last_step": 2, "exit_code": None, "stack_source": "py-spy",
             "stack": "Thread 1 (idle): \"MainThread\"\n    train_loop (train.py:9)\n", "pending": {"op": "broadcast",
             "shape": [1], "site": "train.py:9"},
             "collectives": [{"seq": 1, "op": "all_reduce", "shape": [1], "site": "train.py:12", "state": "done"},
                             {"seq": 2, "op": "broadcast", "shape": [1], "site": "train.py:9", "state": "waiting"}]},
            {"rank": 1, "last_step": 2, "exit_code": None, "stack_source": "py-spy", "stack": "",
             "pending": {"op": "all_reduce", "shape": [1], "site": "train.py:12"},
             "collectives": [{"seq": 1, "op": "all_reduce", "shape": [1], "site": "train.py:12", "state": "done"},
                             {"seq": 2, "op": "all_reduce", "shape": [1], "site": "train.py:12", "state": "waiting"}]},
        ],
        "metrics": {"step_time_s": 0.012, "time_to_first_step_s": 1.5},
    }


def test_a_run_and_a_check_are_chinese(tmp_path):
    from tutor.labs.report import check_text, run_text

    lines = run_text(_evidence(tmp_path), "zh")
    assert lines[0] == "hang-demo：卡死，用时 4.2 秒（2 个 rank，gloo）"
    assert lines[1].startswith("  3 秒内没有任何 rank 取得进展：")
    assert "  rank  最后一步   退出码 位置" in lines and "  0     2          -      卡在 broadcast [1]（train.py:9）" in lines
    assert "  rank 0 的调用栈（py-spy）：train_loop (train.py:9)" in lines
    assert "  每步 12.0 ms（中位数），第一步在 1.5 秒后" in lines and lines[-1].startswith("  证据：")
    assert not _english_left("\n".join(lines)), lines
    assert run_text(_evidence(tmp_path))[0] == "hang-demo: hang in 4.2 s (2 ranks, gloo)"
    check = {"lab": "hang-demo", "program": "train.py", "evidence": {"world_size": 2},
             "checks": [{"name": "runs to completion", "passed": True, "detail": "all 2 ranks finished in 3.0 s"}]}
    assert check_text(check, "zh") == ["hang-demo：在 2 个 rank 上检查 train.py", "  ✓ 运行到结束：全部 2 个 rank 在 3.0 秒内跑完"]


def test_the_evidence_view_is_chinese_and_its_json_keeps_both(tmp_path):
    from tutor.labs.hangreport import text, view

    shown = view(_evidence(tmp_path), reveal=True)
    assert shown["first_divergence"]["text"] == {
        "en": "rank 0 calls broadcast[1] (train.py:9); rank 1 calls all_reduce[1] (train.py:12)",
        "zh": "rank 0 调用的是 broadcast[1](train.py:9);rank 1 调用的是 all_reduce[1](train.py:12)"}
    lines = text(shown, "hang-demo", "zh")
    assert lines[0].startswith("hang-demo：卡死，2 个 rank（") and "调用栈（程序自己的帧，最内层在上）：" in lines
    assert any(line.startswith("第一个分歧：rank 0 调用的是") for line in lines)
    heads = next(line for line in lines if line.startswith("  rank 0 · 第 2 步"))
    below = lines[lines.index(heads) + 1]  # rank 1's "（无栈）" is 8 cells wide, not 4: the columns still line up
    assert "（无栈）" in below and _cells(heads[:heads.index("│")]) == _cells(below[:below.index("│")])
    assert not _english_left("\n".join(lines)), lines
    hidden = text(view(_evidence(tmp_path), reveal=False), "hang-demo", "zh")
    assert hidden[-1] == '回答诊断之后，这里会标出第一个分歧：tutor lab diagnose hang-demo "..."'


def test_experiments_and_the_bandwidth_table_are_chinese():
    from tutor.labs.experiments import bandwidth_text, experiment_text

    row = {"world_size": 2, "outcome": "ok", "step_time_s": 0.12, "tokens_per_s": 2000.0, "mfu": None,
           "summary": "all 2 ranks finished in 3.0 s"}
    result = {"experiment": "data", "lab": "slow-dataloader", "speedup_with_synthetic": 3.0,
              "runs": [{**row, "label": "its own loader"}, {**row, "label": "synthetic data", "step_time_s": 0.04}],
              "message": "synthetic data makes the step 3.00× as fast (120.0 → 40.0 ms, best timed step)",
              "conclusion": "the loader is on the critical path"}
    lines = experiment_text(result, "zh")
    assert lines[0] == "slow-dataloader：控制变量实验，变量：数据"
    assert lines[1].startswith("  程序自己的 loader 正常结束 每步    120.0 ms") and lines[2].endswith("全部 2 个 rank 在 3.0 秒内跑完")
    assert lines[-1] == "  换成合成数据后，每步快到 3.00 倍（120.0 → 40.0 ms，取最快的计时 step）：loader 在关键路径上"
    assert experiment_text(result)[-1] == f"  {result['message']}: {result['conclusion']}"
    table = bandwidth_text({"world_size": 2, "backend": "gloo", "outcome": "ok", "run_dir": "/r", "rows": [
        {"bytes": 8, "count": 2, "type": "float", "redop": "sum", "time_s": 1e-5, "algbw": 8e5, "busbw": 8e5,
         "wrong": 0}]}, "zh")
    assert table[0] == "all_reduce，2 个 rank（gloo）：正常结束" and table[-1] == "证据：/r"
    assert _cells(table[1]) == len(table[2]) and table[1].split()[:2] == ["大小", "(B)"]


def test_the_dp_overlap_bucket_sweep_is_chinese():
    from tutor.labs.check_names import check_detail

    detail = ("30% of your communication is exposed (3.1 ms per step), 90% of the shipped program's (9.0 ms): ratio "
              "0.33 (needs ≤ 0.75; communication not covered by compute on the profiler's timeline of whole steps, "
              "traces yours-rankN and shipped-rankN); exposed by bucket size: 64 KiB 40% (3.1 ms), 512 KiB 35% "
              "(2.0 ms), one bucket 90% (8.0 ms)")
    assert check_detail(detail, "zh").endswith("64 KiB 40% (3.1 ms)，512 KiB 35% (2.0 ms)，整个模型一个 bucket 90% (8.0 ms)")


def test_a_selfcheck_report_is_chinese_and_its_json_english(capsys):
    from types import SimpleNamespace

    from tutor.commands.lab_selfcheck import PROBLEMS, _english, _print, shipped_problem

    report = {"lab": "hang-demo", "metadata": [PROBLEMS["no_hints"]], "ok": False, "skipped": None, "solution": None,
              "shipped": shipped_problem(SimpleNamespace(lab=SimpleNamespace(symptom="hang")),
                                         {"passed": False, "evidence": {"outcome": "ok"}, "checks": []})}
    _print(report, "zh")
    assert capsys.readouterr().out == ("✗ hang-demo：\n    元数据：没有提示\n    原始程序应该 hang，运行却以 'ok' 结束\n")
    assert json.dumps(_english(report)) == json.dumps({
        "lab": "hang-demo", "metadata": ["no hints"], "ok": False, "skipped": None, "solution": None,
        "shipped": "the shipped program should hang, but its run ended 'ok'"})


def test_an_internal_error_and_a_content_note_are_chinese(demo, tutor_here, monkeypatch, tmp_path):
    from tutor.commands import lab_perf
    from tutor.content import load

    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(lab_perf, "run_bandwidth", broken)
    code, _, err = tutor_here("lab", "bandwidth", "--lang", "zh")
    assert code == 1 and err == ("tutor：内部错误：RuntimeError: boom（设置 TUTOR_DEBUG=1 再运行一次可以看到 traceback，"
                                 "也请报告这个问题）\n")
    (tmp_path / "labs" / "01-bad").mkdir(parents=True)
    (tmp_path / "labs" / "01-bad" / "lab.yaml").write_text("title: 1\n")
    monkeypatch.setenv("TUTOR_CONTENT", str(tmp_path))
    load.cache_clear()
    code, _, err = tutor_here("lab", "list", "--lang", "zh")
    assert code == 0 and err.startswith("tutor：提示：跳过了 ") and "运行 `tutor validate` 查看" in err, err


def test_a_check_name_inside_a_detail_is_chinese():
    # `tutor lab evidence tp-mlp --lang zh` of a wrong run read "但 block output 在 rank 0 上不对"
    from tutor.labs.check_names import check_detail

    assert check_detail("ran to the end, but block output is wrong on rank 0: max abs error 1.01 (values up to 3.9)",
                        "zh") == "跑到了最后，但块的输出在 rank 0 上不对：最大绝对误差 1.01（数值最大到 3.9）"


def test_a_failing_solution_is_named_in_both_languages():
    from tutor.commands.lab_selfcheck import PROBLEMS, failed_checks

    result = {"evidence": {"outcome": "ok"}, "checks": [
        {"name": "runs to completion", "passed": False, "detail": "stopped before the end"},
        {"name": "average", "passed": False, "detail": ""}, {"name": "steps completed", "passed": True}]}
    said = PROBLEMS["solution"].filled(failed=failed_checks(result))
    assert said.en == "the solution fails its check: runs to completion: stopped before the end; average"
    assert said.zh == "参考答案没通过检查：运行到结束：运行结束前就停止了；average"


@pytest.mark.parametrize("argv, lang", [
    (["lab", "run", "x", "--lang", "zh"], "zh"), (["lab", "--lang=zh"], "zh"), (["lab", "--la", "zh"], "zh"),
    (["lab", "--lang", "zh", "--lang", "en"], "en"), (["lab", "run", "x", "--", "--lang", "zh"], "en"),
    (["lab", "--lang"], "en"), (["lab", "zh"], "en"),
])
def test_the_language_of_a_command_line_is_read_as_argparse_will(argv, lang):
    from tutor.commands._common import lang_in

    assert lang_in(argv) == lang


def test_a_perf_run_reports_its_numbers_in_chinese():
    from tutor.labs.measure import report_lines

    metrics = {"profiled_steps": 3, "tokens_per_s": 12345.6, "mfu": 0.42, "peak_flops_measured": 7e14,
               "mfu_basis": "measured peak 700 TFLOP/s (bf16 matmul)", "peak_matmul": "bf16", "mfu_published": 0.3,
               "peak_flops_published": 9.89e14, "per_rank_step_time_s": {"1": 0.02, "0": 0.01}}
    evidence = {"metrics": metrics, "world_size": 2, "trace_files": ["/r/rank0.trace.json"]}
    assert report_lines(evidence, "zh") == [
        "  2 个 rank 每秒 12,346 个 token · MFU 42.0%（相对实测峰值 700 TFLOP/s，bf16 matmul） · 相对标称的 989 TFLOP/s 为 30.0%",
        "  各 rank 每步用时：rank 0 10.0 ms, rank 1 20.0 ms", "  trace（用 https://ui.perfetto.dev 打开）：/r/rank0.trace.json"]
    assert report_lines(evidence)[0] == ("  12,346 tokens/s on 2 rank(s) · MFU 42.0% of the measured peak 700 TFLOP/s "
                                         "(bf16 matmul) · 30.0% of the published 989 TFLOP/s")


def test_a_rank_that_raised_without_a_message_is_shown(tmp_path):
    # `raise RuntimeError()` leaves an empty message: the evidence view raised IndexError on it
    from tutor.labs.hangreport import text, view

    evidence = _evidence(tmp_path, "crash")
    evidence["ranks"][1]["exception"] = {"type": "RuntimeError", "message": "", "where": "train.py:3"}
    shown = view(evidence, reveal=False)
    assert shown["stacks"][1]["failure"] == "RuntimeError: "
    assert "（无栈）" not in "\n".join(text(shown, "hang-demo", "zh"))  # the failure stands in for the stack
