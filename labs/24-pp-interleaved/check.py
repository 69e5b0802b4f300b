"""Checker for pp-interleaved: the loss and gradients of the unpipelined model, interleaved
1F1B's memory bound, and the measured bubble against the sizing engine's (p − 1)/(v·m).

The placement must give every virtual stage to exactly one (rank, chunk), and the schedule
must run each chunk's F and B of every micro-batch once, each B after its F; all ranks agree
on both before anything runs, so a malformed schedule is reported, not hung on.

As in pp-1f1b (whose `Observed` this follows), what the pipeline did is observed here, not
taken from `run_pipeline`'s return: each chunk is handed over wrapped so that every pass's
start and end is recorded and padded to the shipped program's fixed duration (KERNEL_S); the
peak in flight is the largest count of forwards started minus backwards finished over the
rank's chunks, busy time the sum of the passes, and the step is timed here around the call.
On a CPU every send, receive and wake-up adds a cost per micro-batch, so the stage's idle
time is fitted as bubble + m · overhead by least squares over m = p, 2p, 4p (see
labs/03-pp-1f1b/check.py); the bubble compared with the engine at each m is that m's idle
time less m · overhead, over its busy time.
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


def placement_problem(program, ranks: int, chunks: int) -> str | None:
    where: dict[int, tuple[int, int]] = {}
    for rank in range(ranks):
        for chunk in range(chunks):
            stage = program.placement(rank, chunk, ranks, chunks)
            if not isinstance(stage, int) or not 0 <= stage < ranks * chunks:
                return f"rank {rank} chunk {chunk} is placed at {stage!r}, not a stage 0..{ranks * chunks - 1}"
            if stage in where:
                first = where[stage]
                return f"stage {stage} is placed twice: rank {first[0]} chunk {first[1]} and rank {rank} chunk {chunk}"
            where[stage] = (rank, chunk)
    return None


def shape_problem(ops, chunks: int, microbatches: int) -> str | None:
    forwards: set[tuple[int, int]] = set()
    backwards: set[tuple[int, int]] = set()
    for op in ops:
        if len(op) != 3 or op[0] not in ("F", "B") or not (0 <= op[1] < chunks and 0 <= op[2] < microbatches):
            return f"unknown step {op!r}"
        kind, key = op[0], (op[1], op[2])
        if kind == "F":
            if key in forwards:
                return f"F of chunk {key[0]}, micro-batch {key[1]} appears twice"
            forwards.add(key)
        else:
            if key not in forwards:
                return f"B of chunk {key[0]}, micro-batch {key[1]} comes before its F"
            if key in backwards:
                return f"B of chunk {key[0]}, micro-batch {key[1]} appears twice"
            backwards.add(key)
    missing = sorted({(c, i) for c in range(chunks) for i in range(microbatches)} - backwards)
    return f"no backward for (chunk, micro-batch) {missing[:4]}{'…' if len(missing) > 4 else ''}" if missing else None


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


class Timeline:
    """Every pass of this rank's chunks, in the order they ran: (kind, "start"|"end", time)."""

    def __init__(self, kernel_s: dict[str, float]):
        self.kernel_s = kernel_s
        self.events: list[tuple[str, str, float]] = []
        self._began: dict[str, float] = {}

    def start(self, kind: str) -> None:
        self._began[kind] = time.perf_counter()
        self.events.append((kind, "start", self._began[kind]))

    def end(self, kind: str) -> None:
        remaining = self.kernel_s[kind] - (time.perf_counter() - self._began[kind])
        if remaining > 0:
            time.sleep(remaining)
        self.events.append((kind, "end", time.perf_counter()))

    def observed(self) -> dict:
        held = peak = 0
        busy, seen, began = 0.0, {"F": 0, "B": 0}, {}
        for kind, edge, at in self.events:
            if edge == "start":
                began[kind] = at
                held += kind == "F"
                peak = max(peak, held)
            else:
                busy += at - began[kind]
                seen[kind] += 1
                held -= kind == "B"
        self.events.clear()
        return {"peak_in_flight": peak, "busy_s": busy, "passes": seen}


class Observed(nn.Module):
    """One chunk's layers, its passes recorded on the rank's timeline."""

    def __init__(self, layers: nn.Module, timeline: Timeline):
        super().__init__()
        self.layers, self.timeline = layers, timeline
        self.token = nn.Parameter(torch.zeros(()))  # makes autograd reach the input edge on stage 0

    def forward(self, x):
        self.timeline.start("F")
        x = _Edge.apply(x, self.token, lambda: self.timeline.end("B"))
        y = _Edge.apply(self.layers(x), self.token, lambda: self.timeline.start("B"))
        self.timeline.end("F")
        return y


def agree(ok: bool) -> bool:
    flag = torch.tensor([1 if ok else 0])
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    return bool(flag.item())


def run(ctx, program, shipped, params: dict) -> None:
    """Every check of `program` (the shipped module gives the lab's sizes and pass times)."""
    rank, ranks = ctx.rank, ctx.world_size
    chunks, hidden, micro_batch = shipped.CHUNKS, shipped.HIDDEN, shipped.MICRO_BATCH
    microbatches = int(params.get("microbatches", shipped.MICROBATCHES))
    problem = placement_problem(program, ranks, chunks)
    schedules = {}
    if problem is None:
        for m in sorted({ranks, 2 * ranks, 4 * ranks, microbatches}):
            schedules[m] = program.schedule(rank, ranks, chunks, m)
            problem = problem or (f"m={m}: {text}" if (text := shape_problem(schedules[m], chunks, m)) else None)
    ctx.check("placement and schedule run each chunk's passes once, backward after forward", problem is None,
              problem or f"{ranks * chunks} virtual stages placed once each; every F and B once, each B after its F")
    if not agree(problem is None):
        return

    torch.manual_seed(11)
    full = shipped.build_full_model(ranks * chunks)
    reference = copy.deepcopy(full)
    stages_of = [program.placement(rank, chunk, ranks, chunks) for chunk in range(chunks)]
    timeline = Timeline(shipped.KERNEL_S)
    layers = [shipped.stage_layers(full, stage) for stage in stages_of]
    observed = [Observed(chunk_layers, timeline) for chunk_layers in layers]
    inputs = [torch.randn(micro_batch, hidden) for _ in range(microbatches)]
    targets = [torch.randn(micro_batch, hidden) for _ in range(microbatches)]
    expected_loss = sum(nn.functional.mse_loss(reference(x), t) / microbatches for x, t in zip(inputs, targets))
    expected_loss.backward()

    warnings.filterwarnings("ignore", message="Full backward hook")
    result = program.run_pipeline(rank, ranks, observed, stages_of, schedules[microbatches], inputs, targets)
    seen = timeline.observed()["passes"]
    wanted = chunks * microbatches
    ctx.check("every pass runs through the chunks' layers", seen == {"F": wanted, "B": wanted},
              f"{seen['F']} forward and {seen['B']} backward passes seen through the {chunks} chunks handed to "
              f"run_pipeline; {chunks} chunks × {microbatches} micro-batches = {wanted} of each")
    if ranks * chunks - 1 in stages_of:
        ok, detail = compare(torch.tensor(result["loss"], dtype=torch.float64),
                             expected_loss.detach().double(), rtol=1e-5, atol=1e-7)
        ctx.check("loss equals the unpipelined model", ok, detail)
    ok, detail = True, "every weight and bias of this rank's chunks matches"
    for stage, chunk_layers in zip(stages_of, layers):
        wanted_params = shipped.stage_layers(reference, stage).parameters()
        for (name, param), want in zip(chunk_layers.named_parameters(), wanted_params):
            ok, detail = compare(param.grad, want.grad) if param.grad is not None else (False, "no gradient")
            if not ok:
                detail = f"stage {stage} {name}: {detail}"
                break
        if not ok:
            break
    ctx.check("gradients equal the unpipelined model", ok, detail)

    measure_bubbles(ctx, program, observed, timeline, stages_of, schedules, rank, ranks, chunks, micro_batch, hidden)


def main() -> None:
    ctx = lab.init()
    run(ctx, lab.load_program(), lab.load_shipped(), lab.check_params())
    ctx.finish()


def measure_bubbles(ctx, program, observed, timeline, stages_of, schedules, rank, ranks, chunks,
                    micro_batch, hidden) -> None:
    """The schedule at m = p, 2p, 4p, the best of five runs each (on a shared CPU a run can lose
    its core); idle time split into the bubble and a per-micro-batch overhead (see the module)."""
    # Interleaved 1F1B's warm-up, 2(p − r − 1) + (v − 1)·p forwards, plus the one of the steady
    # state (Megatron-LM's interleaved schedule; Narayanan et al. 2021, §2.2.2).
    peak_limit, worst_peak = 2 * (ranks - rank - 1) + (chunks - 1) * ranks + 1, 0
    runs: dict[int, tuple[float, float]] = {}
    for m in (ranks, 2 * ranks, 4 * ranks):
        inputs = [torch.randn(micro_batch, hidden) for _ in range(m)]
        targets = [torch.randn(micro_batch, hidden) for _ in range(m)]
        if m == ranks:  # one untimed run: first calls are slow
            program.run_pipeline(rank, ranks, observed, stages_of, schedules[m], inputs, targets)
            timeline.observed()
        for _ in range(5):
            for module in observed:
                module.zero_grad()
            dist.barrier()
            begin = time.perf_counter()
            program.run_pipeline(rank, ranks, observed, stages_of, schedules[m], inputs, targets)
            step_s = time.perf_counter() - begin
            seen = timeline.observed()
            idle = (step_s - seen["busy_s"], seen["busy_s"])
            if m not in runs or idle[0] < runs[m][0]:
                runs[m] = idle
            worst_peak = max(worst_peak, seen["peak_in_flight"])
    # The least-squares slope of idle seconds against m.
    overhead_s = max(statistics.linear_regression(list(runs), [idle for idle, _ in runs.values()]).slope, 0.0)
    # atol 0.05: interleaving sends each micro-batch over p·v hops, and on a busy CPU each hop's
    # wake-up adds to the fill and drain (the solution measured 0.305 against 0.250 at p=2, m=2,
    # 4 ranks on 2 loaded cores 0.382 against 0.375); plain 1F1B still fails by 0.2 at m = p.
    for m, (idle_s, busy_s) in runs.items():
        ctx.measure(f"pipeline bubble at p={ranks}, v={chunks}, m={m} (rank idle / busy time, less the "
                    "overhead per micro-batch)",
                    (idle_s - m * overhead_s) / max(busy_s, 1e-9), "bubble_fraction_interleaved",
                    {"pp": ranks, "microbatches": m, "vpp": chunks}, rtol=0.25, atol=0.05, unit="fraction")
    passes_s = chunks * sum(timeline.kernel_s.values())
    share = overhead_s / passes_s
    ctx.check("idle time per micro-batch stays small beside its passes", share <= 0.5,
              f"rank {rank}: {overhead_s * 1e3:.1f} ms idle per micro-batch beyond the bubble, {share:.0%} of the "
              f"micro-batch's {chunks} forward + backward passes ({passes_s * 1e3:.0f} ms); at most 50%")
    ctx.check("activations in flight stay within interleaved 1F1B's bound", worst_peak <= peak_limit,
              f"rank {rank} held up to {worst_peak} chunk activations at once (m up to {4 * ranks}); interleaved "
              f"1F1B holds at most 2(p − rank − 1) + (v − 1)·p + 1 = {peak_limit}")


if __name__ == "__main__":
    main()
