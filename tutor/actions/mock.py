"""A mock interview, as the learner sits it: start, resume or abandon one left running, answer each
stage, end it. `tutor mock` and the app's Mock screen call these.

`tutor.interview.session.MockSession` is the interview itself (the plan, the clock, grading,
follow-ups) and keeps its own rows durable as it goes (`tutor.store.mocks`: the session when it
starts, each stage as it ends, the report when it closes). What the interview means for the rest
of the learner's history is recorded here, once per answer: a bank question's answer joins the
attempts (mode "mock"), and each question's review card is rated once per interview, after its
last stage. Ending early is one rule for both front ends: an interview ended in its first minute
is recorded as abandoned (left out of the trend, its answers kept), later it is finished.
"""

from __future__ import annotations

from tutor.interview.clock import Clock
from tutor.interview.session import MockSession, StageResult
from tutor.store.db import Store

EARLY_END_S = 60
"""An interview ended within this many seconds of its start is recorded as abandoned, not finished."""


def waiting(store: Store) -> list[dict]:
    """Interviews left running (interrupted), newest first: {id, format, mode, started_at, answered, stages}."""
    from tutor.interview.history import running

    return running(store)


def start(store: Store, library, format_id: str, mode: str = "strict", clock: Clock | None = None,
          seed: int | None = None, fuzz: bool = True) -> MockSession:
    """A new interview, written down before its first stage is shown (`SessionError` if it cannot be).
    `fuzz` False makes review intervals exact (tests)."""
    return MockSession.start(store, library, format_id, mode, clock, seed=seed, fuzz=fuzz)


def resume(store: Store, library, session_id: int, clock: Clock | None = None) -> MockSession:
    return MockSession.resume(store, library, session_id, clock)


def abandon(store: Store, library, session_id: int, clock: Clock | None = None) -> None:
    """Record an interrupted interview as abandoned; its answered stages stay in the history."""
    from tutor.interview.session import abandon as close

    close(store, library, session_id, clock)


def answer(session: MockSession, text: str, *, timed_out: bool = False, lang: str = "en") -> StageResult:
    """Grade and record the answer to the stage on screen; the report is written when it was the last."""
    result = session.submit(text, timed_out=timed_out, lang=lang)
    _remember(session, result, lang)
    return result


def ends_early(session: MockSession) -> bool:
    """Whether ending now would record the interview as abandoned (see the module)."""
    from datetime import datetime

    started = datetime.fromisoformat(session.started_at)
    return (session.clock.now() - started).total_seconds() < EARLY_END_S


def end(session: MockSession) -> tuple[dict, bool]:
    """End the interview before its last stage: (its report, whether it was recorded as abandoned)."""
    early = ends_early(session)
    return (session.abandon() if early else session.finish()), early


def _remember(session: MockSession, result: StageResult, lang: str) -> None:
    from tutor.interview.review import Outcome, ReviewQueue, question_item
    from tutor.store import Attempt, record_attempt

    stage = result.stage
    if stage.question_id in session.library.bank.questions and result.verdict.get("parsed") is not None:
        record_attempt(session.store, Attempt(stage.question_id, result.answer, result.correct, result.score,
                                              step_id=stage.step_id, seed=stage.seed, hints_used=result.hints_used,
                                              elapsed_s=round(result.elapsed_s, 2), lang=lang, mode="mock"))
    group = [item for item in session.stages if item.question_id == stage.question_id]
    if stage.key != group[-1].key:
        return  # a design question (or a repeated one) is reviewed once, after its last stage
    answered = [item for item in session.results if item.stage.question_id == stage.question_id]
    outcome = Outcome(all(item.correct for item in answered), sum(item.hints_used for item in answered),
                      sum(item.elapsed_s for item in answered), sum(item.stage.budget_s for item in answered))
    ReviewQueue(session.store, fuzz=session.fuzz, now=session.clock.now).record(question_item(stage.question_id),
                                                                               outcome)
