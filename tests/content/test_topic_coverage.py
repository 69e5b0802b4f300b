"""The question bank covers every topic interviewers probe (issue 20).

`../shared/reference/interview-topics.md` §1 lists sixteen topic clusters. A question belongs to
a topic when it carries one of the topic's tags; one question may serve two topics (a question
on HSDP traffic is both memory and collectives). The bank must hold at least 176 questions and
every topic at least four. The tags below are the ones the question files use; a new tag that
belongs to a topic is added here. The issue's own list of topics (ISSUE_TOPICS) is held to the
same four.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
MIN_BANK = 176
MIN_PER_TOPIC = 4

TOPICS: dict[str, tuple[str, frozenset[str]]] = {
    "1.1": ("memory sizing, ZeRO and FSDP", frozenset(
        {"memory", "zero", "fsdp", "hsdp", "model-state", "distributed-optimizer", "optimizer", "offload"})),
    "1.2": ("choosing TP / PP / DP / CP / EP", frozenset(
        {"placement", "config", "tensor-parallel", "rank-order", "real-configs", "layout"})),
    "1.3": ("pipeline schedules and bubbles", frozenset({"pipeline", "bubble", "interleaving", "zero-bubble"})),
    "1.4": ("collectives and their costs", frozenset({"collectives", "alpha-beta", "all-to-all"})),
    "1.5": ("overlapping communication with compute", frozenset({"overlap", "bucketing", "prefetch"})),
    "1.6": ("mixed precision and FP8", frozenset({"fp8", "fp16", "bf16", "mixed-precision", "precision"})),
    "1.7": ("activation memory and recomputation", frozenset({"activations", "recompute", "sequence-parallel"})),
    "1.8": ("MFU, HFU and throughput estimation", frozenset({"mfu", "hfu", "throughput", "flops", "step-time"})),
    "1.9": ("scaling laws and compute budgets", frozenset({"scaling-laws", "compute-budget", "training-time"})),
    "1.10": ("debugging a slow run", frozenset({"slow-training", "straggler"})),
    "1.11": ("debugging hangs and NCCL errors", frozenset({"hangs", "flight-recorder", "nccl-errors"})),
    "1.12": ("checkpointing and fault tolerance", frozenset({"checkpoint", "fault-tolerance", "resharding"})),
    "1.13": ("data pipelines", frozenset({"data-loading", "data-pipeline"})),
    "1.14": ("MoE routing and expert parallelism", frozenset({"moe", "expert-parallel", "routing"})),
    "1.15": ("inference and long context (KV cache, CP)", frozenset(
        {"kv-cache", "long-context", "context-parallel"})),
    "1.16": ("RL post-training weight sync", frozenset({"rl", "weight-sync"})),
}


# The issue's own list ("The questions interviewers ask", issue 20), item by item, with the named
# sub-topics the bank covered thinly kept as their own items (rail-optimised fabrics, expandable
# segments and the caching allocator, PP with ZeRO-2/3). A question counts for an item when it
# carries one of the item's tags.
ISSUE_TOPICS: dict[str, frozenset[str]] = {
    "Megatron TP inside a layer: column then row split, collectives, bytes per layer, SP": frozenset(
        {"tensor-parallel", "sequence-parallel"}),
    "FSDP and HSDP: what is sharded when, prefetch, memory per GPU, traffic": frozenset({"fsdp", "hsdp", "prefetch"}),
    "MoE: routing, top-k, capacity, load balancing, all-to-all, EP placement, DeepSeek-V3": frozenset(
        {"moe", "expert-parallel", "routing"}),
    "roofline and arithmetic intensity": frozenset({"roofline", "arithmetic-intensity", "memory-bound"}),
    "collective cost models: alpha-beta, ring vs tree, 2(n-1)/n, busbw vs algbw": frozenset(
        {"alpha-beta", "busbw", "collectives"}),
    "context parallelism: ring attention and Ulysses": frozenset({"context-parallel"}),
    "gradient accumulation": frozenset({"grad-accumulation"}),
    "fp16 loss scaling against bf16": frozenset({"loss-scaling"}),
    "PP with ZeRO-2/3": frozenset({"pp-zero"}),
    "interleaved and zero-bubble schedules": frozenset({"interleaving", "zero-bubble"}),
    "network topology: NVLink domains": frozenset({"topology", "nvlink-domain"}),
    "network topology: rail-optimised fabrics": frozenset({"rail-optimized"}),
    "checkpoint resharding": frozenset({"resharding"}),
    "scaling laws for choosing tokens": frozenset({"scaling-laws"}),
    "memory debugging: fragmentation": frozenset({"memory-debugging", "fragmentation"}),
    "memory debugging: expandable segments and the CUDA caching allocator": frozenset(
        {"allocator", "expandable-segments"}),
    "RL post-training: trainer to inference weight sync": frozenset({"weight-sync"}),
}


# libyaml's loader where PyYAML has it (the pure-Python one took 13 s for the bank on 2 cores), and
# one read shared by the tests of this file.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@lru_cache(maxsize=1)
def bank(root: Path = REPO) -> list[dict]:
    questions = []
    for path in sorted((root / "questions").glob("*.yaml")):
        questions += yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or []
    return questions


def per_topic(questions: list[dict]) -> dict[str, int]:
    return {number: sum(1 for q in questions if tags & set(q.get("tags", ())))
            for number, (_, tags) in TOPICS.items()}


def test_counting_by_tags():
    questions = [{"tags": ["fsdp", "collectives"]}, {"tags": ["moe"]}, {"tags": ["pitch"]}]
    counts = per_topic(questions)
    assert counts["1.1"] == counts["1.4"] == counts["1.14"] == 1
    assert sum(counts.values()) == 3  # a question without a topic tag counts for none


def test_the_topics_are_the_reference_list():
    reference = REPO.parent / "shared" / "reference" / "interview-topics.md"
    if reference.exists():
        headings = [line.split()[1] for line in reference.read_text(encoding="utf-8").splitlines()
                    if line.startswith("### 1.")]
        assert headings == list(TOPICS)


def test_bank_size_and_every_topic_has_four_questions():
    questions = bank()
    assert len(questions) >= MIN_BANK, f"{len(questions)} questions, {MIN_BANK} wanted"
    thin = {f"{n} {TOPICS[n][0]}": c for n, c in per_topic(questions).items() if c < MIN_PER_TOPIC}
    assert not thin, f"topics with fewer than {MIN_PER_TOPIC} questions: {thin}"


def test_every_topic_the_issue_names_has_four_questions():
    """Issue 20 names its own topics beside interview-topics.md; before the third question file the
    rail-optimised fabric, the allocator, resharding and PP with ZeRO-2/3 had one question or none."""
    questions = bank()
    thin = {name: sum(1 for q in questions if tags & set(q.get("tags", ())))
            for name, tags in ISSUE_TOPICS.items()}
    thin = {name: count for name, count in thin.items() if count < MIN_PER_TOPIC}
    assert not thin, f"issue topics with fewer than {MIN_PER_TOPIC} questions: {thin}"


def test_the_issue_topics_are_the_issues_list():
    """Every item of the issue's list is here, so a topic dropped from the dict fails."""
    named = " ".join(ISSUE_TOPICS).lower()
    for item in ("megatron tp", "fsdp", "hsdp", "moe", "roofline", "collective cost", "context parallel",
                 "gradient accumulation", "loss scaling", "zero-2/3", "zero-bubble", "nvlink domain",
                 "rail-optimised", "resharding", "scaling laws", "fragmentation", "expandable segments",
                 "weight sync"):
        assert item in named, item
