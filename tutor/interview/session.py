"""A mock interview as it runs: timed stages, grading, follow-ups; its record is `tutor.actions.mock`'s.

Durability (issue 10: "never lost"), kept by `tutor.actions.mock` through `tutor.store.mocks`:
the session row is written when it starts, with its plan (the stages and their seeds) in
`state_json`; each stage is written in its own transaction as it ends (the stage row and, when
a follow-up was added, the new plan). A session left `running` —
the app quit, the terminal closed, the process killed — is offered for resuming at the next
start, or recorded as abandoned; either way what was answered is kept. A stage that was on
screen but not answered starts again from the full time when resumed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Self

from tutor.grading.normalize import LONG_LIMIT
from tutor.interview.clock import Clock, SystemClock, stamp
from tutor.interview.formats import FOLLOW_UP_S, FORMATS, Stage

MODES = ("strict", "practice")
VAGUE_BELOW = 0.75
"""An answer scoring under this (even if it passes) is vague enough to draw a follow-up."""
PROBED_KINDS = ("config", "open")
"""Stages whose strong answers draw a trade-off probe: those where the candidate made a choice."""
STRUCTURE_SHARE = 0.25
"""Candidate-led rounds: the share of the stage's score that the order of its parts carries."""
STRUCTURE_PASS = 0.5
"""Candidate-led rounds: the least share of parts in the expected order for a right answer."""


class SessionError(ValueError):
    """A session that cannot be started or resumed as asked (one clear line for the learner)."""


@dataclass(frozen=True)
class StageResult:
    """One answered stage, as stored in `mock_stages`."""

    stage: Stage
    answer: str
    correct: bool
    score: float
    elapsed_s: float
    timed_out: bool
    hints_used: int
    verdict: dict
    """`Verdict.to_json(reveal=True)`: feedback in both languages, covered and missing points."""
    started_at: str
    ended_at: str

    @property
    def over_time(self) -> bool:
        return self.elapsed_s > self.stage.budget_s

    def detail(self) -> dict:
        return {"question_id": self.stage.question_id, "step_id": self.stage.step_id, "seed": self.stage.seed,
                "correct": self.correct, "elapsed_s": round(self.elapsed_s, 2), "budget_s": self.stage.budget_s,
                "timed_out": self.timed_out, "hints_used": self.hints_used, "followup": self.stage.followup,
                "verdict": self.verdict}


class MockSession:
    """One interview as a state machine: the plan, the clock, grading and follow-ups, and nothing
    else. It reads and writes no store: `tutor.actions.mock` starts it (`plan`), rebuilds it from
    its rows (`restore`), and writes each of its steps down (`tutor.store.mocks`)."""

    def __init__(self, library, session_id: int | None, format_id: str, mode: str, seed: int,
                 stages: list[Stage], results: list[StageResult], clock: Clock, started_at: str, fuzz: bool = True):
        self.library, self.clock = library, clock
        self.id, self.format, self.mode, self.seed = session_id, FORMATS[format_id], mode, seed
        self.stages, self.results = stages, results
        self.started_at = started_at
        self.report: dict | None = None
        self.status = "running"
        self.fuzz = fuzz
        """Whether review intervals are fuzzed (tests turn it off), for `tutor.actions.mock`."""
        self._stage_started: tuple[float, str] | None = None
        self._hints = 0

    # -- planning, restoring

    @classmethod
    def plan(cls, library, format_id: str, mode: str = "strict", clock: Clock | None = None,
             seed: int | None = None, fuzz: bool = True, asked: dict[str, int] | None = None) -> Self:
        """A new interview, not yet written down (its `id` is None): `asked` counts how often each
        question was asked before, so that the plan picks others."""
        if format_id not in FORMATS:
            raise SessionError(f"unknown format {format_id!r}; formats: {', '.join(FORMATS)}")
        if mode not in MODES:
            raise SessionError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
        clock = clock or SystemClock()
        seed = random.SystemRandom().randint(1, 2**31 - 1) if seed is None else seed
        stages = FORMATS[format_id].plan(library, random.Random(seed), asked or {})
        if not stages:
            raise SessionError(f"nothing to ask in the {format_id} format: {FORMATS[format_id].needs}")
        return cls(library, None, format_id, mode, seed, stages, [], clock, stamp(clock.now()), fuzz)

    @classmethod
    def restore(cls, library, session_id: int, row: dict | None, stage_rows: list[dict], clock: Clock | None = None,
                fuzz: bool = True) -> Self:
        """An interrupted interview from its rows (`tutor.store.mocks.mock_session` and `mock_stages`)."""
        if row is None or row["status"] != "running":
            raise SessionError(f"no interrupted mock interview with id {session_id}")
        state = row["state"]
        stages = [Stage.from_json(item) for item in state["stages"]]
        by_key = {stage.key: stage for stage in stages}
        results = []
        for stage_row in stage_rows:
            detail = stage_row["detail"]
            stage = by_key.get(stage_row["stage"])
            if stage is None:
                continue
            results.append(StageResult(stage, stage_row["answer"] or "", bool(detail["correct"]), stage_row["score"],
                                       detail["elapsed_s"], detail["timed_out"], detail["hints_used"],
                                       detail["verdict"], stage_row["started_at"], stage_row["ended_at"]))
        missing = [stage.question_id for stage in stages if library.question(stage.question_id) is None]
        if missing:
            raise SessionError(f"mock interview {session_id} asks questions no longer installed: {', '.join(missing)}; "
                               "abandon it")
        return cls(library, session_id, row["format"], row["mode"], int(state["seed"]), stages, results,
                   clock or SystemClock(), row["started_at"], fuzz)

    def state(self) -> dict:
        """The plan as it is written down (`state_json`): the seed and every stage, follow-ups included."""
        return {"seed": self.seed, "stages": [stage.to_json() for stage in self.stages]}

    # -- the stage on screen

    @property
    def done(self) -> bool:
        return len(self.results) >= len(self.stages)

    @property
    def current(self) -> Stage | None:
        return None if self.done else self.stages[len(self.results)]

    def _stage(self, stage: Stage | None) -> Stage:
        """`stage`, or the one on screen; asking about the stage on screen after the end is a bug."""
        chosen = stage or self.current
        if chosen is None:
            raise SessionError("this mock interview is already over")
        return chosen

    def question(self, stage: Stage | None = None):
        return self.library.question(self._stage(stage).question_id)

    def step(self, stage: Stage | None = None):
        from tutor.grading.dispatch import find_step

        stage = self._stage(stage)
        return find_step(self.question(stage), stage.step_id)

    def variant(self, stage: Stage | None = None):
        from tutor.grading.variant import draw

        stage = self._stage(stage)
        return draw(self.question(stage), stage.seed)

    def begin(self) -> None:
        """The current stage is on screen: its clock starts now."""
        self._stage_started = (self.clock.monotonic(), stamp(self.clock.now()))
        self._hints = 0

    def elapsed(self) -> float:
        return 0.0 if self._stage_started is None else self.clock.monotonic() - self._stage_started[0]

    def remaining(self) -> float:
        """Seconds left on the current stage; negative when over time (practice mode lets it run on)."""
        return (self.current.budget_s if self.current else 0.0) - self.elapsed()

    @property
    def time_up(self) -> bool:
        return self.current is not None and self._stage_started is not None and self.remaining() <= 0

    @property
    def hints_used(self) -> int:
        return self._hints

    def hint(self):
        """The next hint (a Text) for the current stage, or None; strict mode gives none."""
        if self.mode == "strict" or self.current is None:
            return None
        hints = self.step().hints
        if self._hints >= len(hints):
            return None
        self._hints += 1
        return hints[self._hints - 1]

    def shown_hints(self) -> list:
        return list(self.step().hints[:self._hints]) if self.current is not None else []

    def lesson_section(self) -> str | None:
        """The lesson section to read for this stage; strict mode keeps the lesson closed."""
        return None if self.mode == "strict" or self.current is None else self.question().section

    # -- answering

    def submit(self, answer: str, timed_out: bool = False, lang: str = "en") -> StageResult:
        """Grade the answer to the current stage and move on (a follow-up may join the plan). Writing
        it down is `tutor.actions.mock.answer`'s, which front ends call instead; after the last
        stage the interview is over (`done`) and `finish` gives its report."""
        from tutor.grading.dispatch import grade

        stage = self.current
        if stage is None:
            raise SessionError("this mock interview is already over")
        if self._stage_started is None:
            self.begin()
        assert self._stage_started is not None  # begin() sets it
        answer = answer[:LONG_LIMIT]
        graded, extra = answer, {}
        if self.format.spoken_s is not None:
            # The interviewer stops listening when the speaking time is up: grade what fits.
            from tutor.interview.spoken import measure

            spoken = measure(answer, self.format.spoken_s)
            graded, extra["spoken"] = spoken.kept, spoken.to_json()
        verdict = grade(self.question(stage), graded, stage.step_id, stage.seed)
        order = self.library.structure(stage.question_id)
        if order:
            from tutor.interview.structure import order_score

            extra["structure"] = order_score(self.step(stage), order, graded)
        correct, score = verdict.correct, verdict.score if verdict.readable else 0.0
        if "structure" in extra:
            # On a blank page the order is part of the answer: a quarter of the stage's score, and
            # an answer taken mostly out of turn (under half in order) is not right.
            order = extra["structure"]["score"]
            correct, score = correct and order >= STRUCTURE_PASS, score * (1 - STRUCTURE_SHARE + STRUCTURE_SHARE * order)
        result = StageResult(stage, answer, correct, score,
                             self.elapsed(), timed_out, self._hints, {**verdict.to_json(reveal=True), **extra},
                             self._stage_started[1], stamp(self.clock.now()))
        followup = self._followup_for(result) if not stage.followup else None
        if followup is not None:
            self.stages.insert(len(self.results) + 1, followup)
        self.results.append(result)
        self._stage_started = None
        return result

    def finish(self) -> dict:
        """End the interview (stages not reached score 0) and return its report."""
        return self._close("finished")

    def abandon(self) -> dict:
        """End the interview as abandoned: every answered stage kept, a partial report."""
        return self._close("abandoned")

    def _close(self, status: str) -> dict:
        from tutor.interview.report import build_report

        self.status = status
        self.report = build_report(self, status=status, ended_at=stamp(self.clock.now()))
        return self.report

    def _followup_for(self, result: StageResult) -> Stage | None:
        """A follow-up drawn among those on the stage's topics: after a wrong or vague answer one
        that probes the gap, after a strong answer one that probes its trade-offs (interviewers
        push on good answers too: why not more PP, why not FSDP)."""
        if sum(stage.followup for stage in self.stages) >= self.format.max_followups:
            return None
        strong = result.correct and result.score >= VAGUE_BELOW
        if strong and self.step(result.stage).kind not in PROBED_KINDS:
            return None  # a right number or a good list of questions leaves no choice to probe
        question = self.question(result.stage)
        planned = {stage.question_id for stage in self.stages}
        probes = ("strong", "any") if strong else ("weak", "any")
        fitting = [candidate for candidate, topics in self.library.followups(probes)
                   if topics & set(question.tags) and candidate.id not in planned]
        if not fitting:
            return None
        rng = random.Random(f"{self.seed}/{result.stage.key}")
        chosen = rng.choice(sorted(fitting, key=lambda candidate: candidate.id))
        seed = rng.randint(1, 2**31 - 1) if chosen.vary else 0
        return Stage(f"{result.stage.key}-followup", chosen.id, chosen.steps[0].id, seed, FOLLOW_UP_S, followup=True)

