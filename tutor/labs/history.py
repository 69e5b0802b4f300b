"""What the learner's lab history unlocks: the solution after a passed check, the tutor's reading after
a diagnosis. The history is written by `tutor.actions.labs` alone."""

from __future__ import annotations

def has_passed(lab: str) -> bool:
    """Whether a check of the learner's own copy has passed: that unlocks the reference solution."""
    from tutor.store import Store
    from tutor.store.lab_runs import check_passed

    with Store() as store:
        return check_passed(store, lab)


def status(lab: str) -> str:
    """"passed" once a check of the learner's copy passed, "started" once there is a copy, else "new"
    (`tutor lab list` and the Labs screen)."""
    from tutor.labs.workspace import workspace_dir

    if has_passed(lab):
        return "passed"
    return "started" if workspace_dir(lab).is_dir() else "new"


def last_outcomes(lab: str) -> dict[str, str]:
    """The latest outcome per action for one lab (for `tutor lab list`)."""
    from tutor.store import Store
    from tutor.store.lab_runs import latest_outcomes

    with Store() as store:
        return latest_outcomes(store, lab)


def has_diagnosed(lab: str) -> bool:
    """Whether the learner has tried a diagnosis of this lab: that shows the tutor's own
    classification of a run (the answer to the lab's first question) from then on."""
    from tutor.store import Store
    from tutor.store.lab_runs import diagnosed

    with Store() as store:
        return diagnosed(store, lab)
