"""The seven mock-interview formats: what each asks, in which order, and how long each stage may take.

Timing follows how these rounds are reported (interview-topics §2): the system-design round is
45–60 min with scope and numbers first, asked either as a worksheet (`design`: each step named,
with its unit) or on a blank page where the candidate sets the structure (`led`); a "walk me
through debugging" scenario is 15–20 min; the pitch is the lesson's 30 seconds (lesson §pitch),
capped by speaking time as well (`tutor.interview.spoken`); rapid fire is the estimation drill,
90 s a question (issue 10); a behavioural story ("tell me about a hang you debugged") is given
10 minutes, the length of one story and its probing in a behavioural round. Within a format a
stage gets its share of the time by its step's weight; a follow-up gets FOLLOW_UP_S of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass

from tutor.text import T

FOLLOW_UP_S = 180.0
RAPID_FIRE_QUESTIONS = 10
RAPID_FIRE_S = 90.0


@dataclass(frozen=True)
class Stage:
    """One timed question of a session: one step of one variant of one question."""

    key: str
    """Unique within the session (stage column of mock_stages)."""
    question_id: str
    step_id: str
    seed: int
    budget_s: float
    followup: bool = False

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping) -> Stage:
        return cls(str(data["key"]), str(data["question_id"]), str(data["step_id"]), int(data["seed"]),
                   float(data["budget_s"]), bool(data.get("followup", False)))


@dataclass(frozen=True)
class Format:
    id: str
    name: T
    """As lists show it."""
    blurb: T
    total_s: float
    """Time for the format's own stages (follow-ups come on top)."""
    max_followups: int
    draw: Callable
    """library -> the questions this format can ask."""
    needs: str
    """What content the format needs, for `tutor validate`."""
    spoken_s: float | None = None
    """A cap on speaking time: only the part of an answer said within it is graded (the pitch)."""

    def plan(self, library, rng: random.Random, asked: Mapping[str, int] | None = None) -> list[Stage]:
        """The stages of a new session: the least-asked question (ties drawn at random), new numbers."""
        asked = asked or {}
        candidates = self.draw(library)
        if not candidates:
            return []
        if self.id == "rapid":
            return _rapid_fire(candidates, rng, asked)
        fewest = min(asked.get(question.id, 0) for question in candidates)
        question = rng.choice([q for q in candidates if asked.get(q.id, 0) == fewest])
        seed = _fresh_seed(question, rng)
        total_weight = sum(step.weight for step in question.steps)
        return [Stage(f"{index + 1}-{step.id}", question.id, step.id, seed,
                      round(self.total_s * step.weight / total_weight, 1))
                for index, step in enumerate(question.steps)]

    def label(self, lang: str) -> str:
        return self.name.get(lang)


def _fresh_seed(question, rng: random.Random) -> int:
    """Parametric questions come with new numbers (seed 0 is the worked example the lesson shows)."""
    return rng.randint(1, 2**31 - 1) if question.vary else 0


def _rapid_fire(pool: list, rng: random.Random, asked: Mapping[str, int]) -> list[Stage]:
    """Ten questions, the least-asked first; a small pool repeats with other numbers."""
    order = sorted(pool, key=lambda question: (asked.get(question.id, 0), rng.random()))
    stages = []
    for index in range(RAPID_FIRE_QUESTIONS):
        question = order[index % len(order)]
        stages.append(Stage(f"{index + 1}-{question.id}", question.id, question.steps[0].id,
                            _fresh_seed(question, rng), RAPID_FIRE_S))
    return stages


FORMATS: dict[str, Format] = {
    "pitch": Format("pitch", T("30-second pitch", "30 秒陈述"),
                    T("the recipe in half a minute (about 75 words spoken), checked for its key points",
                      "半分钟讲完配方（说出来约 150 字），按要点打分"),
                    30.0, 1, lambda library: library.for_format("pitch"),
                    "add a scenario with `format: pitch` to interview/*.yaml", spoken_s=30.0),
    "design": Format("design", T("System design", "系统设计"),
                     T("trillion-parameter, MoE, 128K context, 70B fine-tune, RL: clarify, memory, layout, time, "
                       "operations", "万亿参数、MoE、128K 长上下文、70B 微调、RL：澄清、显存、配置、时间、运维"),
                     45 * 60.0, 3, lambda library: library.for_format("design"),
                     "reference a multi-step bank question with `format: design`"),
    "led": Format("led", T("Candidate-led design", "候选人主导的设计"),
                  T("a blank page: you set the structure, the order is scored too", "白纸一张：结构由你定，顺序也算分"),
                  45 * 60.0, 3, lambda library: library.for_format("led"),
                  "add a scenario with `format: led` (one open step, its `structure`) to interview/*.yaml"),
    "debug": Format("debug", T("Low-utilization debug", "利用率低排查"),
                    T("measurements and a trace: quantify, classify, next step", "看测量和 trace：量化、归类、下一步"),
                    15 * 60.0, 2, lambda library: library.for_format("debug"),
                    "add a scenario with `format: debug` to interview/*.yaml"),
    "hang": Format("hang", T("Step-N hang", "第 N 步 hang"),
                   T("eight ranks' stack dumps: which rank, why, the fix", "8 个 rank 的调用栈：哪个 rank、为什么、怎么修"),
                   15 * 60.0, 2, lambda library: library.for_format("hang"),
                   "add a scenario with `format: hang` to interview/*.yaml"),
    "behavioural": Format("behavioural", T("Behavioural: a hang you debugged", "行为面：讲一次你排查 hang 的经历"),
                          T("situation, what you did, the result, what changed", "背景、你做了什么、结果、之后改了什么"),
                          10 * 60.0, 2, lambda library: library.for_format("behavioural"),
                          "add a scenario with `format: behavioural` to interview/*.yaml"),
    "rapid": Format("rapid", T("Rapid fire", "快问快答"),
                    T("ten numeric questions, 90 s each, new numbers", "十道计算题，每题 90 秒，每次换数"),
                    RAPID_FIRE_QUESTIONS * RAPID_FIRE_S, 0, lambda library: library.rapid_fire_pool(),
                    "the bank needs a parametric question with one numeric step"),
}
"""Rapid fire asks no follow-ups: it drills speed, and a follow-up would break the rhythm."""
