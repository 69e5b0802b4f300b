"""The installed interview content, played end to end with right answers (issue 20: the new rounds
run in the CLI and the app; the app drives the same MockSession). Five design interviews in one
store meet the five design scenarios, since each new interview asks the least-asked one; then the
candidate-led, behavioural and pitch rounds. Real content and the config grader: ~15 s in all."""

from __future__ import annotations

import pytest

from tests.interview.helpers import right_answer
from tutor.interview.clock import ManualClock
from tutor.actions import mock


@pytest.fixture(scope="module")
def real_library():
    from tutor.content import load
    from tutor.interview.scenarios import Library

    load.cache_clear()
    return Library.installed()


def _play(store, library, format_id, seed):
    session = mock.start(store, library, format_id, clock=ManualClock(), seed=seed, fuzz=False)
    while not session.done:
        session.begin()
        mock.answer(session, right_answer(session))
    return session.report


@pytest.mark.timeout(120)
def test_every_round_runs_end_to_end_on_the_installed_content(store, real_library):
    designs = [_play(store, real_library, "design", seed) for seed in range(1, 6)]
    asked = {report["stages"][0]["question_id"] for report in designs}
    assert asked == {"trillion-parameter-design", "design-moe-deepseek-scale", "design-long-context-128k",
                     "design-finetune-70b-deadline", "design-rl-separate-gpus"}
    for report in designs:
        assert report["score"] == 1.0 and report["verdict"]["level"] == "strong-hire", report["stages"][0]["question_id"]
        probes = [entry for entry in report["stages"] if entry["followup"]]
        assert probes and all(entry["kind"] == "open" for entry in probes)  # strong answers are probed
    led = _play(store, real_library, "led", 7)
    assert led["stages"][0]["structure"]["score"] == 1.0 and led["verdict"]["level"] == "strong-hire"
    behavioural = _play(store, real_library, "behavioural", 8)
    assert behavioural["score"] == 1.0
    pitch = _play(store, real_library, "pitch", 9)
    assert not pitch["stages"][0]["spoken"]["cut"] and pitch["stages"][0]["correct"]  # the model pitch fits 30 s


LED_EN = ("I would ask how many tokens and by when. Memory: 16 bytes per parameter. TP inside the node, PP across "
          "nodes. Days from 6ND divided by GPUs, peak and MFU. Checkpoints sharded and async, at an interval from "
          "the MTBF. Monitor loss spikes and per-rank step time.")
LED_ZH = ("我会先问训多少 token、什么时候要训完。显存按每参数 16 字节算。机内 TP 8，跨机 PP。天数用 6ND 除以卡数、峰值和 MFU。"
          "checkpoint 分片异步，按 MTBF 定间隔。监控 loss spike 和每个 rank 的 step time。")


@pytest.mark.parametrize(("answer", "right", "least_order", "most_order"), [
    (LED_EN, True, 1.0, 1.0),
    (LED_ZH, True, 1.0, 1.0),
    (" ".join(reversed([part.strip() + "." for part in LED_EN.split(".") if part.strip()])), False, 0.0, 0.34),
    ("Clarify. 16 bytes. TP 8. 6ND. Checkpoint. Monitor.", False, 0.0, 0.0),  # keywords, one per sentence
])
def test_the_blank_page_reads_structure_not_keywords(real_library, answer, right, least_order, most_order):
    from tutor.grading.dispatch import grade
    from tutor.interview.session import STRUCTURE_PASS
    from tutor.interview.structure import order_score

    question = real_library.question("led-dense-400b")
    order = order_score(question.steps[0], real_library.structure(question.id), answer)["score"]
    assert least_order <= order <= most_order
    assert (grade(question, answer).correct and order >= STRUCTURE_PASS) is right


@pytest.mark.parametrize(("answer", "right"), [
    ("Once a job on 128 GPUs hung at step 9000. I dumped every rank with py-spy; rank 3 had died of an OOM. After "
     "we fixed the batch padding it ran again, we had lost 6 hours. We added an alert on rank exits.", True),
    ("有一次 128 张卡的训练任务在第 9000 步卡住了。我用 py-spy 把每个 rank 的调用栈 dump 下来，发现 rank 3 因为 oom 死了。"
     "修好 padding 之后任务恢复了，之前损失了 6 个小时。后来我们加了 rank 退出的告警。", True),
    ("GPUs. py-spy. Root cause. Recovered. Runbook.", False),  # the headings of a story, not a story
    ("We had 512 GPUs hang with an NCCL timeout. We raised the timeout to two hours and it went away.", False),
])
def test_the_behavioural_story_needs_the_story(real_library, answer, right):
    from tutor.grading.dispatch import grade

    assert grade(real_library.question("behavioural-hang-story"), answer).correct is right
