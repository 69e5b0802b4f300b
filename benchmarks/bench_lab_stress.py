"""Stress: 20 lab runs in a row, some stopped midway, then count what is left (issue 7).

The run kinds cycle: a normal run; a run cancelled after its second step (the app's Stop, or
Ctrl-C); a run whose parent process is SIGKILLed after its second step (the app killed);
a planted hang that the watchdog ends. After every run, and again at the end, it looks for
any process carrying the run's id in its environment and for the run's rendezvous port
still in LISTEN state. Prints one line per run and a verdict.

    python benchmarks/bench_lab_stress.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tutor.labs import procs
from tutor.labs.runner import RUN_ID_ENV, LabRun, RankProgress, RunSpec

LOOP = Path(__file__).resolve().parent.parent / "tests" / "labs" / "programs" / "loop.py"
KINDS = ("normal", "cancelled", "parent-killed", "hang")
PARENT = """
import sys
from pathlib import Path
from tutor.labs.runner import LabRun, RankProgress, RunSpec
run = LabRun(RunSpec(lab="stress", program=Path(sys.argv[1]), args=("100000",), world_size=2, run_root=Path(sys.argv[2])),
             on_event=lambda e: print("STEP", flush=True) if isinstance(e, RankProgress) and e.step == 2 else None)
print("RUN", run.run_id, flush=True)
run.run()
"""


def one_run(kind: str, root: Path) -> tuple[str, str, str | None]:
    """(run id, outcome, master port) of one run of `kind`."""
    if kind == "parent-killed":
        parent = subprocess.Popen([sys.executable, "-c", PARENT, str(LOOP), str(root)], stdout=subprocess.PIPE,
                                  text=True)
        run_id = None
        for line in parent.stdout:
            run_id = line.split()[1] if line.startswith("RUN") else run_id
            if line.startswith("STEP"):
                break
        port = _port(root / run_id)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        return run_id, "parent killed", port
    args = {"normal": ("5",), "cancelled": ("100000",), "hang": ("100", "--hang-at", "2")}[kind]
    run = LabRun(RunSpec(lab="stress", program=LOOP, args=args, world_size=2, timeout_s=2.0, run_root=root),
                 on_event=(lambda e: run.cancel() if isinstance(e, RankProgress) and e.step == 2 else None)
                 if kind == "cancelled" else None)
    evidence = run.run()
    return run.run_id, evidence["outcome"], evidence["launcher"]["master_port"]


def _port(run_dir: Path) -> str | None:
    from tutor.labs.events import read_all

    for path in run_dir.glob("rank*.jsonl"):
        for event in read_all(path):
            if event["ev"] == "boot" and event.get("master_port"):
                return event["master_port"]
    return None


def leftovers(run_id: str, wait_s: float = 5.0) -> list[int]:
    deadline = time.monotonic() + wait_s
    while (found := procs.pids_with_env(RUN_ID_ENV, run_id)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    stray, ports, started = 0, set(), time.monotonic()
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("TUTOR_HOME", home)
        root = Path(home) / "runs"
        root.mkdir()
        for index in range(args.runs):
            kind = KINDS[index % len(KINDS)]
            began = time.monotonic()
            run_id, outcome, port = one_run(kind, root)
            left = leftovers(run_id)
            stray += len(left)
            if port:
                ports.add(int(port))
            print(f"run {index + 1:>2} {kind:<14} -> {outcome:<13} {time.monotonic() - began:5.1f} s, "
                  f"port {port}, processes left: {len(left)}", flush=True)
        bound = sorted(ports & procs.listening_ports())
        everything = procs.pids_with_env("TUTOR_HOME", os.environ["TUTOR_HOME"])
    print(f"{args.runs} runs in {time.monotonic() - started:.0f} s: {stray} stray process(es) after the runs, "
          f"{len(everything)} alive now, rendezvous ports still listening: {bound or 'none'} "
          f"-> {'PASS' if not stray and not everything and not bound else 'FAIL'}")


if __name__ == "__main__":
    main()
