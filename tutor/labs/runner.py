"""The lab runner: launch the ranks, watch them, call a hang, collect evidence, clean up.

    run = LabRun(RunSpec(lab="tp-mlp", program=path, world_size=4), on_event=callback)
    run.start()
    for event in run.events(): ...      # LogLine, RankProgress, Phase, then Finished
    evidence = run.wait()                # or run.run() = start + wait; run.cancel() from any thread

Threads: two readers drain the launcher's stdout and stderr (torchrun prefixes each rank's
lines with `[rankN]:`), and one monitor polls the ranks' event files, runs the no-progress
watchdog, and on the way out stops every process and builds the evidence. `on_event` is
called from those threads (a Textual app would hop back with `call_from_thread`); `events()`
yields the same events from a queue. Start the run from the thread that will outlive it: the
kernel's parent-death signal follows the thread that started the launcher.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from tutor.labs import procs, stacks
from tutor.labs.agent import PARENT_PID_ENV
from tutor.labs.events import DUMP_REQUEST, EventTail, event_file
from tutor.labs.evidence import RankState, classify, metrics, parse_failures, summary
from tutor.labs.launch import LaunchPlan

POLL_S = 0.1
STOP_GRACE_S = 3.0
DUMP_WAIT_S = 3.0
EXIT_GRACE_S = 15.0  # after every rank has exited, how long the launcher may take to follow
RANK_LINE = re.compile(r"^\[rank(\d+)\]:(.*)$")
RUN_ID_ENV = "TUTOR_LAB_RUN_ID"


@dataclass(frozen=True)
class RunSpec:
    """One run of a lab program on this node."""

    lab: str
    program: Path
    world_size: int = 2
    """Ranks on this node (all ranks, on one machine)."""
    backend: str = "gloo"
    timeout_s: float = 30.0
    """No-progress limit once every rank is up; the process-group timeout is a little longer."""
    startup_s: float = 120.0
    """No-progress limit until every rank has joined the process group."""
    max_wall_s: float = 900.0
    args: tuple[str, ...] = ()
    nnodes: int = 1
    node_rank: int = 0
    rdzv_endpoint: str | None = None
    rdzv_id: str = "tutor-lab"
    env: dict[str, str] = field(default_factory=dict)
    run_root: Path | None = None
    """Parent folder of the run folders (default: TUTOR_HOME/lab-runs/LAB)."""
    keep_runs: int = 20

    def plan(self, run_dir: Path) -> LaunchPlan:
        return LaunchPlan(program=Path(self.program), nproc_per_node=self.world_size, run_dir=run_dir,
                          backend=self.backend, timeout_s=self.timeout_s, args=tuple(self.args),
                          nnodes=self.nnodes, node_rank=self.node_rank, rdzv_endpoint=self.rdzv_endpoint,
                          rdzv_id=self.rdzv_id, extra_env=dict(self.env))


@dataclass(frozen=True)
class LogLine:
    rank: int | None
    """None for the launcher's own lines."""
    stream: str
    text: str


@dataclass(frozen=True)
class RankProgress:
    rank: int
    step: int | None
    state: str
    """booted, ready, running, exited."""


@dataclass(frozen=True)
class Phase:
    name: str
    """launching, running, hang, collecting-evidence, stopping, finished."""
    detail: str = ""


@dataclass(frozen=True)
class Finished:
    evidence: dict


RunEvent = LogLine | RankProgress | Phase | Finished


class LabRun:
    def __init__(self, spec: RunSpec, on_event: Callable[[RunEvent], None] | None = None):
        self.spec = spec
        self.run_dir = _new_run_dir(spec)
        self.plan = spec.plan(self.run_dir)
        self.run_id = self.run_dir.name
        self.evidence: dict | None = None
        self._on_event = on_event
        self._queue: queue.Queue[RunEvent] = queue.Queue()
        self._ranks: dict[int, RankState] = {}
        self._tails: dict[int, EventTail] = {}
        self._launcher_lines: deque[str] = deque(maxlen=600)
        self._known: set[procs.Proc] = set()
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._proc: subprocess.Popen | None = None
        self._log_files: dict[int | None, object] = {}
        self._log_lock = threading.Lock()
        self._launcher_lingered = False

    # -- public

    def start(self) -> None:
        self._emit(Phase("launching", " ".join(self.plan.command())))
        env = self.plan.env()
        env[PARENT_PID_ENV] = str(os.getpid())
        env[RUN_ID_ENV] = self.run_id
        env["TORCH_ELASTIC_SHUTDOWN_TIMEOUT"] = env.get("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", "5")
        self._t0_wall, self._t0 = time.time(), time.monotonic()
        self._proc = subprocess.Popen(self.plan.command(), env=env, cwd=str(Path(self.spec.program).parent),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      start_new_session=True)
        self._known.add(procs.identify(self._proc.pid) or procs.Proc(self._proc.pid, -1))
        self._readers = [threading.Thread(target=self._read, args=(pipe, name), daemon=True,
                                          name=f"lab-{name}") for pipe, name in
                         ((self._proc.stdout, "stdout"), (self._proc.stderr, "stderr"))]
        for reader in self._readers:
            reader.start()
        threading.Thread(target=self._monitor, daemon=True, name="lab-monitor").start()

    def run(self) -> dict:
        self.start()
        return self.wait()

    def wait(self, timeout: float | None = None) -> dict | None:
        """The evidence once the run is over (None if `timeout` passes first)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._done.wait(0.2):  # short waits so Ctrl-C reaches the caller at once
            if deadline is not None and time.monotonic() > deadline:
                return None
        return self.evidence

    def cancel(self) -> None:
        self._cancel.set()

    def events(self) -> Iterator[RunEvent]:
        while True:
            event = self._queue.get()
            yield event
            if isinstance(event, Finished):
                return

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    @property
    def rank_states(self) -> list[RankState]:
        """Everything each rank reported (checks, measures, reports), once the run is over."""
        return [self._ranks[rank] for rank in sorted(self._ranks)] if self.finished else []

    # -- threads

    def _emit(self, event: RunEvent) -> None:
        self._queue.put(event)
        if self._on_event is not None:
            self._on_event(event)

    def _read(self, pipe, stream: str) -> None:
        for raw in iter(pipe.readline, b""):
            text = raw.decode("utf-8", errors="replace").rstrip("\n")
            match = RANK_LINE.match(text)
            rank, line = (int(match.group(1)), match.group(2)) if match else (None, text)
            if rank is None:
                self._launcher_lines.append(line)
            else:
                self._rank(rank).log.append(line)
            self._write_log(rank, line)
            self._emit(LogLine(rank, stream, line))
        pipe.close()

    def _monitor(self) -> None:
        hang = over_time = False
        quiet = None
        try:
            self._emit(Phase("running"))
            last_progress, last_scan, finished_at = time.monotonic(), 0.0, None
            while self._proc.poll() is None:
                now = time.monotonic()
                if self._poll_events():
                    last_progress = now
                if now - last_scan > 0.5:
                    self._known |= procs.descendants(self._proc.pid)
                    last_scan = now
                if self._cancel.is_set():
                    break
                if self._all_exited():
                    # Every rank is done; only the launcher is winding down. Not a hang.
                    finished_at = finished_at or now
                    if now - finished_at > EXIT_GRACE_S:
                        self._launcher_lingered = True
                        break
                    time.sleep(POLL_S)
                    continue
                limit = self.spec.timeout_s if self._all_ready() else self.spec.startup_s
                if now - last_progress > limit:
                    hang, quiet = True, now - last_progress
                    self._emit(Phase("hang", f"no progress for {quiet:.0f} s"))
                    self._collect_hang_evidence()
                    break
                if now - self._t0 > self.spec.max_wall_s:
                    over_time = True
                    break
                time.sleep(POLL_S)
            self._emit(Phase("stopping"))
            self._stop_all()
            self._poll_events()
            self.evidence = self._build(hang=hang, quiet=quiet, over_time=over_time)
        except BaseException as error:  # never leave processes behind, whatever went wrong here
            self._stop_all()
            self.evidence = {"lab": self.spec.lab, "outcome": "crash", "run_dir": str(self.run_dir),
                             "summary": {"category": "crash", "message": f"runner error: {error!r}"},
                             "ranks": [], "metrics": {}, "trace_files": []}
        finally:
            self._close_logs()
            (self.run_dir / "evidence.json").write_text(json.dumps(self.evidence, indent=1, default=str))
            self._done.set()
            self._emit(Phase("finished", self.evidence["outcome"]))
            self._emit(Finished(self.evidence))

    # -- helpers

    def _rank(self, rank: int) -> RankState:
        if rank not in self._ranks:
            self._ranks[rank] = RankState(rank)
        return self._ranks[rank]

    def _poll_events(self) -> bool:
        progressed = False
        for path in self.run_dir.glob("rank*.jsonl"):
            rank = int(path.stem[4:])
            tail = self._tails.setdefault(rank, EventTail(event_file(self.run_dir, rank)))
            for event in tail.read_new():
                state = self._rank(rank)
                before = (state.last_step, state.ready, state.pid)
                progressed |= state.feed(event)
                if event["ev"] == "boot" and state.pid:
                    self._known.add(procs.identify(state.pid) or procs.Proc(state.pid, -1))
                if (state.last_step, state.ready, state.pid) != before or event["ev"] == "exit":
                    label = "exited" if event["ev"] == "exit" else ("running" if state.last_step is not None
                                                                   else "ready" if state.ready else "booted")
                    self._emit(RankProgress(rank, state.last_step, label))
        return progressed

    def _all_exited(self) -> bool:
        local = [state for state in self._ranks.values() if state.pid is not None]
        return len(local) >= self.spec.world_size and all(state.exit_code is not None for state in local)

    def _all_ready(self) -> bool:
        local = [state for state in self._ranks.values() if state.pid is not None]
        return len(local) >= self.spec.world_size and all(state.ready for state in local)

    def _collect_hang_evidence(self) -> None:
        self._emit(Phase("collecting-evidence"))
        (self.run_dir / DUMP_REQUEST).touch()
        pids = {rank: state.pid for rank, state in self._ranks.items() if state.pid}
        for rank, (text, source) in stacks.collect(pids, self.run_dir).items():
            self._ranks[rank].stack, self._ranks[rank].stack_source = text, source
        deadline = time.monotonic() + DUMP_WAIT_S
        while time.monotonic() < deadline:
            self._poll_events()
            if all(state.dump for state in self._ranks.values() if state.pid):
                break
            time.sleep(POLL_S)
        for state in self._ranks.values():
            if state.stack is None and state.dump:
                path = Path(state.dump.get("files", {}).get("pystack", ""))
                if path.is_file():
                    state.stack, state.stack_source = path.read_text(), "python"

    def _stop_all(self) -> None:
        """End the launcher and every process it started; nothing survives a run."""
        if self._proc is None:
            return
        if self._proc.poll() is None:
            self._known |= procs.descendants(self._proc.pid)
            try:
                self._proc.send_signal(signal.SIGTERM)  # torchrun stops its ranks, as on a failure
                self._proc.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                pass
        self._known |= procs.descendants(self._proc.pid)
        procs.kill_all(self._known, signal.SIGKILL)
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._proc.wait()
        for reader in getattr(self, "_readers", []):
            reader.join(timeout=2.0)

    def _build(self, *, hang: bool, quiet: float | None, over_time: bool) -> dict:
        failures = parse_failures(list(self._launcher_lines))
        for rank, code in failures["exit_codes"].items():
            if self._rank(rank).exit_code is None:
                self._rank(rank).exit_code = code
        ranks = [self._ranks[rank] for rank in sorted(self._ranks)]
        local = [state for state in ranks if state.pid is not None] or ranks
        launcher_rc = None if self._launcher_lingered else self._proc.returncode  # ranks' exits decide then
        outcome = classify(local, expected=self.spec.world_size, launcher_rc=launcher_rc, hang=hang,
                           cancelled=self._cancel.is_set() and not hang, over_time=over_time)
        return {
            "lab": self.spec.lab, "outcome": outcome, "world_size": self.spec.world_size * self.spec.nnodes,
            "backend": self.spec.backend, "elapsed_s": round(time.monotonic() - self._t0, 3),
            "run_dir": str(self.run_dir), "program": str(self.spec.program),
            "ranks": [state.as_dict() for state in ranks],
            "metrics": metrics(ranks, self._t0_wall),
            "summary": summary(outcome, local, expected=self.spec.world_size, quiet_s=quiet, failures=failures),
            "trace_files": sorted(str(path) for path in (self.run_dir / "traces").glob("*")),
            "launcher": {"command": self.plan.command(), "exit_code": self._proc.returncode,
                         "failure_report": failures["report"],
                         "master_port": next((s.master_port for s in ranks if s.master_port), None)},
        }

    def _write_log(self, rank: int | None, line: str) -> None:
        with self._log_lock:
            handle = self._log_files.get(rank)
            if handle is None:
                name = "launcher.log" if rank is None else f"rank{rank}.log"
                handle = self._log_files[rank] = open(self.run_dir / name, "a", encoding="utf-8")
            handle.write(line + "\n")

    def _close_logs(self) -> None:
        with self._log_lock:
            for handle in self._log_files.values():
                handle.close()
            self._log_files.clear()


def _new_run_dir(spec: RunSpec) -> Path:
    from tutor.paths import home_dir

    root = Path(spec.run_root) if spec.run_root else home_dir() / "lab-runs" / spec.lab
    root.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    run_dir = root / f"{stamp}-{os.getpid()}"
    run_dir.mkdir()
    old = sorted(path for path in root.iterdir() if path.is_dir() and path != run_dir)
    for path in old[: max(0, len(old) - spec.keep_runs + 1)]:
        shutil.rmtree(path, ignore_errors=True)
    return run_dir
