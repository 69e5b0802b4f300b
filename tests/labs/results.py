"""Reading a lab check's result in tests: the checks that failed, and nothing left running."""

from __future__ import annotations

from tests.labs.conftest import leftovers


def failed_checks(result: dict) -> dict[str, str]:
    """{check name: its message} of every check that failed."""
    return {check["name"]: check["detail"] for check in result["checks"] if not check["passed"]}


def assert_no_leftovers(*results: dict) -> None:
    """No process of any of these runs is still alive (the run's marker, after a short wait)."""
    for result in results:
        assert leftovers(result["evidence"]["run_dir"].rsplit("/", 1)[-1]) == []
