"""Helpers for Pilot and snapshot tests."""

from __future__ import annotations


async def settle(pilot) -> None:
    """Let background workers finish and the screen repaint, so what is checked is final."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
