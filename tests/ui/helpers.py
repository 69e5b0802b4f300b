"""Helpers for Pilot and snapshot tests."""

from __future__ import annotations


async def settle(pilot) -> None:
    """Let background workers finish and the screen repaint, so what is checked is final."""
    for _ in range(2):
        await _workers_done(pilot.app)
        await pilot.pause()


async def _workers_done(app) -> None:
    """wait_for_complete raises when an exclusive worker was cancelled by its successor (the
    successor is what matters), or when a worker failed (the app has reported it already; tests
    read app.ui_errors): wait again for the ones still going."""
    from textual.worker import WorkerCancelled, WorkerFailed

    for _ in range(10):
        try:
            await app.workers.wait_for_complete()
            return
        except (WorkerCancelled, WorkerFailed):
            continue


async def open_labs(pilot):
    """From Home to the Labs screen (key b), settled; returns the screen."""
    await settle(pilot)
    await pilot.press("b")
    await settle(pilot)
    return pilot.app.screen


def burst(app, *keys: str) -> None:
    """Send keys as a fast typist or a paste does: all queued at once, none waiting for the one
    before it to be handled (Pilot's press waits for each key)."""
    from textual import events

    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app._driver.send_message(event)
