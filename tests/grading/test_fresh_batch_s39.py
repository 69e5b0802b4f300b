"""What session 39 found: round 15's fresh batches (free_text_mock15 / free_text_labs14, written blind
to the rubrics on 2026-12-06) graded against their labels on their tuning parts, and the feedback a
refused diagnosis gives. Each `right` case below was refused before its fix (or, for a `wrong`
one, passed), and each comes with the near miss that must still fail."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose, item


def test_a_culprit_put_where_the_others_are_is_a_wrong_set_not_right_ranks_in_the_wrong_call():
    # exit-hang: rank 1 is the one left running, rank 0 exited. Swapping them names rank 1, but only
    # where rank 0 is; "right ranks, but not the call" would tell the learner the swap was right.
    swapped = diagnose("exit-hang", "Rank 0 is the one still alive: its main thread sits in Thread.join for the "
                                    "uploader. Rank 1 exited 0.")
    ranks = item(swapped, "ranks")
    assert not swapped["correct"]
    assert "the ranks you name as the odd ones out are not the right set" in ranks["missing"]
    assert not any("right ranks" in line for line in ranks["missing"])
    unplaced = diagnose("exit-hang", "rank 1 is stuck, rank 0 exited")  # named, its place not said: that is true
    assert "right ranks, but not the call they wait in" in item(unplaced, "ranks")["missing"]


def _contradiction(lab: str, answer: str) -> set[str]:
    from tutor.content import load
    from tutor.grading.claims.clauses import read
    from tutor.grading.claims.points import judge
    from tutor.grading.rubric import stating

    reading = stating(read(answer))
    return {verdict.contradiction.id for item in load().labs[lab].model.diagnosis for point in item.points
            if (verdict := judge(point, reading, describing=True)).contradiction is not None}


@pytest.mark.parametrize("answer", ["A longer timeout changes nothing.", "A longer timeout is the same hang.",
                                    "a longer timeout does nothing", "with a longer timeout it hangs anyway"])
def test_a_fix_said_after_it_to_make_no_difference_is_not_proposed(answer):
    # round 14 (labs13, tuning part): two right group-order post-mortems ended so, and lost the point
    assert "longer-timeout" not in _contradiction("group-order", answer)


@pytest.mark.parametrize("answer", ["Fix: a longer timeout, that solves it", "raise the timeout so the gather finishes"])
def test_a_longer_timeout_proposed_is_still_the_contradiction(answer):
    assert "longer-timeout" in _contradiction("group-order", answer)


def test_not_counted_as_a_fix_in_chinese_dismisses_the_fix():
    # exit-hang: "改成 daemon=True 不算修,会丢 checkpoint" ends a right answer (round 14, labs13 tuning part)
    assert _contradiction("exit-hang", "改成 daemon=True 不算修,会丢 checkpoint") == set()
    assert _contradiction("exit-hang", "改成 daemon=True 就修好了") != set()
