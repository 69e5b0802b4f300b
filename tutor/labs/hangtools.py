"""The hang tools beyond the runner's evidence, as on a cluster: torch's debug reruns, torchrun's
error files, and the flight recorder's dumps read by `torchfrtrace`.

- `detail`: a rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL. torch wraps every process group and
  checks each collective's op and shapes against the other ranks before running it, so a
  mismatch ends the run at once with a message naming both sides, instead of a hang (facts §5).
  It does not check point-to-point operations, whose peers are not a group.
- `barrier`: a rerun with a `dist.monitored_barrier` at every step boundary of the labs'
  training loop (tutor.labs.rank.training), which makes rank 0 name the ranks that do not
  arrive within half the no-progress limit.
- torchrun writes each failed rank's exception to an error file (`error.json` under its log
  folder) and names the first one in its "Root Cause" report.
- `torchfrtrace --prefix fr_trace_rank_ RUN_DIR` reads the flight-recorder dumps the rank
  helper writes on a hang (pg_config mended for gloo, see rank/dumps.py) and reports the first
  collective where the ranks disagree. Run here as `python -m` so it finds this torch.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

from tutor.errors import UserInputError
from tutor.labs.runspec import RunSpec

MONITORED_BARRIER_ENV = "TUTOR_LAB_MONITORED_BARRIER"  # read by tutor.labs.rank.training
TOOLS = ("detail", "barrier")
FRTRACE_TIMEOUT_S = 120.0


def debug_env(tool: str, timeout_s: float) -> dict[str, str]:
    if tool == "detail":
        # the C++ side prints its findings only at INFO and above
        return {"TORCH_DISTRIBUTED_DEBUG": "DETAIL", "TORCH_CPP_LOG_LEVEL": "INFO"}
    if tool == "barrier":
        return {MONITORED_BARRIER_ENV: f"{max(1.0, timeout_s / 2):g}"}
    raise UserInputError(f"--debug must be one of {', '.join(TOOLS)}, not {tool!r}",
                         zh=f"--debug 只能是 {', '.join(TOOLS)} 之一，不能是 {tool!r}")


def with_debug(spec: RunSpec, tool: str | None) -> RunSpec:
    """The same run with one of the debug tools switched on (unchanged when `tool` is None)."""
    if not tool:
        return spec
    return dataclasses.replace(spec, env={**spec.env, **debug_env(tool, spec.timeout_s)})


def error_files(evidence: dict) -> list[dict]:
    """torchrun's error file of each failed rank: {rank, path, message, timestamp}, first failure first."""
    root = Path(evidence.get("run_dir") or "") / "torchrun"
    found = []
    for path in sorted(root.glob("*/attempt_*/*/error.json")) if root.is_dir() else []:
        try:
            record = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        message = record.get("message")
        extra = message.get("extraInfo") or {} if isinstance(message, dict) else {}
        text = str(message.get("message") if isinstance(message, dict) else message or "").strip()
        found.append({"rank": _rank_of(path, evidence), "path": str(path),
                      "message": text.splitlines()[0][:300] if text else "",
                      "timestamp": int(extra["timestamp"]) if str(extra.get("timestamp", "")).isdigit() else None})
    return sorted(found, key=lambda item: (item["timestamp"] or 0, item["rank"]))


def _rank_of(path: Path, evidence: dict) -> int:
    """Global rank of a local rank's folder (ranks are numbered node by node)."""
    local = int(path.parent.name)
    per_node = max(1, len([r for r in evidence.get("ranks") or [] if r.get("pid")]))
    node = (evidence.get("launcher") or {}).get("node_rank") or 0
    return node * per_node + local


def frtrace(run_dir: str | Path) -> dict:
    """torchfrtrace's report on a run's flight-recorder dumps: {command, returncode, output}."""
    run_dir = Path(run_dir)
    dumps = sorted(run_dir.glob("fr_trace_rank_*"))
    if not dumps:
        return {"command": None, "returncode": None,
                "output": "no flight-recorder dumps in this run (they are written on a hang or a failure)"}
    command = [sys.executable, "-m", "torch.distributed.flight_recorder.fr_trace", "--prefix", "fr_trace_rank_",
               str(run_dir)]
    evidence = run_dir / "evidence.json"
    if evidence.is_file() and len(dumps) < len(json.loads(evidence.read_text()).get("ranks") or []):
        command.insert(-1, "--allow-incomplete-ranks")
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=FRTRACE_TIMEOUT_S,
                                env={**_quiet_env()})
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"command": command, "returncode": None, "output": f"torchfrtrace did not run: {error}"}
    lines = [line for line in (result.stdout + result.stderr).splitlines()
             if "NumPy" not in line and "_conversion_method_template" not in line and "tabulate" not in line]
    return {"command": ["torchfrtrace", "--prefix", "fr_trace_rank_", str(run_dir)], "returncode": result.returncode,
            "output": "\n".join(lines).strip()}


def _quiet_env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONWARNINGS": "ignore"}
