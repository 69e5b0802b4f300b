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
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

from tutor.labs import procs, stacks
from tutor.labs.container import Container, sweep_stale
from tutor.labs.agent import PARENT_PID_ENV
from tutor.labs.events import DUMP_REQUEST, FAILURE_RELEASE, EventTail, event_file
from tutor.labs.evidence import RankState, classify, metrics, parse_failures, summary
from tutor.labs.evidence_model import RunEvidence
from tutor.labs.launch import require_torch
from tutor.labs.measure import enrich
from tutor.labs.runspec import Finished, LogLine, Phase, RankProgress, RunEvent, RunSpec, new_run_dir

POLL_S = 0.1
STOP_GRACE_S = 3.0
DUMP_WAIT_S = 3.0
# After a rank raised, how long the others get to reach the collective they will wait in before
# their stacks are taken: on a loaded machine a slower peer is still in its forward pass when the
# failure is seen (CI: long-batch's rank 0 was, so its stack showed no wait). Within boot.HOLD_S,
# with py-spy's time and DUMP_WAIT_S after it.
SETTLE_S = 4.0
EXIT_GRACE_S = 15.0  # after every rank has exited, how long the launcher may take to follow
RANK_LINE = re.compile(r"^\[rank(\d+)\]:(.*)$")
RUN_ID_ENV = "TUTOR_LAB_RUN_ID"
NO_CGROUP_ENV = "TUTOR_LAB_NO_CGROUP"  # "1": run without the cgroup even where one can be made
RUN_MEMORY_ENV = "TUTOR_LAB_RUN_MEMORY_MB"  # the run's cgroup limit, instead of the ranks' caps + the launcher's
LAUNCHER_MB = 1024  # the launcher's share of the run's memory limit (torchrun imports torch too)


class LabRun:
    def __init__(self, spec: RunSpec, on_event: Callable[[RunEvent], None] | None = None):
        require_torch()
        self.spec = spec
        self.run_dir = new_run_dir(spec)
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
        self._callback_error: str | None = None
        self._ranks_lock = threading.Lock()
        self._at_failure: dict[int, dict | None] = {}
        self._container: Container | None = None
        self._container_facts: dict | None = None

    # -- public

    def start(self) -> None:
        self._emit(Phase("launching", " ".join(self.plan.command())))
        env = self.plan.env()
        env[PARENT_PID_ENV] = str(os.getpid())
        env[RUN_ID_ENV] = self.run_id
        env["TORCH_ELASTIC_SHUTDOWN_TIMEOUT"] = env.get("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", "5")
        rank_mb = procs.default_rank_memory_mb(self.plan.nproc_per_node)
        if self.plan.backend == "gloo":  # CUDA maps far more address space than it uses: no cap there
            env.setdefault(procs.MEMORY_CAP_ENV, str(rank_mb))
        # The whole run in one cgroup where the machine allows: every process it starts stays
        # inside, and host memory is capped for NCCL runs too (the ranks' caps plus the launcher).
        if os.environ.get(NO_CGROUP_ENV) != "1":
            sweep_stale()  # runs whose tutor was killed before it could end them
            run_mb = os.environ.get(RUN_MEMORY_ENV, "")
            run_mb = int(run_mb) if run_mb.isdigit() else rank_mb * self.plan.nproc_per_node + LAUNCHER_MB
            self._container = Container.create(f"tutor-lab-{self.run_id}", run_mb << 20)
        self._t0_wall, self._t0 = time.time(), time.monotonic()
        self._proc = subprocess.Popen(self.plan.command(), env=env, cwd=str(Path(self.spec.program).parent),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      start_new_session=True,
                                      preexec_fn=self._container.enter if self._container else None)
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
        return self._states() if self.finished else []

    # -- threads

    def _emit(self, event: RunEvent) -> None:
        self._queue.put(event)
        if self._on_event is not None:
            try:
                self._on_event(event)
            except Exception as error:  # a failing display must not stop the readers or the cleanup
                self._callback_error = self._callback_error or f"{type(error).__name__}: {error}"

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
            failure_seen = False
            while self._proc.poll() is None:
                now = time.monotonic()
                if self._poll_events():
                    last_progress = now
                if not failure_seen and any(state.exception for state in self._states()):
                    failure_seen = True
                    self._collect_failure_evidence()
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
                limit = self.plan.watchdog_s if self._all_ready() else self.spec.startup_s
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
            # Through the one JSON mapping of the typed model (tutor.labs.evidence_model): the shape is checked here.
            built = enrich(self._build(hang=hang, quiet=quiet, over_time=over_time))
            self.evidence = RunEvidence.from_json(built).to_json()
        except BaseException as error:  # never leave processes behind, whatever went wrong here
            self._stop_all()
            self.evidence = RunEvidence.runner_error(
                self.spec.lab, error, world_size=self.spec.world_size, backend=self.spec.backend,
                elapsed_s=round(time.monotonic() - self._t0, 3), run_dir=str(self.run_dir),
                program=str(self.spec.program)).to_json()
        finally:
            self._close_logs()
            (self.run_dir / "evidence.json").write_text(json.dumps(self.evidence, indent=1, default=str))
            self._done.set()
            self._emit(Phase("finished", self.evidence["outcome"]))
            self._emit(Finished(self.evidence))

    # -- helpers

    def _rank(self, rank: int) -> RankState:
        with self._ranks_lock:  # reader threads and the monitor both add ranks
            if rank not in self._ranks:
                self._ranks[rank] = RankState(rank)
            return self._ranks[rank]

    def _states(self) -> list[RankState]:
        with self._ranks_lock:
            return [self._ranks[rank] for rank in sorted(self._ranks)]

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
        local = [state for state in self._states() if state.pid is not None]
        return len(local) >= self.spec.world_size and all(state.exit_code is not None for state in local)

    def _all_ready(self) -> bool:
        local = [state for state in self._states() if state.pid is not None]
        return len(local) >= self.spec.world_size and all(state.ready for state in local)

    def _collect_hang_evidence(self, skip_raised: bool = False) -> None:
        """Every rank's stack (py-spy) and flight recorder; `skip_raised`: no stack of a rank that
        raised (its traceback is its stack), which saves a py-spy run per rank a timeout ended."""
        self._emit(Phase("collecting-evidence"))
        (self.run_dir / DUMP_REQUEST).touch()
        pids = {state.rank: state.pid for state in self._states() if state.pid and not (skip_raised and state.exception)}
        for rank, (text, source) in stacks.collect(pids, self.run_dir).items():
            self._ranks[rank].stack, self._ranks[rank].stack_source = text, source
        deadline = time.monotonic() + DUMP_WAIT_S
        while time.monotonic() < deadline:
            self._poll_events()
            if all(state.dump for state in self._states() if state.pid):
                break
            time.sleep(POLL_S)
        for state in self._states():
            if state.stack is None and state.dump:
                path = Path(state.dump.get("files", {}).get("pystack", ""))
                if path.is_file():
                    state.stack, state.stack_source = stacks.learner_stack(path.read_text()), "python"

    def _collect_failure_evidence(self) -> None:
        """A rank raised: take every rank's stack while the failed one holds its exit (rank/boot.py).

        The failed rank's stack is its traceback; where each other rank was waiting at that
        moment is kept (their collectives fail soon after, once the failed rank is gone).
        """
        states = self._states()
        waiting = [s for s in states if s.pid and not s.exception and s.exit_code is None and s.ready]
        if waiting:
            self._settle(waiting)
            self._collect_hang_evidence(skip_raised=True)
            self._at_failure = {s.rank: dict(s.pending()) if s.pending() else None for s in waiting}
        elif any(s.pid and s.exit_code is None for s in states):
            # Every rank raised at once (a timeout, then "Connection closed" on its peers): each
            # holds its exit, so its flight recorder can still be dumped; the stacks are the tracebacks.
            self._collect_hang_evidence(skip_raised=True)
        for state in states:
            if state.exception and state.exception.get("traceback"):
                state.stack, state.stack_source = state.exception["traceback"], "traceback"
        (self.run_dir / FAILURE_RELEASE).touch()

    def _settle(self, waiting: list[RankState]) -> None:
        """Until SETTLE_S, let each surviving rank run on to the collective it will wait in (or end),
        as its peers on other nodes of a cluster would; what it is still doing then is its stack."""
        deadline = time.monotonic() + SETTLE_S
        while time.monotonic() < deadline:
            self._poll_events()
            if all(state.pending() or state.exception or state.exit_code is not None for state in waiting):
                return
            time.sleep(POLL_S)

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
        procs.sweep(self.run_id)  # whatever left the tree (setsid, double fork) still carries the marker
        if self._container is not None and self._container_facts is None:
            left = self._container.kill_all()  # what left the tree and cleared its environment, too
            self._container_facts = {**self._container.describe(), "left_running": left}
            self._container.remove()
        for reader in getattr(self, "_readers", []):
            reader.join(timeout=2.0)

    def _build(self, *, hang: bool, quiet: float | None, over_time: bool) -> dict:
        failures = parse_failures(list(self._launcher_lines))
        for rank, code in failures["exit_codes"].items():
            if self._rank(rank).exit_code is None:
                self._rank(rank).exit_code = code
        ranks = self._states()
        local = [state for state in ranks if state.pid is not None] or ranks
        launcher_rc = None if self._launcher_lingered else self._proc.returncode  # ranks' exits decide then
        outcome = classify(local, expected=self.spec.world_size, launcher_rc=launcher_rc, hang=hang,
                           cancelled=self._cancel.is_set() and not hang, over_time=over_time)
        told = summary(outcome, local, expected=self.spec.world_size, quiet_s=quiet, failures=failures)
        oom_kills = (self._container_facts or {}).get("oom_kills", 0)
        if oom_kills:
            told["message"] += (f"; the kernel ended {oom_kills} process(es) of this run for going over its memory "
                                f"limit of {self._container_facts['limit_bytes'] / 2**30:.1f} GiB (out of memory)")
        return {
            "lab": self.spec.lab, "outcome": outcome, "world_size": self.spec.world_size * self.spec.nnodes,
            "backend": self.spec.backend, "elapsed_s": round(time.monotonic() - self._t0, 3),
            "run_dir": str(self.run_dir), "program": str(self.spec.program),
            "ranks": [state.as_dict() for state in ranks],
            "metrics": metrics(ranks, self._t0_wall),
            "summary": told,
            "container": self._container_facts,
            "trace_files": sorted(str(path) for path in (self.run_dir / "traces").glob("*")),
            "launcher": {"command": self.plan.command(), "exit_code": self._proc.returncode,
                         "failure_report": failures["report"],
                         "master_port": next((s.master_port for s in ranks if s.master_port), None)},
            "callback_error": self._callback_error,
            "at_failure": {str(rank): pending for rank, pending in self._at_failure.items()},
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
