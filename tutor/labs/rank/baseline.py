"""The shipped program of a perf lab, run in processes of its own for the fix check.

The fix check (perfcheck.py) runs the learner's program inside the check's ranks. If the shipped
program ran there too, the learner's `build()` could reach it — patch `sys.modules["lab_shipped"]`
to add 300 all-reduces to the baseline's step, or burn CPU in it — and every comparison would
be against a baseline the learner chose (findings D7: that passed with a 2.76× "speed-up"). So
each check rank starts one worker (`python -m tutor.labs.rank.baseline`) *before* it imports
the learner's code; the workers import the shipped file themselves, form a process group of
their own (gloo or NCCL, rendezvous through a TCPStore that worker 0 binds on port 0, so no port
is chosen first and used later) and do what their rank tells them over a pipe, one JSON line per
command: build, a timed round of N steps plus `result()`, a FLOP-counted step, a profiled
window; and, for the lab tests' shared jobs, load another lab's shipped program. The worker times itself (it is the shipped code, nothing else runs in it) and installs
the same collective recorder as a check rank (events into `baseline/rankN.jsonl`, which the
runner does not read as a rank), so both programs pay the same instrumentation.

The worker dies with its rank (prctl, procs.die_with_parent) and the runner kills every
descendant of the launcher, so it never outlives the check.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import traceback
from pathlib import Path

WORKER_ENV = "TUTOR_LAB_BASELINE"
"""JSON {rank, world_size, local_rank, backend, run_dir, pg_timeout_s} for a worker."""


class Baseline:
    """The check rank's side: one worker process, driven over its stdin/stdout."""

    def __init__(self, ctx, shipped: str):
        import torch.distributed as dist

        from tutor.labs.agent import LAUNCHER_PID_ENV
        from tutor.labs.rank.perf import gather_json

        env = {key: value for key, value in os.environ.items()
               if key not in (LAUNCHER_PID_ENV, "TORCHELASTIC_ERROR_FILE")}
        run_dir = str(ctx.session.run_dir) if ctx.session.run_dir else ""
        env[WORKER_ENV] = json.dumps({"rank": ctx.rank, "world_size": ctx.world_size, "local_rank": ctx.local_rank,
                                      "backend": ctx.backend, "run_dir": run_dir, "shipped": shipped,
                                      "trace_dir": str(ctx.trace_dir),
                                      "pg_timeout_s": float(os.environ.get("TUTOR_LAB_PG_TIMEOUT", 60.0)),
                                      "parent": os.getpid()})
        self.process = subprocess.Popen([sys.executable, "-m", "tutor.labs.rank.baseline"], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        # Worker 0 hosts the workers' store; every worker learns its port from its own rank.
        port = self._read()["port"] if ctx.rank == 0 else None
        port = gather_json(port)[0]
        self._send({"op": "connect", "host": os.environ.get("MASTER_ADDR", "127.0.0.1"), "port": port})
        self._read()
        dist.barrier()

    def call(self, op: str, **fields: object) -> dict:
        self._send({"op": op, **fields})
        return self._read()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._send({"op": "exit"})
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired, RuntimeError):
                self.process.kill()
                self.process.wait()

    def _send(self, message: dict) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def _read(self) -> dict:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the shipped program's worker exited (code {self.process.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"the shipped program's worker failed:\n{reply['error']}")
        return reply


# ---------------------------------------------------------------- the worker process

class _Context:
    """What a perf lab's `build(ctx)` reads from a rank's context, for the shipped program."""

    def __init__(self, config: dict, device, session, recorder):
        self.rank, self.world_size = config["rank"], config["world_size"]
        self.local_rank, self.backend, self.device = config["local_rank"], config["backend"], device
        self.session, self.recorder = session, recorder
        self.trace_dir = Path(config["trace_dir"])

    @property
    def is_first(self) -> bool:
        return self.rank == 0

    def log(self, *parts: object) -> None:
        print(f"[shipped rank{self.rank}]", *parts, file=sys.stderr, flush=True)

    def report(self, **metrics: object) -> None:
        pass

    def check(self, *args, **kwargs) -> None:
        pass


def _worker() -> None:
    config = json.loads(os.environ[WORKER_ENV])
    from tutor.labs.procs import die_with_parent

    die_with_parent(signal.SIGKILL, config["parent"])
    # The protocol owns the real stdout; anything the program prints goes to the rank's log.
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    commands = sys.stdin

    def reply(**fields: object) -> None:
        protocol.write(json.dumps(fields) + "\n")

    try:
        _serve(config, commands, reply)
    except BaseException:  # the rank shows the worker's traceback as its own failure
        reply(error=traceback.format_exc())
        raise SystemExit(1)
    protocol.flush()
    os._exit(0)  # see rank/boot.py: gloo teardown at interpreter exit can abort


def _serve(config: dict, commands, reply) -> None:
    from datetime import timedelta

    import torch
    import torch.distributed as dist

    from tutor.labs.events import EventWriter
    from tutor.labs.rank.checking import _load
    from tutor.labs.rank.recorder import Recorder
    from tutor.labs.rank.session import Session

    rank, world = config["rank"], config["world_size"]
    store = None
    if rank == 0:
        store = dist.TCPStore("127.0.0.1", 0, world, is_master=True, wait_for_workers=False)
        reply(port=store.port)
    connect = json.loads(commands.readline())
    if store is None:
        store = dist.TCPStore(connect["host"], connect["port"], world, is_master=False)
    timeout = timedelta(seconds=config["pg_timeout_s"])
    if config["backend"] == "nccl":
        device = torch.device("cuda", config["local_rank"])
        torch.cuda.set_device(device)
        torch.set_default_device(device)
        dist.init_process_group("nccl", store=store, rank=rank, world_size=world, timeout=timeout, device_id=device)
    else:
        device = torch.device("cpu")
        dist.init_process_group(config["backend"], store=store, rank=rank, world_size=world, timeout=timeout)
    events = Path(config["run_dir"]) / "baseline" if config["run_dir"] else None
    if events is not None:
        events.mkdir(parents=True, exist_ok=True)
    session = Session(rank=rank, local_rank=config["local_rank"], world_size=world, local_world_size=world,
                      run_dir=None, writer=EventWriter(events, rank))
    recorder = Recorder(session)
    recorder.install()
    module = _load(config["shipped"], "lab_shipped")
    ctx = _Context(config, device, session, recorder)
    reply(ready=True)
    job = None
    from tutor.labs.rank import perfcheck

    for line in commands:
        command = json.loads(line)
        op = command["op"]
        if op == "exit":
            dist.barrier()
            dist.destroy_process_group()
            return
        if op == "build":
            job = module.build(ctx)
            job.step()  # warm-up, as the learner's
            reply(ok=True)
        elif op == "round":
            dist.barrier()
            times, result = perfcheck.timed_round(ctx, job, int(command["steps"]))
            torch.save(result, command["save"])
            reply(times=times)
        elif op == "flops":
            reply(flops=perfcheck.counted_step(job))
        elif op == "profile":
            summary = perfcheck.profiled(ctx, "shipped", job)
            torch.save(job.result(), command["save"])
            reply(summary=summary)
        elif op == "load":
            # Another lab's shipped program in the same worker: the lab tests check several perf labs
            # in one job (tests/labs/several.py), and a worker's start (torch, its optimizer's
            # torch._dynamo, a process group) costs ~7 CPU-s per rank. The last job goes first.
            job = module = None
            sys.modules.pop("lab_shipped", None)
            import gc

            gc.collect()
            module = _load(command["shipped"], "lab_shipped")
            reply(ready=True)
        else:
            reply(error=f"unknown command {op!r}")


if __name__ == "__main__":
    _worker()
