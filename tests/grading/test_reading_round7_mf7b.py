"""Reader rules of round 7 (2026-12-04, session 36), each general over rubrics, with the readings that must
stay: an imperative with its outcome after "and" supposes the move ("Raise it to an hour and the job still
dies"), while advice ("just raise it and …"), two imperatives ("raise it and dump the recorder") and a
diagnosis's fix keep it; a supposition announced ("Counterfactual: TP 16 across two nodes") asserts nothing;
and a sum's next term after a comma ("…, plus 39 GB of state is over 80 GB") is read with the term before it.
Written by hand, none from the labelled benchmark."""

from __future__ import annotations

import pytest

from tutor.grading.claims.clauses import read
from tutor.grading.claims.matching import polarity

RAISE = [["raise it to", "raise the timeout", "stretch tp across nodes", "double pp", "put tp across", "tp 16 across"]]


def _asserts(text: str, concepts=RAISE, describing: bool = False) -> bool:
    return polarity(concepts, read(text), extended=False, describing=describing, listed=True) is True


@pytest.mark.parametrize("text", [
    "Raise it to an hour and that's 500 GPU-hours, and the job still dies.",
    "Raise it to an hour and the job still dies an hour later.",
    "Stretch TP across nodes and those four blocking all-reduces per layer eat the step.",
    "Double PP and the bubble doubles.",
    "Put TP across two nodes and you wait on IB every layer.",
    "So raise the timeout to a day and we just hear about it later.",
    "Run the counterfactual: TP 16 across two nodes.",
    "Counterfactual: TP 16 across two nodes, every layer waits.",
])
def test_a_supposed_move_is_not_asserted(text):
    assert not _asserts(text)


@pytest.mark.parametrize("text", [
    "Raise it to an hour.",
    "Sure, raise it to an hour, the ranks will sync.",
    "Just raise it to an hour and the job gets through.",
    "Raise it to an hour and dump the flight recorder if it fails again.",
    "Stretch TP across nodes and keep PP inside.",
    "I'd stretch TP across nodes and the model fits.",
    "TP 16 across two nodes is fine.",
])
def test_the_move_advised_is_still_read(text):
    assert _asserts(text)


def test_the_outcome_itself_is_asserted():
    # the supposition covers the move before the "and", not a claim the outcome makes
    assert _asserts("Raise it to an hour and the longer timeout fixes the hang.", [["timeout"], ["fixes"]])


def test_a_diagnosis_fix_with_its_outcome_is_still_a_fix():
    text = "Raise the timeout and the hang goes away."
    assert _asserts(text, describing=True)
    assert not _asserts(text, describing=False)


@pytest.mark.parametrize(("text", "joined"), [
    ("不开 CP 时 activation 大约 46 GB，再加上 39 GB 的 model state 就超过 80 GB 了",
     "activation 大约 46 gb 再加上 39 gb 的 model state 就超过 80 gb"),
    ("Activations take 46 GB, plus 39 GB of state is past 80 GB", "activations take 46 gb plus 39 gb of state is past 80 gb"),
])
def test_a_sum_goes_on_after_a_comma(text, joined):
    fragments = [fragment for clause in read(text).clauses for fragment in clause.fragments]
    extension = next(fragment for fragment in fragments if joined in fragment.text)
    assert extension.base is not None  # the reader's join: it may state a claim, never assert a contradiction


def test_a_new_statement_after_a_comma_is_not_a_sum():
    fragments = [fragment.text for clause in read("Activations take 46 GB, the state is over 80 GB").clauses
                 for fragment in clause.fragments]
    assert not any("46 gb" in fragment and "80 gb" in fragment for fragment in fragments)
