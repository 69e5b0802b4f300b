"""The installed interview content, played end to end with right answers (issue 20: the new rounds
run in the CLI and the app; the app drives the same MockSession). Five design interviews in one
store meet the five design scenarios, since each new interview asks the least-asked one; then the
candidate-led, behavioural and pitch rounds. Real content and the config grader: ~15 s in all."""

from __future__ import annotations

import pytest

from tests.interview.helpers import right_answer
from tutor.interview.clock import ManualClock
from tutor.interview.session import MockSession


@pytest.fixture(scope="module")
def real_library():
    from tutor.content import load
    from tutor.interview.scenarios import Library, installed

    load.cache_clear()
    installed.cache_clear()
    return Library.installed()


def _play(store, library, format_id, seed):
    session = MockSession.start(store, library, format_id, clock=ManualClock(), seed=seed, fuzz=False)
    while not session.done:
        session.begin()
        session.submit(right_answer(session))
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
