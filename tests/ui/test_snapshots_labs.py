"""What the Labs screen looks like, in both languages, on the labs' fixture content.

The hang view is drawn from a fixed evidence dict (no run, no clock, no path that changes), so
the pictures are stable. Update with `pytest tests/ui/test_snapshots_labs.py --snapshot-update`
after a deliberate change.
"""

from __future__ import annotations

import pytest

from tests.ui.helpers import open_labs, settle
from tutor.ui.app import TutorApp

LANGS = ["en", "zh"]


def _rank(rank: int, op: str, site: str, frames: str) -> dict:
    done = [{"seq": seq, "op": "all_reduce", "shape": [4], "dtype": "float32", "bytes": 16, "group": None,
             "peer": None, "site": "train.py:13 in <module>", "state": "done", "dt": 0.001} for seq in (1, 2)]
    pending = {"seq": 3, "op": op, "shape": [4], "dtype": "float32", "bytes": 16, "group": None,
               "peer": 0 if op == "broadcast" else None, "site": site, "state": "waiting", "dt": None}
    return {"rank": rank, "pid": 10 + rank, "host": "laptop", "exit_code": None, "last_step": 2, "log_tail": [],
            "stack": f'Thread 1 (idle): "MainThread"\n{frames}', "stack_source": "py-spy",
            "collectives": done + [pending], "pending": pending, "exception": None, "metrics": {},
            "flight_recorder": None}


EVIDENCE = {
    "lab": "hang-demo", "outcome": "hang", "world_size": 2, "backend": "gloo", "elapsed_s": 9.8,
    "run_dir": "/nonexistent/hang-demo/run", "program": "train.py",
    "ranks": [_rank(0, "broadcast", "train.py:12 in <module>",
                    "    broadcast (torch/distributed/distributed_c10d.py:2800)\n    <module> (train.py:12)\n"),
              _rank(1, "all_reduce", "train.py:13 in <module>",
                    "    all_reduce (torch/distributed/distributed_c10d.py:3252)\n    <module> (train.py:13)\n")],
    "metrics": {}, "summary": {"category": "hang", "message": "no rank made progress for 3 s: rank 0 in broadcast "
                               "(train.py:12 in <module>); rank 1 in all_reduce (train.py:13 in <module>)"},
    "trace_files": [], "launcher": {"failure_report": None}, "at_failure": {},
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", LANGS)
def test_labs_hang_view_after_a_right_diagnosis(snap_compare, lab_content, lang):
    """The Evidence tab of a hang at 120×44, after a right diagnosis: the outcome (hang in 9.8 s,
    2 ranks, gloo), the runner's summary and each rank's step (no metrics panel: a hang lab measures nothing); the two
    ranks' stacks side by side (rank 0 in broadcast at train.py:12, rank 1 in all_reduce at
    train.py:13); the collectives by position with row 3 marked as the first divergence, and its
    sentence; the verdict ✓ Right with the points covered and the model answers; the answer line."""
    async def show(pilot):
        from tutor.labs.run_diagnosis import grade_run

        screen = await open_labs(pilot)
        screen.evidence, screen.revealed = EVIDENCE, True
        screen.verdict = grade_run(list(screen.entry.lab.diagnosis), "rank 0 waits in broadcast, rank 1 in all_reduce",
                                   EVIDENCE, lang)
        screen._show_evidence()
        screen.query_one("#lab-tabs").active = "tab-evidence"
        await settle(pilot)

    assert snap_compare(TutorApp(lang=lang), terminal_size=(120, 44), run_before=show)
