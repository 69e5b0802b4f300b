"""Cheats against the lab checks (findings: labs-as-a-learner.md), each a program a check must fail.

A cheat is a lab's shipped program or solution with code appended that redefines what the
checker calls (`build`, a class, a function). Written as text and put together in a test's tmp
folder, so each cheat is a few lines next to the property it attacks, and the base program is
the lab's own (a change to the lab changes its cheats with it).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from tutor.labs.catalog import get_lab


def make(tmp_path: Path, lab: str, appendix: str, base: str = "program", replace: dict[str, str] | None = None,
         name: str = "train.py") -> Path:
    """The lab's program (`base`: "program" or "solution") with `replace`d snippets and `appendix`."""
    entry = get_lab(lab)
    source = (entry.solution if base == "solution" else entry.program).read_text()
    for old, new in (replace or {}).items():
        assert source.count(old) == 1, f"{lab} {base}: {old!r} not found once (the lab changed; update the cheat)"
        source = source.replace(old, new)
    folder = tmp_path / f"cheat-{lab}"
    folder.mkdir(parents=True, exist_ok=True)
    for extra in entry.lab.files:
        (folder / extra).write_text((entry.folder / extra).read_text())
    path = folder / name
    marker = 'if __name__ == "__main__":'
    head, _, tail = source.rpartition(marker)
    path.write_text(head + appendix + "\n\n" + marker + tail if head else source + appendix)
    return path


# ------------------------------------------------------------------ perf labs (findings D1, D7, D8)

LAZY_RESULT = '''
class _Lazy(Job):
    """step() only counts; result() does the training it owes (findings D1)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.owed = 0

    def step(self):
        self.owed += 1

    def result(self):
        while self.owed:
            self.owed -= 1
            Job.step(self)
        return Job.result(self)


def build(ctx, synthetic_data=False):
    return _Lazy(ctx, synthetic_data)
'''

TRAINED_IN_BUILD = '''
class _Replay(Job):
    """Trains 40 steps in build(), untimed; each step() then hands out the next stored result."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stored = []
        for _ in range(40):
            Job.step(self)
            self.stored.append({key: value.detach().clone() for key, value in Job.result(self).items()})
        self.index = -1

    def step(self):
        self.index += 1

    def result(self):
        return self.stored[self.index]


def build(ctx, synthetic_data=False):
    return _Replay(ctx, synthetic_data)
'''

SABOTAGE_BASELINE = '''
import sys as _sys

_own_build = build


def build(ctx, synthetic_data=False):
    """Adds 300 tiny all-reduces to the *shipped* program's step, if it can reach it (findings D7)."""
    shipped = _sys.modules.get("lab_shipped")
    if shipped is not None and not getattr(shipped, "_slowed", False):
        shipped._slowed = True
        original = shipped.Job.step

        def slowed(self):
            original(self)
            junk = torch.zeros(1)
            for _ in range(300):
                dist.all_reduce(junk)

        shipped.Job.step = slowed
    return _own_build(ctx, synthetic_data)
'''

BUSY_WHILE_BASELINE_RUNS = '''
import threading as _threading
import time as _time

_own_build = build


class _Busy:
    """A thread that burns CPU whenever this job is not stepping: only while the other program runs."""

    def __init__(self, job):
        self.job, self.mine = job, _threading.Event()
        _threading.Thread(target=self.spin, daemon=True).start()

    def spin(self):
        while True:
            if self.mine.is_set():
                _time.sleep(0.001)
            else:
                sum(range(2000))

    def step(self):
        self.mine.set()
        try:
            self.job.step()
        finally:
            self.mine.clear()

    def result(self):
        self.mine.set()
        try:
            return self.job.result()
        finally:
            self.mine.clear()

    def __getattr__(self, name):
        return getattr(self.job, name)


def build(ctx, synthetic_data=False):
    return _Busy(_own_build(ctx, synthetic_data))
'''

STRAGGLER_SPIN = '''
import time as _time


class _Evened(Job):
    """Packs each rank's documents (no padding) but keeps the length-sorted shares, so rank 1
    still does most of the work; the fast rank then burns CPU until it has used as much as the
    slowest (findings D8: evens out a CPU-time measure without balancing anything)."""

    def step(self):
        start = _time.process_time()
        batch = self.corpus.global_batch(self.step_index)
        self.step_index += 1
        predicted = sum(len(document) - 1 for document in batch)
        mine = my_documents(batch, self.rank, self.world_size)
        inputs = torch.cat([document[:-1] for document in mine]).to(self.device)
        targets = torch.cat([document[1:] for document in mine]).to(self.device)
        loss_sum = F.cross_entropy(self.model(inputs), targets, reduction="sum")
        self.optimizer.zero_grad(set_to_none=True)
        (loss_sum * self.world_size / predicted).backward()
        self.optimizer.step()
        self.loss_sums.append(loss_sum.detach() / predicted)
        used = torch.tensor([_time.process_time() - start], dtype=torch.float64)
        dist.all_reduce(used, op=dist.ReduceOp.MAX)
        while _time.process_time() - start < float(used):
            pass


def build(ctx, synthetic_data=False):
    return _Evened(ctx, synthetic_data)
'''


# ------------------------------------------------------------------ parallelism labs (findings D3, D4)

GPIPE_CLAMPED_PEAK = '''
def schedule(stage, stages, microbatches):
    """GPipe: every forward, then every backward (m activations held at once)."""
    return [("F", index) for index in range(microbatches)] + [("B", index) for index in range(microbatches)]


_own_run_pipeline = run_pipeline


def run_pipeline(stage, stages, layers, ops, inputs, targets):
    """...and reports 1F1B's peak instead of its own (findings D4)."""
    result = _own_run_pipeline(stage, stages, layers, ops, inputs, targets)
    result["peak_in_flight"] = min(result["peak_in_flight"], stages - stage)
    return result
'''

SERIAL_ONE_FORWARD_ONE_BACKWARD = '''
def schedule(stage, stages, microbatches):
    """1F1B without the warm-up: one micro-batch in flight, so the stages take turns."""
    ops = []
    for index in range(microbatches):
        ops += [("F", index), ("B", index)]
    return ops
'''

BLOCKING_HOOK = '''
class GradientBuckets(GradientBuckets):
    """All-reduces each bucket as soon as it is full, but blocking, inside the hook: nothing
    overlaps, the wait has only moved into backward (findings D3)."""

    def _grad_ready(self, param):
        index = self.bucket_of[param]
        self.ready[index] += 1
        if self.ready[index] == len(self.buckets[index]):
            bucket = self.buckets[index]
            flat = torch.cat([p.grad.reshape(-1) for p in bucket])
            dist.all_reduce(flat, group=self.group)
            self._unflatten(bucket, flat)

    def finish(self):
        pass
'''


# ------------------------------------------------------------------ the OOM labs (findings D5)
# Each is a `replace` on the shipped program: the leak or the long batch left in, the device changed.

BIGGER_DEVICE = {"DeviceMemory.kib(args.device_memory_kib": "DeviceMemory.kib(100 * args.device_memory_kib"}
NO_DEVICE = {"memory=memory)": "memory=None)"}
NO_DEVICE_LONG_BATCH = {"memory=DeviceMemory.kib(args.device_memory_kib, device=f\"GPU {ctx.local_rank}\")": "memory=None"}
KEEP_DETACHED_CLONES = {  # on the shipped crashed-rank: clones are invisible to the simulator, not to a GPU
    "predictions.append((trainer.logits, batch.targets, batch.mask))":
        "predictions.append((trainer.logits.detach().clone(), batch.targets, batch.mask))"}


# ------------------------------------------------------------------ faults that move (findings D6)

GATHER_DROPPED = {  # checkpoint-rank0, on the solution: this rank's position written for every rank
    "    dist.all_gather(positions, mine)\n    return [int(position.item()) for position in positions]":
        "    return [loader.position] * ctx.world_size"}
EVERY_RANK_WRITES = {**GATHER_DROPPED, "    if ctx.rank == 0:  # one writer": "    if True:",
                     'f"{path}.tmp")\n        os.replace(f"{path}.tmp", path)':
                         'f"{path}.{ctx.rank}.tmp")\n        os.replace(f"{path}.{ctx.rank}.tmp", path)'}
BROADCAST_RANK0_FLAG = {  # diverging-control-flow, on the solution: every rank follows rank 0's verdict
    "dist.all_reduce(bad, op=dist.ReduceOp.MAX)": "dist.broadcast(bad, src=0)"}
BREAK_AT_FILTER_STEP = {  # ...or stops where the fault-injection argument says
    "        if should_stop(ctx, loss):": "        if step == args.filter_step:"}
RANK0_SKIPS_TAIL = {  # uneven-batches, on the shipped program: "rank 0 has one batch too many"
    "    batches = batches_of(shard(documents, ctx.rank, ctx.world_size), cfg.batch)\n":
        "    batches = batches_of(shard(documents, ctx.rank, ctx.world_size), cfg.batch)\n"
        "    batches = batches[:len(batches) - (ctx.rank == 0)]\n"}


# ------------------------------------------------------------------ tp-mlp and zero1-memory (item 6)

FULL_ADAM_HIDDEN_IN_A_MODULE = '''
class _Holder(nn.Module):
    """An nn.Module attribute: the old walker did not look inside modules."""


class ShardedAdam:
    """An unsharded Adam on a full fp32 master copy, hidden in a module; what the optimizer shows
    is a decoy of exactly 12·Ψ/N bytes (findings: zero1 cheat1)."""

    def __init__(self, params, lr=LR, group=None):
        self.params = list(params)
        self.group = group
        self.world_size = dist.get_world_size(group)
        numel = sum(param.numel() for param in self.params)
        self.hidden = _Holder()
        self.hidden.master = nn.Parameter(torch.cat([p.detach().reshape(-1).float() for p in self.params]))
        self.hidden.adam = torch.optim.Adam([self.hidden.master], lr=lr)
        self.decoy = torch.zeros(3 * (-(-numel // self.world_size)))

    @torch.no_grad()
    def step(self):
        self.hidden.master.grad = flat_average_gradients(self.params, self.group)
        self.hidden.adam.step()
        offset = 0
        for param in self.params:
            param.copy_(self.hidden.master[offset: offset + param.numel()].view_as(param))
            offset += param.numel()
'''

HIDDEN_FULL_COPY = '''
import copy as _copy

_HIDDEN = []


class ParallelBlock(ParallelBlock):
    """Keeps a full copy of the one-process block out of the module tree (a module-level list),
    the hold that findings' tp-mlp cheat1 computed the whole block with on every rank."""

    def load_from(self, full):
        super().load_from(full)
        _HIDDEN.append(_copy.deepcopy(full))
'''

FP16_COMPRESSED_GRADIENTS = {  # exposed-comm, on the solution: half the bytes, lossy (findings D13)
    "        self.model = DistributedDataParallel(TinyLM().to(ctx.device))\n":
        "        self.model = DistributedDataParallel(TinyLM().to(ctx.device))\n"
        "        from torch.distributed.algorithms.ddp_comm_hooks import default_hooks\n"
        "        self.model.register_comm_hook(None, default_hooks.fp16_compress_hook)\n"}

ASYNC_BUT_WAITED_IN_THE_HOOK = '''
class GradientBuckets(GradientBuckets):
    """Starts each bucket's all-reduce asynchronously, then waits for it at once, in the hook."""

    def _grad_ready(self, param):
        super()._grad_ready(param)
        for _, _, work in self.in_flight:
            work.wait()
'''

COVERED_DUMMY_TRAFFIC = '''
class GradientBuckets(GradientBuckets):
    """The shipped buckets, after backward as shipped, plus one large all-reduce of zeros started
    before the forward and waited for at the end: compute covers it, which lowers the exposed
    share of the step's communication while nothing the step needs overlaps."""

    def start(self):
        super().start()
        self.dummy = torch.zeros(1 << 20)
        self.dummy_work = dist.all_reduce(self.dummy, group=self.group, async_op=True)

    def finish(self):
        self.dummy_work.wait()
        super().finish()
'''


# ------------------------------------------------------------------ labs of issue 19 (solution + replacements)

FSDP_GATHER_ALL_UP_FRONT = {
    '''        for index, shard in enumerate(self.shards):
            x = GatheredLinear.apply(x, shard, self.hidden, self.group)''':
    '''        whole = [gather_layer(shard.detach(), self.group) for shard in self.shards]  # all layers at once
        for index, shard in enumerate(self.shards):
            x = GatheredLinear.apply(x, shard, self.hidden, self.group)'''}

FSDP_FULL_COPY_IN_A_GLOBAL = {
    '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for index''':
    '''    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # keep every layer whole in a global, out of the module's sight
        CACHE[:] = [gather_layer(shard.detach(), self.group) for shard in self.shards]
        for index''',
    "DTYPE = torch.bfloat16\n": "DTYPE = torch.bfloat16\nCACHE: list = []\n"}

FSDP_ALL_REDUCE_THEN_SLICE = {
    '''        grad_shard = torch.empty_like(shard)
        dist.reduce_scatter_tensor(grad_shard, grad_flat, group=ctx.group)''':
    '''        dist.all_reduce(grad_flat, group=ctx.group)
        grad_shard = grad_flat.chunk(world_size)[dist.get_rank(ctx.group)].clone()'''}

SYNC_EVERY_MICRO_STEP = {"            sync = micro == ACCUM - 1\n": "            sync = True\n"}

BROADCAST_RANK0_AT_THE_END = {
    "        optimizer.step()\n":
    "        optimizer.step()\n"
    "        for param in model.module.parameters():  # make the replicas agree, whatever they learned\n"
    "            torch.distributed.broadcast(param.data, 0)\n",
    "            sync = micro == ACCUM - 1\n": "            sync = micro == 0\n"}

# The loss of each micro-batch not divided by ACCUM: the gradients ACCUM times too large, which the
# check's plain SGD shows (Adam's update, nearly blind to the gradients' scale, would hide it).
LOSS_NOT_AVERAGED = {"                loss = F.mse_loss(model(inputs), targets) / ACCUM\n":
                     "                loss = F.mse_loss(model(inputs), targets)\n"}

RING_NO_RESCALE_OF_EARLIER_CHUNKS = {
    "            total = total * torch.exp(running_max - new_max) + part * torch.exp(part_max - new_max)\n":
    "            total = total + part * torch.exp(part_max - new_max)\n",
    "            denominator = denominator * torch.exp(running_max - new_max) + weight * torch.exp(part_max - new_max)\n":
    "            denominator = denominator + weight * torch.exp(part_max - new_max)\n"}


# ------------------------------------------------------------------ moe, sequence-parallel, pp-interleaved (issue 19)
# Each is a `replace` on the solution; test_parallel_labs.py also asserts every check they fail.

MOE_PAD_TO_CAPACITY = {  # capacity-style dispatch: every split padded to room for all copies
    "    send, recv = send_counts.tolist(), recv_counts.tolist()\n":
    "    counts = send_counts.tolist()\n"
    "    capacity = tokens.shape[0]  # room for every copy: a fixed size, padded, so the sizes never vary\n"
    "    tokens = torch.cat([torch.cat([c, c.new_zeros(capacity - len(c), HIDDEN)]) for c in tokens.split(counts)])\n"
    "    experts_sent = torch.cat([torch.cat([c, c.new_full((capacity - len(c),), -1)])\n"
    "                              for c in experts_sent.split(counts)])\n"
    "    send = recv = [capacity] * world_size\n",
    "    token_of_copy = torch.arange":
    "    returned = torch.cat([c[:n] for c, n in zip(returned.split(capacity), counts)])\n"
    "    token_of_copy = torch.arange"}

MOE_GATHER_TOKENS = {  # no all-to-all: every rank's tokens gathered, local experts on all, partials all-reduced
    "    # How many copies go to each rank depends on the routing":
    "    everyone = [torch.empty_like(x) for _ in range(world_size)]  # every rank's tokens, everywhere\n"
    "    dist.all_gather(everyone, x, group=group)\n"
    "    every_x = torch.cat(everyone)\n"
    "    every_gate, every_chosen = route(every_x, router)\n"
    "    partial = torch.zeros(world_size * x.shape[0], HIDDEN)\n"
    "    for index, expert in enumerate(local_experts):\n"
    "        for slot in range(TOP_K):\n"
    "            rows = every_chosen[:, slot] == rank * EXPERTS_PER_RANK + index\n"
    "            partial[rows] += every_gate[rows, slot, None] * expert(every_x[rows])\n"
    "    dist.all_reduce(partial, group=group)\n"
    "    return partial[rank * x.shape[0]:(rank + 1) * x.shape[0]]\n"
    "    # How many copies go to each rank depends on the routing"}

MOE_INTEGER_SIDE_CHANNEL = {  # integers sized like the token rows but 4 wide: room for any float data as int32
    "    outputs = torch.zeros_like(received)\n":
    "    smuggled = torch.empty(sum(recv), 4, dtype=torch.int32)\n"
    "    room = torch.zeros(len(experts_sent), 4, dtype=torch.int32)\n"
    "    dist.all_to_all_single(smuggled, room, recv, send, group=group)\n"
    "    outputs = torch.zeros_like(received)\n"}

SP_NORM_AFTER_GATHER = {  # gather first, normalise the whole sequence: every rank holds all of it
    "        h = self.norm(x)                                  # on this rank's s/t rows only\n"
    "        h = _GatherSequence.apply(h, self.group)          # g: all-gather forward, reduce-scatter backward\n":
    "        h = self.norm(_GatherSequence.apply(x, self.group))  # the whole sequence, normalised on every rank\n"}

SP_ALL_REDUCE_THEN_SLICE = {  # leave the region with an all-reduce and keep this rank's rows: twice the values
    "        dist.reduce_scatter_single(out, x.contiguous(), group=group)\n        return out\n":
    "        x = x.contiguous()\n"
    "        dist.all_reduce(x, group=group)  # everyone gets the whole sum; keep this rank's rows\n"
    "        return x.chunk(world_size)[dist.get_rank(group)].clone()\n"}

PP_GPIPE_INTERLEAVED = {  # every forward, then every backward: interleaved 1F1B's bubble, all m·v activations held
    "    warmup = min(2 * (ranks - rank - 1) + (chunks - 1) * ranks, total)\n":
    "    warmup = total  # all forwards first\n"}


# ------------------------------------------------------------------ the table of cheats
# Each cheat of the findings passed the check before the fix it is named after (seen, and said in
# the commit that made it fail); the cheats of issue 19's labs were written with their checkers.
# Run by test_lab_cheats.py, most of them in their lab's shared job (tests/labs/several.py).

class Cheat(NamedTuple):
    lab: str
    change: str | dict[str, str]  # code appended to the base program, or {old: new} replacements in it
    must_fail: str | tuple[str, ...]  # the check that must catch it (one of these, where the draw decides)
    base: str = "solution"  # "program" (as shipped) or "solution"
    words: str = ""  # words the failed check's message must contain
    world_size: int = 2
    last: bool = False  # leaves something running in its process: last in a shared job


CHEATS = {
    # D1: step() counts, result() trains.
    "perf-lazy-result": Cheat("exposed-comm", LAZY_RESULT, "the step does the model's work", "program"),
    # D1, the next try: train ahead in build(), untimed; step() hands out stored results.
    "perf-trained-in-build": Cheat("launch-bound", TRAINED_IN_BUILD, "the step does the model's work", "program"),
    # D7: patch the baseline through sys.modules["lab_shipped"] (300 extra all-reduces per step).
    "perf-sabotage-baseline": Cheat("exposed-comm", SABOTAGE_BASELINE, "faster than the shipped program", "program"),
    # A thread that burns CPU while the shipped program is being timed.
    "perf-busy-while-baseline-runs": Cheat("exposed-comm", BUSY_WHILE_BASELINE_RUNS,
                                           "your program is idle while the shipped one is timed", last=True),
    # D8: keep the imbalance, burn CPU on the fast rank until the CPU times match.
    "straggler-spin-fast-rank": Cheat("straggler", STRAGGLER_SPIN, "time lost to straggler is gone", "program"),
    # D13: fp16-compressed gradients, lossy, passed as "results unchanged" at rtol 1e-3.
    "exposed-comm-fp16-compressed": Cheat("exposed-comm", FP16_COMPRESSED_GRADIENTS, "results unchanged"),
    # D3: a blocking all-reduce inside the gradient hook.
    "dp-overlap-blocking-hook": Cheat("dp-overlap", BLOCKING_HOOK,
                                      "all-reduces start during backward and are waited for after it"),
    "dp-overlap-async-waited-in-hook": Cheat("dp-overlap", ASYNC_BUT_WAITED_IN_THE_HOOK,
                                             "all-reduces start during backward and are waited for after it"),
    # Exposed share diluted with covered traffic the step does not need.
    "dp-overlap-covered-dummy-traffic": Cheat("dp-overlap", COVERED_DUMMY_TRAFFIC,
                                              "the step's collectives move every gradient once", "program",
                                              words="6,299,648 B in 9 collective(s)"),
    # D4: GPipe reporting 1F1B's peak.
    "pp-1f1b-gpipe-false-peak": Cheat("pp-1f1b", GPIPE_CLAMPED_PEAK, "activations in flight stay within 1F1B's bound"),
    # Within the memory bound, but serial: every micro-batch crosses the whole pipeline alone.
    "pp-1f1b-no-warm-up": Cheat("pp-1f1b", SERIAL_ONE_FORWARD_ONE_BACKWARD,
                                "idle time per micro-batch stays small beside a forward and backward pass"),
    # D5: the OOM labs on a bigger device, on none, or with clones the simulator does not count.
    "crashed-rank-bigger-device": Cheat("crashed-rank", BIGGER_DEVICE, "every step runs on the brief's device",
                                        "program"),
    "crashed-rank-no-device": Cheat("crashed-rank", NO_DEVICE, "every step runs on the brief's device", "program"),
    "crashed-rank-detached-clones": Cheat("crashed-rank", KEEP_DETACHED_CLONES,
                                          "memory held does not grow from step to step", "program"),
    "long-batch-bigger-device": Cheat("long-batch", BIGGER_DEVICE, "every step runs on the brief's device", "program"),
    "long-batch-no-device": Cheat("long-batch", NO_DEVICE_LONG_BATCH, "every step runs on the brief's device",
                                  "program"),
    # Item 6: a full Adam hidden in an nn.Module attribute, a decoy of 12Ψ/N bytes on show.
    "zero1-full-adam-hidden-in-a-module": Cheat("zero1-memory", FULL_ADAM_HIDDEN_IN_A_MODULE,
                                                "optimizer state per rank"),
    # Item 6: a full copy of the block kept out of the module tree (what replicated compute needs).
    "tp-mlp-hidden-full-copy": Cheat("tp-mlp", HIDDEN_FULL_COPY, "each rank holds its slice, not the block"),
    # D6: faults in the same place on every run.
    "checkpoint-rank0-gather-dropped": Cheat("checkpoint-rank0", GATHER_DROPPED,
                                             "checkpoint holds every rank's data position"),
    "checkpoint-rank0-every-rank-writes": Cheat("checkpoint-rank0", EVERY_RANK_WRITES,
                                                "checkpoint holds every rank's data position"),
    # Rank 0's batch is fine now, so nobody stops: the drawn rank trains on its NaN loss and the
    # run's own replay check makes the outcome `wrong`.
    # At 4 ranks: at 2 the check must put the fault on rank 0 (see its checker), where rank 0's flag is right.
    "diverging-broadcast-rank0-flag": Cheat("diverging-control-flow", BROADCAST_RANK0_FLAG, "runs to completion",
                                            world_size=4),
    # The check draws the bad step, never the program's default --filter-step, where this cheat
    # stops. Drawn before it, rank 0 trains on its NaN loss and the run's replay makes it `wrong`;
    # drawn after it, every rank stops cleanly but early, which the guard's own check names.
    "diverging-break-at-filter-step": Cheat("diverging-control-flow", BREAK_AT_FILTER_STEP,
                                            ("runs to completion", "the guard still stops the run")),
    # At 4 ranks: at 2, the longer shard can only be rank 0's (the first shards take the extra).
    "uneven-rank0-skips-tail": Cheat("uneven-batches", RANK0_SKIPS_TAIL, "runs to completion", "program",
                                     world_size=4),
    # Issue 19's labs. ZeRO-3 that gathers every layer before the first, or keeps them whole out of sight.
    "fsdp-gather-all-up-front": Cheat("fsdp-zero3", FSDP_GATHER_ALL_UP_FRONT,
                                      "full parameters live one layer at a time", words="gathered layer(s) alive at once"),
    "fsdp-full-copy-in-a-global": Cheat(
        "fsdp-zero3", FSDP_FULL_COPY_IN_A_GLOBAL,
        "bytes the model still holds after a step (bf16 weights and gradients; SGD keeps no state)",
        words="measured 1,579,008 B"),
    # Right gradients by all-reduce, then a slice: twice ZeRO-3's traffic.
    "fsdp-all-reduce-then-slice": Cheat("fsdp-zero3", FSDP_ALL_REDUCE_THEN_SLICE,
                                        "parameters gathered per layer, forward and backward; gradients reduce-scattered",
                                        words="0 reduce-scatter(s)"),
    "no-sync-every-micro-step": Cheat("no-sync-accumulation", SYNC_EVERY_MICRO_STEP,
                                      "gradients all-reduced once per optimizer step", words="16 gradient all-reduce(s)"),
    # Replicas made to agree by a broadcast instead of by the one all-reduce per step.
    "no-sync-broadcast-rank0-at-the-end": Cheat("no-sync-accumulation", BROADCAST_RANK0_AT_THE_END,
                                                "weights equal one process on the whole global batch",
                                                words="max abs error"),
    "no-sync-loss-not-averaged": Cheat("no-sync-accumulation", LOSS_NOT_AVERAGED,
                                       "weights equal one process on the whole global batch", words="max abs error"),
    # Online softmax without rescaling the chunks already summed.
    "ring-no-rescale": Cheat("ring-attention", RING_NO_RESCALE_OF_EARLIER_CHUNKS,
                             "output equals causal attention over the whole sequence", words="max abs error"),
    # Right output, wrong communication: padded splits, no all-to-all, a side channel.
    "moe-pad-to-capacity": Cheat("moe-expert-parallel", MOE_PAD_TO_CAPACITY,
                                 "all-to-all sizes follow the routing: dispatch, then combine",
                                 words="sent [[48, 48], [48, 48]]"),
    "moe-gather-tokens": Cheat("moe-expert-parallel", MOE_GATHER_TOKENS,
                               "no collective but the two all-to-alls moves tokens or weights",
                               words="all_gather of 1,536 B (float32)"),
    "moe-integer-side-channel": Cheat("moe-expert-parallel", MOE_INTEGER_SIDE_CHANNEL,
                                      "no collective but the two all-to-alls moves tokens or weights",
                                      words="an all-to-all of"),
    "sp-norm-after-gather": Cheat("sequence-parallel", SP_NORM_AFTER_GATHER,
                                  "the LayerNorm runs on this rank's sequence slice only",
                                  words="saw inputs of shape [[32, 2, 16]]"),
    "sp-all-reduce-then-slice": Cheat("sequence-parallel", SP_ALL_REDUCE_THEN_SLICE,
                                      "all-gather and reduce-scatter along the sequence, no all-reduce",
                                      words="'all_reduce'"),
    "pp-interleaved-gpipe": Cheat("pp-interleaved", PP_GPIPE_INTERLEAVED,
                                  "activations in flight stay within interleaved 1F1B's bound",
                                  words="held up to 16 chunk activations"),
}
