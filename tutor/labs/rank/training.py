"""The small real training loop the hang labs are built on: model, data, DDP, optimizer.

    from tutor.labs.rank import training as tt

    cfg = tt.Config()
    corpus = tt.Corpus(cfg, size=256)
    loader = tt.ShardedLoader(corpus, ctx.rank, ctx.world_size, cfg.batch)
    trainer = tt.Trainer(ctx, cfg)
    for step in ctx.steps(len(loader)):
        loss = trainer.forward(step, loader.batch(step))   # DDP forward, masked token loss
        trainer.backward(loss)                            # DDP's gradient all-reduce, waited for at its end
        trainer.step()                                    # SGD with momentum
    trainer.finish()                                      # gathers what each rank trained on

Everything a lab's planted bug sits inside is real: torch's DistributedDataParallel, whose
gradient all-reduce is asynchronous, as DDP's own (torch's default comm hook, going through
`torch.distributed.all_reduce`, so the tutor's recorder sees it, with the learner's `backward`
line as its call site, and `TORCH_DISTRIBUTED_DEBUG=DETAIL` checks it; a rank whose peers are
missing waits for it at the end of `backward`); real checkpoints (`torch.save`); real data
batches. What is simulated is said where it is: the corpus is synthetic, and a GPU's memory
limit is `memory.DeviceMemory`.

Each rank keeps a ledger of what it trained on (the batch tensors and the learning rate of
every step), so that `finish()` can replay the whole run in one process and check that the
distributed result is the right one (see replay.py).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from datetime import timedelta

import torch
import torch._dynamo  # noqa: F401  (see below)
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

# torch.optim imports torch._dynamo on the first optimizer's construction: seconds on a busy
# laptop, after every rank has joined the process group, where the tutor's no-progress
# watchdog would take it for a hang. Importing it here pays that during start-up instead.

MONITORED_BARRIER_ENV = "TUTOR_LAB_MONITORED_BARRIER"
"""Seconds; when set, every step boundary is a `dist.monitored_barrier` (the tutor's rerun)."""


@dataclass(frozen=True)
class Config:
    vocab: int = 64
    dim: int = 32
    hidden: int = 64
    layers: int = 2
    batch: int = 4
    """Documents per rank per step."""
    max_len: int = 24
    """Tokens per document the model is trained on (its context)."""
    lr: float = 0.2
    momentum: float = 0.9
    seed: int = 0
    tied: bool = False
    """Output layer shares its weight with the input embedding (weight tying)."""


class Block(nn.Module):
    """A residual MLP block (the attention-free half of a transformer layer)."""

    def __init__(self, cfg: Config):
        super().__init__()
        self.up = nn.Linear(cfg.dim, cfg.hidden)
        self.down = nn.Linear(cfg.hidden, cfg.dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.down(F.gelu(self.up(x)))


class TinyLM(nn.Module):
    """Embedding, residual MLP blocks, output head: next-token logits for every position."""

    def __init__(self, cfg: Config):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        nn.init.normal_(self.embed.weight, std=0.05)  # small, as LMs do: it is also the head when tied
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.head = nn.Linear(cfg.dim, cfg.vocab)
        if cfg.tied:
            self.head.weight = self.embed.weight

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def make_model(cfg: Config) -> TinyLM:
    """The same initial weights on every rank and in the replay (seeded)."""
    torch.manual_seed(cfg.seed)
    return TinyLM(cfg)


def token_loss(logits: torch.Tensor, targets: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over the real (unpadded) tokens; 0/0 = NaN for a batch of padding only."""
    losses = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="none")
    return (losses * mask.flatten()).sum() / mask.sum()


# ---------------------------------------------------------------- data


class Corpus:
    """Synthetic documents: token streams from a fixed Markov chain (so there is something to learn).

    Document i is the same on every rank and in every run with the same seed. `lengths`
    overrides single documents' lengths (0: an empty document), which is how a lab places an
    unusual document in the data.
    """

    def __init__(self, cfg: Config, size: int, seed: int = 0, lengths: dict[int, int] | None = None,
                 length_range: tuple[int, int] = (12, 25)):
        self.cfg, self.size, self.seed = cfg, size, seed
        self.lengths = dict(lengths or {})
        self.length_range = length_range
        chain = random.Random(seed)
        self._next = [chain.randrange(cfg.vocab) for _ in range(cfg.vocab)]

    def __len__(self) -> int:
        return self.size

    def length(self, index: int) -> int:
        if index in self.lengths:
            return self.lengths[index]
        return random.Random(self.seed * 1_000_003 + index).randrange(*self.length_range)

    def document(self, index: int) -> list[int]:
        rng = random.Random(self.seed * 7_919 + index)
        tokens = [rng.randrange(self.cfg.vocab)]
        while len(tokens) < self.length(index):
            tokens.append(self._next[tokens[-1]] if rng.random() < 0.8 else rng.randrange(self.cfg.vocab))
        return tokens[: self.length(index)]


@dataclass
class Batch:
    ids: list[int]
    tokens: torch.Tensor
    """[documents, positions] inputs."""
    targets: torch.Tensor
    mask: torch.Tensor
    """1.0 where a target is a real token, 0.0 on padding."""

    @property
    def real_tokens(self) -> int:
        return int(self.mask.sum().item())


def collate(corpus: Corpus, ids: list[int], max_len: int | None = None, width: int | None = None) -> Batch:
    """Documents padded to the longest one in the batch (or to `width` positions); each cut to
    `max_len` tokens when given."""
    docs = [corpus.document(i) for i in ids]
    if max_len is not None:
        docs = [doc[:max_len] for doc in docs]
    width = width or max(1, max((len(doc) - 1 for doc in docs), default=1))
    tokens = torch.zeros(len(docs), width, dtype=torch.long)
    targets = torch.zeros(len(docs), width, dtype=torch.long)
    mask = torch.zeros(len(docs), width)
    for row, doc in enumerate(docs):
        n = max(0, len(doc) - 1)
        tokens[row, :n] = torch.tensor(doc[:-1][:n], dtype=torch.long)
        targets[row, :n] = torch.tensor(doc[1:], dtype=torch.long)
        mask[row, :n] = 1.0
    return Batch(list(ids), tokens, targets, mask)


class ShardedLoader:
    """Rank r's share of each global batch: documents [(s·W + r)·B, (s·W + r + 1)·B) at step s.

    Every rank has the same number of steps (the tail that does not fill a global batch is
    dropped, as DistributedSampler's drop_last does). `position` is this rank's offset in its
    token stream: the tokens trained on (targets) in its batches up to the last one read, which a
    checkpoint must record to resume each rank's stream where it stopped. Documents differ in
    length, so every rank's position differs, as consumed-sample counters do on a cluster: a
    checkpoint that writes one rank's position for all cannot pass for one that gathers them.
    """

    def __init__(self, corpus: Corpus, rank: int, world_size: int, batch: int, max_len: int | None = None):
        self.corpus, self.rank, self.world_size, self.batch_size = corpus, rank, world_size, batch
        self.max_len = corpus.cfg.max_len if max_len is None else max_len
        self.position = 0
        self._targets: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.corpus) // (self.world_size * self.batch_size)

    def ids(self, step: int) -> list[int]:
        first = (step * self.world_size + self.rank) * self.batch_size
        return list(range(first, first + self.batch_size))

    def batch(self, step: int) -> Batch:
        batch = collate(self.corpus, self.ids(step), self.max_len)
        self._targets[step] = int(batch.mask.sum().item())
        self.position = sum(self._targets.get(before) if before in self._targets else
                            int(collate(self.corpus, self.ids(before), self.max_len).mask.sum().item())
                            for before in range(step + 1))
        return batch


def frozen_names(model: nn.Module) -> tuple[str, ...]:
    return tuple(name for name, param in model.named_parameters() if not param.requires_grad)


# ---------------------------------------------------------------- DDP


def make_ddp(ctx, model: nn.Module) -> DistributedDataParallel:
    """torch's DDP, its gradient all-reduce asynchronous as DDP's own.

    The comm hook is torch's `default_hooks.allreduce_hook`, which torch documents as giving the
    same results as DDP with no hook: each gradient bucket's all-reduce is issued as the bucket
    fills during backward (`dist.all_reduce(async_op=True)`), and the reducer waits for them all
    at the end of backward. So a rank whose peer is missing waits at the end of `loss.backward()`,
    not in a Python `all_reduce` frame, as under DDP on gloo; under NCCL the wait at the end of
    backward only orders the GPU streams, and the CPU runs on to the next host sync (a `.item()`,
    the next blocking collective), which is where py-spy finds it. Going through the public
    `dist.all_reduce` lets the tutor's recorder see each gradient all-reduce (issued, and done
    when its future completes), with the line of the learner's `backward` call as its site;
    DDP's built-in all-reduce runs in C++, where only the flight recorder sees it. Under
    TORCH_DISTRIBUTED_DEBUG=DETAIL, torch 2.13 crashes (SIGSEGV) building DDP over the
    debug-wrapped process group, so DDP is then given a plain group of the same ranks, and the
    hook all-reduces over the wrapped world group, where DETAIL checks every gradient all-reduce
    against the other ranks' collectives.
    """
    from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook

    group = None
    if dist.get_debug_level() == dist.DebugLevel.DETAIL:
        dist.set_debug_level(dist.DebugLevel.INFO)
        try:
            group = dist.new_group(backend=ctx.backend)
        finally:
            dist.set_debug_level(dist.DebugLevel.DETAIL)
    device_ids = [ctx.device.index] if ctx.device.type == "cuda" else None
    ddp = DistributedDataParallel(model, process_group=group, device_ids=device_ids)
    ddp.register_comm_hook(None, allreduce_hook)  # None: the world group (the wrapped one under DETAIL)
    return ddp


class BoundaryBarrier:
    """The tutor's monitored-barrier rerun: a `dist.monitored_barrier` at every step boundary.

    On a separate gloo group (monitored_barrier needs gloo) with a timeout shorter than the
    process group's, so rank 0 names the ranks that did not arrive before the tutor calls the
    hang. When rank 0 itself is the one missing, the others can only report that rank 0 did
    not answer: that is the tool's limit, and worth knowing.
    """

    def __init__(self, timeout_s: float):
        self.timeout = timedelta(seconds=timeout_s)
        self.group = dist.new_group(backend="gloo")

    @classmethod
    def from_env(cls) -> BoundaryBarrier | None:
        value = os.environ.get(MONITORED_BARRIER_ENV)
        return cls(float(value)) if value else None

    def __call__(self) -> None:
        dist.monitored_barrier(group=self.group, timeout=self.timeout, wait_all_ranks=True)


# ---------------------------------------------------------------- the trainer


@dataclass
class LedgerEntry:
    step: int
    tokens: torch.Tensor
    targets: torch.Tensor
    mask: torch.Tensor
    ids: list[int]
    lr: float | None = None
    frozen: tuple[str, ...] = ()
    """Parameters that did not train in this step (requires_grad off)."""


class Trainer:
    """One rank's model (under DDP), optimizer and ledger. Build it on every rank.

    `memory`: a `memory.DeviceMemory` limit on the live activations, or None.
    """

    def __init__(self, ctx, cfg: Config | None = None, memory=None):
        self.ctx, self.cfg, self.memory = ctx, cfg or Config(), memory
        self.model = make_model(self.cfg).to(self.ctx.device)
        self.ddp = make_ddp(self.ctx, self.model)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.cfg.lr, momentum=self.cfg.momentum)
        self.ledger: list[LedgerEntry] = []
        self.steps_done = 0
        self.barrier = BoundaryBarrier.from_env()
        if self.memory is not None:
            self.memory.watch(self.model)
        self._open: LedgerEntry | None = None
        self.logits: torch.Tensor | None = None
        """The last forward's logits (for metrics such as token accuracy)."""

    def forward(self, step: int, batch: Batch) -> torch.Tensor:
        """The loss of this rank's batch (DDP forward)."""
        if self.barrier is not None:
            self.barrier()
        device = self.ctx.device
        self._open = LedgerEntry(step, batch.tokens, batch.targets, batch.mask, batch.ids)
        self.logits = self.ddp(batch.tokens.to(device))
        return token_loss(self.logits, batch.targets.to(device), batch.mask.to(device))

    def backward(self, loss: torch.Tensor) -> None:
        """Gradients, averaged over the ranks by DDP's all-reduce: issued as backward runs, waited
        for at its end (with NCCL, that wait only orders the GPU's streams)."""
        loss.backward()

    def step(self, lr: float | None = None) -> None:
        """The optimizer step (at `lr` when given); the step goes into the ledger."""
        if lr is not None:
            for group in self.optimizer.param_groups:
                group["lr"] = lr
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        if self._open is not None:
            self._open.lr = self.optimizer.param_groups[0]["lr"]
            self._open.frozen = frozen_names(self.model)
            self.ledger.append(self._open)
            self._open = None
        self.steps_done += 1

    def train_step(self, step: int, batch: Batch) -> float:
        loss = self.forward(step, batch)
        self.backward(loss)
        self.step()
        return loss.item()

    def state(self) -> dict:
        """What a checkpoint of the model holds: weights and optimizer state."""
        return {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}

    def finish(self, **extra) -> dict:
        """End of training on every rank: gather the ledgers and check the run against a replay.

        Returns rank 0's report (steps per rank, replay verdict); other ranks get their own
        step count. A collective: a rank that never gets here leaves the others waiting.
        """
        from tutor.labs.rank.replay import check_run

        if self.barrier is not None:
            self.barrier()
        return check_run(self, **extra)
