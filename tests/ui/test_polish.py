"""Polish items of the walkthrough (issue 16 item 8) that live in what the app shows from the graders."""

from __future__ import annotations

import re

import pytest

from tutor.content import load
from tutor.grading.dispatch import grade

FULL_WIDTH = re.compile(r"[\u3000-\u303f\uff00-\uffef\u4e00-\u9fff]")


def test_an_english_message_has_no_chinese_punctuation_or_units():
    """Polish 3: `Could not find a number in 'two hundred'； write e.g. 39 GB， 1.2e25， 54万 tokens/s.`
    and the English placeholder `a count (e.g. 200, 70B, 54万)`; the Chinese texts keep theirs."""
    from tutor.grading.quantity import QuantityError, parse_quantity
    from tutor.grading.units import DIMENSION_WORDS

    with pytest.raises(QuantityError) as caught:
        parse_quantity("two hundred", "GB", "bytes", 1e9)
    assert not FULL_WIDTH.search(caught.value.message.en), caught.value.message.en
    assert "；" in caught.value.message.zh
    for en, zh in DIMENSION_WORDS.values():
        assert not FULL_WIDTH.search(en), en


@pytest.mark.parametrize("answer", ["3/256", "0.0117"])
def test_a_fraction_written_as_a_fraction_is_not_told_to_write_its_unit(answer):
    """Polish 5: `3/256` for the 70B bubble was right "… write the unit next time": a fraction has none."""
    verdict = grade(load().questions["example-70b-walkthrough"].model, answer, "bubble", 0)
    assert verdict.correct, verdict.feedback["en"]
    assert "unit" not in verdict.feedback["en"] and "单位" not in verdict.feedback["zh"], verdict.feedback


def test_a_bare_number_of_another_unit_is_still_told_to_write_it():
    """The remark stays where it helps: 39.4 read as GB is right, but '39.4' alone was a guess."""
    verdict = grade(load().questions["distopt-bytes-per-gpu"].model, "39400000000", None, 0)
    assert verdict.correct and "write the unit next time" in verdict.feedback["en"], verdict.feedback["en"]


def test_a_runs_outcome_word_is_in_the_apps_language():
    """Found driving the app at 80×24 in Chinese: F6 then F7 showed "cancelled,用时 6.3 秒"."""
    from tutor.ui.screens.labs_text import outcome_text

    evidence = {"outcome": "cancelled", "elapsed_s": 6.3, "world_size": 2, "backend": "gloo", "summary": {}, "ranks": []}
    assert outcome_text(evidence, "zh").plain.startswith("已停止，用时 6.3 秒")
    # and its summary (found in tmux: F7 during a run read "stopped before the end" in Chinese mode)
    stopped = {**evidence, "summary": {"message": "stopped before the end"}}
    assert "运行结束前就停止了" in outcome_text(stopped, "zh").plain
    assert "stopped before the end" in outcome_text(stopped, "en").plain
    ranked = {**stopped, "ranks": [{"rank": 1, "last_step": 3, "exit_code": 0}]}
    assert "rank 1：第 3 步，退出码 0" in outcome_text(ranked, "zh").plain
    assert "rank 1: step 3, exit 0" in outcome_text(ranked, "en").plain
    assert outcome_text(evidence, "en").plain.startswith("cancelled in 6.3 s")
    assert outcome_text({**evidence, "outcome": "timeout?"}, "zh").plain.startswith("timeout?")  # unknown: as it is
