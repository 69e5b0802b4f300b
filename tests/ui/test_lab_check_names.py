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
    assert "✗ 前向输出与单进程一致：max abs error 0.9 (rank 0)" in shown  # a checker's detail is its own
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
