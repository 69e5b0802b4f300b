"""What session 39 found: round 15's fresh batches (free_text_mock15 / free_text_labs14, written blind
to the rubrics on 2026-12-06) graded against their labels on their tuning parts, and the feedback a
refused diagnosis gives. Each `right` case below was refused before its fix (or, for a `wrong`
one, passed), and each comes with the near miss that must still fail."""

from __future__ import annotations

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
