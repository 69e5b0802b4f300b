"""`tutor size` and `tutor plan` on the command line: DESIGN §5 keys, text output, bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import run_tutor

SIZE_KEYS = {"params", "params_per_gpu", "memory", "min_gpus_for_model_state", "pipeline", "flops", "throughput",
             "train_time_s", "train_days", "checkpoint", "warnings", "errors", "steps"}
NESTED = {
    "memory": {"weights", "grads", "optimizer", "model_state", "activations", "activations_per_layer", "total",
               "capacity", "fits"},
    "pipeline": {"microbatches", "bubble", "bubble_wallclock"},
    "flops": {"per_token_6n", "per_token"},
    "throughput": {"tokens_per_s", "step_time_s", "mfu", "mfu_attn"},
    "checkpoint": {"bytes_total", "bytes_per_gpu"},
}


def assert_size_shape(report):
    assert SIZE_KEYS <= set(report)
    for key, keys in NESTED.items():
        assert set(report[key]) == keys
    assert all(set(step) == {"id", "formula", "substituted", "value", "unit"} for step in report["steps"])


def test_size_json_has_exactly_the_design_keys(cli):
    status, report, _ = cli("size", "--model", "llama3-70b", "--gpus", "64", "--tp", "8", "--pp", "2",
                            "--distributed-optimizer", "--mfu", "0.4", "--tokens", "15T", "--json")
    assert status == 0
    assert set(report) == SIZE_KEYS
    assert_size_shape(report)
    assert report["train_days"] > 0 and report["throughput"]["mfu"] == 0.4


def test_plan_json_shape(cli):
    status, result, _ = cli("plan", "--model", "llama3-8b", "--gpus", "32", "--alternatives", "3", "--json")
    assert status == 0
    assert set(result) == {"best", "alternatives", "steps"}
    assert len(result["alternatives"]) == 3
    for item in [result["best"], *result["alternatives"]]:
        assert {"tp", "pp", "cp", "ep", "dp", "vpp"} <= set(item)
        assert_size_shape(item)
    assert all(set(step) == {"id", "text"} for step in result["steps"])


def test_size_text_shows_the_table_and_the_derivation(cli):
    status, text, _ = cli("size", "--params", "70B", "--layers", "80", "--hidden", "8192", "--seq", "8192",
                          "--global-batch", "512", "--gpus", "64", "--tp", "4", "--pp", "4", "--cp", "2",
                          "--distributed-optimizer")
    assert status == 0
    assert "Memory per GPU" in text and "39.4 GB" in text and "Derivation" in text
    assert "70e9·(6 + 12/(2·2))/(4·4) = 39.4 GB" in text


def test_chinese_output(cli):
    status, text, _ = cli("size", "--model", "dense-1t", "--gpus", "8192", "--tp", "8", "--pp", "16", "--tokens", "2T",
                          "--global-batch", "4096", "--mfu", "40%", "--distributed-optimizer", "--recompute", "full",
                          "--lang", "zh")
    assert status == 0 and "每卡显存" in text and "42.9 天" in text
    status, text, _ = cli("plan", "--model", "llama3-8b", "--gpus", "32", "--lang", "zh")
    assert status == 0 and "推荐配置" in text


def test_configuration_errors_come_in_the_json_with_exit_2(cli):
    status, report, err = cli("size", "--params", "70B", "--gpus", "64", "--tp", "4", "--pp", "4", "--cp", "2",
                              "--dp", "4", "--json")
    assert status == 2 and report["errors"] and "128" in report["errors"][0]
    assert err.count("\n") == 1


@pytest.mark.parametrize(("lang", "lead"), [("en", "tutor: 1 error(s) in this configuration: global batch 1"),
                                            ("zh", "tutor：这个配置有 1 处错误：global batch 1")])
def test_a_configuration_that_cannot_run_prints_its_reason_not_its_figures(cli, lang, lead):
    """Walkthrough minor 16: `--global-batch 1` printed "micro-batches per pipeline 0.5, bubble
    200%" and the whole derivation before the error."""
    status, out, err = cli("size", "--model", "llama3-70b", "--gpus", "16", "--tp", "4", "--pp", "2", "--dp", "2",
                           "--global-batch", "1", "--lang", lang)
    assert status == 2 and out == "" and err.startswith(lead) and err.count("\n") == 1


def test_plan_with_no_fit_exits_1(cli):
    status, result, _ = cli("plan", "--model", "dense-1t", "--gpus", "8", "--json")
    assert status == 1 and result["best"] is None


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [
    ("size", "--params", "70B", "--tp", "3", "--gpus", "64"),
    ("size", "--params", "-1"),
    ("size", "--params", "banana"),
    ("size", "--params", "70B", "--seq", "0"),
    ("size", "--params", "1e30"),
    ("plan", "--params", "banana", "--gpus", "8"),
    ("plan", "--model", "no-such-model", "--gpus", "8"),
])
def test_bad_input_is_one_line_and_exit_2(argv):
    result = run_tutor(*argv, "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.timeout(60)
def test_cli_modules_do_not_import_sympy():
    probe = ("import sys, tutor.cli, tutor.commands.size, tutor.commands.plan, tutor.sizing.display\n"
             "tutor.cli.build_parser()\nprint('sympy' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_help_names_every_preset_and_gpu(cli):
    # The help of --model and --gpu is written out (the parser must not import the presets on every command);
    # before, it left out deepseek-v3, and h800-80gb was added to the catalog with it.
    from tutor.sizing.hardware import CATALOG
    from tutor.sizing.presets import MODELS

    for command in ("size", "plan"):
        _, text, _ = cli(command, "--help")
        flat = "".join(text.split())  # argparse may wrap a name at its hyphen
        missing = [name for name in (*MODELS, *CATALOG) if name not in flat]
        assert not missing, (command, missing)


@pytest.mark.parametrize(("argv", "lang", "wanted", "unwanted"), [
    # One GPU is "1 GPU", and the learner is told what to type (the walkthrough, issue 16: "1 GPUs cannot be split").
    (("size", "--model", "llama3-70b", "--tp", "8", "--pp", "16", "--gpus", "1"), "en",
     ("1 GPU cannot hold TP 8 × PP 16 × CP 1 = 128 GPUs", "give at least 128 GPUs"), ("1 GPUs",)),
    (("size", "--model", "llama3-70b", "--tp", "8", "--pp", "16", "--gpus", "1"), "zh",
     ("1 张卡放不下", "至少给 128 张卡"), ("GPUs",)),
    (("size", "--model", "llama3-70b", "--tp", "8", "--pp", "4", "--gpus", "100"), "en",
     ("100 is not divisible by 32", "use 96 or 128 GPUs"), ()),
    # The number as typed and the limit in plain words ("gpus = 1e+20 is absurd (at most 1e+07)" before).
    (("plan", "--model", "llama3-8b", "--gpus", "1e20"), "en",
     ("gpus = 1e20 is more than the engine accepts: at most 10,000,000",), ("1e+20", "absurd")),
    (("size", "--model", "llama3-8b", "--gpus", "1e20"), "zh", ("gpus = 1e20 超出引擎接受的范围：最多 10,000,000",), ("absurd",)),
    # --zero with an MoE model: one line saying why and what to type instead.
    (("plan", "--model", "mixtral-8x7b", "--gpus", "64", "--zero", "1"), "en",
     ("--zero 1 is not modelled for MoE models", "ZeRO-1-style", "leave out --zero"), ()),
    (("plan", "--model", "deepseek-v3", "--gpus", "2048", "--published", "--zero", "1"), "zh",
     ("MoE 模型不支持 --zero 1", "去掉 --zero"), ()),
    # TP / EP sizes none of which can be used: said so, not "the global batch cannot be split ... use fewer GPUs".
    (("plan", "--model", "mixtral-8x7b", "--gpus", "64", "--tp", "3"), "en",
     ("--tp 3: no TP size asked for can be used on 64 GPUs",), ("global batch",)),
    (("plan", "--model", "mixtral-8x7b", "--gpus", "64", "--ep", "3"), "zh", ("--ep 3：EP 要整除 8 个 expert",), ()),
])
def test_engine_errors_the_learner_meets_say_what_to_do_in_both_languages(argv, lang, wanted, unwanted, cli):
    code, _, err = cli(*argv, "--lang", lang)
    assert code == 2 and err.count("\n") == 1 and err.startswith("tutor: "), err
    assert all(text in err for text in wanted) and not any(text in err for text in unwanted), err


def test_a_reserve_out_of_range_is_called_a_share_of_memory(cli):
    # It said "is a fraction of peak: write 40% or 0.4", the MFU flag's words.
    code, _, err = cli("plan", "--model", "llama3-8b", "--gpus", "8", "--reserve", "1.5")
    assert code == 2 and "the reserve must be below 100%" in err and "peak" not in err, err


@pytest.mark.timeout(60)
def test_an_before_a_number_said_with_a_vowel(capsys):
    """Walkthrough polish 2: `a 80.0 GB h100-80gb`, `a 8192-token sequence`."""
    from tutor.cli import main
    from tutor.text import a_or_an

    assert [a_or_an(word) for word in ("8192-token", "80.0 GB", "11", "18,432", "1,024", "110", "4096", "800")] == \
        ["an", "an", "an", "an", "a", "a", "a", "an"]
    main(["plan", "--model", "lesson-70b", "--gpus", "64", "--seq", "8192", "--global-batch", "512"])
    plan = capsys.readouterr().out
    main(["size", "--model", "lesson-70b", "--gpus", "8", "--tp", "8", "--pp", "1", "--seq", "8192",
          "--global-batch", "512"])
    size = capsys.readouterr().out
    assert "an 8192-token sequence" in plan and "per GPU on an 80.0 GB h100-80gb" in size
    assert " a 8" not in plan + size
