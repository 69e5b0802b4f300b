"""Helpers for Pilot and snapshot tests."""

from __future__ import annotations


async def settle(pilot) -> None:
    """Let background workers finish and the screen repaint, so what is checked is final."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_labs(pilot):
    """From Home to the Labs screen (key b), settled; returns the screen."""
    await settle(pilot)
    await pilot.press("b")
    await settle(pilot)
    return pilot.app.screen
