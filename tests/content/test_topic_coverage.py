"""The question bank covers every topic interviewers probe (issue 20).

`../shared/reference/interview-topics.md` §1 lists sixteen topic clusters. A question belongs to
a topic when it carries one of the topic's tags; one question may serve two topics (a question
on HSDP traffic is both memory and collectives). The bank must hold at least 176 questions and
every topic at least four. The tags below are the ones the question files use; a new tag that
belongs to a topic is added here.
"""

from __future__ import annotations

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


def bank(root: Path = REPO) -> list[dict]:
    questions = []
    for path in sorted((root / "questions").glob("*.yaml")):
        questions += yaml.safe_load(path.read_text(encoding="utf-8")) or []
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
