"""Time to first screen: `tutor start` against a minimal Textual app, started the same way.

DESIGN §8: the tutor's first screen within 1.5x the time of a minimal Textual app on the same
machine. Both run in a pseudo-terminal (80x24) from a fresh interpreter; the clock stops when a
marker drawn by the first screen arrives on the terminal. Reports medians and their ratio, of
the wall clock and of the CPU time the process had used by then (/proc/PID/stat: on a machine
shared with other work the CPU time moves far less than the wall clock).

Bytecode is written (PYTHONDONTWRITEBYTECODE is dropped from the environment), as a learner's
install does: with it set, every run compiled the tutor's own modules again while Textual's
came compiled from its wheel, which charged the tutor ~50 ms the learner never pays.

    python benchmarks/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("MINIMAL-READY")
        yield Footer()

Minimal().run()
"""


def first_screen_seconds(argv: list[str], marker: str, env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process) when `marker` reaches the terminal."""
    started = time.perf_counter()
    child = pexpect.spawn(argv[0], argv[1:], env=env, dimensions=(24, 80), encoding="utf-8", timeout=30)
    try:
        child.expect(marker)
        wall = time.perf_counter() - started
        return wall, _cpu_seconds(child.pid)
    finally:
        child.sendcontrol("c")
        child.terminate(force=True)


def _cpu_seconds(pid: int) -> float:
    """User + system time of `pid` so far (its threads included), from /proc; 0 where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)  # the ratio moves ±0.15 between 9-run medians here
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home, "TERM": "xterm-256color"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        script = Path(home) / "minimal_app.py"
        script.write_text(MINIMAL_APP)
        tutor = [sys.executable, "-m", "tutor", "start"]
        minimal = [sys.executable, str(script)]
        first_screen_seconds(tutor, "Sections", env)  # create the database once; warm the OS cache
        first_screen_seconds(minimal, "MINIMAL-READY", env)
        baseline, measured = [], []
        for _ in range(args.runs):  # interleaved, so drift in machine load hits both alike
            baseline.append(first_screen_seconds(minimal, "MINIMAL-READY", env))
            measured.append(first_screen_seconds(tutor, "Sections", env))
    for index, what in enumerate(("wall clock", "CPU time")):
        base = statistics.median(run[index] for run in baseline)
        ours = statistics.median(run[index] for run in measured)
        print(f"{what}: minimal Textual app {base * 1000:.0f} ms, tutor start {ours * 1000:.0f} ms "
              f"(medians of {args.runs}); ratio {ours / base:.2f} (target <= 1.25)")


if __name__ == "__main__":
    main()
