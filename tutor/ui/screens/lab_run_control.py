"""What one key of the Labs screen starts, as one thing F7 can stop."""

from __future__ import annotations


class RunControl:
    """The runs one key starts (a check at each rank count, an experiment's two runs), one after
    another: F7 stops the one going and every one still to come, which then ends as soon as it
    starts (the runner stops every process it started)."""

    def __init__(self) -> None:
        import threading

        self.current = None
        self.cancelled = False
        self.done = False
        self._lock = threading.Lock()

    def attach(self, run) -> None:
        """Called with each run before it starts (from the worker's thread)."""
        with self._lock:
            self.current = run
            if self.cancelled:
                run.cancel()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            if self.current is not None:
                self.current.cancel()

    @property
    def rank_states(self) -> list:
        return self.current.rank_states if self.current is not None else []

    @property
    def finished(self) -> bool:
        """Whether the last of the runs is over (set by the worker when it is done with them)."""
        return self.done

    @property
    def evidence(self):
        return self.current.evidence if self.current is not None else None

    @property
    def run_id(self) -> str | None:
        return self.current.run_id if self.current is not None else None
