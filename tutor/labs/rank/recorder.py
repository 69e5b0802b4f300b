"""The tutor's own collective recorder: every torch.distributed call a lab makes, in order.

`install()` wraps the public collective and point-to-point functions of `torch.distributed`
in this process, so a lab program keeps calling the real API (`dist.all_reduce(x)`) and each
call is written to the rank's event file as it starts (`coll`) and when it returns
(`coll_end`; for `async_op=True`, when its `wait()` returns, or when the future that
`get_future()` gave completes, as for DDP's gradient all-reduce). A rank that hangs therefore
leaves its pending collective as the last `coll` line, with op, shapes, dtype, bytes, group,
peer and the learner's call site: what the flight recorder records in C++, readable here
even where the build has no flight recorder. An in-memory copy serves checkers that count
collectives per layer (`since(mark)`).

Calls from inside another wrapped call (e.g. `all_gather_object` -> `all_gather`) are
recorded once, as the outer call. Collectives that torch issues from C++ (DDP's reducer) are
not seen here; the flight recorder has those.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import threading
import time
from collections import deque

import torch
import torch.distributed as dist

from tutor.labs.rank.session import Session

OPS = ("all_reduce", "all_gather", "all_gather_into_tensor", "reduce_scatter", "reduce_scatter_tensor",
       "broadcast", "reduce", "all_to_all", "all_to_all_single", "gather", "scatter", "barrier",
       "monitored_barrier", "send", "recv", "isend", "irecv", "batch_isend_irecv",
       "all_gather_object", "broadcast_object_list", "gather_object", "scatter_object_list",
       # torch 2.13's names for all_gather_into_tensor and reduce_scatter_tensor (which it
       # deprecates, with a warning that sends learners here)
       "all_gather_single", "reduce_scatter_single")
# The argument that holds the data each op sends (the rest are outputs or options).
PAYLOAD = {"all_gather": "tensor", "all_gather_into_tensor": "input_tensor", "reduce_scatter": "input_list",
           "reduce_scatter_tensor": "input", "all_to_all": "input_tensor_list",
           "all_to_all_single": "input", "gather": "tensor", "scatter": "tensor",
           "all_gather_single": "input_tensor", "reduce_scatter_single": "input"}
PEER_ARGS = ("dst", "src", "group_dst", "group_src")
_SKIP_DIRS = (os.path.dirname(torch.__file__), os.path.dirname(os.path.abspath(__file__)))
KEEP = 4096


class Recorder:
    def __init__(self, session: Session):
        self.session = session
        self.entries: deque[dict] = deque(maxlen=KEEP)
        self._seq = 0
        self._lock = threading.Lock()
        self._inside = threading.local()
        self._signatures: dict[str, inspect.Signature] = {}
        self._installed = False

    def install(self) -> None:
        if self._installed:
            return
        for op in OPS:
            original = getattr(dist, op, None)
            if original is not None and not getattr(original, "_tutor_recorded", False):
                setattr(dist, op, self._wrap(op, original))
        # `dist.P2POp(dist.isend, ...)` is checked against distributed_c10d's own isend/irecv by
        # identity; point those names at the recorded ones so a learner's P2POp still passes.
        for op in ("isend", "irecv"):
            setattr(dist.distributed_c10d, op, getattr(dist, op))
        self._installed = True

    def mark(self) -> int:
        """A position in the record; `since(mark)` returns what came after it."""
        return self._seq

    def since(self, mark: int, until: int | None = None) -> list[dict]:
        """The collectives after `mark` (and up to the mark `until`, when given)."""
        return [entry for entry in self.entries if entry["seq"] > mark and (until is None or entry["seq"] <= until)]

    def _wrap(self, op: str, original):
        @functools.wraps(original)
        def recorded(*args, **kwargs):
            if getattr(self._inside, "active", False):
                return original(*args, **kwargs)
            entry = self._enter(op, original, args, kwargs)
            self._inside.active = True
            try:
                result = original(*args, **kwargs)
            except BaseException as error:
                self._finish(entry, error=f"{type(error).__name__}: {str(error)[:300]}")
                raise
            finally:
                self._inside.active = False
            if isinstance(result, list) and result and all(hasattr(work, "wait") for work in result):
                return [_RecordedWork(work, self, entry) for work in result]
            if result is not None and hasattr(result, "wait") and hasattr(result, "is_completed"):
                entry["state"] = "issued"
                return _RecordedWork(result, self, entry)
            self._finish(entry)
            return result

        recorded._tutor_recorded = True
        return recorded

    def _enter(self, op: str, original, args, kwargs) -> dict:
        bound = self._bind(op, original, args, kwargs)
        payload = bound.get(PAYLOAD.get(op, "tensor"), args[0] if args else None)
        if op == "batch_isend_irecv":
            payload = [getattr(p2p, "tensor", None) for p2p in (payload or [])]
        tensors = [t for t in (payload if isinstance(payload, (list, tuple)) else [payload])
                   if isinstance(t, torch.Tensor)]
        with self._lock:
            self._seq += 1
            seq = self._seq
        entry = {
            "seq": seq, "op": op, "state": "running", "t0": time.time(),
            "shape": list(tensors[0].shape) if tensors else None,
            "dtype": str(tensors[0].dtype).replace("torch.", "") if tensors else None,
            "bytes": sum(t.numel() * t.element_size() for t in tensors),
            "group": _group_ranks(bound.get("group")),
            "pg": _group_name(bound.get("group")),
            "peer": next((bound[name] for name in PEER_ARGS if bound.get(name) is not None), None),
            **_call_site(),
            "asynchronous": bool(bound.get("async_op")),
        }
        self.entries.append(entry)
        self.session.emit("coll", **{key: value for key, value in entry.items() if key not in ("t0", "state")})
        return entry

    def _finish(self, entry: dict, error: str | None = None) -> None:
        entry["dt"] = time.time() - entry["t0"]
        entry["state"] = "failed" if error else "done"
        self.session.emit("coll_end", seq=entry["seq"], dt=round(entry["dt"], 6), error=error)

    def _bind(self, op: str, original, args, kwargs) -> dict:
        signature = self._signatures.get(op)
        if signature is None:
            signature = self._signatures[op] = inspect.signature(original)
        try:
            return dict(signature.bind_partial(*args, **kwargs).arguments)
        except TypeError:
            return {}


class _RecordedWork:
    """An async collective's handle; records the collective as done when `wait()` returns."""

    def __init__(self, work, recorder: Recorder, entry: dict):
        self._work, self._recorder, self._entry = work, recorder, entry

    def wait(self, *args, **kwargs):
        try:
            result = self._work.wait(*args, **kwargs)
        except BaseException as error:
            self._recorder._finish(self._entry, error=f"{type(error).__name__}: {str(error)[:300]}")
            raise
        if self._entry["state"] != "done":
            self._recorder._finish(self._entry)
        return result

    def get_future(self):
        """The work's future; the collective is recorded as done (or failed) when it completes
        (DDP's comm hook chains on the future and never calls `wait()`)."""
        future = self._work.get_future()
        future.add_done_callback(self._completed)
        return future

    def _completed(self, future) -> None:
        if self._entry["state"] in ("done", "failed"):
            return
        try:
            future.value()
        except BaseException as error:  # noqa: BLE001  (the callback must not raise into torch)
            self._recorder._finish(self._entry, error=f"{type(error).__name__}: {str(error)[:300]}")
            return
        self._recorder._finish(self._entry)

    def __getattr__(self, name: str):
        return getattr(self._work, name)


def _group_ranks(group) -> list[int] | None:
    """The group's ranks; None for the world group, named (`dist.group.WORLD`, as DDP's comm hook
    does) or not, so both line up as one group's collectives."""
    if group is None or group is dist.group.WORLD:
        return None
    try:
        return dist.get_process_group_ranks(group)
    except Exception:  # not a group this rank belongs to; the call will say so itself
        return None


def _group_name(group) -> str | None:
    """The process group's name and description ("2 (grads)"; None: the default group). Two
    groups of the same ranks differ only by these; backends pair collectives by the name."""
    if group is None or group is dist.group.WORLD:
        return None
    try:
        name, desc = group.group_name, getattr(group, "group_desc", "") or ""
    except Exception:  # not a group this rank belongs to, or one already destroyed
        return None
    return f"{name} ({desc})" if desc and desc != name else name


def _call_site() -> dict:
    """{site: the learner's line that made this call, via: the tutor's functions between it and
    torch (the hang labs' `Trainer.finish`, `check_run` ...), innermost first}.

    The site is what the learner reads; `via` names where in the shared training loop the rank
    is, for the run-aware grader (hangfacts), now that the stacks kept for a run leave the
    tutor's frames out (docs/labs.md, "Code the labs share")."""
    frame, via = sys._getframe(3), []
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_SKIP_DIRS):
        if os.path.abspath(frame.f_code.co_filename).startswith(_SKIP_DIRS[1]) and frame.f_code.co_filename != __file__:
            via.append(frame.f_code.co_qualname)
        frame = frame.f_back
    if frame is None:
        return {"site": None, "via": via}
    return {"site": f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno} in {frame.f_code.co_name}",
            "via": via}
