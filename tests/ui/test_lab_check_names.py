"""Issue 16: the Labs screen and `tutor lab check --lang zh` name each check in Chinese (they were
English in Chinese mode); the names come from tutor/labs/check_names.py."""

from __future__ import annotations

EVIDENCE = {"outcome": "ok", "elapsed_s": 3.0, "world_size": 2, "backend": "gloo", "summary": {"message": ""},
            "ranks": []}
CHECK = {"lab": "tp-mlp", "program": "train.py", "passed": False, "evidence": EVIDENCE, "checks": [
    {"name": "runs to completion", "passed": True, "detail": "all 2 ranks finished in 3.0 s"},
    {"name": "forward output equals one process", "passed": False, "detail": "max abs error 0.9 (rank 0)"},
    {"name": "time lost to data-loading is gone", "passed": True, "detail": "data wait 1.0 ms per step"}]}


def test_the_labs_screen_names_each_check_in_chinese():
    from tutor.ui.screens.labs_text import outcome_text

    shown = outcome_text(EVIDENCE, "zh", CHECK).plain
    assert "✓ 运行到结束：全部 2 个 rank 在 3.0 秒内跑完" in shown
    assert "✗ 前向输出与单进程一致：max abs error 0.9 (rank 0)" in shown  # a detail not listed stays as it is
    assert "✓ 浪费在数据加载上的时间消除了：" in shown
    assert "runs to completion" not in shown and "forward output" not in shown
    english = outcome_text(EVIDENCE, "en", CHECK).plain
    assert "✓ runs to completion: all 2 ranks finished in 3.0 s" in english


def test_lab_check_text_in_chinese():
    from tutor.labs.report import check_text

    lines = check_text(CHECK, "zh")
    assert lines[0] == "tp-mlp：在 2 个 rank 上检查 train.py"
    assert lines[1] == "  ✓ 运行到结束：全部 2 个 rank 在 3.0 秒内跑完"
    assert check_text(CHECK)[1] == "  ✓ runs to completion: all 2 ranks finished in 3.0 s"


# Details as the tp-mlp check and a perf lab's fix check wrote them (copied from `tutor lab check tp-mlp
# --lang zh` on the shipped program, and slow-dataloader's): they were English in the Chinese app.
REAL = {
    "max abs error 0.941 (values up to 3.55) (rank 0)": "最大绝对误差 0.941（数值最大到 3.55）（rank 0）",
    "ln1.weight: max abs error 2.47 (values up to 3.77) (rank 0)": "ln1.weight：最大绝对误差 2.47（数值最大到 3.77）（rank 0）",
    "matches (max abs error 4.8e-07)": "一致（最大绝对误差 4.8e-07）",
    "forward 0 all-reduce(s), backward 0; Megatron's layout needs 2 and 2 per layer (one per attention and one per "
    "MLP, each way) (rank 0)": "前向 0 次 all-reduce，反向 0 次；Megatron 的布局每层前向、反向各需 2 次（attention 和 MLP "
                               "各一次）（rank 0）",
    "25,184 parameter values on this rank (1/2 of the split layers); tensors held in this rank's process besides the "
    "checker's: 100,992 B, parameters and gradients 201,472 B":
        "本 rank 上有 25,184 个参数值（切分层的 1/2）；除检查程序自己的以外，本 rank 进程持有的张量 100,992 B，其中参数和梯度 201,472 B",
    "53.4 vs 176.0 ms per step shipped in each one's best round: 3.30×; round by round 3.10×, 3.30×, 2.90×, median "
    "3.10× (needs ≥ 2× by either; interleaved rounds of 4, 8, 3 steps and the result())":
        "各取最好一轮：你的 53.4，原始程序 176.0（ms/步）：3.30×；逐轮 3.10×, 3.30×, 2.90×，中位数 3.10×（两种读法任一至少要 "
        "2×；4, 8, 3 步交替各轮连同 result()）",
    "2 steps on each of 2 ranks": "2 个 rank 每个都跑了 2 步",
}


def test_checkers_details_are_chinese_in_the_chinese_app():
    from tutor.labs.check_names import check_detail
    from tutor.ui.screens.labs_text import outcome_text

    for english, chinese in REAL.items():
        assert check_detail(english, "zh") == chinese, english
        assert check_detail(english, "en") == english
    check = {**CHECK, "checks": [{"name": "forward output equals one process", "passed": False,
                                  "detail": "max abs error 0.941 (values up to 3.55) (rank 0)"}]}
    assert "✗ 前向输出与单进程一致：最大绝对误差 0.941（数值最大到 3.55）（rank 0）" in outcome_text(EVIDENCE, "zh", check).plain
