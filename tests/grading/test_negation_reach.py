"""How far a negation reaches.

A negation said before the whole statement ("It is not true that …", "I don't think …", "并不是…",
"我不认为…") reaches its aside in brackets and its short pieces after a comma: before, the words before a
bracket, joined to the aside by the reader, lost the cue and stated the claim the sentence denies (a
probe over every open step's own point texts, each said after "It is not true that", found 649 points
still credited). A piece with a subject of its own after the comma is the speaker's own statement."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.content import load
from tutor.grading.claims.clauses import read
from tutor.grading.dispatch import grade

TP_IN_NODE = "followup-why-tp-in-node"


@pytest.mark.parametrize(("answer", "point"), [
    ("It is not true that NVLink inside the node is roughly ten times faster than InfiniBand between nodes "
     "(about 450 vs 50 GB/s per GPU on H100).", "nvlink-bandwidth"),
    ("并不是TP 每一层都要通信，forward 和 backward 都有（all-reduce 或 reduce-scatter/all-gather，都在关键路径上）。",
     "every-layer"),
    ("I don't think NVLink is much faster than InfiniBand (maybe 450 vs 400 GB/s).", "nvlink-bandwidth"),
])
def test_a_denied_statement_states_nothing_in_its_aside(answer, point):
    verdict = grade(library().question(TP_IN_NODE), answer)
    assert point not in verdict.details["covered"], verdict.details


@pytest.mark.parametrize(("scenario", "step", "answer"), [
    (TP_IN_NODE, None, "I don't think it's about memory, it's the traffic: TP all-reduces inside every layer, forward "
                       "and backward, on the critical path, and NVLink gives about 450 GB/s per GPU against 50 over "
                       "InfiniBand, so TP goes up to 8 inside the node; across nodes it would stall every layer."),
    (TP_IN_NODE, None, "我不认为是显存的问题，是通信：TP 每一层都要 all-reduce，在关键路径上藏不住；NVLink 450 GB/s，IB 只有 50，"
                       "所以 TP 最多 8 卡、留在机内。"),
    ("debug-data-loading", "next", "I don't think it's the network, it's the input pipeline: confirm with synthetic "
                                   "data that the gap disappears, add DataLoader workers or tokenize offline, then "
                                   "re-measure step time and MFU."),
])
def test_what_the_speaker_says_after_the_denial_is_stated(scenario, step, answer):
    verdict = grade(library().question(scenario), answer, step)
    assert verdict.correct, (verdict.score, verdict.details)


def test_the_denial_does_not_reach_a_piece_with_its_own_subject():
    clause = read("i don't think it's the network, it's the loader").clauses[0]
    assert [fragment.inherited for fragment in clause.fragments] == [False, False]
    clause = read("it is not true that dp is heavy, or slow").clauses[0]
    assert [fragment.inherited for fragment in clause.fragments] == [False, True]


@pytest.mark.parametrize(("answer", "covered", "contradicted"), [
    ("别一上来就怪网络——先量，再判断。", ["measure-first"], []),
    ("不要一开始就怪网络，先测。", ["measure-first"], []),
    ("一上来就怪网络。", [], ["measure-first"]),
])
def test_the_jiu_of_right_away_does_not_end_the_negation(answer, covered, contradicted):
    """The 就 after 一上来 ("right away") is no new verb phrase that a 别 before it cannot reach, as the 就 of
    a condition's consequence is ("找不到句尾就截断"): "别一上来就怪网络" was read as blaming the network, and
    the rubric's own text of mfu-halved contradicted its point."""
    verdict = grade(load().questions["mfu-halved"].model, answer)
    assert (verdict.details["covered"], verdict.details["contradicted"]) == (covered, contradicted)
