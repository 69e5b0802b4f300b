"""The blind batches of the labelled set parse, name real targets, are labelled, and stay blind.

Nothing here grades an answer: the blind part is measured only by the benchmark
(`benchmarks/bench_grading_labelled.py`), which lists its misses only with `--part blind`.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.grading.labelled.cases import (BLIND_BATCHES, BLIND_TIERS, FREE_KINDS, HERE, blind_cases,
                                          free_text_cases)

WRONG_TIERS = [tier for tier in BLIND_TIERS if tier != "strong"]


@pytest.mark.parametrize("name", BLIND_BATCHES)
def test_each_blind_file_parses_into_labelled_tiers(name):
    data = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict) and data, name
    for target, tiers in data.items():
        assert set(tiers) <= set(BLIND_TIERS), (target, set(tiers) - set(BLIND_TIERS))
        assert all(isinstance(text, str) and text.strip() for texts in tiers.values() for text in texts), target
        assert len(tiers.get("strong", [])) >= 2, f"{target}: fewer than 2 strong answers"
        assert all(tiers.get(tier) for tier in WRONG_TIERS), f"{target}: missing {[t for t in WRONG_TIERS if not tiers.get(t)]}"


def test_blind_cases_cover_every_free_text_target_and_are_all_blind_and_labelled():
    everything = blind_cases()
    cases = [case for case in everything if case.kind != "mock"]
    known = {case.target for case in free_text_cases() if case.kind != "mock"}
    # every target of the existing set; blind_4 also reaches the seven labs added after it was written
    assert {case.target for case in cases} >= known
    assert all(case.target.startswith(("q:", "lab:")) for case in cases)
    assert all(case.kind in FREE_KINDS for case in everything)
    assert all(case.split == "blind" and case.right == (case.tier == "strong") for case in everything)
    assert all(case.split != "blind" for case in free_text_cases())  # the hash split is untouched
    assert 300 <= len(cases) <= 900, len(cases)  # blind_1, 2, 4 and 6 (the mock batches apart)
    # no answer twice (a pasted-back copy of the questions is the same text in blind_4 and blind_6)
    assert not [key for key, n in Counter(case.key for case in cases if case.tier != "copy").items() if n > 1]


def test_no_blind_answer_is_a_text_the_graders_have_seen():
    # A `copy` is the questions pasted back: the same words whoever pastes them (blind_4 has six
    # that the dev set has too). Every other answer must be new.
    seen = {case.text.strip().casefold() for case in free_text_cases()}
    assert not [case.text for case in blind_cases() if case.text.strip().casefold() in seen and case.tier != "copy"]


def test_show_misses_lists_blind_cases_only_when_the_blind_part_is_asked_for():
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_grading_labelled.py"
    spec = importlib.util.spec_from_file_location("bench_grading_labelled", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert not bench.listed("blind", None) and not bench.listed("blind", "held-out") and not bench.listed("blind", "tuning")
    assert bench.listed("blind", "blind") and not bench.listed("held-out", "blind")
    assert bench.listed("tuning", None) and bench.listed("held-out", None) and bench.listed("held-out", "held-out")


def test_the_mock_batch_covers_every_open_step_of_the_mock_interview():
    """blind_3.yaml: the interview content's own open steps (follow-ups, debug and hang stages,
    pitch, design), which the practice bank's targets do not reach."""
    from tutor.interview.scenarios import Library

    steps = {f"i:{qid}/{step.id}" for qid, loaded in Library.installed().interview.scenarios.items()
             for step in loaded.model.steps if step.kind in ("open", "clarify")}
    mock = [case for case in blind_cases() if case.kind == "mock"]
    assert {case.target for case in mock} == steps
    assert all(case.target.startswith("i:") for case in mock) and len(mock) >= 200
