"""The installed interview library, loaded once for the mock-rubric tests that grade its steps."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def library():
    from tutor.interview.scenarios import Library

    return Library.installed()
