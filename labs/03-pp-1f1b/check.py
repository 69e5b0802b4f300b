"""Checker for pp-1f1b: same loss and gradients as the unpipelined model, 1F1B's memory bound,
and the measured bubble against the sizing engine's (p−1)/m for several m.

The schedule is checked for shape first (every F and B once, each B after its F), and all
ranks agree on it before anything runs, so a malformed schedule is reported, not hung on.

What the pipeline did is observed here, not taken from what `run_pipeline` returns (a GPipe
engine that reports a clamped peak passed before; findings D4): the stage's layers are handed
over wrapped in `Observed`, which records when each forward and backward pass starts and
ends and pads each pass to the shipped program's fixed duration (KERNEL_S). The peak in flight
is the largest count of forwards started minus backwards finished; busy time is the sum of the
passes; the step is timed by the checker around the call.
"""

from __future__ import annotations

import copy
import statistics
import time
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn

from tutor.labs import rank as lab
from tutor.labs.rank.context import compare


def shape_problem(ops, microbatches: int) -> str | None:
    seen_forward: set[int] = set()
    seen_backward: set[int] = set()
    for kind, index in ops:
        if kind not in ("F", "B") or not 0 <= index < microbatches:
            return f"unknown step {(kind, index)!r}"
        if kind == "F":
            if index in seen_forward:
                return f"F{index} appears twice"
            seen_forward.add(index)
        else:
            if index not in seen_forward:
                return f"B{index} comes before F{index}"
            if index in seen_backward:
                return f"B{index} appears twice"
            seen_backward.add(index)
    missing = sorted(set(range(microbatches)) - seen_backward)
    return f"no backward for micro-batch(es) {missing}" if missing else None


class _Edge(torch.autograd.Function):
    """Identity; its backward calls `on_backward` (the pass boundary seen from autograd)."""

    @staticmethod
    def forward(ctx, x, token, on_backward):
        ctx.on_backward = on_backward
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        ctx.on_backward()
        return grad, torch.zeros(()), None


class Observed(nn.Module):
    """The stage's layers, with every pass recorded as (kind, "start"|"end", time) and padded
    to the fixed pass duration (KERNEL_S, the shipped program's stand-in for a GPU kernel)."""

    def __init__(self, layers: nn.Module, kernel_s: dict[str, float]):
        super().__init__()
        self.layers, self.kernel_s = layers, kernel_s
        self.token = nn.Parameter(torch.zeros(()))  # makes autograd reach the input edge on stage 0
        self.events: list[tuple[str, str, float]] = []
        self._began: dict[str, float] = {}

    def _start(self, kind: str) -> None:
        self._began[kind] = time.perf_counter()
        self.events.append((kind, "start", self._began[kind]))

    def _end(self, kind: str) -> None:
        remaining = self.kernel_s[kind] - (time.perf_counter() - self._began[kind])
        if remaining > 0:
            time.sleep(remaining)
        self.events.append((kind, "end", time.perf_counter()))

    def forward(self, x):
        self._start("F")
        x = _Edge.apply(x, self.token, lambda: self._end("B"))
        y = _Edge.apply(self.layers(x), self.token, lambda: self._start("B"))
        self._end("F")
        return y

    def observed(self) -> dict:
        """Peak in flight, busy seconds and the passes seen, from the recorded events."""
        held = peak = 0
        busy, seen = 0.0, {"F": 0, "B": 0}
        for kind, edge, at in self.events:
            if edge == "start":
                self._began[kind] = at
                held += kind == "F"
                peak = max(peak, held)
            else:
                busy += at - self._began[kind]
                seen[kind] += 1
                held -= kind == "B"
        self.events.clear()
        return {"peak_in_flight": peak, "busy_s": busy, "passes": seen}


def agree(ok: bool) -> bool:
    flag = torch.tensor([1 if ok else 0])
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    return bool(flag.item())


def main() -> None:
    ctx = lab.init()
    program, params = lab.load_program(), lab.check_params()
    stage, stages = ctx.rank, ctx.world_size
    microbatches = int(params.get("microbatches", 8))
    schedules = {m: program.schedule(stage, stages, m) for m in sorted({stages, 2 * stages, 4 * stages, microbatches})}
    problems = {m: shape_problem(ops, m) for m, ops in schedules.items()}
    problem = next((f"m={m}: {text}" for m, text in problems.items() if text), None)
    ctx.check("schedule runs each pass once, backward after forward", problem is None,
              problem or "every F and B once, each B after its F")
    if not agree(problem is None):
        ctx.finish()
        return

    torch.manual_seed(11)
    full = program.build_full_model(stages)
    reference = copy.deepcopy(full)
    layers = program.stage_layers(full, stage, stages)
    inputs = [torch.randn(program.MICRO_BATCH, program.HIDDEN) for _ in range(microbatches)]
    targets = [torch.randn(program.MICRO_BATCH, program.HIDDEN) for _ in range(microbatches)]
    expected_loss = sum(nn.functional.mse_loss(reference(x), t) / microbatches for x, t in zip(inputs, targets))
    expected_loss.backward()

    warnings.filterwarnings("ignore", message="Full backward hook")
    kernel_s = lab.load_shipped().KERNEL_S
    observed = Observed(layers, kernel_s)
    result = program.run_pipeline(stage, stages, observed, schedules[microbatches], inputs, targets)
    seen = observed.observed()["passes"]
    ctx.check("every pass runs through the stage's layers", seen == {"F": microbatches, "B": microbatches},
              f"{seen['F']} forward and {seen['B']} backward passes of {microbatches} micro-batches seen "
              "through the layers handed to run_pipeline")
    if stage == stages - 1:
        ok, detail = compare(torch.tensor(result["loss"], dtype=torch.float64),
                             expected_loss.detach().double(), rtol=1e-5, atol=1e-7)
        ctx.check("loss equals the unpipelined model", ok, detail)
    wanted = program.stage_layers(reference, stage, stages)
    ok, detail = True, "every weight and bias of this stage matches"
    for (name, param), want in zip(layers.named_parameters(), wanted.parameters()):
        ok, detail = compare(param.grad, want.grad) if param.grad is not None else (False, "no gradient")
        if not ok:
            detail = f"stage {stage} {name}: {detail}"
            break
    ctx.check("gradients equal the unpipelined model", ok, detail)

    measure_bubbles(ctx, program, observed, schedules, stage, stages)
    ctx.finish()


def measure_bubbles(ctx, program, layers: Observed, schedules, stage: int, stages: int) -> None:
    """Run the schedule at m = p, 2p, 4p (the best of three runs each: on a shared CPU a run can
    lose its core) and split the stage's idle time into the schedule's bubble and overhead.

    Every send/recv and every wake-up from a pass costs a few milliseconds on a CPU, so idle
    time is the bubble plus a cost per micro-batch: idle(m) = bubble_s + m · overhead_s. The
    three runs give both by least squares; the bubble compared with the engine at each m is
    that m's idle time less m · overhead_s, over its busy time. The overhead is checked on its
    own: a schedule that serialises the stages has an 'overhead' of whole passes per micro-batch.
    """
    peak_limit, worst_peak = stages - stage, 0
    runs: dict[int, tuple[float, float]] = {}  # m -> (idle seconds, busy seconds) of the best run
    for m in (stages, 2 * stages, 4 * stages):
        inputs = [torch.randn(program.MICRO_BATCH, program.HIDDEN) for _ in range(m)]
        targets = [torch.randn(program.MICRO_BATCH, program.HIDDEN) for _ in range(m)]
        if m == stages:  # one untimed run: first calls are slow
            program.run_pipeline(stage, stages, layers, schedules[m], inputs, targets)
            layers.observed()
        for _ in range(3):
            layers.zero_grad()
            dist.barrier()
            begin = time.perf_counter()
            program.run_pipeline(stage, stages, layers, schedules[m], inputs, targets)
            step_s = time.perf_counter() - begin
            seen = layers.observed()
            idle = (step_s - seen["busy_s"], seen["busy_s"])
            if m not in runs or idle[0] < runs[m][0]:
                runs[m] = idle
            worst_peak = max(worst_peak, seen["peak_in_flight"])
    # The least-squares slope of idle seconds against m.
    overhead_s = max(statistics.linear_regression(list(runs), [idle for idle, _ in runs.values()]).slope, 0.0)
    pass_pair_s = sum(layers.kernel_s.values())
    for m, (idle_s, busy_s) in runs.items():
        ctx.measure(f"pipeline bubble at p={stages}, m={m} (stage idle / busy time, "
                    f"{overhead_s * 1e3:.1f} ms of overhead per micro-batch removed)",
                    (idle_s - m * overhead_s) / max(busy_s, 1e-9),
                    "bubble_fraction", {"pp": stages, "microbatches": m}, rtol=0.25, atol=0.06, unit="fraction")
    share = overhead_s / pass_pair_s
    ctx.check("idle time per micro-batch stays small beside a forward and backward pass", share <= 0.5,
              f"stage {stage}: {overhead_s * 1e3:.1f} ms idle per micro-batch beyond the bubble, "
              f"{share:.0%} of a forward + backward pass ({pass_pair_s * 1e3:.0f} ms); at most 50%")
    ctx.check("activations in flight stay within 1F1B's bound", worst_peak <= peak_limit,
              f"stage {stage} held up to {worst_peak} micro-batches' activations at once (m up to {4 * stages}); "
              f"1F1B holds at most p − stage = {peak_limit}")


if __name__ == "__main__":
    main()
