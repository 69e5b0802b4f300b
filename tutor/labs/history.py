"""What the learner's lab history unlocks: the solution after a passed check, the tutor's reading after
a diagnosis. The history is written by `tutor.actions.labs` alone.

Every read takes the store of the front end that asks (the CLI's, or the app's `open_store()`,
which need not be the default one); `None`, a store the app could not open, has no history."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.store import Store


def has_passed(store: Store | None, lab: str) -> bool:
    """Whether a check of the learner's own copy has passed: that unlocks the reference solution."""
    from tutor.store.lab_runs import check_passed

    return store is not None and check_passed(store, lab)


def status(store: Store | None, lab: str) -> str:
    """"passed" once a check of the learner's copy passed, "started" once there is a copy, else "new"
    (`tutor lab list` and the Labs screen)."""
    from tutor.labs.workspace import workspace_dir

    if has_passed(store, lab):
        return "passed"
    return "started" if workspace_dir(lab).is_dir() else "new"


def has_diagnosed(store: Store | None, lab: str) -> bool:
    """Whether the learner has tried a diagnosis of this lab: that shows the tutor's own
    classification of a run (the answer to the lab's first question) from then on."""
    from tutor.store.lab_runs import diagnosed

    return store is not None and diagnosed(store, lab)
